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

// matchIter walks the matches of a regex in a string: only the first
// unless all, skipping an empty match right after a previous match. Fixed
// strings are searched without allocating.
type matchIter struct {
	r    *regex
	s    string
	all  bool
	pos  int
	done bool
	ms   [][]int
	mi   int
}

func (it *matchIter) next() (start, end int, ok bool) {
	if it.done {
		return 0, 0, false
	}
	r := it.r
	if r.isLit && r.lit != "" {
		j := strings.Index(it.s[it.pos:], r.lit)
		if j < 0 {
			it.done = true
			return 0, 0, false
		}
		start, end = it.pos+j, it.pos+j+len(r.lit)
		it.pos = end
		it.done = !it.all
		return start, end, true
	}
	if !it.all {
		it.done = true
		if m := r.findIndex(it.s); m != nil {
			return m[0], m[1], true
		}
		return 0, 0, false
	}
	if it.ms == nil {
		it.ms = r.findAllIndex(it.s, -1)
	}
	if it.mi >= len(it.ms) {
		it.done = true
		return 0, 0, false
	}
	m := it.ms[it.mi]
	it.mi++
	return m[0], m[1], true
}
