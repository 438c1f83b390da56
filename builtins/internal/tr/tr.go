// Package tr implements the character-set language and byte translation
// of GNU tr in the C locale: escapes, ranges, [:class:], [=c=], [c*n],
// complement, deletion, squeezing and truncation.
package tr

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Options are tr's flags.
type Options struct {
	Complement, Delete, Squeeze, Truncate bool
}

// Warner receives non-fatal diagnostics (GNU prints them and goes on).
type Warner func(msg string)

type elemKind int

const (
	eChar elemKind = iota
	eRange
	eClass
	eEquiv
	eRepeat
)

// elem is one construct of a parsed set.
type elem struct {
	kind   elemKind
	lo, hi byte
	class  string
	count  int // eRepeat: 0 means "fill" ([c*] or [c*0])
}

// set is a parsed SET operand.
type set struct {
	elems []elem
}

var classes = map[string]func(byte) bool{
	"alnum":  func(c byte) bool { return isAlpha(c) || isDigit(c) },
	"alpha":  isAlpha,
	"blank":  func(c byte) bool { return c == ' ' || c == '\t' },
	"cntrl":  func(c byte) bool { return c < 0x20 || c == 0x7f },
	"digit":  isDigit,
	"graph":  func(c byte) bool { return c > 0x20 && c < 0x7f },
	"lower":  func(c byte) bool { return c >= 'a' && c <= 'z' },
	"print":  func(c byte) bool { return c >= 0x20 && c < 0x7f },
	"punct":  func(c byte) bool { return c > 0x20 && c < 0x7f && !isAlpha(c) && !isDigit(c) },
	"space":  func(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') },
	"upper":  func(c byte) bool { return c >= 'A' && c <= 'Z' },
	"xdigit": func(c byte) bool { return isDigit(c) || (c|0x20) >= 'a' && (c|0x20) <= 'f' },
}

func isAlpha(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// unescape decodes backslash escapes, remembering which bytes came from
// an escape so they lose any special meaning.
func unescape(s string, warn Warner) ([]byte, []bool) {
	var out []byte
	var esc []bool
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			out, esc = append(out, c), append(esc, false)
			continue
		}
		if i+1 >= len(s) {
			warn("warning: an unescaped backslash at end of string is not portable")
			out, esc = append(out, '\\'), append(esc, true)
			continue
		}
		i++
		c = s[i]
		switch c {
		case 'a':
			c = '\a'
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		case 'v':
			c = '\v'
		case '0', '1', '2', '3', '4', '5', '6', '7':
			start := i
			v := int(c - '0')
			for i-start < 2 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7' {
				nv := v*8 + int(s[i+1]-'0')
				if nv > 0377 {
					d := s[start : start+3]
					warn(fmt.Sprintf("warning: the ambiguous octal escape \\%c%c%c is being\n"+
						"\tinterpreted as the 2-byte sequence \\0%c%c, %c", d[0], d[1], d[2], d[0], d[1], d[2]))
					break
				}
				v = nv
				i++
			}
			c = byte(v)
		}
		out, esc = append(out, c), append(esc, true)
	}
	return out, esc
}

// parse turns a SET operand into constructs.
func parse(arg string, warn Warner) (*set, error) {
	s, esc := unescape(arg, warn)
	plain := func(i int, c byte) bool { return i < len(s) && s[i] == c && !esc[i] }
	st := &set{}
	for i := 0; i < len(s); {
		if plain(i, '[') && i+1 < len(s) {
			if (s[i+1] == ':' || s[i+1] == '=') && !esc[i+1] {
				if e, next, ok, err := parseBracketClass(s, esc, i); err != nil {
					return nil, err
				} else if ok {
					st.elems = append(st.elems, e)
					i = next
					continue
				}
			}
			e, next, ok, err := parseRepeat(s, esc, i)
			if err != nil {
				return nil, err
			}
			if ok {
				st.elems = append(st.elems, e)
				i = next
				continue
			}
		}
		if plain(i+1, '-') && i+2 < len(s) {
			if s[i+2] < s[i] {
				return nil, fmt.Errorf("range-endpoints of '%s-%s' are in reverse collating sequence order",
					printable(s[i]), printable(s[i+2]))
			}
			st.elems = append(st.elems, elem{kind: eRange, lo: s[i], hi: s[i+2]})
			i += 3
			continue
		}
		st.elems = append(st.elems, elem{kind: eChar, lo: s[i]})
		i++
	}
	return st, nil
}

// parseBracketClass handles [:name:] and [=c=] starting at s[i]=='['.
func parseBracketClass(s []byte, esc []bool, i int) (elem, int, bool, error) {
	delim := s[i+1]
	for j := i + 2; j+1 < len(s); j++ {
		if s[j] == delim && s[j+1] == ']' && !esc[j] && !esc[j+1] {
			body := string(s[i+2 : j])
			if body == "" {
				if delim == ':' {
					return elem{}, 0, false, errors.New("missing character class name '[::]'")
				}
				return elem{}, 0, false, errors.New("missing equivalence class character '[==]'")
			}
			if delim == ':' {
				if _, ok := classes[body]; ok {
					return elem{kind: eClass, class: body}, j + 2, true, nil
				}
				if starDigitsBracket(s, esc, i+2) {
					return elem{}, 0, false, nil
				}
				return elem{}, 0, false, fmt.Errorf("invalid character class '%s'", body)
			}
			if len(body) == 1 {
				return elem{kind: eEquiv, lo: body[0]}, j + 2, true, nil
			}
			if starDigitsBracket(s, esc, i+2) {
				return elem{}, 0, false, nil
			}
			return elem{}, 0, false, fmt.Errorf("%s: equivalence class operand must be a single character", body)
		}
	}
	return elem{}, 0, false, nil
}

// starDigitsBracket reports whether s[i:] looks like "*digits]", so that
// "[:*3]" is a repeat of ':' rather than a bad class.
func starDigitsBracket(s []byte, esc []bool, i int) bool {
	if i >= len(s) || s[i] != '*' || esc[i] {
		return false
	}
	i++
	for i < len(s) && isDigit(s[i]) && !esc[i] {
		i++
	}
	return i < len(s) && s[i] == ']' && !esc[i]
}

// parseRepeat handles [c*n] and [c*] starting at s[i]=='['.
func parseRepeat(s []byte, esc []bool, i int) (elem, int, bool, error) {
	c := i + 1
	if c+1 >= len(s) || s[c+1] != '*' || esc[c+1] {
		return elem{}, 0, false, nil
	}
	for j := c + 2; j < len(s); j++ {
		if s[j] != ']' || esc[j] {
			continue
		}
		digits := string(s[c+2 : j])
		n := 0
		if digits != "" {
			base := 10
			if digits[0] == '0' {
				base = 8
			}
			v, err := strconv.ParseUint(digits, base, 31)
			if err != nil {
				return elem{}, 0, false, fmt.Errorf("invalid repeat count '%s' in [c*n] construct", digits)
			}
			n = int(v)
		}
		return elem{kind: eRepeat, lo: s[c], count: n}, j + 1, true, nil
	}
	return elem{}, 0, false, nil
}

func printable(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return string(c)
	}
	return fmt.Sprintf("\\%03o", c)
}

// expanded is a set flattened into its byte sequence, with the positions
// where upper/lower class constructs begin.
type expanded struct {
	chars     []byte
	caseStart map[int]bool
	lastClass bool
	hasClass  bool
	hasEquiv  bool
	fills     int
	restrict  bool // has a class other than upper/lower
}

// expand flattens st; fill is the length a [c*] construct takes.
func (st *set) expand(fill int) *expanded {
	x := &expanded{caseStart: map[int]bool{}}
	for i, e := range st.elems {
		switch e.kind {
		case eChar, eEquiv:
			x.chars = append(x.chars, e.lo)
			x.hasEquiv = x.hasEquiv || e.kind == eEquiv
		case eRange:
			for c := int(e.lo); c <= int(e.hi); c++ {
				x.chars = append(x.chars, byte(c))
			}
		case eClass:
			x.hasClass = true
			if e.class == "upper" || e.class == "lower" {
				x.caseStart[len(x.chars)] = true
			} else {
				x.restrict = true
			}
			in := classes[e.class]
			for c := 0; c < 256; c++ {
				if in(byte(c)) {
					x.chars = append(x.chars, byte(c))
				}
			}
		case eRepeat:
			n := e.count
			if n == 0 {
				x.fills++
				n = fill
			}
			for k := 0; k < n; k++ {
				x.chars = append(x.chars, e.lo)
			}
		}
		x.lastClass = i == len(st.elems)-1 && e.kind == eClass
	}
	return x
}

// fixedLen is the length of st not counting [c*] fills.
func (st *set) fixedLen() int {
	return len(st.expand(0).chars)
}

// Translator is a compiled tr invocation.
type Translator struct {
	opts    Options
	xlate   [256]byte
	del     [256]bool
	squeeze [256]bool
}

// New compiles the sets. set2 is nil when only one operand was given.
func New(opts Options, set1 string, set2 *string, warn Warner) (*Translator, error) {
	s1, err := parse(set1, warn)
	if err != nil {
		return nil, err
	}
	var s2 *set
	if set2 != nil {
		if s2, err = parse(*set2, warn); err != nil {
			return nil, err
		}
	}
	for _, e := range s1.elems {
		if e.kind == eRepeat && e.count == 0 {
			return nil, errors.New("the [c*] repeat construct may not appear in string1")
		}
	}
	x1 := s1.expand(0)
	var in1 [256]bool
	for _, c := range x1.chars {
		in1[c] = true
	}
	chars1 := x1.chars
	if opts.Complement {
		chars1 = nil
		for c := 0; c < 256; c++ {
			if !in1[c] {
				chars1 = append(chars1, byte(c))
			}
		}
	}
	t := &Translator{opts: opts}
	for i := range t.xlate {
		t.xlate[i] = byte(i)
	}
	translating := s2 != nil && !opts.Delete
	var x2 *expanded
	if s2 != nil {
		x2 = s2.expand(max(0, len(chars1)-s2.fixedLen()))
		if x2.fills > 1 {
			return nil, errors.New("only one [c*] repeat construct may appear in string2")
		}
		if !translating && x2.fills > 0 {
			return nil, errors.New("the [c*] construct may appear in string2 only when translating")
		}
	}
	if translating {
		if err := t.compile(opts, x1, x2, chars1); err != nil {
			return nil, err
		}
	}
	switch {
	case opts.Delete:
		for _, c := range chars1 {
			t.del[c] = true
		}
		if opts.Squeeze && x2 != nil {
			for _, c := range x2.chars {
				t.squeeze[c] = true
			}
		}
	case translating:
		if opts.Squeeze {
			for _, c := range x2.chars {
				t.squeeze[c] = true
			}
		}
	case opts.Squeeze:
		for _, c := range chars1 {
			t.squeeze[c] = true
		}
	}
	return t, nil
}

// compile builds the translation table, with GNU's validation of string2.
func (t *Translator) compile(opts Options, x1, x2 *expanded, chars1 []byte) error {
	if x2.hasEquiv {
		return errors.New("[=c=] expressions may not appear in string2 when translating")
	}
	if x2.restrict {
		return errors.New("when translating, the only character classes that may appear in\n" +
			"string2 are 'upper' and 'lower'")
	}
	if !opts.Complement {
		for pos := range x2.caseStart {
			if !x1.caseStart[pos] {
				return errors.New("misaligned [:upper:] and/or [:lower:] construct")
			}
		}
	}
	chars2 := x2.chars
	if len(chars1) > len(chars2) && !opts.Truncate {
		if len(chars2) == 0 {
			return errors.New("when not truncating set1, string2 must be non-empty")
		}
		if x2.lastClass {
			return errors.New("when translating with string1 longer than string2,\n" +
				"the latter string must not end with a character class")
		}
	}
	if opts.Complement && x1.hasClass {
		extended := len(chars2)
		if !opts.Truncate && len(chars1) > extended {
			extended = len(chars1)
		}
		homogeneous := true
		for _, c := range chars2 {
			homogeneous = homogeneous && c == chars2[0]
		}
		if extended != len(chars1) || !homogeneous {
			return errors.New("when translating with complemented character classes,\n" +
				"string2 must map all characters in the domain to one")
		}
	}
	if opts.Truncate && len(chars1) > len(chars2) {
		chars1 = chars1[:len(chars2)]
	}
	for i, c := range chars1 {
		to := chars2[len(chars2)-1]
		if i < len(chars2) {
			to = chars2[i]
		}
		t.xlate[c] = to
	}
	return nil
}

// Run filters r to w.
func (t *Translator) Run(ctx context.Context, r io.Reader, w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	buf := make([]byte, 64<<10)
	plain := true // translation only: rewrite bytes in place
	for c := range 256 {
		plain = plain && !t.del[c] && !t.squeeze[c]
	}
	last := -1 // last byte written, for squeezing
	for {
		n, err := r.Read(buf)
		out := buf[:n]
		if plain {
			for i, c := range out {
				out[i] = t.xlate[c]
			}
		} else {
			out = t.filter(out, &last)
		}
		if _, werr := bw.Write(out); werr != nil {
			return werr
		}
		if err == io.EOF {
			return bw.Flush()
		}
		if err != nil {
			bw.Flush()
			return &ReadError{err}
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
}

// filter deletes, translates and squeezes b in place.
func (t *Translator) filter(b []byte, last *int) []byte {
	k := 0
	for _, c := range b {
		if t.del[c] {
			continue
		}
		c = t.xlate[c]
		if t.squeeze[c] && int(c) == *last {
			continue
		}
		*last = int(c)
		b[k] = c
		k++
	}
	return b[:k]
}

// ReadError wraps a failure reading the input.
type ReadError struct{ Err error }

func (e *ReadError) Error() string { return e.Err.Error() }
func (e *ReadError) Unwrap() error { return e.Err }
