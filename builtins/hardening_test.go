package builtins

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

// Attack tests of issue 11: loops that must stop on cancellation, on a
// closed output and at the bounds of their arguments, and records that
// must not grow without end. Each run is bounded by runOrHang (a hang
// detector), never by a timed assertion.

// endless is an input that never ends (like /dev/zero or `yes`). After
// budget bytes it fails, so a reader that ignores its bounds is caught
// by an error instead of exhausting the test's memory; onLimit, when
// set, runs once after cancelAfter bytes (to cancel the run mid-line).
type endless struct {
	b           byte
	n, budget   int
	cancelAfter int
	onLimit     func()
}

var errBudget = errors.New("test input budget exhausted: the reader ignored its bounds")

func (e *endless) Read(p []byte) (int, error) {
	if e.n >= e.budget {
		return 0, errBudget
	}
	p = p[:min(len(p), e.budget-e.n)]
	for i := range p {
		p[i] = e.b
	}
	e.n += len(p)
	if e.onLimit != nil && e.n >= e.cancelAfter {
		e.onLimit()
		e.onLimit = nil
	}
	return len(p), nil
}

// lineCommands are the users of the shared line reader.
var lineCommands = [][]string{
	{"cut", "-c", "1"}, {"cut", "-f", "1"}, {"cut", "-d", "\n", "-f", "1"}, {"rev"}, {"nl"},
	{"uniq"}, {"paste", "-"}, {"comm", "-", "empty"}, {"join", "-", "empty"},
}

// TestLineBound: a line that never ends ends the command with a clear
// error once it passes the line bound (Env.MaxLine, --max-var-bytes).
func TestLineBound(t *testing.T) {
	env := testEnv(t, map[string]string{"empty": ""})
	env.MaxLine = 1 << 20
	for _, args := range lineCommands {
		var out, errb bytes.Buffer
		sub := env.Sub()
		sub.Stdin, sub.Stdout, sub.Stderr = &endless{b: 'x', budget: 64 << 20}, &out, &errb
		st := runOrHang(t, strings.Join(args, " "), func() int { return sub.Run(context.Background(), args) })
		if st != 1 || !strings.Contains(errb.String(), "line too long (over 1MiB, the --max-var-bytes limit)") {
			t.Errorf("%q: status %d, stderr %q; want 1 and a line-too-long error", args, st, errb.String())
		}
	}
}

// TestLineCancel: a reader filling one endless line stops when the run is
// cancelled, not only between lines.
func TestLineCancel(t *testing.T) {
	env := testEnv(t, map[string]string{"empty": ""})
	env.MaxLine = 1 << 40
	for _, args := range lineCommands {
		ctx, cancel := context.WithCancel(context.Background())
		in := &endless{b: 'x', budget: 256 << 20, cancelAfter: 4 << 20, onLimit: cancel}
		var errb bytes.Buffer
		sub := env.Sub()
		sub.Stdin, sub.Stdout, sub.Stderr = in, io.Discard, &errb
		st := runOrHang(t, strings.Join(args, " "), func() int { return sub.Run(ctx, args) })
		cancel()
		if in.n >= in.budget || strings.Contains(errb.String(), "budget") {
			t.Errorf("%q: read %d bytes after the cancel (status %d, stderr %q)", args, in.n, st, errb.String())
		}
	}
}
