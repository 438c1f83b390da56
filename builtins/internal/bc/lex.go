package bc

import (
	"bufio"
	"io"
	"strings"
)

type tokKind int

const (
	tEOF tokKind = iota
	tNewline
	tNum
	tName
	tString
	tOp      // punctuation and operators
	tKeyword // reserved words
	tBad     // a character bc does not know
)

type token struct {
	kind tokKind
	text string
	line int // line number after the token was read, as GNU reports it
}

func isKeyword(s string) bool {
	switch s {
	case "if", "else", "while", "for", "break", "continue", "return", "define", "auto", "quit",
		"halt", "print", "read", "length", "sqrt", "scale", "ibase", "obase", "last", "limits", "warranty":
		return true
	}
	return false
}

// lexer turns bc source into tokens, reading its input a line at a time.
type lexer struct {
	r    *bufio.Reader
	buf  []byte // rest of the current input
	eof  bool
	line int
}

func newLexer(r *bufio.Reader) *lexer { return &lexer{r: r, line: 1} }

// fill makes sure at least n bytes are buffered, if the input has them.
func (l *lexer) fill(n int) bool {
	for len(l.buf) < n && !l.eof {
		s, err := l.r.ReadString('\n')
		l.buf = append(l.buf, s...)
		if err != nil {
			l.eof = true
		}
	}
	return len(l.buf) >= n
}

func (l *lexer) peekc(i int) byte {
	if !l.fill(i + 1) {
		return 0
	}
	return l.buf[i]
}

func (l *lexer) advance(n int) { l.buf = l.buf[n:] }

// next returns the next token; comments, blanks and backslash-newline
// are skipped.
func (l *lexer) next() token {
	for {
		c := l.peekc(0)
		switch {
		case !l.fill(1):
			return token{kind: tEOF, line: l.line}
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			l.advance(1)
		case c == '\\' && l.peekc(1) == '\n':
			l.advance(2)
			l.line++
		case c == '#':
			for l.fill(1) && l.buf[0] != '\n' {
				l.advance(1)
			}
		case c == '/' && l.peekc(1) == '*':
			l.advance(2)
			for l.fill(1) {
				if l.buf[0] == '*' && l.peekc(1) == '/' {
					l.advance(2)
					break
				}
				if l.buf[0] == '\n' {
					l.line++
				}
				l.advance(1)
			}
		case c == '\n':
			l.advance(1)
			l.line++
			return token{kind: tNewline, text: "\n", line: l.line}
		case c == '"':
			return l.str()
		case c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c == '.' && isNumChar(l.peekc(1)):
			return l.number()
		case c >= 'a' && c <= 'z':
			var b strings.Builder
			for l.fill(1) {
				c := l.buf[0]
				if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
					break
				}
				b.WriteByte(c)
				l.advance(1)
			}
			name := b.String()
			if isKeyword(name) {
				return token{kind: tKeyword, text: name, line: l.line}
			}
			return token{kind: tName, text: name, line: l.line}
		default:
			return l.op()
		}
	}
}

func isNumChar(c byte) bool { return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' }

// number reads digits[.digits], allowing backslash-newline inside.
func (l *lexer) number() token {
	var b strings.Builder
	dot := false
	for l.fill(1) {
		c := l.buf[0]
		switch {
		case isNumChar(c):
			b.WriteByte(c)
			l.advance(1)
		case c == '.' && !dot:
			dot = true
			b.WriteByte(c)
			l.advance(1)
		case c == '\\' && l.peekc(1) == '\n':
			l.advance(2)
			l.line++
		default:
			return token{kind: tNum, text: b.String(), line: l.line}
		}
	}
	return token{kind: tNum, text: b.String(), line: l.line}
}

// str reads a "..." string, which may span lines.
func (l *lexer) str() token {
	l.advance(1)
	var b strings.Builder
	for {
		if !l.fill(1) {
			return token{kind: tBad, text: "\"", line: l.line}
		}
		c := l.buf[0]
		l.advance(1)
		if c == '"' {
			return token{kind: tString, text: b.String(), line: l.line}
		}
		if c == '\n' {
			l.line++
		}
		b.WriteByte(c)
	}
}

func (l *lexer) op() token {
	two := []string{"++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "==", "<=", ">=", "!=", "&&", "||"}
	if l.fill(2) {
		s := string(l.buf[:2])
		for _, t := range two {
			if s == t {
				l.advance(2)
				return token{kind: tOp, text: s, line: l.line}
			}
		}
	}
	c := l.buf[0]
	l.advance(1)
	if strings.IndexByte("+-*/%^=<>!()[]{},;.", c) >= 0 {
		return token{kind: tOp, text: string(c), line: l.line}
	}
	return token{kind: tBad, text: string(c), line: l.line}
}

// readLine takes the next input line for read(), counting it as program
// input consumed.
func (l *lexer) readLine() (string, error) {
	l.fill(1)
	if len(l.buf) == 0 {
		return "", io.EOF
	}
	i := strings.IndexByte(string(l.buf), '\n')
	if i < 0 {
		s := string(l.buf)
		l.buf = nil
		return s, nil
	}
	s := string(l.buf[:i])
	l.buf = l.buf[i+1:]
	l.line++
	return s, nil
}
