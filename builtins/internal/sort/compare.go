package sort

import (
	"bytes"
	"math"
	"strconv"
)

// Config is a complete description of how lines are ordered.
type Config struct {
	Keys    []Key
	Tab     int  // field separator byte, or -1 for blank-separated fields
	Unique  bool // -u: keys alone decide equality
	Stable  bool // -s: no last-resort whole-line comparison
	Reverse bool // global -r, applied to the last-resort comparison
	Delim   byte // line delimiter: '\n' or 0 with -z
	Seed    uint64
}

// comparer compares lines under a Config. It owns scratch buffers, so
// each goroutine needs its own.
type comparer struct {
	cfg        *Config
	bufA, bufB []byte
}

func newComparer(cfg *Config) *comparer { return &comparer{cfg: cfg} }

// lastResort reports whether equal keys fall back to comparing lines.
func (c *comparer) lastResort() bool {
	return len(c.cfg.Keys) == 0 || !(c.cfg.Unique || c.cfg.Stable)
}

// compare orders two lines (without delimiters), given the precomputed
// bounds of their first key.
func (c *comparer) compare(a, b []byte, ab, al, bb, bl int) int {
	if len(c.cfg.Keys) > 0 {
		if d := c.keyCompare(a, b, ab, al, bb, bl); d != 0 || c.cfg.Unique || c.cfg.Stable {
			return d
		}
	}
	d := bytes.Compare(a, b)
	if c.cfg.Reverse {
		return -d
	}
	return d
}

// firstKey returns the bounds of the first key in line.
func (c *comparer) firstKey(line []byte) (int, int) {
	if len(c.cfg.Keys) == 0 {
		return 0, len(line)
	}
	return c.bounds(line, &c.cfg.Keys[0])
}

// bounds locates key k in line as GNU's begfield/limfield do.
func (c *comparer) bounds(line []byte, k *Key) (int, int) {
	lim := len(line)
	if k.EWord != whole {
		lim = limField(line, k, c.cfg.Tab)
	}
	beg := 0
	if k.SWord != whole {
		beg = begField(line, k, c.cfg.Tab)
	} else if k.SkipSBlanks {
		for beg < len(line) && isBlank(line[beg]) {
			beg++
		}
	}
	return beg, lim
}

func begField(line []byte, k *Key, tab int) int {
	ptr, lim := 0, len(line)
	sword := k.SWord
	if tab >= 0 {
		t := byte(tab)
		for ptr < lim && sword > 0 {
			sword--
			for ptr < lim && line[ptr] != t {
				ptr++
			}
			if ptr < lim {
				ptr++
			}
		}
	} else {
		for ptr < lim && sword > 0 {
			sword--
			for ptr < lim && isBlank(line[ptr]) {
				ptr++
			}
			for ptr < lim && !isBlank(line[ptr]) {
				ptr++
			}
		}
	}
	if k.SkipSBlanks {
		for ptr < lim && isBlank(line[ptr]) {
			ptr++
		}
	}
	return min(lim, ptr+k.SChar)
}

func limField(line []byte, k *Key, tab int) int {
	ptr, lim := 0, len(line)
	eword, echar := k.EWord, k.EChar
	if echar == 0 {
		eword++ // skip all of the end field
	}
	if tab >= 0 {
		t := byte(tab)
		for ptr < lim && eword > 0 {
			eword--
			for ptr < lim && line[ptr] != t {
				ptr++
			}
			if ptr < lim && (eword > 0 || echar != 0) {
				ptr++
			}
		}
	} else {
		for ptr < lim && eword > 0 {
			eword--
			for ptr < lim && isBlank(line[ptr]) {
				ptr++
			}
			for ptr < lim && !isBlank(line[ptr]) {
				ptr++
			}
		}
	}
	if echar != 0 {
		if k.SkipEBlanks {
			for ptr < lim && isBlank(line[ptr]) {
				ptr++
			}
		}
		ptr = min(lim, ptr+echar)
	}
	return ptr
}

// keyCompare compares a and b key by key, the first key's bounds given.
func (c *comparer) keyCompare(a, b []byte, ab, al, bb, bl int) int {
	keys := c.cfg.Keys
	for i := range keys {
		k := &keys[i]
		if i > 0 {
			ab, al = c.bounds(a, k)
			bb, bl = c.bounds(b, k)
		}
		al = max(al, ab)
		bl = max(bl, bb)
		d := c.compareKey(k, a[ab:al], b[bb:bl])
		if d != 0 {
			if k.Reverse {
				return -d
			}
			return d
		}
	}
	return 0
}

func (c *comparer) compareKey(k *Key, ta, tb []byte) int {
	special := k.Numeric || k.General || k.Human || k.Month || k.Random || k.Version
	if !special {
		switch {
		case k.Ignore != nil || k.Fold:
			return compareIgnore(ta, tb, k.Ignore, k.Fold)
		case len(ta) == 0:
			if len(tb) == 0 {
				return 0
			}
			return -1
		case len(tb) == 0:
			return 1
		}
		return bytes.Compare(ta, tb)
	}
	if k.Ignore != nil || k.Fold {
		c.bufA = translate(c.bufA[:0], ta, k.Ignore, k.Fold)
		c.bufB = translate(c.bufB[:0], tb, k.Ignore, k.Fold)
		ta, tb = c.bufA, c.bufB
	}
	switch {
	case k.Numeric:
		return numCompare(ta, tb)
	case k.General:
		return generalCompare(ta, tb)
	case k.Human:
		return humanCompare(ta, tb)
	case k.Month:
		return month(ta) - month(tb)
	case k.Random:
		return c.randomCompare(ta, tb)
	}
	return VersionCompare(ta, tb)
}

func translate(dst, src []byte, ignore *[256]bool, fold bool) []byte {
	for _, ch := range src {
		if ignore != nil && ignore[ch] {
			continue
		}
		if fold {
			ch = upper(ch)
		}
		dst = append(dst, ch)
	}
	return dst
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 32
	}
	return c
}

// compareIgnore is GNU's CMP_WITH_IGNORE: skip ignored bytes, fold case.
func compareIgnore(a, b []byte, ignore *[256]bool, fold bool) int {
	i, j := 0, 0
	if ignore == nil {
		// Plain case folding: skip the common prefix a byte at a time
		// without translating equal bytes.
		n := min(len(a), len(b))
		for i < n {
			x, y := a[i], b[i]
			if x != y {
				if x, y = upper(x), upper(y); x != y {
					return int(x) - int(y)
				}
			}
			i++
		}
		return b2i(n < len(a)) - b2i(n < len(b))
	}
	for {
		if ignore != nil {
			for i < len(a) && ignore[a[i]] {
				i++
			}
			for j < len(b) && ignore[b[j]] {
				j++
			}
		}
		if i >= len(a) || j >= len(b) {
			break
		}
		x, y := a[i], b[j]
		if fold {
			x, y = upper(x), upper(y)
		}
		if x != y {
			return int(x) - int(y)
		}
		i++
		j++
	}
	return b2i(i < len(a)) - b2i(j < len(b))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// at returns s[i], or 0 past the end: GNU compares NUL-terminated keys.
func at(s []byte, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func skipBlanks(s []byte) []byte {
	i := 0
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	return s[i:]
}

// numCompare is gnulib's strnumcmp for the C locale (decimal point '.',
// no thousands separator) after skipping leading blanks.
func numCompare(a, b []byte) int {
	a, b = skipBlanks(a), skipBlanks(b)
	i, j := 0, 0
	ca, cb := at(a, 0), at(b, 0)
	if ca == '-' {
		for {
			i++
			if ca = at(a, i); ca != '0' {
				break
			}
		}
		if cb != '-' {
			if ca == '.' {
				for {
					i++
					if ca = at(a, i); ca != '0' {
						break
					}
				}
			}
			if isDigit(ca) {
				return -1
			}
			for cb == '0' {
				j++
				cb = at(b, j)
			}
			if cb == '.' {
				for {
					j++
					if cb = at(b, j); cb != '0' {
						break
					}
				}
			}
			return -b2i(isDigit(cb))
		}
		for {
			j++
			if cb = at(b, j); cb != '0' {
				break
			}
		}
		for ca == cb && isDigit(ca) {
			i++
			j++
			ca, cb = at(a, i), at(b, j)
		}
		if (ca == '.' && !isDigit(cb)) || (cb == '.' && !isDigit(ca)) {
			return fracCompare(b[j:], a[i:])
		}
		return -intTail(a, b, i, j, ca, cb)
	}
	if cb == '-' {
		for {
			j++
			if cb = at(b, j); cb != '0' {
				break
			}
		}
		if cb == '.' {
			for {
				j++
				if cb = at(b, j); cb != '0' {
					break
				}
			}
		}
		if isDigit(cb) {
			return 1
		}
		for ca == '0' {
			i++
			ca = at(a, i)
		}
		if ca == '.' {
			for {
				i++
				if ca = at(a, i); ca != '0' {
					break
				}
			}
		}
		return b2i(isDigit(ca))
	}
	for ca == '0' {
		i++
		ca = at(a, i)
	}
	for cb == '0' {
		j++
		cb = at(b, j)
	}
	for ca == cb && isDigit(ca) {
		i++
		j++
		ca, cb = at(a, i), at(b, j)
	}
	if (ca == '.' && !isDigit(cb)) || (cb == '.' && !isDigit(ca)) {
		return fracCompare(a[i:], b[j:])
	}
	return intTail(a, b, i, j, ca, cb)
}

// intTail finishes comparing two non-negative integer parts that agree up
// to positions i and j: the longer wins, else the first differing digit.
func intTail(a, b []byte, i, j int, ca, cb byte) int {
	tmp := int(ca) - int(cb)
	la, lb := 0, 0
	for isDigit(at(a, i+la)) {
		la++
	}
	for isDigit(at(b, j+lb)) {
		lb++
	}
	if la != lb {
		if la < lb {
			return -1
		}
		return 1
	}
	if la == 0 {
		return 0
	}
	return tmp
}

// fracCompare compares fractional parts starting at a decimal point.
func fracCompare(a, b []byte) int {
	i, j := 0, 0
	ca, cb := at(a, 0), at(b, 0)
	if ca == '.' && cb == '.' {
		for {
			i++
			j++
			ca, cb = at(a, i), at(b, j)
			if ca != cb {
				break
			}
			if !isDigit(ca) {
				return 0
			}
		}
		if isDigit(ca) && isDigit(cb) {
			return int(ca) - int(cb)
		}
		if isDigit(ca) {
			return trailingNonzero(a[i:])
		}
		if isDigit(cb) {
			return -trailingNonzero(b[j:])
		}
		return 0
	}
	if ca == '.' {
		return trailingNonzero(a[1:])
	}
	if cb == '.' {
		return -trailingNonzero(b[1:])
	}
	return 0
}

func trailingNonzero(s []byte) int {
	i := 0
	for at(s, i) == '0' {
		i++
	}
	return b2i(isDigit(at(s, i)))
}

// humanCompare orders by SI suffix first, then numerically (sort -h).
func humanCompare(a, b []byte) int {
	a, b = skipBlanks(a), skipBlanks(b)
	if d := unitOrder(a) - unitOrder(b); d != 0 {
		return d
	}
	return numCompare(a, b)
}

func unitOrder(s []byte) int {
	neg := at(s, 0) == '-'
	i := b2i(neg)
	nonzero := false
	var ch byte
	for {
		ch = at(s, i)
		i++
		if !isDigit(ch) {
			break
		}
		nonzero = nonzero || ch != '0'
	}
	if ch == '.' {
		for {
			ch = at(s, i)
			i++
			if !isDigit(ch) {
				break
			}
			nonzero = nonzero || ch != '0'
		}
	}
	if !nonzero {
		return 0
	}
	order := 0
	switch ch {
	case 'k', 'K':
		order = 1
	case 'M':
		order = 2
	case 'G':
		order = 3
	case 'T':
		order = 4
	case 'P':
		order = 5
	case 'E':
		order = 6
	case 'Z':
		order = 7
	case 'Y':
		order = 8
	}
	if neg {
		return -order
	}
	return order
}

var monthNames = [12]string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}

// month returns 1..12 for a key starting (after blanks) with a month
// abbreviation in any case, else 0.
func month(s []byte) int {
	s = skipBlanks(s)
	if len(s) < 3 {
		return 0
	}
	for i, m := range monthNames {
		if upper(s[0]) == m[0] && upper(s[1]) == m[1] && upper(s[2]) == m[2] {
			return i + 1
		}
	}
	return 0
}

// generalCompare is sort -g: strtold-style prefixes compared as floats,
// with unparsable keys first, then NaNs, then numbers.
func generalCompare(a, b []byte) int {
	fa, oka := parseFloatPrefix(a)
	fb, okb := parseFloatPrefix(b)
	switch {
	case !oka:
		if !okb {
			return 0
		}
		return -1
	case !okb:
		return 1
	case fa < fb:
		return -1
	case fa > fb:
		return 1
	case fa == fb:
		return 0
	case fb == fb: // a is NaN
		return -1
	case fa == fa:
		return 1
	}
	return 0
}

// parseFloatPrefix converts the longest prefix of s that strtod accepts.
func parseFloatPrefix(s []byte) (float64, bool) {
	i := 0
	for i < len(s) && (isBlank(s[i]) || s[i] == '\v' || s[i] == '\f' || s[i] == '\r') {
		i++
	}
	start := i
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	neg := i > start && s[start] == '-'
	rest := s[i:]
	if n := matchFold(rest, "infinity"); n == 8 || n >= 3 && n < 8 {
		if neg {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	if matchFold(rest, "nan") == 3 {
		return math.NaN(), true
	}
	end := i
	hexSuffix := ""
	if len(rest) > 1 && rest[0] == '0' && (rest[1]|0x20) == 'x' {
		if e := scanHex(s, i+2); e > 0 {
			end = e
			if bytes.IndexAny(s[i:end], "pP") < 0 {
				hexSuffix = "p0" // Go insists on a binary exponent
			}
		} else {
			end = i + 1 // just the "0"
		}
	} else {
		end = scanDecimal(s, i)
		if end < 0 {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(string(s[start:end])+hexSuffix, 64)
	if err != nil && !isRangeErr(err) {
		return 0, false
	}
	return f, true
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// matchFold returns how many leading bytes of s match word case-insensitively
// (only a full 3- or 8-letter match counts for inf/infinity).
func matchFold(s []byte, word string) int {
	n := 0
	for n < len(word) && n < len(s) && (s[n]|0x20) == word[n] {
		n++
	}
	if word == "infinity" && n != 8 && n >= 3 {
		return 3
	}
	return n
}

// scanDecimal returns the end of digits[.digits][e[+-]digits] at i, or -1
// if there is no mantissa digit.
func scanDecimal(s []byte, i int) int {
	digits := 0
	for i < len(s) && isDigit(s[i]) {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && isDigit(s[j]) {
			j++
			digits++
		}
		if digits > 0 {
			i = j
		}
	}
	if digits == 0 {
		return -1
	}
	if i < len(s) && (s[i]|0x20) == 'e' {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			i = j
		}
	}
	return i
}

func isHex(c byte) bool {
	return isDigit(c) || (c|0x20) >= 'a' && (c|0x20) <= 'f'
}

// scanHex returns the end of a hex float body starting at i, or -1.
func scanHex(s []byte, i int) int {
	digits := 0
	for i < len(s) && isHex(s[i]) {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && isHex(s[j]) {
			j++
			digits++
		}
		if digits > 0 {
			i = j
		}
	}
	if digits == 0 {
		return -1
	}
	end := i
	if i < len(s) && (s[i]|0x20) == 'p' {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			end = j
		}
	}
	return end
}

// randomCompare orders keys by a seeded hash, so equal keys stay together.
func (c *comparer) randomCompare(a, b []byte) int {
	ha, hb := hashKey(c.cfg.Seed, a), hashKey(c.cfg.Seed, b)
	switch {
	case ha < hb:
		return -1
	case ha > hb:
		return 1
	}
	return bytes.Compare(a, b)
}

// hashKey is FNV-1a over the seed and the key, then a finalizing mix so
// that similar keys scatter.
func hashKey(seed uint64, s []byte) uint64 {
	h := uint64(14695981039346656037) ^ seed
	for _, c := range s {
		h ^= uint64(c)
		h *= 1099511628211
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}
