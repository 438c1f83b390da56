### path lookup: type -a, -P, -p, -t of a program
type -a cat; type -P sort; type -p ls; type -t head; command -v cat; command -V cat
### path lookup: /bin and /usr/bin hold the same programs
[ /bin/cat -ef /usr/bin/cat ] && echo same; ls -d /usr/bin/sort; [ -x /bin/sed ] && echo exec
### path lookup: builtin and program
type -a echo printf; type -P echo; type -p echo; echo "status $?"
### path lookup: a script earlier on PATH wins
mkdir -p "$HOME/bin"; printf '#!/bin/bash\necho "mine: ${0#$HOME}"\n' >"$HOME/bin/cat"; chmod +x "$HOME/bin/cat"
PATH=$HOME/bin:$PATH; cat; type -a cat | sed "s|$HOME|~|"; hash -t cat | sed "s|$HOME|~|"
### path lookup: a script later on PATH loses
mkdir -p "$HOME/bin"; printf '#!/bin/bash\necho mine\n' >"$HOME/bin/cat"; chmod +x "$HOME/bin/cat"
PATH=$PATH:$HOME/bin; echo x | cat; type -P cat
### path lookup: a PATH without the system directories finds nothing
PATH=/nowhere; cat </dev/null; echo "status $?"; type -P cat; echo "status $?"
### path lookup: scripts by name, with each kind of shebang
mkdir -p "$HOME/bin"; cd "$HOME/bin"
printf '#!/usr/bin/env bash\necho env-bash "$@"\n' >a; printf '#!/bin/bash\necho bin-bash $#\n' >b
printf '#!/bin/sh\necho bin-sh\n' >c; printf 'echo no-shebang $1\n' >d; chmod +x a b c d
cd /; PATH=$HOME/bin:$PATH; a 1 2; b x y z; c; d q; echo "${0##*/}"
### path lookup: a non-executable file is skipped
mkdir -p "$HOME/bin"; printf 'echo never\n' >"$HOME/bin/ls"; PATH=$HOME/bin:$PATH; ls -d /; type -P ls
### path lookup: $0 of a script found through PATH
mkdir -p "$HOME/bin"; printf '#!/bin/bash\necho "${0#$HOME}" "${BASH_SOURCE#$HOME}"\n' >"$HOME/bin/s0"; chmod +x "$HOME/bin/s0"; PATH=$HOME/bin:$PATH s0
### hash table: hits, order, -t, -d, -p, -l, -r
cat </dev/null; ls >/dev/null; cat </dev/null; sort </dev/null; hash; type cat; hash -t cat; hash -t cat ls
hash -p /x/y foo; hash; hash -d cat; hash -l; hash -r; hash; type -t cat; hash nosuch; echo $?; hash cat; hash
### hash table: a PATH assignment empties it
cat </dev/null; hash -t cat; PATH=$PATH; hash -t cat; echo "status $?"
### type: alias, keyword, function, builtin and -f, -p, -P, -a
alias ll='ls -l'; type ll; shopt -s expand_aliases; type ll; type -t ll; command -v ll
f() { echo f; }; type -t f; type -p f; echo "p $?"; type -P f; echo "P $?"; type -f -t f; echo "f $?"
type -t if; type -p if; echo "p if $?"; type -ap cd; echo "ap cd $?"; type -t nosuch; echo "t $?"
command -v if cd nosuch; echo "v $?"; type -a -t echo
### export -f passes functions to nested shells
f() { echo "f got $1"; }; export -f f; bash -c 'f one'; bash -c 'f two'
export -nf f; bash -c 'f three' 2>/dev/null; echo "status $?"
g() { echo g; }; declare -fx g; bash -c g; export -f nosuch 2>/dev/null; echo "status $?"
### export -f: the environment entry and declare -F
f() { echo hi; }; export -f f; env | grep -c '^BASH_FUNC_f%%=() {'; declare -F; export -f | grep -c 'declare -fx f'
### export -f: an unset function is not passed
f() { echo hi; }; export -f f; unset -f f; bash -c 'type -t f'; echo "status $?"
### export -f: a redefinition stays exported
f() { echo one; }; export -f f; f() { echo two; }; bash -c f
### $? in else and elif branches is the failed condition's
f() { return 3; }; if f; then :; else echo "else $?"; fi
if f; then :; elif echo "elif $?"; false; then :; else echo "else2 $?"; fi
g() { local status=0; if f; then :; else status=$?; fi; return $status; }; g; echo "g $?"; if false; then :; fi; echo "none $?"
### call stack: FUNCNAME, BASH_SOURCE, BASH_LINENO in -c text
echo "top: F=(${FUNCNAME[*]}) S=(${BASH_SOURCE[*]}) L=(${BASH_LINENO[*]}) n=${#FUNCNAME[@]} set=${FUNCNAME+set}"
f() { echo "f: F=(${FUNCNAME[*]}) S=(${BASH_SOURCE[*]}) L=(${BASH_LINENO[*]})"; g; }
g() { echo "g: F=(${FUNCNAME[*]}) L=(${BASH_LINENO[*]}) $FUNCNAME ${FUNCNAME[1]}"; }
f
### call stack: sourced files and functions defined in them
cd "$HOME"; printf '%s\n' 'echo "lib: F=(${FUNCNAME[*]}) S=(${BASH_SOURCE[*]}) L=(${BASH_LINENO[*]}) LINENO=$LINENO"' 'libf() {' '  echo "libf: F=(${FUNCNAME[*]}) S=(${BASH_SOURCE[*]}) L=(${BASH_LINENO[*]}) LINENO=$LINENO"' '  caller; caller 0; caller 1; caller 2; echo "c2=$?"' '}' >lib.sh
source ./lib.sh
f() { source ./lib.sh; libf; }
f
libf
### call stack: a script file adds main
cd "$HOME"; printf '%s\n' 'echo "top: F=(${FUNCNAME[*]}) S=(${BASH_SOURCE[*]}) L=(${BASH_LINENO[*]})"' 'caller; echo "caller $?"; caller 0; echo "caller 0 $?"' 'f() { echo "f: F=(${FUNCNAME[*]}) S=(${BASH_SOURCE[*]}) L=(${BASH_LINENO[*]})"; caller 0; caller 1; }' 'f' >main.sh
bash main.sh
### call stack: caller in -c text
caller; echo "status $?"; caller 0; echo "status $?"; f() { caller; caller 0; caller 1; echo "status $?"; }; f
### call stack: BASH_ARGV and BASH_ARGC with extdebug
f() { echo "ARGV=(${BASH_ARGV[*]}) ARGC=(${BASH_ARGC[*]})"; }; f a b
shopt -s extdebug; g() { f x; }; g p q r; echo "top ${#BASH_ARGV[@]}"
### LINENO in eval, functions and traps
echo $LINENO
f() {
  echo "f $LINENO"; eval 'echo "eval $LINENO"'
}
f
trap 'echo "trap $LINENO"' ERR
false
### export -f: an imported function's BASH_SOURCE
f() { echo "S=(${BASH_SOURCE[*]}) F=(${FUNCNAME[*]})"; }; export -f f; bash -c f
### nested shells: exported variables, not the others
export A=exported; B=plain; bash -c 'echo "A=$A B=${B-unset}"'; C=prefix bash -c 'echo "C=$C"'
### nested shells: SHELLOPTS and BASHOPTS exported
set -o pipefail; export SHELLOPTS; bash -c 'set -o | grep pipefail'
shopt -s extglob; export BASHOPTS; bash -c 'shopt extglob'
### nested shells: SHELLOPTS and BASHOPTS in the environment
env SHELLOPTS=errexit:pipefail bash -c 'echo $-; set -o | grep -E "pipefail|errexit"'
env BASHOPTS=extglob:nullglob:bogus bash -c 'shopt extglob nullglob'
### nested shells: BASH_ENV runs before the script, bash only
cd "$HOME"; echo 'echo "benv $0 $#"; x=fromenv' >benv.sh
BASH_ENV=$HOME/benv.sh bash -c 'echo "x=$x"' a b; BASH_ENV=/nonexistent bash -c 'echo after'; echo "rc=$?"
D=$HOME BASH_ENV='$D/benv.sh' bash -c 'echo "x=$x"'
printf 'echo script $x\n' >s.sh; BASH_ENV=$HOME/benv.sh bash s.sh
### nested shells: options on the command line
bash -e -u -o pipefail -c 'echo $-; set -o | grep -E "^(errexit|nounset|pipefail) "'
bash -c 'echo "$0 $1 $#"' name one two; echo 'echo "$0 $# $1"' | bash -s p q
bash -c 'exit 3'; echo "status $?"; bash -e -c 'false; echo not reached'; echo "status $?"
### which and which -a agree with type -a
which cat; which -a cat sort; type -a -P head; which -a nosuch; echo "status $?"
### hash table: a remembered command runs even when $PATH finds another first
cd "$HOME"; PATH="one:two:$PATH"; mkdir -p one two
echo 'echo two' >two/mycmd; chmod +x two/mycmd; mycmd
echo 'echo one' >one/mycmd; chmod +x one/mycmd; mycmd; hash -r; mycmd
### hash table: a remembered command that is gone is not found
cd "$HOME"; PATH="one:two:$PATH"; mkdir -p one two
echo 'echo two' >two/mycmd; chmod +x two/mycmd; mycmd; echo status=$?
echo 'echo one' >one/mycmd; chmod +x one/mycmd; rm two/mycmd; mycmd 2>/dev/null; echo status=$?
### hash table: set +h turns it off
set +h; cat </dev/null; hash; echo "status $?"
