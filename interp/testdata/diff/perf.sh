### append grows in place, copies keep their value
s=; for ((i=0;i<600;i++)); do s+=ab; done; t=$s; s+=XYZ; u=$s; s+=Q; t+=T
echo ${#s} ${#t} ${#u} ${t: -3} ${u: -4} ${s: -4}
### append after a copy, in a subshell and in a function
s=$(printf '%0300d' 0); s+=a; c=$s; (s+=sub; echo ${s: -4}); s+=b; c+=c; echo ${s: -3} ${c: -3} ${#s} ${#c}
f() { local s=$1; s+=L; echo ${#s} ${s: -2}; }; f "$s"; echo ${s: -2}
### append to exported, integer and array variables
x=$(printf '%0300d' 0); export x; x+=e; echo ${#x}; declare -i n=5; n+=3; echo $n; a=(q); a+=r; echo ${a[0]}
### plain literal words and brackets
echo [ ] a[ b] a.b-c/d:e=f%g,h^i#j; shopt -s nullglob; echo [ x ] a[; shopt -u nullglob
### literal assignment values
x=abc:def; y=a=b; echo $x $y
### one-value words: split and globbed unquoted, kept whole quoted
x='a b'; y='a*b'; z=; printf '<%s>' $x "$x" $y "$z" $z "${x}"; echo
IFS=a; x=banana; printf '<%s>' $x "$x"; echo; IFS=:; x=a:b; printf '<%s>' $x ${x}; echo
IFS=' '; x='/no/such/dir*'; echo $x "$x"
### arithmetic words split by an IFS with digits, evaluated once
IFS=0; printf '<%s>' $((100+5)) "$((100+5))"; echo; x=$((100+5)); echo "$x"
IFS=-; printf '<%s>' $((0-5)) x$((0-5)); echo; unset IFS
i=0; printf '<%s>' $((i++)) "$((i++))"; echo " i=$i"; IFS=1; i=10; printf '<%s>' $((i++)); echo " i=$i"
### special parameters and dynamic variables as one-value words
set -- one 'two words'; echo $# $1 "$2" $2; f() { echo $FUNCNAME ${FUNCNAME} "$#"; }; f a b
a=$RANDOM; b=$RANDOM; c=$SECONDS; [ "$a$b" != "" ] && echo ok $c; echo $? "$?"
x=5; echo $LINENO "${LINENO}"; set -u; echo $x "$x"; (echo $nosuch); echo st=$?
### arrays and namerefs read as $name
a=(x y z); echo $a "$a" ${a}; declare -n r=a; echo $r "$r"; declare -A m=([0]=zero); echo $m "$m"
### pattern removal and replacement with plain text and with patterns
x=abcabc; echo ${x#abc} ${x%abc} ${x##abc} ${x%%abc} ${x#b} ${x/b/X} ${x//b/X} ${x//bc/} ${x/#ab/Z} ${x/%bc/Z}
x=a.b.c; echo ${x//./-} ${x%.*} ${x#*.} ${x//[.]/+}; x='a+b|c'; echo ${x//+/-} ${x/|/,}
x=abcabc; echo ${x//} ${x/b} ${x//b/} "${x//b/ }" ${x/#/P} ${x/%/S}; a=(ab cb); echo ${a[@]/b/X} ${a[@]#a}
x=$'\xffab'; y=${x#?}; echo ${#y}; x='héllo wörld'; echo ${x//ö/o} ${x#hé} ${x%wörld}
### substrings of ASCII text and of bytes
x=abcdef; echo ${x:2} ${x: -2} ${x:1:-1} ${x:10}x ${x:0:0}x ${x:2:3} ${x: -10}x
x=$'a\xffbc'; y=${x:1:2}; echo ${#y}
x=abcdef; echo ${x:4:-3}; echo after
### test and [ without a file or error make no environment, with one do
[ 1 -lt 2 ] && echo y; test 3 -gt 4 || echo n; [ -f /no/such ] || echo nofile; [ -d / ] && echo dir
[ a = ]; echo st=$?; [ 1 -lt x ]; echo st=$?; [ 1 -lt 2; echo st=$?; test; echo st=$?; [ ]; echo st=$?
[ ! -e /no/such ] && echo neg; [ \( a = a \) ]; echo st=$?; [ a -a b -o c ]; echo st=$?
### PIPESTATUS after simple commands and pipelines
true | false | true; echo ${PIPESTATUS[@]}; false; echo ${PIPESTATUS[@]}; p=(${PIPESTATUS[@]}); echo ${p[@]}
(exit 3); echo ${PIPESTATUS[@]}; true | (exit 4); s=("${PIPESTATUS[@]}"); true; echo ${s[@]} ${PIPESTATUS[@]}
### arithmetic on expansions that hold plain numbers, and on others
set -- 15 07; x=5 y=-3 z=010 e='2+3' s=hello; echo $(( $1 - 1 )) $(( $2 + 1 )) $(( 2*$x+1 )) $(( -$x )) $(( - $y )) $(( $z + 0 ))
echo $(( $e * 2 )) $(( ${#s} + $x )) $(( $x > 3 ? $x : $y )) $(( ($x , $1) )) $(( !$x )) $(( ~$x )) $(( $x ** 2 ))
n=1 w='n+2'; echo $(( w + $x )) $(( $nosuch + 1 )) $(( ${x} % 3 )) $(( $# + $x )) $(( $x && 0 || $1 ))
a=(4 5); i=1; echo $(( a[$i] + $x )) $(( ${a[1]} * $x )) $(( $x$x + 1 ))
echo $(( $x / 0 )); echo after
### arithmetic on expansions under set -u and with RANDOM
RANDOM=7; a=$(( $RANDOM % 10 + $RANDOM % 10 )); RANDOM=7; b=$(( RANDOM % 10 + RANDOM % 10 )); [ "$a" = "$b" ] && echo same
set -u; x=2; echo $(( $x + 1 )); (echo $(( $nosuch + 1 ))); echo st=$?
