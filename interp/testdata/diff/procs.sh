### set -m: kill -- -PGID signals a background job's process group
set -m
sleep 10 & pid=$!
kill -INT -- -$pid; echo "kill $?"
wait $pid; echo "wait $?"
### set -m: $!, jobs -p and the group are the job leader's pid
set -m
sleep 10 &
[ "$(jobs -p)" = "$!" ] && echo same
exec 2>/dev/null
kill -TERM -- -"$(jobs -p)"; echo "kill $?"
wait; echo "wait $?"
sleep 0.2 &
wait -n; echo "wait -n $?"
### set -m: kill %job signals the job, whose number starts over at 1
set -m
sleep 10 & wait_for=$!
kill %1; wait %1; echo "first $?"
sleep 10 &
jobs
exec 2>/dev/null
kill -INT %1; echo "kill $?"
wait; echo "wait $?"
### without job control a job is in the shell's group: -PID names no group
sleep 10 &
kill -- -$! 2>/dev/null; echo "group $?"
kill $!; wait $!; echo "wait $?"
kill -- -999999 2>/dev/null; echo "none $?"
### without job control a background job ignores SIGINT and SIGQUIT
sleep 1.5 &
sleep 0.5 # bash's child ignores SIGINT once it runs
kill -INT $!; echo "int $?"
kill -QUIT $!; echo "quit $?"
wait $!; echo "wait $?"
### SIGCONT, SIGCHLD and SIGWINCH do not end a job
sleep 0.3 &
kill -CONT $!; kill -CHLD $!; kill -WINCH $!
wait $!; echo "wait $?"
### /dev/fd is a directory of the open descriptors
# (descriptors from 10 up may be inherited from whoever runs the test)
low() { while read -r n; do ((n < 10)) && echo "$n"; done; return 0; }
ls /dev/fd | low; echo "ls ${PIPESTATUS[0]}"
exec 5>/dev/null
ls /dev/fd | low
[ -d /dev/fd ] && echo dir
for f in /dev/fd/*; do echo "${f#/dev/fd/}"; done | low
cd /dev/fd && pwd
### tee writes to a process substitution and to /dev/fd/N
out=$(echo hi | tee >(tr h H) >/dev/null)
echo "$out"
printf 'a\nb\n' | tee >(wc -l >&2) 2>&1 >/dev/null | tr -d ' '
{ echo fd3 | tee /dev/fd/3 >/dev/null; } 3>&1
echo app | tee -a /dev/fd/1 >/dev/null
echo both | tee /dev/stdout
### ps -p PID -o comm=/args=/pid=/ppid= over the shell and its jobs
ps -p $$ -o comm=
sleep 10 & p=$!
sleep 0.5 # bash forks, then execs sleep: give it the time
ps -o comm= -p $p
ps -o args= -p "$p"
[ "$(ps -o ppid= -p $p | tr -d ' ')" = $$ ] && echo parent
[ "$(ps -o pid= -p $p | tr -d ' ')" = $p ] && echo pid
ps -o pid=,comm= -p $p | sed 's/^ *[0-9]* //'
ps -p $p -o pid,comm | head -1
ps -p $p >/dev/null && echo alive
{ sleep 10; :; } & q=$!
sleep 0.5
ps -o comm= -p $q
kill $p $q; wait $p; wait $q
ps -p $p >/dev/null || echo "gone $?"
ps -p $p -o comm=; echo "none $?"
ps -p $p; echo "header only $?"
### ps: set -m puts a job in its own process group
set -m
sleep 10 & p=$!
sleep 0.5 # bash forks, then execs sleep: give it the time
[ "$(ps -o pgid= -p $p | tr -d ' ')" = $p ] && echo own group
ps -o pid=X,comm= -p $p | sed 's/^ *[0-9]* *//'
# (when bash reports a job that `wait` with no operand reaped varies)
exec 2>/dev/null
kill %1; wait
### ps -o args= names the script [script]
ps -p $$ -o args=
ps -p $$ -o comm,args | head -1
### pgrep and pkill over the shell's jobs
sleep 10 & a=$!
sleep 11 & b=$!
sleep 0.5 # bash forks, then execs sleep: give it the time
pgrep -P $$ sleep | wc -l
pgrep -P $$ -x sleep >/dev/null && echo found
pgrep -P $$ -f 'sleep 11' | grep -qx "$b" && echo full
pgrep -P $$ -c sleep
pgrep -P $$ -n sleep | grep -qx "$b" && echo newest
pgrep -P $$ -o sleep | grep -qx "$a" && echo oldest
pgrep -P $$ -l sleep | sed 's/^[0-9]* //'
pgrep -P $$ -a sleep | sed 's/^[0-9]* //'
pgrep -P $$ -d, sleep | tr -d '0-9'
pgrep -P $$ nomatch; echo "none $?"
pgrep 2>/dev/null; echo "usage $?"
pkill -P $$ -f 'sleep 11'; echo "pkill $?"
wait $b; echo "b $?"
pkill -KILL -P $$ sleep; echo "pkill $?"
wait $a; echo "a $?"
pkill -P $$ sleep; echo "none $?"
### install: -d, -m, -D, -t, -v, -C and its errors
umask 022
echo hi > src
install -d a/b/c; echo $?; stat -c '%a %n' a a/b a/b/c
install -d -m 700 d1 d2; stat -c '%a %n' d1 d2
install src dst; stat -c '%a' dst; cat dst
install -m 644 src dst2; stat -c '%a' dst2
install -m u=rw,go=r src dst3; stat -c '%a' dst3
install -D src x/y/z; stat -c '%a' x/y x/y/z
install -t a/b src; ls a/b
install -D -t t/u src; ls t/u
install -v src v1
install -dv p/q
install nope z; echo "missing $?"
install src; echo "one $?"
install a z; echo "dir $?"
install src src2 notadir; echo "notdir $?"
install -m 999 src q; echo "badmode $?"
install -o nobody2 src q; echo "owner $?"
install src a; ls a
chmod 444 dst; install src dst; stat -c '%a' dst
install -C -m 644 src dst2; echo C $?
### ${v?} and ${v:?} without a word say bash's words (bats-assert reads ${output?}) [script]
unset x
( : "${x?}" ); echo "unset $?"
x=
( : "${x:?}" ); echo "null $?"
( : "${y?custom}" ); echo "custom $?"
