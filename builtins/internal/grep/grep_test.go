package grep

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/sandsh/sandsh/builtins/internal/regex"
)

func runSearch(t *testing.T, pat string, o Options, r io.Reader) (string, Result) {
	t.Helper()
	re, err := regex.CompileList([]string{pat}, regex.ListOptions{Syntax: regex.BRE, Lines: !o.NullData})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	s := &Searcher{Re: re, Opt: o, Out: &out, BinaryMatches: func(name string) {
		fmt.Fprintf(&out, "<binary %s>\n", name)
	}}
	res, err := s.Search(context.Background(), r, "in")
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), res
}

// TestChunking runs searches on readers that deliver one byte, or a few
// bytes, at a time: buffer shifts, kept before-context, line numbers and
// offsets must not depend on how the input arrives.
func TestChunking(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&b, "%d %s\n", i, strings.Repeat("w", i%53))
	}
	input := b.String() + "tail 7"
	opts := []Options{
		{MaxCount: -1},
		{MaxCount: -1, LineNumber: true, ByteOffset: true},
		{MaxCount: -1, Invert: true, LineNumber: true},
		{MaxCount: -1, Before: 3, After: 2, Context: true, LineNumber: true, GroupSeparator: []byte("--")},
		{MaxCount: -1, Before: 1, Invert: true, Context: true, GroupSeparator: []byte("--")},
		{MaxCount: 5, After: 4, Context: true, GroupSeparator: []byte("--")},
		{MaxCount: -1, OnlyMatching: true, ByteOffset: true},
		{MaxCount: -1, Mode: ModeCount},
		{MaxCount: -1, Mode: ModeCount, Invert: true},
		{MaxCount: 7, Mode: ModeCount, Invert: true},
	}
	for _, pat := range []string{"7$", "^1.*w\\{5\\}$", "x", "^", "9 w*"} {
		for i, o := range opts {
			want, wantRes := runSearch(t, pat, o, strings.NewReader(input))
			for _, r := range []io.Reader{
				iotest.OneByteReader(strings.NewReader(input)),
				iotest.HalfReader(strings.NewReader(input)),
				iotest.DataErrReader(strings.NewReader(input)),
			} {
				got, res := runSearch(t, pat, o, r)
				if got != want || res != wantRes {
					t.Fatalf("%q opts #%d: chunked read gives %d bytes (%v), whole %d (%v)", pat, i, len(got), res, len(want), wantRes)
				}
			}
		}
	}
}

func TestSearch(t *testing.T) {
	cases := []struct {
		pat, in string
		o       Options
		want    string
		sel     int64
	}{
		{"b", "a\nb\nc\n", Options{MaxCount: -1}, "b\n", 1},
		{"b", "a\nb\nc", Options{MaxCount: -1, Invert: true}, "a\nc\n", 2},
		{"b", "a\nb\nc\n", Options{MaxCount: -1, Mode: ModeFilesWith}, "in\n", 1},
		{"z", "a\nb\n", Options{MaxCount: -1, Mode: ModeFilesWithout, NullAfterName: true}, "in\x00", 0},
		{"b", "a\nb\n", Options{MaxCount: -1, Mode: ModeCount, WithFilename: true}, "in:1\n", 1},
		{"b", "a\x00\nb\n", Options{MaxCount: -1}, "<binary in>\n", 1},
		{"b", "a\x00\nb\n", Options{MaxCount: -1, Binary: BinaryWithout}, "", 0},
		{"b", "a\x00\nb\n", Options{MaxCount: -1, Binary: BinaryText}, "b\n", 1},
		{"b", "a\x00b\x00", Options{MaxCount: -1, NullData: true}, "b\x00", 1},
		{"a", "a\na\na\n", Options{MaxCount: 2, Mode: ModeQuiet}, "", 1},
		{"a", "a\n", Options{MaxCount: 0}, "", 0},
		{"b", "a\nb\n", Options{MaxCount: -1, LineNumber: true, NumberWidth: 3, InitialTab: true}, "  2:\tb\n", 1},
	}
	for _, c := range cases {
		got, res := runSearch(t, c.pat, c.o, strings.NewReader(c.in))
		if got != c.want || res.Selected != c.sel {
			t.Errorf("%q on %q %+v: got %q (%d selected), want %q (%d)", c.pat, c.in, c.o, got, res.Selected, c.want, c.sel)
		}
	}
}
