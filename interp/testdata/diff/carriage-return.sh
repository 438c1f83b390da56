### a carriage return is a word character, not a blank
eval $'x=b\r'; printf '%q\n' "$x"
eval $'printf "<%q>" a\r'; echo
eval $'echo one\r\necho two' | while IFS= read -r l; do printf '%q\n' "$l"; done

### a carriage return in arithmetic is an error, as in bash
x=$'\r42\r'
echo $(( x + 1 ))
echo status=$?

### tabs and newlines around an arithmetic operand are blanks
x=$'\t42\n'
echo $(( x + 1 ))
