package expand

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/pattern"
)

// This file is sandsh's matcher for extended patterns that a regular
// expression cannot express: !(pattern-list), anywhere and nested, as in
// a@(!(c|d)) or !(b)@(b|c). It backtracks over the subject like bash's
// extmatch, with memoization so that it stays polynomial, and a budget of
// steps so that a hostile pattern cannot hold the shell: past it, the
// pattern does not match.

// extMaxSteps bounds the work of one match.
const extMaxSteps = 1 << 18

type extKind uint8

const (
	extLit   extKind = iota // one rune
	extAny                  // ?
	extStar                 // *
	extClass                // [...]
	extGroup                // op(alt|alt...)
)

type extNode struct {
	kind  extKind
	r     rune
	class *extClassSet
	op    byte        // '?', '*', '+', '@' or '!' for extGroup
	alts  [][]extNode // extGroup alternatives
}

type extClassSet struct {
	negated bool
	runes   []rune
	ranges  [][2]rune
	classes []string
}

func (c *extClassSet) matches(r rune, fold bool) bool {
	in := c.has(r)
	if !in && fold {
		in = c.has(unicode.ToLower(r)) || c.has(unicode.ToUpper(r))
	}
	return in != c.negated
}

func (c *extClassSet) has(r rune) bool {
	for _, x := range c.runes {
		if x == r {
			return true
		}
	}
	for _, rg := range c.ranges {
		if rg[0] <= r && r <= rg[1] {
			return true
		}
	}
	for _, name := range c.classes {
		if classHas(name, r) {
			return true
		}
	}
	return false
}

func classHas(name string, r rune) bool {
	switch name {
	case "alnum":
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	case "alpha":
		return unicode.IsLetter(r)
	case "ascii":
		return r < 0x80
	case "blank":
		return r == ' ' || r == '\t'
	case "cntrl":
		return unicode.IsControl(r)
	case "digit":
		return '0' <= r && r <= '9'
	case "graph":
		return unicode.IsGraphic(r) && !unicode.IsSpace(r)
	case "lower":
		return unicode.IsLower(r)
	case "print":
		return unicode.IsPrint(r) || r == ' '
	case "punct":
		return r < 0x80 && unicode.IsPunct(r) || r < 0x80 && unicode.IsSymbol(r)
	case "space":
		return unicode.IsSpace(r)
	case "upper":
		return unicode.IsUpper(r)
	case "word":
		return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
	case "xdigit":
		return '0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F'
	}
	return false
}

// HasNegExtGlob reports whether pat holds an unescaped !( operator.
func HasNegExtGlob(pat string) bool {
	for i := 0; i < len(pat)-1; i++ {
		switch pat[i] {
		case '\\':
			i++
		case '!':
			if pat[i+1] == '(' {
				return true
			}
		}
	}
	return false
}

type extParser struct {
	rs []rune
	i  int
}

// parseExt parses a whole pattern; in a group, it stops at '|' or ')'.
func (p *extParser) parseSeq(inGroup bool) ([]extNode, bool) {
	var seq []extNode
	for p.i < len(p.rs) {
		r := p.rs[p.i]
		if inGroup && (r == '|' || r == ')') {
			return seq, true
		}
		switch r {
		case '\\':
			p.i++
			if p.i < len(p.rs) {
				seq = append(seq, extNode{kind: extLit, r: p.rs[p.i]})
				p.i++
			} else {
				seq = append(seq, extNode{kind: extLit, r: '\\'})
			}
			continue
		case '?', '*', '+', '@', '!':
			if p.i+1 < len(p.rs) && p.rs[p.i+1] == '(' {
				save := p.i
				p.i += 2
				if alts, ok := p.parseAlts(); ok {
					seq = append(seq, extNode{kind: extGroup, op: byte(r), alts: alts})
					continue
				}
				p.i = save // unclosed: literal, as in bash
			}
			switch r {
			case '?':
				seq = append(seq, extNode{kind: extAny})
			case '*':
				if len(seq) == 0 || seq[len(seq)-1].kind != extStar {
					seq = append(seq, extNode{kind: extStar})
				}
			default:
				seq = append(seq, extNode{kind: extLit, r: r})
			}
			p.i++
			continue
		case '[':
			if c, n := parseExtClass(p.rs[p.i+1:]); c != nil {
				seq = append(seq, extNode{kind: extClass, class: c})
				p.i += 1 + n
				continue
			}
		}
		seq = append(seq, extNode{kind: extLit, r: r})
		p.i++
	}
	return seq, !inGroup
}

// parseAlts parses a pattern list after "op(" up to and past its ")".
func (p *extParser) parseAlts() ([][]extNode, bool) {
	var alts [][]extNode
	for {
		seq, ok := p.parseSeq(true)
		if !ok || p.i >= len(p.rs) {
			return nil, false
		}
		alts = append(alts, seq)
		r := p.rs[p.i]
		p.i++
		if r == ')' {
			return alts, true
		}
	}
}

// parseExtClass parses a bracket expression after its "["; it returns nil
// if the bracket is not closed (then "[" is literal).
func parseExtClass(rs []rune) (*extClassSet, int) {
	c := &extClassSet{}
	i := 0
	if i < len(rs) && (rs[i] == '!' || rs[i] == '^') {
		c.negated = true
		i++
	}
	first := true
	for i < len(rs) {
		r := rs[i]
		if r == ']' && !first {
			return c, i + 1
		}
		first = false
		if r == '[' && i+1 < len(rs) && rs[i+1] == ':' {
			rest := string(rs[i+2:])
			if name, _, ok := strings.Cut(rest, ":]"); ok {
				c.classes = append(c.classes, name)
				i += 2 + utf8.RuneCountInString(name) + 2
				continue
			}
		}
		if r == '\\' && i+1 < len(rs) {
			i++
			r = rs[i]
		}
		if i+2 < len(rs) && rs[i+1] == '-' && rs[i+2] != ']' {
			hi := rs[i+2]
			if hi == '\\' && i+3 < len(rs) {
				hi = rs[i+3]
				i++
			}
			c.ranges = append(c.ranges, [2]rune{r, hi})
			i += 3
			continue
		}
		c.runes = append(c.runes, r)
		i++
	}
	return nil, 0
}

type extMatcher struct {
	seq       []extNode
	filenames bool // wildcards do not match '/'
	noDot     bool // wildcards do not match a leading '.'
	fold      bool
}

func newExtMatcher(pat string, mode pattern.Mode) func(string) bool {
	p := &extParser{rs: []rune(pat)}
	seq, _ := p.parseSeq(false)
	m := &extMatcher{
		seq:       seq,
		filenames: mode&pattern.Filenames != 0,
		noDot:     mode&pattern.Filenames != 0 && mode&pattern.GlobLeadingDot == 0,
		fold:      mode&pattern.NoGlobCase != 0,
	}
	return m.match
}

type extKey struct {
	seq     *extNode // identifies a sequence by its first node
	si      int32
	pos     int32
	end     int32
	nonNull bool
}

type extRun struct {
	m     *extMatcher
	s     []rune
	memo  map[extKey]bool
	steps int
}

func (m *extMatcher) match(name string) bool {
	run := &extRun{m: m, s: []rune(name), memo: map[extKey]bool{}}
	return run.seq(m.seq, 0, 0, len(run.s))
}

// wild reports whether a wildcard may consume the rune at i.
func (x *extRun) wild(i int) bool {
	r := x.s[i]
	if x.m.filenames && r == '/' {
		return false
	}
	return !(x.m.noDot && i == 0 && r == '.')
}

func (x *extRun) eq(a, b rune) bool {
	if a == b {
		return true
	}
	return x.m.fold && unicode.ToLower(a) == unicode.ToLower(b)
}

// seq reports whether seq[si:] matches exactly s[pos:end].
func (x *extRun) seq(seq []extNode, si, pos, end int) bool {
	for si < len(seq) {
		n := &seq[si]
		switch n.kind {
		case extLit:
			if pos >= end || !x.eq(x.s[pos], n.r) {
				return false
			}
		case extAny:
			if pos >= end || !x.wild(pos) {
				return false
			}
		case extClass:
			if pos >= end || !x.wild(pos) || !n.class.matches(x.s[pos], x.m.fold) {
				return false
			}
		case extStar, extGroup:
			return x.memoSeq(seq, si, pos, end)
		}
		si++
		pos++
	}
	return pos == end
}

func (x *extRun) memoSeq(seq []extNode, si, pos, end int) bool {
	key := extKey{seq: &seq[0], si: int32(si), pos: int32(pos), end: int32(end)}
	if v, ok := x.memo[key]; ok {
		return v
	}
	if x.steps++; x.steps > extMaxSteps {
		return false
	}
	v := x.step(seq, si, pos, end)
	x.memo[key] = v
	return v
}

// step matches the wildcard or group seq[si] and the rest after it.
func (x *extRun) step(seq []extNode, si, pos, end int) bool {
	n := &seq[si]
	if n.kind == extStar {
		for j := pos; ; j++ {
			if x.seq(seq, si+1, j, end) {
				return true
			}
			if j >= end || !x.wild(j) {
				return false
			}
		}
	}
	for j := pos; j <= end; j++ {
		if x.steps > extMaxSteps {
			return false
		}
		if x.group(n, pos, j) && x.seq(seq, si+1, j, end) {
			return true
		}
	}
	return false
}

// group reports whether the group n matches exactly s[pos:end].
func (x *extRun) group(n *extNode, pos, end int) bool {
	switch n.op {
	case '@':
		return x.alts(n, pos, end)
	case '?':
		return pos == end || x.alts(n, pos, end)
	case '*':
		return pos == end || x.repeat(n, pos, end)
	case '+':
		return x.repeat(n, pos, end)
	}
	// !(...): anything the list does not match; like a wildcard, it does
	// not match a leading dot or a slash in a file name.
	if x.m.noDot && pos == 0 && end > 0 && x.s[0] == '.' {
		return false
	}
	if x.m.filenames {
		for i := pos; i < end; i++ {
			if x.s[i] == '/' {
				return false
			}
		}
	}
	return !x.alts(n, pos, end)
}

func (x *extRun) alts(n *extNode, pos, end int) bool {
	for _, alt := range n.alts {
		if len(alt) == 0 {
			if pos == end {
				return true
			}
			continue
		}
		if x.seq(alt, 0, pos, end) {
			return true
		}
	}
	return false
}

// repeat reports whether s[pos:end] is one or more non-empty matches of
// the group's list in a row (or empty, if the list matches empty).
func (x *extRun) repeat(n *extNode, pos, end int) bool {
	if pos == end {
		return x.alts(n, pos, end)
	}
	key := extKey{seq: n, pos: int32(pos), end: int32(end), nonNull: true}
	if v, ok := x.memo[key]; ok {
		return v
	}
	// reach[k]: s[pos:pos+k] is a run of matches.
	reach := make([]bool, end-pos+1)
	reach[0] = true
	for k := 0; k < end-pos; k++ {
		if !reach[k] {
			continue
		}
		for k2 := k + 1; k2 <= end-pos; k2++ {
			if x.steps++; x.steps > extMaxSteps {
				return false
			}
			if !reach[k2] && x.alts(n, pos+k, pos+k2) {
				reach[k2] = true
			}
		}
	}
	x.memo[key] = reach[end-pos]
	return reach[end-pos]
}
