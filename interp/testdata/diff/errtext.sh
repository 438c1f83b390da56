### command not found names the script and line [script]
echo a

nosuch_cmd_x
echo "st $?"
### unbound variable names the script and line [script]
set -u
echo a
echo "$nope"
echo not reached
### errors in a function name the script and the line [script]
f() {
  nosuch_cmd_y
  cd /nonexistent-dir
}
f
### errors in a sourced file name that file [script]
printf 'echo in\nnosuch_cmd_z\ncd /nonexistent-dir\n' > lib.sh
source ./lib.sh
echo "st $?"
### builtin errors name the script and line [script]
cd /nonexistent-dir
declare -a x=1 2>&1 >/dev/null
readonly r=1
r=2
echo "st $?"
