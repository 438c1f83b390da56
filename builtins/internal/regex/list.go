package regex

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
)

// Whole says how much of the text a grep match must cover.
type Whole int

const (
	WholeNone Whole = iota
	WholeWord       // grep -w: not preceded nor followed by a word character
	WholeLine       // grep -x
)

// ListOptions controls CompileList.
type ListOptions struct {
	Syntax     Syntax // BRE, ERE, Fixed or PCRE
	IgnoreCase bool
	Whole      Whole
	// Lines compiles for FindLine on buffers of '\n'-terminated lines:
	// nothing matches '\n' and ^ $ \` \' match at every line's ends.
	Lines bool
}

// ErrPCREList is GNU grep's complaint about -P with several patterns.
var ErrPCREList = errors.New("the -P option only supports a single pattern")

// CompileList compiles grep's patterns (in GNU grep's dialect: no \n or \t
// escapes, warnings for a leading ERE *) into one expression that matches
// where any of them does. Each pattern's back-references refer to its own
// groups. No patterns match nothing.
func CompileList(patterns []string, o ListOptions) (*Regexp, error) {
	if o.Syntax == PCRE {
		if len(patterns) != 1 {
			return nil, ErrPCREList
		}
		return compilePCRE(patterns[0], o.IgnoreCase, false, o.Whole)
	}
	var alts []*node
	var warnings []string
	ncap := 0
	for _, pat := range patterns {
		root, p, err := parse(pat, o.Syntax, true)
		if err != nil {
			return nil, err
		}
		shiftCaps(root, ncap)
		ncap += p.ncap
		alts = append(alts, root)
		for _, w := range p.warnings {
			if !contains(warnings, w) {
				warnings = append(warnings, w)
			}
		}
	}
	var root *node
	switch len(alts) {
	case 0:
		root = &node{op: opClass, cls: &charClass{}}
	case 1:
		root = alts[0]
	default:
		root = &node{op: opAlt, sub: alts}
	}
	re, err := build(root, o.IgnoreCase, emitter{lines: o.Lines}, o.Whole)
	if err != nil {
		return nil, err
	}
	re.expr = strings.Join(patterns, "\n")
	re.nsub = ncap
	re.warnings = warnings
	return re, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// shiftCaps renumbers groups and back-references by k, for a pattern that
// follows others in a list.
func shiftCaps(n *node, k int) {
	if k == 0 {
		return
	}
	if n.op == opCapture || n.op == opBackref {
		n.cap += k
	}
	for _, s := range n.sub {
		shiftCaps(s, k)
	}
}

// wrapWhole surrounds root with what -x or -w require.
func wrapWhole(root *node, whole Whole, d dialect) *node {
	switch whole {
	case WholeLine:
		return &node{op: opConcat, sub: []*node{{op: opBOL}, root, {op: opEOL}}}
	case WholeWord:
		if d == dialectGo {
			return wordWrapGo(root, true)
		}
		return &node{op: opConcat, sub: []*node{{op: opNotAfterWord}, root, {op: opNotBeforeWord}}}
	}
	return root
}

// wordWrapGo builds (?:^|\W)(root)(?:\W|$): Go has no lookaround, so the
// neighbours are consumed and the match is group 1.
func wordWrapGo(root *node, atStart bool) *node {
	nonWord := func() *node { return &node{op: opClass, cls: wordClass(true)} }
	var before *node = nonWord()
	if atStart {
		before = &node{op: opAlt, sub: []*node{{op: opBOL}, nonWord()}}
	}
	after := &node{op: opAlt, sub: []*node{nonWord(), {op: opEOL}}}
	return &node{op: opConcat, sub: []*node{before, {op: opCapture, sub: []*node{root}}, after}}
}

func compilePCRE(expr string, ignoreCase, multiline bool, whole Whole) (*Regexp, error) {
	prefix := ""
	if ignoreCase {
		prefix += "(?i)"
	}
	if multiline {
		prefix += "(?m)"
	}
	const nonWord = `[^0-9A-Za-z_]`
	src := expr
	switch whole {
	case WholeLine:
		src = `^(?:` + expr + `)$`
	case WholeWord:
		src = `(?:^|` + nonWord + `)(` + expr + `)(?:` + nonWord + `|$)`
	}
	// Go's syntax is Perl's for everything it supports, and it matches
	// leftmost-first like Perl: try it first.
	if g, err := regexp.Compile(prefix + src); err == nil {
		re := &Regexp{expr: expr, goLong: g, goFirst: g, nsub: g.NumSubexp()}
		if whole == WholeWord {
			re.nsub--
			if err := re.setWordRegexps(prefix, nonWord, expr); err != nil {
				return nil, err
			}
		}
		if lit, complete := g.LiteralPrefix(); complete && whole == WholeNone {
			re.lit, re.isLit = []byte(lit), true
		}
		return re, nil
	}
	net := possessiveToAtomic(expr)
	src = net
	switch whole {
	case WholeLine:
		src = `^(?:` + net + `)\z`
	case WholeWord:
		src = `(?<!` + wordSet + `)(?:` + net + `)(?!` + wordSet + `)`
	}
	re := &Regexp{expr: expr}
	if err := re.setBacktracking(prefix, src); err != nil {
		return nil, pcreError(err)
	}
	re.nsub = len(re.bt.GetGroupNumbers()) - 1
	return re, nil
}

// CountLines returns how many records of buf contain a match, as calling
// FindLine until it fails would, without finding where each record
// starts: grep -c on a literal is one literal search and one newline
// search per matching line.
func (re *Regexp) CountLines(buf []byte, sep byte) int {
	if re.pf == nil || !re.pf.exact {
		n := 0
		for p := 0; p < len(buf); {
			_, e, ok := re.FindLine(buf[p:], sep)
			if !ok {
				break
			}
			n++
			p += e + 1
		}
		return n
	}
	sc := re.pf.scanner(buf)
	n := 0
	for pos := 0; pos < len(buf); {
		i := sc.next(pos)
		if i < 0 {
			break
		}
		n++
		e := bytes.IndexByte(buf[i:], sep)
		if e < 0 {
			break
		}
		pos = i + e + 1
	}
	return n
}

// FindLine returns the bounds [start, end) of the first record of buf that
// contains a match; records end with sep (the last one may lack it) and
// end excludes the separator.
func (re *Regexp) FindLine(buf []byte, sep byte) (start, end int, ok bool) {
	if re.pf != nil {
		return re.findLinePrefiltered(buf, sep)
	}
	if re.lines && sep == '\n' {
		if d := re.getDFA(); d != nil {
			if i, ok := d.find(buf); ok {
				if i < 0 || i == len(buf) && (len(buf) == 0 || buf[len(buf)-1] == sep) {
					// With (?m), ^ and $ also match after the
					// final newline, where there is no line.
					return 0, 0, false
				}
				s, e := recordAround(buf, i, sep)
				return s, e, true
			}
		}
	}
	for pos := 0; pos < len(buf); {
		e := bytes.IndexByte(buf[pos:], sep)
		if e < 0 {
			e = len(buf)
		} else {
			e += pos
		}
		if re.matchRecord(buf[pos:e]) {
			return pos, e, true
		}
		pos = e + 1
	}
	return 0, 0, false
}

func recordAround(buf []byte, i int, sep byte) (int, int) {
	s := bytes.LastIndexByte(buf[:i], sep) + 1
	e := bytes.IndexByte(buf[i:], sep)
	if e < 0 {
		return s, len(buf)
	}
	return s, i + e
}

func (re *Regexp) matchRecord(rec []byte) bool {
	switch {
	case re.isLit:
		return bytes.Contains(rec, re.lit)
	case re.goFirst != nil:
		return re.goMatch(rec)
	}
	return re.btFind(rec, false) != nil
}

// verifyRecord is matchRecord for a record the prefilter found a literal
// in: the lazy DFA when there is one (one pass, no backtracking), else
// the engines.
func (re *Regexp) verifyRecord(rec []byte, sep byte) bool {
	if re.lines && sep == '\n' {
		if d := re.getDFA(); d != nil {
			if i, ok := d.find(rec); ok {
				return i >= 0
			}
		}
	}
	return re.matchRecord(rec)
}

func (re *Regexp) findLinePrefiltered(buf []byte, sep byte) (int, int, bool) {
	sc := re.pf.scanner(buf)
	for pos := 0; pos < len(buf); {
		i := sc.next(pos)
		if i < 0 {
			return 0, 0, false
		}
		s, e := recordAround(buf, i, sep)
		if re.pf.exact || re.verifyRecord(buf[s:e], sep) {
			return s, e, true
		}
		pos = e + 1
	}
	return 0, 0, false
}
