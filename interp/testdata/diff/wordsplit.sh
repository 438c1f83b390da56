### "$@" inside a word keeps its elements apart
f() { printf '<%s>' "-$@-"; echo; }; f 'a 1' 'b 2'; f; f ''
### unquoted $@ inside a word
f() { printf '<%s>' -$@-; echo; }; f 'a 1' 'b 2'
### quote removal in assignments
R=a\ b; echo "$R"; S=\$x\"; echo "$S"; T="a\ b\$"; echo "$T"
### non-whitespace IFS keeps empty fields
IFS=:; x='a:b::c'; arr=($x); echo ${#arr[@]}; printf '<%s>' $x; echo
### IFS whitespace and delimiters together
p() { printf '<%s>' "$@"; echo; }
IFS='_ '; s1='_ a  b _ '; s2='  a  b _ '; s3='a_b _ _ _ c  _d e'; p $s1; p $s2; p $s3
IFS=_-; s='a__b---c_d'; p $s; IFS=_; p $s; c=_; p $c; e=; p $e
### quoted empty strings around a split expansion
p() { printf '<%s>' "$@"; echo; }
A="   abc   def   "; p $A; p ""$A""; x='a '; p $x""; x=' a'; p ""$x
### "$@" with no parameters
p() { printf '<%s>' "$@"; echo; }
set --; p 1 "$@" 2 $@ 3 "$*" 4 $* 5; p "$@"""; p ""$@; p "-$@-"
### unquoted $@ and $* with IFS set to non-whitespace or empty
p() { printf '<%s>' "$@"; echo; }
set -- one '' two; IFS=zx; p $*; p "$*"; p $@; p "$@"
set -- '' '' '' '' ''; p =$@=; IFS=; p =$@= =$*=; unset IFS; p =$@=
IFS=x; set -- '' '' ''; p $*; set -- $*; p $*
### list expansions in assignments
set -- a b; IFS=x; y=$@; z=$*; w="$@"; v="$*"; echo "$y|$z|$w|$v"
IFS=; y=$@; z=$*; echo "$y|$z"
### default words keep their quoting
p() { printf '<%s>' "$@"; echo; }
p ${u:-"a b" c}; p "${u:-"a b" c}"; p ${u:-a\ b} "${u:-a\ b}" "${u:-'x'}"
IFS=x; p ${u:-axb} "${u:-axb}" ${u:-"AxB"}x; unset IFS
v=; p ${v:="a b"}; set -- 'a b' c; p ${u:-"$@"} "${u:-$@}"
### default and alternate of lists
p() { printf '<%s>' "$@"; echo; }
set --; p "${@-x}" "${@:-y}"; set -- ''; p "${@-x}" "${@:-y}"; set -- '' ''; p "${@-x}" "${@:-y}"
a=('' ''); p "${a[@]:-z}"; a=(); p "${a[@]-z}" "${a[@]+z}"
set -- '' ''; IFS=; p "${*-m}" "${*+p}" "${*:-m}" "${*:+p}"
### indirect lists and prefixes
p() { printf '<%s>' "$@"; echo; }
ref='arr[@]'; p ${!ref+"${!ref}"}; arr=(a 'b c'); p "${!ref}"
pfx_a=1 pfx_b=2; p "${!pfx_@}" "${!pfx_*}"; IFS=; p ${!pfx_@}; p ${!pfx_*}
### transformations on lists
p() { printf '<%s>' "$@"; echo; }
a=(x 'y "z'); p "${a[@]@Q}" "${a[*]@Q}"; p "${a[@]@A}" "${a[*]@A}" "${a@A}"; p "${a[@]@K}"; p "${a[@]@k}"
set -- a 'b c'; p "${@@Q}" "${*@Q}" ${@@Q}; p "${@@A}"
s=hello; p "${s@U}" "${s@u}" "${s@L}" "${s@Q}" "${s@K}" "${s@A}" "${s@a}"
e='a\tb'; p "${e@E}"; u=$'x\ny'; p "${u@Q}" "${u@K}"
### regex and pattern escapes
s='foo()'; case $s in *\(\)) echo match; esac
[[ 'a.b' =~ a\.b ]] && echo re1; [[ 'axb' =~ a\.b ]] || echo re2; [[ '[x]' =~ \[x\] ]] && echo re3
[[ 'a.b' =~ 'a.b' ]] && echo re4; [[ 'a*' == a\* ]] && echo pat1; [[ 'ab' == a\* ]] || echo pat2
### case toggles and literal anchors after //
p() { printf '<%s>' "$@"; echo; }
s=hello; S=HeLLo; a=(aB Cd); p "${s~~}" "${s~}" "${S~~}" "${S~}" "${a[@]~~}" "${S~~[lL]}"
x=a%b%c; p "${x//%/-}" "${x/%/-}" "${x//#/-}" "${x/#/-}"
### transformations of unset values and string slices of s[@]
p() { printf '<%s>' "$@"; echo; }
declare -A m=([k]=v); p "${m@Q}" "${m@A}" "${u@Q}" "${u@A}"
s=abc; p "${s[@]:1}" "${s[@]:0:1}" "${#s[@]}"
### tilde after colons in assignment values
HOME=/home/bar
x=foo:~; echo $x; x=foo:~/a:~:b; echo $x; x=~:foo; echo $x; x=foo:\~; echo $x; x="foo:~"; echo $x
x=${undef-~:~}; echo $x; a[1]=foo:~; echo ${a[1]}; P=/usr/bin:~/bin; echo $P; echo x:~
### quoted patterns in removal operators
x="[foo]"; echo ${x#?} ${x#"?"} "${x#\?}"; y="[a]foo[]"; echo ${y#[a]} ${y#"[a]"}; z="a*b"; echo ${z%\*b} ${z%"*b"} ${z%*b}
### escaped brace in a quoted default word, attributes of positional parameters
echo "${x:-\}}" ${x:-\}} "${x:-a\b}"; set -- a b; echo "[${@@a}]"
