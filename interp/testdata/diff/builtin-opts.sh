### read clustered options and -- 
printf 'a b\0c d\0' | { read -rd '' x; echo "[$x]"; read -r -d '' -- y; echo "[$y]"; }
### read -n and -N
echo '  a b c' | { read -n 5 x; echo "[$x]"; }
echo 'a b c' | { read -N 4 x y; echo "[$x][$y]"; }
printf 'a\\bc d' | { read -N 4 x; echo "[$x]"; }
### read IFS splitting with escapes
IFS='x '
for s in x xx xxx 'xa  ' 'xaxx ' 'a ax  x  x' 'x \ ' 'x\  '; do
  echo "$s" | { read a b; echo "[$a][$b]"; }
done
### read -a with escapes and empty fields
IFS='x '
echo 'a xx b' | { read -a arr; echo "${#arr[@]} [${arr[*]}]"; }
echo 'a b x x' | { read -a arr; echo "${#arr[@]}"; }
IFS=' '
echo 'a b c\ d' | { read -a arr; echo "${arr[2]}"; }
### read one variable strips IFS white space
echo '   a b   ' | { read x; echo "[$x]"; }
echo '   a b   ' | { read; echo "[$REPLY]"; }
echo 'a:b:' | { IFS=: read x; echo "[$x]"; }
echo 'a:' | { IFS=: read x; echo "[$x]"; }
### read option errors
read -n nope x < /dev/null; echo $?
read -t -1 x < /dev/null; echo $?
read -Z 2>/dev/null; echo $?
read -a 2>/dev/null; echo $?
### mapfile clustered options
printf '1\n2\n3\n' | { mapfile -tn 2 arr; echo "${#arr[@]} ${arr[*]}"; }
printf 'a\nb\n' | { mapfile -t -- arr; echo "${arr[1]}"; }
mapfile -q 2>/dev/null; echo $?
### eval and source accept --
eval -- echo hi
eval -z 2>/dev/null; echo $?
source -- /dev/null; echo $?
. -x /dev/null 2>/dev/null; echo $?
### builtin usage
builtin; echo $?
builtin --; echo $?
builtin -- false; echo $?
builtin -x 2>/dev/null; echo $?
### invalid options give status 2
for b in cd pwd shopt umask unset alias unalias command exec trap; do
  $b -Z 2>/dev/null; echo "$b $?"
done
### umask -p and -S
umask 022; umask -p; umask -S; umask -pS
### alias -p with operands
alias a1='echo 1'; alias -p a2='echo 2'; alias
### unalias -a and usage
alias x=y; unalias -a; alias; unalias 2>/dev/null; echo $?
### getopts OPTIND reset, OPTARG unset at the end, invalid name
set -- -h -c foo x
while getopts "hc:" opt; do echo "$opt ${OPTARG-unset}"; done
echo "OPTIND=$OPTIND ${OPTARG-unset}"
set --
while getopts "hc:" opt; do :; done
echo OPTIND=$OPTIND
OPTIND=1
set -- -c foo
getopts 'hc:' opt-; echo "status=$? OPTARG=$OPTARG OPTIND=$OPTIND"
getopts 2>/dev/null; echo $?
### set - and + forms
set -- a b
set -
echo "$@"
set - x y
echo "$@"
set +
echo "$@"
set + -
echo "$@"
### shopt -p -o
shopt -po nounset
set -u
shopt -po nounset errexit
shopt -po nounset bogus 2>/dev/null; echo $?
### too many arguments abandons the line
set -- a b c
shift 1 2; echo not here
echo "after $? $#"
f() { return 1 2; echo in; }; f; echo not here
echo next $?
for i in 1 2; do continue 1 2; done; echo not here
echo done
### history usage
history; echo $?
history +5; echo $?
history -5 2>/dev/null; echo $?
history f 2>/dev/null; echo $?
history a b 2>/dev/null; echo $?
### dirs pushd popd
cd /
pushd /tmp >/dev/null; pushd /usr >/dev/null
dirs -v; dirs +1; dirs -0
pushd +1; popd +1; dirs
pushd -n /etc; dirs -p; popd -n; dirs
popd -5 2>/dev/null; echo $?
pushd -z 2>/dev/null; echo $?
pushd . . 2>/dev/null; echo $?
popd zzz 2>/dev/null; echo $?
dirs x 2>/dev/null; echo $?
dirs -c; dirs
### posix mode special builtins
set -o posix
foo=bar :
echo "foo=$foo"
z=Z builtin :
echo "z=$z"
x=1 readonly r=2
echo "x=$x r=$r"
### posix mode refuses a special builtin function
set -o posix
eval() { echo f; }
echo not reached
### special builtin functions outside posix mode
eval() { echo "f $1"; }
eval hi
unset -f eval
### test -o and [ -o ]
test -o nounset; echo $?
set -u
test -o nounset; echo $?
[ -o nounset ]; echo $?
test -o nosuch; echo $?
test a -o ''; echo $?
### return outside a function
return 5
### set -n reads but runs nothing
echo 1
set -n
echo 2
### SHELLOPTS is readonly
SHELLOPTS=x
echo not reached
### printf -v validation and options
printf -v 'a[' %s x; echo $?
printf -v 1a %s x; echo $?
a=(1 2); printf -v 'a[1]' %s y; echo "${a[@]}"
printf -vb %s z; echo "$b"
printf -- '%s\n' dashdash
printf '-%s' x 2>/dev/null; echo $?
### cd x/.. needs x, and exports OLDPWD
cd /
cd nosuchdir/.. 2>/dev/null; echo $?
cd /tmp/../usr/./bin/..; echo $? $PWD
cd /tmp
env | grep -c '^OLDPWD=/$'
cd - >/dev/null; pwd
