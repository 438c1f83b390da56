package awk

import (
	"fmt"
	"strconv"
	"strings"
)

// token is the kind of a lexical token.
type token int

const (
	tEOF token = iota
	tNewline
	tLbrace
	tRbrace
	tLparen
	tRparen
	tLbracket
	tRbracket
	tSemicolon
	tComma

	tAdd
	tSub
	tMul
	tDiv
	tMod
	tPow
	tAssign
	tAddAssign
	tSubAssign
	tMulAssign
	tDivAssign
	tModAssign
	tPowAssign
	tEquals
	tNotEquals
	tLess
	tLessEq
	tGreater
	tGreaterEq
	tAppend
	tMatch
	tNotMatch
	tNot
	tAnd
	tOr
	tQuestion
	tColon
	tIncr
	tDecr
	tDollar
	tPipe

	tName
	tFuncName // a name immediately followed by '(': a user function call
	tNumber
	tString
	tRegex
	tBuiltin

	tBegin
	tEnd
	tBeginfile
	tEndfile
	tFunction
	tIf
	tElse
	tWhile
	tFor
	tDo
	tBreak
	tContinue
	tNext
	tNextfile
	tExit
	tReturn
	tDelete
	tIn
	tGetline
	tPrint
	tPrintf
	tSwitch
	tCase
	tDefault
)

var tokenText = map[token]string{
	tEOF: "end of file", tNewline: "newline", tLbrace: "{", tRbrace: "}",
	tLparen: "(", tRparen: ")", tLbracket: "[", tRbracket: "]", tSemicolon: ";",
	tComma: ",", tAdd: "+", tSub: "-", tMul: "*", tDiv: "/", tMod: "%", tPow: "^",
	tAssign: "=", tAddAssign: "+=", tSubAssign: "-=", tMulAssign: "*=",
	tDivAssign: "/=", tModAssign: "%=", tPowAssign: "^=", tEquals: "==",
	tNotEquals: "!=", tLess: "<", tLessEq: "<=", tGreater: ">", tGreaterEq: ">=",
	tAppend: ">>", tMatch: "~", tNotMatch: "!~", tNot: "!", tAnd: "&&", tOr: "||",
	tQuestion: "?", tColon: ":", tIncr: "++", tDecr: "--", tDollar: "$", tPipe: "|",
}

var keywords = map[string]token{
	"BEGIN": tBegin, "END": tEnd, "BEGINFILE": tBeginfile, "ENDFILE": tEndfile,
	"function": tFunction, "func": tFunction, "if": tIf, "else": tElse,
	"while": tWhile, "for": tFor, "do": tDo, "break": tBreak,
	"continue": tContinue, "next": tNext, "nextfile": tNextfile, "exit": tExit,
	"return": tReturn, "delete": tDelete, "in": tIn, "getline": tGetline,
	"print": tPrint, "printf": tPrintf, "switch": tSwitch, "case": tCase,
	"default": tDefault,
}

// builtinNames are the built-in functions; the token value carries the name.
var builtinNames = map[string]bool{
	"length": true, "substr": true, "index": true, "split": true, "sub": true,
	"gsub": true, "match": true, "sprintf": true, "sin": true, "cos": true,
	"atan2": true, "exp": true, "log": true, "sqrt": true, "int": true,
	"rand": true, "srand": true, "tolower": true, "toupper": true,
	"close": true, "fflush": true, "system": true, "gensub": true,
	"systime": true, "strftime": true, "mktime": true, "asort": true,
	"asorti": true, "and": true, "or": true, "xor": true, "lshift": true,
	"rshift": true, "compl": true, "strtonum": true, "isarray": true,
	"typeof": true,
}

// lexToken is one token with its text and position.
type lexToken struct {
	tok  token
	val  string // name, string value, regex source or number text
	num  float64
	line int
	col  int
}

// SyntaxError is a parse error at a position of the program text.
type SyntaxError struct {
	Src  string // "cmd. line" or a -f file name
	Line int
	Col  int
	Msg  string
	Text string // the offending source line, when known
	// NoCaret marks an error gawk reports on one line as "error: msg"
	// rather than by quoting the source line with a caret under the
	// offending token.
	NoCaret bool
}

func (e *SyntaxError) Error() string {
	if e.NoCaret {
		return fmt.Sprintf("%s:%d: error: %s", e.Src, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.Src, e.Line, e.Msg)
}

// ErrorList is what Parse returns when it found several errors: like
// gawk, it goes on parsing after errors that do not confuse the parser
// (break outside a loop, division by a constant zero, ...) and reports
// them all, in order.
type ErrorList []*SyntaxError

func (l ErrorList) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// Unwrap gives errors.As access to the individual errors.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// lexer turns program text into tokens. Whether '/' starts a regex depends
// only on the previous token, so the whole program is lexed up front and
// the parser gets free lookahead.
type lexer struct {
	src      string
	pos      int
	line     int
	last     token
	name     string
	warnings []string
	warned   [256]bool
}

func lex(src, name string) ([]lexToken, error) {
	toks, _, err := lexWarn(src, name)
	return toks, err
}

// lexWarn also returns warnings about dubious escape sequences.
func lexWarn(src, name string) ([]lexToken, []string, error) {
	lx := &lexer{src: src, line: 1, last: tNewline, name: name}
	var toks []lexToken
	for {
		t, err := lx.next()
		if err != nil {
			return nil, nil, err
		}
		toks = append(toks, t)
		lx.last = t.tok
		if t.tok == tEOF {
			return toks, lx.warnings, nil
		}
	}
}

func (lx *lexer) errorf(format string, a ...any) error {
	return lx.errorAt(lx.pos, format, a...)
}

// errorAt reports an error with the caret under byte offset off, where
// gawk puts it.
func (lx *lexer) errorAt(off int, format string, a ...any) error {
	return &SyntaxError{Src: lx.name, Line: lx.line, Col: lx.column(off), Msg: fmt.Sprintf(format, a...)}
}

// column returns the column (from 0) of byte offset off in its line.
func (lx *lexer) column(off int) int {
	off = min(off, len(lx.src))
	return off - (strings.LastIndexByte(lx.src[:off], '\n') + 1)
}

func (lx *lexer) peekByte(off int) byte {
	if lx.pos+off < len(lx.src) {
		return lx.src[lx.pos+off]
	}
	return 0
}

// skipSpace skips blanks, comments and backslash-newline continuations.
func (lx *lexer) skipSpace() {
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			lx.pos++
		case c == '\\' && lx.peekByte(1) == '\n':
			lx.pos += 2
			lx.line++
		case c == '\\' && lx.peekByte(1) == '\r' && lx.peekByte(2) == '\n':
			lx.pos += 3
			lx.line++
		case c == '#':
			for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' {
				lx.pos++
			}
		default:
			return
		}
	}
}

// regexAllowed reports whether a '/' here starts a regex rather than
// being the division operator.
func (lx *lexer) regexAllowed() bool {
	switch lx.last {
	case tName, tNumber, tString, tRegex, tRparen, tRbracket, tDollar,
		tIncr, tDecr, tBuiltin, tFuncName:
		return false
	}
	return true
}

func (lx *lexer) next() (lexToken, error) {
	lx.skipSpace()
	t := lexToken{line: lx.line, col: lx.column(lx.pos)}
	if lx.pos >= len(lx.src) {
		t.tok = tEOF
		return t, nil
	}
	c := lx.src[lx.pos]
	lx.pos++
	two := func(next byte, yes, no token) token {
		if lx.pos < len(lx.src) && lx.src[lx.pos] == next {
			lx.pos++
			return yes
		}
		return no
	}
	switch {
	case c == '\n':
		lx.line++
		t.tok = tNewline
	case isLetter(c):
		start := lx.pos - 1
		for lx.pos < len(lx.src) && (isLetter(lx.src[lx.pos]) || isDigit(lx.src[lx.pos])) {
			lx.pos++
		}
		word := lx.src[start:lx.pos]
		t.val = word
		if kw, ok := keywords[word]; ok {
			t.tok = kw
		} else if builtinNames[word] {
			t.tok = tBuiltin
		} else if lx.pos < len(lx.src) && lx.src[lx.pos] == '(' {
			t.tok = tFuncName
		} else {
			t.tok = tName
		}
	case isDigit(c) || (c == '.' && isDigit(lx.peekByte(0))):
		return lx.number(t)
	case c == '"':
		s, err := lx.str()
		if err != nil {
			return t, err
		}
		t.tok, t.val = tString, s
	case c == '/' && lx.regexAllowed():
		s, err := lx.regex()
		if err != nil {
			return t, err
		}
		t.tok, t.val = tRegex, s
	default:
		switch c {
		case '{':
			t.tok = tLbrace
		case '}':
			t.tok = tRbrace
		case '(':
			t.tok = tLparen
		case ')':
			t.tok = tRparen
		case '[':
			t.tok = tLbracket
		case ']':
			t.tok = tRbracket
		case ';':
			t.tok = tSemicolon
		case ',':
			t.tok = tComma
		case '+':
			t.tok = two('+', tIncr, tAdd)
			if t.tok == tAdd {
				t.tok = two('=', tAddAssign, tAdd)
			}
		case '-':
			t.tok = two('-', tDecr, tSub)
			if t.tok == tSub {
				t.tok = two('=', tSubAssign, tSub)
			}
		case '*':
			if lx.peekByte(0) == '*' {
				lx.pos++
				t.tok = two('=', tPowAssign, tPow)
			} else {
				t.tok = two('=', tMulAssign, tMul)
			}
		case '/':
			t.tok = two('=', tDivAssign, tDiv)
		case '%':
			t.tok = two('=', tModAssign, tMod)
		case '^':
			t.tok = two('=', tPowAssign, tPow)
		case '=':
			t.tok = two('=', tEquals, tAssign)
		case '!':
			if lx.peekByte(0) == '=' {
				lx.pos++
				t.tok = tNotEquals
			} else {
				t.tok = two('~', tNotMatch, tNot)
			}
		case '<':
			t.tok = two('=', tLessEq, tLess)
		case '>':
			if lx.peekByte(0) == '>' {
				lx.pos++
				t.tok = tAppend
			} else {
				t.tok = two('=', tGreaterEq, tGreater)
			}
		case '~':
			t.tok = tMatch
		case '&':
			if lx.peekByte(0) != '&' {
				return t, lx.errorAt(lx.pos-1, "syntax error")
			}
			lx.pos++
			t.tok = tAnd
		case '|':
			t.tok = two('|', tOr, tPipe)
		case '?':
			t.tok = tQuestion
		case ':':
			t.tok = tColon
		case '$':
			t.tok = tDollar
		case '\\':
			return t, lx.errorAt(lx.pos-1, "backslash not last character on line")
		case '@':
			// gawk's @include, @load and @f() indirect calls are not
			// supported; gawk complains at the token after '@'.
			lx.skipSpace()
			return t, lx.errorf("syntax error")
		default:
			return t, lx.errorAt(lx.pos-1, "invalid char '%c' in expression", c)
		}
	}
	return t, nil
}

func isLetter(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isHex(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// number lexes a numeric constant: decimal with optional fraction and
// exponent, or a gawk-style hex constant.
func (lx *lexer) number(t lexToken) (lexToken, error) {
	start := lx.pos - 1
	src := lx.src
	if src[start] == '0' && (lx.peekByte(0) == 'x' || lx.peekByte(0) == 'X') && isHex(lx.peekByte(1)) {
		lx.pos++
		for lx.pos < len(src) && isHex(src[lx.pos]) {
			lx.pos++
		}
		n, _ := strconv.ParseUint(src[start+2:lx.pos], 16, 64)
		t.tok, t.val, t.num = tNumber, src[start:lx.pos], float64(n)
		return t, nil
	}
	for lx.pos < len(src) && isDigit(src[lx.pos]) {
		lx.pos++
	}
	if lx.pos < len(src) && src[lx.pos] == '.' {
		lx.pos++
		for lx.pos < len(src) && isDigit(src[lx.pos]) {
			lx.pos++
		}
	}
	if lx.pos < len(src) && (src[lx.pos] == 'e' || src[lx.pos] == 'E') {
		p := lx.pos + 1
		if p < len(src) && (src[p] == '+' || src[p] == '-') {
			p++
		}
		if p < len(src) && isDigit(src[p]) {
			for p < len(src) && isDigit(src[p]) {
				p++
			}
			lx.pos = p
		}
	}
	text := src[start:lx.pos]
	if isOctal(text) {
		// gawk reads 017 in program text as octal.
		n, _ := strconv.ParseUint(text, 8, 64)
		t.tok, t.val, t.num = tNumber, text, float64(n)
		return t, nil
	}
	n, err := strconv.ParseFloat(text, 64)
	if err != nil && !isRangeErr(err) {
		return t, lx.errorf("syntax error: invalid number %q", text)
	}
	t.tok, t.val, t.num = tNumber, text, n
	return t, nil
}

func isOctal(s string) bool {
	if len(s) < 2 || s[0] != '0' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '7' {
			return false
		}
	}
	return true
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// str lexes a string constant after its opening quote.
func (lx *lexer) str() (string, error) {
	var b strings.Builder
	quote := lx.pos - 1
	for {
		if lx.pos >= len(lx.src) || lx.src[lx.pos] == '\n' {
			return "", lx.errorAt(quote, "unterminated string")
		}
		c := lx.src[lx.pos]
		lx.pos++
		switch c {
		case '"':
			return b.String(), nil
		case '\\':
			if lx.pos < len(lx.src) && lx.src[lx.pos] == '\n' {
				lx.pos++
				lx.line++
				continue
			}
			n := unescape(&b, lx.src[lx.pos:], lx.warnEscape)
			lx.pos += n
		default:
			b.WriteByte(c)
		}
	}
}

func (lx *lexer) warnEscape(c byte) {
	if !lx.warned[c] {
		lx.warned[c] = true
		lx.warnings = append(lx.warnings, fmt.Sprintf("%s:%d: warning: escape sequence `\\%c' treated as plain `%c'", lx.name, lx.line, c, c))
	}
}

// unescape decodes the escape sequence that follows a backslash at the
// start of s, writes it to b and returns how many bytes of s it used.
// As in gawk, an unknown escape "\c" is a plain c, reported through warn.
func unescape(b *strings.Builder, s string, warn func(c byte)) int {
	if s == "" {
		b.WriteByte('\\')
		return 0
	}
	c := s[0]
	switch c {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case '\\':
		b.WriteByte('\\')
	case '"':
		b.WriteByte('"')
	case 'a':
		b.WriteByte(7)
	case 'b':
		b.WriteByte(8)
	case 'f':
		b.WriteByte(12)
	case 'v':
		b.WriteByte(11)
	case '0', '1', '2', '3', '4', '5', '6', '7':
		n, i := 0, 0
		for i < 3 && i < len(s) && s[i] >= '0' && s[i] <= '7' {
			n = n*8 + int(s[i]-'0')
			i++
		}
		b.WriteByte(byte(n))
		return i
	case 'x':
		n, i := 0, 1
		for i < 3 && i < len(s) && isHex(s[i]) {
			n = n*16 + hexVal(s[i])
			i++
		}
		if i == 1 {
			b.WriteString("\\x")
			return 1
		}
		b.WriteByte(byte(n))
		return i
	default:
		if warn != nil {
			warn(c)
		}
		b.WriteByte(c)
	}
	return 1
}

func hexVal(c byte) int {
	switch {
	case isDigit(c):
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// Unescape processes the escapes of a -v or command-line assignment value
// the way awk does for string constants; warn, if not nil, hears about
// unknown escapes.
func Unescape(s string, warn func(c byte)) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		i++
		i += unescape(&b, s[i:], warn) - 1
	}
	return b.String()
}

// regex lexes a regex constant after its opening slash. The text is kept
// as written except that "\/" becomes "/"; a '/' inside a bracket
// expression does not end the regex.
func (lx *lexer) regex() (string, error) {
	var b strings.Builder
	inBracket := false
	start := lx.pos
	for {
		if lx.pos >= len(lx.src) || lx.src[lx.pos] == '\n' {
			return "", lx.errorAt(start, "unterminated regexp")
		}
		c := lx.src[lx.pos]
		lx.pos++
		switch {
		case c == '\\' && lx.pos < len(lx.src):
			n := lx.src[lx.pos]
			lx.pos++
			if n == '/' {
				b.WriteByte('/')
			} else if n == '\n' {
				lx.line++
			} else {
				b.WriteByte('\\')
				b.WriteByte(n)
			}
		case c == '[' && !inBracket:
			inBracket = true
			b.WriteByte(c)
			// A ']' right after '[' or '[^' is a literal member.
			if lx.pos < len(lx.src) && lx.src[lx.pos] == '^' {
				b.WriteByte('^')
				lx.pos++
			}
			if lx.pos < len(lx.src) && lx.src[lx.pos] == ']' {
				b.WriteByte(']')
				lx.pos++
			}
		case c == '[' && inBracket && lx.pos < len(lx.src) && (lx.src[lx.pos] == ':' || lx.src[lx.pos] == '.' || lx.src[lx.pos] == '='):
			// A class like [:alpha:] inside a bracket: copy it whole.
			end := strings.Index(lx.src[lx.pos+1:], string(lx.src[lx.pos])+"]")
			if end < 0 {
				b.WriteByte(c)
				continue
			}
			b.WriteString(lx.src[lx.pos-1 : lx.pos+1+end+2])
			lx.pos += 1 + end + 2
		case c == ']' && inBracket:
			inBracket = false
			b.WriteByte(c)
		case c == '/' && !inBracket:
			return b.String(), nil
		default:
			b.WriteByte(c)
		}
	}
}
