// Package cfloat parses and formats numbers the way glibc's strtold and
// printf do for an x86-64 long double (64-bit mantissa), which is what bash
// printf, coreutils printf and seq compute with. Values are big.Floats of
// precision 64 so that decimal conversions are exact, like glibc's.
package cfloat

import (
	"math/big"
	"strconv"
	"strings"
)

// Prec is the mantissa width of an x86-64 long double.
const Prec = 64

// Exponent limits of a long double, as big.Float MantExp exponents.
const (
	maxExp = 16384
	minExp = -16444
)

// LD is a long double value: a finite or infinite big.Float, or NaN.
type LD struct {
	F   *big.Float // nil when NaN
	Neg bool       // sign of a NaN
}

// NaN reports whether v is not a number.
func (v LD) NaN() bool { return v.F == nil }

// FromInt returns the long double for i.
func FromInt(i int64) LD { return LD{F: newF().SetInt64(i)} }

// FromBig returns the long double nearest to x.
func FromBig(x *big.Float) LD { return LD{F: newF().Set(x)} }

func newF() *big.Float { return new(big.Float).SetPrec(Prec).SetMode(big.ToNearestEven) }

// Parse converts the longest prefix of s that strtold accepts. It returns
// the value, the bytes consumed (0 when s has no number at all) and
// whether the value overflowed or underflowed.
func Parse(s string) (v LD, n int, erange bool) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	rest := strings.ToLower(s[i:])
	switch {
	case strings.HasPrefix(rest, "infinity"):
		return LD{F: newF().SetInf(neg)}, i + 8, false
	case strings.HasPrefix(rest, "inf"):
		return LD{F: newF().SetInf(neg)}, i + 3, false
	case strings.HasPrefix(rest, "nan"):
		j := i + 3
		if j < len(s) && s[j] == '(' {
			k := j + 1
			for k < len(s) && (isAlnum(s[k]) || s[k] == '_') {
				k++
			}
			if k < len(s) && s[k] == ')' {
				j = k + 1
			}
		}
		return LD{Neg: neg}, j, false
	}
	if len(rest) > 2 && rest[0] == '0' && rest[1] == 'x' && (isHex(rest[2]) || rest[2] == '.' && len(rest) > 3 && isHex(rest[3])) {
		return parseHex(s, i+2, neg)
	}
	return parseDec(s, i, neg)
}

// parseDec parses digits[.digits][e[sign]digits] starting at s[i].
func parseDec(s string, i int, neg bool) (LD, int, bool) {
	var digits []byte
	point := -1
	start := i
	for ; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			digits = append(digits, c)
		} else if c == '.' && point < 0 {
			point = len(digits)
		} else {
			break
		}
	}
	if len(digits) == 0 {
		return LD{F: newF()}, 0, false
	}
	_ = start
	if point < 0 {
		point = len(digits)
	}
	exp := 0
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		if e, n := parseExp(s[i+1:]); n > 0 {
			exp = e
			i += 1 + n
		}
	}
	return fromDecimal(digits, point+exp, neg), i, false || rangeCheck(digits, point+exp)
}

// parseExp parses [sign]digits, saturating huge exponents.
func parseExp(s string) (int, int) {
	i, neg := 0, false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	j := i
	e := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		if e < 1e8 {
			e = e*10 + int(s[i]-'0')
		}
	}
	if i == j {
		return 0, 0
	}
	if neg {
		e = -e
	}
	return e, i
}

// fromDecimal returns 0.digits × 10^point, correctly rounded.
func fromDecimal(digits []byte, point int, neg bool) LD {
	k := 0
	for k < len(digits) && digits[k] == '0' {
		k++
	}
	digits = digits[k:]
	point -= k
	f := newF()
	switch {
	case len(digits) == 0 || point < -4960:
		// zero or underflow
	case point > 4940:
		f.SetInf(false)
	default:
		mant, _ := new(big.Int).SetString(string(digits), 10)
		e := point - len(digits)
		if e >= 0 {
			mant.Mul(mant, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e)), nil))
			f.SetInt(mant)
		} else {
			den := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-e)), nil)
			f.SetRat(new(big.Rat).SetFrac(mant, den))
		}
		f = clamp(f)
	}
	if neg {
		f.Neg(f)
	}
	return LD{F: f}
}

// clamp turns values outside the long double range into inf or 0.
func clamp(f *big.Float) *big.Float {
	if f.IsInf() || f.Sign() == 0 {
		return f
	}
	e := f.MantExp(nil)
	switch {
	case e > maxExp:
		return newF().SetInf(f.Sign() < 0)
	case e < minExp:
		return newF()
	}
	return f
}

// rangeCheck reports whether 0.digits × 10^point is outside what a long
// double can hold (so strtold would set ERANGE).
func rangeCheck(digits []byte, point int) bool {
	k := 0
	for k < len(digits) && digits[k] == '0' {
		k++
	}
	if k == len(digits) {
		return false
	}
	point -= k
	if point > 4940 || point < -4960 {
		return true
	}
	v := fromDecimal(digits[k:], point, false)
	if v.F.IsInf() || v.F.Sign() == 0 {
		return true
	}
	return v.F.MantExp(nil) < -16381
}

// parseHex parses the hex float whose digits start at s[i] (after "0x").
func parseHex(s string, i int, neg bool) (LD, int, bool) {
	mant := new(big.Int)
	fracDigits := 0
	seenPoint := false
	for ; i < len(s); i++ {
		c := s[i]
		if isHex(c) {
			mant.Lsh(mant, 4)
			mant.Or(mant, big.NewInt(int64(hexVal(c))))
			if seenPoint {
				fracDigits++
			}
		} else if c == '.' && !seenPoint {
			seenPoint = true
		} else {
			break
		}
	}
	exp := 0
	if i < len(s) && (s[i] == 'p' || s[i] == 'P') {
		if e, n := parseExp(s[i+1:]); n > 0 {
			exp = e
			i += 1 + n
		}
	}
	f := newF()
	erange := false
	if mant.Sign() != 0 {
		bits := mant.BitLen() + exp - 4*fracDigits
		if bits > maxExp+1 || bits < minExp-1 {
			erange = true
			if bits > 0 {
				f.SetInf(false)
			}
		} else {
			f.SetInt(mant)
			f.SetMantExp(f, exp-4*fracDigits)
			f = clamp(f)
			erange = f.IsInf() || f.Sign() == 0 || f.MantExp(nil) < -16381
		}
	}
	if neg {
		f.Neg(f)
	}
	return LD{F: f}, i, erange
}

func isSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// Flags are the printf flags that change how a number is rendered (width
// and the - and 0 flags are the caller's business).
type Flags struct {
	Plus, Space, Hash bool
}

// Format renders v for the printf conversion verb (one of eEfFgGaA) with
// precision prec (-1 for the default).
func Format(v LD, verb byte, prec int, fl Flags) string {
	upper := verb >= 'A' && verb <= 'Z'
	neg := v.Neg
	if v.F != nil {
		neg = v.F.Signbit()
	}
	sign := ""
	switch {
	case neg:
		sign = "-"
	case fl.Plus:
		sign = "+"
	case fl.Space:
		sign = " "
	}
	if v.F == nil || v.F.IsInf() {
		s := "nan"
		if v.F != nil {
			s = "inf"
		}
		if upper {
			s = strings.ToUpper(s)
		}
		return sign + s
	}
	x := new(big.Float).Abs(v.F)
	var s string
	switch verb | 0x20 {
	case 'f':
		s = formatF(x, prec, fl.Hash)
	case 'e':
		s = formatE(x, prec, fl.Hash)
	case 'g':
		s = formatG(x, prec, fl.Hash)
	case 'a':
		s = formatA(x, prec, fl.Hash)
	}
	if upper {
		s = strings.ToUpper(s)
	}
	return sign + s
}

func formatF(x *big.Float, prec int, hash bool) string {
	if prec < 0 {
		prec = 6
	}
	s := x.Text('f', prec)
	if prec == 0 && hash {
		s += "."
	}
	return s
}

func formatE(x *big.Float, prec int, hash bool) string {
	if prec < 0 {
		prec = 6
	}
	s := x.Text('e', prec)
	if prec == 0 && hash {
		k := strings.IndexByte(s, 'e')
		s = s[:k] + "." + s[k:]
	}
	return s
}

// formatG follows C's %g: %e when the exponent is < -4 or >= precision,
// %f otherwise, trailing zeros removed unless '#'.
func formatG(x *big.Float, prec int, hash bool) string {
	switch {
	case prec < 0:
		prec = 6
	case prec == 0:
		prec = 1
	}
	es := x.Text('e', prec-1)
	k := strings.IndexByte(es, 'e')
	exp, _ := strconv.Atoi(es[k+1:])
	var s string
	if exp >= -4 && exp < prec {
		s = x.Text('f', prec-1-exp)
		if hash && !strings.Contains(s, ".") {
			s += "."
		}
		if !hash {
			s = trimZeros(s)
		}
		return s
	}
	mant, e := es[:k], es[k:]
	if hash && !strings.Contains(mant, ".") {
		mant += "."
	}
	if !hash {
		mant = trimZeros(mant)
	}
	return mant + e
}

func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// formatA renders glibc's long double %a: the leading hex digit holds the
// top four mantissa bits, so 1 prints as 0x8p-3.
func formatA(x *big.Float, prec int, hash bool) string {
	if x.Sign() == 0 {
		s := "0x0"
		if prec > 0 {
			s += "." + strings.Repeat("0", prec)
		} else if hash {
			s += "."
		}
		return s + "p+0"
	}
	mant := new(big.Float)
	e := x.MantExp(mant)
	mant.SetMantExp(mant, 64)
	m, _ := mant.Uint64()
	lead := m >> 60
	frac := m & (1<<60 - 1)
	exp := e - 4
	digits := 15
	if prec >= 0 && prec < 15 {
		shift := uint(4 * (15 - prec))
		q := frac >> shift
		r := frac & (1<<shift - 1)
		half := uint64(1) << (shift - 1)
		if r > half || r == half && (q&1 == 1 || (prec == 0 && lead&1 == 1)) {
			q++
		}
		if q>>(4*uint(prec)) != 0 {
			q &= 1<<(4*uint(prec)) - 1
			lead++
		}
		frac = q
		digits = prec
	}
	leadStr := strconv.FormatUint(lead, 16)
	if lead == 16 {
		leadStr = "1"
		exp += 4
	}
	fs := ""
	if digits > 0 {
		fs = strconv.FormatUint(frac, 16)
		fs = strings.Repeat("0", digits-len(fs)) + fs
	}
	if prec < 0 {
		fs = strings.TrimRight(fs, "0")
	} else if len(fs) < prec {
		fs += strings.Repeat("0", prec-len(fs))
	}
	s := "0x" + leadStr
	if fs != "" || hash {
		s += "." + fs
	}
	if exp >= 0 {
		return s + "p+" + strconv.Itoa(exp)
	}
	return s + "p" + strconv.Itoa(exp)
}
