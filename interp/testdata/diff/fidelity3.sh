### [[ ]]: ! negates its own operand, && binds tighter than ||
[[ ! -n x && -n "" ]] && echo BUG
[[ x == y && a == b || c == c ]] && echo T
[[ -n x || -z x && -z x ]] && echo pr
[[ ! ! -n x ]] && echo nn
[[ ! ( -n x && -n "" ) ]] && echo P
[[ a == a
&& b == b ]] && echo NL
[[ a == b || a == c || a == a ]] && echo left
[[ ! a == b && ! -z x ]] && echo both
### a function's prefix assignment reads the caller's value
X=old; g() { echo "[$X]"; }
X="$X-2" g
X="$(echo "$X")b" g
X+=c g
A=1 B=$A eval 'echo "$A$B"'
g; echo "$X"
### $? in the arguments of declare, local, export and readonly
f() { false; local rc=$?; echo "local $rc"; }
f
false; declare s=$?; echo "declare $s"
false; declare -a arr=($?); echo "array ${arr[0]}"
false; export e=$?; echo "export $e"
false; readonly r=$?; echo "readonly $r"
declare x=$(exit 3); echo "status $?"
declare 1x=2 2>/dev/null; echo "bad name $?"
### a quoted part of a glob holding - + @ ! ( \ matches itself
for c in - + @ '!' '(' '*' '[' '\'; do
  mkdir -p "r/v${c}n"; touch "r/v${c}n/a.bash"
  echo "r/v${c}n"/*.bash
done
echo "$PWD/r/v-n"/*.bash | sed "s|^$PWD/||"
### a bracket expression starting with - takes it literally
case -a in [-+]?) echo m;; esac
case + in [-+]) echo p;; esac
case - in [a-]) echo t;; esac
case - in [!-]) echo N;; esac
case b in [-a-c]) echo D;; esac
y=-x; [[ $y == [-+]x ]] && echo dd
x=-q; echo "${x#[-+]}"
### a function may shadow its caller's readonly local, not a readonly global
f() { local -r file=1; g; echo "$file"; }
g() { local -r file=2; echo "$file"; local file=3 2>/dev/null; echo "$file $?"; }
f
readonly G=1
h() { local G=2 2>/dev/null; echo "$G $?"; }
h
### declare -f takes a word with = as a name unless it is an assignment
b.=() { echo hi; }
declare -f "b.="; echo $?
declare -F "b.="
declare -f "a=b" 2>/dev/null; echo $?
e=(1); declare "a[1]=5" "c+=d" "e[0]+=4"
declare -p a c e
