### GLOBIGNORE filters results and implies dotglob
touch a.txt b.md .env; mkdir -p d; touch d/c.txt d/e.md
GLOBIGNORE='*.txt'; echo * d/*
GLOBIGNORE='d/*:.env'; echo *
GLOBIGNORE=*; echo *
GLOBIGNORE=; echo *
### GLOBIGNORE never yields . and ..
touch .hidden; GLOBIGNORE=x; echo .*; shopt -u globskipdots; echo .*
### shopt -u globskipdots matches . and ..
touch .h; shopt -u globskipdots; echo .*; shopt -s globskipdots; echo .*
### GLOBIGNORE with escapes and classes
touch 'e*.txt' e-1.txt A b; GLOBIGNORE='e\*.txt'; echo *.txt
GLOBIGNORE='[[:upper:]]*'; echo ?
### extglob quoted and expanded pattern lists
shopt -s extglob
x=help; [[ --help == --@($x|verbose) ]] && echo var
[[ 'a|b' == @('a|b'|c) ]] && echo quoted
[[ cc == '@(cc)' ]] || echo literal
[[ cc == @(cc) ]] && echo pattern
touch 'a b' foo '__<>' ; echo @(a b|foo) @('__<>'|nope)
### extglob negation anywhere
shopt -s extglob
touch ab ac ad az bb; echo a!(c|d) ; echo !(a*)
[[ xaz == x@(!(c|d)) ]] && echo nested
[[ ac == a@(!(c|d)) ]] || echo nested-no
case foo.py in !(*.sh)) echo not-sh;; esac
### extglob in [[ ]] works without shopt
[[ --verbose == --@(help|verbose) ]] && echo yes
[[ '' == @(foo||bar) ]] && echo empty-alt
### (( that closes with ) ) is a nested subshell
(( echo 1
echo 2
) )
echo $(( echo 3
) )
if ! ((test x = y) || (test a = a)); then echo no; else echo yes; fi
v="$((echo hi || echo no)2>/dev/null)"; echo $v
echo $(( (1+2)*3 )) "$(( 2 * (3) ))"; x=1; (( (x+1) == 2 )) && echo arith
### extglob syntax follows shopt at parse time
have=false
if !($have && $have); then echo one; fi
empty= str=x
[[ !($empty) ]] && echo T1
[[ !($str) ]] || echo F1
shopt -s extglob
[[ !($str) ]] && echo T2
[[ '' == @() ]] && echo empty
x=foo.py; echo ${x//@(o.py)/Z} ${x%@(.py|.sh)} ${x##+(f|o)}
### extglob off: @( is a syntax error
echo @(x)
### failglob abandons the rest of the line only
shopt -s failglob
echo *.ZZ; echo status=$?
echo *.ZZ
echo status=$?
for x in *.ZZ; do echo $x; done
echo status=$?
f() { echo in; echo *.QQ; echo after; }
f; echo same-line
echo next $?
( echo *.RR; echo sub ); echo subst=$?
echo > *.ZZ
echo redir=$?
### a function body must be a compound command
f() ls
echo no
### function bodies that are compound commands
f() [[ 1 ]]; f && echo ok
g() (( 1 )); g && echo ok2
h() if true; then echo ok3; fi; h
k() for i in 1; do echo $i; done; k
m() case x in x) echo c;; esac; m
### here-document delimiters with $ are literal
cat <<${a}
here
${a}
cat <<E$x
b
E$x
cat <<$(a)
c
$(a)
echo ok
### ${###} is $# with an operator
set -- $(seq 25); echo ${##} ${###} ${####} ${##2} ${###2} ${#} ${#-x}
### a leading dot is matched only by a dot
touch .q leaf.md; echo *.* .* ?q [.]q; shopt -s dotglob; echo *.*
### ** twice lists each path once
shopt -s globstar; mkdir -p c/subdir; touch leaf.md c/leaf.md c/subdir/leaf.md
echo **/**/*.*; echo **/*.*
### escaped or quoted - in a bracket expression is literal
touch foo.- c.C; echo *.[C\-D] *.[\-] *"-" *.[C-D]; [[ - == [C\-D] ]] && echo m1; x=a-b; echo ${x//[C\-D]/z} ${x//"-"/_}
### globstar does not follow symlinks to directories (bash 5.2)
mkdir -p d/e; touch d/e/f; ln -s d l; shopt -s globstar; echo **/f
mkdir -p x y/z; ln -s ../d x/ld; touch x/f; ln -s ../../d y/z/lz
echo A: **/e; echo B: y/**/e; echo C: y/**; echo D: **/lz; echo E: y/**/
echo F: */**/e; echo G: ./**/e; echo H: **/*; echo I: **/e/f; echo J: **/**/e
echo K: d/**/f; echo L: **/.; echo P: **; echo Q: **/; echo R: l/**; echo S: l/**/f
echo T: **/**; echo U: */**; echo V: **/*/e; echo W: d/**; echo X: */**/
cd x; echo M: **/e; echo N: ../**/e
### globstar over symlink loops ends
mkdir q; cd q; ln -s . a; ln -s . b; shopt -s globstar; echo **; echo **/; echo **/a; echo a/**
### recursive commands over a symlink loop end, as GNU's
mkdir q; cd q; ln -s . a; ln -s . b; mkdir d; echo x > d/f
grep -rR x . 2>/dev/null; echo "grep=$?"; grep -r x .; echo "grep-r=$?"
find . | sort
ls -R . | head -20
