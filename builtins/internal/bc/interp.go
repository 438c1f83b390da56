package bc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/sandsh/sandsh/builtins/internal/guard"
	"io"
	"strings"
)

// Config is what an Interp needs from its host.
type Config struct {
	Stdout io.Writer
	Stderr io.Writer
	// Stdin feeds read(); nil makes read() fail.
	Stdin io.Reader
	// LineLength is BC_LINE_LENGTH: output lines are split with a
	// backslash before this many characters; 0 turns splitting off.
	LineLength int
	// MathLib loads the -l library and sets scale to 20.
	MathLib bool
}

// Limits that keep a script from exhausting the host.
const (
	maxCallDepth = 10000
	maxArrayDim  = 16777215
)

// Interp runs bc programs. Its variables and functions persist across
// Run calls, like the files and stdin of one bc process.
type Interp struct {
	cfg   Config
	out   *bufio.Writer
	col   int
	ctx   context.Context
	stdin *bufio.Reader

	scale, ibase, obase int
	last                *Num

	vars  map[string][]*Num
	arrs  map[string][]*array
	funcs map[string]*funcDef

	lexer  *lexer // the lexer reading stdin as the program, if any
	fname  string // the running function, for messages
	depth  int
	retVal *Num // value of the return being unwound
	ticks  int
	halt   bool
}

// array is a bc array: a sparse map from index to value.
type array struct{ m map[int64]*Num }

func newArray() *array { return &array{m: map[int64]*Num{}} }

func (a *array) clone() *array {
	c := newArray()
	for k, v := range a.m {
		c.m[k] = v
	}
	return c
}

// New returns an interpreter; with cfg.MathLib the library is loaded.
func New(cfg Config) *Interp {
	in := &Interp{cfg: cfg, out: bufio.NewWriterSize(cfg.Stdout, 32<<10), ibase: 10, obase: 10,
		last: zero(), vars: map[string][]*Num{}, arrs: map[string][]*array{}, funcs: map[string]*funcDef{}}
	if cfg.Stdin != nil {
		in.stdin = bufio.NewReader(cfg.Stdin)
	}
	if cfg.MathLib {
		in.Run(context.Background(), "libmath", strings.NewReader(mathLib))
		in.scale = 20
	}
	return in
}

// ErrHalt reports that the program ran quit or halt.
var ErrHalt = errors.New("bc: halt")

// runtimeError aborts the current chunk.
type runtimeError struct{ msg string }

// stopError aborts everything (cancellation, write failure).
type stopError struct{ err error }

// Run reads and runs the program in r; name labels syntax errors. It
// returns ErrHalt after quit or halt, a context error when cancelled, or
// a write error.
func (in *Interp) Run(ctx context.Context, name string, r io.Reader) error {
	return in.run(ctx, name, newLexer(bufio.NewReaderSize(r, 64<<10)), false)
}

// RunStdin runs the program on Config.Stdin, from which read() then takes
// its lines too.
func (in *Interp) RunStdin(ctx context.Context) error {
	if in.stdin == nil {
		return nil
	}
	return in.run(ctx, "(standard_in)", newLexer(in.stdin), true)
}

func (in *Interp) run(ctx context.Context, name string, lx *lexer, isStdin bool) (err error) {
	in.ctx = ctx
	p := &parser{lx: lx}
	p.defined = func(f *funcDef) { in.funcs[f.name] = f }
	defer func() {
		if ferr := in.out.Flush(); err == nil && ferr != nil {
			err = ferr
		}
	}()
	saveLexer := in.lexer
	in.lexer = nil
	if isStdin {
		in.lexer = lx
	}
	defer func() { in.lexer = saveLexer }()
	p.next()
	for p.tok.kind != tEOF {
		chunk, quit := in.parseChunk(p, name)
		if quit {
			return ErrHalt
		}
		if err := in.exec(chunk); err != nil {
			return err
		}
		if in.halt {
			return ErrHalt
		}
		if p.tok.kind == tNewline {
			p.next()
		}
	}
	return nil
}

// parseChunk parses the next top-level chunk, reporting syntax errors and
// skipping to the end of the offending line.
func (in *Interp) parseChunk(p *parser, name string) (list []stmt, quit bool) {
	defer func() {
		switch e := recover().(type) {
		case nil:
		case quitSignal:
			quit = true
		case *syntaxError:
			in.out.Flush()
			fmt.Fprintf(in.cfg.Stderr, "%s %d: %s\n", name, e.line, e.msg)
			list = nil
			p.inFunc, p.loops, p.back = false, 0, nil
			if e.tok.kind != tNewline {
				for p.tok.kind != tNewline && p.tok.kind != tEOF {
					p.next()
				}
			}
		default:
			panic(e)
		}
	}()
	return p.chunk(), false
}

// exec runs one chunk; a runtime error ends the chunk, not the program.
func (in *Interp) exec(list []stmt) (err error) {
	defer func() {
		switch e := recover().(type) {
		case nil:
		case *runtimeError:
			in.out.Flush()
			fmt.Fprintf(in.cfg.Stderr, "Runtime error (func=%s, adr=0): %s\n", in.funcName(), e.msg)
			in.fname, in.depth = "", 0
		case *stopError:
			err = e.err
		default:
			panic(e)
		}
	}()
	for _, s := range list {
		if c := in.stmt(s); c != ctlNone {
			break
		}
		if in.halt {
			break
		}
	}
	return nil
}

func (in *Interp) funcName() string {
	if in.fname == "" {
		return "(main)"
	}
	return in.fname
}

func (in *Interp) fail(format string, a ...any) {
	panic(&runtimeError{fmt.Sprintf(format, a...)})
}

func (in *Interp) warn(format string, a ...any) {
	in.out.Flush()
	fmt.Fprintf(in.cfg.Stderr, "Runtime warning (func=%s, adr=0): %s\n", in.funcName(), fmt.Sprintf(format, a...))
}

// tick checks for cancellation every so often in loops and calls.
func (in *Interp) tick() {
	in.ticks++
	if in.ticks&1023 == 0 && in.ctx != nil {
		if err := in.ctx.Err(); err != nil {
			panic(&stopError{err})
		}
	}
}

// Output, with GNU bc's line splitting.

func (in *Interp) outChar(c byte) {
	if c == '\n' {
		in.col = 0
	} else {
		in.col++
		if in.cfg.LineLength > 0 && in.col == in.cfg.LineLength-1 {
			in.out.WriteString("\\\n")
			in.col = 1
		}
	}
	if err := in.out.WriteByte(c); err != nil {
		panic(&stopError{err})
	}
}

func (in *Interp) outString(s string) {
	for i := 0; i < len(s); i++ {
		in.outChar(s[i])
	}
}

func (in *Interp) outNum(n *Num) { in.outString(format(n, in.obase, in.checkCtx)) }

// checkCtx stops the run at once when it was cancelled.
func (in *Interp) checkCtx() {
	if in.ctx != nil {
		if err := in.ctx.Err(); err != nil {
			panic(&stopError{err})
		}
	}
}

// Control flow out of statements.
type ctl int

const (
	ctlNone ctl = iota
	ctlBreak
	ctlContinue
	ctlReturn
)

func (in *Interp) stmt(s stmt) ctl {
	in.tick()
	switch s := s.(type) {
	case *exprStmt:
		v := in.eval(s.x)
		if _, ok := s.x.(*assign); !ok {
			in.outNum(v)
			in.outChar('\n')
			in.last = v
		}
	case *strStmt:
		in.outString(s.s)
	case *printStmt:
		for _, it := range s.items {
			if it.isStr {
				in.outString(printEscapes(it.s))
			} else {
				v := in.eval(it.x)
				in.outNum(v)
				in.last = v
			}
		}
	case *block:
		for _, x := range s.list {
			if c := in.stmt(x); c != ctlNone {
				return c
			}
			if in.halt {
				return ctlBreak
			}
		}
	case *ifStmt:
		if !in.eval(s.cond).IsZero() {
			return in.stmtOpt(s.then)
		} else if s.els != nil {
			return in.stmtOpt(s.els)
		}
	case *whileStmt:
		for !in.eval(s.cond).IsZero() {
			if c := in.stmtOpt(s.body); c == ctlBreak || c == ctlReturn || in.halt {
				if c == ctlReturn {
					return c
				}
				break
			}
			in.tick()
		}
	case *forStmt:
		if s.init != nil {
			in.eval(s.init)
		}
		for s.cond == nil || !in.eval(s.cond).IsZero() {
			if c := in.stmtOpt(s.body); c == ctlBreak || c == ctlReturn || in.halt {
				if c == ctlReturn {
					return c
				}
				break
			}
			if s.post != nil {
				in.eval(s.post)
			}
			in.tick()
		}
	case *breakStmt:
		return ctlBreak
	case *continueStmt:
		return ctlContinue
	case *returnStmt:
		v := zero()
		if s.x != nil {
			v = in.eval(s.x)
		}
		in.retVal = v
		return ctlReturn
	case *haltStmt:
		in.halt = true
	case *limitsStmt:
		in.outString("BC_BASE_MAX     = 2147483647\nBC_DIM_MAX      = 16777215\nBC_SCALE_MAX    = 2147483647\n" +
			"BC_STRING_MAX   = 2147483647\nMAX Exponent    = 9223372036854775807\nNumber of vars  = 32767\n")
	case *warrantyStmt:
		in.outString("sandsh bc: an implementation of the bc language; no warranty.\n")
	}
	return ctlNone
}

func (in *Interp) stmtOpt(s stmt) ctl {
	if s == nil {
		return ctlNone
	}
	return in.stmt(s)
}

// printEscapes expands print's escapes; unknown ones vanish, as in GNU bc.
func printEscapes(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'f':
			b.WriteByte(12)
		case 'n':
			b.WriteByte('\n')
		case 'q':
			b.WriteByte('"')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case '\\':
			b.WriteByte('\\')
		}
	}
	return b.String()
}

// Variables, with dynamic scoping: each name has a stack of bindings.

func (in *Interp) getVar(name string) *Num {
	if st := in.vars[name]; len(st) > 0 {
		return st[len(st)-1]
	}
	return zero()
}

func (in *Interp) setVar(name string, v *Num) {
	st := in.vars[name]
	if len(st) == 0 {
		in.vars[name] = []*Num{v}
		return
	}
	st[len(st)-1] = v
}

func (in *Interp) getArray(name string) *array {
	st := in.arrs[name]
	if len(st) == 0 {
		a := newArray()
		in.arrs[name] = []*array{a}
		return a
	}
	return st[len(st)-1]
}

func (in *Interp) index(name string, e expr) int64 {
	v := in.eval(e)
	i, ok := v.Int64()
	if !ok || i < 0 || i > maxArrayDim {
		in.fail("Array %s subscript out of bounds.", name)
	}
	return i
}

func (in *Interp) getSpecial(name string) *Num {
	switch name {
	case "scale":
		return Int(int64(in.scale))
	case "ibase":
		return Int(int64(in.ibase))
	case "obase":
		return Int(int64(in.obase))
	}
	return in.last
}

func (in *Interp) setSpecial(name string, v *Num) *Num {
	if name == "last" {
		in.last = v
		return v
	}
	n, ok := v.Int64()
	if !ok {
		n = 1 << 40
		if v.Sign() < 0 {
			n = -n
		}
	}
	switch name {
	case "scale":
		if n < 0 {
			in.warn("negative scale, set to 0")
			n = 0
		}
		if n > 1<<31-1 {
			in.warn("scale too large, set to %d", 1<<31-1)
			n = 1<<31 - 1
		}
		in.scale = int(n)
	case "ibase":
		if n < 2 {
			in.warn("ibase too small, set to 2")
			n = 2
		} else if n > 16 {
			in.warn("ibase too large, set to 16")
			n = 16
		}
		in.ibase = int(n)
	case "obase":
		if n < 2 {
			in.warn("obase too small, set to 2")
			n = 2
		} else if n > 1<<31-1 {
			in.warn("obase too large, set to %d", 1<<31-1)
			n = 1<<31 - 1
		}
		in.obase = int(n)
	}
	return Int(n)
}

// load and store work on the named expressions assignment accepts.
func (in *Interp) load(e expr) *Num {
	switch e := e.(type) {
	case *varRef:
		return in.getVar(e.name)
	case *elemRef:
		i := in.index(e.name, e.index)
		if v, ok := in.getArray(e.name).m[i]; ok {
			return v
		}
		return zero()
	case *special:
		return in.getSpecial(e.name)
	}
	panic("bc: load of unnamed expression")
}

func (in *Interp) store(e expr, v *Num) *Num {
	in.checkSize(v)
	switch e := e.(type) {
	case *varRef:
		in.setVar(e.name, v)
	case *elemRef:
		i := in.index(e.name, e.index)
		in.getArray(e.name).m[i] = v
	case *special:
		return in.setSpecial(e.name, v)
	}
	return v
}

func (in *Interp) checkSize(v *Num) {
	if v.digits() > maxDigits || v.scale > maxDigits {
		in.fail("number too large")
	}
}

func (in *Interp) eval(e expr) *Num {
	switch e := e.(type) {
	case *numLit:
		if e.cache == nil || e.base != in.ibase {
			e.cache, e.base = parseLiteral(e.text, in.ibase), in.ibase
		}
		return e.cache
	case *varRef, *elemRef, *special:
		return in.load(e)
	case *paren:
		return in.eval(e.x)
	case *unary:
		v := in.eval(e.x)
		if e.op == "-" {
			return Neg(v)
		}
		return boolNum(v.IsZero())
	case *binary:
		return in.binary(e)
	case *assign:
		v := in.eval(e.rhs)
		if e.op != "=" {
			v = in.arith(e.op[:1], in.load(e.lhs), v)
		}
		return in.store(e.lhs, v)
	case *incDec:
		old := in.load(e.x)
		nv := Add(old, Int(1))
		if e.op == "--" {
			nv = Sub(old, Int(1))
		}
		stored := in.store(e.x, nv)
		if e.prefix {
			return stored
		}
		return old
	case *callExpr:
		return in.call(e)
	case *builtinCall:
		v := in.eval(e.x)
		switch e.name {
		case "length":
			return Int(int64(Length(v)))
		case "scale":
			return Int(int64(v.scale))
		}
		if v.Sign() < 0 {
			in.fail("Square root of a negative number")
		}
		if in.scale > maxDigits {
			in.fail("scale too large")
		}
		r := Sqrt(v, in.scale)
		in.checkSize(r)
		return r
	case *readCall:
		return in.read()
	}
	panic(fmt.Sprintf("bc: unknown expression %T", e))
}

func boolNum(b bool) *Num {
	if b {
		return Int(1)
	}
	return zero()
}

func (in *Interp) binary(e *binary) *Num {
	switch e.op {
	case "&&":
		if in.eval(e.x).IsZero() {
			return zero()
		}
		return boolNum(!in.eval(e.y).IsZero())
	case "||":
		if !in.eval(e.x).IsZero() {
			return Int(1)
		}
		return boolNum(!in.eval(e.y).IsZero())
	}
	a, b := in.eval(e.x), in.eval(e.y)
	switch e.op {
	case "==":
		return boolNum(Cmp(a, b) == 0)
	case "!=":
		return boolNum(Cmp(a, b) != 0)
	case "<":
		return boolNum(Cmp(a, b) < 0)
	case "<=":
		return boolNum(Cmp(a, b) <= 0)
	case ">":
		return boolNum(Cmp(a, b) > 0)
	case ">=":
		return boolNum(Cmp(a, b) >= 0)
	}
	return in.arith(e.op, a, b)
}

// arith applies an arithmetic operator with bc's scale rules.
func (in *Interp) arith(op string, a, b *Num) *Num {
	if in.scale > maxDigits && (op == "/" || op == "%" || op == "^") {
		in.fail("scale too large")
	}
	var r *Num
	ok := true
	switch op {
	case "+":
		r = Add(a, b)
	case "-":
		r = Sub(a, b)
	case "*":
		r = Mul(a, b, in.scale)
	case "/":
		if r, ok = Div(a, b, in.scale); !ok {
			in.fail("Divide by zero")
		}
	case "%":
		if r, ok = Mod(a, b, in.scale); !ok {
			in.fail("Modulo by zero")
		}
	case "^":
		r = in.pow(a, b)
	}
	in.checkSize(r)
	return r
}

func (in *Interp) pow(a, b *Num) *Num {
	if b.scale > 0 && !b.truncTo(0).extendTo(b.scale).equal(b) {
		in.warn("non-zero scale in exponent")
	}
	e, ok := b.Int64()
	if !ok || e > 1<<31-1 || e < -(1<<31-1) {
		in.fail("exponent too large in raise")
	}
	if a.IsZero() && e < 0 {
		in.fail("divide by zero")
	}
	if d := float64(a.digits()) * float64(max(e, -e)); d > maxDigits && !a.isPowerOfOne() {
		in.fail("exponent too large in raise")
	}
	// A power of up to maxDigits digits takes seconds inside big.Int,
	// which cannot check a context: a big one runs where it can be
	// abandoned when the run is cancelled.
	type powResult struct {
		r  *Num
		ok bool
	}
	size := int(min(8*float64(a.digits())*float64(max(e, -e)), 8*maxDigits)) // the work grows faster than the digits
	res, err := guard.Interruptible(in.ctx, size, func() powResult {
		r, ok := Pow(a, e, in.scale)
		return powResult{r, ok}
	})
	if err != nil {
		panic(&stopError{err})
	}
	if !res.ok {
		in.fail("divide by zero")
	}
	return res.r
}

func (n *Num) equal(o *Num) bool { return n.scale == o.scale && n.v.Cmp(o.v) == 0 }

// isPowerOfOne reports |n| ∈ {0, 1}, whose powers stay small.
func (n *Num) isPowerOfOne() bool {
	return n.IsZero() || n.scale == 0 && (n.v.IsInt64() && (n.v.Int64() == 1 || n.v.Int64() == -1))
}

// call runs a user function with bc's dynamic scoping: parameters and
// autos shadow same-named variables for the duration of the call.
func (in *Interp) call(c *callExpr) *Num {
	f, ok := in.funcs[c.name]
	if !ok {
		in.fail("Function %s not defined.", c.name)
	}
	if len(c.args) != len(f.params) {
		in.fail("Parameter number mismatch")
	}
	if in.depth >= maxCallDepth {
		in.fail("Function call nesting too deep")
	}
	// Evaluate arguments in the caller's scope first.
	vals := make([]*Num, len(c.args))
	arrs := make([]*array, len(c.args))
	for i, a := range c.args {
		p := f.params[i]
		switch {
		case p.array && a.array == "":
			in.fail("Parameter type mismatch, parameter %s.", p.name)
		case !p.array && a.array != "":
			in.fail("Parameter type mismatch, parameter %s.", p.name)
		case p.array && p.ref:
			arrs[i] = in.getArray(a.array)
		case p.array:
			arrs[i] = in.getArray(a.array).clone()
		default:
			vals[i] = in.eval(a.x)
		}
	}
	for i, p := range f.params {
		if p.array {
			in.arrs[p.name] = append(in.arrs[p.name], arrs[i])
		} else {
			in.vars[p.name] = append(in.vars[p.name], vals[i])
		}
	}
	for _, a := range f.autos {
		if a.array {
			in.arrs[a.name] = append(in.arrs[a.name], newArray())
		} else {
			in.vars[a.name] = append(in.vars[a.name], zero())
		}
	}
	saveName := in.fname
	in.fname = f.name
	in.depth++
	defer func() {
		in.depth--
		in.fname = saveName
		for _, p := range append(append([]param(nil), f.params...), f.autos...) {
			if p.array {
				st := in.arrs[p.name]
				in.arrs[p.name] = st[:len(st)-1]
			} else {
				st := in.vars[p.name]
				in.vars[p.name] = st[:len(st)-1]
			}
		}
	}()
	in.retVal = zero()
	for _, s := range f.body {
		if c := in.stmt(s); c == ctlReturn {
			return in.retVal
		} else if c != ctlNone || in.halt {
			break
		}
	}
	return zero()
}

// read evaluates a number typed on stdin.
func (in *Interp) read() *Num {
	var line string
	var err error
	switch {
	case in.lexer != nil:
		line, err = in.lexer.readLine()
	case in.stdin != nil:
		line, err = in.stdin.ReadString('\n')
	default:
		in.fail("read() needs standard input")
	}
	line = strings.TrimSpace(line)
	if line == "" && err != nil {
		in.fail("read() at end of input")
	}
	neg := strings.HasPrefix(line, "-")
	line = strings.TrimPrefix(line, "-")
	for i := 0; i < len(line); i++ {
		if !isNumChar(line[i]) && line[i] != '.' {
			in.fail("read() expects a number")
		}
	}
	v := parseLiteral(line, in.ibase)
	if neg {
		v = Neg(v)
	}
	return v
}
