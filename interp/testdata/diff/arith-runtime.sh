### arith dynamic assignment target
foo=bar; echo $(( x$foo = 42 )); echo xbar=$xbar
### arith dynamic array assignment target
foo=bar; echo $(( x$foo[5] = 42 )); echo ${xbar[5]}
### arith dynamic increment target
foo=bar; xbar=42; echo $(( x$foo++ )); echo $xbar
### arith assignment through a name in a variable
x=y; echo $(( $x = 7 )) $y
### arith dynamic base
base=16; echo $(( ${base}#a ))
### arith syntax error abandons the line
echo $(( 1 + )); echo same line
echo next line
### arith command syntax error returns 1
(( 1 + )); echo st=$?
(( (a + 2) = 3 )); echo st=$?
(( 1[2] = 3 )); echo st=$?
### arith empty
(( )); echo st=$?; echo $(( ))
### arith comment is no comment
echo $((
1 + 2  # not a comment
))
(( a = 3 + 4  # comment
))
echo [$a]
### arith double subscript
a=(1 2 3); echo $(( a[1] ))
echo $(( a[1][1] ))
echo after
### arith quoted operands
echo $(( "1" + 2 )) $(( 1 +
2 )) $((3*(4+1)))
### arith invalid constants
for e in 09 0x1X 2#A 02#0110 42x 1#1 65#1 10# 1_0; do echo $(( e )); echo "$e st=$?"; done
echo $(( 0x )) $(( 36#z )) $(( 37#z )) $(( 64#@ )) $(( 0X1f )) $(( -0x10 )) $(( 0777 ))
### arith invalid constant in a value
x=09; echo $(( x + 1 ))
echo st=$?
### arith function with a runtime expression prints as written
f() { echo $(( $x = 1 )); (( 1 + )); }; declare -f f
### let words are ordinary arguments
let x=1
let y=x+2
let z=y*3  # comment
let z2="y*3"
echo $x $y $z $z2
### let compound-looking arguments
let x=( 1 )
let y=( x + 2 )
let z=( y * 3 )
echo $x $y $z
### let splits expansions and fails at run time
e="a=1 b=a+1"; let $e; echo $a $b
let 0; echo st=$?
let "1 +"; echo st=$?
let; echo st=$?
let $nothing; echo st=$?
### let prints as written
f() { let x=( 1 ) y=2 "z = 3"; let a++ b+=2; }; declare -f f
### let traced
set -x; a=2; let "x = a" y=$a
### dbracket octal operands
[[ 15 -eq 017 ]] && echo t; [[ -0123 -eq -83 ]]; echo $?; [[ 15 -eq ZZZ017 ]] || echo f
### dbracket bad regex is status 2
[[ foo.py =~ * ]]; echo $?
[[ { =~ { ]]; echo $?
[[ xa =~ a{ ]]; echo $?
[[ xa =~ a{,2} ]]; echo $?
[[ xa =~ ^*a ]]; echo $?
[[ x{ =~ [{] ]]; echo $?
### test trailing operator is a string
[ -a -a -a -a ]; echo $?
[ -n -a -a -n ]; echo $?
[ x -a -t ]; echo $?
[ -a -a -a -a -a -a -a ]; echo $?
### posix readonly assignment ends the shell
set -o posix
readonly x=1
x=2
echo hi
### posix readonly prefix assignment ends the shell
set -o posix; readonly x=1; x=2 true; echo hi
### function name with expansions fails when defined
$foo-bar() { ls ; }; echo st=$?
"f"() { :; }; echo $?
foo-$(echo hi)() { ls ; }; echo $?
12() { echo twelve; }; 12
### declaration with a bad name fails at run time
export FOO-BAR=foo; echo st=$?
f() { local FOO-BAR=foo; echo st=$?; }; f
declare a-b=1 c=2; echo $? $c
### bad substitution at run time only
if test -f /; then echo ${%}; else echo ok; fi
if true; then echo ok; else echo ${%}; fi
echo ${%}; echo same
echo next
### regex with nocasematch
shopt -s nocasematch
[[ a =~ A ]]; echo $?
[[ A =~ [a] ]]; echo $?
[[ A =~ a{1} ]]; echo $?
### empty subscript fails at run time
a=(1 2 3)
a[]=42
echo status=$?
echo ${a[@]}
echo ${a[]}
echo status=$?
### empty subscript in a branch that does not run
if false; then a[]=1; echo ${a[]}; fi; echo ok
### arith an expansion in a value is no operand, a command in it does not run
y=3; x='$y'; echo $(( x + 1 )); echo after
x='$(echo RAN >&2; echo 1)'; echo $(( x + 1 )); echo after
x='1+$y'; (( z = x )); echo st=$? z=$z; x='"1"'; echo $(( x )); echo after
e='$y'; echo $(( $e + 1 )); echo after
### arith an element reference in a value expands its subscript
a=(5 6) i=1; x='a[$i]'; echo $(( x + 1 )); x='a[$(echo 0)]'; echo $(( x + 1 )); e='a[$i]'; echo $(( $e * 2 ))
