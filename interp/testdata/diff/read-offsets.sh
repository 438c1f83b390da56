### read then cat share a regular file's offset
printf '1\n2\n3\n4\n' > f; { read a; echo "a=$a"; cat; } < f
### two reads then cat, a here-document
{ read a; read b; echo "$b$a"; cat; } <<END
one
two
three
END
### read from a here-string leaves the rest
{ read -r a; cat; } <<< $'x y\nz\n'
### a pipe is read byte by byte: cat gets the rest
printf 'a\nb\nc\n' | { read x; echo "x=$x"; cat; }
### while read shares stdin with read in the body
printf '1\n2\n3\n4\n5\n' > f; while read l; do read m; echo "$l+$m"; done < f
### exec redirection shared between read and cat
printf 'p\nq\nr\ns\n' > f; exec 3< f; read -u 3 a; read b <&3; echo "$a$b"; cat <&3; exec 3<&-
### exec < file: read and later commands continue in order
printf 'p\nq\nr\n' > f; exec 4<&0 < f; read a; echo "a=$a"; read b; echo "b=$b"; cat; exec 0<&4 4<&-
### read -n and -N stop mid-line; cat continues there
printf 'abcdef\nghi\n' > f; { read -n 2 a; read -N 3 b; echo "[$a][$b]"; cat; } < f
### read -N in the middle of a multibyte character
printf 'h\303\251llo\nx\n' > f; { read -N 2 a; printf %s "$a" | od -An -tx1; cat | od -An -tx1; } < f
### read -d stops at its delimiter
printf 'a:b:c\nd\n' > f; { read -d : a; read -d : b; echo "$a$b"; cat; } < f
### read -d '' on NUL-separated data
printf 'a b\0c d\0e\n' > f; { read -r -d '' x; echo "[$x]"; cat | od -An -c; } < f
### NUL bytes are dropped and do not end the line
printf 'a\0b\nc\n' > f; { read x; echo "[$x]"; cat; } < f
### a backslash-newline continues the line, without -r
printf 'a\\\nb\nc\n' > f; { read x; echo "[$x]"; cat; } < f
### a line longer than the read-ahead blocks
{ head -c 70000 /dev/zero | tr '\0' x; printf '\nnext\n'; } > f; { read a; echo ${#a}; cat; } < f
### a line with an escape past the first block
{ head -c 5000 /dev/zero | tr '\0' y; printf '\\ z\\\nw\nlast\n'; } > f; { read a; echo ${#a} "${a:4998}"; cat; } < f
### the last line without a newline
printf 'a\nb' > f; { read x; read y; echo "$x$y $?"; read z; echo "[$z] $?"; } < f
### mapfile -n leaves the rest for cat
printf '1\n2\n3\n4\n' > f; { mapfile -n 2 a; echo "${#a[@]} ${a[1]}"; cat; } < f
### mapfile -t -d reads to the end
printf 'a,b,c' > f; { mapfile -t -d , a; declare -p a; } < f
### read in a subshell moves the shared offset
printf '1\n2\n3\n' > f; { (read a; echo "sub $a"); read b; echo "main $b"; cat; } < f
### a function reading its caller's stdin
f() { read l; echo "f:$l"; }; printf '1\n2\n3\n' > g; { f; f; cat; } < g
### two descriptors on two files
printf '1\n2\n3\n' > a; printf 'x\ny\nz\n' > b; while read l && read -u 3 m; do echo "$l$m"; done < a 3< b
### read -t on a regular file
printf '1\n2\n' > f; { read -t 5 a; echo "a=$a $?"; cat; } < f
### read -a and IFS splitting on a file line
printf ' a  b\tc \nrest\n' > f; { read -a arr; echo "${#arr[@]} ${arr[2]}"; IFS=: read x y; echo "[$x][$y]"; } < f
### IFS splitting with escapes, from a file
printf 'a\\ b c\\:d:e f  \n' > f; { IFS=' :' read x y z; echo "[$x][$y][$z]"; } < f
### read from a file opened read-write
printf '1\n2\n3\n' > f; exec 5<> f; read -u 5 a; echo X >&5; cat f; exec 5>&-
### select reads its answer from a file
printf '2\nnext\n' > f; { select x in a b c; do echo "x=$x"; break; done 2>/dev/null; cat; } < f
### head -n leaves a regular file just after its last line
printf '1\n2\n3\n4\n5\n6\n7\n' > f; while read l; do echo "r:$l"; head -n1; done < f
### head -n 2 then cat; a here-document is a pipe to head, as in bash
printf '1\n2\n3\n4\n' > f; { head -n 2; echo --; cat; } < f; { head -n1; cat; } <<< $'a\nb'
### grep -m leaves a regular file after the last selected line
printf '1\n2\n3\n4\n5\n6\n7\n' > f; while read l; do echo "r:$l"; grep -m1 .; done < f
### grep -m with trailing context, -c and -v
printf '1\n2\n3\n4\n5\n' > f; { grep -m1 -A1 1; echo --; cat; } < f; { grep -m1 -c 2; echo --; cat; } < f; { grep -v -m2 1; echo --; cat; } < f
### grep -q and -l do not give back what they read
printf '1\n2\n3\n' > f; { grep -q 1; echo --; cat; } < f; { grep -l -m1 1; echo --; cat; } < f
### head from a pipe keeps what it read, like GNU
printf '1\n2\n3\n' | { head -n1; echo --; cat; }
### mapfile keeps delimiters without -t, skips with -s, on a file
printf 'a\nb\nc\nd\ne' > f; { mapfile -s 1 -n 2 m; declare -p m; cat; } < f; mapfile m < f; declare -p m
### mapfile of lines longer than the read-ahead blocks
{ head -c 70000 /dev/zero | tr '\0' x; printf '\nshort\n'; head -c 5000 /dev/zero | tr '\0' y; } > f; mapfile -t m < f; echo ${#m[@]} ${#m[0]} ${m[1]} ${#m[2]}
### mapfile -d '' on a file, and -n from a pipe leaves the rest
printf 'a\0b\0c' > f; mapfile -t -d '' m < f; declare -p m; printf '1\n2\n3\n' | { mapfile -n 1 a; echo ${a[@]}; cat; }
### while read from /dev/stdin and /dev/fd/3 on regular files
printf '1\n2\n3\n' > f; { while read l; do echo "l=$l"; done < /dev/stdin; } < f; { read -r x < /dev/fd/3; echo "x=$x"; } 3< f
