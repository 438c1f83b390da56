package bc

import (
	"context"
	"strings"
	"testing"
)

func runBC(t *testing.T, prog string, mathLib bool) (string, string) {
	t.Helper()
	var out, errb strings.Builder
	in := New(Config{Stdout: &out, Stderr: &errb, LineLength: 70, MathLib: mathLib, Stdin: strings.NewReader(prog)})
	if err := in.RunStdin(context.Background()); err != nil && err != ErrHalt {
		t.Fatal(err)
	}
	return out.String(), errb.String()
}

func TestInterp(t *testing.T) {
	for _, c := range []struct {
		prog, want string
		lib        bool
	}{
		{"1+2*3\n", "7\n", false},
		{"scale=4; 1/3\n", ".3333\n", false},
		{"-3^2; 2^3^2\n", "9\n512\n", false},
		{"x = 3 == 3; x\n", "1\n3\n", false},
		{"scale=20; 7 % 3\n", ".00000000000000000001\n", false},
		{"obase=16; 255; obase=100; 12345\n", "FF\n 01 23 45\n", false},
		{"ibase=2; 101; 21\n", "5\n3\n", false},
		{"define f(n) { if (n < 2) return (1); return (n * f(n-1)); }\nf(20)\n", "2432902008176640000\n", false},
		{"define g() { return (x) }\ndefine h(x) { return (g()) }\nh(4)\n", "4\n", false},
		{"a[2] = 5\ndefine s(v[]) { v[2] = 0; return (v[2]) }\ns(a[]); a[2]\n", "0\n5\n", false},
		{"define r(*v[]) { v[0] = 9 }\nr(a[]); a[0]\n", "0\n9\n", false},
		{"for (i = 0; i < 3; i++) { if (i == 1) continue; i }\n", "0\n2\n", false},
		{"print \"a\\tb\\n\", 1, \"\\n\"\n", "a\tb\n1\n", false},
		{"1; quit\n", "", false},
		{"s(0); c(0); e(0); l(1); a(0)\n", "0\n1.00000000000000000000\n1.00000000000000000000\n0\n0\n", true},
	} {
		if got, errs := runBC(t, c.prog, c.lib); got != c.want || errs != "" {
			t.Errorf("%q: got %q (stderr %q), want %q", c.prog, got, errs, c.want)
		}
	}
}

func TestErrors(t *testing.T) {
	for prog, wantErr := range map[string]string{
		"1/0\n":                           "Divide by zero",
		"sqrt(-1)\n":                      "Square root of a negative number",
		"1 +\n":                           "(standard_in) 2: syntax error",
		"return\n":                        "Return outside of a function.",
		"break\n":                         "Break outside a for/while",
		"f(1)\n":                          "Function f not defined.",
		"a[-1]\n":                         "Array a subscript out of bounds.",
		"ibase=1\n":                       "ibase too small, set to 2",
		"2^1.5\n":                         "non-zero scale in exponent",
		"define f(x) { return x }\nf()\n": "Parameter number mismatch",
	} {
		if _, errs := runBC(t, prog, false); !strings.Contains(errs, wantErr) {
			t.Errorf("%q: stderr %q, want %q", prog, errs, wantErr)
		}
	}
}

func TestFormatAndParse(t *testing.T) {
	for _, c := range []struct {
		lit          string
		ibase, obase int
		want         string
	}{
		{"0.50", 10, 10, ".50"},
		{"000.5", 10, 10, ".5"},
		{"1.", 10, 10, "1"},
		{"F.8", 16, 10, "15.5"},
		{"19", 8, 10, "15"},
		{"A", 2, 10, "10"},
		{"10.1", 10, 16, "A.1"},
		{"0.5", 10, 2, ".1000"},
	} {
		if got := Format(parseLiteral(c.lit, c.ibase), c.obase); got != c.want {
			t.Errorf("%s (ibase %d) in obase %d = %q, want %q", c.lit, c.ibase, c.obase, got, c.want)
		}
	}
}
