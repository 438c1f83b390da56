### declare -p scalar
x=1; declare -p x
### declare -p array
a=(1 "2 3"); declare -p a
### declare -p assoc
declare -A m=([k]=v); declare -p m
### declare -p flags
declare -rx ro=1; declare -p ro; declare -i n=3; declare -p n
### declare -p quoting
s='a"b$c'; declare -p s
### declare -f
f(){ echo hi; }; declare -F f; declare -F
### declare in function is local
f(){ declare x=in; }; x=out; f; echo $x
### declare -g in function
f(){ declare -g gx=set; }; f; echo $gx
### local outside function
local x=1; echo $?
### export and env
export EX=1; bash_env_check=$(env | grep -c '^EX=1$'); echo $bash_env_check
### export -n
export E2=1; export -n E2; env | grep -c '^E2=' ; echo $E2
### readonly -p
readonly RO1=x; readonly -p | grep -c RO1
### unset readonly
readonly R=1; unset R; echo $?
### typeset
typeset -i t=2*3; echo $t
### local -n nameref
f(){ local -n r=$1; r=changed; }; v=orig; f v; echo $v
### shift multiple
set -- 1 2 3 4; shift 2; echo "$@"
### set positional from set
set a b; echo $1$2 $#
### set -- empty
set -- ; echo $#
### set -o listing has errexit
set -o | grep -c errexit
### set options via $-
set -u; case $- in *u*) echo has-u;; esac
### shopt print
shopt nullglob; shopt -s nullglob; shopt nullglob; shopt -p nullglob
### shopt -q
shopt -q extglob; echo $?
### shopt invalid
shopt -s nosuchopt; echo $?
### alias listing
alias ll='ls -l'; alias ll; alias
### unalias missing
unalias nope; echo $?
### type function and builtin
f(){ :; }; type -t f echo if cat nosuch; echo $?
### command -v builtin and function
f(){ :; }; command -v f echo if
### hash builtin
hash cat; echo $?; hash nosuch_cmd_q; echo $?
### eval quoting
eval 'a=(1 2 3)'; echo ${a[2]}; eval "echo \$((1+2))"
### eval syntax error
eval 'if'; echo $?
### source with args
echo 'echo "args: $# $1"' > s.sh; source s.sh x y
### source missing
source nosuch.sh; echo $?
### source return value
printf 'return 3\n' > r.sh; . ./r.sh; echo $?
### read with prompt no tty
echo input | { read -p 'prompt> ' v; echo "$v"; }
### read -a
echo "a b c" | { read -a arr; echo ${arr[1]} ${#arr[@]}; }
### read -d
printf 'one;two;' | { read -d ';' x; echo $x; }
### read -n
echo abcdef | { read -n 3 x; echo $x; }
### read -N
printf 'ab\ncd' | { read -N 4 x; echo "$x" | od -c | head -1; }
### read backslash
printf 'a\\ b\n' | { read x; echo "$x"; }; printf 'a\\ b\n' | { read -r x; echo "$x"; }
### read eof status
printf 'noeol' | { read x; echo "$? $x"; }
### read leftover to last var
echo "1 2 3 4" | { read a b; echo "$b"; }
### read IFS custom
echo "a:b:c" | { IFS=: read x y z; echo $z$y$x; }
### read empty line
printf '\n' | { read x; echo "[$x] $?"; }
### mapfile options
printf 'a\nb\nc\nd\n' | { mapfile -t -s 1 -n 2 arr; echo ${arr[@]}; }
### readarray delim
printf 'x,y,z' | { readarray -d , -t arr; echo ${#arr[@]} ${arr[2]}; }
### getopts silent
set -- -x -a; while getopts :a opt; do echo "$opt ${OPTARG:-}"; done
### getopts missing arg
set -- -b; while getopts :b: opt; do echo "$opt $OPTARG"; done
### getopts combined
set -- -ab -c val rest; while getopts abc: o; do echo "$o ${OPTARG:-}"; done; echo $OPTIND
### trap list
trap 'echo x' EXIT; trap -p EXIT; trap - EXIT; trap -p
### trap on INT via kill
trap 'echo got INT' INT; kill -INT $$; echo after
### trap TERM default kills
(kill -TERM $BASHPID; echo not-reached); echo $?
### trap ignore
trap '' TERM; kill -TERM $$; echo survived
### trap RETURN
f(){ trap 'echo returning' RETURN; echo in-f; }; f
### trap DEBUG
trap 'echo dbg' DEBUG; echo one; trap - DEBUG; echo two
### trap in subshell reset
trap 'echo parent' EXIT; (echo sub); echo main
### kill -l
kill -l 9; kill -l KILL
### kill job
sleep 5 & kill $!; wait $!; echo $?
### jobs listing
sleep 0.1 & jobs | grep -c Running; wait
### wait no jobs
wait; echo $?
### wait -n
(exit 2) & (sleep 0.2; exit 3) & wait -n; echo $?; wait
### bg pid differs
echo $$ > /dev/null; (echo $BASHPID) > p1; [ "$(cat p1)" != "$$" ] && echo differs
### subshell $$ same
a=$$; b=$(echo $$); [ $a = $b ] && echo same
### caller
f(){ caller 0 | cut -d' ' -f2; }; g(){ f; }; g
### FUNCNAME stack
f(){ g; }; g(){ echo "${FUNCNAME[@]}"; }; f
### pushd popd dirs
mkdir -p x/y; pushd x >/dev/null; pushd y >/dev/null; dirs | wc -w; popd >/dev/null; popd >/dev/null; dirs | wc -w
### cd dash
mkdir a b; cd a; cd ../b; cd - >/dev/null; basename $PWD
### cd nonexistent
cd /nonexistent; echo $?
### cd to file
touch file; cd file; echo $?
### pwd after cd dotdot
mkdir -p p/q; cd p/q; cd ..; basename $(pwd)
### umask
umask; umask 027; umask; umask -S
### ulimit
ulimit -n >/dev/null && echo ok
### times format
times | wc -l
### help lists
help | grep -c echo >/dev/null && echo ok
### let return
let 0; echo $?; let 1; echo $?
### true false colon
true; echo $?; false; echo $?; :; echo $?
### builtin keyword
builtin echo via-builtin; builtin nosuch; echo $?
### command bypasses function
echo(){ printf 'func\n'; }; echo x; command echo real
### enable list
enable | grep -c 'enable echo'
### printf %s with no args
printf '%s\n'
### printf -v array element
printf -v 'arr[2]' '%s' val; echo ${arr[2]}
### echo combined flags
echo -ne 'a\tb\n'; echo -en 'c\n'; echo -n -e 'd\n'; echo -x
### echo double dash
echo -- -n
### exit with no arg uses last status
false; exit
### exit too large
exit 300
### exit non numeric
exit abc; echo no
### return outside function
return 2; echo $?
### break outside loop
break; echo $?
### continue n
for i in 1 2; do for j in a b; do continue 2; echo no; done; echo no2; done; echo done
### nested function definition
outer(){ inner(){ echo inner; }; }; outer; inner
### function with redirect
f(){ echo redirected; } > fr.txt; f; cat fr.txt
### function keyword syntax
function g { echo kw; }; g
### recursive depth 100
r(){ (( $1 > 0 )) && r $(( $1 - 1 )) || echo bottom; }; r 100
### variable scoping dynamic
x=g; f(){ echo $x; }; h(){ local x=h; f; }; h
### local shadow unset
x=g; f(){ local x; echo "[${x-unset}]"; }; f
### array in function args
f(){ echo $#; }; a=(1 "2 3" 4); f "${a[@]}"
### return value via echo
f(){ echo result; }; r=$(f); echo $r
### special param underscore
echo a b; echo $_
### LINENO
echo $LINENO
echo $LINENO
### SECONDS numeric
[[ $SECONDS =~ ^[0-9]+$ ]] && echo ok
### BASH_VERSION major
echo ${BASH_VERSINFO[0]}
### HOSTNAME set
[[ -n $HOSTNAME ]] && echo ok
### PPID numeric
[[ $PPID =~ ^[0-9]+$ ]] && echo ok
### IFS default
printf '%q\n' "$IFS"
### OPTIND default
echo $OPTIND
### let error returns 1 and continues
let "1/0"; echo "after $?"
### command -p searches the standard path and restores PATH
mkdir -p tb; printf 'echo wrong\n' > tb/tr; chmod +x tb/tr; OLD=$PATH; PATH="$PWD/tb:$PATH"; echo aaa | tr a b; echo aaa | command -p tr a b; [ "$PATH" = "$PWD/tb:$OLD" ] && echo restored; PATH=/nowhere; command -p ls / >/dev/null; echo st=$?; command -pv cat; unset PATH; command -p true; echo ${PATH-unset}
### help: bash's topic list, synopses and descriptions
help
help -s cd; help -s read printf
help -d cd pwd
help -s 'c*' 'p*'
help ca | head -2
help cd | head -2
help -m cd | head -5
help -s nosuchtopic; echo st=$?
help -x; echo st=$?
help -s '(( ... ))' if; echo st=$?
### unset expands an element's subscript; a scalar has only element 0 [stderr]
declare -A dict=(); key=1],a[1; dict["$key"]=foo
unset -v 'dict["$key"]'; echo ${#dict[@]}
declare -A d2=([a]=1 [b]=2 ['$k']=3); k=a
unset 'd2[$k]'; declare -p d2; unset "d2[b]"; declare -p d2
a=(1 2 3); i=1; unset "a[\$i]" 'a["2"]'; echo $?; declare -p a
x=5; unset "x[1]"; echo $?; unset "x[@]"; echo $?; unset "x[1-1]"; echo $?; declare -p x
declare u; unset 'u[1]'; echo $?; unset 'nope[1]'; echo $?
### builtins writing to a full disk report it, and most fail (/dev/full) [stderr]
type echo > /dev/full; echo status=$?
ulimit -a > /dev/full; echo status=$?
ulimit -n > /dev/full; echo status=$?
alias a=b; alias > /dev/full; echo status=$?
alias a > /dev/full; echo status=$?
declare -p PATH > /dev/full; echo status=$?
f() { :; }; declare -f > /dev/full; echo status=$?
declare -fp f > /dev/full; echo status=$?
export -p > /dev/full; echo status=$?
g() { local x=1; local > /dev/full; echo local=$?; }; g
pwd > /dev/full; echo status=$?
cd / > /dev/full; echo status=$?
set -o > /dev/full; echo status=$?
shopt > /dev/full; echo status=$?
trap -p > /dev/full; echo status=$?
trap '' INT; trap > /dev/full; echo status=$?
umask > /dev/full; echo status=$?
help cd > /dev/full; echo status=$?
pushd / > /dev/full; echo status=$?
command -v ls > /dev/full; echo status=$?
echo hi > /dev/full; echo status=$?
head -c 4 /dev/full | od -An -tx1
