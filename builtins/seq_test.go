package builtins

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

func TestSeqCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"seq", "3"}, out: "1\n2\n3\n"},
		{args: []string{"seq", "-s", "+", "4"}, out: "1+2+3+4\n"},
		{args: []string{"seq", "-w", "8", "11"}, out: "08\n09\n10\n11\n"},
		{args: []string{"seq", "2", "-0.5", "0"}, out: "2.0\n1.5\n1.0\n0.5\n0.0\n"},
		{args: []string{"seq", "-f", "n%03g", "1", "2"}, out: "n001\nn002\n"},
		{args: []string{"seq", "99999999999999999998", "99999999999999999999"}, out: "99999999999999999998\n99999999999999999999\n"},
		{args: []string{"seq", "5", "1"}},
		{args: []string{"seq", "x"}, status: 1, errHas: "invalid floating point argument: 'x'"},
		{args: []string{"seq", "1", "0", "3"}, status: 1, errHas: "invalid Zero increment value"},
		{args: []string{"seq", "-f", "%d", "1"}, status: 1, errHas: "has unknown %d directive"},
		{args: []string{"seq", "-f", "%2000000f", "1"}, status: 1, errHas: "too large"},
	})
}

// shellLimitWriter accepts n bytes, then fails like a closed pipe.
type shellLimitWriter struct {
	n   int
	buf strings.Builder
}

func (w *shellLimitWriter) Write(p []byte) (int, error) {
	if w.n <= 0 {
		return 0, io.ErrClosedPipe
	}
	if len(p) > w.n {
		p = p[:w.n]
	}
	w.n -= len(p)
	w.buf.Write(p)
	if w.n <= 0 {
		return len(p), io.ErrClosedPipe
	}
	return len(p), nil
}

// shellRunLimited runs a command whose reader stops after n bytes, like
// `cmd | head -c n`, and fails the test if it does not stop.
func shellRunLimited(t *testing.T, n int, args ...string) (string, int) {
	t.Helper()
	env := testEnv(t, nil)
	w := &shellLimitWriter{n: n}
	env.Stdout = w
	ctx, cancel := context.WithTimeout(context.Background(), hangTimeout)
	defer cancel()
	st := env.Run(ctx, args)
	if ctx.Err() != nil {
		t.Fatalf("%q: still running %v after its reader left", args, hangTimeout)
	}
	return w.buf.String(), st
}

func TestSeqStreamsToClosedPipe(t *testing.T) {
	for _, args := range [][]string{
		{"seq", "1", "1e12"},
		{"seq", "1", "inf"},
		{"seq", "0", "0.5", "1e12"},
		{"seq", "-w", "1", "1000000000000"},
		{"seq", "-s", ",", "1", "1e15"},
	} {
		out, st := shellRunLimited(t, 20, args...)
		if st != StatusBrokenPipe || len(out) != 20 {
			t.Errorf("%q: status %d, output %q", args, st, out)
		}
	}
}

func TestSeqCancel(t *testing.T) {
	env := testEnv(t, nil)
	env.Stdout = io.Discard
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	st := env.Run(ctx, []string{"seq", "inf"})
	if st == 0 || !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("seq inf under a deadline: status %d", st)
	}
}
