package builtins

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// textUnit is one table-driven case for a text-group command.
type textUnit struct {
	args   []string
	stdin  string
	out    string
	status int
	errSub string // substring expected on stderr ("" means stderr empty)
}

func textRunUnits(t *testing.T, files map[string]string, cases []textUnit) {
	t.Helper()
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			env := testEnv(t, files)
			got := run(t, env, c.stdin, c.args...)
			if got.Stdout != c.out {
				t.Errorf("stdout = %q, want %q", got.Stdout, c.out)
			}
			if got.Status != c.status {
				t.Errorf("status = %d, want %d (stderr %q)", got.Status, c.status, got.Stderr)
			}
			if c.errSub == "" && got.Stderr != "" {
				t.Errorf("unexpected stderr %q", got.Stderr)
			}
			if c.errSub != "" && !strings.Contains(got.Stderr, c.errSub) {
				t.Errorf("stderr = %q, want it to contain %q", got.Stderr, c.errSub)
			}
		})
	}
}

// textPipeWriter fails like a pipe whose reader went away.
type textPipeWriter struct{}

func (textPipeWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

// textInfinite is an endless stream of "y\n", like yes.
type textInfinite struct{}

func (textInfinite) Read(p []byte) (int, error) {
	for i := range p {
		if i%2 == 0 {
			p[i] = 'y'
		} else {
			p[i] = '\n'
		}
	}
	return len(p) &^ 1, nil
}

func TestTextHelpers(t *testing.T) {
	if got := textUnescape(`a\tb\\\0\n`); strings.Join(got, "|") != "a|\t|b|\\||\n" {
		t.Errorf("textUnescape = %q", got)
	}
	r, err := textParseRanges("5-,1-3,2", false)
	if err != nil || len(r) != 2 || r[0] != (textRange{1, 3}) || r[1].lo != 5 {
		t.Errorf("textParseRanges = %v, %v", r, err)
	}
	if _, err := textParseRanges("3-1", true); err == nil {
		t.Error("decreasing range accepted")
	}
	var tabs textTabs
	if err := tabs.add("4,8,+2"); err != nil || tabs.finish() != nil {
		t.Fatal(err)
	}
	idx := 0
	for _, c := range []struct{ col, want int }{{0, 4}, {5, 8}, {8, 10}, {11, 12}} {
		if got, _ := tabs.next(c.col, &idx); got != c.want {
			t.Errorf("next(%d) = %d, want %d", c.col, got, c.want)
		}
	}
	for in, want := range map[string]string{`a\+b`: `a+b`, `\(x\)*`: `(x)*`, `*a`: `\*a`, `a$b`: `a\$b`, `[[:digit:]]x`: `[[:digit:]]x`} {
		if got, err := textBRE(in); err != nil || got != want {
			t.Errorf("textBRE(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// TestTextCancel checks that every text command stops on a cancelled
// context instead of draining an endless input.
func TestTextCancel(t *testing.T) {
	for _, args := range [][]string{
		{"sort"}, {"uniq"}, {"cut", "-c1"}, {"tr", "y", "n"}, {"paste", "-"},
		{"fold"}, {"expand"}, {"unexpand"}, {"rev"}, {"nl"}, {"fmt"}, {"comm", "-", "empty"},
		{"join", "-", "empty"},
	} {
		env := testEnv(t, map[string]string{"empty": ""})
		var out strings.Builder
		sub := env.Sub()
		sub.Stdin, sub.Stdout, sub.Stderr = textInfinite{}, &out, &out
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		done := make(chan int, 1)
		go func() { done <- sub.Run(ctx, args) }()
		select {
		case <-done:
		case <-time.After(hangTimeout):
			t.Errorf("%v did not stop after cancellation", args)
		}
		cancel()
	}
}

// TestTextBrokenPipe checks the silent 141 on a vanished reader.
func TestTextBrokenPipe(t *testing.T) {
	for _, args := range [][]string{
		{"sort", "f"}, {"uniq", "f"}, {"cut", "-c1", "f"}, {"tr", "a", "b"}, {"paste", "f"},
		{"fold", "f"}, {"expand", "f"}, {"rev", "f"}, {"tac", "f"}, {"nl", "f"}, {"comm", "f", "f"},
		{"join", "f", "f"}, {"column", "f"}, {"fmt", "f"}, {"unexpand", "f"},
	} {
		env := testEnv(t, map[string]string{"f": strings.Repeat("a b\n", 50000)})
		sub := env.Sub()
		var errb strings.Builder
		sub.Stdin = strings.NewReader(strings.Repeat("a\n", 50000))
		sub.Stdout, sub.Stderr = textPipeWriter{}, &errb
		st := sub.Run(context.Background(), args)
		if st != StatusBrokenPipe || errb.Len() != 0 {
			t.Errorf("%v: status %d, stderr %q; want silent %d", args, st, errb.String(), StatusBrokenPipe)
		}
	}
}

// TestTextHelp checks every text command answers --help.
func TestTextHelp(t *testing.T) {
	for _, name := range []string{"sort", "uniq", "cut", "tr", "paste", "join", "comm", "column",
		"fold", "fmt", "expand", "unexpand", "rev", "tac", "nl"} {
		env := testEnv(t, nil)
		got := run(t, env, "", name, "--help")
		if got.Status != 0 || !strings.Contains(got.Stdout, "Usage") || !strings.Contains(got.Stdout, name) {
			t.Errorf("%s --help: %+v", name, got)
		}
	}
}
