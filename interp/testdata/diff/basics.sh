### echo
echo hello world
### echo flags
echo -n a; echo -e 'b\tc'; echo -E 'd\te'; echo -ne 'x\n'
### status of false
false; echo $?
### return status
f(){ return 3; }; f; echo $?
### exit status
exit 7
### and or
true && echo a || echo b; false && echo c || echo d
### negation
! true; echo $?; ! false; echo $?
### arithmetic
x=5; echo $((x*3+1)) $((x/2)) $((x%3)) $((2**10)); ((x++)); echo $x
### for loop
for i in a b c; do echo $i; done
### c-style for
for ((i=0;i<3;i++)); do echo $i; done
### while
i=0; while [ $i -lt 3 ]; do echo $i; i=$((i+1)); done
### until
i=0; until [ $i -ge 2 ]; do echo $i; ((i++)); done
### break continue
for i in 1 2 3 4 5; do [ $i = 2 ] && continue; [ $i = 4 ] && break; echo $i; done
### break 2
for i in 1 2; do for j in a b; do [ $j = b ] && break 2; echo $i$j; done; done; echo end
### case
for w in apple banana cherry; do case $w in a*) echo A;; b*|c*) echo BC;; esac; done
### case fallthrough
case x in x) echo one;& y) echo two;; z) echo three;; esac
### case resume
case ab in a*) echo one;;& *b) echo two;; *) echo three;; esac
### functions and locals
x=global; f(){ local x=local; echo $x; g; }; g(){ echo $x; }; f; echo $x
### positional
set -- a b c; echo $# $1 $3 "$*"; shift; echo $@
### arrays
a=(one two three); echo ${#a[@]} ${a[1]} ${a[@]:1}; a+=(four); echo ${a[-1]}; unset 'a[0]'; echo ${a[@]} ${!a[@]}
### assoc arrays
declare -A m; m[x]=1; m[y]=2; echo ${m[x]} ${m[y]} ${#m[@]}
### param expansion
s=hello.tar.gz; echo ${s%.*} ${s%%.*} ${s#*.} ${s##*.} ${#s} ${s/l/L} ${s//l/L} ${s^^} ${s:1:3}
### default values
unset u; echo ${u:-def} ${u-x} ${u:=set}; echo $u; e=; echo "${e:+alt}" "${e+alt2}"
### command substitution
x=$(echo inner); echo "[$x]"; echo `echo back`
### nested subst
echo $(echo $(echo deep))
### subshell isolation
x=1; (x=2; echo $x); echo $x
### pipeline
echo -e 'b\na\nc' | sort | head -2
### pipestatus
true | false | true; echo ${PIPESTATUS[@]}
### pipefail
set -o pipefail; false | true; echo $?
### here string
read a b <<< "one two"; echo $b $a
### heredoc
cat <<EOT
line $((1+1))
EOT
### quoted heredoc
cat <<'EOT'
no $expansion here
EOT
### dash heredoc
cat <<-EOT
	tabbed
	EOT
### redirect to file
echo data > f.txt; cat f.txt; echo more >> f.txt; cat f.txt
### redirect stderr
ls /nonexistent 2>/dev/null; echo $?
### fd dup
{ echo out; echo err >&2; } 2>&1 | cat
### exec fd
exec 3> g.txt; echo to3 >&3; exec 3>&-; cat g.txt
### read loop
printf 'a 1\nb 2\n' > in.txt; while read k v; do echo "$v:$k"; done < in.txt
### set -e
set -e; true; false; echo unreachable
### set -e in condition
set -e; if false; then echo no; fi; false || echo ok; echo after
### set -u
set -u; echo ${unset_var:-ok}; echo $unset_var; echo no
### errexit in function
set -e; f(){ false; echo no; }; f; echo no2
### trap exit
trap 'echo bye' EXIT; echo hi
### trap err
trap 'echo err caught' ERR; false; echo after
### printf
printf '%s-%d-%05.2f\n' a 42 3.14159; printf '%x %o %e\n' 255 8 1234.5
### printf -v
printf -v out '%03d' 7; echo $out
### test builtin
[ -z "" ] && echo empty; [ abc = abc ] && echo eq; [ 3 -lt 5 ] && echo lt; test -n x && echo nonempty
### double bracket
[[ abc == a* ]] && echo glob; [[ 5 -gt 3 && x != y ]] && echo and; [[ -n $undefined ]] || echo unset
### regex
[[ 2024-01-02 =~ ^([0-9]+)-([0-9]+) ]] && echo ${BASH_REMATCH[2]} ${#BASH_REMATCH[@]}
### brace expansion
echo {a,b,c} {1..5} {01..03} x{y,z}
### tilde
echo ~ | grep -c /
### glob
touch a1 a2 b1; echo a*; echo [ab]1; echo nomatch*
### nullglob
shopt -s nullglob; echo nomatch* end
### eval
cmd='echo evaluated'; eval $cmd; eval 'x=5'; echo $x
### source
echo 'sourced_var=42' > lib.sh; . ./lib.sh; echo $sourced_var
### declare -i
declare -i n=5+5; echo $n; n+=1; echo $n
### declare -l -u
declare -l lo=HeLLo; declare -u up=world; echo $lo $up
### readonly
readonly r=1; r=2; echo no
### unset
x=1; unset x; echo "[${x-unset}]"
### let
let a=5*2 b=a+1; echo $a $b
### getopts
set -- -a -b val file; while getopts ab: o; do echo "$o ${OPTARG-}"; done; shift $((OPTIND-1)); echo $1
### string ops
s="Hello World"; echo ${s,,} ${s^} ${#s}
### substring negative
s=abcdef; echo ${s: -2} ${s:(-3):2}
### indirect
name=target; target=value; echo ${!name}
### nameref
declare -n ref=tgt; tgt=1; ref=2; echo $tgt
### mapfile
printf 'x\ny\nz\n' | { mapfile -t arr; echo ${#arr[@]} ${arr[2]}; }
### lastpipe
shopt -s lastpipe; echo hi | read v; echo $v
### command -v
command -v echo; command -v cat; command -v nosuchcmd; echo $?
### type
type echo; type -t cd; f(){ :; }; type -t f
### background and wait
(echo bg) & wait; echo done
### wait status
(exit 3) & wait $!; echo $?
### function recursion
fact(){ if [ $1 -le 1 ]; then echo 1; else echo $(( $1 * $(fact $(( $1 - 1 ))) )); fi; }; fact 6
### fib 15
fib(){ if (( $1 < 2 )); then echo $1; else echo $(( $(fib $(( $1-1 ))) + $(fib $(( $1-2 ))) )); fi; }; fib 12
### ifs splitting
IFS=: read -r a b c <<< "x:y:z"; echo $c $b $a; v="1,2,3"; IFS=,; set -- $v; echo $#
### quoting
echo "a  b" 'c  d' a\ \ b "$(echo "x  y")"
### dollar single quote
echo $'tab\there' $'nl\\n'
### process substitution
cat <(echo from-ps)
### diff procsubst
while read l; do echo "got $l"; done < <(printf '1\n2\n')
### noclobber
set -C; echo a > c.txt; echo b > c.txt; echo $?; echo c >| c.txt; cat c.txt
### command not found
nosuchcommand_xyz; echo $?
### exit in subshell
(exit 5); echo $?
### arithmetic compare
(( 3 > 2 )) && echo yes; (( 0 )) || echo zero
### nested functions output
f(){ echo "args: $#"; }; f "a b" c; f
### select-like read
read -r first < /dev/stdin; echo "first=$first"
### cd and pwd
mkdir -p d/e; cd d/e; pwd | sed 's|.*/d/e|D/E|'; cd ..; basename $(pwd)
### alias
shopt -s expand_aliases; alias hi='echo hello'
hi there
### special vars
echo $# ; f(){ echo $0 $FUNCNAME; }; f
### random seeded is numeric
x=$RANDOM; [[ $x =~ ^[0-9]+$ ]] && echo num
### string compare
[[ abc < abd ]] && echo less; [ "a" != "b" ] && echo ne
### unset -f
f(){ echo f; }; unset -f f; f 2>/dev/null || echo gone
### local array
f(){ local -a arr=(1 2); echo ${arr[1]}; }; f; echo "[${arr[*]}]"
### xtrace
set -x; echo traced; set +x; echo quiet
### shift error
set -- a; shift 2; echo $?
### sequence in braces
echo {a..e} {10..1..3}
### printf reuse
printf '%s=%s\n' a 1 b 2 c
### printf q
printf '%q\n' "a b" "it's"
### echo escapes default off
echo 'a\nb'
### arithmetic ternary and bitwise
echo $(( 5 > 3 ? 10 : 20 )) $(( 6 & 3 )) $(( 6 | 3 )) $(( 1 << 4 )) $(( ~0 ))
### integer overflow wraps
echo $(( 9223372036854775807 + 1 ))
### division by zero
echo $((1/0)); echo after
### unbound with ?
echo ${x:?custom message}; echo after
### for loop with invalid identifier
for - in a b; do echo hi; done; echo after $?
for i.j in $(echo x); do echo hi; done; echo after $?
### break with a non-numeric argument stops the script
for i in 1 2; do echo hi; break oops; echo no; done; echo not reached
### break with a bad argument outside a loop
break x; echo after $?
### prefix assignments of an external command see the earlier ones
FOO="foo" BAR="[$FOO][$BAZ]" BAZ=baz env | grep -E '^BAR='; echo "[$FOO][$BAR]"
x=g; f() { x=t y=$x env | grep '^y='; echo $x; }; f
### a function definition in a pipeline or an and-or list
echo hello | potato() { echo abc; } | echo ha; f() { echo in; } && f || echo no; g() { echo r; } >/dev/null; g; h() { :; } | cat; type h >/dev/null 2>&1 || echo no h
