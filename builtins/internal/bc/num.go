// Package bc is an interpreter for the bc calculator language as GNU bc
// 1.07 implements it: arbitrary-precision decimal numbers with a scale,
// ibase/obase conversion, variables and arrays with dynamic scoping,
// functions, control flow, GNU's extensions (print, else, &&, ||, !,
// comments with #, long names) and the -l math library.
//
// The interpreter reads its program incrementally and runs each top-level
// chunk (everything up to an unnested newline) as soon as it is complete,
// so errors and output interleave the way they do with GNU bc.
package bc

import (
	"math/big"
	"strings"
)

// maxDigits bounds the size of any number, so a script cannot exhaust
// memory with a runaway computation.
const maxDigits = 10_000_000

// Num is a decimal number: v × 10^-scale. Nums are immutable.
type Num struct {
	v     *big.Int
	scale int
}

func pow10(n int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

func newNum(v *big.Int, scale int) *Num { return &Num{v: v, scale: scale} }

// Int returns n as a Num of scale 0.
func Int(n int64) *Num { return newNum(big.NewInt(n), 0) }

func zero() *Num { return Int(0) }

// IsZero reports whether n is 0.
func (n *Num) IsZero() bool { return n.v.Sign() == 0 }

// Sign returns -1, 0 or 1.
func (n *Num) Sign() int { return n.v.Sign() }

// Scale returns the number of decimal places n carries.
func (n *Num) Scale() int { return n.scale }

// at returns n's value scaled to s ≥ n.scale decimal places.
func (n *Num) at(s int) *big.Int {
	if s == n.scale {
		return n.v
	}
	return new(big.Int).Mul(n.v, pow10(s-n.scale))
}

// truncTo drops decimal places beyond s (toward zero).
func (n *Num) truncTo(s int) *Num {
	if s >= n.scale {
		return n
	}
	return newNum(new(big.Int).Quo(n.v, pow10(n.scale-s)), s)
}

// extendTo pads n with zeros to s decimal places.
func (n *Num) extendTo(s int) *Num {
	if s <= n.scale {
		return n
	}
	return newNum(n.at(s), s)
}

// Cmp compares a and b.
func Cmp(a, b *Num) int {
	s := max(a.scale, b.scale)
	return a.at(s).Cmp(b.at(s))
}

// Add returns a+b with the larger scale.
func Add(a, b *Num) *Num {
	s := max(a.scale, b.scale)
	return newNum(new(big.Int).Add(a.at(s), b.at(s)), s)
}

// Sub returns a-b with the larger scale.
func Sub(a, b *Num) *Num {
	s := max(a.scale, b.scale)
	return newNum(new(big.Int).Sub(a.at(s), b.at(s)), s)
}

// Neg returns -a.
func Neg(a *Num) *Num { return newNum(new(big.Int).Neg(a.v), a.scale) }

// Mul returns a×b truncated to min(a.scale+b.scale, max(scale, a.scale,
// b.scale)) places.
func Mul(a, b *Num, scale int) *Num {
	p := newNum(new(big.Int).Mul(a.v, b.v), a.scale+b.scale)
	return p.truncTo(min(a.scale+b.scale, max(scale, a.scale, b.scale)))
}

// Div returns a/b truncated to scale places; ok is false for b = 0.
func Div(a, b *Num, scale int) (*Num, bool) {
	if b.IsZero() {
		return nil, false
	}
	num := new(big.Int).Mul(a.v, pow10(b.scale+scale))
	den := new(big.Int).Mul(b.v, pow10(a.scale))
	return newNum(num.Quo(num, den), scale), true
}

// Mod returns a - (a/b)×b with a/b taken to scale places, at scale
// max(a.scale, b.scale+scale).
func Mod(a, b *Num, scale int) (*Num, bool) {
	q, ok := Div(a, b, scale)
	if !ok {
		return nil, false
	}
	rs := max(a.scale, b.scale+scale)
	r := Sub(a, Mul(q, b, rs))
	return r.extendTo(rs), true
}

// Pow returns a^e for an integer e: the exact power truncated to
// min(a.scale×e, max(scale, a.scale)) places, or 1/a^-e to scale places.
func Pow(a *Num, e int64, scale int) (*Num, bool) {
	if e == 0 {
		return Int(1), true
	}
	neg := e < 0
	if neg {
		e = -e
	}
	p := newNum(new(big.Int).Exp(a.v, big.NewInt(e), nil), a.scale*int(e))
	if neg {
		return Div(Int(1), p, scale)
	}
	rs := max(scale, a.scale)
	if int64(a.scale)*e < int64(rs) {
		rs = a.scale * int(e)
	}
	return p.truncTo(rs), true
}

// Sqrt returns the square root of a (≥ 0) truncated to max(scale,
// a.scale) places.
func Sqrt(a *Num, scale int) *Num {
	rs := max(scale, a.scale)
	v := new(big.Int).Mul(a.v, pow10(2*rs-a.scale))
	return newNum(v.Sqrt(v), rs)
}

// Length is bc's length(): the number of significant decimal digits.
func Length(a *Num) int {
	s := new(big.Int).Abs(a.v).String()
	if a.v.Sign() == 0 {
		return max(1, a.scale)
	}
	intDigits := len(s) - a.scale
	if intDigits <= 0 {
		return a.scale
	}
	return len(s)
}

// digits estimates the number of decimal digits of n.
func (n *Num) digits() int {
	return int(float64(n.v.BitLen())*0.30103) + 1
}

// Int64 returns the integer part of n, and false when it does not fit.
func (n *Num) Int64() (int64, bool) {
	i := n.truncTo(0).v
	if !i.IsInt64() {
		return 0, false
	}
	return i.Int64(), true
}

// parseLiteral converts a bc number literal in base ibase (digits 0-9 and
// A-Z) the way GNU bc does.
func parseLiteral(s string, ibase int) *Num {
	intPart, frac, _ := strings.Cut(s, ".")
	val := func(c byte) int64 {
		if c >= 'A' {
			return int64(c-'A') + 10
		}
		return int64(c - '0')
	}
	// A one-digit integer part keeps its value (so A is always ten);
	// otherwise a digit too big for the base counts as base-1.
	digit := func(c byte, clamp bool) int64 {
		d := val(c)
		if clamp && d >= int64(ibase) {
			d = int64(ibase) - 1
		}
		return d
	}
	intClamp := len(intPart) > 1
	if ibase == 10 && !strings.ContainsAny(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		v, _ := new(big.Int).SetString(strings.TrimLeft(intPart, "0")+frac+"0", 10)
		v.Quo(v, big.NewInt(10))
		return newNum(v, len(frac))
	}
	b := big.NewInt(int64(ibase))
	iv := new(big.Int)
	for i := 0; i < len(intPart); i++ {
		iv.Mul(iv, b)
		iv.Add(iv, big.NewInt(digit(intPart[i], intClamp)))
	}
	n := newNum(iv, 0)
	if frac == "" {
		return n
	}
	fv := new(big.Int)
	den := big.NewInt(1)
	for i := 0; i < len(frac); i++ {
		fv.Mul(fv, b)
		fv.Add(fv, big.NewInt(digit(frac[i], true)))
		den.Mul(den, b)
	}
	f, _ := Div(newNum(fv, 0), newNum(den, 0), len(frac))
	return Add(n, f)
}

// Format renders n in base obase the way bc prints it: no leading zero
// before the point, digits above 15 as space-separated decimal groups.
func Format(n *Num, obase int) string { return format(n, obase, nil) }

// format is Format calling tick (when set) once per digit it computes
// by a division or multiplication of the whole number: each is a long
// step for a number of a million digits, so the caller checks its
// context on every call.
func format(n *Num, obase int, tick func()) string {
	if tick == nil {
		tick = func() {}
	}
	var b strings.Builder
	if n.v.Sign() < 0 {
		b.WriteByte('-')
	}
	if n.IsZero() {
		return "0"
	}
	abs := new(big.Int).Abs(n.v)
	if obase == 10 {
		s := abs.String()
		if len(s) <= n.scale {
			s = strings.Repeat("0", n.scale-len(s)+1) + s
		}
		ip, fp := s[:len(s)-n.scale], s[len(s)-n.scale:]
		if ip != "0" {
			b.WriteString(ip)
		}
		if n.scale > 0 {
			b.WriteByte('.')
			b.WriteString(fp)
		}
		return b.String()
	}
	ip := new(big.Int).Quo(abs, pow10(n.scale))
	fp := newNum(new(big.Int).Sub(abs, new(big.Int).Mul(ip, pow10(n.scale))), n.scale)
	width := len(itoa(int64(obase - 1)))
	digit := func(d int64, space bool) {
		if obase <= 16 {
			b.WriteByte("0123456789ABCDEF"[d])
			return
		}
		if space {
			b.WriteByte(' ')
		}
		s := itoa(d)
		b.WriteString(strings.Repeat("0", width-len(s)) + s)
	}
	if ip.Sign() > 0 && obase <= 36 {
		// big.Int's conversion is subquadratic; one division per digit
		// is quadratic in the length of the number.
		for _, c := range []byte(ip.Text(obase)) {
			switch {
			case c <= '9':
				digit(int64(c-'0'), true)
			default:
				digit(int64(c-'a'+10), true)
			}
		}
	} else if ip.Sign() > 0 {
		var ds []int64
		base := big.NewInt(int64(obase))
		rem := new(big.Int)
		for ip.Sign() > 0 {
			tick()
			ip.QuoRem(ip, base, rem)
			ds = append(ds, rem.Int64())
		}
		for i := len(ds) - 1; i >= 0; i-- {
			digit(ds[i], true)
		}
	}
	if n.scale > 0 {
		b.WriteByte('.')
		base := Int(int64(obase))
		// One output digit per factor of obase until obase^k has more
		// than scale decimal digits, as GNU bc does.
		t, limit := big.NewInt(1), pow10(n.scale)
		space := false
		for t.Cmp(limit) < 0 {
			tick()
			fp = Mul(fp, base, n.scale)
			d, _ := fp.Int64()
			fp = Sub(fp, Int(d))
			digit(d, space)
			space = true
			t.Mul(t, big.NewInt(int64(obase)))
		}
	}
	return b.String()
}

func itoa(v int64) string { return big.NewInt(v).String() }
