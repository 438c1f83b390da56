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
### type and command -v fall back to a file on PATH that is not executable
mkdir -p bin; echo 'echo hi' > bin/foo; PATH=$PWD/bin:$PATH
type -P foo | sed "s|$PWD/||"
type -p foo | sed "s|$PWD/||"
command -v foo | sed "s|$PWD/||"
type -t foo
type foo | sed "s|$PWD/||"
command -V foo | sed "s|$PWD/||"
type -a foo 2>/dev/null; echo "type -a $?"
hash foo 2>/dev/null; echo "hash $?"
### set -e ends the shell in a function: the EXIT trap sees the function stack
set -e
trap 'echo "[${FUNCNAME[*]}] $? ${BASH_LINENO[*]}"' EXIT
t() { false; }
u() { t; }
u
echo not reached
### exit in a function: the EXIT trap sees the function stack
trap 'echo "[${FUNCNAME[*]}] $?"' EXIT
t() { (exit 3); echo "sub $?"; exit 4; }
t
### set -eu: an unbound variable in a function ends the shell with status 1
set -eu
trap 'echo "[${FUNCNAME[*]}] $?"' EXIT
t() { echo "$nope"; }
t
### $LINENO in PS4 is the traced command's line
exec 2>&1
PS4='+${LINENO}: '
set -x
echo a

echo b
f() {
  echo c
}
f
for i in 1; do
  echo $i
done
### $BASH_COMMAND shows the command's redirections
exec 2>&1
trap 'echo "[$BASH_COMMAND]"' DEBUG
echo hi > /dev/null
echo x 2>&1 >/dev/null
cat < /dev/null
: <<EOF
a
EOF
{ echo b; } > /dev/null
f() { :; }
f >/dev/null 2>&1
echo 3>>/dev/null 4<&- >|/dev/null
### declare -F under extdebug prints the name, line and file
f() {
  :
}

g()
{
  :
}
printf '\n\nh() { :; }\n' > lib.sh
shopt -s extdebug
declare -F f g nosuch; echo $?
declare -F
source ./lib.sh
declare -F h
eval 'k() { :; }'
declare -F k
shopt -u extdebug
declare -F f
### source and eval parse line by line: extglob set on one line applies to the next
printf 'shopt -s extglob\nx=abc\necho ${x/@(b|c)/X}\ncase ab in +(a|b)) echo m;; esac\n' > eg.sh
source ./eg.sh
shopt -u extglob
eval "$(cat eg.sh)"
### eval and source run the lines before a syntax error
eval 'echo a
(' 2>/dev/null; echo "st $?"
printf 'echo b\n(\n' > se.sh
source ./se.sh 2>/dev/null; echo "st $?"
### [[ -eq ]] on a value: a subscript with a command, an expansion in the text
a=(5 6)
x='a[$(:)]'; [[ $x -eq 5 ]]; echo "st $?"
y='$z'; [[ $y -eq 0 ]] 2>/dev/null; echo "st $?"
[[ 1+ -eq 0 ]] 2>/dev/null; echo "st $?"
echo after
### aliases are expanded as a line is read: a comment in one hides the rest of the line
shopt -s expand_aliases
alias D=":; #"
D x && echo v
echo after
f() { D; echo in-f; }
f
### an alias may be a keyword or a declaration with an array
shopt -s expand_aliases
alias arr="declare -a" if=echo
arr x=(1 2); echo "${x[1]}"
if hi
### an alias takes effect from the next line, in scripts, eval and source
shopt -s expand_aliases
alias l='echo L'; l same-line 2>/dev/null; echo "st $?"
l next-line
eval $'alias z=echo\nz eval-next'
eval 'alias z2=echo; z2 eval-same' 2>/dev/null; echo "st $?"
printf 'alias s=echo\ns sourced\n' > lib.sh; . ./lib.sh
echo $(l in-subst)
### an alias ending in a blank expands the next word; assignments and redirections come first
shopt -s expand_aliases
alias e='echo ' w=world n='echo nb'
e w; n w
X=1 e w
>&1 e w
e "w" w
### an alias is not expanded again in its own text, but in what it calls
shopt -s expand_aliases
alias ls='ls -d' a=b b=a
ls /
a 2>/dev/null; echo "st $?"
alias g='h '; alias h='echo h-'
g g
alias c='f1'; f1() { echo f1; }; alias f1='echo aliased-f1'
c
alias ev='eval echo ev'
ev 1
### compgen -W expands its words as shell words
arr=("a b" c "d e"); compgen -W '"${arr[@]}"'; echo "--"
x="p q"; compgen -W '$x z' p; echo "--"
compgen -W "a\ b 'c d' \$(echo e f)"; echo "--"
compgen -W "x" -P "<" -S ">"
### compgen -X drops what matches, or keeps only it after !, with & for the word
compgen -W "apple banana avocado" -X "a*"; echo "--"
compgen -W "apple banana avocado" -X "!a*"; echo "--"
compgen -W "apple banana avocado" -X "!&*" av; echo "--"
compgen -W 'x y' -X '*'; echo "rc=$?"
### compgen -f and -d name directories without a slash; -o plusdirs adds them; -G globs
mkdir d1; touch d1/x f1
compgen -f f; compgen -f d; compgen -d; compgen -f d1/; echo "--"
compgen -W "zz yy" -o plusdirs; echo "--"
compgen -d -W "w1"; echo "--"
compgen -G "f*"; compgen -G "nomatch*"; echo "rc=$?"
### compgen -F runs the function and prints COMPREPLY [script]
_set_COMPREPLY() {
  COMPREPLY=({0..9})
  unset -v 'COMPREPLY[2]' 'COMPREPLY[4]' 'COMPREPLY[6]'
}
compgen -F _set_COMPREPLY 2>/dev/null; echo "rc=$?"
g() { echo "args: $*"; COMPREPLY=(x y "$2z"); }
compgen -F g -W "ab1 ab2" ab 2>&1; echo "rc=$?"
compgen -F nosuch; echo "rc=$?"
### a $name that brace expansion puts before name characters takes them in
a=A b=B a_c=AC
echo {$a,b}_{c,d}
echo {_$a,b}_{c,d} x{$a,$b}y
echo {$a,b}$b{c,d} ${a}{x,y} {1,2}$a
### a line continuation right after $ is removed
x=5
echo $\
? $\
x "$\
x" $\
{x}
### ${v//pat/r} with a negated bracket expression that starts with ]
s='ab^cd^' t='a]b' p='[^]]'
echo ${s#[^]]} ${s%[^]]} ${s/[^]]/z} ${s//[!]]/z} ${s//$p/z}
echo ${s//[]]/z} ${s//[]a]/z} ${t//[]]/z} ${t//[^a]/z} ${t//[^]]b/z}
### a bad substitution with single quotes in it fails when it runs [script]
set -- "###x"
echo before
echo ${#1#'###'}
echo not reached
