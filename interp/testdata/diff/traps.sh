### trap LINENO in ERR handler
trap 'echo err $LINENO
echo err2 $LINENO' ERR
echo a
false
f() {
  false
}
f
### trap DEBUG before simple and compound commands
dbg() { echo "  [$1]"; }
trap 'dbg $LINENO' DEBUG
x=1
for i in a b; do
  echo $i
done
case $x in
  1) echo one ;;
esac
(( x++ ))
[[ $x == 2 ]]
trap - DEBUG
echo done
### trap DEBUG arithmetic for
trap 'echo "  [$LINENO]"' DEBUG
for ((i = 0; i < 2; i++)); do
  echo i=$i
done
trap - DEBUG
### trap DEBUG with exit stops the command
trap 'echo "  [$LINENO]"; exit 42' DEBUG
echo never
### trap DEBUG and errexit
set -e
d() { return 3; }
trap d DEBUG
echo never
### trap DEBUG not inherited by functions without functrace
trap 'echo dbg' DEBUG
f() { echo in f; }
f
trap - DEBUG
set -o functrace
trap 'echo dbg2' DEBUG
f
trap - DEBUG
### trap DEBUG and ERR together
trap 'false; echo $LINENO err' ERR
trap 'false; echo $LINENO debug' DEBUG
false
echo after=$?
### trap RETURN only for traced functions and source
trap 'echo ret' RETURN
g() { echo g; }
g
. /dev/null
f() { trap 'echo ret f' RETURN; g; }
trap - RETURN
f
g
### trap -p names, order and subshells
trap 'echo x' EXIT
trap 'echo i' INT
trap '' USR1 TERM
trap 'echo r' RETURN
trap 'echo e' ERR
trap 'echo 40' 40
trap
trap -p INT EXIT
( trap )
echo "$(trap -p EXIT)"
( trap 'echo t' TERM; trap )
trap - RETURN ERR INT USR1 TERM 40
trap EXIT
trap
echo end
### trap reset forms
trap 'echo a' EXIT
trap 0
trap 'echo b' EXIT INT
trap INT
trap -p
trap - EXIT
trap 'echo c' 0 2
trap 0 2
trap
### trap usage errors
trap -x; echo $?
trap 'echo a'; echo $?
trap 'echo a' NOPE; echo $?
trap -1 EXIT; echo $?
trap -- 'echo ok' EXIT
### errtrace makes subshells run ERR
set -o errtrace
trap 'echo line=$LINENO' ERR
( false; echo subshell )
x=$( false; echo cs )
echo "$x"
### failed redirection on a group fires ERR and errexit
trap 'echo err' ERR
{ echo hi; } > /nonexistent/dir/file
echo status=$?
set -e
{ echo hi; } > /nonexistent/dir/file
echo not reached
### BASH_COMMAND in ERR and DEBUG traps
trap 'echo "err: $BASH_COMMAND"' ERR
x=1
false "$x"
[[ a == b ]]
(( x > 5 ))
f() { return 3; }
f a b
echo "now: $BASH_COMMAND"
trap 'echo "dbg: $BASH_COMMAND"' DEBUG
echo hi | cat
for i in 1; do :; done
case $x in 1) : ;; esac
trap - DEBUG
### xtrace of [[ ]] and (( ))
x=1
set -x
[[ a == b ]]
(( x > 5 ))
set +x
### errtrace: a background simple command fails without the ERR trap
set -o errtrace; trap 'echo line=$LINENO' ERR; false & wait; { false; echo async; } & wait; f() { false; echo inf; }; f & wait
### a ( ) ending a pipeline runs the ERR trap twice when it fails, as in bash
trap 'echo ERR $?' ERR
(false) | (false) | (false) | (false; false)
true | (exit 3); echo $?
(false) | true
true | { false; }
true | ( (false) )
! true | (false)
true | (false) || :
if true | (false); then :; fi
set -o pipefail; true | (false); set +o pipefail
shopt -s lastpipe; true | (false); shopt -u lastpipe
f() { true | (false); }; f
x=$(true | (false)); echo "[$x]"
set -E; g() { true | (false); }; g; (false) | cat; true | (echo $BASH_SUBSHELL); set +E
set -e; ! true | (false); echo reached; true | (false); echo not reached
