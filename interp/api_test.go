package interp_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/restrict"
	"github.com/sandsh/sandsh/vfs"
)

// newTestRunner makes a runner on a fresh memory filesystem.
func newTestRunner(t *testing.T, lim interp.Limits, opts ...interp.Option) (*interp.Runner, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	fsys := vfs.NewMem()
	if err := vfs.Populate(fsys, vfs.WorkDir); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	base := []interp.Option{interp.WithFS(fsys), interp.WithGateway(restrict.New(builtins.NewRegistry())),
		interp.WithStdio(strings.NewReader(""), &out, &errb), interp.WithDir(vfs.WorkDir), interp.WithLimits(lim)}
	r, err := interp.New(append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return r, &out, &errb
}

// TestLimits checks that each limit ends a runaway script with a
// LimitError naming it, keeping the output produced before it.
func TestLimits(t *testing.T) {
	tests := []struct {
		name   string
		script string
		set    func(*interp.Limits)
		limit  string
	}{
		{"commands", `while :; do :; done`, func(l *interp.Limits) { l.MaxCommands = 1000 }, "max-commands"},
		{"loop iterations", `for ((;;)); do x=1; done`, func(l *interp.Limits) { l.MaxLoopIters = 500 }, "max-loop-iterations"},
		{"call depth", `f(){ f; }; f`, func(l *interp.Limits) { l.MaxCallDepth = 50 }, "max-call-depth"},
		{"eval depth", `e='eval "$e"'; eval "$e"`, func(l *interp.Limits) { l.MaxCallDepth = 50 }, "max-call-depth"},
		{"source depth", `echo '. ./s.sh' > s.sh; . ./s.sh`, func(l *interp.Limits) { l.MaxCallDepth = 50 }, "max-call-depth"},
		{"nested shells", `echo 'bash ./b.sh' > b.sh; bash b.sh`, func(l *interp.Limits) { l.MaxCallDepth = 20 }, "max-call-depth"},
		{"output", `while :; do echo yes; done`, func(l *interp.Limits) { l.MaxOutput = 1000 }, "max-output"},
		{"var bytes", `x=a; while :; do x=$x$x; done`, func(l *interp.Limits) { l.MaxVarBytes = 1 << 16 }, "max-var-bytes"},
		{"capture", `x=$(while :; do echo yes; done)`, func(l *interp.Limits) { l.MaxCapture = 1 << 16 }, "max-capture"},
		{"subst depth", `f(){ echo $(f); }; f`, func(l *interp.Limits) { l.MaxSubstDepth = 10 }, "max-subst-depth"},
		{"jobs", `while :; do sleep 10 & done`, func(l *interp.Limits) { l.MaxJobs = 20 }, "max-jobs"},
		{"fork bomb", `b(){ b|b& }; b; wait`, func(l *interp.Limits) { l.MaxJobs = 50 }, "max-jobs"},
		{"timeout", `while :; do :; done`, func(l *interp.Limits) { l.Timeout = 100 * time.Millisecond }, "timeout"},
		{"sleep timeout", `sleep 100`, func(l *interp.Limits) { l.Timeout = 100 * time.Millisecond }, "timeout"},
		{"heredoc", "x=$(printf '%0100000d' 0); cat <<EOF\n$x\nEOF", func(l *interp.Limits) { l.MaxHeredoc = 1000 }, "max-heredoc"},
		{"script size", `eval "$(printf '%0100000d' 0)"`, func(l *interp.Limits) { l.MaxScript = 1000 }, "max-script-bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lim := interp.DefaultLimits()
			lim.Timeout = 10 * time.Second
			tt.set(&lim)
			r, _, _ := newTestRunner(t, lim)
			start := time.Now()
			_, err := r.RunReader(context.Background(), strings.NewReader(tt.script), "limits")
			var le *interp.LimitError
			if !errors.As(err, &le) {
				t.Fatalf("err = %v, want a LimitError", err)
			}
			if le.Limit != tt.limit {
				t.Errorf("limit = %s, want %s", le.Limit, tt.limit)
			}
			if d := time.Since(start); d > 8*time.Second {
				t.Errorf("took %v to stop", d)
			}
		})
	}
}

// TestOutputBeforeLimit keeps what was written before a limit hit.
func TestOutputBeforeLimit(t *testing.T) {
	lim := interp.DefaultLimits()
	lim.MaxCommands = 5
	r, out, _ := newTestRunner(t, lim)
	_, err := r.RunReader(context.Background(), strings.NewReader("echo one; echo two; while :; do :; done"), "x")
	if err == nil {
		t.Fatal("no limit error")
	}
	if out.String() != "one\ntwo\n" {
		t.Errorf("output = %q", out.String())
	}
}

// TestSyntaxErrorStatus runs statements before a syntax error, then
// stops with status 2.
func TestSyntaxErrorStatus(t *testing.T) {
	r, out, errb := newTestRunner(t, interp.DefaultLimits())
	st, err := r.RunReader(context.Background(), strings.NewReader("echo a\nfi\necho b\n"), "s.sh")
	if err != nil {
		t.Fatal(err)
	}
	if st != 2 || out.String() != "a\n" || !strings.Contains(errb.String(), "s.sh: line 2: syntax error near unexpected token `fi'") {
		t.Errorf("status %d, out %q, err %q", st, out.String(), errb.String())
	}
}

// TestInteractiveErrorsKeepSession checks that in interactive mode an
// expansion error or a limit ends the line but not the shell.
func TestInteractiveErrorsKeepSession(t *testing.T) {
	lim := interp.DefaultLimits()
	lim.MaxCommands = 100
	r, out, _ := newTestRunner(t, lim, interp.Interactive(true))
	for _, line := range []string{"x=1", "echo ${nope:?gone}; echo not-here", "while :; do :; done", "echo $x"} {
		f, err := parseLine(line)
		if err != nil {
			t.Fatal(err)
		}
		r.RunLine(context.Background(), f)
		if r.Exited() {
			t.Fatalf("shell exited after %q", line)
		}
		r.Reset()
	}
	if !strings.HasSuffix(out.String(), "1\n") || strings.Contains(out.String(), "not-here") {
		t.Errorf("output %q", out.String())
	}
}

// TestReadTimeoutRefused: read -t on a regular file reads without a
// goroutine of its own (the file never makes it wait), so max-jobs does
// not refuse it, and the buffered file is let go for the next line's read
// (it used to wait forever when the goroutine was refused).
func TestReadTimeoutRefused(t *testing.T) {
	lim := interp.DefaultLimits()
	lim.MaxJobs = 2
	r, out, _ := newTestRunner(t, lim, interp.Interactive(true))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, line := range []string{"printf 'a\\nb\\n' > f; exec 3< f", "sleep 10 & sleep 10 & read -t 5 -u 3 x", "read -u 3 y; echo y=$y"} {
			f, err := parseLine(line)
			if err != nil {
				t.Error(err)
				return
			}
			r.RunLine(context.Background(), f)
			r.Reset()
		}
	}()
	select {
	case <-done:
	case <-time.After(8 * time.Second):
		t.Fatal("the read after a refused read -t hangs")
	}
	if !strings.Contains(out.String(), "y=b\n") {
		t.Errorf("output %q, want y=b", out.String())
	}
}

// TestExpansionBlowUp checks that one expansion step cannot allocate
// without bound: ${x// /$x} grows quadratically.
func TestExpansionBlowUp(t *testing.T) {
	lim := interp.DefaultLimits()
	lim.MaxVarBytes = 1 << 20
	r, _, _ := newTestRunner(t, lim)
	_, err := r.RunReader(context.Background(), strings.NewReader(`x=$(printf '%0500000d' 0 | tr 0 ' '); y=${x// /$x}`), "x")
	var le *interp.LimitError
	if !errors.As(err, &le) || le.Limit != "max-var-bytes" {
		t.Fatalf("err = %v, want max-var-bytes", err)
	}
}
