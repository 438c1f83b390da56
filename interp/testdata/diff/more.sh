### subshell var changes invisible
x=1; (x=2; y=3); echo $x ${y-none}
### group command shares state
x=1; { x=2; y=3; }; echo $x $y
### pipeline subshell state lost
x=1; echo | x=2; echo $x
### function modifies global
f(){ g=changed; }; g=orig; f; echo $g
### function in pipeline no effect
f(){ g=changed; }; g=orig; f | cat; echo $g
### command subst no effect
x=1; y=$(x=2; echo $x); echo $x $y
### export to child shell
export V=exported; bash -c 'echo $V'
### non exported invisible to child
NV=local; bash -c 'echo "[${NV-}]"'
### prefix assignment to child
V=prefix bash -c 'echo $V'; echo "[${V-}]"
### prefix assignment to function
f(){ echo "in f: $V"; }; V=temp f; echo "after: [${V-}]"
### prefix assignment to builtin
IFS=, read a b <<< "1,2"; echo $a $b; echo "[$IFS]" | od -c | head -1 | wc -w
### bash -c with args
bash -c 'echo $0 $1 $#' zero one two
### sh -c
sh -c 'echo from sh'
### nested bash exit status
bash -c 'exit 4'; echo $?
### nested bash syntax error
bash -c 'if then' 2>/dev/null; echo $?
### bash script file
printf 'echo script $1\nexit 6\n' > sc.sh; bash sc.sh arg; echo $?
### executable script with shebang
printf '#!/bin/bash\necho shebang $#\n' > ex.sh; chmod +x ex.sh; ./ex.sh a b
### script without exec bit
printf 'echo hi\n' > noexec.sh; ./noexec.sh; echo $?
### script directory
mkdir dd; ./dd; echo $?
### quote removal
echo "a"'b'c"$(echo d)"
### escaped chars
echo \$HOME \"quoted\" \\back
### empty string args
f(){ echo $#; }; f "" "" x
### unquoted expansion with globchars in var
touch x1 x2; p='x*'; echo $p; echo "$p"
### quoted glob in case
case 'a*' in 'a*') echo exact;; esac
### word splitting of command subst
for w in $(printf 'a b\nc'); do echo "[$w]"; done
### quoted command subst keeps spaces
echo "$(printf 'a  b')"
### arithmetic in double quotes
echo "sum: $((1+2))"
### dollar at end
echo 'cost: $'; echo "cost: $"
### brace expansion with prefix suffix
echo pre{1,2}post
### brace ranges letters step
echo {a..i..2}
### brace zero padding negative
echo {-2..2} {08..11}
### nested arrays expansion in string
a=(x y); echo "items: ${a[*]} count ${#a[*]}"
### heredoc with tabs and quotes
cat <<EOF
'single' "double" \$escaped $((3*3))
EOF
### heredoc in function
f(){ cat <<EOF
in function $1
EOF
}; f arg
### heredoc multiple
cat <<A; cat <<B
first
A
second
B
### heredoc piped
cat <<EOF | tr a-z A-Z
shout
EOF
### empty heredoc
cat <<EOF
EOF
echo end
### herestring multiword
wc -w <<< "one two three"
### printf %c
printf '%c%c\n' hello world
### printf %5.1f
printf '[%8.3f] [%-8.2e]\n' 3.14159 31415.9
### printf percent literal
printf '100%%\n'
### printf octal escape
printf '\101\102\n'
### printf negative numbers
printf '%d %i %u\n' -5 -6 7
### printf large number
printf '%d\n' 9223372036854775807
### printf string precision star
printf '%.*s\n' 3 abcdef
### printf b with escapes
printf '%b' 'line1\nline2\n'
### echo e with octal
echo -e '\0101\x42'
### test string equal single bracket quoted
x="a b"; [ "$x" = "a b" ] && echo eq
### test unary on empty unquoted
x=; [ -n $x ] && echo weird
### test negation and parens
[ ! \( 1 -eq 2 \) ] && echo notparen
### double bracket regex char class
[[ abc123 =~ ^[[:alpha:]]+([[:digit:]]+)$ ]] && echo ${BASH_REMATCH[1]}
### double bracket string lt gt
[[ b > a ]] && echo gt
### double bracket -o option
set -o errexit; [[ -o errexit ]] && echo on; set +o errexit
### arithmetic for with multiple vars
for ((i=0, j=10; i<3; i++, j--)); do echo $i $j; done
### arithmetic while
i=3; while ((i--)); do echo $i; done
### arithmetic comma and assignment
echo $(( a=2, b=a*3, a+b ))
### arithmetic unset var is zero
unset z; echo $((z+1))
### arithmetic nested parens
echo $(( (1+2)*(3+4) ))
### arithmetic logical short circuit
x=0; (( 0 && (x=1) )); echo $x; (( 1 || (x=2) )); echo $x
### let with spaces quoted
let "y = 3 * 4"; echo $y
### declare -i arithmetic assignment
declare -i v; v="2+3*4"; echo $v
### integer var append
declare -i n=5; n+=5; echo $n
### case pattern with brackets
for c in a 5 Z; do case $c in [a-z]) echo lower;; [0-9]) echo digit;; *) echo other;; esac; done
### case with extglob style
shopt -s extglob
case foo.bak in *.@(bak|tmp)) echo backup;; esac
### case empty word
case "" in "") echo empty;; esac
### case with variable pattern
pat="a*"; case abc in $pat) echo matched;; esac
### select from input
select x in one two; do echo "chose $x"; break; done <<< "2" 2>/dev/null
### until with break
n=0; until false; do ((n++)); ((n>=3)) && break; done; echo $n
### for without in uses params
set -- p q; for x; do echo $x; done
### loop over array with spaces
a=("a b" "c d"); for x in "${a[@]}"; do echo "[$x]"; done
### while read from command
while read -r n; do echo "n$n"; done < <(seq 3)
### loop output redirected to pipe
for i in 3 1 2; do echo $i; done | sort
### function name with dash
my-func(){ echo dashed; }; my-func
### function overriding builtin
cd(){ echo "fake cd $1"; }; cd /tmp; unset -f cd; cd / && pwd
### function return without value keeps status
f(){ false; return; }; f; echo $?
### recursive function with local counter
depth(){ local d=$1; if ((d < 5)); then depth $((d+1)); else echo "max $d"; fi; }; depth 0
### functions listing count
a(){ :; }; b(){ :; }; declare -F | wc -l
### unset variable in function scope
x=outer; f(){ local x=inner; unset x; echo "[${x-}]"; }; f; echo $x
### readonly in function
f(){ local -r c=1; c=2; }; f 2>/dev/null; echo $?
### array assignment from command
arr=($(echo 1 2 3)); echo ${#arr[@]}
### array copy
a=(1 2 3); b=("${a[@]}"); b[0]=9; echo ${a[0]} ${b[0]}
### array remove by pattern
a=(apple banana cherry); echo ${a[@]/an/AN}
### array length of elements
a=(a bb ccc); for e in "${a[@]}"; do printf '%d ' ${#e}; done; echo
### array last index
a=(1 2 3); echo ${a[${#a[@]}-1]}
### associative with numeric keys
declare -A m=([1]=one [2]=two); echo ${m[2]}
### associative unset key
declare -A m=([a]=1 [b]=2); unset 'm[a]'; echo ${#m[@]} ${!m[@]}
### assoc append
declare -A m=([a]=x); m[a]+=y; echo ${m[a]}
### string slicing
s=0123456789; echo ${s:3:4} ${s: -3} ${s:0:1}
### pattern removal greedy vs lazy
p=a/b/c/d; echo ${p#*/} ${p##*/} ${p%/*} ${p%%/*}
### replace with special chars
s='a.b.c'; echo ${s//./-}
### length of positional
set -- hello; echo ${#1}
### positional beyond 9
set -- 1 2 3 4 5 6 7 8 9 10 11; echo ${10} ${11}
### all positional slice
set -- a b c d; echo ${@:2:2}
### dollar star with custom IFS
set -- x y; IFS=:; echo "$*"; IFS=' '
### exit status of assignment with failing subst
x=$(false); echo $?; x=$(true); echo $?
### status of declare with subst
declare y=$(false); echo $?
### local status masks subst
f(){ local y=$(false); echo $?; }; f
### true in pipeline status array
false | true | false; echo "${PIPESTATUS[*]}"
### PIPESTATUS after simple
(exit 3); echo ${PIPESTATUS[0]}
### pipefail rightmost failure
set -o pipefail; (exit 2) | (exit 3) | true; echo $?
### errexit with pipefail in if
set -eo pipefail; if false | true; then echo no; else echo handled; fi
### noclobber test with dev null
set -C; echo x > /dev/null; echo ok
### redirect fd 2 to file then cat
ls nope 2> err.txt; grep -c nope err.txt
### redirect with append both
{ echo o; echo e >&2; } >> ab.txt 2>&1; cat ab.txt
### read from here doc into vars
read a b c <<EOF
1 2 3
EOF
echo $c$b$a
### IFS newline read loop
IFS=$'\n'; for l in $(printf 'a b\nc d'); do echo "[$l]"; done
### printf to stderr
printf 'err\n' >&2; echo out
### exec redirect stdout permanently
exec > out.txt; echo hidden; exec >&2; cat out.txt >&2
### trap multiple signals
trap 'echo sig' USR1 USR2; kill -USR1 $$; kill -USR2 $$
### trap prints on exit with status
trap 'echo "bye $?"' EXIT; false
### kill 0 check
kill -0 $$ && echo alive
### getopts with no options
set -- file; getopts a opt; echo "$? $opt"
### OPTIND reset
set -- -a; getopts a o; echo $o; OPTIND=1; getopts a o; echo $o
### orphan background job output
(sleep 0.2; echo later) &
echo now
### background job with redirect
{ echo bgfile > bg.txt; } & wait; cat bg.txt
### time keyword output to stderr
time true 2>/dev/null; echo after
### allexport
set -a; A1=x; A2=y; set +a; A3=z; env | grep -c '^A[123]='
### noglob with brackets
set -f; echo [ab]* *; set +f
### set -x to stderr only
set -x; x=1; echo $x
### continue in a subshell is outside the loop
for i in 1 2; do echo "> $i"; ( if true; then continue; fi; echo inside ); echo "st=$?"; done 2>/dev/null
### break in a pipeline part is outside the loop
for i in 1 2; do echo a$i | { break; cat; }; echo c; done 2>/dev/null
### continue N in a subshell counts only the subshell's loops
for i in 1; do ( for j in 1 2; do echo j$j; continue 2; done; echo after ); done
### continue in a command substitution ends it
for i in 1 2; do echo "[$(echo x$i; continue; echo y)]"; done
