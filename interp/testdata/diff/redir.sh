### fd 3 write read
exec 3>f3; echo three >&3; exec 3>&-; cat f3
### fd 4 read
echo data > in; exec 4<in; read -u 4 line; echo "$line"; exec 4<&-
### named fd
exec {fd}>named.txt; echo via-var >&$fd; exec {fd}>&-; cat named.txt; [[ $fd -ge 10 ]] && echo ge10
### read write fd
echo hello > rw; exec 5<>rw; read -u 5 x; echo $x; exec 5>&-
### amp redirect both
{ echo out; echo err >&2; } &> both; sort both
### amp append
echo a &> ab; echo b &>> ab; cat ab
### close stdout
( exec >&-; echo gone 2>/dev/null ); echo $?
### dup stderr to stdout order
{ echo 1; echo 2 >&2; echo 3; } 2>&1
### redirect in loop
for i in 1 2 3; do echo $i; done > loop.txt; cat loop.txt
### redirect while input
printf '1\n2\n' > nums; while read n; do echo "n=$n"; done < nums
### stdin to function
f(){ cat; }; echo piped | f
### heredoc into loop
while read a; do echo "[$a]"; done <<EOF2
x
y
EOF2
### heredoc with command subst
cat <<EOF2
$(echo sub) and $((2+3))
EOF2
### here string with var
v="multi word"; cat <<< "$v"
### redirect missing file
cat < nosuchfile; echo $?
### redirect to dir
echo x > /tmp; echo $?
### ambiguous redirect
f="a b"; echo x > $f; echo $?
### dev null read
cat /dev/null; echo empty
### dev stdin
echo via-stdin | cat /dev/stdin
### dev stderr
echo to-stderr > /dev/stderr 2>/dev/null; echo done
### multiple redirects order
ls nosuch 2>&1 >/dev/null | sed 's/.*/captured/'
### noclobber append ok
set -o noclobber; echo a > nc; echo b >> nc; cat nc
### output to fd via exec in subshell
( exec 1>sub.txt; echo inside ); cat sub.txt
### tee like
echo hi | tee t1.txt > /dev/null; cat t1.txt
### process subst in diff-like usage
cat <(echo a) <(echo b)
### output process subst
echo hello > >(cat); wait; sleep 0
### pipe stderr
ls /nonexistent |& grep -c 'No such'
### exec with command replaces shell
exec echo replaced; echo never
### redirect on compound
if true; then echo in-if; fi > if.txt; cat if.txt
### fd inheritance in subshell
exec 3>sub3.txt; (echo from-sub >&3); exec 3>&-; cat sub3.txt
### read from closed fd
read -u 7 x; echo $?
### dup fd to bad
echo x >&9; echo $?
### named fd close
exec {w}>nf.txt; echo a >&$w; exec {w}>&-; echo b >&$w; echo $?; cat nf.txt
### device path spellings name the shell's descriptors
{ echo a >> /dev/./fd/1; echo b >> /dev//stdout; echo c >> /proc/self/../self/fd/1; echo d >> /dev/fd/../fd/1; echo e >> /proc/thread-self/fd/1; } > spell.txt; cat spell.txt
### device path spellings on a pipe
{ echo p1 > /dev//stdout; echo p2 > /proc/thread-self/fd/1; } | cat
### redirections with no command
cd "$(mktemp -d)"; ( exit 42 ); 2>&1; echo status=$?
>made; echo $?; ls made; >/nonexistent/x; echo $?
set -o pipefail; >made | true; echo "${PIPESTATUS[@]}"
### 1>&file is &>file, 2>&file is ambiguous
echo one 1>&f1; echo st=$?; cat f1; { echo two; echo e >&2; } 1>&f3; cat f3; echo x 2>&f2 2>/dev/null; echo st=$?; x=; echo five >&$x 2>/dev/null; echo st=$?
### set -x traces a simple command before its redirections
set -x; printf aaaa >/dev/null 2>t; x=1 2>/dev/null; f() { :; }; f 2>/dev/null; { echo a; } 2>/dev/null; set +x; cat t
### >& to "$@" of two words is ambiguous
set -- 'a b' c; echo hi 1>& "$@"; echo st=$?; set -- f1; echo hi 1>&"$@"; cat f1
### a simple command expands its words before it redirects
rm -f walrus; (echo ${undef?bc} > walrus) 2>/dev/null; test -f walrus && echo exists1; (X=${x?bc} >walrus) 2>/dev/null; test -f walrus && echo exists2; echo done
### a failed redirection keeps an assignment-only command's assignments
abc=def > /does/not/exist1; echo "abc=$abc st=$?"; export abc=xyz > /does/not/exist2; echo "abc=$abc"
### set -x traces a command substitution before the redirection
set -x; echo $(echo hi) 2>/dev/null; set +x
### DEBUG trap runs before the command's redirections
trap 'echo dbg' DEBUG; echo hi >/dev/null; trap - DEBUG
### prefix assignments and redirections on a function
f() { echo "in f $x"; }; x=1 f >o2; echo st=$?; cat o2
### a quoted here-document delimiter keeps backslashes
x=1; cat <<'E'
$x \\a \$ \
next
E
cat <<"E"
\\ $x
E
cat <<\E
\\ `x`
E
cat <<E
\\ \$ $x \
joined
E
### < opens a directory; reading it fails
mkdir -p dir; mapfile -t arr < ./dir; echo "st=$? ${#arr[@]}"; read x < ./dir 2>/dev/null; echo st=$?; x=$(< ./dir); echo "st=$? [$x]"; echo hi 2>/dev/null > ./dir; echo st=$?
### N>&M- into a closed N leaves M closed after a command the shell runs itself (bash's undo) [stderr]
exec 6>&- 7>&-
exec 7>f.txt
: 6>&7 7>&-
echo hello >&7
: 6>&7-
echo world >&7; echo rc=$?
exec 7>f.txt
{ :; } 6>&7-; echo a >&7; echo rc=$?
exec 7>f.txt
f() { :; }; f 6<&7-; echo b >&7; echo rc=$?
exec 7>f.txt
x=1 6>&7-; echo c >&7; echo rc=$?
exec 7>f.txt
6>&7-; echo d >&7; echo rc=$?
exec 7>f.txt
exec 6>&1
: 6>&7-; echo e >&7; echo rc=$?
exec 7>f.txt
(:) 6>&7-; echo f >&7; echo rc=$?
: 6>&7- | cat; echo g >&7; echo rc=$?
cat /dev/null 6>&7-; echo h >&7; echo rc=$?
exec 7>&-
cat f.txt
