### indirect list expansion tested for null in quotes
t() {
  ref='a[@]'; echo "@: '${!ref-u}' '${!ref:-n}' '${!ref:+p}'"
  ref='a[*]'; echo "*: '${!ref-u}' '${!ref:-n}' '${!ref:+p}'"
  ref='a[@]'; echo unquoted ${!ref:-n} ${!ref:+p}; x=${!ref:-n}; echo "assigned [$x]"
  declare y=${!ref:-n}; echo "declared [$y]"
  case ${!ref:-n} in n) echo case-null;; *) echo case-set;; esac
}
a=(); t; a=(""); t; a=("" ""); t; IFS=; t; unset IFS
set -- ""; r=@; s=*; echo "[${!r:-n}] [${!s:-n}] [${!r:+p}]"
declare -A A=([k]=""); r='A[@]'; echo "[${!r:-n}]"
### indirect through a missing element expands an unset parameter [stderr]
declare -A A=([x]=y)
echo "x=${!A[@]@a} invalid=${!A@a} [${!A@A}] [${!A-u}] [${!A@Q}] [${#A}]"
a=(1); echo "[${!a[5]@a}] [${!a[5]:-d}] [${!a[5]/x/y}] [${!a[5]:1}]"
echo "${!A:?}"; echo not reached
### indirect through a missing element with :? names it [stderr]
a=(1); echo "${!a[5]:?gone}"
### indirect through a missing element under set -u [stderr]
set -u; declare -A A=([x]=y); echo "${!A}"; echo not reached
### indirect through a missing element cannot assign [stderr]
declare -A A=([x]=y); echo "${!A:=z}"; echo same-line
declare -p A
### indirect reference with an unclosed quote in its subscript [stderr]
a=(x y)
f() { local val=$(echo "${!1}"); echo "[$1] -> [$val]"; }
f 'a[1"]'; f "a[1']"; f 'a[1]]'; f 'a["1"]'; f 'a[$(echo 1)]'
### declare arguments end at a blank inside a subscript [stderr]
declare a[a[0]=1]=X
declare a[ a[2]=3 ]=Y
declare -p a
declare b[ 1 ]=Y; echo status=$?
declare c[1 ]=Y c[ 2]=Z; echo status=$?
declare -p b c
declare d["1 "]=x d[$(echo 2 )]=y d[${u:- 3}]=z; declare -p d
declare e[1&&2]=x; echo status=$?
f() { local g[ 1 ]=x; echo local=$?; }; f
### unset -v expands an associative key
declare -A assoc=(['K']=val)
unset -v 'assoc["K"]'; echo len=${#assoc[@]}
declare -A assoc=(['K']=val); key=K
unset -v 'assoc[$key]'; echo len=${#assoc[@]}
declare -A assoc=(['K']=val)
unset -v 'assoc[$(echo K)]'; echo len=${#assoc[@]}
declare -A dict=(); key='1],a[1'; dict["$key"]=foo
unset -v 'dict["$key"]'; echo ${#dict[@]} "keys=${!dict[@]}"
declare -A q=(['$k']=lit [v]=exp); k=v; unset 'q[$k]'; declare -p q
### unset names an element only when its bracket closes the word [stderr]
declare -A dict=(['1],a[1']=foo)
unset -v 'dict[1],a[1]'; echo status=$? "keys=${!dict[@]}"
### test -v expands an associative key
typeset -A assoc=([empty]='' [k]=v ['$key']=lit)
for key in empty k nonexistent; do test -v 'assoc[$key]'; echo "$key=$?"; done
[ -v 'assoc["k"]' ]; echo bracket=$?
key=k; test -v "assoc[$key]"; echo plain=$?
### [[ -v ]] expands a key again only when not written as an element
declare -A A=([k]=1)
key=k
x='A[$key]'; [[ -v $x ]]; echo ref=$?
[[ -v 'A[$key]' ]]; echo quoted=$?
[[ -v A[$key] ]]; echo written=$?
A['$key']=lit; unset 'A[k]'
key='$key'; [[ -v A[$key] ]]; echo literal-key=$?
A[k]=1; x='A[$(echo k)]'; [[ -v $x ]]; echo substituted=$?
### expansion errors name the line [script]
x=
echo "${!x}"
echo after
### an expansion error abandons the line of -c text, not the text [stderr]
x=; echo "${!x}"; echo same-line
echo next-line=$?
f() { echo "${!x}"; echo in-f; }
f; echo same-line
for i in 1 2; do echo "${!x}"; done; echo after-loop
(echo "${!x}"; echo in-subshell); echo subshell=$?
### let and [[ -v ]] do not expand their expanded text again [script]
x='$(echo ran >&2; echo 1)'
let "z=$x"; echo "let=$? z=$z"
builtin let "z=$x"; echo "builtin=$?"
a=(1); [[ -v a[$x] ]]; echo same-line
echo next
y='$b'; b=1; let "z=$y" "w=b+1"; echo "let=$? z=$z w=$w"
