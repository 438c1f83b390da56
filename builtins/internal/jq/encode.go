package jq

import (
	"bufio"
	"math"
	"math/big"
	"strconv"
	"unicode/utf8"
)

// encoder prints values the way jq 1.6 does: insertion key order, two
// space indent, numbers in shortest round-trip form with jq's switch to
// exponent notation, infinities clamped to the largest double.
type encoder struct {
	w       *bufio.Writer
	order   *order
	indent  int // spaces per level; 0 means compact
	tab     bool
	ascii   bool
	sort    bool
	scratch []byte
}

func (e *encoder) encode(v any) {
	e.value(v, 0)
}

func (e *encoder) newline(level int) {
	e.w.WriteByte('\n')
	if e.tab {
		for i := 0; i < level; i++ {
			e.w.WriteByte('\t')
		}
		return
	}
	for i := 0; i < level*e.indent; i++ {
		e.w.WriteByte(' ')
	}
}

func (e *encoder) pretty() bool { return e.indent > 0 || e.tab }

func (e *encoder) value(v any, level int) {
	switch v := v.(type) {
	case nil:
		e.w.WriteString("null")
	case bool:
		if v {
			e.w.WriteString("true")
		} else {
			e.w.WriteString("false")
		}
	case int:
		e.scratch = appendInt(e.scratch[:0], v)
		e.w.Write(e.scratch)
	case float64:
		e.scratch = AppendNumber(e.scratch[:0], v)
		e.w.Write(e.scratch)
	case *big.Int:
		f, _ := new(big.Float).SetInt(v).Float64()
		e.scratch = AppendNumber(e.scratch[:0], f)
		e.w.Write(e.scratch)
	case string:
		e.scratch = appendString(e.scratch[:0], v, e.ascii)
		e.w.Write(e.scratch)
	case []any:
		if len(v) == 0 {
			e.w.WriteString("[]")
			return
		}
		e.w.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				e.w.WriteByte(',')
			}
			if e.pretty() {
				e.newline(level + 1)
			}
			e.value(x, level+1)
		}
		if e.pretty() {
			e.newline(level)
		}
		e.w.WriteByte(']')
	case map[string]any:
		if len(v) == 0 {
			e.w.WriteString("{}")
			return
		}
		e.w.WriteByte('{')
		for i, k := range e.order.keys(v, e.sort) {
			if i > 0 {
				e.w.WriteByte(',')
			}
			if e.pretty() {
				e.newline(level + 1)
			}
			e.scratch = appendString(e.scratch[:0], k, e.ascii)
			e.w.Write(e.scratch)
			e.w.WriteByte(':')
			if e.pretty() {
				e.w.WriteByte(' ')
			}
			e.value(v[k], level+1)
		}
		if e.pretty() {
			e.newline(level)
		}
		e.w.WriteByte('}')
	default:
		// gojq only produces the types above; anything else is a bug,
		// shown rather than dropped.
		e.w.WriteString("null")
	}
}

func appendInt(b []byte, n int) []byte {
	if n > -1e15 && n < 1e15 {
		return strconv.AppendInt(b, int64(n), 10)
	}
	return AppendNumber(b, float64(n))
}

// AppendNumber formats f like jq 1.6's jvp_dtoa_fmt: the shortest digits
// that round-trip, in plain notation unless the decimal exponent is below
// -4 or far beyond the digits, then d.ddde+XX with at least two exponent
// digits. NaN is null and infinities clamp to ±DBL_MAX.
func AppendNumber(b []byte, f float64) []byte {
	if math.IsNaN(f) {
		return append(b, "null"...)
	}
	if math.IsInf(f, 1) {
		f = math.MaxFloat64
	} else if math.IsInf(f, -1) {
		f = -math.MaxFloat64
	}
	if f == 0 {
		if math.Signbit(f) {
			return append(b, "-0"...)
		}
		return append(b, '0')
	}
	var tmp [32]byte
	s := strconv.AppendFloat(tmp[:0], f, 'e', -1, 64)
	if s[0] == '-' {
		b = append(b, '-')
		s = s[1:]
	}
	// s is d[.ddd]e±XX
	epos := 0
	for epos < len(s) && s[epos] != 'e' {
		epos++
	}
	mant, exp := s[:epos], s[epos+1:]
	digits := make([]byte, 0, 20)
	for _, c := range mant {
		if c != '.' {
			digits = append(digits, c)
		}
	}
	e, _ := strconv.Atoi(string(exp))
	decpt := e + 1
	nd := len(digits)
	switch {
	case decpt <= -4 || decpt > nd+15:
		b = append(b, digits[0])
		if nd > 1 {
			b = append(b, '.')
			b = append(b, digits[1:]...)
		}
		b = append(b, 'e')
		x := decpt - 1
		if x < 0 {
			b = append(b, '-')
			x = -x
		} else {
			b = append(b, '+')
		}
		if x < 10 {
			b = append(b, '0')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	case decpt <= 0:
		b = append(b, '0', '.')
		for ; decpt < 0; decpt++ {
			b = append(b, '0')
		}
		b = append(b, digits...)
	default:
		for i, c := range digits {
			if i == decpt {
				b = append(b, '.')
			}
			b = append(b, c)
		}
		for i := nd; i < decpt; i++ {
			b = append(b, '0')
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendString quotes s with jq's escapes: the short forms for \b \f \n
// \r \t, \u00XX for other control bytes and DEL, and with ascii every
// non-ASCII rune as \uXXXX (surrogate pairs above the BMP).
func appendString(b []byte, s string, ascii bool) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < 0x7f {
			i++
			continue
		}
		if c >= 0x80 {
			if !ascii {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			r, n := utf8.DecodeRuneInString(s[i:])
			if r >= 0x10000 {
				r -= 0x10000
				b = appendU(b, 0xD800+(r>>10))
				b = appendU(b, 0xDC00+(r&0x3FF))
			} else {
				b = appendU(b, r)
			}
			i += n
			start = i
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\n':
			b = append(b, '\\', 'n')
		case '\t':
			b = append(b, '\\', 't')
		case '\r':
			b = append(b, '\\', 'r')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			b = appendU(b, rune(c))
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func appendU(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexDigits[r>>12&15], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15])
}
