package bashutf8

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

func TestAppendRune(t *testing.T) {
	tests := []struct {
		v    uint32
		want []byte
	}{
		{0x41, []byte("A")},
		{0xe9, []byte("é")},
		{0x20ac, []byte("€")},
		{0x1f600, []byte("😀")},
		{0xdc00, []byte{0xed, 0xb0, 0x80}},
		{0xd800, []byte{0xed, 0xa0, 0x80}},
		{0x110000, []byte{0xf4, 0x90, 0x80, 0x80}},
		{0x1fffff, []byte{0xf7, 0xbf, 0xbf, 0xbf}},
		{0x200000, []byte{0xf8, 0x88, 0x80, 0x80, 0x80}},
		{0x7fffffff, []byte{0xfd, 0xbf, 0xbf, 0xbf, 0xbf, 0xbf}},
		{0x80000000, nil},
		{0xffffffff, nil},
	}
	for _, tc := range tests {
		if got := AppendRune(nil, tc.v); !bytes.Equal(got, tc.want) {
			t.Errorf("AppendRune(%#x) = % x, want % x", tc.v, got, tc.want)
		}
	}
	// Valid code points encode as Go's encoder does.
	for _, v := range []rune{0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xffff, 0x10000, utf8.MaxRune} {
		if got, want := AppendRune(nil, uint32(v)), utf8.AppendRune(nil, v); !bytes.Equal(got, want) {
			t.Errorf("AppendRune(%#x) = % x, want % x", v, got, want)
		}
	}
}

// TestDecodeRune holds the answers of bash 5.2's printf '%x' "'c" in
// C.UTF-8 (glibc's mbrtowc).
func TestDecodeRune(t *testing.T) {
	tests := []struct {
		in   string
		want uint32
		n    int
	}{
		{"A", 0x41, 1},
		{"é!", 0xe9, 2},
		{"\xf4\x91\x84\x91", 0x111111, 4},
		{"\xf8\x88\x80\x80\x80", 0x200000, 5},
		{"\xfd\xbf\xbf\xbf\xbf\xbf", 0x7fffffff, 6},
		{"\xed\xb0\x80", 0, 0}, // a surrogate
		{"\xc0\x80", 0, 0},     // overlong
		{"\xf8\x80\x80\x80\x80", 0, 0},
		{"\xf4\x91", 0, 0}, // cut short
		{"\xff", 0, 0},
		{"", 0, 0},
	}
	for _, tc := range tests {
		if v, n := DecodeRune(tc.in); v != tc.want || n != tc.n {
			t.Errorf("DecodeRune(%q) = %#x, %d; want %#x, %d", tc.in, v, n, tc.want, tc.n)
		}
	}
}
