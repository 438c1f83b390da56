package sed

import (
	"bytes"

	"github.com/sandsh/sandsh/builtins/internal/regex"
)

// rx is a compiled address or s regex.
type rx struct {
	re *regex.Regexp
	// bySegment is set for an M regex with -z. GNU sed then matches each
	// NUL-separated record on its own, so ^ and $ match at the NULs and
	// not at newlines. (Unlike GNU, . still matches a newline there.)
	bySegment bool
}

func (r *rx) match(b []byte) bool {
	if !r.bySegment {
		return r.re.Match(b)
	}
	for seg := range segments(b) {
		if r.re.Match(b[seg[0]:seg[1]]) {
			return true
		}
	}
	return false
}

func (r *rx) find(b []byte) []int {
	if !r.bySegment {
		return r.re.FindSubmatchIndex(b)
	}
	for seg := range segments(b) {
		if m := r.re.FindSubmatchIndex(b[seg[0]:seg[1]]); m != nil {
			return shift(m, seg[0])
		}
	}
	return nil
}

// findAll returns up to n matches (all when n < 0).
func (r *rx) findAll(b []byte, n int) [][]int {
	if !r.bySegment {
		return r.re.FindAllSubmatchIndex(b, n)
	}
	var out [][]int
	for seg := range segments(b) {
		left := -1
		if n >= 0 {
			left = n - len(out)
		}
		for _, m := range r.re.FindAllSubmatchIndex(b[seg[0]:seg[1]], left) {
			out = append(out, shift(m, seg[0]))
		}
		if n >= 0 && len(out) >= n {
			break
		}
	}
	return out
}

// segments yields the [start, end) bounds of b's NUL-separated records.
func segments(b []byte) func(func([2]int) bool) {
	return func(yield func([2]int) bool) {
		start := 0
		for {
			end := bytes.IndexByte(b[start:], 0)
			if end < 0 {
				yield([2]int{start, len(b)})
				return
			}
			if !yield([2]int{start, start + end}) {
				return
			}
			start += end + 1
		}
	}
}

func shift(m []int, off int) []int {
	for i, v := range m {
		if v >= 0 {
			m[i] = v + off
		}
	}
	return m
}
