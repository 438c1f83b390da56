// Package bashutf8 encodes and decodes code points the way bash does for \u and \U
// escapes ($'...', printf, echo -e): with the original UTF-8 scheme of up
// to six bytes, which does not check what it encodes. A surrogate
// (U+D800..U+DFFF) and a value past U+10FFFF (up to 0x7FFFFFFF) get the
// bytes that scheme gives them, where Go's encoder would write U+FFFD;
// larger values give nothing, as in bash.
package bashutf8

import "unicode/utf8"

// AppendRune appends the encoding of v to buf.
func AppendRune(buf []byte, v uint32) []byte {
	switch {
	case v < 0x80:
		return append(buf, byte(v))
	case v < 0x800:
		return append(buf, 0xc0|byte(v>>6), 0x80|byte(v)&0x3f)
	case v < 0x10000:
		return append(buf, 0xe0|byte(v>>12), 0x80|byte(v>>6)&0x3f, 0x80|byte(v)&0x3f)
	case v < 0x200000:
		return append(buf, 0xf0|byte(v>>18), 0x80|byte(v>>12)&0x3f, 0x80|byte(v>>6)&0x3f, 0x80|byte(v)&0x3f)
	case v < 0x4000000:
		return append(buf, 0xf8|byte(v>>24), 0x80|byte(v>>18)&0x3f, 0x80|byte(v>>12)&0x3f,
			0x80|byte(v>>6)&0x3f, 0x80|byte(v)&0x3f)
	case v < 0x80000000:
		return append(buf, 0xfc|byte(v>>30), 0x80|byte(v>>24)&0x3f, 0x80|byte(v>>18)&0x3f,
			0x80|byte(v>>12)&0x3f, 0x80|byte(v>>6)&0x3f, 0x80|byte(v)&0x3f)
	}
	return buf
}

// DecodeRune decodes the first character of s as glibc's mbrtowc does in
// a UTF-8 locale, which bash uses for printf's 'c arguments: valid UTF-8,
// and also the four- to six-byte forms of values past U+10FFFF (up to
// 0x7FFFFFFF) that Go's decoder refuses. Surrogates and overlong forms
// are invalid: n is 0 for them and for anything that is not a character.
func DecodeRune(s string) (v uint32, n int) {
	if r, size := utf8.DecodeRuneInString(s); r != utf8.RuneError || size > 1 {
		return uint32(r), size // size > 1: a U+FFFD of the input
	}
	if len(s) == 0 {
		return 0, 0
	}
	var min uint32
	switch c := s[0]; {
	case c >= 0xf4 && c <= 0xf7:
		v, n, min = uint32(c&0x07), 4, 0x110000
	case c >= 0xf8 && c <= 0xfb:
		v, n, min = uint32(c&0x03), 5, 0x200000
	case c >= 0xfc && c <= 0xfd:
		v, n, min = uint32(c&0x01), 6, 0x4000000
	default:
		return 0, 0
	}
	if len(s) < n {
		return 0, 0
	}
	for i := 1; i < n; i++ {
		if s[i]&0xc0 != 0x80 {
			return 0, 0
		}
		v = v<<6 | uint32(s[i]&0x3f)
	}
	if v < min {
		return 0, 0 // overlong, or a valid character Go already refused
	}
	return v, n
}
