package tr

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestTranslator(t *testing.T) {
	str := func(s string) *string { return &s }
	cases := []struct {
		opts       Options
		set1       string
		set2       *string
		in, want   string
		wantErrSub string
	}{
		{Options{}, "a-c", str("A-C"), "abcd", "ABCd", ""},
		{Options{}, "[:lower:]", str("[:upper:]"), "aZ", "AZ", ""},
		{Options{Delete: true}, "[:digit:]", nil, "a1b2", "ab", ""},
		{Options{Squeeze: true}, "a", nil, "aaba", "aba", ""},
		{Options{Complement: true, Delete: true}, "a", nil, "abca", "aa", ""},
		{Options{Truncate: true}, "abc", str("x"), "abc", "xbc", ""},
		{Options{}, "abc", str("[x*]"), "abc", "xxx", ""},
		{Options{}, "\\n\\\\", str("N/"), "\n\\", "N/", ""},
		{Options{}, "c-a", str("x"), "", "", "reverse collating"},
		{Options{}, "a", str("[:digit:]"), "", "", "only character classes"},
		{Options{}, "[x*]", str("y"), "", "", "may not appear in string1"},
	}
	for _, c := range cases {
		tr, err := New(c.opts, c.set1, c.set2, func(string) {})
		if c.wantErrSub != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErrSub) {
				t.Errorf("New(%q): err %v, want %q", c.set1, err, c.wantErrSub)
			}
			continue
		}
		if err != nil {
			t.Errorf("New(%q): %v", c.set1, err)
			continue
		}
		var out bytes.Buffer
		if err := tr.Run(context.Background(), strings.NewReader(c.in), &out); err != nil || out.String() != c.want {
			t.Errorf("tr %q on %q = %q, %v; want %q", c.set1, c.in, out.String(), err, c.want)
		}
	}
}
