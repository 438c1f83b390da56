package termsafe

import "testing"

func TestString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain/dir é ✓", "plain/dir é ✓"},
		{"\x1b[2K\r[unrestricted] ~ #", `\x1b[2K\x0d[unrestricted] ~ #`},
		{"a\x9bb\xffc\x7f", `a\x9bb\xffc\x7f`},
		{"tab\there\nnl", `tab\x09here\x0anl`},
		{"\u009b", `\x9b`},
	} {
		if got := String(c.in); got != c.want {
			t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := Line("x\x1b]0;t\x07: not found\n"); got != "x\\x1b]0;t\\x07: not found\n" {
		t.Errorf("Line: %q", got)
	}
}
