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
