### \u and \U past U+10FFFF and surrogates encode as bash's encoder does
export LC_ALL=C.UTF-8
printf '%s' $'\U110000' $'\udc00' $'\ud800' $'\U1FFFFF' $'\U200000' $'\U7FFFFFFF' $'\UFFFFFFFF' $'\u00e9' | od -An -tx1
printf '\U110000\udc00\U7FFFFFFF\UFFFFFFFF\n' | od -An -tx1
printf '%b\n' '\U110000' '\udc00' | od -An -tx1
echo -e '\U110000\udc00\U200000\U80000000' | od -An -tx1
echo -n $'\U0001F600' | od -An -tx1
### printf 'c takes characters past U+10FFFF as glibc decodes them
export LC_ALL=C.UTF-8
printf '%x\n' "'"$'\xf4\x91\x84\x91' "'"$'\xf8\x88\x80\x80\x80' "'"$'\xfd\xbf\xbf\xbf\xbf\xbf'
printf '%u %o\n' "'"$'\xf4\x91\x84\x91' "'"$'\xf4\x91\x84\x91'
printf '%x\n' "'é" "'"$'\xef\xbf\xbd'
# bash's decoder keeps a bad state after an invalid sequence, so these
# come last (after one, bash takes every character as its first byte).
printf '%x\n' "'"$'\xed\xb0\x80'
