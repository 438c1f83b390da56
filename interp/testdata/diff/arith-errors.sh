### arith operand expected names the token [stderr]
echo $((1+)); echo same
echo $(( 1 + 2 3 ))
echo $((1 +* 2))
### arith errors in a value [stderr]
x='1 + '; echo $((x))
x='1..2'; echo $((x + 1))
x="'1'"; echo $((x))
### arith ternary and assignment errors [stderr]
echo $((1?2))
echo $((1 ? : 3))
echo $((1 = 2))
echo $(((1) = 2))
### arith number errors [stderr]
echo $((08))
echo $((09+1))
echo $((2#3))
echo $((65#1))
echo $((2#))
echo $((0#1))
echo $((1@))
echo $((64#@)) $((0x)) $((36#z))
### arith invalid operators [stderr]
echo $((1.5))
x=b#1; echo $((x))
x='a[1]]'; echo $((x))
x='1;2'; echo $((x))
### arith bad subscript text [stderr]
x='a[1'; echo $((x))
### arith division by 0 names the divisor [stderr]
echo $((1/0))
echo $((1/0 + 2))
echo $(( 7 % (2-2) ))
x=0; echo $((5/x))
a=5; echo $((a/=0))
(( 1/0 )); echo st=$?
let '8/0'; echo st=$?
### arith negative exponent [stderr]
echo $((1 ** -1))
echo $((2**-1 + 3))
### arith pre-increment of a post-increment [stderr]
echo $((--x++))
(( --x++ )); echo st=$?
### arith errors in let and [[ ]] [stderr]
let '1 +'; echo st=$?
[[ '1 +' -eq 1 ]]; echo st=$?
### integer variable assignment errors end -c text [stderr]
declare -i y=3
y+='1 +'; echo same
echo unreached
### integer declaration errors end -c text [stderr]
declare -i z='1/0'; echo same
echo unreached
### integer variable assignment errors in a script [script]
declare -i y=3
y+='1 +'; echo same
echo y=$y
y=(1 '2 3'); echo same
echo y=$y
declare -i z='1/0'; echo same
echo next
f() { local -i v=0; v='2 ** -1'; echo in f; }
f
echo after f
### integer values and let arguments are not expanded again [script]
x=3; declare -i y; y='$x+1'; echo y=$y
v='$(echo ran >&2; echo 1)'; y=$v; echo y=$y
let 'z=$x'; echo z=$z
let "$v"; echo st=$?
a=(1 2 3); i=1; unset -v 'a[$i]'; declare -p a
### arith errors in subscripts of unset arrays [script]
echo $((a[1/0])); echo same
echo ${a[1/0]}; echo same
x='a[1/0]'; echo $((x))
i=0; echo ${a[i++]} i=$i
echo $((a[1]]))
x='a[1]]'; echo $((x))
