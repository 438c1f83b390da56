package cfloat

import "testing"

func TestParseFormat(t *testing.T) {
	cases := []struct {
		in     string
		verb   byte
		prec   int
		want   string
		n      int
		erange bool
	}{
		{"1.5", 'f', -1, "1.500000", 3, false},
		{"0.1", 'f', 20, "0.10000000000000000000", 3, false},
		{"100", 'a', -1, "0xc.8p+3", 3, false},
		{"1", 'a', -1, "0x8p-3", 1, false},
		{"0x1.8p3", 'g', -1, "12", 7, false},
		{" -2.5e3x", 'e', 2, "-2.50e+03", 7, false},
		{"inf", 'F', -1, "INF", 3, false},
		{"-nan", 'f', -1, "-nan", 4, false},
		{"1e5000", 'g', -1, "inf", 6, true},
		{"1e-5000", 'g', -1, "0", 7, true},
		{"abc", 'f', 0, "0", 0, false},
		{"123456789", 'g', -1, "1.23457e+08", 9, false},
		{"0.0001", 'g', -1, "0.0001", 6, false},
		{"2.5", 'f', 0, "2", 3, false},
	}
	for _, c := range cases {
		v, n, erange := Parse(c.in)
		got := Format(v, c.verb, c.prec, Flags{})
		if got != c.want || n != c.n || erange != c.erange {
			t.Errorf("Parse(%q) -> %%%c: %q, n=%d, erange=%v; want %q, %d, %v", c.in, c.verb, got, n, erange, c.want, c.n, c.erange)
		}
	}
}

func TestFormatFlags(t *testing.T) {
	v, _, _ := Parse("3")
	for _, c := range []struct {
		verb byte
		prec int
		fl   Flags
		want string
	}{
		{'f', 0, Flags{Hash: true}, "3."},
		{'g', -1, Flags{Hash: true}, "3.00000"},
		{'e', 1, Flags{Plus: true}, "+3.0e+00"},
		{'f', 1, Flags{Space: true}, " 3.0"},
	} {
		if got := Format(v, c.verb, c.prec, c.fl); got != c.want {
			t.Errorf("Format(3, %c, %d, %+v) = %q, want %q", c.verb, c.prec, c.fl, got, c.want)
		}
	}
}
