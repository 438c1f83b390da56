package awk

import (
	"math"
	"strconv"
)

// kind says what an awk value is. Input-derived strings (fields, getline
// variables, split elements, ARGV, ENVIRON, -v values) are "strnums": they
// compare as numbers when they look like numbers.
type kind uint8

const (
	kNull   kind = iota // uninitialized: "" and 0 at once
	kNum                // a number
	kStr                // a string
	kStrNum             // a string from input; numeric if it looks numeric
)

// value is an awk scalar. It is small and passed by value.
type value struct {
	s string
	n float64
	k kind
}

func num(n float64) value   { return value{n: n, k: kNum} }
func str(s string) value    { return value{s: s, k: kStr} }
func strnum(s string) value { return value{s: s, k: kStrNum} }
func boolNum(b bool) value {
	if b {
		return value{n: 1, k: kNum}
	}
	return value{k: kNum}
}

// isTrue is awk truth: non-zero numbers, non-empty strings, and strnums
// by their numeric value when they look numeric.
func (v value) isTrue() bool {
	switch v.k {
	case kNum:
		return v.n != 0
	case kStr:
		return v.s != ""
	case kStrNum:
		if n, ok := looksNumeric(v.s); ok {
			return n != 0
		}
		return v.s != ""
	}
	return false
}

// toNum converts v to a number the way awk does: the longest numeric
// prefix of a string, 0 if there is none.
func (v value) toNum() float64 {
	switch v.k {
	case kNum:
		return v.n
	case kStr, kStrNum:
		return strToNum(v.s)
	}
	return 0
}

// isSpace is awk's blank set for number parsing and default splitting.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// strToNum returns the numeric value of the longest numeric prefix of s.
func strToNum(s string) float64 {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	// Fast path: small plain integers, the common case for fields.
	j, neg := i, false
	if j < len(s) && (s[j] == '-' || s[j] == '+') {
		neg = s[j] == '-'
		j++
	}
	start := j
	var n int64
	for j < len(s) && j-start < 18 && s[j] >= '0' && s[j] <= '9' {
		n = n*10 + int64(s[j]-'0')
		j++
	}
	if j > start && (j == len(s) || !isNumCont(s[j])) {
		if neg {
			return -float64(n)
		}
		return float64(n)
	}
	end := numPrefix(s, i)
	if end == i {
		return specialNum(s[i:])
	}
	f, err := strconv.ParseFloat(s[i:end], 64)
	if err != nil && !isRangeErr(err) {
		return 0
	}
	return f
}

// isNumCont reports whether c could continue a number after digits.
func isNumCont(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E'
}

// numPrefix returns the end of the decimal number starting at s[i]
// (sign, digits, fraction, exponent), or i if there is none.
func numPrefix(s string, i int) int {
	j := i
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		j++
	}
	digits := 0
	for j < len(s) && isDigit(s[j]) {
		j++
		digits++
	}
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && isDigit(s[j]) {
			j++
			digits++
		}
	}
	if digits == 0 {
		return i
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && isDigit(s[k]) {
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			j = k
		}
	}
	return j
}

// specialNum recognizes gawk's signed "+inf", "-inf", "+nan", "-nan".
func specialNum(s string) float64 {
	if len(s) < 4 || (s[0] != '+' && s[0] != '-') {
		return 0
	}
	w := s[1:4]
	neg := s[0] == '-'
	switch {
	case equalFold3(w, "inf"):
		if neg {
			return math.Inf(-1)
		}
		return math.Inf(1)
	case equalFold3(w, "nan"):
		return math.NaN()
	}
	return 0
}

func equalFold3(a, b string) bool {
	for i := 0; i < 3; i++ {
		c := a[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != b[i] {
			return false
		}
	}
	return true
}

// looksNumeric reports whether all of s (but surrounding blanks) is a
// number, and its value: the test that makes a strnum compare numerically.
func looksNumeric(s string) (float64, bool) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	e := len(s)
	for e > i && isSpace(s[e-1]) {
		e--
	}
	if i == e {
		return 0, false
	}
	end := numPrefix(s, i)
	if end != e {
		if end == i && e-i == 4 {
			if f := specialNum(s[i:e]); f != 0 || f != f {
				return f, true
			}
		}
		return 0, false
	}
	return strToNum(s[i:e]), true
}

// isInt reports whether f is integral and exactly representable as int64.
func isInt(f float64) bool {
	return f == math.Trunc(f) && f >= -9.2e18 && f <= 9.2e18
}

// formatNum converts a number to a string: integers as integers, others
// with the given format (CONVFMT or OFMT).
func (p *interp) formatNum(f float64, fmtStr string) string {
	if isInt(f) {
		if f >= 0 && f < numSmallInts {
			return smallInt(int(f))
		}
		return strconv.FormatInt(int64(f), 10)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return formatSpecial(f)
	}
	if f == math.Trunc(f) {
		return strconv.FormatFloat(f, 'f', 0, 64)
	}
	if fmtStr == "%.6g" {
		return strconv.FormatFloat(f, 'g', 6, 64)
	}
	return p.sprintf(fmtStr, []value{num(f)})
}

// formatSpecial renders infinities and NaN like gawk.
func formatSpecial(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "+inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.Signbit(f):
		return "-nan"
	}
	return "+nan"
}

// toStr converts v with CONVFMT.
func (p *interp) toStr(v value) string {
	if v.k == kNum {
		return p.formatNum(v.n, p.convfmt)
	}
	return v.s
}

// toOutStr converts v for print, with OFMT.
func (p *interp) toOutStr(v value) string {
	if v.k == kNum {
		return p.formatNum(v.n, p.ofmt)
	}
	return v.s
}

// compare compares a and b by awk's rules: numerically when both are
// numbers, uninitialized or numeric-looking strnums; as strings otherwise.
func (p *interp) compare(a, b value) int {
	an, aNum := numericForCompare(a)
	if aNum {
		if bn, bNum := numericForCompare(b); bNum {
			switch {
			case an < bn:
				return -1
			case an > bn:
				return 1
			case an == bn:
				return 0
			}
			// NaN: compare like gawk, unordered counts as greater.
			return 1
		}
	}
	as, bs := p.toStr(a), p.toStr(b)
	switch {
	case as < bs:
		return -1
	case as > bs:
		return 1
	}
	return 0
}

func numericForCompare(v value) (float64, bool) {
	switch v.k {
	case kNum:
		return v.n, true
	case kNull:
		return 0, true
	case kStrNum:
		return looksNumeric(v.s)
	}
	return 0, false
}
