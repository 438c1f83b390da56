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
