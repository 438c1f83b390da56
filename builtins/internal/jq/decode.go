package jq

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// decoder reads a stream of JSON values one at a time. It is hand-written
// rather than encoding/json because jq prints objects in their input key
// order, which a Go map loses: the decoder records every object's key
// order in the order table as it builds the map.
type decoder struct {
	r     *bufio.Reader
	order *order
	line  int // newlines consumed so far, for error positions
	col   int
	buf   []byte
	depth int
	// Objects of one input usually share their keys: keys interns the
	// key strings and lastKeys is the key order of the last object, so
	// that a million records hold one copy of each instead of a million.
	keys     map[string]string
	lastKeys []string
}

// parseError is a malformed-input error, reported by jq as
// "parse error: MSG at line L, column C" and exit status 4 (jq 1.6).
type parseError struct {
	msg       string
	line, col int
}

func (e *parseError) Error() string {
	return fmt.Sprintf("%s at line %d, column %d", e.msg, e.line, e.col)
}

func newDecoder(r io.Reader, o *order) *decoder {
	br, ok := r.(*bufio.Reader)
	if !ok || br.Size() < 64<<10 {
		br = bufio.NewReaderSize(r, 64<<10)
	}
	return &decoder{r: br, order: o, line: 1}
}

func (d *decoder) fail(msg string) error {
	return &parseError{msg: msg, line: d.line, col: d.col}
}

func (d *decoder) readByte() (byte, error) {
	c, err := d.r.ReadByte()
	if err == nil {
		if c == '\n' {
			d.line++
			d.col = 0
		} else {
			d.col++
		}
	}
	return c, err
}

func (d *decoder) unread() {
	d.r.UnreadByte()
	d.col--
}

// skipSpace returns the next non-blank byte.
func (d *decoder) skipSpace() (byte, error) {
	for {
		c, err := d.readByte()
		if err != nil {
			return 0, err
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case 0xEF: // a UTF-8 byte order mark is ignored like jq does
			if b, _ := d.r.Peek(2); len(b) == 2 && b[0] == 0xBB && b[1] == 0xBF {
				d.r.Discard(2)
				continue
			}
		}
		return c, nil
	}
}

// next returns the next value or io.EOF when the stream ends cleanly.
func (d *decoder) next() (any, error) {
	c, err := d.skipSpace()
	if err == io.EOF {
		return nil, io.EOF
	}
	if err != nil {
		return nil, err
	}
	return d.value(c)
}

func (d *decoder) eofErr(err error) error {
	if err == io.EOF {
		return d.fail("Unfinished JSON term at EOF")
	}
	return err
}

func (d *decoder) value(c byte) (any, error) {
	switch c {
	case '{':
		return d.object()
	case '[':
		return d.array()
	case '"':
		s, err := d.str(false)
		return s, err
	case ']':
		return nil, d.fail("Unmatched ']'")
	case '}':
		return nil, d.fail("Unmatched '}'")
	}
	return d.literal(c)
}

func (d *decoder) enter() error {
	d.depth++
	if d.depth > 10000 {
		return d.fail("Exceeds depth limit for parsing")
	}
	return nil
}

func (d *decoder) array() (any, error) {
	if err := d.enter(); err != nil {
		return nil, err
	}
	defer func() { d.depth-- }()
	arr := []any{}
	c, err := d.skipSpace()
	if err != nil {
		return nil, d.eofErr(err)
	}
	if c == ']' {
		return arr, nil
	}
	for {
		v, err := d.value(c)
		if err != nil {
			return nil, d.eofErr(err)
		}
		arr = append(arr, v)
		c, err = d.skipSpace()
		if err != nil {
			return nil, d.eofErr(err)
		}
		switch c {
		case ']':
			return arr, nil
		case ',':
		default:
			return nil, d.fail("Expected separator between values")
		}
		if c, err = d.skipSpace(); err != nil {
			return nil, d.eofErr(err)
		}
	}
}

// elements reads the rest of an array whose '[' was just read, like
// array, but hands each element to fn as soon as it is parsed instead of
// building the array (see stream.go). An error from fn stops the parse
// and is returned as is.
func (d *decoder) elements(fn func(any) error) error {
	if err := d.enter(); err != nil {
		return err
	}
	defer func() { d.depth-- }()
	c, err := d.skipSpace()
	if err != nil {
		return d.eofErr(err)
	}
	if c == ']' {
		return nil
	}
	for {
		v, err := d.value(c)
		if err != nil {
			return d.eofErr(err)
		}
		if err := fn(v); err != nil {
			return err
		}
		c, err = d.skipSpace()
		if err != nil {
			return d.eofErr(err)
		}
		switch c {
		case ']':
			return nil
		case ',':
		default:
			return d.fail("Expected separator between values")
		}
		if c, err = d.skipSpace(); err != nil {
			return d.eofErr(err)
		}
	}
}

func (d *decoder) object() (any, error) {
	if err := d.enter(); err != nil {
		return nil, err
	}
	defer func() { d.depth-- }()
	obj := map[string]any{}
	var keys []string
	c, err := d.skipSpace()
	if err != nil {
		return nil, d.eofErr(err)
	}
	if c == '}' {
		return obj, nil
	}
	for {
		if c != '"' {
			return nil, d.fail("Object keys must be strings")
		}
		k, err := d.str(true)
		if err != nil {
			return nil, d.eofErr(err)
		}
		if c, err = d.skipSpace(); err != nil {
			return nil, d.eofErr(err)
		}
		if c != ':' {
			return nil, d.fail("Objects must consist of key:value pairs")
		}
		if c, err = d.skipSpace(); err != nil {
			return nil, d.eofErr(err)
		}
		v, err := d.value(c)
		if err != nil {
			return nil, d.eofErr(err)
		}
		if _, dup := obj[k]; !dup {
			keys = append(keys, k)
		}
		obj[k] = v
		if c, err = d.skipSpace(); err != nil {
			return nil, d.eofErr(err)
		}
		switch c {
		case '}':
			if !slices.Equal(keys, d.lastKeys) {
				// Clipped: an append to a shared order must copy.
				d.lastKeys = slices.Clip(slices.Clone(keys))
			}
			d.order.set(obj, d.lastKeys)
			return obj, nil
		case ',':
		default:
			return nil, d.fail("Expected separator between values")
		}
		if c, err = d.skipSpace(); err != nil {
			return nil, d.eofErr(err)
		}
	}
}

// intern returns b as a string, the same one for the same short keys.
func (d *decoder) intern(b []byte) string {
	if s, ok := d.keys[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(b) <= 64 && len(d.keys) < 4096 {
		if d.keys == nil {
			d.keys = make(map[string]string)
		}
		d.keys[s] = s
	}
	return s
}

// str reads a string body after its opening quote; an object key (key
// true) is interned.
func (d *decoder) str(key bool) (string, error) {
	b := d.buf[:0]
	ascii := true
	for {
		// Fast path: copy a run of plain bytes straight from the buffer.
		chunk, _ := d.r.Peek(d.r.Buffered())
		n := 0
		for n < len(chunk) {
			c := chunk[n]
			if c == '"' || c == '\\' || c == '\n' {
				break
			}
			if c >= 0x80 {
				ascii = false
			}
			n++
		}
		if n > 0 {
			b = append(b, chunk[:n]...)
			d.r.Discard(n)
			d.col += n
		}
		c, err := d.readByte()
		if err != nil {
			d.buf = b
			return "", d.eofErr(err)
		}
		switch c {
		case '"':
			d.buf = b
			if !ascii && !utf8.Valid(b) {
				return string(ToValidUTF8(b)), nil
			}
			if key {
				return d.intern(b), nil
			}
			return string(b), nil
		case '\\':
			var err error
			if b, err = d.escape(b); err != nil {
				d.buf = b
				return "", err
			}
		default:
			if c >= 0x80 {
				ascii = false
			}
			b = append(b, c)
		}
	}
}

func (d *decoder) escape(b []byte) ([]byte, error) {
	c, err := d.readByte()
	if err != nil {
		return b, d.eofErr(err)
	}
	switch c {
	case '"', '\\', '/':
		return append(b, c), nil
	case 'b':
		return append(b, '\b'), nil
	case 'f':
		return append(b, '\f'), nil
	case 'n':
		return append(b, '\n'), nil
	case 'r':
		return append(b, '\r'), nil
	case 't':
		return append(b, '\t'), nil
	case 'u':
		r, err := d.hex4()
		if err != nil {
			return b, err
		}
		if utf16.IsSurrogate(r) {
			if p, _ := d.r.Peek(2); len(p) == 2 && p[0] == '\\' && p[1] == 'u' {
				d.r.Discard(2)
				d.col += 2
				r2, err := d.hex4()
				if err != nil {
					return b, err
				}
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					return utf8.AppendRune(b, dec), nil
				}
				b = utf8.AppendRune(b, utf8.RuneError)
				return utf8.AppendRune(b, r2), nil
			}
			r = utf8.RuneError
		}
		return utf8.AppendRune(b, r), nil
	}
	return b, d.fail("Invalid escape")
}

func (d *decoder) hex4() (rune, error) {
	var r rune
	for i := 0; i < 4; i++ {
		c, err := d.readByte()
		if err != nil {
			return 0, d.eofErr(err)
		}
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return 0, d.fail("Invalid \\uXXXX escape")
		}
		r = r<<4 | rune(v)
	}
	return r, nil
}

// literal reads a number, true, false, null or nan token.
func (d *decoder) literal(c byte) (any, error) {
	b := append(d.buf[:0], c)
	for {
		c, err := d.readByte()
		if err != nil {
			if err != io.EOF {
				return nil, err
			}
			break
		}
		if isDelim(c) {
			d.unread()
			break
		}
		b = append(b, c)
	}
	d.buf = b
	switch string(b) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	case "null":
		return nil, nil
	case "nan", "NaN":
		return nil, nil
	}
	return d.number(b)
}

func isDelim(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', ',', ':', '[', ']', '{', '}', '"':
		return true
	}
	return false
}

func (d *decoder) number(b []byte) (any, error) {
	if !validNumber(b) {
		return nil, d.fail("Invalid numeric literal")
	}
	// Small integers stay ints so gojq keeps exact arithmetic; everything
	// else is a double like in jq 1.6, which loses precision past 2^53.
	if len(b) <= 15 {
		n, ok := 0, true
		neg := b[0] == '-'
		digits := b
		if neg {
			digits = b[1:]
		}
		for _, c := range digits {
			if c < '0' || c > '9' {
				ok = false
				break
			}
			n = n*10 + int(c-'0')
		}
		if ok && !(neg && n == 0) {
			if neg {
				n = -n
			}
			return n, nil
		}
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, d.fail("Invalid numeric literal")
	}
	return f, nil
}

// validNumber checks the JSON number grammar.
func validNumber(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	start := i
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	if i == start {
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		s := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == s {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		s := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == s {
			return false
		}
	}
	return i == len(b)
}

// ToValidUTF8 replaces every byte of an invalid UTF-8 sequence with
// U+FFFD, as jq does when it reads text.
func ToValidUTF8(b []byte) []byte {
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n <= 1 {
			out = append(out, "\uFFFD"...)
			b = b[1:]
			continue
		}
		out = append(out, b[:n]...)
		b = b[n:]
	}
	return out
}
