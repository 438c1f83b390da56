package awk

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// format is a parsed printf format, cached by its text.
type format struct {
	parts []fmtPart
}

// fmtPart is literal text followed by at most one conversion.
type fmtPart struct {
	lit       string
	verb      byte // 0: literal only
	flags     string
	width     int
	prec      int
	hasWidth  bool
	hasPrec   bool
	widthStar bool
	precStar  bool
	argIdx    int    // 1-based positional argument (%2$s), 0 for next
	raw       string // the directive's text, output as is if invalid
	goSpec    string // Go fmt directive when widths are fixed

	minus, plus, space, hash, zero bool
}

func (d *fmtPart) setFlags() {
	d.minus = containsByte(d.flags, '-')
	d.plus = containsByte(d.flags, '+')
	d.space = containsByte(d.flags, ' ')
	d.hash = containsByte(d.flags, '#')
	d.zero = containsByte(d.flags, '0')
}

func (p *interp) parseFormat(s string) *format {
	if f, ok := p.formatCache[s]; ok {
		return f
	}
	f := &format{}
	lit := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			lit = append(lit, s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '%' {
			lit = append(lit, '%')
			i++
			continue
		}
		part, n := parseDirective(s[i:])
		if part.verb == 0 {
			lit = append(lit, s[i:i+n]...)
			i += n - 1
			continue
		}
		part.lit = string(lit)
		lit = lit[:0]
		f.parts = append(f.parts, part)
		i += n - 1
	}
	if len(lit) > 0 {
		f.parts = append(f.parts, fmtPart{lit: string(lit)})
	}
	if len(p.formatCache) > 256 {
		clear(p.formatCache)
	}
	p.formatCache[s] = f
	return f
}

// parseDirective parses one conversion starting at s[0] == '%'. It
// returns the part (verb 0 if invalid) and the length consumed.
func parseDirective(s string) (fmtPart, int) {
	var d fmtPart
	i := 1
	// Positional argument: %N$...
	if j := i; j < len(s) && s[j] >= '1' && s[j] <= '9' {
		n := 0
		for j < len(s) && isDigit(s[j]) {
			n = n*10 + int(s[j]-'0')
			j++
		}
		if j < len(s) && s[j] == '$' {
			d.argIdx = n
			i = j + 1
		}
	}
	start := i
	for i < len(s) && (s[i] == '-' || s[i] == '+' || s[i] == ' ' || s[i] == '#' || s[i] == '0' || s[i] == '\'') {
		i++
	}
	d.flags = s[start:i]
	if i < len(s) && s[i] == '*' {
		d.widthStar, d.hasWidth = true, true
		i++
	} else {
		for i < len(s) && isDigit(s[i]) {
			d.width = min(d.width*10+int(s[i]-'0'), fmtSaturate)
			d.hasWidth = true
			i++
		}
	}
	if i < len(s) && s[i] == '.' {
		i++
		d.hasPrec = true
		if i < len(s) && s[i] == '*' {
			d.precStar = true
			i++
		} else {
			for i < len(s) && isDigit(s[i]) {
				d.prec = min(d.prec*10+int(s[i]-'0'), fmtSaturate)
				i++
			}
		}
	}
	for i < len(s) && (s[i] == 'h' || s[i] == 'l' || s[i] == 'L' || s[i] == 'q' || s[i] == 'j' || s[i] == 'z' || s[i] == 't') {
		i++
	}
	if i >= len(s) {
		return fmtPart{}, len(s)
	}
	switch c := s[i]; c {
	case 'd', 'i', 'o', 'x', 'X', 'u', 'c', 's', 'e', 'E', 'f', 'F', 'g', 'G', 'a', 'A':
		d.verb = c
	default:
		return fmtPart{}, i + 1
	}
	d.raw = s[:i+1]
	d.setFlags()
	if !d.widthStar && !d.precStar {
		d.goSpec = d.buildSpec(d.width, d.prec)
	}
	return d, i + 1
}

// buildSpec writes the directive for Go's fmt, which agrees with C for
// the numeric conversions once the verb is mapped.
func (d *fmtPart) buildSpec(width, prec int) string {
	b := []byte{'%'}
	for i := 0; i < len(d.flags); i++ {
		if d.flags[i] != '\'' {
			b = append(b, d.flags[i])
		}
	}
	if d.hasWidth {
		b = strconv.AppendInt(b, int64(width), 10)
	}
	if d.hasPrec {
		b = append(b, '.')
		b = strconv.AppendInt(b, int64(prec), 10)
	}
	switch d.verb {
	case 'i', 'u':
		b = append(b, 'd')
	case 'F':
		b = append(b, 'f')
	case 'a':
		b = append(b, 'x')
	case 'A':
		b = append(b, 'X')
	default:
		b = append(b, d.verb)
	}
	return string(b)
}

func (p *interp) sprintf(format string, args []value) string {
	return string(p.appendFormat(nil, format, args))
}

// appendFormat formats args by an awk printf format.
func (p *interp) appendFormat(buf []byte, format string, args []value) []byte {
	f := p.parseFormat(format)
	next := 0
	arg := func() (value, bool) {
		if next >= len(args) {
			return value{}, false
		}
		next++
		return args[next-1], true
	}
	for i := range f.parts {
		d := &f.parts[i]
		buf = append(buf, d.lit...)
		if d.verb == 0 {
			continue
		}
		width, prec, spec := d.width, d.prec, d.goSpec
		if d.widthStar || d.precStar {
			if d.widthStar {
				v, ok := arg()
				if !ok {
					return p.tooFewArgs(buf)
				}
				width = fmtInt(v.toNum())
			}
			if d.precStar {
				v, ok := arg()
				if !ok {
					return p.tooFewArgs(buf)
				}
				prec = fmtInt(v.toNum())
			}
			dd := *d
			if width < 0 {
				dd.flags += "-"
				dd.minus = true
				width = -width
			}
			if prec < 0 {
				dd.hasPrec = false
			}
			spec = dd.buildSpec(width, prec)
			d = &dd
		}
		// A width or precision may not build a string past the bound
		// (%s precision only shortens; %c ignores it).
		if width > 0 {
			p.built(width)
		}
		if prec > 0 && d.verb != 's' && d.verb != 'c' {
			p.built(prec)
		}
		var v value
		if d.argIdx > 0 {
			if d.argIdx > len(args) {
				return p.tooFewArgs(buf)
			}
			v = args[d.argIdx-1]
		} else {
			var ok bool
			if v, ok = arg(); !ok {
				return p.tooFewArgs(buf)
			}
		}
		buf = p.formatOne(buf, d, spec, width, prec, v)
		p.built(len(buf))
	}
	return buf
}

func (p *interp) tooFewArgs(buf []byte) []byte {
	p.fatalf("not enough arguments to satisfy format string")
	return buf
}

func (p *interp) formatOne(buf []byte, d *fmtPart, spec string, width, prec int, v value) []byte {
	switch d.verb {
	case 's':
		s := p.toStr(v)
		if d.hasPrec && prec >= 0 {
			s = p.truncChars(s, prec)
		}
		return p.padChars(buf, s, width, d.flags)
	case 'c':
		var s string
		if v.k == kNum || (v.k == kStrNum && isNumericStrnum(v)) {
			s = p.charOf(v.toNum())
		} else {
			s = p.firstChar(p.toStr(v))
		}
		return p.padChars(buf, s, width, d.flags)
	case 'd', 'i':
		f := v.toNum()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return pad(buf, cSpecial(f, d.verb, d.flags), width, d.flags)
		}
		f = math.Trunc(f)
		if f > -9.2e18 && f < 9.2e18 {
			n := int64(f)
			if n < 0 {
				return appendInt(buf, d, width, prec, true, uint64(-n), 10)
			}
			return appendInt(buf, d, width, prec, false, uint64(n), 10)
		}
		return p.bigInt(buf, d, width, f)
	case 'o', 'x', 'X', 'u':
		f := v.toNum()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return pad(buf, cSpecial(f, d.verb, d.flags), width, d.flags)
		}
		f = math.Trunc(f)
		var u uint64
		switch {
		case f < 0 && f > -9.2e18:
			u = uint64(int64(f))
		case f < 0:
			u = 1 << 63
		case f >= 1.8e19:
			return p.bigInt(buf, d, width, f)
		default:
			u = uint64(f)
		}
		base := 10
		switch d.verb {
		case 'o':
			base = 8
		case 'x', 'X':
			base = 16
		}
		return appendInt(buf, d, width, prec, false, u, base)
	default: // e E f F g G a A
		f := v.toNum()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return pad(buf, cSpecial(f, d.verb, d.flags), width, removeByte(d.flags, '0'))
		}
		if !d.hasWidth && d.flags == "" {
			// No flags or width: strconv agrees with C.
			if !d.hasPrec {
				prec = 6
			}
			switch d.verb {
			case 'f', 'F':
				return strconv.AppendFloat(buf, f, 'f', prec, 64)
			case 'e', 'E':
				return strconv.AppendFloat(buf, f, d.verb, prec, 64)
			case 'g', 'G':
				if prec == 0 {
					prec = 1
				}
				return strconv.AppendFloat(buf, f, d.verb, prec, 64)
			}
		}
		if (d.verb == 'g' || d.verb == 'G' || d.verb == 'e' || d.verb == 'E' || d.verb == 'f' || d.verb == 'F') && !d.hasPrec {
			dd := *d
			dd.hasPrec = true
			spec = dd.buildSpec(width, 6)
		}
		return fmt.Appendf(buf, spec, f)
	}
}

// isNumericStrnum reports whether a strnum looks numeric, so %c prints
// the character with that code rather than the first character.
func isNumericStrnum(v value) bool {
	_, ok := looksNumeric(v.s)
	return ok
}

// charOf is %c of a number: the character with that code in a UTF-8
// locale, else the byte with its low 8 bits.
func (p *interp) charOf(f float64) string {
	n := int64(f)
	if p.utf8 && n >= utf8.RuneSelf && n <= utf8.MaxRune && utf8.ValidRune(rune(n)) {
		return string(rune(n))
	}
	return string([]byte{byte(n)})
}

// padChars is pad with the width counted in characters.
func (p *interp) padChars(buf []byte, s string, width int, flags string) []byte {
	if p.utf8 && !isASCII(s) {
		width += len(s) - utf8.RuneCountInString(s)
	}
	return pad(buf, s, width, flags)
}

// cSpecial renders an infinity or NaN as C's printf does.
func cSpecial(f float64, verb byte, flags string) string {
	var s string
	switch {
	case math.IsInf(f, 1):
		s = "inf"
	case math.IsInf(f, -1):
		s = "-inf"
	case math.Signbit(f):
		s = "-nan"
	default:
		s = "nan"
	}
	if s[0] != '-' {
		if containsByte(flags, '+') {
			s = "+" + s
		} else if containsByte(flags, ' ') {
			s = " " + s
		}
	}
	if verb >= 'A' && verb <= 'Z' {
		s = asciiUpper(s)
	}
	return s
}

// bigInt formats an integer beyond int64 with all its digits.
func (p *interp) bigInt(buf []byte, d *fmtPart, width int, f float64) []byte {
	digits := strconv.FormatFloat(math.Abs(f), 'f', 0, 64)
	sign := ""
	switch {
	case f < 0:
		sign = "-"
	case containsByte(d.flags, '+'):
		sign = "+"
	case containsByte(d.flags, ' '):
		sign = " "
	}
	s := sign + digits
	if containsByte(d.flags, '0') && !containsByte(d.flags, '-') && len(s) < width {
		zeros := make([]byte, width-len(s))
		for i := range zeros {
			zeros[i] = '0'
		}
		s = sign + string(zeros) + digits
	}
	return pad(buf, s, width, d.flags)
}

// fmtSaturate caps a width or precision written in a format, so that a
// long run of digits saturates instead of overflowing; any value this
// large is past the string bound anyway.
const fmtSaturate = 1 << 40

// fmtInt converts a '*' width or precision, saturating like fmtSaturate
// (a NaN counts as 0).
func fmtInt(f float64) int {
	switch {
	case f != f:
		return 0
	case f > fmtSaturate:
		return fmtSaturate
	case f < -fmtSaturate:
		return -fmtSaturate
	}
	return int(f)
}

// pad appends s padded with spaces to width, on the right with '-'.
func pad(buf []byte, s string, width int, flags string) []byte {
	n := width - len(s)
	left := containsByte(flags, '-')
	if left {
		buf = append(buf, s...)
	}
	for ; n > 0; n-- {
		buf = append(buf, ' ')
	}
	if !left {
		buf = append(buf, s...)
	}
	return buf
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

func removeByte(s string, c byte) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != c {
			b = append(b, s[i])
		}
	}
	return string(b)
}

// appendInt formats an integer conversion as C does: precision is the
// minimum number of digits, '#' adds 0 or 0x, '0' pads after the sign
// unless a precision is given.
func appendInt(buf []byte, d *fmtPart, width, prec int, neg bool, mag uint64, base int) []byte {
	var tmp [72]byte
	digits := strconv.AppendUint(tmp[:0], mag, base)
	if d.verb == 'X' {
		for i, c := range digits {
			if c >= 'a' && c <= 'f' {
				digits[i] = c - ('a' - 'A')
			}
		}
	}
	if d.hasPrec && prec == 0 && mag == 0 {
		digits = digits[:0]
	}
	zeros := 0
	if d.hasPrec && prec > len(digits) {
		zeros = prec - len(digits)
	}
	var prefix string
	switch {
	case neg:
		prefix = "-"
	case d.plus && (d.verb == 'd' || d.verb == 'i'):
		prefix = "+"
	case d.space && (d.verb == 'd' || d.verb == 'i'):
		prefix = " "
	}
	if d.hash {
		switch d.verb {
		case 'o':
			if zeros == 0 && (len(digits) == 0 || digits[0] != '0') {
				zeros = 1
			}
		case 'x':
			if mag != 0 {
				prefix = "0x"
			}
		case 'X':
			if mag != 0 {
				prefix = "0X"
			}
		}
	}
	total := len(prefix) + zeros + len(digits)
	padding := 0
	if width > total {
		padding = width - total
	}
	switch {
	case d.minus:
	case d.zero && !d.hasPrec:
		zeros += padding
		padding = 0
	default:
		for ; padding > 0; padding-- {
			buf = append(buf, ' ')
		}
	}
	buf = append(buf, prefix...)
	for ; zeros > 0; zeros-- {
		buf = append(buf, '0')
	}
	buf = append(buf, digits...)
	for ; padding > 0; padding-- {
		buf = append(buf, ' ')
	}
	return buf
}
