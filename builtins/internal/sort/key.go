// Package sort is the engine behind sandsh's sort command: GNU-compatible
// key extraction and comparison (-k, -t, -n, -g, -h, -M, -V, -R, -b, -d,
// -f, -i, -r), in-memory sorting of a whole input, streaming merge (-m)
// and order checking (-c). It does no I/O of its own: callers hand it
// readers and a writer.
package sort

import (
	"fmt"
	"strconv"
)

// whole marks a key position that is "the start/end of the line" (GNU's
// SIZE_MAX sword/eword).
const whole = -1

// Ignore tables say which bytes a key comparison skips.
var (
	nonDictionary = makeTable(func(c byte) bool { return !isAlnum(c) && !isBlank(c) })
	nonPrinting   = makeTable(func(c byte) bool { return c < 0x20 || c > 0x7e })
)

func makeTable(f func(byte) bool) *[256]bool {
	var t [256]bool
	for i := range t {
		t[i] = f(byte(i))
	}
	return &t
}

// Key is one sort key: where it starts and ends in a line and how it is
// compared. Field and character numbers are zero-based as in GNU sort's
// struct keyfield.
type Key struct {
	SWord, SChar int // start field and char offset; SWord==whole: line start
	EWord, EChar int // end field and char; EWord==whole: line end; EChar==0: end of field

	SkipSBlanks, SkipEBlanks bool
	Ignore                   *[256]bool // nil, nonDictionary or nonPrinting
	Fold                     bool       // -f

	Numeric, General, Human, Month, Version, Random bool
	Reverse                                         bool
}

// DefaultCompare reports whether k has no ordering options, in which case
// it inherits the global ones (GNU's default_key_compare).
func (k *Key) DefaultCompare() bool {
	return !(k.Ignore != nil || k.Fold || k.SkipSBlanks || k.SkipEBlanks ||
		k.Numeric || k.General || k.Human || k.Month || k.Version || k.Random)
}

// Inherit copies the global ordering options g into k.
func (k *Key) Inherit(g *Key) {
	k.Ignore, k.Fold = g.Ignore, g.Fold
	k.SkipSBlanks, k.SkipEBlanks = g.SkipSBlanks, g.SkipEBlanks
	k.Month, k.Numeric, k.General, k.Human = g.Month, g.Numeric, g.General, g.Human
	k.Version, k.Random, k.Reverse = g.Version, g.Random, g.Reverse
}

// NewGlobalKey returns the key used when no -k is given: the whole line.
func NewGlobalKey() Key { return Key{SWord: whole, EWord: whole} }

// SetOrdering applies one ordering letter to k. blanksEnd says whether a
// 'b' belongs to the end position. It reports false for a letter that is
// not an ordering option.
func (k *Key) SetOrdering(c byte, blanksEnd bool) bool {
	switch c {
	case 'b':
		if blanksEnd {
			k.SkipEBlanks = true
		} else {
			k.SkipSBlanks = true
		}
	case 'd':
		k.Ignore = nonDictionary
	case 'f':
		k.Fold = true
	case 'g':
		k.General = true
	case 'h':
		k.Human = true
	case 'i':
		if k.Ignore == nil { // -d wins over -i whatever the order
			k.Ignore = nonPrinting
		}
	case 'M':
		k.Month = true
	case 'n':
		k.Numeric = true
	case 'R':
		k.Random = true
	case 'r':
		k.Reverse = true
	case 'V':
		k.Version = true
	default:
		return false
	}
	return true
}

// Opts renders k's ordering options the way GNU's key_to_opts does, for
// the "options '-xy' are incompatible" message.
func (k *Key) Opts() string {
	var s []byte
	add := func(ok bool, c byte) {
		if ok {
			s = append(s, c)
		}
	}
	add(k.SkipSBlanks || k.SkipEBlanks, 'b')
	add(k.Ignore == nonDictionary, 'd')
	add(k.Fold, 'f')
	add(k.General, 'g')
	add(k.Human, 'h')
	add(k.Ignore == nonPrinting, 'i')
	add(k.Month, 'M')
	add(k.Numeric, 'n')
	add(k.Random, 'R')
	add(k.Reverse, 'r')
	add(k.Version, 'V')
	return string(s)
}

// Incompatible reports whether k combines orderings GNU refuses to mix,
// returning the option letters to complain about.
func (k *Key) Incompatible() (string, bool) {
	n := 0
	for _, b := range []bool{k.Numeric, k.General, k.Human, k.Month,
		k.Version || k.Random || k.Ignore != nil} {
		if b {
			n++
		}
	}
	if n <= 1 {
		return "", false
	}
	c := *k
	c.SkipSBlanks, c.SkipEBlanks, c.Reverse = false, false, false
	return c.Opts(), true
}

// FieldSpecError is a bad -k argument; Status 2 like GNU.
type FieldSpecError struct {
	Msg, Spec string
}

func (e *FieldSpecError) Error() string {
	return fmt.Sprintf("%s: invalid field specification '%s'", e.Msg, e.Spec)
}

// CountError is a -k number that does not parse at all.
type CountError struct {
	Msg, Rest string
}

func (e *CountError) Error() string {
	return fmt.Sprintf("%s: invalid count at start of '%s'", e.Msg, e.Rest)
}

// ParseKey parses a -k POS1[,POS2] argument, where POS is F[.C][OPTS].
func ParseKey(spec string) (Key, error) {
	k := Key{}
	s := spec
	n, s, err := parseCount(s, "invalid number at field start")
	if err != nil {
		return k, err
	}
	if n == 0 {
		return k, &FieldSpecError{"field number is zero", spec}
	}
	k.SWord = n - 1
	if s != "" && s[0] == '.' {
		n, s, err = parseCount(s[1:], "invalid number after '.'")
		if err != nil {
			return k, err
		}
		if n == 0 {
			return k, &FieldSpecError{"character offset is zero", spec}
		}
		k.SChar = n - 1
	}
	if k.SWord == 0 && k.SChar == 0 {
		k.SWord = whole
	}
	s = k.orderings(s, false)
	if s == "" || s[0] != ',' {
		k.EWord, k.EChar = whole, 0
	} else {
		n, s, err = parseCount(s[1:], "invalid number after ','")
		if err != nil {
			return k, err
		}
		if n == 0 {
			return k, &FieldSpecError{"field number is zero", spec}
		}
		k.EWord = n - 1
		if s != "" && s[0] == '.' {
			n, s, err = parseCount(s[1:], "invalid number after '.'")
			if err != nil {
				return k, err
			}
			k.EChar = n
		}
		s = k.orderings(s, true)
	}
	if s != "" {
		return k, &FieldSpecError{"stray character in field spec", spec}
	}
	return k, nil
}

func (k *Key) orderings(s string, end bool) string {
	for s != "" && k.SetOrdering(s[0], end) {
		s = s[1:]
	}
	return s
}

// parseCount reads leading decimal digits; overflow saturates like GNU.
func parseCount(s, msg string) (int, string, error) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, s, &CountError{msg, s}
	}
	n, err := strconv.Atoi(s[:i])
	if err != nil {
		n = int(^uint(0) >> 2)
	}
	return n, s[i:], nil
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlnum(c byte) bool {
	return isDigit(c) || (c|0x20) >= 'a' && (c|0x20) <= 'z'
}
