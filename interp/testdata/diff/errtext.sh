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
### a syntax error names the unexpected token and shows its line [script]
echo a
foo )
echo not reached
### a syntax error at the end of the file [script]
echo a
if true; then
  echo b
### an unclosed quote names the line it opened on [script]
echo a
echo "unterminated

echo c
### an unclosed $( ) names the line where the file ended [script]
echo $(foo

### an operator followed by nothing [script]
echo a && && b
### a redirection without a word [script]
echo a >
### a keyword out of place [script]
echo a; fi
### syntax errors in eval and source name them, and the script goes on [script]
eval 'echo x; esac'
echo "st $?"
eval 'echo "y'
echo "st $?"
printf 'echo in\nfoo )\n' > lib.sh
. ./lib.sh
echo "st $?"
f() {
  eval '}'
}
f
### a command path that cannot be a file is 126 with execve's reason
touch f
./f/foo
echo "st $?"
ln -s loop loop
./loop
echo "st $?"
./0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789
echo "st $?"
### -c text names the line of a command not found and an unbound variable [stderr]
echo a
nosuch_cmd_c
f() { nosuch_cmd_d; }
f
set -u
echo "$nope"
### -c text names the line of a builtin's error and a readonly assignment [stderr]
cd /nonexistent-dir
readonly r=1
r=2
echo "st $?"
