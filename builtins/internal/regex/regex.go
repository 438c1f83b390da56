// Package regex implements the POSIX regular expressions of GNU grep, sed
// and awk (BRE, ERE with GNU extensions, awk's ERE) and grep -P on top of
// Go's regexp, which runs in linear time.
//
// An expression is parsed into a small tree and printed in Go's syntax.
// Matching is leftmost-longest, as POSIX requires. Expressions Go's engine
// cannot run (back-references, and \< \> that are not simply \b) go to
// github.com/dlclark/regexp2, a backtracking engine, with a per-match time
// limit; a timeout is reported by Err. That engine matches leftmost-first,
// so with it the longest match is not always chosen.
//
// For grep, CompileList joins several patterns, adds -w and -x, and
// FindLine finds matching lines in big buffers: literals every match must
// contain are searched with bytes.Index, and a lazy DFA (dfa.go) scans
// where there are none.
//
// Input is bytes. Both engines decode UTF-8: a valid multi-byte sequence
// is one character (so . matches all of "é"), and each byte that is not
// UTF-8 is one character of its own, seen as U+FFFD. Invalid bytes in the
// pattern are likewise U+FFFD, so they match any invalid input byte; pure
// fixed strings are matched byte for byte. Case folding is ASCII-only in
// the fixed-string fast paths and Unicode simple folding in the engines.
package regex

import (
	"bytes"
	"errors"
	"regexp"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// Syntax selects the regular expression dialect.
type Syntax int

const (
	BRE   Syntax = iota // POSIX basic, with GNU's \| \+ \? \w \< ... extensions
	ERE                 // POSIX extended, with GNU extensions
	PCRE                // Perl-compatible (grep -P)
	AWK                 // ERE with awk's escapes (\n, \/, \y, octal ...)
	Fixed               // a fixed string (grep -F)
)

// Flags controls compilation.
type Flags struct {
	Syntax     Syntax
	IgnoreCase bool
	// Multiline makes ^ and $ match at each '\n' inside the subject, and
	// keeps . and [^...] from matching '\n' (sed's M flag).
	Multiline bool
}

// MatchTimeout bounds one match on the backtracking engine.
const MatchTimeout = 2 * time.Second

// ErrTimeout is what Err returns after a match ran out of time.
var ErrTimeout = errors.New("regular expression match timed out")

// Regexp is a compiled expression. It is safe for concurrent use.
type Regexp struct {
	expr string
	nsub int

	lit   []byte // the whole expression is this fixed string
	isLit bool

	goLong  *regexp.Regexp // leftmost-longest (or Perl's leftmost-first for PCRE)
	goFirst *regexp.Regexp // any match: for Match
	bt      *regexp2.Regexp
	// btNonEmpty is bt anchored at the start position, matching only
	// non-empty text.
	btNonEmpty *regexp2.Regexp

	// word: grep -w on Go's engine. goLong/goFirst are wrapped as
	// (?:^|\W)(expr)(?:\W|$) and group 1 is the match; wordNext is the
	// same without ^, to continue a search after a match, and wordAt is
	// \A(expr)(?:\W|$), to try a match right where a wrapper match began.
	word     bool
	wordNext *regexp.Regexp
	wordAt   *regexp.Regexp

	lines bool       // compiled for buffers of '\n'-separated lines
	pf    *prefilter // literals every match contains

	// A lazy DFA over goFirst's program, built on first use by FindLine,
	// and by Match when Go's engine has no literal prefix to skip to
	// (otherwise Go's own scan is faster).
	goSrc    string
	dfaOnce  sync.Once
	dfa      *dfa
	dfaMatch bool

	warnings []string

	mu  sync.Mutex
	err error
}

// Compile compiles expr.
func Compile(expr string, f Flags) (*Regexp, error) {
	if f.Syntax == PCRE {
		return compilePCRE(expr, f.IgnoreCase, f.Multiline, WholeNone)
	}
	root, p, err := parse(expr, f.Syntax, false)
	if err != nil {
		return nil, err
	}
	re, err := build(root, f.IgnoreCase, emitter{multiline: f.Multiline}, WholeNone)
	if err != nil {
		return nil, err
	}
	re.expr = expr
	re.nsub = p.ncap
	return re, nil
}

// MustCompile is like Compile but panics on error; for tests and constants.
func MustCompile(expr string, f Flags) *Regexp {
	re, err := Compile(expr, f)
	if err != nil {
		panic("regex: Compile(" + expr + "): " + err.Error())
	}
	return re
}

// build picks an engine for root and compiles it.
func build(root *node, ignoreCase bool, mode emitter, whole Whole) (*Regexp, error) {
	re := &Regexp{lines: mode.lines}
	if s, ok := literalOf(root); ok && !ignoreCase && whole == WholeNone {
		re.lit, re.isLit = s, true
	}
	re.pf = newPrefilter(requiredLits(root), ignoreCase)
	if re.pf != nil && whole == WholeNone && exactLits(root) {
		re.pf.exact = true
	}
	backtrack := needsBacktracking(root)
	if !backtrack {
		err := re.buildGo(root, ignoreCase, mode, whole)
		if err == nil {
			return re, nil
		}
		// Go's engine caps repetition counts at 1000 and program size;
		// regexp2 takes up to GNU's limit.
	}
	mode.d = dialectNet
	mode.Reset()
	mode.prefix(ignoreCase)
	prefix := mode.String()
	mode.Reset()
	mode.emit(wrapWhole(root, whole, dialectNet))
	if err := re.setBacktracking(prefix, mode.String()); err != nil {
		return nil, errTooBig
	}
	return re, nil
}

// setBacktracking compiles expr (after the flags prefix) for regexp2, and
// a variant that only matches non-empty text right at the start position:
// regexp2 picks the first alternative that matches rather than the
// longest, and an empty match must not hide a longer one at the same place
// (grep -o 'x*\|a').
func (re *Regexp) setBacktracking(prefix, expr string) error {
	bt, err := regexp2.Compile(prefix+expr, regexp2.None)
	if err != nil {
		return err
	}
	nonEmpty, err := regexp2.Compile(prefix+`\G(?:`+expr+`)(?<!\G)`, regexp2.None)
	if err != nil {
		return err
	}
	bt.MatchTimeout, nonEmpty.MatchTimeout = MatchTimeout, MatchTimeout
	re.bt, re.btNonEmpty = bt, nonEmpty
	return nil
}

func (re *Regexp) buildGo(root *node, ignoreCase bool, mode emitter, whole Whole) error {
	mode.d = dialectGo
	mode.prefix(ignoreCase)
	mode.emit(wrapWhole(root, whole, dialectGo))
	long, err := regexp.Compile(mode.String())
	if err != nil {
		return err
	}
	long.Longest()
	first := regexp.MustCompile(mode.String())
	if whole == WholeWord {
		var inner emitter = mode
		inner.Reset()
		inner.emit(root)
		nonWord := `[^0-9A-Za-z_]`
		if mode.lines {
			nonWord = `[^0-9A-Za-z_\n]`
		}
		var pre emitter = mode
		pre.Reset()
		pre.prefix(ignoreCase)
		if err := re.setWordRegexps(pre.String(), nonWord, inner.String()); err != nil {
			return err
		}
	}
	re.goLong, re.goFirst = long, first
	re.goSrc = first.String()
	prefix, _ := first.LiteralPrefix()
	re.dfaMatch = prefix == ""
	return nil
}

// setWordRegexps compiles the helpers of grep -w on Go's engine.
func (re *Regexp) setWordRegexps(prefix, nonWord, inner string) error {
	next, err := regexp.Compile(prefix + nonWord + `(` + inner + `)(?:` + nonWord + `|$)`)
	if err != nil {
		return err
	}
	at, err := regexp.Compile(prefix + `\A(` + inner + `)(?:` + nonWord + `|$)`)
	if err != nil {
		return err
	}
	next.Longest()
	at.Longest()
	re.word, re.wordNext, re.wordAt = true, next, at
	return nil
}

// literalOf returns the bytes of an expression made only of literal
// characters.
func literalOf(n *node) ([]byte, bool) {
	switch n.op {
	case opLit:
		return appendLit(nil, n), true
	case opEmpty:
		return []byte{}, true
	case opConcat:
		var b []byte
		for _, s := range n.sub {
			if s.op != opLit {
				return nil, false
			}
			b = appendLit(b, s)
		}
		return b, true
	}
	return nil, false
}

func appendLit(b []byte, n *node) []byte {
	if n.raw {
		return append(b, byte(n.r))
	}
	return utf8.AppendRune(b, n.r)
}

// getDFA returns the lazy DFA for a Go-engine expression, or nil.
func (re *Regexp) getDFA() *dfa {
	if re.goSrc == "" {
		return nil
	}
	re.dfaOnce.Do(func() { re.dfa = newDFA(re.goSrc) })
	return re.dfa
}

// String returns the source text of the expression.
func (re *Regexp) String() string { return re.expr }

// NumSubexp returns the number of parenthesized subexpressions.
func (re *Regexp) NumSubexp() int { return re.nsub }

// Literal returns the fixed string the expression matches, when it is one
// (and case matters), for fast paths.
func (re *Regexp) Literal() (string, bool) { return string(re.lit), re.isLit }

// Warnings returns the warnings GNU grep prints for the expression, such
// as "* at start of expression".
func (re *Regexp) Warnings() []string { return re.warnings }

// Err returns the first error met while matching (ErrTimeout), if any.
func (re *Regexp) Err() error {
	re.mu.Lock()
	defer re.mu.Unlock()
	return re.err
}

func (re *Regexp) setErr(err error) {
	re.mu.Lock()
	if re.err == nil {
		re.err = ErrTimeout
	}
	re.mu.Unlock()
}

// Match reports whether b contains a match.
func (re *Regexp) Match(b []byte) bool {
	switch {
	case re.isLit:
		return bytes.Contains(b, re.lit)
	case re.pf != nil && re.pf.index(b) < 0:
		return false
	case re.goFirst != nil:
		return re.goMatch(b)
	}
	return re.btFind(b, false) != nil
}

// goMatch runs the DFA or Go's engine, whichever is faster here.
func (re *Regexp) goMatch(b []byte) bool {
	if re.dfaMatch {
		if d := re.getDFA(); d != nil {
			if i, ok := d.find(b); ok {
				return i >= 0
			}
		}
	}
	return re.goFirst.Match(b)
}

// MatchString reports whether s contains a match.
func (re *Regexp) MatchString(s string) bool {
	switch {
	case re.isLit:
		return bytes.Contains([]byte(s), re.lit)
	case re.goFirst != nil && re.pf == nil && !re.dfaMatch:
		return re.goFirst.MatchString(s)
	}
	return re.Match([]byte(s))
}

// FindIndex returns the leftmost-longest match of b as [start, end], or
// nil.
func (re *Regexp) FindIndex(b []byte) []int {
	if re.isLit {
		i := bytes.Index(b, re.lit)
		if i < 0 {
			return nil
		}
		return []int{i, i + len(re.lit)}
	}
	m := re.FindSubmatchIndex(b)
	if m == nil {
		return nil
	}
	return m[:2]
}

// FindSubmatchIndex returns the match and its subexpressions as pairs of
// offsets (-1 for a group that did not take part), or nil.
func (re *Regexp) FindSubmatchIndex(b []byte) []int {
	switch {
	case re.isLit:
		return re.FindIndex(b)
	case re.pf != nil && re.pf.index(b) < 0:
		return nil
	case re.goLong != nil:
		m := re.goLong.FindSubmatchIndex(b)
		if re.word && m != nil {
			m = m[2:]
		}
		return m
	}
	return re.btFind(b, true)
}

// FindStringSubmatchIndex is FindSubmatchIndex on a string.
func (re *Regexp) FindStringSubmatchIndex(s string) []int {
	if re.goLong != nil && !re.word && re.pf == nil {
		return re.goLong.FindStringSubmatchIndex(s)
	}
	return re.FindSubmatchIndex([]byte(s))
}

// FindAllIndex returns up to n (all if n < 0) successive non-overlapping
// matches. Like Go's regexp (and GNU sed's g flag), an empty match right
// after a previous match is skipped.
func (re *Regexp) FindAllIndex(b []byte, n int) [][]int {
	all := re.FindAllSubmatchIndex(b, n)
	for i, m := range all {
		all[i] = m[:2]
	}
	return all
}

// FindAllSubmatchIndex is FindAllIndex with subexpressions.
func (re *Regexp) FindAllSubmatchIndex(b []byte, n int) [][]int {
	switch {
	case re.isLit && len(re.lit) > 0:
		return re.findAllLit(b, n)
	case re.pf != nil && re.pf.index(b) < 0:
		return nil
	case re.word:
		return re.findAllWord(b, n)
	case re.goLong != nil:
		return re.goLong.FindAllSubmatchIndex(b, n)
	}
	return re.btFindAll(b, n)
}

func (re *Regexp) findAllLit(b []byte, n int) [][]int {
	var out [][]int
	for i := 0; n < 0 || len(out) < n; {
		j := bytes.Index(b[i:], re.lit)
		if j < 0 {
			break
		}
		out = append(out, []int{i + j, i + j + len(re.lit)})
		i += j + len(re.lit)
	}
	return out
}

// findAllWord iterates grep -w matches on Go's engine. The wrapper eats
// the non-word byte on each side of a match, so the search after a match
// restarts one byte early, with a wrapper that needs that byte to be a
// non-word character. When the wrapper ate a byte that could itself start
// a match (leftmost-longest prefers the longer wrapper match), a match
// there is tried first, as GNU grep would find it.
func (re *Regexp) findAllWord(b []byte, n int) [][]int {
	var out [][]int
	k := 0
	for k <= len(b) && (n < 0 || len(out) < n) {
		var m []int
		off := 0
		if k == 0 {
			m = re.goLong.FindSubmatchIndex(b)
		} else {
			off = k - 1
			m = re.wordNext.FindSubmatchIndex(b[off:])
		}
		if m == nil {
			break
		}
		ws := m[0] + off
		if ws < m[2]+off && ws >= k && (ws == 0 || !isWordByte(b[ws-1])) {
			if a := re.wordAt.FindSubmatchIndex(b[ws:]); a != nil {
				m, off = a, ws
			}
		}
		m = m[2:]
		for i := range m {
			if m[i] >= 0 {
				m[i] += off
			}
		}
		out = append(out, m)
		k = m[1]
		if m[1] == m[0] {
			k++
		}
	}
	return out
}

func isWordByte(c byte) bool { return isAlnum(c) || c == '_' }

// FindAllStringSubmatchIndex is FindAllSubmatchIndex on a string.
func (re *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return re.FindAllSubmatchIndex([]byte(s), n)
}

// decodeRunes converts b to the runes regexp2 works on and the byte offset
// of each rune (plus len(b) at the end).
func decodeRunes(b []byte) ([]rune, []int) {
	runes := make([]rune, 0, len(b))
	offs := make([]int, 0, len(b)+1)
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			runes = append(runes, rune(c))
			offs = append(offs, i)
			i++
			continue
		}
		r, w := utf8.DecodeRune(b[i:])
		runes = append(runes, r)
		offs = append(offs, i)
		i += w
	}
	return runes, append(offs, len(b))
}

func (re *Regexp) btFind(b []byte, subs bool) []int {
	runes, offs := decodeRunes(b)
	m := re.btMatchAt(runes, 0)
	if m == nil {
		return nil
	}
	if !subs {
		return []int{offs[m.Index], offs[m.Index+m.Length]}
	}
	return re.btIndices(m, offs)
}

// btMatchAt finds the first match at or after rune pos, preferring a
// non-empty match where the first one found is empty.
func (re *Regexp) btMatchAt(runes []rune, pos int) *regexp2.Match {
	m, err := re.bt.FindRunesMatchStartingAt(runes, pos)
	if err == nil && m != nil && m.Length == 0 {
		var ne *regexp2.Match
		if ne, err = re.btNonEmpty.FindRunesMatchStartingAt(runes, m.Index); ne != nil {
			m = ne
		}
	}
	if err != nil {
		re.setErr(err)
		return nil
	}
	return m
}

func (re *Regexp) btFindAll(b []byte, n int) [][]int {
	runes, offs := decodeRunes(b)
	var out [][]int
	prevEnd := -1
	for pos := 0; pos <= len(runes) && (n < 0 || len(out) < n); {
		m := re.btMatchAt(runes, pos)
		if m == nil {
			break
		}
		s, e := m.Index, m.Index+m.Length
		if s != e || s != prevEnd {
			out = append(out, re.btIndices(m, offs))
		}
		prevEnd = e
		pos = e
		if s == e {
			pos++
		}
	}
	return out
}

func (re *Regexp) btIndices(m *regexp2.Match, offs []int) []int {
	out := make([]int, 2*(re.nsub+1))
	for i := 0; i <= re.nsub; i++ {
		g := m.GroupByNumber(i)
		if g == nil || len(g.Captures) == 0 {
			out[2*i], out[2*i+1] = -1, -1
			continue
		}
		out[2*i], out[2*i+1] = offs[g.Index], offs[g.Index+g.Length]
	}
	return out
}
