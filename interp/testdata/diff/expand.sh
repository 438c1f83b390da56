### word splitting default
v="a  b	c"; for w in $v; do echo "[$w]"; done
### quoted at vs star
set -- "a b" c; for x in "$@"; do echo "[$x]"; done; for x in "$*"; do echo "[$x]"; done
### IFS star join
set -- a b c; IFS=-; echo "$*"
### empty IFS no split
IFS=; v="a b"; for w in $v; do echo "[$w]"; done
### unquoted empty vanishes
e=; set -- $e x "$e"; echo $#
### array with quotes
a=("x y" z); for i in "${a[@]}"; do echo "[$i]"; done; echo "${#a[@]}"
### array star join
a=(1 2 3); IFS=,; echo "${a[*]}"
### array slice
a=(a b c d e); echo ${a[@]:1:2} ${a[@]: -2}
### sparse array
a=([2]=x [5]=y); echo ${#a[@]} ${!a[@]} "${a[@]}"; a+=(z); echo ${!a[@]}
### array element append
a=(x); a[0]+=y; echo ${a[0]}
### array of indices loop
a=(q w e); for i in "${!a[@]}"; do echo "$i=${a[i]}"; done
### array pattern ops
a=(foo.c bar.c baz.h); echo ${a[@]%.c} ${a[@]/#/pre-}
### length of element
a=(hello); echo ${#a[0]} ${#a}
### assoc iteration sorted
declare -A m=([b]=2 [a]=1 [c]=3); for k in $(printf '%s\n' "${!m[@]}" | sort); do echo $k=${m[$k]}; done
### assoc key with space
declare -A m; m["a b"]=1; echo ${m["a b"]}; k="a b"; echo ${m[$k]}
### assoc test set
declare -A m=([x]=1); [[ -v m[x] ]] && echo set; [[ -v m[y] ]] || echo unset
### default assign array
unset a; : ${a:=dflt}; echo $a
### error message custom
f(){ : ${1:?need arg}; }; (f) 2>/dev/null; echo $?
### pattern substitution anchors
s=abcabc; echo ${s/#abc/X} ${s/%abc/Y} ${s//b/} ${s/b}
### case modification
s=hello; echo ${s^} ${s^^} ; S=HELLO; echo ${S,} ${S,,}
### substring with var
s=abcdef; n=2; echo ${s:n} ${s:n:n} ${s:1:-1}
### prefix names
foo1=a foo2=b; echo ${!foo*}
### transform Q
s="it's"; echo ${s@Q}
### transform U L
s=abc; echo ${s@U}
### nested quotes in subst
echo "$(echo "inner \"quoted\"")"
### backslash in double quotes
echo "a\$b \\ \` \x"
### single quotes literal
echo 'a $b \n'
### ansi c quotes escapes
echo $'\x41\101\t|'
### brace no expand quoted
echo "{a,b}" '{1..3}'
### brace nested
echo {a,b{1,2}}c
### brace with vars not expanded first
n=3; echo {1..$n}
### tilde in assignment
x=~/foo; [[ $x == /* ]] && echo abs
### tilde quoted
echo "~" '~'
### arithmetic in index
a=(10 20 30); i=1; echo ${a[i+1]} ${a[$i]}
### arithmetic increment forms
i=5; echo $((i++)) $i $((++i)) $((i--)) $((--i))
### arithmetic assignment ops
x=10; ((x+=5, x*=2)); echo $x; ((x>>=1)); echo $x
### arithmetic with strings
x=abc; echo $((x)); y=3; x=y; echo $((x+1))
### arithmetic hex octal base
echo $((0x1f)) $((010)) $((2#101)) $((36#z))
### arithmetic comparison chain
echo $((1 < 2 && 3 > 2)) $((!0)) $((5 == 5))
### arithmetic negative mod
echo $((-7 % 3)) $((-7 / 2))
### arithmetic exponent
echo $((2**0)) $((3**3))
### command subst trailing newlines
x=$(printf 'a\n\n\n'); echo "[$x]"
### command subst keeps inner newlines
x=$(printf 'a\nb'); echo "$x"
### backtick nesting
echo `echo \`echo nested\``
### glob in quotes
touch q1 q2; echo "q*" q*
### glob char class
touch f1 f2 fa; echo f[[:digit:]]
### glob negation
touch g1 g2 g3; echo g[!2]
### dotglob
touch .hidden vis; echo *; shopt -s dotglob; echo *
### globstar
mkdir -p d/e/f; touch d/x d/e/y d/e/f/z; shopt -s globstar; echo d/**
### extglob
touch a.txt b.log c.txt; shopt -s extglob
echo !(*.log); echo @(a|b).*
### nocaseglob
touch ABC; shopt -s nocaseglob; echo ab*
### failglob
shopt -s failglob; echo nomatch*; echo after
### noglob
set -f; touch s1; echo s*
### case with glob chars
x='*'; case $x in '*') echo star;; *) echo other;; esac
### case nocasematch
shopt -s nocasematch; case ABC in abc) echo match;; esac
### double bracket pattern quoted
[[ abc == "a*" ]] || echo literal; [[ a*c == "a*c" ]] && echo lit-match
### regex with spaces var
re='^([a-z]+) ([0-9]+)$'; [[ "abc 123" =~ $re ]] && echo "${BASH_REMATCH[1]}-${BASH_REMATCH[2]}"
### regex no match clears
[[ x =~ (y) ]]; echo ${#BASH_REMATCH[@]}
### test file ops
touch ef; mkdir ed; [ -f ef ] && [ -d ed ] && [ -e ef ] && [ ! -e nf ] && echo files-ok
### test string ops
[ -n "a" -a -z "" ] && echo ao; [ "a" = "b" -o 1 -eq 1 ] && echo or
### test numbers
[ 10 -gt 9 ] && [ 3 -le 3 ] && [ 2 -ne 3 ] && echo nums
### test bad integer
[ a -eq 1 ]; echo $?
### test size
printf x > sz; : > empty; [ -s sz ] && [ ! -s empty ] && echo sizes
### test newer
touch -d '2020-01-01' old; touch new; [ new -nt old ] && echo newer
### double bracket and or precedence
[[ 1 -eq 1 || 1 -eq 2 && 1 -eq 2 ]] && echo prec
### printf formats
printf '%5s|%-5s|%.2s\n' ab cd efgh; printf '%+d %05d % d\n' 5 42 7
### printf escapes
printf 'a\tb\\n\n'; printf '%b\n' 'x\ty'
### printf char codes
printf '%d %d\n' "'A" '"B'
### printf missing args
printf '%s-%s\n' only
### printf float
printf '%.3f %g %e\n' 3.14159 0.0001 12345.678
### printf hex upper
printf '%X %#x %#o\n' 255 255 8
### printf invalid number
printf '%d\n' abc; echo $?
### printf star width
printf '%*d|%-*d|\n' 5 1 4 2
### patsub with a slash right after the operator
x=/_/; echo ${x////c} ${x//'/'/c}; x="slash / brace } hi"; echo ${x///}
x=a/b/c; echo ${x///c} ${x/#//X} ${x//} ${x////} "${x/\//Q}" ${x/b/\/}
### $'' control-character escapes
printf %s $'\cA\ca\c[\c?z\\cA\c\\x\c' | od -An -c; v='\cB'; printf %s "${v@E}" | od -An -c
### tilde brought to the front by brace expansion
HOME=/home/bob; echo {foo~,~}/bar ~{/src,root}; a=(~{/src,root}); echo "${a[@]}"; echo {~,\~} {"~",~x}
### tilde in a command word that looks like an assignment
HOME=/h; echo x=~/a:~/b --o=~ a-b=~ x=a~ y+=~ "a"=~ a\=~ a=\~ a=x:~; for x in a=~; do echo $x; done; arr=(a=~); echo ${arr[0]}
### no tilde in assignment-like words in posix mode
HOME=/h; set -o posix; echo a=~ b=x:~
### bad substitutions fail when they run, not when parsed
if false; then echo ${x:} ${a&} ${#x:1}; fi; echo parsed
f() { echo ${#x-default}; echo not reached; }; f 2>/dev/null; echo "st=$?"
### bad substitution ends -c text
echo ${x:}; echo not reached
### empty slice offset and length
a=(1 2 3); echo ${a[@]: } ${a[@]::} [${a[@]:0:}] ${a[@]:1: }; s=123; echo ${s: } [${s::}]; set -- 1 2 3; echo [${@::}] [${@:0:}]
### single quotes in a double-quoted default word hold double-quoted text
var='a b c'; x=abc; echo "${U:-'$var'}" "${x:+'$var'}" "${U:-'\$var \"q\" $(echo c)'}" "${U:-'*'}" "${x#'a'}" "${U:-''}"
