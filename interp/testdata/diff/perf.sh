### append grows in place, copies keep their value
s=; for ((i=0;i<600;i++)); do s+=ab; done; t=$s; s+=XYZ; u=$s; s+=Q; t+=T
echo ${#s} ${#t} ${#u} ${t: -3} ${u: -4} ${s: -4}
### append after a copy, in a subshell and in a function
s=$(printf '%0300d' 0); s+=a; c=$s; (s+=sub; echo ${s: -4}); s+=b; c+=c; echo ${s: -3} ${c: -3} ${#s} ${#c}
f() { local s=$1; s+=L; echo ${#s} ${s: -2}; }; f "$s"; echo ${s: -2}
### append to exported, integer and array variables
x=$(printf '%0300d' 0); export x; x+=e; echo ${#x}; declare -i n=5; n+=3; echo $n; a=(q); a+=r; echo ${a[0]}
### plain literal words and brackets
echo [ ] a[ b] a.b-c/d:e=f%g,h^i#j; shopt -s nullglob; echo [ x ] a[; shopt -u nullglob
### literal assignment values
x=abc:def; y=a=b; echo $x $y
