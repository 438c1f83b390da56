package builtins

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/sandsh/sandsh/builtins/internal/cfloat"
)

const seqUsage = `Usage: seq [OPTION]... LAST
  or:  seq [OPTION]... FIRST LAST
  or:  seq [OPTION]... FIRST INCREMENT LAST
Print numbers from FIRST to LAST, in steps of INCREMENT.

  -f, --format=FORMAT      use printf style floating-point FORMAT
  -s, --separator=STRING   use STRING to separate numbers (default: \n)
  -w, --equal-width        equalize width by padding with leading zeroes
      --help     display this help and exit
`

// seqFastStepLimit is the largest step GNU seq's exact integer path takes.
const seqFastStepLimit = 200

// seqOperand is one numeric operand with the width and precision its
// spelling implies (GNU seq's scan_arg).
type seqOperand struct {
	value cfloat.LD
	width int
	prec  int // -1: not fixed point
}

// seqLayout is a -f format split around its one conversion.
type seqLayout struct {
	prefix, suffix string
	minus, zero    bool
	plus, space    bool
	hash           bool
	width, prec    int
	verb           byte
}

// seqOptions are the parsed flags.
type seqOptions struct {
	format     string
	hasFormat  bool
	sep        string
	equalWidth bool
}

func runSeq(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	opts, ops, err := seqParseArgs(args[1:])
	if err != nil {
		return env.UsageError(name, err, 1)
	}
	switch {
	case len(ops) == 0:
		return env.UsageError(name, fmt.Errorf("missing operand"), 1)
	case len(ops) > 3:
		return env.UsageError(name, fmt.Errorf("extra operand %s", shellQuoteGNU(ops[3])), 1)
	}
	var layout *seqLayout
	if opts.hasFormat {
		if layout, err = seqParseFormat(opts.format); err != nil {
			env.Errorf(name, "%v", err)
			return 1
		}
		if opts.equalWidth {
			return env.UsageError(name, fmt.Errorf("format string may not be specified when printing equal width strings"), 1)
		}
	}
	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	s := &seqRun{ctx: ctx, w: w, sep: opts.sep}
	if layout == nil && !opts.equalWidth && len(opts.sep) == 1 {
		if first, last, step, ok := seqFastArgs(ops); ok {
			if done := s.fast(first, last, step); done {
				return s.finish(env, name)
			}
		}
	}
	vals := make([]seqOperand, len(ops))
	for i, op := range ops {
		v, err := seqScan(op)
		if err != nil {
			return env.UsageError(name, err, 1)
		}
		vals[i] = v
		if i == 1 && len(ops) == 3 && v.value.F.Sign() == 0 {
			return env.UsageError(name, fmt.Errorf("invalid Zero increment value: %s", shellQuoteGNU(op)), 1)
		}
	}
	first := seqOperand{value: cfloat.FromInt(1), width: 1}
	step := first
	last := vals[len(vals)-1]
	if len(vals) >= 2 {
		first = vals[0]
	}
	if len(vals) == 3 {
		step = vals[1]
	}
	if layout == nil && !opts.equalWidth && len(opts.sep) == 1 && first.prec == 0 && step.prec == 0 && last.prec == 0 &&
		!first.value.F.IsInf() && first.value.F.Sign() >= 0 && last.value.F.Sign() >= 0 && step.value.F.Sign() > 0 &&
		step.value.F.Cmp(big.NewFloat(seqFastStepLimit)) <= 0 {
		a := first.value.F.Text('f', 0)
		b := "inf"
		if !last.value.F.IsInf() {
			b = last.value.F.Text('f', 0)
		}
		st, _ := step.value.F.Uint64()
		if s.fast(a, b, st) {
			return s.finish(env, name)
		}
	}
	if layout == nil {
		layout = seqDefaultLayout(first, step, last, opts.equalWidth)
	}
	s.layout = layout
	s.numbers(first.value.F, step.value.F, last.value.F)
	return s.finish(env, name)
}

var seqGetopt = Getopt{Short: "f:s:w", Long: []string{"format=", "separator=", "equal-width"},
	LongAlias: map[string]string{"format": "f", "separator": "s", "equal-width": "w"}}

// seqParseArgs parses options up to the first operand; an argument like
// -1 or -.5 is a negative number, not an option.
func seqParseArgs(args []string) (seqOptions, []string, error) {
	o := seqOptions{sep: "\n"}
	g := seqGetopt
	i := 0
	for i < len(args) {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' || a[1] == '.' || a[1] >= '0' && a[1] <= '9' {
			break
		}
		// Parse this one option, with the next argument as its value when
		// it needs one.
		opts, _, err := g.Parse(args[i : i+1])
		consumed := 1
		if err != nil && i+1 < len(args) && strings.Contains(err.Error(), "requires an argument") {
			opts, _, err = g.Parse(args[i : i+2])
			consumed = 2
		}
		if err != nil {
			return o, nil, err
		}
		for _, op := range opts {
			switch op.Name {
			case "f":
				o.format, o.hasFormat = op.Value, true
			case "s":
				o.sep = op.Value
			case "w":
				o.equalWidth = true
			}
		}
		i += consumed
	}
	return o, args[i:], nil
}

// seqScan parses an operand and derives its print width and precision.
func seqScan(arg string) (seqOperand, error) {
	v, n, erange := cfloat.Parse(arg)
	if n == 0 || n < len(arg) || erange && (v.F == nil || v.F.Sign() != 0) {
		return seqOperand{}, fmt.Errorf("invalid floating point argument: %s", shellQuoteGNU(arg))
	}
	if v.NaN() {
		return seqOperand{}, fmt.Errorf("invalid 'not-a-number' argument: %s", shellQuoteGNU(arg))
	}
	s := strings.TrimLeft(arg, " \t\n\v\f\r+")
	op := seqOperand{value: v, prec: -1}
	dot := strings.IndexByte(s, '.')
	if dot < 0 && !strings.ContainsRune(s, 'p') {
		op.prec = 0
	}
	if strings.ContainsAny(s, "xX") || v.F.IsInf() {
		return op, nil
	}
	op.width = len(s)
	frac := 0
	if dot >= 0 {
		frac = strings.IndexAny(s[dot+1:], "eE")
		if frac < 0 {
			frac = len(s) - dot - 1
		}
		op.prec = frac
		switch {
		case frac == 0:
			op.width--
		case dot == 0 || s[dot-1] < '0' || s[dot-1] > '9':
			op.width++
		}
	}
	e := strings.IndexAny(s, "eE")
	if e < 0 {
		return op, nil
	}
	exp, _ := strconv.Atoi(seqLeadingInt(s[e+1:]))
	if exp < 0 {
		op.prec += -exp
	} else {
		op.prec -= min(op.prec, exp)
	}
	op.width -= len(s) - e
	if exp < 0 {
		if dot >= 0 {
			if e == dot+1 {
				op.width++
			}
		} else {
			op.width++
		}
		exp = -exp
	} else {
		if dot >= 0 && op.prec == 0 && frac > 0 {
			op.width--
		}
		exp -= min(frac, exp)
	}
	op.width += exp
	return op, nil
}

// seqLeadingInt returns the [sign]digits prefix strtol would read.
func seqLeadingInt(s string) string {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if len(s) > 9 && i > 9 {
		return s[:9]
	}
	return s[:i]
}

// seqDefaultLayout is %.PRECf for fixed-point operands (zero-padded to a
// common width under -w), %g otherwise.
func seqDefaultLayout(first, step, last seqOperand, equalWidth bool) *seqLayout {
	prec := max(first.prec, step.prec)
	if first.prec < 0 || step.prec < 0 || last.prec < 0 {
		return &seqLayout{verb: 'g', prec: -1}
	}
	if !equalWidth {
		return &seqLayout{verb: 'f', prec: prec}
	}
	fw := first.width + (prec - first.prec)
	lw := last.width + (prec - last.prec)
	if last.prec > 0 && prec == 0 {
		lw--
	}
	if last.prec == 0 && prec > 0 {
		lw++
	}
	if first.prec == 0 && prec > 0 {
		fw++
	}
	return &seqLayout{verb: 'f', prec: prec, zero: true, width: max(fw, lw)}
}

// seqParseFormat validates a -f format the way GNU seq does: exactly one
// floating-point conversion.
func seqParseFormat(f string) (*seqLayout, error) {
	l := &seqLayout{prec: -1}
	var prefix []byte
	i := 0
	for ; !(i < len(f) && f[i] == '%' && (i+1 >= len(f) || f[i+1] != '%')); i++ {
		if i >= len(f) {
			return nil, fmt.Errorf("format %s has no %% directive", shellQuoteGNU(f))
		}
		prefix = append(prefix, f[i])
		if f[i] == '%' {
			i++
		}
	}
	i++
	for ; i < len(f) && strings.IndexByte("-+#0 '", f[i]) >= 0; i++ {
		switch f[i] {
		case '-':
			l.minus = true
		case '+':
			l.plus = true
		case '#':
			l.hash = true
		case '0':
			l.zero = true
		case ' ':
			l.space = true
		}
	}
	j := i
	for i < len(f) && f[i] >= '0' && f[i] <= '9' {
		i++
	}
	l.width = shellAtoiClamp(f[j:i])
	if i < len(f) && f[i] == '.' {
		i++
		j = i
		for i < len(f) && f[i] >= '0' && f[i] <= '9' {
			i++
		}
		l.prec = shellAtoiClamp(f[j:i])
	}
	if l.width > shellPrintfMaxWidth || l.prec > shellPrintfMaxWidth {
		return nil, fmt.Errorf("format %s: field width or precision too large", shellQuoteGNU(f))
	}
	if i < len(f) && f[i] == 'L' {
		i++
	}
	if i >= len(f) {
		return nil, fmt.Errorf("format %s ends in %%", shellQuoteGNU(f))
	}
	if strings.IndexByte("efgaEFGA", f[i]) < 0 {
		return nil, fmt.Errorf("format %s has unknown %%%c directive", shellQuoteGNU(f), f[i])
	}
	l.verb = f[i]
	var suffix []byte
	for i++; i < len(f); i++ {
		if f[i] == '%' {
			if i+1 >= len(f) || f[i+1] != '%' {
				return nil, fmt.Errorf("format %s has too many %% directives", shellQuoteGNU(f))
			}
			i++
		}
		suffix = append(suffix, f[i])
	}
	l.prefix, l.suffix = string(prefix), string(suffix)
	return l, nil
}

// seqFastArgs reports whether the operands are plain digit strings that
// GNU seq counts through exactly, whatever their size.
func seqFastArgs(ops []string) (first, last string, step uint64, ok bool) {
	for _, op := range ops {
		if op == "" || strings.Trim(op, "0123456789") != "" {
			return "", "", 0, false
		}
	}
	first, last, step = "1", ops[len(ops)-1], 1
	if len(ops) >= 2 {
		first = ops[0]
	}
	if len(ops) == 3 {
		st, err := strconv.ParseUint(ops[1], 10, 64)
		if err != nil || st == 0 || st > seqFastStepLimit {
			return "", "", 0, false
		}
		step = st
	}
	return first, last, step, true
}

// seqRun is one seq invocation's output state.
type seqRun struct {
	ctx    context.Context
	w      *bufio.Writer
	sep    string
	layout *seqLayout
	err    error
	buf    []byte
}

func (s *seqRun) finish(env *Env, name string) int {
	if s.err == nil {
		s.err = s.w.Flush()
	}
	if s.err != nil {
		return env.WriteError(name, s.err)
	}
	return 0
}

// fast counts from a to b (decimal digit strings, b may be "inf") by step
// on the digit strings themselves. It reports false when a > b, leaving
// the general code to print nothing.
func (s *seqRun) fast(a, b string, step uint64) bool {
	a, b = seqTrimZeros(a), seqTrimZeros(b)
	inf := b == "inf"
	if !inf && seqCmpDigits(a, b) > 0 {
		return false
	}
	p, last := []byte(a), []byte(b)
	sep := s.sep[0]
	for n := 0; ; n++ {
		if n&4095 == 0 {
			if s.err = s.ctx.Err(); s.err != nil {
				return true
			}
		}
		s.w.Write(p)
		p = seqAddDigits(p, step)
		if !inf && (len(p) > len(last) || len(p) == len(last) && bytes.Compare(p, last) > 0) {
			break
		}
		if s.err = s.w.WriteByte(sep); s.err != nil {
			return true
		}
	}
	_, s.err = s.w.WriteString("\n")
	return true
}

func seqTrimZeros(s string) string {
	t := strings.TrimLeft(s, "0")
	if t == "" && s != "" {
		return "0"
	}
	return t
}

func seqCmpDigits(a, b string) int {
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

// seqAddDigits adds step to the decimal number in p, in place when it can.
func seqAddDigits(p []byte, step uint64) []byte {
	carry := step
	for i := len(p) - 1; i >= 0 && carry > 0; i-- {
		d := uint64(p[i]-'0') + carry
		p[i] = byte('0' + d%10)
		carry = d / 10
	}
	for carry > 0 {
		p = append([]byte{byte('0' + carry%10)}, p...)
		carry /= 10
	}
	return p
}

// numbers is GNU seq's print_numbers: x = first + i*step in long double
// arithmetic, with its rule for printing a last value that rounding
// pushed just past LAST.
func (s *seqRun) numbers(first, step, last *big.Float) {
	if s.intNumbers(first, step, last) {
		return
	}
	neg := step.Sign() < 0
	outOfRange := func(x *big.Float) bool {
		if neg {
			return x.Cmp(last) < 0
		}
		return last.Cmp(x) < 0
	}
	if outOfRange(first) {
		return
	}
	x := new(big.Float).Set(first)
	x0 := new(big.Float)
	prod := new(big.Float).SetPrec(cfloat.Prec)
	for i := int64(1); ; i++ {
		if i&1023 == 0 {
			if s.err = s.ctx.Err(); s.err != nil {
				return
			}
		}
		x0.Set(x)
		if s.err = s.emit(x); s.err != nil {
			return
		}
		prod.Mul(new(big.Float).SetInt64(i), step)
		x = new(big.Float).SetPrec(cfloat.Prec).Add(first, prod)
		if x.IsInf() || outOfRange(x) {
			if !s.printExtra(x, x0, last) {
				break
			}
		}
		if _, s.err = s.w.WriteString(s.sep); s.err != nil {
			return
		}
	}
	_, s.err = s.w.WriteString("\n")
}

// printExtra reports whether x, just past last, prints as last and
// differently from the previous value x0.
func (s *seqRun) printExtra(x, x0, last *big.Float) bool {
	if x.IsInf() {
		return false
	}
	xs := s.format(x)
	v, n, _ := cfloat.Parse(xs)
	if n != len(xs) || v.F == nil || v.F.Cmp(last) != 0 {
		return false
	}
	return s.format(x0) != xs
}

// intNumbers handles integral operands whose values fit an int64: the
// long double arithmetic is exact there, so int64 gives the same output
// much faster.
func (s *seqRun) intNumbers(first, step, last *big.Float) bool {
	const lim = 1 << 62
	vals := make([]int64, 3)
	for i, f := range []*big.Float{first, step, last} {
		if f.IsInf() || !f.IsInt() {
			return false
		}
		v, acc := f.Int64()
		if acc != big.Exact || v > lim || v < -lim {
			return false
		}
		vals[i] = v
	}
	a, st, b := vals[0], vals[1], vals[2]
	if st < 0 && a < b || st > 0 && b < a {
		return true
	}
	for n := 0; ; n++ {
		if n&4095 == 0 {
			if s.err = s.ctx.Err(); s.err != nil {
				return true
			}
		}
		if s.err = s.emitInt(a); s.err != nil {
			return true
		}
		a += st
		if st < 0 && a < b || st > 0 && b < a {
			break
		}
		if _, s.err = s.w.WriteString(s.sep); s.err != nil {
			return true
		}
	}
	_, s.err = s.w.WriteString("\n")
	return true
}

func (s *seqRun) emitInt(v int64) error {
	l := s.layout
	if l.verb == 'f' && l.prec <= 0 && !l.hash {
		s.buf = s.buf[:0]
		var tmp [24]byte
		body := strconv.AppendInt(tmp[:0], v, 10)
		if v >= 0 && l.plus {
			body = append([]byte{'+'}, body...)
		} else if v >= 0 && l.space {
			body = append([]byte{' '}, body...)
		}
		s.buf = append(s.buf, l.prefix...)
		s.buf = shellPad(s.buf, body, l.width, l.minus, l.zero)
		s.buf = append(s.buf, l.suffix...)
		_, err := s.w.Write(s.buf)
		return err
	}
	return s.emit(new(big.Float).SetPrec(cfloat.Prec).SetInt64(v))
}

func (s *seqRun) emit(x *big.Float) error {
	_, err := s.w.WriteString(s.layout.prefix + s.format(x) + s.layout.suffix)
	return err
}

// format renders x with the layout's conversion, without prefix/suffix.
func (s *seqRun) format(x *big.Float) string {
	l := s.layout
	body := cfloat.Format(cfloat.FromBig(x), l.verb, l.prec, cfloat.Flags{Plus: l.plus, Space: l.space, Hash: l.hash})
	return string(shellPad(nil, []byte(body), l.width, l.minus, l.zero))
}
