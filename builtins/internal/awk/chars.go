package awk

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// In a UTF-8 locale (Config.UTF8) awk counts characters, not bytes:
// length, substr, index, match's RSTART and RLENGTH, printf widths and %c,
// split with "" and case mapping. Bytes that are not UTF-8 count as one
// character each and pass through unchanged. ASCII strings take the byte
// road either way.

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// charLen is the length of s in characters.
func (p *interp) charLen(s string) int {
	if !p.utf8 {
		return len(s)
	}
	return utf8.RuneCountInString(s)
}

// byteOffset returns the byte offset of the character at index n (from
// 0) of s, or len(s) if s is shorter.
func byteOffset(s string, n int) int {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return i
}

// charCount is the number of characters in s[:end].
func (p *interp) charCount(s string, end int) int {
	if !p.utf8 {
		return end
	}
	return utf8.RuneCountInString(s[:end])
}

// substrChars is substr on characters.
func (p *interp) substrChars(s string, m, n float64) string {
	if !p.utf8 || isASCII(s) {
		return substr(s, m, n)
	}
	if !(n >= 1) {
		return ""
	}
	if !(m >= 1) {
		m = 1
	}
	chars := utf8.RuneCountInString(s)
	if m > float64(chars) {
		return ""
	}
	start := int(m) - 1
	rest := chars - start
	if n < float64(rest) {
		rest = int(n)
	}
	b := byteOffset(s, start)
	return s[b : b+byteOffset(s[b:], rest)]
}

// mapCase applies f (unicode.ToUpper or ToLower) in a UTF-8 locale, or
// ASCII-only mapping otherwise, keeping invalid bytes as they are.
func (p *interp) mapCase(s string, upper bool) string {
	if !p.utf8 || isASCII(s) {
		if upper {
			return asciiUpper(s)
		}
		return asciiLower(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 {
			b.WriteByte(s[i])
			i++
			continue
		}
		if upper {
			r = unicode.ToUpper(r)
		} else {
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
		i += w
	}
	return b.String()
}

// firstChar is the first character of s (its first byte outside UTF-8
// mode).
func (p *interp) firstChar(s string) string {
	if s == "" {
		return ""
	}
	if !p.utf8 || s[0] < utf8.RuneSelf {
		return s[:1]
	}
	_, w := utf8.DecodeRuneInString(s)
	return s[:w]
}

// truncChars returns the first n characters of s.
func (p *interp) truncChars(s string, n int) string {
	if !p.utf8 {
		if n < len(s) {
			return s[:n]
		}
		return s
	}
	return s[:byteOffset(s, n)]
}
