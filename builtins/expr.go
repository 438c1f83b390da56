package builtins

import (
	"context"
	"fmt"
	"io"
	"math/big"
	"strings"

	"github.com/sandsh/sandsh/builtins/internal/regex"
)

const exprUsage = `Usage: expr EXPRESSION
  or:  expr OPTION
Print the value of EXPRESSION to standard output.

  ARG1 | ARG2       ARG1 if it is neither null nor 0, otherwise ARG2
  ARG1 & ARG2       ARG1 if neither argument is null or 0, otherwise 0
  ARG1 < <= = == != >= > ARG2   comparison, numeric if both are integers
  ARG1 + - * / % ARG2           arithmetic on arbitrary-size integers
  STRING : REGEXP   anchored pattern match of REGEXP in STRING
  match STRING REGEXP        same as STRING : REGEXP
  substr STRING POS LENGTH   substring of STRING, POS counted from 1
  index STRING CHARS         index in STRING where any CHARS is found, or 0
  length STRING              length of STRING
  + TOKEN                    interpret TOKEN as a string
  ( EXPRESSION )             value of EXPRESSION

Exit status is 0 if EXPRESSION is neither null nor 0, 1 if EXPRESSION is null
or 0, 2 if EXPRESSION is syntactically invalid, and 3 if an error occurred.
`

// Exit statuses of expr.
const (
	exprInvalid = 2
	exprFailure = 3
)

// exprValue is an expr value: an arbitrary-size integer or a string.
type exprValue struct {
	i     *big.Int
	s     string
	isInt bool
}

func exprInt(i *big.Int) exprValue { return exprValue{i: i, isInt: true} }
func exprStr(s string) exprValue   { return exprValue{s: s} }

func (v exprValue) String() string {
	if v.isInt {
		return v.i.String()
	}
	return v.s
}

// null reports expr's notion of false: 0, "", or a string of zeros.
func (v exprValue) null() bool {
	if v.isInt {
		return v.i.Sign() == 0
	}
	s := strings.TrimPrefix(v.s, "-")
	return v.s == "" || strings.Trim(s, "0") == "" && s != ""
}

// exprLooksInt reports whether s is an optional '-' and decimal digits.
func exprLooksInt(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// toInt converts v for arithmetic.
func (v exprValue) toInt() (*big.Int, bool) {
	if v.isInt {
		return v.i, true
	}
	if !exprLooksInt(v.s) {
		return nil, false
	}
	i, ok := new(big.Int).SetString(v.s, 10)
	return i, ok
}

// exprError aborts evaluation with a message and status.
type exprError struct {
	msg    string
	status int
}

// exprParser evaluates the argument list by recursive descent, exactly as
// coreutils' expr.c does (including which side is evaluated).
type exprParser struct {
	args  []string
	pos   int
	depth int // nested unary operands: ( ... ), length length ...
}

// exprMaxDepth bounds the parser's recursion: a Go stack overflow would
// kill sandsh (expr $(printf '( %.0s' {1..500000}) 1 did).
const exprMaxDepth = 10_000

func runExpr(ctx context.Context, env *Env, args []string) (status int) {
	name := args[0]
	ops := args[1:]
	if len(ops) == 1 && ops[0] == "--help" {
		io.WriteString(env.Stdout, exprUsage)
		return 0
	}
	if len(ops) > 0 && ops[0] == "--" {
		ops = ops[1:]
	}
	if len(ops) == 0 {
		return env.UsageError(name, fmt.Errorf("missing operand"), exprInvalid)
	}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*exprError)
			if !ok {
				panic(r)
			}
			env.Errorf(name, "%s", e.msg)
			status = e.status
		}
	}()
	p := &exprParser{args: ops}
	v := p.or(true)
	if p.pos < len(p.args) {
		p.fail("syntax error: unexpected argument %s", shellQuoteGNU(p.args[p.pos]))
	}
	if _, err := fmt.Fprintln(env.Stdout, v.String()); err != nil {
		return env.WriteError(name, err)
	}
	if v.null() {
		return 1
	}
	return 0
}

func (p *exprParser) fail(format string, a ...any) {
	panic(&exprError{fmt.Sprintf(format, a...), exprInvalid})
}

// next consumes the current argument if it equals s.
func (p *exprParser) next(s string) bool {
	if p.pos < len(p.args) && p.args[p.pos] == s {
		p.pos++
		return true
	}
	return false
}

func (p *exprParser) missingAfter() {
	p.fail("syntax error: missing argument after %s", shellQuoteGNU(p.args[p.pos-1]))
}

func (p *exprParser) or(eval bool) exprValue {
	l := p.and(eval)
	for p.next("|") {
		r := p.and(eval && l.null())
		if l.null() {
			l = r
			if l.null() {
				l = exprInt(big.NewInt(0))
			}
		}
	}
	return l
}

func (p *exprParser) and(eval bool) exprValue {
	l := p.compare(eval)
	for p.next("&") {
		r := p.compare(eval && !l.null())
		if l.null() || r.null() {
			l = exprInt(big.NewInt(0))
		}
	}
	return l
}

func (p *exprParser) compare(eval bool) exprValue {
	l := p.sum(eval)
	for {
		var op string
		for _, o := range []string{"<", "<=", "=", "==", "!=", ">=", ">"} {
			if p.next(o) {
				op = o
				break
			}
		}
		if op == "" {
			return l
		}
		r := p.sum(eval)
		val := false
		if eval {
			ls, rs := l.String(), r.String()
			var cmp int
			if exprLooksInt(ls) && exprLooksInt(rs) {
				a, _ := new(big.Int).SetString(ls, 10)
				b, _ := new(big.Int).SetString(rs, 10)
				cmp = a.Cmp(b)
			} else {
				cmp = strings.Compare(ls, rs)
			}
			switch op {
			case "<":
				val = cmp < 0
			case "<=":
				val = cmp <= 0
			case "=", "==":
				val = cmp == 0
			case "!=":
				val = cmp != 0
			case ">=":
				val = cmp >= 0
			case ">":
				val = cmp > 0
			}
		}
		l = exprInt(big.NewInt(map[bool]int64{false: 0, true: 1}[val]))
	}
}

func (p *exprParser) sum(eval bool) exprValue {
	l := p.product(eval)
	for {
		var op string
		switch {
		case p.next("+"):
			op = "+"
		case p.next("-"):
			op = "-"
		default:
			return l
		}
		r := p.product(eval)
		if eval {
			a, b := p.ints(l, r)
			if op == "+" {
				l = exprInt(new(big.Int).Add(a, b))
			} else {
				l = exprInt(new(big.Int).Sub(a, b))
			}
		}
	}
}

func (p *exprParser) ints(l, r exprValue) (*big.Int, *big.Int) {
	a, ok1 := l.toInt()
	b, ok2 := r.toInt()
	if !ok1 || !ok2 {
		p.fail("non-integer argument")
	}
	return a, b
}

func (p *exprParser) product(eval bool) exprValue {
	l := p.colon(eval)
	for {
		var op string
		switch {
		case p.next("*"):
			op = "*"
		case p.next("/"):
			op = "/"
		case p.next("%"):
			op = "%"
		default:
			return l
		}
		r := p.colon(eval)
		if !eval {
			continue
		}
		a, b := p.ints(l, r)
		if op != "*" && b.Sign() == 0 {
			p.fail("division by zero")
		}
		switch op {
		case "*":
			l = exprInt(new(big.Int).Mul(a, b))
		case "/":
			l = exprInt(new(big.Int).Quo(a, b))
		default:
			l = exprInt(new(big.Int).Rem(a, b))
		}
	}
}

func (p *exprParser) colon(eval bool) exprValue {
	l := p.unary(eval)
	for p.next(":") {
		r := p.unary(eval)
		if eval {
			l = exprMatch(l.String(), r.String())
		}
	}
	return l
}

func (p *exprParser) unary(eval bool) exprValue {
	if p.depth++; p.depth > exprMaxDepth {
		p.fail("expression nests too deeply")
	}
	defer func() { p.depth-- }()
	switch {
	case p.next("+"):
		if p.pos >= len(p.args) {
			p.missingAfter()
		}
		p.pos++
		return exprStr(p.args[p.pos-1])
	case p.next("length"):
		r := p.unary(eval)
		return exprInt(big.NewInt(int64(len(r.String()))))
	case p.next("match"):
		l := p.unary(eval)
		r := p.unary(eval)
		if eval {
			return exprMatch(l.String(), r.String())
		}
		return l
	case p.next("index"):
		l := p.unary(eval)
		r := p.unary(eval)
		return exprInt(big.NewInt(int64(strings.IndexAny(l.String(), r.String()) + 1)))
	case p.next("substr"):
		l := p.unary(eval)
		i1 := p.unary(eval)
		i2 := p.unary(eval)
		return exprSubstr(l.String(), i1, i2)
	}
	return p.primary(eval)
}

// exprSubstr is substr with coreutils' clamping of odd positions.
func exprSubstr(s string, i1, i2 exprValue) exprValue {
	a, ok1 := i1.toInt()
	b, ok2 := i2.toInt()
	if !ok1 || !ok2 {
		return exprStr("")
	}
	size := func(i *big.Int) uint64 {
		if i.Sign() < 0 {
			return ^uint64(0)
		}
		if i.IsUint64() && i.Uint64() < ^uint64(0) {
			return i.Uint64()
		}
		return ^uint64(0) - 1
	}
	pos, n := size(a), size(b)
	llen := uint64(len(s))
	if llen < pos || pos == 0 || n == 0 || n == ^uint64(0) {
		return exprStr("")
	}
	n = min(n, llen-pos+1)
	return exprStr(s[pos-1 : pos-1+n])
}

func (p *exprParser) primary(eval bool) exprValue {
	if p.pos >= len(p.args) {
		p.missingAfter()
	}
	if p.next("(") {
		v := p.or(eval)
		if p.next(")") {
			return v
		}
		if p.pos >= len(p.args) {
			p.fail("syntax error: expecting ')' after %s", shellQuoteGNU(p.args[p.pos-1]))
		}
		p.fail("syntax error: expecting ')' instead of %s", shellQuoteGNU(p.args[p.pos]))
	}
	if p.next(")") {
		p.fail("syntax error: unexpected ')'")
	}
	p.pos++
	return exprStr(p.args[p.pos-1])
}

// exprMatch is STRING : REGEXP, a BRE anchored at the start: the \1 text
// when the pattern has a group, the length of the match otherwise.
func exprMatch(s, pattern string) exprValue {
	re, err := regex.Compile(pattern, regex.Flags{Syntax: regex.BRE})
	if err != nil {
		panic(&exprError{err.Error(), exprInvalid})
	}
	m := re.FindStringSubmatchIndex(s)
	if err := re.Err(); err != nil {
		panic(&exprError{"error in regular expression matcher", exprFailure})
	}
	if m != nil && m[0] != 0 {
		// The leftmost match starts later, so none starts at 0.
		m = nil
	}
	if re.NumSubexp() > 0 {
		if m == nil || len(m) < 4 || m[2] < 0 {
			return exprStr("")
		}
		return exprStr(s[m[2]:m[3]])
	}
	if m == nil {
		return exprInt(big.NewInt(0))
	}
	return exprInt(big.NewInt(int64(m[1])))
}
