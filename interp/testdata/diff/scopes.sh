### prefix bindings of a function are its scope: unset uncovers the caller's
f() { echo "x=$x"; x=mutated; echo "x=$x"; unset x; echo "x=$x"; }
x=global
x=temp f
echo "x=$x"
### local adopts the prefix binding of its own call
f() { local x; echo "[$x]"; declare -p x; x=L; }
x=t f; echo "[${x-unset}]"
g() { local v=local1; v=tempenv2 eval 'local v=local2; echo "$v"'; echo "$v"; }
v=global; v=tempenv1 g; echo "$v"
### dynamic unset walks the temp scopes of nested eval
unlocal() { unset -v "$1"; }
f() {
  v=t2 eval '
    v=t3 eval "
      echo \$v; unlocal v; echo \${v-unset}; unlocal v; echo \${v-unset}
      unlocal v; echo \${v-unset}; unlocal v; echo \${v-unset}
    "
  '
}
v=global; v=t1 f
### unset in the same function is a value-unset of a local
f() {
  local v=l1
  v=t2 eval 'local v=l2; (unset v; echo "${v-(unset)}"); (unlocal v; echo "${v-(unset)}")'
}
unlocal() { unset -v "$1"; }
v=t1 f
### prefix bindings of eval and unset
x=1 eval 'x=2; y=3'; echo "[${x-u}] [$y]"
x=42; f() { x=tmp eval 'unset x'; echo "x=$x"; x=tmp unset x; echo "x=$x"; }; f
set -o posix; f; x=5 eval ':'; declare -p x
g() { y=1 eval 'y=2; local y=3'; echo "g[$y]"; }; g; echo "[$y]"
### prefix binding through a nameref and with +=
declare -n r=t; t=outer
f() { echo "$t"; declare -p t; }
r=inner f; echo "$t"
s=ab; s+=cd f2() { echo "$s"; }; f2() { echo "$s"; }; s+=cd f2; echo "$s"
### a readonly prefix binding is reported and the function still runs
readonly ro=1; f() { echo "ro=$ro"; }; ro=2 f; echo "status=$?"
### local takes the value of a prefix binding of any caller's frame [stderr]
unlocal() { unset -v "$1"; }
f5() {
  echo "[$1] v: ${v-(unset)}"
  local v
  echo "[$1,local] v: ${v-(unset)}"
  ( unset v; echo "[$1,local+unset] v: ${v-(unset)}" )
  ( unlocal v; echo "[$1,local+unlocal] v: ${v-(unset)}" )
}
v=global
f5 g; v=tempenv f5 g,t; v=tempenv eval 'f5 "g,t,(eval)"'
f1() { local v; echo "[$1,(local)] v: ${v-(unset)}"; declare -p v; env | grep '^v='; }
f2() { f1 "$1,(func)"; }
f3() { local v=local; f1 "$1,local,(func)"; }
v=tempenv f2 g,t; f3 g; (export v=global; f2 x)
### a local made an array starts empty; a global converts [stderr]
f() { local a=5; local -a a; declare -p a; local b=6; local -A b; declare -p b; local -a c=7; declare -p c; }; f
a=x; h() { local a; local -a a; declare -p a; }; a=tt h
a=5; declare -a a; declare -p a
k() { local -a q; declare -p q; declare -g -a a; declare -p a; }; k
### the environment takes the innermost exported binding that is set
export v=g
f(){ local v; env|grep ^v=; echo 1; }; f
f(){ local v=1; unset v; env|grep ^v=; echo 2; }; f
f(){ local v; declare +x v; env|grep ^v=; echo 3; }; f
f(){ local +x v=1; env|grep ^v=; echo 4; }; f
w=g; f(){ local -x w; env|grep ^w=; echo 5; }; f
f(){ local v; bash -c 'echo "${v-unset}"'; echo 6; }; f
