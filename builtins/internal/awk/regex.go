package awk

import (
	"strings"
	"unsafe"

	rx "github.com/sandsh/sandsh/builtins/internal/regex"
)

// regex is the engine's view of a compiled regular expression: awk's ERE
// on sandsh's POSIX regex package. Strings are handed over as byte views
// without copying; the regex engine only reads them.
type regex struct {
	re    *rx.Regexp
	lit   string // the fixed string the regex is, if isLit
	isLit bool
}

func compileRegex(src string, icase bool) (*regex, error) {
	re, err := rx.Compile(src, rx.Flags{Syntax: rx.AWK, IgnoreCase: icase})
	if err != nil {
		return nil, err
	}
	r := &regex{re: re}
	r.lit, r.isLit = re.Literal()
	return r, nil
}

// bytesOf views s as bytes without copying.
func bytesOf(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

func unsafeBytesToString(b []byte) string { return unsafe.String(&b[0], len(b)) }

func (r *regex) matchString(s string) bool { return r.re.Match(bytesOf(s)) }

// findIndex returns the leftmost-longest match of r in s, or nil.
func (r *regex) findIndex(s string) []int { return r.re.FindIndex(bytesOf(s)) }

// findSubmatchIndex is findIndex with the capture groups.
func (r *regex) findSubmatchIndex(s string) []int { return r.re.FindSubmatchIndex(bytesOf(s)) }

// findAllIndex returns successive non-overlapping matches (with groups),
// skipping an empty match right after a previous match, as gsub, gensub
// and split need.
func (r *regex) findAllIndex(s string, n int) [][]int {
	return r.re.FindAllSubmatchIndex(bytesOf(s), n)
}

// forEachMatch calls fn with each match of r in s (only the first unless
// all), skipping an empty match right after a previous match. Fixed
// strings are searched here without allocating.
func (r *regex) forEachMatch(s string, all bool, fn func(start, end int)) {
	if r.isLit && r.lit != "" {
		for i := 0; ; {
			j := strings.Index(s[i:], r.lit)
			if j < 0 {
				return
			}
			fn(i+j, i+j+len(r.lit))
			if !all {
				return
			}
			i += j + len(r.lit)
		}
	}
	if !all {
		if m := r.findIndex(s); m != nil {
			fn(m[0], m[1])
		}
		return
	}
	for _, m := range r.findAllIndex(s, -1) {
		fn(m[0], m[1])
	}
}
