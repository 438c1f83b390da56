package builtins

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
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

// closedPipe is a stdout whose reader goes away after n bytes.
type closedPipe struct{ n int }

func (c *closedPipe) Write(p []byte) (int, error) {
	if c.n <= 0 {
		return 0, syscall.EPIPE
	}
	k := min(len(p), c.n)
	c.n -= k
	if k < len(p) {
		return k, syscall.EPIPE
	}
	return k, nil
}

// cancelSoon returns a context that is cancelled shortly after the
// command starts, as the run's --timeout or Ctrl-C would.
func cancelSoon(t *testing.T) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	stop := time.AfterFunc(50*time.Millisecond, cancel)
	t.Cleanup(func() { stop.Stop(); cancel() })
	return ctx
}

// TestLoopsStop: the commands of issue 11's examples (and their kin) end
// on a closed output, on cancellation, and at the bounds of absurd
// numeric arguments, instead of looping until the run is killed.
func TestLoopsStop(t *testing.T) {
	files := map[string]string{"f": "abc\n", "a": "a\n", "b": "b\n"}
	for _, c := range []struct {
		name  string
		stdin string
		args  []string
		pipe  bool // stdout closes after 100 bytes; else cancelled soon
		want  func(st int) bool
	}{
		{"split -n huge", "", []string{"split", "-n", "9223372036854775807", "f"}, false, nonzero},
		{"split -n r/huge", "", []string{"split", "-n", "r/9223372036854775807", "f"}, false, nonzero},
		{"xxd -r far offset, closed pipe", "7ffffffffffff000: 41\n", []string{"xxd", "-r"}, true, is(StatusBrokenPipe)},
		{"xxd -r far offset, cancelled", "7ffffffffffff000: 41\n", []string{"xxd", "-r"}, false, nonzero},
		{"xxd -r offset overflow", "7ffffffffffff000: 41\n", []string{"xxd", "-r", "-s", "0x7fffffffffffffff"}, false, is(4)},
		{"diff -y -W huge, closed pipe", "", []string{"diff", "-y", "-W", "9223372036854775807", "a", "b"}, true, is(StatusBrokenPipe)},
		{"diff -y -W huge, cancelled", "", []string{"diff", "-y", "-W", "99999999999999999999", "a", "b"}, false, nonzero},
		{"sed doubling", "x\n", []string{"sed", ":a;s/x*/&&x/;ba"}, false, nonzero},
		{"sed endless jump", "x\n", []string{"sed", ":a;ba"}, false, nonzero},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := testEnv(t, files)
			env.MaxLine = 1 << 30
			var errb bytes.Buffer
			sub := env.Sub()
			sub.Stdin, sub.Stderr = strings.NewReader(c.stdin), &errb
			ctx := context.Background()
			if c.pipe {
				sub.Stdout = &closedPipe{n: 100}
			} else {
				sub.Stdout = io.Discard
				ctx = cancelSoon(t)
			}
			st := runOrHang(t, c.name, func() int { return sub.Run(ctx, c.args) })
			if !c.want(st) {
				t.Errorf("%q: status %d, stderr %q", c.args, st, errb.String())
			}
		})
	}
}

func nonzero(st int) bool        { return st != 0 }
func is(want int) func(int) bool { return func(st int) bool { return st == want } }

// TestTailFollow: tail -f shows what another writer appends on the
// sandbox filesystem and ends on cancellation; --pid ends it once that
// process is gone, after a last read.
func TestTailFollow(t *testing.T) {
	env := testEnv(t, map[string]string{"log": "one\n"})
	alive := make(chan struct{})
	env.Alive = func(pid int) bool {
		select {
		case <-alive:
			return false
		default:
			return pid == 42
		}
	}
	var out bytes.Buffer
	sub := env.Sub()
	sub.Stdout, sub.Stderr = &syncBuffer{b: &out}, io.Discard
	done := make(chan int, 1)
	go func() {
		done <- sub.Run(context.Background(), []string{"tail", "-f", "-s", "0.01", "--pid", "42", "log"})
	}()
	f, err := env.FS.OpenFile(env.Abs("log"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("two\n"))
	f.Close()
	close(alive) // the writer is gone: tail reads once more and ends
	st := runOrHang(t, "tail -f --pid", func() int { return <-done })
	if st != 0 || out.String() != "one\ntwo\n" {
		t.Errorf("tail -f --pid: status %d, output %q", st, out.String())
	}
	sub = env.Sub()
	sub.Stdout, sub.Stderr = io.Discard, io.Discard
	ctx := cancelSoon(t)
	if st := runOrHang(t, "tail -f", func() int { return sub.Run(ctx, []string{"tail", "-f", "log"}) }); st == 0 {
		t.Errorf("tail -f cancelled: status 0")
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  *bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
