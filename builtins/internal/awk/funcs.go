package awk

import (
	"math"
	"sort"
	"strings"
)

// callBuiltin evaluates a call of a built-in function.
func (p *interp) callBuiltin(e *BuiltinExpr) value {
	a := e.Args
	switch e.Name {
	case "length":
		return num(float64(p.length(a)))
	case "substr":
		s := p.toStr(p.eval(a[0]))
		m := p.eval(a[1]).toNum()
		n := math.Inf(1)
		if len(a) == 3 {
			n = p.eval(a[2]).toNum()
		}
		return str(p.substrChars(s, m, n))
	case "index":
		s := p.toStr(p.eval(a[0]))
		t := p.toStr(p.eval(a[1]))
		i := strings.Index(s, t)
		if i < 0 {
			return num(0)
		}
		return num(float64(p.charCount(s, i) + 1))
	case "split":
		return num(float64(p.splitBuiltin(a)))
	case "sub", "gsub":
		return num(float64(p.subBuiltin(a, e.Name == "gsub")))
	case "match":
		return p.matchBuiltin(a)
	case "sprintf":
		format := p.toStr(p.eval(a[0]))
		args := make([]value, len(a)-1)
		for i, x := range a[1:] {
			args[i] = p.eval(x)
		}
		return str(p.sprintf(format, args))
	case "sin", "cos", "exp", "log", "sqrt", "int":
		return num(p.math1(e.Name, p.eval(a[0]).toNum()))
	case "atan2":
		y := p.eval(a[0]).toNum()
		x := p.eval(a[1]).toNum()
		return num(math.Atan2(y, x))
	case "rand":
		if p.rng == nil {
			p.rng = newRNG(1)
		}
		return num(p.rng.float())
	case "srand":
		prev := p.randSeed
		seed := p.cfg.Now().Unix()
		if len(a) == 1 {
			seed = cLong(p.eval(a[0]).toNum())
		}
		p.randSeed = seed
		p.rng = newRNG(uint32(seed))
		return num(float64(prev))
	case "tolower":
		return str(p.mapCase(p.toStr(p.eval(a[0])), false))
	case "toupper":
		return str(p.mapCase(p.toStr(p.eval(a[0])), true))
	case "close":
		name := p.toStr(p.eval(a[0]))
		return num(float64(p.closeStream(name)))
	case "fflush":
		return num(float64(p.fflush(a)))
	case "system":
		cmd := p.toStr(p.eval(a[0]))
		p.flushAll()
		if p.cfg.Exec == nil {
			return num(-1)
		}
		return num(float64(p.cfg.Exec(cmd, p.cfg.Stdin, p.outSync)))
	case "gensub":
		return p.gensub(a)
	case "systime":
		return num(float64(p.cfg.Now().Unix()))
	case "strftime":
		return p.strftimeBuiltin(a)
	case "mktime":
		return p.mktimeBuiltin(a)
	case "asort", "asorti":
		return num(float64(p.asort(a, e.Name == "asorti")))
	case "and", "or", "xor", "lshift", "rshift", "compl":
		return num(p.bitop(e.Name, a))
	case "strtonum":
		return num(strtonum(p.eval(a[0]), p))
	case "isarray":
		if v, ok := a[0].(*VarExpr); ok && v.Scope != scopeSpecial {
			return boolNum(p.cellOf(v).arr != nil)
		}
		return num(0)
	case "typeof":
		return str(p.typeOf(a[0]))
	}
	p.fatalf("function `%s' not defined", e.Name)
	return value{}
}

// length handles length, length(s) and gawk's length(array).
func (p *interp) length(a []Expr) int {
	if len(a) == 0 {
		return p.charLen(p.getRecord())
	}
	if v, ok := a[0].(*VarExpr); ok && v.Scope != scopeSpecial {
		if c := p.cellOf(v); c.arr != nil {
			return c.arr.len()
		}
	}
	return p.charLen(p.toStr(p.eval(a[0])))
}

// substr behaves like gawk's: a start below 1 counts as 1 (without
// shortening the length), a length below 1 gives "", and fractions are
// truncated.
func substr(s string, m, n float64) string {
	if !(n >= 1) {
		return ""
	}
	if !(m >= 1) {
		m = 1
	}
	if m > float64(len(s)) {
		return ""
	}
	start := int(m) - 1
	rest := len(s) - start
	if n < float64(rest) {
		rest = int(n)
	}
	return s[start : start+rest]
}

func (p *interp) math1(name string, x float64) float64 {
	switch name {
	case "sin":
		return math.Sin(x)
	case "cos":
		return math.Cos(x)
	case "exp":
		r := math.Exp(x)
		if math.IsInf(r, 0) && !math.IsInf(x, 0) {
			p.warnf("exp: argument %g is out of range", x)
		}
		return r
	case "log":
		if x < 0 {
			p.warnf("log: received negative argument %g", x)
			return math.Copysign(math.NaN(), -1)
		}
		return math.Log(x)
	case "sqrt":
		if x < 0 {
			p.warnf("sqrt: called with negative argument %g", x)
			return math.Copysign(math.NaN(), -1)
		}
		return math.Sqrt(x)
	}
	return math.Trunc(x)
}

func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'A' && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

func asciiUpper(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'a' && c <= 'z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'a' && c <= 'z' {
					b[j] = c - ('a' - 'A')
				}
			}
			return string(b)
		}
	}
	return s
}

func (p *interp) fflush(a []Expr) int {
	if len(a) == 0 {
		p.flushAll()
		return 0
	}
	name := p.toStr(p.eval(a[0]))
	switch name {
	case "":
		p.flushAll()
		return 0
	case "/dev/stdout", "-":
		p.flushOut(p.out)
		return 0
	case "/dev/stderr":
		p.errOut.Flush()
		return 0
	}
	if s, ok := p.outputs[name]; ok {
		if s.w.Flush() != nil {
			return -1
		}
		return 0
	}
	return -1
}

// splitBuiltin implements split(s, a [, fs [, seps]]).
func (p *interp) splitBuiltin(a []Expr) int {
	s := p.toStr(p.eval(a[0]))
	arr := p.arrayOf(a[1].(*VarExpr))
	var sp splitter
	switch {
	case len(a) < 3:
		sp = p.newSplitter(p.toStr(p.sp[spFS]), false)
	default:
		if re, ok := a[2].(*RegexLit); ok {
			sp = splitter{mode: splitRegex, re: p.regexOf(re)}
		} else {
			sp = p.newSplitter(p.toStr(p.eval(a[2])), false)
		}
	}
	var seps []string
	var sepsArr *array
	if len(a) == 4 {
		sepsArr = p.arrayOf(a[3].(*VarExpr))
	}
	var sepp *[]string
	if sepsArr != nil {
		sepp = &seps
	}
	p.splitBuf = sp.splitInto(p.splitBuf[:0], s, sepp)
	parts := p.splitBuf
	arr.clear()
	for i, v := range parts {
		arr.set(itoa(i+1), v)
	}
	if sepsArr != nil {
		sepsArr.clear()
		if sp.mode == splitSpace {
			lead := len(s) - len(strings.TrimLeft(s, " \t\n"))
			if lead > 0 {
				sepsArr.set("0", strnum(s[:lead]))
			}
		}
		for i, sep := range seps {
			sepsArr.set(itoa(i+1), strnum(sep))
		}
		if sp.mode == splitSpace && len(parts) > 0 {
			trail := strings.TrimRight(s, " \t\n")
			if len(trail) < len(s) {
				sepsArr.set(itoa(len(parts)), strnum(s[len(trail):]))
			}
		}
	}
	return len(parts)
}

// recordExpr is $0, the default target of sub and gsub. Nodes are never
// modified, so one serves every call.
var recordExpr Expr = &FieldExpr{Index: &NumLit{0}}

// subBuiltin implements sub and gsub.
func (p *interp) subBuiltin(a []Expr, global bool) int {
	re := p.regexFor(a[0])
	repl := p.toStr(p.eval(a[1]))
	target := recordExpr
	if len(a) == 3 {
		target = a[2]
	}
	s := p.toStr(p.eval(target))
	out, n := p.substitute(re, repl, s, global)
	if n > 0 && isLvalue(target) {
		p.assign(target, str(out))
	}
	return n
}

// replPiece is a part of a sub/gsub replacement: literal text, or the
// matched text when lit is empty and match is set.
type replPiece struct {
	lit   string
	match bool
}

// parseRepl applies the POSIX rules gawk follows for sub and gsub:
// "&" is the match, "\&" a literal "&", "\\" a literal backslash, and any
// other backslash stays as it is.
func parseRepl(repl string) []replPiece {
	var pieces []replPiece
	var b strings.Builder
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		switch {
		case c == '\\' && i+1 < len(repl) && (repl[i+1] == '&' || repl[i+1] == '\\'):
			i++
			b.WriteByte(repl[i])
		case c == '&':
			if b.Len() > 0 {
				pieces = append(pieces, replPiece{lit: b.String()})
				b.Reset()
			}
			pieces = append(pieces, replPiece{match: true})
		default:
			b.WriteByte(c)
		}
	}
	if b.Len() > 0 {
		pieces = append(pieces, replPiece{lit: b.String()})
	}
	return pieces
}

func (p *interp) substitute(re *regex, repl, s string, global bool) (string, int) {
	pieces := p.replPieces(repl)
	var b strings.Builder
	last, n := 0, 0
	it := matchIter{r: re, s: s, all: global}
	for {
		start, end, ok := it.next()
		if !ok {
			break
		}
		if n == 0 {
			b.Grow(len(s) + len(repl))
		}
		n++
		b.WriteString(s[last:start])
		for _, pc := range pieces {
			if pc.match {
				b.WriteString(s[start:end])
			} else {
				b.WriteString(pc.lit)
			}
		}
		if p.maxStr > 0 && b.Len() > p.maxStr {
			p.built(b.Len())
		}
		last = end
	}
	if n == 0 {
		p.meter.Add(len(s))
		return s, 0
	}
	b.WriteString(s[last:])
	p.built(b.Len())
	return b.String(), n
}

// replPieces parses a replacement through a small cache: programs use a
// handful of constant replacements on every record.
func (p *interp) replPieces(repl string) []replPiece {
	if pcs, ok := p.replCache[repl]; ok {
		return pcs
	}
	pcs := parseRepl(repl)
	if len(p.replCache) >= 64 {
		clear(p.replCache)
	}
	p.replCache[repl] = pcs
	return pcs
}

// matchBuiltin implements match(s, re [, arr]).
func (p *interp) matchBuiltin(a []Expr) value {
	s := p.toStr(p.eval(a[0]))
	re := p.regexFor(a[1])
	var arr *array
	if len(a) == 3 {
		arr = p.arrayOf(a[2].(*VarExpr))
		arr.clear()
	}
	var loc []int
	if arr != nil {
		loc = re.findSubmatchIndex(s)
	} else {
		loc = re.findIndex(s)
	}
	if loc == nil {
		p.sp[spRSTART] = num(0)
		p.sp[spRLENGTH] = num(-1)
		return num(0)
	}
	start := p.charCount(s, loc[0]) + 1
	p.sp[spRSTART] = num(float64(start))
	p.sp[spRLENGTH] = num(float64(p.charLen(s[loc[0]:loc[1]])))
	if arr != nil {
		for i := 0; 2*i+1 < len(loc); i++ {
			if loc[2*i] < 0 {
				continue
			}
			k := itoa(i)
			arr.set(k, strnum(s[loc[2*i]:loc[2*i+1]]))
			arr.set(k+p.subsep+"start", num(float64(p.charCount(s, loc[2*i])+1)))
			arr.set(k+p.subsep+"length", num(float64(p.charLen(s[loc[2*i]:loc[2*i+1]]))))
		}
	}
	return num(float64(start))
}

// gensub implements gawk's gensub(re, repl, how [, target]).
func (p *interp) gensub(a []Expr) value {
	re := p.regexFor(a[0])
	repl := p.toStr(p.eval(a[1]))
	how := p.eval(a[2])
	var s string
	if len(a) == 4 {
		s = p.toStr(p.eval(a[3]))
	} else {
		s = p.getRecord()
	}
	global, which := false, 1
	hs := p.toStr(how)
	if how.k != kNum && len(hs) > 0 && (hs[0] == 'g' || hs[0] == 'G') {
		global = true
	} else if n := how.toNum(); n >= 1 {
		which = int(n)
	} else if how.k == kNum || hs != "" {
		p.warnf("gensub: third argument `%s' treated as 1", hs)
	}
	var b strings.Builder
	last, count := 0, 0
	for _, m := range re.findAllIndex(s, -1) {
		count++
		if !global && count != which {
			continue
		}
		b.WriteString(s[last:m[0]])
		appendGensubRepl(&b, repl, s, m)
		last = m[1]
		if !global {
			break
		}
	}
	if last == 0 && b.Len() == 0 {
		return str(s)
	}
	b.WriteString(s[last:])
	return str(b.String())
}

func appendGensubRepl(b *strings.Builder, repl, s string, m []int) {
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		switch {
		case c == '&':
			b.WriteString(s[m[0]:m[1]])
		case c == '\\' && i+1 < len(repl):
			i++
			d := repl[i]
			switch {
			case d >= '0' && d <= '9':
				g := int(d - '0')
				if 2*g+1 < len(m) && m[2*g] >= 0 {
					b.WriteString(s[m[2*g]:m[2*g+1]])
				}
			case d == '&':
				b.WriteByte('&')
			case d == '\\':
				b.WriteByte('\\')
			default:
				b.WriteByte('\\')
				b.WriteByte(d)
			}
		default:
			b.WriteByte(c)
		}
	}
}

// asort implements asort and asorti: sort values (or indices) into
// 1..n of the destination, which is the source itself when absent.
func (p *interp) asort(a []Expr, indices bool) int {
	src := p.arrayOf(a[0].(*VarExpr))
	var vals []value
	src.each(func(k string, v value) {
		if indices {
			v = strnum(k)
		}
		vals = append(vals, v)
	})
	how := ""
	if len(a) == 3 {
		how = p.toStr(p.eval(a[2]))
	}
	p.sortValues(vals, indices, how)
	dst := src
	if len(a) >= 2 {
		dst = p.arrayOf(a[1].(*VarExpr))
	}
	dst.clear()
	for i, v := range vals {
		dst.set(itoa(i+1), v)
	}
	return len(vals)
}

// sortValues orders like gawk's default "@val_type_asc": numbers before
// strings, numbers by value, strings bytewise. asorti compares indices
// as strings.
func (p *interp) sortValues(vals []value, indices bool, how string) {
	desc := strings.Contains(how, "desc")
	less := func(x, y value) bool {
		if indices && !strings.Contains(how, "num") {
			return x.s < y.s
		}
		return p.valTypeLess(x, y)
	}
	sort.SliceStable(vals, func(i, j int) bool {
		if desc {
			return less(vals[j], vals[i])
		}
		return less(vals[i], vals[j])
	})
}

// valTypeLess orders numbers before strings, numbers by value and
// strings bytewise.
func (p *interp) valTypeLess(x, y value) bool {
	xn, xNum := numericForCompare(x)
	yn, yNum := numericForCompare(y)
	switch {
	case xNum && yNum:
		if xn != yn {
			return xn < yn
		}
		return p.toStr(x) < p.toStr(y)
	case xNum != yNum:
		return xNum
	}
	return p.toStr(x) < p.toStr(y)
}

func (p *interp) bitop(name string, a []Expr) float64 {
	toU := func(e Expr) uint64 {
		f := p.eval(e).toNum()
		if f < 0 {
			p.fatalf("%s: negative values are not allowed", name)
		}
		return uint64(f)
	}
	switch name {
	case "compl":
		return float64(^toU(a[0]) & (1<<53 - 1))
	case "lshift":
		x, n := toU(a[0]), toU(a[1])
		return float64(x << n)
	case "rshift":
		x, n := toU(a[0]), toU(a[1])
		return float64(x >> n)
	}
	r := toU(a[0])
	for _, e := range a[1:] {
		x := toU(e)
		switch name {
		case "and":
			r &= x
		case "or":
			r |= x
		case "xor":
			r ^= x
		}
	}
	return float64(r)
}

// rng is gawk's random number generator, so that a program gets the
// numbers gawk would give it for the same seed (and, without srand, the
// same sequence every run). It is the BSD random() additive feedback
// generator x[n] = x[n-63] + x[n-62] seeded by a Park-Miller LCG, whose
// output gawk passes through a 512-entry Bays-Durham shuffle table.
type rng struct {
	state [rngDeg]uint32
	f, r  int
	table [512]uint32
	last  uint32
}

const rngDeg, rngSep = 63, 1

// newRNG is gawk's srandom(seed).
func newRNG(seed uint32) *rng {
	g := &rng{}
	g.state[0] = seed
	for i := 1; i < rngDeg; i++ {
		g.state[i] = parkMiller(g.state[i-1])
	}
	g.f, g.r = rngSep, 0
	// The shuffle table is filled by the first draw, inside the warm-up.
	for i := range g.table {
		g.table[i] = g.next()
	}
	g.last = g.next()
	for i := 0; i < 10*rngDeg; i++ {
		g.random()
	}
	return g
}

// parkMiller computes 16807 * x mod (2^31 - 1) without overflow.
func parkMiller(u uint32) uint32 {
	x := int32(u)
	if x == 0 {
		x = 123459876
	}
	hi, lo := x/127773, x%127773
	x = 16807*lo - 2836*hi
	if x < 0 {
		x += 0x7fffffff
	}
	return uint32(x)
}

// next is the unshuffled generator: a 31-bit number.
func (g *rng) next() uint32 {
	g.state[g.f] += g.state[g.r]
	v := g.state[g.f] >> 1
	if g.f++; g.f >= rngDeg {
		g.f = 0
		g.r++
	} else if g.r++; g.r >= rngDeg {
		g.r = 0
	}
	return v
}

// random is gawk's random(): the shuffled output.
func (g *rng) random() uint32 {
	j := g.last & 511
	g.last = g.table[j]
	g.table[j] = g.next()
	return g.last
}

// float is gawk's rand(): two draws for more bits, in [0, 1).
func (g *rng) float() float64 {
	const div = 1 << 31
	for {
		d1 := float64(g.random())
		d2 := float64(g.random())
		r := 0.5 + (d1/div+d2)/div
		r -= 0.5
		if r != 1 {
			return r
		}
	}
}

// cLong converts like a C (long) cast on amd64: out-of-range values and
// NaN become the smallest long.
func cLong(f float64) int64 {
	if f != f || f >= 1<<63 || f < -(1<<63) {
		return math.MinInt64
	}
	return int64(f)
}

// sortKeys orders a for-in loop as gawk's PROCINFO["sorted_in"] asks:
// one of the "@ind_str_asc"-style orders or the name of a comparison
// function taking (i1, v1, i2, v2).
func (p *interp) sortKeys(keys []string, arr *array, how string) {
	val := func(k string) value { v, _ := arr.lookup(k); return v }
	var less func(a, b string) bool
	switch strings.TrimSuffix(strings.TrimSuffix(how, "_asc"), "_desc") {
	case "@unsorted", "":
		return
	case "@ind_str":
		less = func(a, b string) bool { return a < b }
	case "@ind_num":
		less = func(a, b string) bool {
			x, y := strToNum(a), strToNum(b)
			if x != y {
				return x < y
			}
			return a < b
		}
	case "@val_str":
		less = func(a, b string) bool {
			x, y := p.toStr(val(a)), p.toStr(val(b))
			if x != y {
				return x < y
			}
			return a < b
		}
	case "@val_num":
		less = func(a, b string) bool {
			x, y := val(a).toNum(), val(b).toNum()
			if x != y {
				return x < y
			}
			return a < b
		}
	case "@val_type":
		less = func(a, b string) bool { return p.valTypeLess(val(a), val(b)) }
	default:
		i, ok := p.prog.funcIdx[how]
		if !ok {
			p.fatalf("`%s' is not a valid array sorting order", how)
		}
		fn := p.prog.Funcs[i]
		less = func(a, b string) bool {
			return p.callValues(fn, []value{strnum(a), val(a), strnum(b), val(b)}).toNum() < 0
		}
	}
	if strings.HasSuffix(how, "_desc") {
		asc := less
		less = func(a, b string) bool { return asc(b, a) }
	}
	sort.SliceStable(keys, func(i, j int) bool { return less(keys[i], keys[j]) })
}

// strtonum converts like gawk's strtonum: 0x hex and leading-0 octal
// strings, decimal otherwise.
func strtonum(v value, p *interp) float64 {
	if v.k == kNum {
		return v.n
	}
	s := strings.TrimLeft(p.toStr(v), " \t\n")
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg, s = s[0] == '-', s[1:]
	}
	var n float64
	switch {
	case len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
		for _, c := range []byte(s[2:]) {
			if !isHex(c) {
				break
			}
			n = n*16 + float64(hexVal(c))
		}
	case len(s) > 1 && s[0] == '0' && isDigit(s[1]):
		for _, c := range []byte(s[1:]) {
			if c < '0' || c > '7' {
				break
			}
			n = n*8 + float64(c-'0')
		}
	default:
		n = strToNum(s)
	}
	if neg {
		return -n
	}
	return n
}

// typeOf implements gawk's typeof.
func (p *interp) typeOf(e Expr) string {
	if v, ok := e.(*VarExpr); ok && v.Scope != scopeSpecial {
		c := p.cellOf(v)
		if c.arr != nil {
			return "array"
		}
		if c.v.k == kNull {
			return "untyped"
		}
	}
	if r, ok := e.(*RegexLit); ok {
		_ = r
		return "regexp"
	}
	v := p.eval(e)
	switch v.k {
	case kNum:
		return "number"
	case kStr:
		return "string"
	case kStrNum:
		if _, ok := looksNumeric(v.s); ok {
			return "strnum"
		}
		return "string"
	}
	return "unassigned"
}
