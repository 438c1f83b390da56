package builtins

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

func TestYesCommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		line string
	}{
		{[]string{"yes"}, "y\n"},
		{[]string{"yes", "a", "b"}, "a b\n"},
		{[]string{"yes", "--", "-n"}, "-n\n"},
		{[]string{"yes", ""}, "\n"},
		{[]string{"yes", strings.Repeat("x", 100000)}, strings.Repeat("x", 100000) + "\n"},
	} {
		n := 3 * len(c.line)
		out, st := shellRunLimited(t, n, c.args...)
		if st != StatusBrokenPipe || out != strings.Repeat(c.line, 3) {
			t.Errorf("%q: status %d, output %q...", c.args, st, out[:min(len(out), 40)])
		}
	}
	shellRunCases(t, []shellCase{
		{args: []string{"yes", "-x"}, status: 1, errHas: "invalid option"},
		{args: []string{"yes", "--help"}, outHas: "Usage: yes"},
	})
}

func TestYesCancel(t *testing.T) {
	env := testEnv(t, nil)
	env.Stdout = io.Discard
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if st := env.Run(ctx, []string{"yes"}); st != 130 {
		t.Fatalf("status %d", st)
	}
}
