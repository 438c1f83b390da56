### [k]+=v in array literals
hello=100
a=([hello]=1 [hello]+=2); declare -p a
a+=([hello]+=:34 [hello]+=:56); declare -p a
b=(X Y); b=([1]=1 [1]+=2 [0]+=z); declare -p b
declare -i c=(1 2); c=([0]+=5 [-1]+=3 7); declare -p c
declare -A e=([k]=1); e=([k]+=2 [k]+=3); declare -p e; e+=([k]+=4); declare -p e
### negative subscript in an array literal is reported, the rest assigned
f=(1 2 3); f=([-1]=x [0]=y); echo $?; declare -p f
g=(a); g+=([-5]=x [-1]+=b); declare -p g
### tilde in [k]=v: expanded for indexed arrays, not for associative ones (bash 5.2)
HOME=/home/user
a=([2]=~ [4]=~:~:~ ~/x); declare -p a
declare -A m=([home]=~ [hello]=~:~:~); declare -p m
### associative key/value list
declare -A a=(k1 v1 k2); declare -p a
declare -A d; x="p q"; d=($x r s); declare -p d
declare -A e=([k]=v); e+=(k2 v2); declare -p e
declare -A z=([a]=b); z=(1 2 3 4); declare -p z
declare -A b=([x]=1 y); declare -p b
### a[i]=(list) fails when it runs
a=(1 2)
a[0]=(3 4)
echo "status=$?"; declare -p a
a[1]+=(5); echo not reached
echo "status=$?"
### array values before a command
A=a B=(b b) env | grep '^[AB]=' | sort
f() { echo "f:$B"; declare -p B; }; B=(x y) f
C=([k]=v) sh -c 'echo "$C"'
### array element before a command is reported, the command runs
a=1 b[0]=2 c=3 sh -c 'echo "$a ${b-unset} $c"'; echo "status=$?"
a[0 + 1]=foo echo hi; echo "status=$?"
### namerefs to array elements
arr=(X Y Z); typeset -n r="arr[1]"
echo "$r ${r:-d}"
r=new; declare -p arr; r+=s; declare -p arr
r[1]=q
echo "st $?"
r=(a b)
echo "st $?"
typeset -n s="arr[@]"
a=('A B' C); typeset -n ref='a[@]'
printf '<%s>' "$ref" $ref; echo
s=v
echo "st $?"
read r <<< hello; declare -p arr
### namerefs and ${!ref} to associative elements with quoted and expanded keys
declare -A A=(['K']=val)
declare -n ref='A["K"]'
echo "$ref"; ref=val2; echo "${A[@]}"
key=K; declare -n ref2='A[$key]'
echo "$ref2"; ref2=val3; echo "${A[@]}"
ind='A["K"]'; echo "${!ind}"; ind='A[$key]'; echo "${!ind}"
printf -v 'A["K"]' '/%s/' v4; echo "${A[@]}"; declare -p A
### circular namerefs: a write fails at the top level
typeset -n a=b; typeset -n b=a
a=1
echo "st $?"
### A+=a before a command, typeset with a built name and +=
A=a
A+=a sh -c 'echo "$A"'
dyn=x; typeset s${dyn}+=foo; echo "sx=$sx"; typeset s${dyn}+=bar; echo "sx=$sx"
### negative slice lengths
s=abcdef; echo "${s: 1: -3}"; echo "${s:4:-3}"; echo after $?
echo next; a=(1 2 3); echo "${a[@]:1:-1}" x
echo "st $?"
set -- 1 2 3; echo "${@:1:-1}"
echo end
### readonly and export take -a/-A only to assign an array [stderr]
readonly -a a1; readonly -A a2; x=5; readonly -a x; readonly -a a3=(1 2); readonly -A a4=([k]=v); readonly -a a5=7
export -a e1; export -A e3=([a]=b); y=(1 2); readonly -A y; readonly -n n1=1
declare -p a1 a2 x a3 a4 a5 e1 e3 y n1
for v in export readonly declare typeset; do $v -Z x; echo "st $?"; done
f() { local -Z x; }; f
### declare may add attributes to a readonly variable but not -n or +r [stderr]
for fl in -a -A -i -l -u -n -x +x +r -t +i +n; do
  echo "== $fl"
  ( declare -r -i g=1; readonly h=abc; readonly m=1; declare -rn k=h; declare $fl g h k m; echo $?; declare -p g h k m )
done
declare -lx l=A; declare -p l
### declare gives the attributes of a nameref to its target [stderr]
h=abc; declare -n k=h; declare -a k; declare -p h k
declare -n k2=h2; declare -x k2=5; declare -p h2 k2; declare -i k2; declare -p h2 k2
declare -n k3=arr[1]; declare -i k3; declare -p arr k3
### $_ after assignments and declarations
: foo; x=1; echo "1[$_]"
: foo; x=1 y=2; echo "2[$_]"
: foo; >/dev/null; echo "3[$_]"
: foo; a[1]=x; echo "4[$_]"
: foo; (( x=1 )); echo "5[$_]"
: foo; [[ a ]]; echo "6[$_]"
: foo; declare a=(1 2); echo "7[$_]"
: foo; declare x=1 y=(3); echo "8[$_]"
: foo; declare -a b; echo "9[$_]"
: foo; export z=(1); echo "10[$_]"
: foo; declare -p x >/dev/null; echo "11[$_]"
: foo; x=$(echo hi); echo "12[$_]"
: foo; declare "q=(1 2)"; echo "13[$_]"
: foo; declare a+=(3); echo "14[$_]"
: foo; declare a[5]=x; echo "16[$_]"
: foo; f(){ echo "in[$_]"; }; f y; echo "17[$_]"
: foo; x=1 : bar; echo "18[$_]"
: foo; if true; then :; fi; echo "19[$_]"
: foo; local 2>/dev/null; echo "20[$_]"
: foo; typeset -a t=(); echo "21[$_]"
: foo; readonly r=(1 2); echo "22[$_]"
: foo; declare >/dev/null; echo "23[$_]"
: foo; declare w=(1) v; echo "24[$_]"
: foo; declare -A m=([k]=v); echo "25[$_]"
: foo; x=$_; echo "26[$x]"
: foo; $e; echo "27[$_]"
i=2; : foo; declare a[$i]=x; echo "28[$_]"
: foo; declare -i n=1+2; echo "29[$_]"
: foo; v=(); declare "${v[@]}" >/dev/null; echo "30[$_]"
: foo; declare -- >/dev/null; echo "31[$_]"
: foo; s=$(echo hi) declare -p s >/dev/null; echo "32[$_]"
: foo; export >/dev/null; echo "33[$_]"
: foo; declare x=$'a b'; echo "34[$_]"
: foo; declare ${i}x=1 2>/dev/null; echo "35[$_]"
f(){ : foo; local l=1; echo "36[$_]"; }; f
: foo; declare -n nr=x; echo "37[$_]"
: foo; a=(1) b=2; echo "38[$_]"
: foo; declare s+=x; echo "39[$_]"
: foo; declare y=$_; echo "40[$y]"
: foo; declare -r ro=1; declare ro=2 2>/dev/null; echo "41[$_]"
: foo; declare a[1]; echo "42[$_]"
: foo; >/nonexistent/x 2>/dev/null; echo "[$_]"
### a declaration expands all its words before it assigns any
a=0; declare a=1 b=$a; echo $b; f(){ local x=1 y=$x; echo "[$y]"; }; f; x=5; f
export FOO=foo v=$(printenv FOO); echo "v=$v"
declare -i n=2 m=n+1; echo $m
x=0; declare x=1 a=($x); echo $a; y=0; declare y=1 b[0]=$y; echo ${b[0]}; declare -a c=($x) x=2; echo $c; z=0; declare -i z=5 w=z; echo $w
declare -A m; k=0; declare k=1 m=([$k]=v); declare -p m
i=0; declare -A m3=([$((i++))]=$((i++)) [$((i++))]=$i); declare -p m3
declare -a arr=([0]=5 [arr[0]]=x); declare -p arr
declare q=1 r=${undefined?boom} s=3; echo "q=$q s=$s"
### POSIX mode: prefix assignments before a special builtin stay, exported
x0=1 readonly y0=2; declare -p x0
set -o posix
foo=bar readonly spam=eggs; echo "foo=$foo spam=$spam"
printenv foo; printenv spam; echo "st=$?"
x1=1 eval ':'; x2=1 set --; x3=1 unset nothing; x4=1 shift 0; x5=1 trap - USR1; x7=1 :
f(){ x8=1 return 0; }; f
for i in 1; do x9=1 break; done
declare -p x1 x2 x3 x4 x5 x7 x8 x9
env | grep '^x[0-9]=' | sort
### declare a[i]=(list) is an error that abandons the line [stderr]
a=(1 2); declare a[3]=(3); echo "st=$?"; declare -p a
f(){ local b[1]=(x y); echo "st=$?"; declare -p b; }; f
echo end
declare -p a
