#!/bin/bash
# A tour of sandsh: everything below runs in memory, with no host program
# and no host file touched.
set -euo pipefail

echo "== where am I =="
echo "user: $(whoami) on $(hostname), in $PWD"

echo "== files live in the sandbox =="
mkdir -p project/src
printf 'alpha 3\nbeta 1\ngamma 2\n' > project/data.txt
cat > project/src/main.sh <<'SCRIPT'
#!/bin/bash
echo "hello from a nested script: $*"
SCRIPT
chmod +x project/src/main.sh
./project/src/main.sh one two
ls project

echo "== text tools =="
sort -k2 -n project/data.txt | head -2
grep -c a project/data.txt
awk '{ total += $2 } END { print "total:", total }' project/data.txt
sed 's/beta/BETA/' project/data.txt | tr a-z A-Z | cut -d' ' -f1

echo "== json =="
echo '{"name":"sandsh","tags":["safe","fast"]}' | jq -r '.tags | join(",")'

echo "== bash semantics =="
declare -A count=()
for word in a b a c a; do count[$word]=$(( ${count[$word]:-0} + 1 )); done
echo "a seen ${count[a]} times"
fib() { (( $1 < 2 )) && echo "$1" || echo $(( $(fib $(($1-1))) + $(fib $(($1-2))) )); }
echo "fib(10) = $(fib 10)"

echo "== the host is out of reach =="
python3 -c 'print(1)' 2>&1 || true
cat /etc/hostname
