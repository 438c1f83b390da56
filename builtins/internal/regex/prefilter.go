package regex

import (
	"bytes"
)

// A prefilter holds literals one of which every match must contain. Finding
// them with bytes.Index (SIMD) and running the engine only on the records
// around them is what makes grep fast on big inputs.
type prefilter struct {
	lits [][]byte
	rare []int // per literal: the index of the byte to look for first
	fold bool  // ASCII case-insensitive; lits are lower case
	// exact: finding a literal is finding a match (the expression is just
	// these literals).
	exact bool
}

const maxPrefilterLits = 16

func newPrefilter(lits [][]byte, fold bool) *prefilter {
	if len(lits) == 0 || len(lits) > maxPrefilterLits {
		return nil
	}
	pf := &prefilter{fold: fold}
	for _, l := range lits {
		if len(l) == 0 {
			return nil
		}
		if fold {
			if !isASCII(l) {
				return nil
			}
			l = bytes.ToLower(l)
		}
		pf.lits = append(pf.lits, l)
		pf.rare = append(pf.rare, rareByte(l))
	}
	return pf
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// requiredLits returns literals one of which every match of n contains, or
// nil when it finds none worth searching for.
func requiredLits(n *node) [][]byte {
	switch n.op {
	case opLit:
		return [][]byte{appendLit(nil, n)}
	case opCapture:
		return requiredLits(n.sub[0])
	case opRepeat:
		if n.min >= 1 {
			return requiredLits(n.sub[0])
		}
	case opAlt:
		var all [][]byte
		for _, s := range n.sub {
			l := requiredLits(s)
			if l == nil {
				return nil
			}
			all = append(all, l...)
		}
		return all
	case opConcat:
		var best [][]byte
		consider := func(c [][]byte) {
			if litScore(c) > litScore(best) {
				best = c
			}
		}
		var run []byte
		for _, s := range n.sub {
			if s.op == opLit {
				run = appendLit(run, s)
				continue
			}
			if run != nil {
				consider([][]byte{run})
				run = nil
			}
			consider(requiredLits(s))
		}
		if run != nil {
			consider([][]byte{run})
		}
		return best
	}
	return nil
}

// litScore ranks literal sets: longer is better, fewer is better.
func litScore(set [][]byte) int {
	if len(set) == 0 {
		return 0
	}
	short := len(set[0])
	for _, l := range set {
		short = min(short, len(l))
	}
	return short * 16 / len(set)
}

// exactLits reports whether n is only literals (or an alternation of
// them), so that finding one is a match.
func exactLits(n *node) bool {
	if n.op == opAlt {
		for _, s := range n.sub {
			if s.op == opAlt || !exactLits(s) {
				return false
			}
		}
		return true
	}
	l, ok := literalOf(n)
	return ok && len(l) > 0
}

// index returns the first position in b where one of the literals starts,
// or -1.
func (pf *prefilter) index(b []byte) int {
	best := -1
	for k, l := range pf.lits {
		lim := b
		if best >= 0 {
			lim = b[:min(len(b), best+len(l)-1)]
		}
		if i := pf.indexOne(lim, k); i >= 0 {
			best = i
		}
	}
	return best
}

// indexOne finds the k-th literal in b.
func (pf *prefilter) indexOne(b []byte, k int) int {
	if pf.fold {
		return indexFold(b, pf.lits[k])
	}
	return indexRare(b, pf.lits[k], pf.rare[k])
}

// indexRare is bytes.Index looking first for lit[j], the literal's rarest
// byte, with IndexByte (SIMD) and checking around each hit: bytes.Index
// looks for the first byte, which in text is often a common letter ("ing"
// stops at every 'i'). When the byte turns out common in this input (a
// false hit every 8 bytes or so, bytes.Index's own cutover) the rest is
// left to bytes.Index.
func indexRare(b, lit []byte, j int) int {
	if len(lit) == 1 {
		return bytes.IndexByte(b, lit[0])
	}
	c := lit[j]
	fails := 0
	for i := j; i < len(b); {
		k := bytes.IndexByte(b[i:], c)
		if k < 0 {
			return -1
		}
		k += i
		s := k - j
		if s+len(lit) > len(b) {
			return -1
		}
		if bytes.Equal(b[s:s+len(lit)], lit) {
			return s
		}
		i = k + 1
		if fails++; fails > 16+(i>>3) {
			if r := bytes.Index(b[s+1:], lit); r >= 0 {
				return s + 1 + r
			}
			return -1
		}
	}
	return -1
}

// scanner finds literals in one buffer in increasing positions, keeping
// each literal's next occurrence so the whole scan stays linear. It is a
// value, kept on the caller's stack: FindLine makes one per call, and
// grep calls FindLine once per matching line.
type pfScanner struct {
	pf  *prefilter
	buf []byte
	at  [maxPrefilterLits]int // next occurrence at or after the last asked position; -1: none
}

func (pf *prefilter) scanner(buf []byte) pfScanner {
	s := pfScanner{pf: pf, buf: buf}
	for i := range pf.lits {
		s.at[i] = -2
	}
	return s
}

// next returns the first literal position at or after pos, or -1.
func (s *pfScanner) next(pos int) int {
	if len(s.pf.lits) == 1 {
		if i := s.pf.indexOne(s.buf[pos:], 0); i >= 0 {
			return pos + i
		}
		return -1
	}
	best := -1
	for i := range s.pf.lits {
		if s.at[i] == -1 {
			continue
		}
		if s.at[i] < pos {
			j := s.pf.indexOne(s.buf[pos:], i)
			if j < 0 {
				s.at[i] = -1
				continue
			}
			s.at[i] = pos + j
		}
		if best < 0 || s.at[i] < best {
			best = s.at[i]
		}
	}
	return best
}

// indexFold is bytes.Index ignoring ASCII case; lit is lower case. It
// looks for one byte of lit with IndexByte (both cases when a letter) and
// checks around each hit.
func indexFold(b, lit []byte) int {
	j := rareByteFold(lit)
	c := lit[j]
	if c < 'a' || c > 'z' {
		for i := j; i < len(b); {
			k := bytes.IndexByte(b[i:], c)
			if k < 0 {
				return -1
			}
			k += i
			if s := k - j; s+len(lit) <= len(b) && equalFoldLower(b[s:s+len(lit)], lit) {
				return s
			}
			i = k + 1
		}
		return -1
	}
	up := c - 'a' + 'A'
	nl, nu := -2, -2
	for i := j; i < len(b); {
		if nl != -1 && nl < i {
			nl = indexByteFrom(b, c, i)
		}
		if nu != -1 && nu < i {
			nu = indexByteFrom(b, up, i)
		}
		k := nl
		if k < 0 || nu >= 0 && nu < k {
			k = nu
		}
		if k < 0 {
			return -1
		}
		if s := k - j; s+len(lit) <= len(b) && equalFoldLower(b[s:s+len(lit)], lit) {
			return s
		}
		i = k + 1
	}
	return -1
}

func indexByteFrom(b []byte, c byte, i int) int {
	k := bytes.IndexByte(b[i:], c)
	if k < 0 {
		return -1
	}
	return i + k
}

// equalFoldLower compares b with the lower-case ASCII lit ignoring case.
func equalFoldLower(b, lit []byte) bool {
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lit[i] {
			return false
		}
	}
	return true
}

// rareByte picks the byte of lit to search for: the rarest in text, by
// rank (a non-letter beats a letter, which for -i costs two IndexBytes).
func rareByte(lit []byte) int {
	best, bestRank := 0, -1
	for i, c := range lit {
		if r := byteRank(c); r > bestRank {
			best, bestRank = i, r
		}
	}
	return best
}

// rareByteFold is rareByte for a search ignoring case: a non-letter is
// one IndexByte where a letter is two, so any beats every letter.
func rareByteFold(lit []byte) int {
	best, bestRank := 0, -1
	for i, c := range lit {
		r := byteRank(c)
		if c|0x20 < 'a' || c|0x20 > 'z' {
			r += 100
		}
		if r > bestRank {
			best, bestRank = i, r
		}
	}
	return best
}

// byteRank orders bytes from common to rare in text and logs: space and
// newline, lower-case letters by their frequency in English, digits,
// upper-case letters, punctuation, then control and non-ASCII bytes.
func byteRank(c byte) int {
	const freq = "etaoinshrdlcumwfgypbvkjxqz" // most to least frequent
	switch {
	case c == ' ' || c == '\n' || c == '\t':
		return 0
	case c >= 'a' && c <= 'z':
		return 1 + bytes.IndexByte([]byte(freq), c)
	case c >= '0' && c <= '9':
		return 20
	case c >= 'A' && c <= 'Z':
		return 30 + bytes.IndexByte([]byte(freq), c-'A'+'a')
	case c < 0x80 && c >= 0x20:
		return 60
	}
	return 70
}
