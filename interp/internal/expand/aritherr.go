package expand

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// ArithSyntaxError is an arithmetic expression's syntax error worded as
// bash words it: the expression (its leading blanks dropped), what is
// wrong, and the text from the token where bash's parser stopped:
//
//	1 + : syntax error: operand expected (error token is "+ ")
type ArithSyntaxError struct {
	Expr, Msg, Token string
}

func (e *ArithSyntaxError) Error() string {
	if e.Token == "" {
		return e.Expr + ": " + e.Msg
	}
	return fmt.Sprintf("%s: %s (error token is \"%s\")", e.Expr, e.Msg, e.Token)
}

// CheckArithSyntax reports the first syntax error bash's arithmetic
// parser finds in s, or nil. Bash parses an expression's text each time
// it evaluates it, and its messages name the token it stopped at; the
// Go parser that sandsh evaluates with reports other errors at other
// places, so the text is checked first by this model of bash's grammar
// (expr.c: the same precedence levels, the same tokens, a number's base
// and digits checked as it is read). Subscripts are not looked into:
// bash evaluates them when the element is read. Nothing is evaluated.
func CheckArithSyntax(s string) error {
	c := arithChecker{s: s}
	return c.check()
}

type arithTok int

const (
	atEOF arithTok = iota
	atNum
	atStr
	atAssign   // =
	atOpAssign // += -= *= /= %= &= ^= |= <<= >>=
	atEqEq
	atNeq
	atLeq
	atGeq
	atLsh
	atRsh
	atLand
	atLor
	atPower
	atPreInc
	atPreDec
	atPostInc
	atPostDec
	atOp // any other one-character operator, in op
)

// arithChecker holds the lexer's state as bash's does: tp is where the
// current token starts, lastTP where the last token that was not the end
// started (the error token), cur and last the current and previous token.
type arithChecker struct {
	s         string
	cp, tp    int
	lastTP    int
	cur, last arithTok
	op        byte // cur's character when cur is atOp
	failed    error
	depth     int
}

// maxCheckDepth bounds the checker's recursion. Past it the checker
// gives no verdict and the Go parser, whose nesting is bounded too,
// reports the expression too deep.
const maxCheckDepth = 10_000

// enter counts one level of recursion; leave uncounts it.
func (c *arithChecker) enter() {
	if c.depth++; c.depth > maxCheckDepth {
		c.failed = nil
		panic(errStop{})
	}
}

func (c *arithChecker) leave() { c.depth-- }

// errStop unwinds the recursive descent at the first error.
type errStop struct{}

func (c *arithChecker) check() (err error) {
	if strings.Trim(c.s, arithBlanks) == "" {
		return nil
	}
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(errStop); !ok {
				panic(v)
			}
			if c.failed != nil {
				err = c.failed
			}
		}
	}()
	c.next()
	c.comma()
	if c.cur != atEOF {
		c.fail("syntax error in expression")
	}
	return nil
}

// fail reports msg at the last token, as bash's evalerror does.
func (c *arithChecker) fail(msg string) {
	c.failAt(strings.TrimLeft(c.s, arithBlanks), msg, c.s[c.lastTP:])
}

func (c *arithChecker) failAt(expr, msg, token string) {
	c.failed = &ArithSyntaxError{Expr: expr, Msg: msg, Token: token}
	panic(errStop{})
}

func isArithBlank(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

func isNameStart(b byte) bool { return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

func isAlnum(b byte) bool { return isNameStart(b) && b != '_' || b >= '0' && b <= '9' }

// isOpChar: the characters that are operators on their own.
func isOpChar(b byte) bool { return strings.IndexByte("=><+-*/%!()&|^~?:,", b) >= 0 }

func (c *arithChecker) isOp(op byte) bool { return c.cur == atOp && c.op == op }

// next reads the next token.
func (c *arithChecker) next() {
	s := c.s
	for c.cp < len(s) && isArithBlank(s[c.cp]) {
		c.cp++
	}
	c.tp = c.cp
	prev := c.cur
	c.last = c.cur
	if c.cp >= len(s) {
		c.cur = atEOF
		return
	}
	c.lastTP = c.tp
	b := s[c.cp]
	switch {
	case isNameStart(b):
		for c.cp < len(s) && (isAlnum(s[c.cp]) || s[c.cp] == '_') {
			c.cp++
		}
		if c.cp < len(s) && s[c.cp] == '[' {
			end := subscriptEnd(s, c.cp)
			if end < 0 {
				c.failAt(strings.TrimLeft(s, arithBlanks), "bad array subscript", s[c.tp:])
			}
			c.cp = end + 1
		}
		c.cur = atStr
		return
	case b >= '0' && b <= '9':
		for c.cp < len(s) && (isAlnum(s[c.cp]) || strings.IndexByte("#@_", s[c.cp]) >= 0) {
			c.cp++
		}
		// A number's base and digits are checked as it is read, and
		// its error names the number alone (09: value too great for
		// base (error token is "09")).
		if _, _, err := parseConst(s[c.tp:c.cp]); err != nil {
			c.failed = err
			panic(errStop{})
		}
		c.cur = atNum
		return
	}
	c.cp++
	var b1 byte
	if c.cp < len(s) {
		b1 = s[c.cp]
	}
	two := func(t arithTok) { c.cp++; c.cur = t }
	switch {
	case b == '=' && b1 == '=':
		two(atEqEq)
	case b == '!' && b1 == '=':
		two(atNeq)
	case b == '>' && b1 == '=':
		two(atGeq)
	case b == '<' && b1 == '=':
		two(atLeq)
	case (b == '<' || b == '>') && b1 == b:
		two(atLsh)
		if b == '>' {
			c.cur = atRsh
		}
		if c.cp < len(s) && s[c.cp] == '=' {
			two(atOpAssign)
		}
	case b == '&' && b1 == '&':
		two(atLand)
	case b == '|' && b1 == '|':
		two(atLor)
	case b == '*' && b1 == '*':
		two(atPower)
	case (b == '+' || b == '-') && b1 == b && prev == atStr:
		two(atPostInc)
		if b == '-' {
			c.cur = atPostDec
		}
	case (b == '+' || b == '-') && b1 == b && c.nameFollows(c.cp+1):
		two(atPreInc)
		if b == '-' {
			c.cur = atPreDec
		}
	case b1 == '=' && strings.IndexByte("*/%+-&^|", b) >= 0:
		two(atOpAssign)
	case isOpChar(b):
		c.cur, c.op = atOp, b
		if b == '=' {
			c.cur = atAssign
		}
	default:
		c.cp--
		if prev == atNum || prev == atStr {
			c.fail("syntax error: invalid arithmetic operator")
		}
		c.fail("syntax error: operand expected")
	}
}

// nameFollows: after optional blanks, a name starts at i (what makes
// ++ and -- prefix operators rather than two signs).
func (c *arithChecker) nameFollows(i int) bool {
	for i < len(c.s) && isArithBlank(c.s[i]) {
		i++
	}
	return i < len(c.s) && isNameStart(c.s[i])
}

// subscriptEnd is the index of the ']' closing the '[' at open, or -1.
func subscriptEnd(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// The recursive descent, one function per precedence level, lowest
// first.

func (c *arithChecker) comma() {
	c.enter()
	defer c.leave()
	c.assign()
	for c.isOp(',') {
		c.next()
		c.assign()
	}
}

func (c *arithChecker) assign() {
	c.enter()
	defer c.leave()
	c.cond()
	if c.cur == atAssign || c.cur == atOpAssign {
		if c.last != atStr {
			c.fail("attempted assignment to non-variable")
		}
		c.next()
		c.assign()
	}
}

func (c *arithChecker) cond() {
	c.enter()
	defer c.leave()
	c.binary(0)
	if !c.isOp('?') {
		return
	}
	c.next()
	if c.cur == atEOF || c.isOp(':') {
		c.fail("expression expected")
	}
	c.comma()
	if !c.isOp(':') {
		c.fail("`:' expected for conditional expression")
	}
	c.next()
	if c.cur == atEOF {
		c.fail("expression expected")
	}
	c.cond()
}

// arithLevels are the binary operators from || to * / %, loosest first;
// each level's operands are the next level's expressions.
var arithLevels = [][]arithTok{
	{atLor}, {atLand}, {atOp + '|'}, {atOp + '^'}, {atOp + '&'},
	{atEqEq, atNeq}, {atLeq, atGeq, atOp + '<', atOp + '>'}, {atLsh, atRsh},
	{atOp + '+', atOp + '-'}, {atOp + '*', atOp + '/', atOp + '%'},
}

// kind folds a one-character operator into its token for arithLevels.
func (c *arithChecker) kind() arithTok {
	if c.cur == atOp {
		return atOp + arithTok(c.op)
	}
	return c.cur
}

func (c *arithChecker) binary(level int) {
	if level == len(arithLevels) {
		c.power()
		return
	}
	c.binary(level + 1)
	for c.at(arithLevels[level]) {
		c.next()
		c.binary(level + 1)
	}
}

func (c *arithChecker) at(toks []arithTok) bool {
	k := c.kind()
	for _, t := range toks {
		if k == t {
			return true
		}
	}
	return false
}

func (c *arithChecker) power() {
	c.enter()
	defer c.leave()
	c.unary()
	if c.cur == atPower {
		c.next()
		c.power()
	}
}

func (c *arithChecker) unary() {
	c.enter()
	defer c.leave()
	if c.isOp('!') || c.isOp('~') || c.isOp('-') || c.isOp('+') {
		c.next()
		c.unary()
		return
	}
	c.operand()
}

func (c *arithChecker) operand() {
	switch {
	case c.cur == atPreInc || c.cur == atPreDec:
		c.next() // a name: the lexer looked ahead
		c.next()
		if c.cur == atPostInc || c.cur == atPostDec {
			c.fail(c.s[c.tp:c.cp] + ": assignment requires lvalue")
		}
	case c.isOp('('):
		c.next()
		c.comma()
		if !c.isOp(')') {
			c.fail("missing `)'")
		}
		c.next()
	case c.cur == atNum:
		c.next()
	case c.cur == atStr:
		c.next()
		if c.cur == atPostInc || c.cur == atPostDec {
			c.next()
		}
	default:
		c.fail("syntax error: operand expected")
	}
}

var (
	errDivZero     = errors.New("division by 0")
	errNegExponent = errors.New("exponent less than 0")
)

// arithEvalError is an error found while evaluating an expression that
// is about one operand, at: the divisor of a division by 0, the exponent
// of a negative power. Bash's message names the expression and the
// token its parser was at, which name adds where the expression's text
// is known.
type arithEvalError struct {
	msg  string
	at   syntax.ArithmExpr
	text string
}

func (e *arithEvalError) Error() string {
	if e.text != "" {
		return e.text
	}
	return e.msg
}

// name words the error as bash does, given the text of the expression
// it happened in, whose first byte is at offset base of the source that
// e.at's positions count in. Bash evaluates as it parses: a division by
// 0 stops at the divisor; a negative exponent once the token after the
// exponent is read (at the end of the text, the exponent's last token
// stays the error token).
func (e *arithEvalError) name(text string, base int) {
	start, end := int(e.at.Pos().Offset())-base, int(e.at.End().Offset())-base
	expr := strings.TrimLeft(text, arithBlanks)
	if start < 0 || end > len(text) || start >= end {
		e.text = expr + ": " + e.msg
		return
	}
	token := text[start:]
	if e.msg != errDivZero.Error() {
		if rest := strings.TrimLeft(text[end:], arithBlanks); rest != "" {
			token = rest
		} else {
			i := end
			for i > start && (isAlnum(text[i-1]) || strings.IndexByte("_#@", text[i-1]) >= 0) {
				i--
			}
			if i == end {
				i--
			}
			token = text[i:]
		}
	}
	e.text = (&ArithSyntaxError{Expr: expr, Msg: e.msg, Token: token}).Error()
}

// arithLvalueError is ++ or -- applied to what is not a variable, as in
// --x++, which the Go parser reads as --(x++).
type arithLvalueError struct{ op string }

func (e *arithLvalueError) Error() string { return e.op + ": assignment requires lvalue" }
