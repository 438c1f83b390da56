### declare -f simple list
f() { echo a; echo b; }
declare -f f

### declare -f compound commands
g() {
  if true; then echo x; elif false; then echo y; else echo z; fi
  for i in 1 2; do echo $i; done
  for ((i=0;i<3;i++)); do :; done
  while false; do break; done
  until true; do :; done
  case $x in a|b) echo ab;; c) echo c ;& *) ;; esac
  a && b || ! c
  echo hi > /dev/null 2>&1 < in
  x=1 y=2 cmd arg
  ( sub; shell )
  { grp; }
  echo a | cat |& cat
  sleep 1 &
  [[ -n $x && $y == z ]]
  (( x++ ))
  local v=3
  select s in a b; do :; done
  time ls
}
declare -f g

### declare -f here-documents
f2() { cat <<E
x $y
E
}
l() { cat <<-E
	tab
	E
  cat <<'Q'
raw $z
Q
  echo after
}
declare -f f2 l

### declare -f nested function and redirections
g2() ( echo sub )
h2() { echo; } > out
k() { a=(1 2) b+=3; echo "$x" ${y:-z} $(ls) 2>/dev/null >&2 &>f <<<str 3<&- >|g; }
m() { for x; do echo; done; while read a; do :; done < f; if a; then :; fi; n() { :; }; }
declare -f g2 h2 k m

### type prints the function
f() { echo; }
type f
typeset -f f

### declare -f with no names lists all functions
a() { echo a; }
b() { if x; then y; fi; }
declare -f

### set lists functions after variables
zzf() { echo a; if b; then c; fi; }
set | grep -A8 '^zzf ()'
set -o posix
set | grep -c '^zzf ()'
