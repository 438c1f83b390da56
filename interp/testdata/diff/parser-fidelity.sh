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
