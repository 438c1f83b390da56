### a nested shell signals its parent: the trap runs when the command ends, $? kept
trap 'echo USR1 trap status=$?; ( exit 42 )' USR1
echo before=$?
sh -c "kill -USR1 $$"
echo after=$?
trap 'false; echo $LINENO usr1' USR1
trap 'false; echo $LINENO err' ERR
bash -c "kill -USR1 $$; echo nested"
echo after=$?
### a signal to the parent from a nested shell, with the DEBUG trap
trap 'false; echo $LINENO usr1' USR1
trap 'false; echo $LINENO dbg' DEBUG
sh -c "kill -USR1 $$"
echo after=$?
### kill $$ from a subshell or a command substitution signals the main shell
main=$BASHPID
trap 'echo usr1 main $((BASHPID == main))' USR1
(kill -USR1 $$; echo sub-after)
echo main-after
echo $(kill -USR1 $$; echo in-subst)
x=$(kill -USR1 $$; echo in-assign)
echo "$x"
{ kill -USR1 $$; } | cat
echo done
### a nested shell with no trap dies of the signal it sends its parent
{ bash -c 'sh -c "kill -TERM \$PPID"; echo not reached'; } 2>/dev/null
echo st=$?
bash -c 'trap "echo term" TERM; sh -c "kill -TERM \$PPID"; echo reached'
echo st=$?
### a background job traps a signal: its trap runs when its command ends
{ trap 'echo got usr1' USR1; : > ready; sleep 0.5; echo job-end; } &
until [ -e ready ]; do sleep 0.01; done
kill -USR1 $!
wait $!; echo st=$?
### a nested shell run in the background is the job's process
bash -c 'trap "echo usr1" USR1; echo $BASHPID > ready; sleep 0.5; echo end' &
until [ -s ready ]; do sleep 0.01; done
[ "$(cat ready)" = "$!" ] && echo same pid
kill -USR1 $!
wait; echo status=$?
### signals ignored stay ignored in jobs and nested shells
trap '' USR1
{ sleep 0.2; echo yes; } &
kill -USR1 $!
wait $!; echo st=$?
bash -c 'trap "echo x" USR1; trap -p; kill -USR1 $$; echo after'
bash -c 'trap -p' &
wait
(trap 'echo sub' USR1; kill -USR1 $BASHPID; echo after)
### a trapped signal ends wait at once
trap 'echo usr1 main' USR1
(until [ -e go ]; do sleep 0.01; done; sleep 0.3; kill -USR1 $$) &
sleep 2 &
: > go
SECONDS=0
wait $!; echo st=$?
[ $SECONDS -lt 2 ] && echo early
wait; echo st=$?
