// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package expand

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/sandsh/sandsh/interp/internal/parseguard"
)

// TODO(v4): the arithmetic APIs should return int64 for portability with 32-bit systems,
// even if Bash only supports native int sizes.

// Arithm evaluates an arithmetic expression. Like bash, which expands the
// text of an expression before it parses it, an expression whose words
// hold expansions or quotes ($x, "1 + 2", $(cmd)) is evaluated from its
// expanded text: with x='1 + 2', $(( $x * 3 )) is 7, not 9.
func Arithm(cfg *Config, expr syntax.ArithmExpr) (n int, err error) {
	return ArithmSource(cfg, expr, "")
}

// ArithmSource is Arithm for an expression parsed from source, its text
// as written (syntax.ArithmExp.Source), which bash's messages quote; ""
// when unknown.
func ArithmSource(cfg *Config, expr syntax.ArithmExpr, source string) (n int, err error) {
	defer func() {
		if err != nil {
			// sandsh: declared here, as errors.As moves it to the heap
			// on every evaluation, failed or not.
			var ae *ArithmError
			if !errors.As(err, new(UnsetParameterError)) && !errors.As(err, &ae) {
				err = &ArithmError{err}
			}
		}
	}()
	if arithHasExpansion(expr) {
		if n, ok, err := cfg.arithDirect(expr); ok {
			return n, err
		}
		s, err := cfg.arithSource(expr, true)
		if err != nil {
			return 0, err
		}
		if strings.Trim(s, arithBlanks) == "" {
			return 0, nil
		}
		return cfg.arithText(s)
	}
	n, err = arithm(cfg, expr)
	if err != nil && errors.As(err, new(*arithLvalueError)) {
		// As --x++: bash's parser stops there; so does its model.
		text := source
		if text == "" {
			text, _ = cfg.arithSource(expr, false)
		}
		if serr := CheckArithSyntax(text); serr != nil {
			err = serr
		}
	}
	if err != nil {
		var ee *arithEvalError
		if errors.As(err, &ee) && ee.text == "" {
			if source != "" {
				lead := len(source) - len(strings.TrimLeft(source, arithBlanks))
				ee.name(source, int(expr.Pos().Offset())-lead)
			} else if text, err2 := cfg.arithSource(expr, false); err2 == nil {
				// The words of an expression without expansions
				// are literals: rebuilding its text runs nothing.
				ee.name(text, int(expr.Pos().Offset()))
			}
		}
	}
	return n, err
}

// arithUnset is bash's set -u check for a variable an expression reads:
// only plain names count (an unset array element reads as 0).
func (cfg *Config) arithUnset(name string) error {
	if !cfg.NoUnset || !syntax.ValidName(name) || cfg.Env.Get(name).IsSet() {
		return nil
	}
	return UnsetParameterError{Node: &syntax.ParamExp{Param: &syntax.Lit{Value: name}}, Message: "unbound variable"}
}

// ArithmError is an error of arithmetic evaluation itself (a syntax
// error in a value, a division by zero); bash abandons the command line it
// happens in and goes on with the next one.
type ArithmError struct{ Err error }

func (e *ArithmError) Error() string { return e.Err.Error() }
func (e *ArithmError) Unwrap() error { return e.Err }

// arithHasExpansion reports whether a word of expr is more than literal
// text.
func arithHasExpansion(expr syntax.ArithmExpr) bool {
	switch x := expr.(type) {
	case *syntax.Word:
		for _, wp := range x.Parts {
			switch wp := wp.(type) {
			case *syntax.Lit:
			case *syntax.ParamExp:
				// a[i] without a dollar names an element.
				if wp.Dollar.IsValid() || wp.Index != nil && arithHasExpansion(wp.Index) {
					return true
				}
			default:
				return true
			}
		}
	case *syntax.BinaryArithm:
		return arithHasExpansion(x.X) || arithHasExpansion(x.Y)
	case *syntax.UnaryArithm:
		return arithHasExpansion(x.X)
	case *syntax.ParenArithm:
		return arithHasExpansion(x.X)
	}
	return false
}

// arithVal is the number an expansion in an expression was found to
// hold before the expression is evaluated (see arithDirect).
type arithVal struct {
	w *syntax.Word
	n int
}

// arithDirect evaluates an expression whose expansions are all plain
// parameters ($x, ${x}, ${#x}, $1) holding plain decimal numbers, such as
// $(( $1 - 1 )) or $(( n + ${#s} )), without building its text and parsing
// that (sandsh): each such value is one number token in bash's text, which
// evaluates as the tree with the number in the expansion's place. ok is
// false, with nothing changed, for any other expression: reading such a
// parameter has no effect, so the text path may read it again.
func (cfg *Config) arithDirect(expr syntax.ArithmExpr) (n int, ok bool, err error) {
	if cfg == nil || cfg.Env == nil {
		return 0, false, nil
	}
	var pes [maxDirectExps]*syntax.Word
	k := 0
	if !arithDirectShape(expr, &pes, &k) || k == 0 {
		return 0, false, nil
	}
	base := len(cfg.arithVals)
	defer func() { cfg.arithVals = cfg.arithVals[:base] }()
	for _, w := range pes[:k] {
		str, _, err := cfg.paramValue(w.Parts[0].(*syntax.ParamExp))
		if err != nil {
			return 0, false, nil // the text path reports it
		}
		v, plain := plainDecimal(str)
		if !plain {
			return 0, false, nil
		}
		cfg.arithVals = append(cfg.arithVals, arithVal{w: w, n: int(v)})
	}
	n, err = arithm(cfg, expr)
	return n, true, err
}

// maxDirectExps bounds the expansions arithDirect takes on.
const maxDirectExps = 8

// arithDirectShape reports whether arithDirect can take expr on: no
// assignment, ++ or --, and every word either plain (a number or name)
// or one parameter expansion with no operator, index or side effect
// (RANDOM changes on every read); it lists those words in pes.
func arithDirectShape(expr syntax.ArithmExpr, pes *[maxDirectExps]*syntax.Word, k *int) bool {
	switch x := expr.(type) {
	case *syntax.Word:
		if !arithHasExpansion(x) {
			return true
		}
		if len(x.Parts) != 1 || *k >= maxDirectExps {
			return false
		}
		pe, ok := x.Parts[0].(*syntax.ParamExp)
		if !ok || !pe.Dollar.IsValid() || pe.Param == nil || pe.Bad != "" || pe.Flags != nil ||
			pe.Excl || pe.Width || pe.IsSet || pe.Split != syntax.OptUnset ||
			pe.GlobSubst != syntax.OptUnset || pe.RcExpand != syntax.OptUnset ||
			pe.NestedParam != nil || pe.Index != nil || len(pe.Modifiers) > 0 ||
			pe.Slice != nil || pe.Repl != nil || pe.Names != 0 || pe.Exp != nil {
			return false
		}
		switch pe.Param.Value {
		case "@", "*", "RANDOM", "SRANDOM":
			return false
		}
		pes[*k] = x
		*k++
		return true
	case *syntax.BinaryArithm:
		if assignOp(x.Op) {
			return false
		}
		return arithDirectShape(x.X, pes, k) && arithDirectShape(x.Y, pes, k)
	case *syntax.UnaryArithm:
		if x.Op == syntax.Inc || x.Op == syntax.Dec {
			return false
		}
		return arithDirectShape(x.X, pes, k)
	case *syntax.ParenArithm:
		return arithDirectShape(x.X, pes, k)
	}
	return false
}

func arithm(cfg *Config, expr syntax.ArithmExpr) (int, error) {
	switch expr := expr.(type) {
	case *syntax.Word:
		for _, v := range cfg.arithVals {
			if v.w == expr {
				return v.n, nil
			}
		}
		str, err := Literal(cfg, expr)
		if err != nil {
			return 0, err
		}
		// recursively fetch vars
		i := 0
		// sandsh: str is a value unless the word is the script's own
		// plain text (a name); an element reference in a value is
		// evaluated as value text, whose subscript runs no command
		// (see cmdSubst), not looked up through the environment.
		fromValue := expr.Lit() == ""
		for syntax.ValidName(str) || isElemRef(str) {
			if fromValue && isElemRef(str) {
				return cfg.arithText(str)
			}
			if err := cfg.arithUnset(str); err != nil {
				return 0, err
			}
			if isElemRef(str) {
				if str, err = cfg.elemIndexText(str); err != nil {
					return 0, err
				}
			}
			val := cfg.envGet(str)
			if val == "" {
				break
			}
			if i++; i >= maxNameRefDepth {
				break
			}
			str = val
			fromValue = true
		}
		// sandsh: a value that is not a number is itself an arithmetic
		// expression, as in bash (x="1+2"; echo $((x*2)) is 6).
		if n, ok, err := parseConst(str); ok {
			return int(n), err
		}
		if syntax.ValidName(str) || isElemRef(str) {
			return 0, nil // an unset or empty variable
		}
		return cfg.arithText(str)
	case *syntax.ParenArithm:
		return arithm(cfg, expr.X)
	case *syntax.UnaryArithm:
		switch expr.Op {
		case syntax.Inc, syntax.Dec:
			name, err := cfg.arithName(expr.X, expr.Op.String())
			if err != nil {
				return 0, err
			}
			if err := cfg.arithUnset(name); err != nil {
				return 0, err
			}
			old := atoi(cfg.envGet(name))
			val := old
			if expr.Op == syntax.Inc {
				val++
			} else {
				val--
			}
			if err := cfg.envSet(name, strconv.FormatInt(val, 10)); err != nil {
				return 0, err
			}
			if expr.Post {
				return int(old), nil
			}
			return int(val), nil
		}
		val, err := arithm(cfg, expr.X)
		if err != nil {
			return 0, err
		}
		switch expr.Op {
		case syntax.Not:
			return oneIf(val == 0), nil
		case syntax.BitNegation:
			return ^val, nil
		case syntax.Plus:
			return val, nil
		case syntax.Minus:
			return -val, nil
		default:
			return 0, fmt.Errorf("unsupported unary arithmetic operator: %q", expr.Op)
		}
	case *syntax.BinaryArithm:
		if assignOp(expr.Op) {
			return cfg.assgnArit(expr)
		}
		switch expr.Op {
		case syntax.TernQuest: // TernColon can't happen here
			cond, err := arithm(cfg, expr.X)
			if err != nil {
				return 0, err
			}
			b2 := expr.Y.(*syntax.BinaryArithm) // must have Op==TernColon
			if cond != 0 {
				return arithm(cfg, b2.X)
			}
			return arithm(cfg, b2.Y)
		case syntax.AndArit, syntax.OrArit:
			// Like Bash, short-circuit the right operand.
			left, err := arithm(cfg, expr.X)
			if err != nil {
				return 0, err
			}
			if expr.Op == syntax.AndArit && left == 0 {
				return 0, nil
			}
			if expr.Op == syntax.OrArit && left != 0 {
				return 1, nil
			}
			right, err := arithm(cfg, expr.Y)
			if err != nil {
				return 0, err
			}
			return oneIf(right != 0), nil
		}
		if l, ok := expr.X.(*syntax.BinaryArithm); ok && plainBinary(l.Op) {
			return cfg.binChain(expr)
		}
		left, err := arithm(cfg, expr.X)
		if err != nil {
			return 0, err
		}
		right, err := arithm(cfg, expr.Y)
		if err != nil {
			return 0, err
		}
		n, err := binArit(expr.Op, left, right)
		if err != nil {
			return 0, &arithEvalError{msg: err.Error(), at: expr.Y}
		}
		return n, nil
	case *syntax.FlagsArithm: // e.g. zsh's ${a[(r)b]}
		return 0, fmt.Errorf("unsupported")
	default:
		panic(fmt.Sprintf("unexpected arithm expr: %T", expr))
	}
}

// plainBinary reports whether op is evaluated as binArit: both operands,
// left first.
func plainBinary(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.TernQuest, syntax.TernColon, syntax.AndArit, syntax.OrArit:
		return false
	}
	return !assignOp(op)
}

// assignOp reports whether op assigns to its left operand (=, +=, ...).
func assignOp(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn,
		syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
		syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn,
		syntax.ShlAssgn, syntax.ShrAssgn:
		return true
	}
	return false
}

// binChain evaluates a left-nested chain such as 1+2+3+... (sandsh): the
// parser builds it without recursing, and evaluating it link by link
// keeps a long chain from overflowing the Go stack.
func (cfg *Config) binChain(expr *syntax.BinaryArithm) (int, error) {
	spine := []*syntax.BinaryArithm{expr}
	for {
		l, ok := spine[len(spine)-1].X.(*syntax.BinaryArithm)
		if !ok || !plainBinary(l.Op) {
			break
		}
		spine = append(spine, l)
	}
	val, err := arithm(cfg, spine[len(spine)-1].X)
	if err != nil {
		return 0, err
	}
	for i := len(spine) - 1; i >= 0; i-- {
		right, err := arithm(cfg, spine[i].Y)
		if err != nil {
			return 0, err
		}
		if val, err = binArit(spine[i].Op, val, right); err != nil {
			return 0, &arithEvalError{msg: err.Error(), at: spine[i].Y}
		}
	}
	return val, nil
}

func oneIf(b bool) int {
	if b {
		return 1
	}
	return 0
}

// atoi is like [strconv.ParseInt](s, BASE, 64), but it handles integer
// base prefixes according to bash-shell's rules, ignores errors, and
// trims whitespace.
//
// For more information about bash's integer base handling syntax,
// refer to the bash manual:
// https://www.man7.org/linux/man-pages/man1/bash.1.html
func atoi(s string) int64 {
	if n, ok := plainDecimal(s); ok {
		return n
	}
	s = strings.Trim(s, arithBlanks)
	neg := false
	switch {
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	case strings.HasPrefix(s, "-"):
		neg = true
		s = s[1:]
	}
	base := int64(10)
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		base = 16
		s = s[2:]
	case strings.HasPrefix(s, "0"):
		base = 8
		s = s[1:]
	default:
		baseStr, intStr, hasSep := strings.Cut(s, "#")
		if hasSep {
			var err error
			base, err = strconv.ParseInt(baseStr, 10, 8)
			if err != nil || base < 2 || base > 64 {
				return 0
			}
			s = intStr
		}
	}
	var n int64
	if base > 36 {
		n = atoiLargeBase(s, base)
	} else {
		var err error
		n, err = strconv.ParseInt(s, int(base), 64)
		if errors.Is(err, strconv.ErrRange) {
			// sandsh: like bash, wrap around instead of saturating:
			// $((9223372036854775808)) is -9223372036854775808.
			n = atoiLargeBase(strings.ToLower(s), base)
		}
	}
	if neg {
		n = -n
	}
	return n
}

// atoiLargeBase parses bases 37 to 64, which [strconv.ParseInt] does not
// support, using bash's digit set: 0-9, a-z, A-Z, "@", and "_".
func atoiLargeBase(s string, base int64) int64 {
	var n int64
	for i := range len(s) {
		var d int64
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			d = int64(c - '0')
		case c >= 'a' && c <= 'z':
			d = int64(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			d = int64(c-'A') + 36
		case c == '@':
			d = 62
		case c == '_':
			d = 63
		default:
			return 0
		}
		if d >= base {
			return 0
		}
		n = n*base + d
	}
	return n
}

func (cfg *Config) assgnArit(b *syntax.BinaryArithm) (int, error) {
	name, err := cfg.arithName(b.X, b.Op.String())
	if err != nil {
		return 0, err
	}
	val := atoi(cfg.envGet(name))
	arg_, err := arithm(cfg, b.Y)
	if err != nil {
		return 0, err
	}
	arg := int64(arg_)
	switch b.Op {
	case syntax.Assgn:
		val = arg
	case syntax.AddAssgn:
		val += arg
	case syntax.SubAssgn:
		val -= arg
	case syntax.MulAssgn:
		val *= arg
	case syntax.QuoAssgn:
		if arg == 0 {
			return 0, &arithEvalError{msg: "division by 0", at: b.Y}
		}
		val /= arg
	case syntax.RemAssgn:
		if arg == 0 {
			return 0, &arithEvalError{msg: "division by 0", at: b.Y}
		}
		val %= arg
	case syntax.AndAssgn:
		val &= arg
	case syntax.OrAssgn:
		val |= arg
	case syntax.XorAssgn:
		val ^= arg
	case syntax.ShlAssgn:
		val <<= uint(arg) & 63
	case syntax.ShrAssgn:
		val >>= uint(arg) & 63
	}
	if err := cfg.envSet(name, strconv.FormatInt(val, 10)); err != nil {
		return 0, err
	}
	return int(val), nil
}

func intPow(a, b int) int {
	p := 1
	for b > 0 {
		if b&1 != 0 {
			p *= a
		}
		b >>= 1
		a *= a
	}
	return p
}

func binArit(op syntax.BinAritOperator, x, y int) (int, error) {
	switch op {
	case syntax.Add:
		return x + y, nil
	case syntax.Sub:
		return x - y, nil
	case syntax.Mul:
		return x * y, nil
	case syntax.Quo:
		if y == 0 {
			return 0, errDivZero
		}
		return x / y, nil
	case syntax.Rem:
		if y == 0 {
			return 0, errDivZero
		}
		return x % y, nil
	case syntax.Pow:
		if y < 0 {
			return 0, errNegExponent
		}
		return intPow(x, y), nil
	case syntax.Eql:
		return oneIf(x == y), nil
	case syntax.Gtr:
		return oneIf(x > y), nil
	case syntax.Lss:
		return oneIf(x < y), nil
	case syntax.Neq:
		return oneIf(x != y), nil
	case syntax.Leq:
		return oneIf(x <= y), nil
	case syntax.Geq:
		return oneIf(x >= y), nil
	case syntax.And:
		return x & y, nil
	case syntax.Or:
		return x | y, nil
	case syntax.Xor:
		return x ^ y, nil
	case syntax.Shr:
		// sandsh: the count is taken mod 64, as bash gets it from the
		// CPU: $((1<<64)) is 1, $((1<<-1)) is the sign bit.
		return x >> (uint(y) & 63), nil
	case syntax.Shl:
		return x << (uint(y) & 63), nil
	case syntax.Comma:
		// x is executed but its result discarded
		return y, nil
	default:
		return 0, fmt.Errorf("unsupported binary arithmetic operator: %q", op)
	}
}

// isElemRef reports whether s names an array element, like a[1] or m[k].
func isElemRef(s string) bool {
	i := strings.IndexByte(s, '[')
	return i > 0 && subscriptEnd(s, i) == len(s)-1 && syntax.ValidName(s[:i])
}

// elemIndexText evaluates the subscript of str, an element reference,
// when it is plain text (bash expands one with expansions or quotes
// first), and gives the reference back with a number for a subscript:
// an error in the subscript is then bash's ("1/0: division by 0"),
// where the environment would read element 0. An associative array's
// key, @ and * stay as they are.
func (cfg *Config) elemIndexText(str string) (string, error) {
	i := strings.IndexByte(str, '[')
	name, sub := str[:i], str[i+1:len(str)-1]
	if _, ok := plainDecimal(sub); ok || sub == "@" || sub == "*" ||
		strings.ContainsAny(sub, "$`'\"\\") || cfg.Env.Get(name).Kind == Associative {
		return str, nil
	}
	n, err := cfg.arithText(sub)
	if err != nil {
		return "", err
	}
	return name + "[" + strconv.Itoa(n) + "]", nil
}

// plainDecimal reads the commonest value by far, a decimal number of at
// most 18 digits with no sign, blank or leading zero (sandsh), which
// cannot overflow; ok is false for anything else.
func plainDecimal(s string) (int64, bool) {
	if len(s) == 0 || len(s) > 18 || s[0] == '0' && len(s) > 1 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// arithName is the variable an arithmetic assignment writes: a plain
// name, or an element like a[i+1] or m[$key] with the subscript's
// expansions done (sandsh: upstream only handled literal names).
func (cfg *Config) arithName(x syntax.ArithmExpr, op string) (name string, err error) {
	w, ok := x.(*syntax.Word)
	if !ok {
		// as in --x++, which the parser takes as --(x++)
		return "", &arithLvalueError{op: op}
	}
	defer func() {
		if err == nil && !syntax.ValidName(name) && !isElemRef(name) {
			// as in (( 1[2] = 3 )), which parses but assigns nothing
			err = fmt.Errorf("%s: attempted assignment to non-variable", name)
		}
	}()
	if lit := w.Lit(); lit != "" {
		return lit, nil
	}
	if len(w.Parts) == 1 {
		if pe, ok := w.Parts[0].(*syntax.ParamExp); ok && pe.Param != nil && pe.Index != nil {
			name := pe.Param.Value
			if vr := cfg.Env.Get(name); vr.Kind == Associative {
				key, err := Literal(cfg, pe.Index.(*syntax.Word))
				if err != nil {
					return "", err
				}
				return name + "[" + key + "]", nil
			}
			n, err := arithm(cfg, pe.Index)
			if err != nil {
				return "", err
			}
			return name + "[" + strconv.Itoa(n) + "]", nil
		}
	}
	return Literal(cfg, w)
}

// parseConst parses s as bash reads an integer constant: a plain
// decimal, 0x hex, 0 octal or base#n number, with an optional sign. ok is
// false when s is not one at all (a name, an expression); err is set for
// one that is malformed, which bash refuses (09, 0x1X, 2#A, 42x) rather
// than reading what it can.
func parseConst(s string) (n int64, ok bool, err error) {
	if n, ok := plainDecimal(s); ok {
		return n, true, nil
	}
	s = strings.Trim(s, arithBlanks)
	if s == "" {
		return 0, true, nil
	}
	t := strings.TrimLeft(s, "+-")
	if t == "" || t[0] < '0' || t[0] > '9' {
		return 0, false, nil
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '#' || c == '@' || c == '_') {
			return 0, false, nil
		}
	}
	bad := func(why string) (int64, bool, error) {
		return 0, true, fmt.Errorf("%s: %s (error token is \"%s\")", t, why, t)
	}
	base, digits := uint64(10), t
	switch {
	case strings.Contains(t, "#"):
		b, rest, _ := strings.Cut(t, "#")
		if b[0] == '0' {
			return bad("invalid number")
		}
		nb, perr := strconv.ParseUint(b, 10, 8)
		if perr != nil || nb < 2 || nb > 64 {
			return bad("invalid arithmetic base")
		}
		if rest == "" {
			return bad("invalid integer constant")
		}
		base, digits = nb, rest
	case len(t) > 1 && (t[1] == 'x' || t[1] == 'X') && t[0] == '0':
		base, digits = 16, t[2:]
	case t[0] == '0':
		base = 8
	}
	var u uint64
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		var d uint64
		switch {
		case c >= '0' && c <= '9':
			d = uint64(c - '0')
		case c >= 'a' && c <= 'z':
			d = uint64(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			d = uint64(c - 'A')
			if base > 36 {
				d += 36
			} else {
				d += 10
			}
		case c == '@':
			d = 62
		case c == '_':
			d = 63
		default:
			return bad("invalid number")
		}
		if d >= base {
			return bad("value too great for base")
		}
		u = u*base + d // wraps around, as in bash
	}
	n = int64(u)
	if strings.Count(s[:len(s)-len(t)], "-")%2 == 1 {
		n = -n
	}
	return n, true, nil
}

// parseInt parses a plain decimal, 0x hex, 0 octal or base#n integer.
func parseInt(s string) (int64, bool) {
	s = strings.Trim(s, arithBlanks)
	if s == "" {
		return 0, true
	}
	t := strings.TrimLeft(s, "+-")
	if t == "" {
		return 0, false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '#' || c == '@' || c == '_') {
			return 0, false
		}
	}
	if t[0] < '0' || t[0] > '9' {
		return 0, false
	}
	return atoi(s), true
}

// maxArithDepth bounds how deeply values may refer to other expressions.
const maxArithDepth = 1024

// ArithText evaluates s, text found in a value (an operand of [[ -eq ]]),
// as an expression the way a variable's value is read inside one: an
// expansion in it is an error, and a command substitution in a subscript
// is not run.
func ArithText(cfg *Config, s string) (int, error) {
	cfg = prepareConfig(cfg)
	n, err := cfg.arithText(s)
	var ae *ArithmError
	if err != nil && !errors.As(err, new(UnsetParameterError)) && !errors.As(err, &ae) {
		err = &ArithmError{err}
	}
	return n, err
}

// arithText evaluates text found in a variable as an expression.
func (cfg *Config) arithText(s string) (int, error) {
	if cfg.arithDepth >= maxArithDepth {
		return 0, fmt.Errorf("%s: expression recursion level exceeded", shorten(s))
	}
	x := cfg.Arith.get(s)
	if x == nil {
		if err := CheckArithSyntax(s); err != nil {
			return 0, err
		}
		var err error
		x, err = syntax.NewParser().Arithmetic(parseguard.String(nil, s))
		if errors.Is(err, parseguard.ErrTooDeep) {
			return 0, fmt.Errorf("%s: expression recursion level exceeded", shorten(s))
		}
		if err != nil || x == nil || !ArithConsumed(x, s) { // nil: only a comment, as in a[#]
			return 0, fmt.Errorf("%s: syntax error in expression", s)
		}
		if err := expandedTextErr(x, s); err != nil {
			return 0, err
		}
		cfg.Arith.put(s, x)
	}
	cfg.arithDepth++
	defer func() { cfg.arithDepth-- }()
	n, err := arithm(cfg, x)
	var ee *arithEvalError
	if err != nil && errors.As(err, &ee) && ee.text == "" {
		ee.name(s, 0)
	}
	return n, err
}

// expandedTextErr refuses an expansion or a quote in arithmetic text that
// was itself expanded (a variable's value, or an expression after its
// expansions), as bash does: it expands only once, so "$y" or "$(cmd)"
// there is no operand, and no command runs. An element reference's
// subscript is the exception: a[$i] is expanded when it is read.
func expandedTextErr(x syntax.ArithmExpr, s string) error {
	w := firstExpandingWord(x)
	if w == nil {
		return nil
	}
	off := min(int(w.Pos().Offset()), len(s))
	return fmt.Errorf("%s: syntax error: operand expected (error token is \"%s\")", s, s[off:])
}

// firstExpandingWord is the leftmost word of x with more than a literal
// or a name (with a subscript or not), or nil.
func firstExpandingWord(x syntax.ArithmExpr) *syntax.Word {
	switch x := x.(type) {
	case *syntax.Word:
		for _, wp := range x.Parts {
			switch wp := wp.(type) {
			case *syntax.Lit:
			case *syntax.ParamExp:
				if wp.Dollar.IsValid() {
					return x
				}
			default:
				return x
			}
		}
	case *syntax.BinaryArithm:
		if w := firstExpandingWord(x.X); w != nil {
			return w
		}
		return firstExpandingWord(x.Y)
	case *syntax.UnaryArithm:
		return firstExpandingWord(x.X)
	case *syntax.ParenArithm:
		return firstExpandingWord(x.X)
	}
	return nil
}

// shorten keeps error messages one readable line.
func shorten(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// ArithConsumed reports whether x, parsed from s, covers all of s: the
// parser stops after one expression, and bash refuses "12 34".
func ArithConsumed(x syntax.ArithmExpr, s string) bool {
	end := x.End()
	return !end.IsValid() || int(end.Offset()) >= len(strings.TrimRight(s, " \t\n"))
}

// ArithCache maps arithmetic text to its parsed expression. Evaluation
// never changes a syntax tree, so one tree serves every evaluation of the
// same text; only texts that parsed are kept. It is safe for concurrent
// use (pipeline stages share it) and bounded.
type ArithCache struct {
	mu sync.Mutex
	m  map[string]syntax.ArithmExpr
}

// arithCacheMax bounds the entries of an ArithCache, and arithCacheText
// the length of a text it keeps, so a script cannot grow it without end.
const (
	arithCacheMax  = 1024
	arithCacheText = 256
)

func (c *ArithCache) get(s string) syntax.ArithmExpr {
	if c == nil || len(s) > arithCacheText {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[s]
}

func (c *ArithCache) put(s string, x syntax.ArithmExpr) {
	if c == nil || len(s) > arithCacheText {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= arithCacheMax {
		c.m = make(map[string]syntax.ArithmExpr)
	}
	c.m[s] = x
}

// arithBlanks are the characters bash's arithmetic skips between tokens
// (expr.c's cr_whitespace): not \r, \v or \f, which make an error.
const arithBlanks = " \t\n"
