### assoc keys in bash's hash order
declare -A m=([b]=y [a]=x [zeta]=1 [alpha]=2 [10]=t [9]=n)
echo "${!m[@]}"; echo "${m[@]}"
for k in "${!m[@]}"; do printf '%s=%s ' "$k" "${m[$k]}"; done; echo
declare -p m
### assoc order after unset and re-add
declare -A m; for k in one two three four five six seven; do m[$k]=$k; done
unset 'm[three]'; m[three]=3; m[one]=uno
echo "${!m[@]}"; echo "${m[*]}"
### assoc order of a converted variable
m=first; declare -A m; m[k]=v; m[other]=o; m[x]=1; declare -p m
### assoc order after growth past 2048 keys
declare -A m; for ((i=0; i<2100; i++)); do m[k$i]=$i; done
s=; for k in "${!m[@]}"; do s+=$k,; done; echo "${#m[@]}" "${s:0:200}" "${s: -100}"
### assoc copy keeps order
declare -A m=([q]=1 [w]=2 [e]=3 [r]=4); f() { local -A c; for k in "${!m[@]}"; do c[$k]=${m[$k]}; done; echo "${!c[@]}"; }; f
### assoc slice
declare -A A=([1]=1 [2]=2 [3]=3 [4]=4 [5]=5)
echo "${A[@]}|${A[@]:0:2}|${A[@]:1:2}|${A[@]:2}|${A[@]: -2}|${A[@]: -6}|${A[@]: -7}|${A[*]:9}"
### assoc subscript that parses as arithmetic
declare -A as; i=1
as[i+1]=a; as["i + 1"]=b; as[$i+1]=c; as[i*2]=d
for k in "${!as[@]}"; do echo "$k=${as[$k]}"; done
echo "${as[i+1]} ${as[i + 1]} ${as[1+1]} ${as[i*2]}"
### arithmetic expands its text before parsing
x='1 + 2'; echo $(( $x * 3 )) $(( "$x" * 3 )) $(( x * 3 )) $(( "1+2" * 3 ))
e=; echo $(( $e )) $(( $e + 1 ))
a=(1 2 3); i=1; echo $(( a[$i] + ${#a[@]} )); (( a[$i]++ )); echo ${a[1]}
declare -A A=([foo]=bar [spam]=42); (( x = A['spam'] )); echo $x
### arithmetic error abandons the line only
echo $((1/0)); echo same-line
echo next=$?
f() { echo $((2/0)); echo in-f; }; f; echo after-f
echo end
### single quotes in arithmetic are an error
echo $(( '1' + 2 ))
echo status=$?
### readonly assignment abandons the line
readonly r=1
r=2; echo same-line
echo next=$?
r=3 true; echo prefix=$?
declare r=4; echo declare=$?
f() { local r=5; echo local=$?; }; f
read r <<< x; echo read=$?
(r=6; echo in-subshell); echo subshell=$?
### out-of-range negative subscript reads as empty
a=(1 2 3); echo "[${a[-5]}]" st=$?
### string indexed with @
s=abc; echo ${s[@]} "${s[*]}" ${#s[@]}
a=(4 5 6); (( b = a )); echo $b
### unset with an out-of-range negative subscript
a=(1 2); unset "a[-5]"; echo $?; unset "a[-1]"; echo ${a[@]}
### set -u in arithmetic
set -u; x=$(( y + 5 )); echo "not reached $x"
### set -u with ++ on an unset name
set -u; (( undef1++ )); echo "not reached"
### set -u: unset array elements read as zero
set -u; a=(); echo $(( a[3] ))
### nameref targets must be names
declare -n r=1; echo st=$?; declare -n q=@; echo st=$?
x=1; declare -n x; echo st=$?; declare -p x
declare -n z="a[1]"; declare -p z
set -- one two three
ref='#'; echo ref=$ref; typeset -n ref; echo ref=$ref
ref=foo; echo ref=$ref
### declare lists name=value, local lists the function's variables
x="a b"; y=1; z=$'t\tb'; a=(1 "2 3"); declare -A m=([k]=v); declare -n r=x; declare -i n=3; declare u
declare | grep -E "^(x|y|z|a|m|r|n|u)="
f(){ local p=1 q="s t"; local -a la=(1); local; }; f
readonly -p | grep -E "^declare -[a-z]*r[a-z]* (UID|EUID)" | cut -d= -f1
### declare -p of a declared unset variable
declare x1
declare -p x1
function g { local x1; declare -p x1; }
x1=1
g
### arithmetic text must be one expression
x="12 34"; echo $((x)); echo st=$?
echo next
s='12 34'; echo "$s" $(( s[0] )); echo status=$?
### assoc array as a scalar is element 0
typeset -A assoc; assoc[0]=42; echo $((assoc + 5)) $assoc
### readonly and export refuse elements
readonly b[7]=8; echo $?; export a[7]=8; echo $?; declare -p a b
f(){ local c[1]=2; echo $?; declare -p c; }; f
### array literal: values expanded first, indices evaluated as assigned
i=1; a=([100+i++]=$((i++)) [200+i++]=$((i++))); declare -p a
a=([0]=1+2+3 [a[0]]=10 [a[6]]=hello); declare -p a
a=(o1 o2 o3); a=("${a[2]}" "${a[0]}" "${a[1]}"); declare -p a
a=(o1 o2 o3); n1=7; a+=([0]=n1 [5]="${a[0]}" [a[0]]="${a[0]}"); declare -p a
declare -A c=([a]=1); c=([x]=1 [y]=${c[x]}z${c[a]}); declare -p c
declare -A c=([a]=1); c+=([x]=1 [y]=${c[x]}z${c[a]}); declare -p c
### assoc literal reads the old table
declare -A foo; foo=(["key"]="value1"); foo=(["key"]="${foo["key"]} value2"); declare -p foo
