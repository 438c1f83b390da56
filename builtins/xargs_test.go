package builtins

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestXargsCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"xargs"}, stdin: "a b\nc\n", out: "a b c\n"},
		{args: []string{"xargs", "-n", "2", "echo", "x"}, stdin: "1 2 3", out: "x 1 2\nx 3\n"},
		{args: []string{"xargs", "-I", "%", "echo", "<%>"}, stdin: "a b\nc\n", out: "<a b>\n<c>\n"},
		{args: []string{"xargs", "-0", "-n1", "echo"}, stdin: "a b\x00c", out: "a b\nc\n"},
		{args: []string{"xargs", "-r", "echo", "x"}, stdin: "\n \n"},
		{args: []string{"xargs", "echo", "x"}, stdin: "", out: "x\n"},
		{args: []string{"xargs", "-t", "echo"}, stdin: "a 'b c'\n", out: "a b c\n", errHas: "echo a 'b c'\n"},
		{args: []string{"xargs", "-a", "list", "-n1", "echo"}, files: map[string]string{"list": "p\nq\n"}, out: "p\nq\n"},
		{args: []string{"xargs", "echo"}, stdin: "'open\n", status: 1, errHas: "unmatched single quote"},
		{args: []string{"xargs", "false"}, stdin: "a\n", status: 123},
		{args: []string{"xargs", "nosuch"}, stdin: "a\n", status: 127, errHas: "nosuch: No such file or directory", setup: shellLookPath},
		{args: []string{"xargs", "-s", "5", "echo"}, stdin: "a\n", status: 1, errHas: "argument line too long"},
		{args: []string{"xargs", "-s", "4", "echo"}, stdin: "a\n", status: 1, errHas: "cannot fit single argument"},
		{args: []string{"xargs", "-P", "100", "-n", "1", "echo"}, stdin: "z\n", out: "z\n"},
		{args: []string{"xargs", "--help"}, outHas: "Usage: xargs"},
		{args: []string{"xargs", "echo", "--help"}, stdin: "", outHas: "Usage: echo"},
	})
}

// xargsFakeExec runs fn for command "cmd" and the registry otherwise.
func xargsFakeExec(env *Env, fn func(sub *Env, args []string) int) {
	orig := env.Exec
	env.Exec = func(ctx context.Context, sub *Env, args []string) int {
		if args[0] != "cmd" {
			return orig(ctx, sub, args)
		}
		return fn(sub, args)
	}
}

func TestXargsStatuses(t *testing.T) {
	for _, c := range []struct {
		status, want, calls int
		msg                 string
	}{
		{255, 124, 1, "exited with status 255; aborting"},
		{141, 125, 1, "terminated by signal 13"},
		{2, 123, 3, ""},
		{0, 0, 3, ""},
	} {
		env := testEnv(t, nil)
		calls := 0
		xargsFakeExec(env, func(sub *Env, args []string) int { calls++; return c.status })
		r := run(t, env, "a b c\n", "xargs", "-n1", "cmd")
		if r.Status != c.want || calls != c.calls || !strings.Contains(r.Stderr, c.msg) {
			t.Errorf("command status %d: xargs status %d after %d calls, stderr %q", c.status, r.Status, calls, r.Stderr)
		}
	}
}

func TestXargsCommandStdinIsEmpty(t *testing.T) {
	env := testEnv(t, nil)
	var got []byte
	xargsFakeExec(env, func(sub *Env, args []string) int {
		got, _ = io.ReadAll(sub.Stdin)
		return 0
	})
	run(t, env, "a b\n", "xargs", "cmd")
	if len(got) != 0 {
		t.Fatalf("command read %q from stdin", got)
	}
}

func TestXargsParallel(t *testing.T) {
	env := testEnv(t, nil)
	var running, peak int32
	var mu sync.Mutex
	xargsFakeExec(env, func(sub *Env, args []string) int {
		n := atomic.AddInt32(&running, 1)
		mu.Lock()
		if n > peak {
			peak = n
		}
		mu.Unlock()
		time.Sleep(20 * time.Millisecond)
		fmt.Fprintf(sub.Stdout, "%s\n", args[1])
		atomic.AddInt32(&running, -1)
		return 0
	})
	r := run(t, env, "1 2 3 4 5 6 7 8 9\n", "xargs", "-P", "3", "-n", "1", "cmd")
	lines := strings.Split(strings.TrimSpace(r.Stdout), "\n")
	if r.Status != 0 || len(lines) != 9 {
		t.Fatalf("status %d, output %q", r.Status, r.Stdout)
	}
	if peak < 2 || peak > 3 {
		t.Fatalf("peak concurrency %d, want 2..3", peak)
	}
}

// xargsEndless yields "x\n" forever.
type xargsEndless struct{}

func (xargsEndless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = "x\n"[i%2]
	}
	return len(p) &^ 1, nil
}

func TestXargsStopsOnEndlessInput(t *testing.T) {
	env := testEnv(t, nil)
	calls := 0
	xargsFakeExec(env, func(sub *Env, args []string) int {
		calls++
		if calls == 3 {
			return 255
		}
		return 0
	})
	env.Stdin = xargsEndless{}
	env.Stdout, env.Stderr = io.Discard, io.Discard
	done := make(chan int)
	go func() { done <- env.Run(context.Background(), []string{"xargs", "-n", "1", "cmd"}) }()
	select {
	case st := <-done:
		if st != 124 || calls != 3 {
			t.Fatalf("status %d after %d calls", st, calls)
		}
	case <-time.After(hangTimeout):
		t.Fatal("xargs did not stop")
	}
}
