package sort

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
)

func TestParseKey(t *testing.T) {
	k, err := ParseKey("2.3nr,4.5b")
	if err != nil {
		t.Fatal(err)
	}
	if k.SWord != 1 || k.SChar != 2 || !k.Numeric || !k.Reverse || k.EWord != 3 || k.EChar != 5 || !k.SkipEBlanks {
		t.Errorf("ParseKey = %+v", k)
	}
	for _, bad := range []string{"0", "1.0", "x", "1,0", "1y", "1,2.x"} {
		if _, err := ParseKey(bad); err == nil {
			t.Errorf("ParseKey(%q) succeeded", bad)
		}
	}
}

func TestCompareFunctions(t *testing.T) {
	less := []struct {
		f    func(a, b []byte) int
		a, b string
	}{
		{numCompare, "-5", "3"},
		{numCompare, "2", "10"},
		{numCompare, "1.05", "1.5"},
		{numCompare, "abc", "1"},
		{numCompare, "-1.5", "-1.2"},
		{humanCompare, "900K", "1M"},
		{humanCompare, "-1G", "5"},
		{generalCompare, "x", "-inf"},
		{generalCompare, "1e2", "0x100"},
		{VersionCompare, "a1.9", "a1.10"},
		{VersionCompare, "1.0~rc1", "1.0"},
		{VersionCompare, ".a", "a"},
	}
	for _, c := range less {
		if d := c.f([]byte(c.a), []byte(c.b)); d >= 0 {
			t.Errorf("compare(%q, %q) = %d, want < 0", c.a, c.b, d)
		}
		if d := c.f([]byte(c.b), []byte(c.a)); d <= 0 {
			t.Errorf("compare(%q, %q) = %d, want > 0", c.b, c.a, d)
		}
	}
	if numCompare([]byte("0"), []byte("-0.00")) != 0 || month([]byte(" feb")) != 2 {
		t.Error("zero or month comparison wrong")
	}
}

func TestSorterAndMerge(t *testing.T) {
	cfg := &Config{Tab: -1, Delim: '\n', Keys: []Key{{SWord: 1, EWord: 1, Numeric: true}}}
	s := NewSorter(cfg)
	s.Workers = 2
	var in strings.Builder
	for i := 70000; i > 0; i-- {
		in.WriteString("x ")
		in.WriteString(strings.Repeat("1", i%7+1))
		in.WriteString("\n")
	}
	if err := s.Read(context.Background(), strings.NewReader(in.String())); err != nil {
		t.Fatal(err)
	}
	if err := s.Sort(context.Background()); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := s.Write(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	if d, _ := Check(context.Background(), cfg, &out); d != nil {
		t.Errorf("parallel sort output not sorted at line %d", d.Line)
	}
	var merged bytes.Buffer
	plain := &Config{Tab: -1, Delim: '\n'}
	inputs := []io.Reader{strings.NewReader("a\nc\n"), strings.NewReader("b\nd")}
	err := Merge(context.Background(), plain, inputs, &merged)
	if err != nil || merged.String() != "a\nb\nc\nd\n" {
		t.Errorf("Merge = %q, %v", merged.String(), err)
	}
}
