### bash -i: $- has i (sandsh has no history expansion: no H), emacs mode and history on, prompts and HISTFILE set
jc() { grep -v -e 'job control' -e 'terminal process group'; }
bash -c 'echo "[$-]"; test -o emacs; echo emacs $?; echo ${PS1+ps1} ${PS2+ps2} ${HISTFILE+hf}'
bash --norc -i -c 'echo "[${-/H}]"; test -o emacs; echo emacs $?; test -o history; echo hist $?; echo ${PS1+ps1} ${PS2+ps2} ${HISTFILE:+hf}' 2>&1 | jc
bash -c 'set -o vi; shopt -o -p emacs vi; set -o emacs; shopt -o -p emacs vi'
(unset HOME; bash --norc -i -c 'echo "${HISTFILE##*/}"' 2>&1 | jc)
### bash -i: an error ends only its line, the status is the last command's
jc() { grep -v -e 'job control' -e 'terminal process group'; }
bash -c 'set -u; echo before; echo $x; echo after'; echo st=$?
bash --norc -i -c 'set -u; echo before; echo $x; echo after' 2>&1 | jc; echo "st=${PIPESTATUS[0]}"
bash --norc -i -c 'set -u; echo before; echo $x; echo after
echo line2' 2>&1 | jc; echo "st=${PIPESTATUS[0]}"
bash --norc -i -c 'echo $x' nm 2>&1 | jc
bash --norc -i -c 'f() { echo ${y?unset}; echo no; }; f; echo after' 2>&1 | jc
### bash -O / +O set shopt options; an unknown name is refused
bash +O nullglob -c 'echo foo *.nonexistent bar'
bash -O nullglob -c 'echo foo *.nonexistent bar'
bash -O extglob -O nullglob +O nullglob -c 'shopt extglob nullglob'
bash -O nosuch -c 'echo x'; echo st=$?
### bash -l, --login: login_shell, which shopt cannot change
bash --noprofile -l -c 'shopt login_shell' 2>&1
bash --login --noprofile -c 'shopt -u login_shell; echo $?; shopt login_shell'
bash -c 'shopt -s login_shell; echo $?; shopt login_shell'
### startup files: --rcfile for an interactive shell, profiles for a login shell
jc() { grep -v -e 'job control' -e 'terminal process group'; }
echo 'echo rc ran' > rc
bash --rcfile rc -i -c 'echo main' 2>&1 | jc
bash --rcfile rc -c 'echo main'
bash --norc --rcfile rc -i -c 'echo main' 2>&1 | jc
echo 'echo bashrc ran' > "$HOME/.bashrc"
bash -i -c 'echo main' 2>&1 | jc
echo 'echo profile ran' > "$HOME/.profile"
bash -l -c 'echo main' 2>&1 | grep -v /etc/
bash --noprofile -l -c 'echo main'
bash --rcfile 2>&1; echo st=$?
rm -f "$HOME/.bashrc" "$HOME/.profile"
### $SHELL comes from the user database when the environment has none
unset SHELL
bash -c 'test -n "$SHELL" && echo set; declare -p SHELL | cut -c1-11'
### a readonly variable before a command is reported and left out
readonly R=1
R=2 env | grep '^R='; echo st=$?
R=$(echo expanded >&2) env | grep '^R='; echo st=$?
declare -n n=R
n=3 env | grep '^R='; echo st=$?
UID=xx bash -c '[[ $UID == xx ]] && echo BAD; echo ok'
(set -o posix; R=4 env >/dev/null; echo not reached)
echo "posix st=$?"
### declare -F under extdebug and errors in functions name where the function came from
printf 'shopt -s extdebug\nadd () { :; }\ndeclare -F add\nf() {\n nosuch_cmd_x\n}\nf\n' > s.sh
bash < s.sh 2>&1 | sed 's/ (restricted.*//'
bash s.sh 2>&1 | sed 's/ (restricted.*//'
bash -c "$(cat s.sh)" 2>&1 | sed 's/ (restricted.*//'
echo 'g() { echo "${BASH_SOURCE[*]}"; }; g' | bash
