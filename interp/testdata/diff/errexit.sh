### e and pipeline last
set -e; false | true; echo reached
### e pipefail
set -eo pipefail; false | true; echo unreached
### e in and list
set -e; false && true; echo reached
### e last in and list
set -e; true && false; echo unreached
### e in or
set -e; false || true; echo reached
### e in negation
set -e; ! true; echo reached
### e in while cond
set -e; while false; do :; done; echo reached
### e in subshell
set -e; (false; echo unreached-inner); echo unreached
### e in subshell in condition
set -e; if (false; echo inner); then echo then; fi
### e command subst
set -e; x=$(false); echo unreached
### e command subst in echo arg
set -e; echo "x$(false)"; echo reached
### e function in condition
set -e; f(){ false; echo in-f; }; if f; then echo ok; fi
### e function in or
set -e; f(){ false; echo in-f; return 1; }; f || echo recovered
### e with trap exit
set -e; trap 'echo trapped $?' EXIT; false
### err trap in function
trap 'echo ERR at $LINENO' ERR; f(){ false; }; f; echo end
### err trap not in condition
trap 'echo ERR' ERR; if false; then :; fi; false || true; echo end
### exit code of if with no branch
if false; then :; fi; echo $?
### exit code of loop no iter
for x in; do :; done; echo $?
### exit status of case no match
case x in y) ;; esac; echo $?
### return from sourced file
echo 'return 4; echo no' > r.sh; . ./r.sh; echo $?
### exit in function
f(){ exit 3; }; f; echo no
### exit trap status
trap 'echo "status=$?"' EXIT; exit 5
### nested subshell exit
( ( exit 9 ); echo inner=$? ); echo outer=$?
### set -u array
set -u; a=(); echo ${#a[@]}; echo ${a[0]-def}
### set -u positional
set -u; echo ${1-none}; echo $1
### errexit and inherit
set -e; shopt -s inherit_errexit; x=$(false; echo no); echo unreached
### pipestatus after builtin
false; echo ${PIPESTATUS[@]}
### e ignored in function called in &&
set -e; f(){ false; echo cont; }; f && echo and
### set -e inside a negated function turns errexit on
f() { set -e; false; echo in; }
! f
echo not reached
### set -e inside an if condition stays off
f() { set -e; false; echo in; }
if f; then echo yes; fi
echo out
### negation keeps errexit off for inner commands
set -e
g() { false; echo in g; }
! g
! { false; echo in group; }
echo out
### failed redirection on a loop under set -e
set -e
while false; do :; done < /nonexistent/file
echo not reached
