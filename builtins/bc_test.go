package builtins

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

func TestBcCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"bc"}, stdin: "1+2\n", out: "3\n"},
		{args: []string{"bc"}, stdin: "scale=3; 10/3\n", out: "3.333\n"},
		{args: []string{"bc", "-l"}, stdin: "scale\ns(0)\n", out: "20\n0\n"},
		{args: []string{"bc"}, stdin: "obase=2; 10\n", out: "1010\n"},
		{args: []string{"bc"}, stdin: "define sq(x) { return x*x }\nsq(12)\n", out: "144\n"},
		{args: []string{"bc"}, stdin: "1/0\n2\n", out: "2\n", errHas: "Divide by zero"},
		{args: []string{"bc"}, stdin: "1 +\n", errHas: "(standard_in) 2: syntax error"},
		{args: []string{"bc"}, stdin: "quit\n1\n"},
		{args: []string{"bc", "p.bc"}, files: map[string]string{"p.bc": "x=6\n"}, stdin: "x*7\n", out: "42\n"},
		{args: []string{"bc", "missing.bc"}, status: 1, errHas: "File missing.bc is unavailable."},
		{args: []string{"bc"}, env: []string{"BC_LINE_LENGTH=10"}, stdin: "2^40\n", out: "10995116\\\n27776\n"},
		{args: []string{"bc"}, stdin: "x = read(); x * 2\n21\n", out: "42\n"},
		{args: []string{"bc"}, stdin: "2^99999999999\n", errHas: "exponent too large"},
		{args: []string{"bc"}, stdin: "10^20000000\n", errHas: "exponent too large"},
		{args: []string{"bc", "-x"}, status: 1, errHas: "invalid option", outHas: "usage: bc"},
	})
}

func TestBcCancel(t *testing.T) {
	env := testEnv(t, nil)
	env.Stdin = strings.NewReader("while (1) { i += 1 }\n")
	env.Stdout = io.Discard
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if st := runOrHang(t, "bc endless loop cancelled", func() int { return env.Run(ctx, []string{"bc"}) }); st != 130 {
		t.Fatalf("status %d, want 130", st)
	}
}

func TestBcBrokenPipe(t *testing.T) {
	env := testEnv(t, nil)
	env.Stdin = strings.NewReader("while (1) { i += 1; i }\n")
	out, st := func() (string, int) {
		w := &shellLimitWriter{n: 10}
		env.Stdout = w
		return "", env.Run(context.Background(), []string{"bc"})
	}()
	_ = out
	if st != StatusBrokenPipe {
		t.Fatalf("status %d", st)
	}
}
