### word frequency
printf 'the cat the dog\nthe end\n' > t.txt; tr ' ' '\n' < t.txt | sort | uniq -c | sort -rn | head -2
### csv column sum
printf 'a,1\nb,2\nc,3\n' > d.csv; total=0; while IFS=, read -r name n; do total=$((total+n)); done < d.csv; echo $total
### config parse
printf 'key1=val1\n# comment\nkey2 = val 2\n' > c.conf; while IFS='=' read -r k v; do [[ $k =~ ^# || -z $k ]] && continue; k=${k// /}; v=${v# }; echo "[$k]=[$v]"; done < c.conf
### build dir tree
mkdir -p src/{a,b}/{x,y}; find src -type d | sort
### file loop with glob
touch one.log two.log three.txt; for f in *.log; do echo "${f%.log}"; done
### rename extension
touch a.jpeg b.jpeg; for f in *.jpeg; do mv "$f" "${f%.jpeg}.jpg"; done; ls
### count lines in files
printf '1\n2\n' > x; printf '1\n' > y; wc -l x y | tail -1
### grep in loop status
printf 'apple\nbanana\n' > f; for w in apple cherry; do if grep -q "^$w$" f; then echo "$w yes"; else echo "$w no"; fi; done
### usage function
usage(){ echo "usage: $0 [-v]" >&2; return 2; }; usage 2>/dev/null; echo $?
### option parsing loop
set -- -v -o out.txt input; verbose=0; while [[ $# -gt 0 ]]; do case $1 in -v) verbose=1;; -o) out=$2; shift;; *) args+=("$1");; esac; shift; done; echo $verbose $out ${args[@]}
### retry loop
n=0; until [[ $n -ge 3 ]]; do n=$((n+1)); [[ $n -eq 2 ]] && break; done; echo $n
### join array
a=(x y z); (IFS=,; echo "${a[*]}"); printf '%s;' "${a[@]}"; echo
### string contains
s="hello world"; [[ $s == *world* ]] && echo contains; case $s in *lo\ wo*) echo case-contains;; esac
### trim whitespace
s="   padded  "; s="${s#"${s%%[![:space:]]*}"}"; s="${s%"${s##*[![:space:]]}"}"; echo "[$s]"
### uppercase first letter
for w in alpha beta; do echo "${w^}"; done
### max of list
max=0; for n in 3 17 5 9; do (( n > max )) && max=$n; done; echo $max
### array sort via pipe
a=(pear apple fig); mapfile -t s < <(printf '%s\n' "${a[@]}" | sort); echo "${s[@]}"
### dedupe preserve order
declare -A seen; for x in b a b c a; do [[ -n ${seen[$x]-} ]] && continue; seen[$x]=1; printf '%s ' $x; done; echo
### heredoc to file then process
cat > list.txt <<EOT
3 c
1 a
2 b
EOT
sort -n list.txt | cut -d' ' -f2 | tr -d '\n'; echo
### json via jq
echo '{"a":[1,2,3]}' | jq '.a | add'
### sed in place
printf 'foo\nbar\n' > s.txt; sed -i 's/foo/baz/' s.txt; cat s.txt
### awk fields
printf 'x 1\ny 2\n' | awk '{ s += $2 } END { print s, NR }'
### xargs basic
printf 'a\nb\n' | xargs echo got
### find exec
mkdir fe; touch fe/1 fe/2; find fe -type f -exec echo found {} \; | sort
### tee append
echo one | tee -a tlog >/dev/null; echo two | tee -a tlog >/dev/null; cat tlog
### date fixed format
date -d @0 -u +%Y-%m-%d
### basename dirname
basename /a/b/c.txt .txt; dirname /a/b/c.txt
### seq and paste
seq 1 5 | paste -sd+ | bc
### head tail
seq 1 10 | head -3 | tail -1
### cut fields
echo "a:b:c" | cut -d: -f2,3
### tr squeeze
echo "a    b" | tr -s ' '
### sort numeric reverse
printf '10\n9\n100\n' | sort -nr | head -1
### uniq count
printf 'a\na\nb\n' | uniq -c | awk '{print $1$2}'
### wc words
echo "one two three" | wc -w
### test file existence chain
[[ -e nofile ]] || touch nofile; [[ -f nofile ]] && echo created
### mktemp in script
t=$(mktemp); echo data > "$t"; cat "$t"; rm "$t"; [[ -e $t ]] || echo removed
### cleanup trap
tmp=$(mktemp -d); trap 'rm -rf "$tmp"; echo cleaned' EXIT; touch "$tmp/x"; echo working
### functions returning arrays via nameref
getlist(){ local -n out=$1; out=(p q r); }; getlist res; echo ${res[1]}
### string repeat
printf -v line '%*s' 5 ''; echo "[${line// /-}]"
### read file into var
printf 'l1\nl2\n' > rf; content=$(<rf); echo "$content" | wc -l
### check command exists
if command -v jq >/dev/null; then echo have-jq; fi; if ! command -v nonesuch >/dev/null 2>&1; then echo no-nonesuch; fi
### exit code propagation through pipe
set -o pipefail; grep -q zzz /dev/null | cat; echo $?
### arithmetic loop sum
s=0; for i in {1..100}; do ((s+=i)); done; echo $s
### nested loops labels
for i in 1 2 3; do for j in 1 2 3; do (( i*j == 4 )) && { echo "found $i $j"; break 2; }; done; done
### case with multiple patterns and default
for f in a.tar.gz b.zip c.txt; do case $f in *.tar.gz|*.tgz) echo tar;; *.zip) echo zip;; *) echo other;; esac; done
### local var in recursion
count(){ local n=$1; (( n == 0 )) && return; echo $n; count $((n-1)); }; count 3
### string length loop
for w in a bb ccc; do echo "${#w}"; done
### printf table
printf '%-5s|%3d\n' a 1 bb 22
### parameter default with command
name=${NAME:-$(echo default)}; echo $name
### indirect array
arr=(a b); ref=arr[1]; echo ${!ref}
### sourcing function library
cat > lib.sh <<'EOT'
greet(){ echo "hello $1"; }
EOT
. ./lib.sh; greet world
### script exit status last command
ls nosuch 2>/dev/null
### subshell cd isolation
mkdir sd; (cd sd && pwd | grep -c sd); basename "$PWD" | grep -c sd
### long pipeline
seq 1 20 | grep 1 | sort -r | head -3 | tr '\n' ' '; echo
### background jobs collect
for i in 1 2 3; do (echo job$i > out$i) & done; wait; cat out1 out2 out3
### here string arithmetic
read -r a b <<< "$((2+2)) $((3*3))"; echo $a $b
### while read with index
i=0; while read -r line; do arr[i++]=$line; done < <(printf 'a\nb\n'); echo ${#arr[@]} ${arr[1]}
### printf reuse format with array
a=(1 2 3 4); printf '%s-%s\n' "${a[@]}"
### declare associative counting
declare -A c; for w in x y x; do ((c[$w]++)); done; echo ${c[x]} ${c[y]}
### test -v variable
x=; [[ -v x ]] && echo set; [[ -v nope ]] || echo notset
### unset array element then count
a=(1 2 3); unset 'a[1]'; echo ${#a[@]} "${a[@]}"
### string replace all in var
p=/usr/local/bin; echo ${p//\//:}
### substring search
s=abcdef; t=${s#*c}; echo $t
### default array value
unset arr; echo ${arr[@]:-empty}
### numeric string compare pitfalls
[[ 10 < 9 ]] && echo lexical; (( 10 < 9 )) || echo numeric
### hard link through the shell
echo x > a; ln a b; echo y >> b; cat a; ls -i a b | awk '{print $1}' | uniq | wc -l; stat -c %h a
### touch -h on a symlink
echo x > t; ln -s t l; touch -h -d '2001-02-03 04:05' l; ls -l --time-style=+%Y l | awk '{print $6}'; ls -l --time-style=+%Y t | awk '{print ($6 > 2001)}'
