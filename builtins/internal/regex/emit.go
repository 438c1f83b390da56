package regex

import (
	"fmt"
	"strings"
)

// dialect is the syntax of the engine an expression is printed for.
type dialect uint8

const (
	dialectGo  dialect = iota // Go's regexp (RE2): linear time
	dialectNet                // regexp2 (.NET): back-references, lookaround
)

// emitter prints a syntax tree for one engine.
type emitter struct {
	strings.Builder
	d dialect
	// lines: the subject is a buffer of lines; nothing may match '\n' and
	// every anchor works per line (grep).
	lines bool
	// multiline: ^ and $ also match at '\n', and . and [^...] do not
	// match it (sed's M flag, REG_NEWLINE).
	multiline bool
}

const wordSet = `[0-9A-Za-z_]`

func (e *emitter) prefix(ignoreCase bool) {
	if ignoreCase {
		e.WriteString("(?i)")
	}
	if e.lines || e.multiline {
		e.WriteString("(?m)")
	}
}

func (e *emitter) emit(n *node) {
	switch n.op {
	case opLit:
		e.lit(n.r, n.raw)
	case opAny:
		if e.lines || e.multiline {
			e.WriteString(`[^\n]`)
		} else {
			e.WriteString(`(?s:.)`)
		}
	case opClass:
		e.class(n.cls)
	case opCapture:
		e.WriteByte('(')
		e.emit(n.sub[0])
		e.WriteByte(')')
	case opConcat:
		for _, s := range n.sub {
			e.emit(s)
		}
	case opAlt:
		e.WriteString("(?:")
		for i, s := range n.sub {
			if i > 0 {
				e.WriteByte('|')
			}
			e.emit(s)
		}
		e.WriteByte(')')
	case opRepeat:
		e.repeat(n)
	case opBOL:
		e.WriteByte('^')
	case opEOL:
		if e.d == dialectNet && !e.lines && !e.multiline {
			e.WriteString(`\z`) // .NET's $ also matches before a final \n
		} else {
			e.WriteByte('$')
		}
	case opBOT:
		if e.lines {
			e.WriteByte('^')
		} else {
			e.WriteString(`\A`)
		}
	case opEOT:
		if e.lines {
			e.WriteByte('$')
		} else {
			e.WriteString(`\z`)
		}
	case opWordB:
		e.assert(`\b`, `(?:(?<=`+wordSet+`)(?!`+wordSet+`)|(?<!`+wordSet+`)(?=`+wordSet+`))`)
	case opNotWordB:
		e.assert(`\B`, `(?:(?<=`+wordSet+`)(?=`+wordSet+`)|(?<!`+wordSet+`)(?!`+wordSet+`))`)
	case opWordStart:
		// Only reached for Go when the next thing is surely a word
		// character (see wordAssertionsEasy), where \< is \b.
		e.assert(`\b`, `(?<!`+wordSet+`)(?=`+wordSet+`)`)
	case opWordEnd:
		e.assert(`\b`, `(?<=`+wordSet+`)(?!`+wordSet+`)`)
	case opNotAfterWord:
		e.WriteString(`(?<!` + wordSet + `)`)
	case opNotBeforeWord:
		e.WriteString(`(?!` + wordSet + `)`)
	case opBackref:
		fmt.Fprintf(e, `(?:\%d)`, n.cap)
	case opEmpty:
		e.WriteString(`(?:)`)
	}
}

func (e *emitter) assert(goForm, netForm string) {
	if e.d == dialectGo {
		e.WriteString(goForm)
	} else {
		e.WriteString(netForm)
	}
}

func (e *emitter) repeat(n *node) {
	sub := n.sub[0]
	switch sub.op {
	case opLit, opAny, opClass, opCapture:
		e.emit(sub)
	default:
		// Wrapping also makes stacked operators (a**, a+?) mean what
		// POSIX says instead of Go's "lazy" or a syntax error.
		e.WriteString("(?:")
		e.emit(sub)
		e.WriteByte(')')
	}
	switch {
	case n.min == 0 && n.max == -1:
		e.WriteByte('*')
	case n.min == 1 && n.max == -1:
		e.WriteByte('+')
	case n.min == 0 && n.max == 1:
		e.WriteByte('?')
	case n.max == -1:
		fmt.Fprintf(e, "{%d,}", n.min)
	case n.min == n.max:
		fmt.Fprintf(e, "{%d}", n.min)
	default:
		fmt.Fprintf(e, "{%d,%d}", n.min, n.max)
	}
	if e.d == dialectGo && n.min >= 1 && n.max > n.min && hasCapture(sub) && canBeEmpty(sub) {
		// Leftmost-longest ignores laziness except to break ties, where
		// it makes Go skip an extra iteration that would match nothing
		// and reset a group, as glibc does: (a*){1,2} on "a" leaves
		// \1 = "a". (Before any iteration, glibc prefers to take one:
		// \(a*\)\?a\? on "a" sets \1 = "a", so ? stays greedy.)
		e.WriteByte('?')
	}
}

// canBeEmpty reports whether n can match the empty string.
func canBeEmpty(n *node) bool {
	switch n.op {
	case opLit, opAny, opClass:
		return false
	case opCapture:
		return canBeEmpty(n.sub[0])
	case opRepeat:
		return n.min == 0 || canBeEmpty(n.sub[0])
	case opConcat:
		for _, s := range n.sub {
			if !canBeEmpty(s) {
				return false
			}
		}
		return true
	case opAlt:
		for _, s := range n.sub {
			if canBeEmpty(s) {
				return true
			}
		}
		return false
	}
	return true
}

func hasCapture(n *node) bool {
	if n.op == opCapture {
		return true
	}
	for _, s := range n.sub {
		if hasCapture(s) {
			return true
		}
	}
	return false
}

func (e *emitter) lit(r rune, raw bool) {
	switch {
	case raw:
		// A byte that is not UTF-8 reaches the engines as U+FFFD.
		if e.d == dialectGo {
			e.WriteString(`\x{FFFD}`)
		} else {
			e.WriteString(`\uFFFD`)
		}
	case r < 0x80 && isAlnum(byte(r)):
		e.WriteByte(byte(r))
	case r < 0x80:
		fmt.Fprintf(e, `\x%02X`, r)
	default:
		e.WriteRune(r)
	}
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func (e *emitter) class(c *charClass) {
	if e.lines || e.multiline && c.neg && !c.escape {
		cc := &charClass{neg: c.neg, ranges: append([]rune(nil), c.ranges...)}
		if c.neg {
			cc.add('\n', '\n')
		} else {
			cc.remove('\n')
		}
		c = cc
	}
	if len(c.ranges) == 0 {
		switch {
		case c.neg:
			e.WriteString(`(?s:.)`)
		case e.d == dialectGo:
			e.WriteString(`[^\x00-\x{10FFFF}]`)
		default:
			e.WriteString(`(?!)`)
		}
		return
	}
	e.WriteByte('[')
	if c.neg {
		e.WriteByte('^')
	}
	for i := 0; i < len(c.ranges); i += 2 {
		lo, hi := c.ranges[i], c.ranges[i+1]
		e.lit(lo, false)
		if hi > lo {
			e.WriteByte('-')
			e.lit(hi, false)
		}
	}
	e.WriteByte(']')
}

// needsBacktracking reports whether n uses something Go's regexp cannot
// express: back-references, or \< \> where they are not plain \b.
func needsBacktracking(n *node) bool {
	switch n.op {
	case opBackref, opNotAfterWord, opNotBeforeWord:
		return true
	case opWordStart, opWordEnd:
		return true // unless a concat proved otherwise, below
	case opConcat:
		for i, s := range n.sub {
			switch {
			case s.op == opWordStart && i+1 < len(n.sub) && startsWord(n.sub[i+1]):
			case s.op == opWordEnd && i > 0 && endsWord(n.sub[i-1]):
			default:
				if needsBacktracking(s) {
					return true
				}
			}
		}
		return false
	}
	for _, s := range n.sub {
		if needsBacktracking(s) {
			return true
		}
	}
	return false
}

// startsWord reports whether every match of n begins with a word character.
func startsWord(n *node) bool {
	return edgeWord(n, true)
}

// endsWord reports whether every match of n ends with a word character.
func endsWord(n *node) bool {
	return edgeWord(n, false)
}

func edgeWord(n *node, first bool) bool {
	switch n.op {
	case opLit:
		return !n.raw && n.r < 0x80 && (isAlnum(byte(n.r)) || n.r == '_')
	case opClass:
		return n.cls.onlyWord()
	case opCapture:
		return edgeWord(n.sub[0], first)
	case opRepeat:
		return n.min >= 1 && edgeWord(n.sub[0], first)
	case opConcat:
		if first {
			return edgeWord(n.sub[0], first)
		}
		return edgeWord(n.sub[len(n.sub)-1], first)
	case opAlt:
		for _, s := range n.sub {
			if !edgeWord(s, first) {
				return false
			}
		}
		return true
	}
	return false
}
