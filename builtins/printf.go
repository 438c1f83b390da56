package builtins

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sandsh/sandsh/builtins/internal/cfloat"
	"github.com/sandsh/sandsh/builtins/internal/gdate"
	"github.com/sandsh/sandsh/internal/bashutf8"
)

// shellPrintfMaxWidth bounds field widths and precisions: a script must not
// be able to make one conversion allocate gigabytes.
const shellPrintfMaxWidth = 1 << 20

const printfUsage = `Usage: printf FORMAT [ARGUMENT]...
Print ARGUMENT(s) according to FORMAT, or execute according to OPTION:

  FORMAT controls the output as in C printf.  Interpreted sequences are:
  \"  \\  \a  \b  \c  \e  \f  \n  \r  \t  \v  \NNN  \xHH  \uHHHH  \UHHHHHHHH
  %%  %b (ARGUMENT with backslash escapes interpreted)  %q (shell-quoted)
  and all C format specifications ending with one of diouxXfeEgGcs.
`

// Printf formats args with format the way bash's printf builtin does and
// returns what it would print. Warnings (invalid numbers, bad formats) go
// to env.Stderr prefixed with "printf: "; status is 1 after any of them.
func Printf(env *Env, format string, args []string) (out string, status int) {
	p := &shellPrinter{env: env, name: "printf", args: args}
	p.run(format)
	return string(p.out), p.status
}

// runPrintf is the coreutils printf command: the same engine with GNU
// coreutils' messages, \c ending all output and a warning for unused
// arguments.
func runPrintf(ctx context.Context, env *Env, args []string) int {
	ops := args[1:]
	if len(ops) > 0 && ops[0] == "--help" {
		io.WriteString(env.Stdout, printfUsage)
		return 0
	}
	if len(ops) > 0 && ops[0] == "--" {
		ops = ops[1:]
	}
	if len(ops) == 0 {
		return env.UsageError(args[0], fmt.Errorf("missing operand"), 1)
	}
	p := &shellPrinter{env: env, name: args[0], args: ops[1:], coreutils: true}
	p.run(ops[0])
	w := bufio.NewWriter(env.Stdout)
	w.Write(p.out)
	if err := w.Flush(); err != nil {
		return env.WriteError(args[0], err)
	}
	return p.status
}

// shellPrinter holds the state of one printf invocation.
type shellPrinter struct {
	env       *Env
	name      string
	coreutils bool // GNU coreutils printf instead of the bash builtin
	args      []string
	argi      int
	out       []byte
	status    int
	stopped   bool // \c seen or a fatal format error
}

// shellSpec is one parsed conversion specification.
type shellSpec struct {
	minus, plus, space, hash, zero bool
	width                          int
	prec                           int // -1: none
	verb                           byte
	text                           string // the spec as written, for messages
}

func (p *shellPrinter) warn(format string, a ...any) {
	p.env.Errorf(p.name, format, a...)
}

func (p *shellPrinter) fail(format string, a ...any) {
	p.warn(format, a...)
	p.status = 1
	p.stopped = true
}

// maxPrintfOutput bounds what one printf call builds in memory.
const maxPrintfOutput = 64 << 20

// run interprets format, reusing it while arguments remain, like both
// bash and coreutils do.
func (p *shellPrinter) run(format string) {
	for {
		start := p.argi
		p.once(format)
		if p.stopped || p.argi >= len(p.args) {
			break
		}
		if len(p.out) > maxPrintfOutput {
			// Reusing the format could build gigabytes in memory before
			// anything is written (printf '%999999d' {1..4000}).
			p.warn("output too large (more than %d bytes)", maxPrintfOutput)
			p.out = p.out[:maxPrintfOutput]
			p.status = 1
			break
		}
		if p.argi == start {
			if p.coreutils {
				p.warn("warning: ignoring excess arguments, starting with %s", shellQuoteGNU(p.args[p.argi]))
			}
			break
		}
	}
}

// once makes one pass over format.
func (p *shellPrinter) once(format string) {
	for i := 0; i < len(format) && !p.stopped; {
		c := format[i]
		switch {
		case c == '\\':
			i += p.formatEscape(format[i:])
		case c != '%':
			j := i + 1
			for j < len(format) && format[j] != '\\' && format[j] != '%' {
				j++
			}
			p.out = append(p.out, format[i:j]...)
			i = j
		case i+1 < len(format) && format[i+1] == '%':
			p.out = append(p.out, '%')
			i += 2
		default:
			i += p.conversion(format[i:])
		}
	}
}

// formatEscape handles a backslash sequence in the format string and
// returns how many bytes it used.
func (p *shellPrinter) formatEscape(s string) int {
	if p.coreutils {
		n, stop, err := shellCoreutilsEscape(&p.out, s, false)
		if err != nil {
			p.fail("%v", err)
		}
		if stop {
			p.stopped = true
		}
		return n
	}
	n, _ := shellBashEscape(&p.out, s, false, p.env)
	return n
}

// shellBashEscape appends the bash interpretation of the escape at the
// start of s (s[0] == '\\') and returns the bytes used. inB selects the
// %b rules: \c stops output (reported as stop), \0NNN takes three digits
// after the 0, and \' \" \? keep their backslash.
func shellBashEscape(out *[]byte, s string, inB bool, env *Env) (n int, stop bool) {
	if len(s) < 2 {
		*out = append(*out, '\\')
		return 1, false
	}
	c := s[1]
	switch c {
	case 'a':
		*out = append(*out, 7)
	case 'b':
		*out = append(*out, 8)
	case 'e', 'E':
		*out = append(*out, 27)
	case 'f':
		*out = append(*out, 12)
	case 'n':
		*out = append(*out, '\n')
	case 'r':
		*out = append(*out, '\r')
	case 't':
		*out = append(*out, '\t')
	case 'v':
		*out = append(*out, 11)
	case '\\':
		*out = append(*out, '\\')
	case '0', '1', '2', '3', '4', '5', '6', '7':
		v := int(c - '0')
		max := 2
		if v == 0 && inB {
			max = 3
		}
		i := 2
		for ; i < len(s) && max > 0 && s[i] >= '0' && s[i] <= '7'; i++ {
			v = v*8 + int(s[i]-'0')
			max--
		}
		*out = append(*out, byte(v))
		return i, false
	case 'x':
		v, i := 0, 2
		for ; i < len(s) && i < 4 && shellIsHex(s[i]); i++ {
			v = v*16 + shellHexVal(s[i])
		}
		if i == 2 {
			env.Errorf("printf", "missing hex digit for \\x")
			*out = append(*out, '\\')
			return 1, false
		}
		*out = append(*out, byte(v))
		return i, false
	case 'u', 'U':
		max := 4
		if c == 'U' {
			max = 8
		}
		var v uint32
		i := 2
		for ; i < len(s) && i < 2+max && shellIsHex(s[i]); i++ {
			v = v*16 + uint32(shellHexVal(s[i]))
		}
		if i == 2 {
			env.Errorf("printf", "missing unicode digit for \\%c", c)
			*out = append(*out, '\\')
			return 1, false
		}
		shellAppendUnicode(out, v, shellUTF8Locale(env))
		return i, false
	case '\'', '"', '?':
		if inB {
			*out = append(*out, '\\', c)
		} else {
			*out = append(*out, c)
		}
	case 'c':
		if inB {
			return 2, true
		}
		*out = append(*out, '\\', c)
	default:
		*out = append(*out, '\\')
		return 1, false
	}
	return 2, false
}

// shellCoreutilsEscape is coreutils' print_esc: octal0 selects the %b
// form where \0NNN takes three digits after the 0.
func shellCoreutilsEscape(out *[]byte, s string, octal0 bool) (n int, stop bool, err error) {
	if len(s) < 2 {
		*out = append(*out, '\\')
		return 1, false, nil
	}
	c := s[1]
	switch {
	case c == 'x':
		v, i := 0, 2
		for ; i < len(s) && i < 4 && shellIsHex(s[i]); i++ {
			v = v*16 + shellHexVal(s[i])
		}
		if i == 2 {
			return i, true, fmt.Errorf("missing hexadecimal number in escape")
		}
		*out = append(*out, byte(v))
		return i, false, nil
	case c >= '0' && c <= '7':
		i := 1
		if octal0 && c == '0' {
			i++
		}
		v, k := 0, 0
		for ; i < len(s) && k < 3 && s[i] >= '0' && s[i] <= '7'; i, k = i+1, k+1 {
			v = v*8 + int(s[i]-'0')
		}
		*out = append(*out, byte(v))
		return i, false, nil
	case strings.IndexByte("\"\\abcefnrtv", c) >= 0:
		if c == 'c' {
			return 2, true, nil
		}
		*out = append(*out, shellSimpleEscape(c))
		return 2, false, nil
	case c == 'u' || c == 'U':
		max := 4
		if c == 'U' {
			max = 8
		}
		var v uint32
		i := 2
		for ; i < 2+max; i++ {
			if i >= len(s) || !shellIsHex(s[i]) {
				return i, true, fmt.Errorf("missing hexadecimal number in escape")
			}
			v = v*16 + uint32(shellHexVal(s[i]))
		}
		if (v <= 0x9f && v != 0x24 && v != 0x40 && v != 0x60) || (v >= 0xd800 && v <= 0xdfff) {
			return i, true, fmt.Errorf("invalid universal character name \\%c%0*x", c, max, v)
		}
		shellAppendUnicode(out, v, false)
		return i, false, nil
	}
	*out = append(*out, '\\', c)
	return 2, false, nil
}

func shellSimpleEscape(c byte) byte {
	switch c {
	case 'a':
		return 7
	case 'b':
		return 8
	case 'e':
		return 27
	case 'f':
		return 12
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'v':
		return 11
	}
	return c
}

// shellAppendUnicode encodes code point v: as UTF-8 in a UTF-8 locale,
// otherwise the way bash and coreutils do in the C locale (ASCII as is,
// anything else as a \uXXXX escape).
func shellAppendUnicode(out *[]byte, v uint32, utf8Locale bool) {
	switch {
	case v <= 0x7f:
		*out = append(*out, byte(v))
	case utf8Locale:
		// bash's encoder: no check for surrogates or values past
		// U+10FFFF.
		*out = bashutf8.AppendRune(*out, v)
	case v < 0x10000:
		*out = fmt.Appendf(*out, "\\u%04X", v)
	default:
		*out = fmt.Appendf(*out, "\\U%08X", v)
	}
}

// shellUTF8Locale reports whether the sandbox environment selects a UTF-8
// character type, using the POSIX precedence LC_ALL > LC_CTYPE > LANG.
func shellUTF8Locale(env *Env) bool {
	for _, name := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := env.Getenv(name); v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return false
}

func shellIsHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func shellHexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// nextArg returns the next argument, or ok=false when they are used up
// (missing arguments act as "" or 0).
func (p *shellPrinter) nextArg() (string, bool) {
	if p.argi >= len(p.args) {
		return "", false
	}
	p.argi++
	return p.args[p.argi-1], true
}

// conversion parses and performs the % directive at the start of s and
// returns the bytes it used.
func (p *shellPrinter) conversion(s string) int {
	sp := shellSpec{prec: -1}
	i := 1
flags:
	for ; i < len(s); i++ {
		switch s[i] {
		case '-':
			sp.minus = true
		case '+':
			sp.plus = true
		case ' ':
			sp.space = true
		case '#':
			sp.hash = true
		case '0':
			sp.zero = true
		case '\'':
		default:
			break flags
		}
	}
	var ok bool
	if i, ok = p.widthPrec(s, i, &sp); !ok {
		return len(s)
	}
	for i < len(s) && strings.IndexByte("hjlLtz", s[i]) >= 0 {
		i++
	}
	if i >= len(s) {
		if p.coreutils {
			p.fail("%s: invalid conversion specification", s)
		} else {
			p.fail("`%s': missing format character", s)
		}
		return len(s)
	}
	sp.verb = s[i]
	sp.text = s[:i+1]
	if sp.verb == '(' && !p.coreutils {
		return p.timeConversion(s, i, sp)
	}
	p.convert(sp)
	return i + 1
}

// widthPrec parses the width and precision of a spec starting at s[i].
func (p *shellPrinter) widthPrec(s string, i int, sp *shellSpec) (int, bool) {
	if i < len(s) && s[i] == '*' {
		i++
		w := p.starArg()
		if w < 0 {
			sp.minus = true
			w = -w
		}
		sp.width = w
	} else {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		sp.width = shellAtoiClamp(s[j:i])
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i < len(s) && s[i] == '*' {
			i++
			sp.prec = p.starArg()
			if sp.prec < 0 {
				sp.prec = -1
			}
		} else {
			neg := false
			if i < len(s) && s[i] == '-' && !p.coreutils {
				neg = true
				i++
			}
			j := i
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
			sp.prec = shellAtoiClamp(s[j:i])
			if neg {
				sp.prec = -1
			}
		}
	}
	if sp.width > shellPrintfMaxWidth || sp.prec > shellPrintfMaxWidth {
		p.fail("%s: field width or precision too large", s[:i])
		return i, false
	}
	return i, true
}

func shellAtoiClamp(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil && s != "" {
		return shellPrintfMaxWidth + 1
	}
	return n
}

// starArg reads a '*' width or precision from the arguments.
func (p *shellPrinter) starArg() int {
	a, _ := p.nextArg()
	v, _ := p.intArg(a, true)
	switch {
	case v > 1<<31-1:
		if !p.coreutils {
			p.warn("warning: %s: %s", a, "Numerical result out of range")
		}
		return 1<<31 - 1
	case v < -1<<31:
		if !p.coreutils {
			p.warn("warning: %s: %s", a, "Numerical result out of range")
		}
		return -1 << 31
	}
	if v > shellPrintfMaxWidth || v < -shellPrintfMaxWidth {
		return shellPrintfMaxWidth + 1
	}
	return int(v)
}

// convert performs one conversion other than %(...)T.
func (p *shellPrinter) convert(sp shellSpec) {
	switch sp.verb {
	case 'c':
		a, _ := p.nextArg()
		var b []byte
		if a == "" {
			b = []byte{0}
		} else {
			b = []byte{a[0]}
		}
		p.pad(sp, b, false)
	case 's':
		a, _ := p.nextArg()
		p.str(sp, a)
	case 'b':
		a, _ := p.nextArg()
		p.bConversion(sp, a)
	case 'q', 'Q':
		a, _ := p.nextArg()
		p.quoteConversion(sp, a)
	case 'n':
		if p.coreutils {
			p.fail("%s: invalid conversion specification", sp.text)
			return
		}
		p.nextArg()
	case 'd', 'i':
		a, _ := p.nextArg()
		v, _ := p.intArg(a, true)
		p.integer(sp, v < 0, shellAbs64(v), 10, false)
	case 'o', 'u', 'x', 'X':
		a, _ := p.nextArg()
		v := p.uintArg(a)
		base := map[byte]int{'o': 8, 'u': 10, 'x': 16, 'X': 16}[sp.verb]
		p.integer(sp, false, v, base, sp.verb == 'X')
	case 'e', 'E', 'f', 'F', 'g', 'G', 'a', 'A':
		a, _ := p.nextArg()
		v := p.floatArg(a)
		s := cfloat.Format(v, sp.verb, sp.prec, cfloat.Flags{Plus: sp.plus, Space: sp.space, Hash: sp.hash})
		p.pad(sp, []byte(s), true)
	default:
		if p.coreutils {
			p.fail("%s: invalid conversion specification", sp.text)
		} else {
			p.fail("`%c': invalid format character", sp.verb)
		}
	}
}

func shellAbs64(v int64) uint64 {
	if v < 0 {
		return uint64(-(v + 1)) + 1
	}
	return uint64(v)
}

// str prints a %s conversion: precision truncates, width pads.
func (p *shellPrinter) str(sp shellSpec, s string) {
	if sp.prec >= 0 && sp.prec < len(s) {
		s = s[:sp.prec]
	}
	p.pad(sp, []byte(s), false)
}

// pad appends body justified in sp.width. numeric enables the 0 flag,
// which then pads after any sign or 0x prefix.
func (p *shellPrinter) pad(sp shellSpec, body []byte, numeric bool) {
	p.out = shellPad(p.out, body, sp.width, sp.minus, sp.zero && numeric)
}

// shellPad appends body to out justified in width: left with minus,
// zero-filled after any sign or 0x prefix with zero (not for inf/nan),
// right-justified with spaces otherwise.
func shellPad(out, body []byte, width int, minus, zero bool) []byte {
	n := width - len(body)
	switch {
	case n <= 0:
		return append(out, body...)
	case minus:
		out = append(out, body...)
		return shellAppendRepeat(out, ' ', n)
	case zero && shellFinite(body):
		k := 0
		if k < len(body) && (body[k] == '-' || body[k] == '+' || body[k] == ' ') {
			k++
		}
		if k+1 < len(body) && body[k] == '0' && (body[k+1] == 'x' || body[k+1] == 'X') {
			k += 2
		}
		out = append(out, body[:k]...)
		out = shellAppendRepeat(out, '0', n)
		return append(out, body[k:]...)
	}
	out = shellAppendRepeat(out, ' ', n)
	return append(out, body...)
}

// shellFinite reports whether a formatted number is not inf or nan, which
// C pads with spaces even under the 0 flag.
func shellFinite(b []byte) bool {
	s := strings.ToLower(string(b))
	return !strings.Contains(s, "inf") && !strings.Contains(s, "nan")
}

func shellAppendRepeat(b []byte, c byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, c)
	}
	return b
}

// integer formats an integer conversion of magnitude v.
func (p *shellPrinter) integer(sp shellSpec, neg bool, v uint64, base int, upper bool) {
	digits := strconv.FormatUint(v, base)
	if upper {
		digits = strings.ToUpper(digits)
	}
	if sp.prec == 0 && v == 0 {
		digits = ""
	}
	if sp.prec > len(digits) {
		digits = strings.Repeat("0", sp.prec-len(digits)) + digits
	}
	prefix := ""
	switch {
	case neg:
		prefix = "-"
	case sp.verb == 'd' || sp.verb == 'i':
		if sp.plus {
			prefix = "+"
		} else if sp.space {
			prefix = " "
		}
	}
	if sp.hash {
		switch {
		case base == 8 && !strings.HasPrefix(digits, "0"):
			digits = "0" + digits
		case base == 16 && v != 0:
			prefix = "0x"
			if upper {
				prefix = "0X"
			}
		}
	}
	if sp.prec >= 0 {
		sp.zero = false
	}
	p.pad(sp, []byte(prefix+digits), true)
}

// numWarn reports a numeric argument that did not fully convert.
func (p *shellPrinter) numWarn(a string, consumed int) {
	p.status = 1
	switch {
	case !p.coreutils:
		p.warn("%s: invalid number", a)
	case consumed == 0:
		p.warn("%s: expected a numeric value", shellQuoteGNU(a))
	default:
		p.warn("%s: value not completely converted", shellQuoteGNU(a))
	}
}

func (p *shellPrinter) rangeWarn(a string) {
	if p.coreutils {
		p.warn("%s: Numerical result out of range", shellQuoteGNU(a))
		p.status = 1
		return
	}
	p.warn("warning: %s: Numerical result out of range", a)
}

// charConst handles the 'c and "c argument forms: the code of the byte
// after the quote.
func (p *shellPrinter) charConst(a string) (int64, bool) {
	if a == "" || (a[0] != '\'' && a[0] != '"') {
		return 0, false
	}
	if len(a) == 1 {
		// bash takes a lone quote as 0; coreutils wants a character.
		return 0, !p.coreutils
	}
	v, size := int64(a[1]), 1
	if a[1] >= 0x80 && shellUTF8Locale(p.env) {
		// In a UTF-8 locale the code is the character's, as mbtowc reads it.
		if r, n := bashutf8.DecodeRune(a[1:]); n > 0 {
			v, size = int64(r), n
		}
	}
	if p.coreutils && len(a) > 1+size {
		p.warn("warning: %s: character(s) following character constant have been ignored", a[1+size:])
	}
	return v, true
}

// intArg converts a signed integer argument like strtoimax(a, &end, 0).
func (p *shellPrinter) intArg(a string, warn bool) (int64, bool) {
	if v, ok := p.charConst(a); ok {
		return v, true
	}
	v, n, erange := shellStrtoimax(a)
	switch {
	case n < len(a):
		if warn {
			p.numWarn(a, n)
		}
		return v, false
	case erange && warn:
		p.rangeWarn(a)
	}
	return v, true
}

// uintArg converts an unsigned argument like strtoumax: "-1" wraps.
func (p *shellPrinter) uintArg(a string) uint64 {
	if v, ok := p.charConst(a); ok {
		return uint64(v)
	}
	neg, mag, n, erange := shellStrtoNum(a)
	if n < len(a) {
		p.numWarn(a, n)
	} else if erange {
		p.rangeWarn(a)
	}
	if erange {
		return ^uint64(0)
	}
	if neg {
		return -mag
	}
	return mag
}

// shellStrtoimax is strtoimax(s, &end, 0): it returns the value, the
// number of bytes consumed (0 when there are no digits) and whether the
// value was clamped.
func shellStrtoimax(s string) (int64, int, bool) {
	neg, mag, n, erange := shellStrtoNum(s)
	switch {
	case neg && (erange || mag > 1<<63):
		return -1 << 63, n, true
	case !neg && (erange || mag > 1<<63-1):
		return 1<<63 - 1, n, true
	case neg:
		return -int64(mag), n, false
	}
	return int64(mag), n, false
}

// shellStrtoNum parses [space][sign][0x|0]digits with C's base-0 rules.
func shellStrtoNum(s string) (neg bool, mag uint64, n int, erange bool) {
	i := 0
	for i < len(s) && shellIsSpace(s[i]) {
		i++
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	base := uint64(10)
	if i < len(s) && s[i] == '0' {
		base = 8
		if i+2 < len(s) && (s[i+1] == 'x' || s[i+1] == 'X') && shellIsHex(s[i+2]) {
			base = 16
			i += 2
		}
	}
	start := i
	for ; i < len(s); i++ {
		d := uint64(36)
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			d = uint64(c - '0')
		case c >= 'a' && c <= 'f':
			d = uint64(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = uint64(c-'A') + 10
		}
		if d >= base {
			break
		}
		if mag > (^uint64(0)-d)/base {
			erange = true
		}
		mag = mag*base + d
	}
	if i == start {
		return false, 0, 0, false
	}
	return neg, mag, i, erange
}

func shellIsSpace(c byte) bool {
	return c == ' ' || c >= '\t' && c <= '\r'
}

// floatArg converts a floating argument like strtold.
func (p *shellPrinter) floatArg(a string) cfloat.LD {
	if v, ok := p.charConst(a); ok {
		return cfloat.FromInt(v)
	}
	v, n, erange := cfloat.Parse(a)
	if n < len(a) {
		p.numWarn(a, n)
	} else if erange {
		p.rangeWarn(a)
	}
	return v
}

// bConversion is %b: the argument's escapes are expanded like echo -e.
func (p *shellPrinter) bConversion(sp shellSpec, a string) {
	var b []byte
	stop := false
	for i := 0; i < len(a) && !stop; {
		if a[i] != '\\' {
			j := strings.IndexByte(a[i:], '\\')
			if j < 0 {
				j = len(a) - i
			}
			b = append(b, a[i:i+j]...)
			i += j
			continue
		}
		var n int
		if p.coreutils {
			var err error
			n, stop, err = shellCoreutilsEscape(&b, a[i:], true)
			if err != nil {
				p.fail("%v", err)
				return
			}
		} else {
			n, stop = shellBashEscape(&b, a[i:], true, p.env)
		}
		i += n
	}
	if sp.prec >= 0 && sp.prec < len(b) {
		b = b[:sp.prec]
	}
	p.pad(sp, b, false)
	if stop {
		p.stopped = true
	}
}

// quoteConversion is %q (and bash's %Q, whose precision applies to the
// unquoted argument).
func (p *shellPrinter) quoteConversion(sp shellSpec, a string) {
	if sp.verb == 'Q' {
		if p.coreutils {
			p.fail("%s: invalid conversion specification", sp.text)
			return
		}
		if sp.prec >= 0 && sp.prec < len(a) {
			a = a[:sp.prec]
		}
		sp.prec = -1
	}
	var q string
	if p.coreutils {
		q = shellQuoteCoreutils(a)
	} else {
		q = shellQuoteBash(a, shellUTF8Locale(p.env))
	}
	p.str(sp, q)
}

// timeConversion is bash's %(FMT)T: the argument is epoch seconds, -1
// meaning now and -2 the shell's start (which sandsh takes as now).
func (p *shellPrinter) timeConversion(s string, i int, sp shellSpec) int {
	depth := 1
	j := i + 1
	for ; j < len(s); j++ {
		if s[j] == '(' {
			depth++
		} else if s[j] == ')' {
			depth--
			if depth == 0 {
				break
			}
		}
	}
	if j+1 >= len(s) || s[j+1] != 'T' {
		c := byte(' ')
		if j+1 < len(s) {
			c = s[j+1]
		}
		p.warn("warning: `%c': invalid time format specification", c)
		p.out = append(p.out, '%')
		return 1
	}
	tfmt := s[i+1 : j]
	if tfmt == "" {
		tfmt = "%X"
	}
	secs := int64(-1)
	if a, ok := p.nextArg(); ok {
		secs, _ = p.intArg(a, true)
	}
	now := p.env.System().Now()
	t := now
	if secs != -1 && secs != -2 {
		t = time.Unix(secs, 0)
	}
	t = t.In(shellTZ(p.env))
	out := gdate.Format(t, tfmt)
	if len(out) >= 128 {
		out = ""
	}
	p.str(sp, out)
	return j + 2
}

// ShellQuote quotes s the way bash 5.2's printf %q does, so the result
// reads back as s: ” for empty, $'...' when s has unprintable bytes, and
// backslashes before shell metacharacters otherwise.
func ShellQuote(s string) string { return shellQuoteBash(s, false) }

// shellQuoteBash is ShellQuote; in a UTF-8 locale printable non-ASCII
// characters need no quoting.
func shellQuoteBash(s string, utf8Locale bool) string {
	if s == "" {
		return "''"
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x80 && utf8Locale {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError || !unicode.IsPrint(r) {
				return shellAnsiCQuote(s, true)
			}
			i += n
			continue
		}
		if c < 0x20 || c >= 0x7f {
			return shellAnsiCQuote(s, utf8Locale)
		}
		i++
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case strings.IndexByte(" !\"$&'()*,;<>?[\\]^`{|}\t\n", c) >= 0,
			c == '#' && i == 0,
			c == '~' && (i == 0 || s[i-1] == ':' || s[i-1] == '='):
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// shellAnsiCQuote renders s as $'...' with C escapes; in a UTF-8 locale
// printable multibyte characters stay as they are.
func shellAnsiCQuote(s string, utf8Locale bool) string {
	b := []byte("$'")
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 && utf8Locale {
			if r, n := utf8.DecodeRuneInString(s[i:]); r != utf8.RuneError && unicode.IsPrint(r) {
				b = append(b, s[i:i+n]...)
				i += n - 1
				continue
			}
		}
		switch c {
		case 27:
			b = append(b, '\\', 'E')
		case 7, 8, 12, '\n', '\r', '\t', 11:
			b = append(b, '\\', "abtnvfr"[strings.IndexByte("\a\b\t\n\v\f\r", c)])
		case '\\', '\'':
			b = append(b, '\\', c)
		default:
			if c < 0x20 || c >= 0x7f {
				b = append(b, '\\', '0'+c>>6, '0'+(c>>3)&7, '0'+c&7)
			} else {
				b = append(b, c)
			}
		}
	}
	return string(append(b, '\''))
}

// shellQuoteCoreutils is coreutils' shell-escape quoting (printf %q).
func shellQuoteCoreutils(s string) string {
	if s == "" {
		return "''"
	}
	needs, ctrl, squote, compat := false, false, false, true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 0x20 || c >= 0x7f:
			ctrl, needs = true, true
		case c == '\'':
			squote, needs = true, true
		case c == ' ':
			needs = true
		case (c == '#' || c == '~') && i == 0, (c == '{' || c == '}') && len(s) == 1:
			needs = true
		case strings.IndexByte("!\"$&()*;<=>?[\\^`|", c) >= 0:
			needs, compat = true, false
		case strings.IndexByte("{}#~@", c) >= 0:
			compat = false
		}
	}
	switch {
	case !needs:
		return s
	case ctrl:
		return shellQuoteCoreutilsEsc(s)
	case squote && compat:
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellQuoteCoreutilsEsc quotes s with '...' runs and $'...' runs for
// unprintable bytes.
func shellQuoteCoreutilsEsc(s string) string {
	b := []byte{'\''}
	inEsc := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f {
			if !inEsc {
				b = append(b, '\'', '$', '\'')
				inEsc = true
			}
			if k := strings.IndexByte("\a\b\t\n\v\f\r", c); k >= 0 {
				b = append(b, '\\', "abtnvfr"[k])
			} else {
				b = append(b, '\\', '0'+c>>6, '0'+(c>>3)&7, '0'+c&7)
			}
			continue
		}
		if inEsc {
			b = append(b, '\'', '\'')
			inEsc = false
		}
		if c == '\'' {
			b = append(b, '\'', '\\', '\'', '\'')
		} else {
			b = append(b, c)
		}
	}
	return string(append(b, '\''))
}

// shellQuoteGNU quotes a name for a coreutils diagnostic: 'name'.
func shellQuoteGNU(s string) string {
	if strings.ContainsRune(s, '\'') {
		return `"` + s + `"`
	}
	return "'" + s + "'"
}

// shellTZ is the sandbox's time zone: $TZ, or UTC when it is unset.
func shellTZ(env *Env) *time.Location {
	tz, ok := env.LookupEnv("TZ")
	return gdate.LoadTZ(tz, ok)
}
