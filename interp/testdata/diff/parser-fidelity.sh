### extglob pattern lists split like the rest of the word
shopt -s extglob
touch abc\)d
echo ab+(c?d)
IFS=c ABC="c?d"
echo ab+($ABC)
IFS=x; ABC=cxd; for i in +($ABC); do echo =$i=; done
unset IFS
x="a b"; touch 'a b' c; echo @($x|c) @("$x"|c)
### an empty extglob pattern list is a pattern, not a function
shopt -s extglob
touch +
echo [+()] [+(]) +() x@()
### ]] just before a closing backquote
echo "1 `[[ \\" ]]` 2"
echo `[[ a ]]` `[[ a == b ]] || echo no` `echo \`[[ a ]] && echo yes\``
echo "123 `[[ $(echo \\" > f) ]]` 456"; cat f
### a letter range through a backquote is a bad substitution [stderr]
echo -{z..A}-
echo st=$?
echo -{z..A..2}-; echo same
echo -{_..a}- -{a.._}- -{A..Z..5}-
for x in -{Z..a}x; do echo $x; done
echo end
### failglob names the field that matched nothing [stderr]
shopt -s failglob extglob
x='*.zz'; echo $x; echo st=$?
echo st=$?
echo "a"*.zz
echo @(*.zz|q)
y='@(a|b)'; echo $y
echo x{a,b}*.zz
echo "*" '*' \*
mkdir d; cd d
echo @(*)
echo st=$?
touch foo
echo @(*)
a=(*.zz); echo st=$?
### $LINENO in the words of a for loop is the line of for [script]
echo one
for x in \
  $LINENO zzz; do
  echo $x $LINENO
done
select y in \
  "$LINENO"; do echo $y; break; done <<<1 2>/dev/null
### a subscript that is not arithmetic fails when the assignment runs
a[5 + 3]= a[1 + 1]+=q
declare -p a
a=x b[0+]=y c=z
### a subscript that is not arithmetic fails only its line [script]
a[5 # 1]=; echo same
a=x b[0+]=y c=z; echo same
echo next $? $a $b $c
### an associative array's key may hold spaces and #
declare -A A; A[foo bar]=1; A[a-b]=2; A['q r']=3; A[$x y]=4; A[1+]=5
for k in "foo bar" a-b "q r" " y" 1+; do echo "$k=${A[$k]}"; done
i=2; b[i+1]=x; b[$i]=y; b[ 1 ]=z; declare -p b
### name[...] without = is a command word, spaces and all
a[5 + 3]; echo st=$?
a[5 + 3]+; echo st=$?
a[1]x=3; echo st=$?
x=1 a[2 + 2] arg; echo st=$?
f() { echo "f: $*"; }; alias 'a[1 + 1]=f'
echo a[5 + 3]=4 end
### an array literal's element that is not a word drops its line only [script]
echo before
a=( inside=() ); echo same
echo status=$?
echo len=${#a[@]}
f() { a=( x=() ); echo in f; }
declare a=( x=() ) ; echo same
a=( x ; y)
echo st=$?
a=(x > y)
echo after
### a dropped line ends the compound commands begun on it [script]
if true; then
  a=( x=() )
  echo in
fi
echo never
### an array literal's bad element in -c text [stderr]
a=( inside=() )
echo len=${#a[@]} $?
a=( x
 y=() z
 w )
echo never
### an indexed array's [i]=value that brace expansion changes is plain values
a=([k2]=-{a,b}- [1]=x{1,2} y{a,b} z[3]={q,r} [7]=plain [8]={x} [9]=a{1..1}c [10]=a{,}b)
declare -p a
x=k; c=([$x+1]+={p,q} [-(1)]=a{b,c} [x++]={1,2} [1?2:3]={y,z})
declare -p c
declare -A A=([1]=x [2]={p,q})
declare -p A
### in an array literal only [index]= with = after ] is an index
a=("[6]"=x '[7]=y' [8]"=z" x=y [10]=p\ q [1"1"]=r [12]+=s [2 + 11]=t [ 14 ]=u
 [15]=v [16])
declare -p a
### a syntax error in backquotes is the substitution's, when it runs [stderr]
echo `echo "`
echo status=$?
echo `echo \\\\"`
echo status=$?
x=`echo hi; echo "`; echo "[$x] $?"
y="a`echo \"`b"; echo "$y" st=$?
echo `for`; echo st=$?
echo "1 `echo \\" > f` 2"; cat f
echo `echo a; echo \`echo b\``
### a syntax error in backquotes in a script file [script]
echo `echo "`
echo status=$?
x=`echo hi; echo "`; echo "[$x] $?"
f() { echo "in f: `case`"; }
f; echo st=$?
