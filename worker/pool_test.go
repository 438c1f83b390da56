package worker

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sandsh/sandsh/sandbox"
)

func newTestPool(t *testing.T, size int, mod func(o *Options)) *Pool {
	t.Helper()
	p, err := NewPool(testOptions(t, mod), size)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// waitReady waits until the pool holds n ready workers.
func waitReady(t *testing.T, p *Pool, n int) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		p.mu.Lock()
		got, ch := len(p.ready), p.refilled
		p.mu.Unlock()
		if got == n {
			return
		}
		select {
		case <-ch:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("the pool holds %d ready workers, want %d", got, n)
		}
	}
}

func pidOf(s *Session) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.proc.Pid
}

// pooledPids are the processes of the ready workers.
func pooledPids(p *Pool) []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	var pids []int
	for _, e := range p.ready {
		pids = append(pids, pidOf(e.s))
	}
	return pids
}

// TestPoolWalls: a session taken from the pool has every wall of a
// session: the attacks of TestEmbedAttacks (memory bomb, host file,
// host program, write outside), a host open by the worker itself
// (Landlock) and a host program refused, with the working directory at
// a path that does not exist on the host.
func TestPoolWalls(t *testing.T) {
	t.Parallel()
	host := t.TempDir()
	canary := filepath.Join(host, "canary")
	if err := os.WriteFile(canary, []byte("host secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := newTestPool(t, 1, attackOptions)
	waitReady(t, p, 1)
	pid := pooledPids(p)[0]
	s, err := p.Get()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if pidOf(s) != pid {
		t.Fatalf("Get started a worker (%d) instead of handing out the pooled one (%d)", pidOf(s), pid)
	}
	checkWalls(t, s)
	attackSession(t, s, host, canary)
}

// TestPoolReplace: a pooled worker killed while it waits is dropped and
// replaced, never handed out; every session Get returns works.
func TestPoolReplace(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, 2, nil)
	waitReady(t, p, 2)
	victim := pooledPids(p)[0]
	if err := syscall.Kill(victim, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		pids := pooledPids(p)
		if len(pids) == 2 && pids[0] != victim && pids[1] != victim {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the killed worker %d was not replaced: %v", victim, pids)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for i := 0; i < 3; i++ {
		s, err := p.Get()
		if err != nil {
			t.Fatal(err)
		}
		if pidOf(s) == victim {
			t.Fatal("the killed worker was handed out")
		}
		res := run(t, s, Call{Script: `echo ok`})
		if string(res.Stdout) != "ok\n" || res.Restarted != "" {
			t.Errorf("session %d: %q %q", i, res.Stdout, res.Restarted)
		}
		s.Close()
	}
}

// TestPoolNoReuse: a worker serves one session only; a closed or reset
// session's worker never comes back from the pool.
func TestPoolNoReuse(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, 1, nil)
	seen := map[int]bool{}
	for i := 0; i < 4; i++ {
		s, err := p.Get()
		if err != nil {
			t.Fatal(err)
		}
		pid := pidOf(s)
		if seen[pid] {
			t.Fatalf("worker %d handed out twice", pid)
		}
		seen[pid] = true
		run(t, s, Call{Script: fmt.Sprintf(`secret=%d; echo x > f%d`, i, i)})
		if i%2 == 0 {
			if err := s.Reset(); err != nil {
				t.Fatal(err)
			}
			seen[pidOf(s)] = true
		}
		s.Close()
		if _, err := s.Run(context.Background(), Call{Script: "true"}); err != ErrSessionClosed {
			t.Errorf("after Close: %v", err)
		}
		waitReady(t, p, 1)
		for _, pid := range pooledPids(p) {
			if seen[pid] {
				t.Fatalf("a used worker %d is back in the pool", pid)
			}
		}
	}
	s, err := p.Get()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if res := run(t, s, Call{Script: `echo "[$secret]"; ls`}); string(res.Stdout) != "[]\n" {
		t.Errorf("a new session saw an old one: %q", res.Stdout)
	}
}

// TestPoolIdle: a waiting worker costs no wake-ups: its supervisor's
// memory poll is held, and the worker itself (heap watchdog held) does
// not get scheduled while it waits. After its first call the poll runs.
func TestPoolIdle(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, 1, nil)
	waitReady(t, p, 1)
	p.mu.Lock()
	s := p.ready[0].s
	p.mu.Unlock()
	if !s.poll.Paused() {
		t.Error("the supervisor polls a waiting worker")
	}
	pid := pidOf(s)
	time.Sleep(100 * time.Millisecond) // set-up wake-ups settle
	before := switches(t, pid)
	time.Sleep(500 * time.Millisecond)
	// The heap watchdog alone wakes every 10 ms: about 50 here.
	if n := switches(t, pid) - before; n > 15 {
		t.Errorf("a waiting worker was scheduled %d times in 500ms", n)
	}
	got, err := p.Get()
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()
	run(t, got, Call{Script: `true`})
	if got.poll.Paused() {
		t.Error("the supervisor's poll is held after the first call")
	}
}

// switches is how many times the threads of pid were scheduled off.
func switches(t *testing.T, pid int) int {
	t.Helper()
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/status", pid))
	if err != nil || len(tasks) == 0 {
		t.Fatalf("threads of %d: %v", pid, err)
	}
	n := 0
	for _, f := range tasks {
		data, err := os.ReadFile(f)
		if err != nil {
			continue // a thread that ended
		}
		for _, l := range strings.Split(string(data), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.HasSuffix(k, "ctxt_switches") {
				m, _ := strconv.Atoi(strings.TrimSpace(v))
				n += m
			}
		}
	}
	return n
}

// TestPoolStart: Start (StartSession's signature, the MCP server's seam)
// hands out a pooled worker when the options are the pool's, whose
// policy asks then go to the caller's AskFunc; other options start a
// fresh session with those options.
func TestPoolStart(t *testing.T) {
	t.Parallel()
	pol := func(o *Options) {
		o.Policy = []string{"ask.yaml"}
		o.PolicyData = [][]byte{[]byte("default: allow\nrules:\n  - {name: ask-tr, command: tr, action: ask}\n")}
	}
	p := newTestPool(t, 1, pol)
	waitReady(t, p, 1)
	pid := pooledPids(p)[0]
	var asked []string
	o := testOptions(t, pol)
	o.AskFunc = func(_ context.Context, q sandbox.AskQuestion) sandbox.AskAnswer {
		asked = append(asked, q.Command)
		return sandbox.AskAnswer{Allow: true, By: "test"}
	}
	s, err := p.Start(o, SessionConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if pidOf(s) != pid {
		t.Fatalf("Start with the pool's options did not hand out the pooled worker")
	}
	res := run(t, s, Call{Script: `echo a | tr a b`})
	if string(res.Stdout) != "b\n" || len(asked) != 1 || asked[0] != "tr a b" {
		t.Errorf("ask through the pooled worker: %q %q, asked %q", res.Stdout, res.Stderr, asked)
	}
	waitReady(t, p, 1)
	o.Timeout = 7 * time.Second
	other, err := p.Start(o, SessionConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if p.waiting() != 1 || other.o.Timeout != 7*time.Second {
		t.Errorf("Start with other options took from the pool (%d waiting) or lost them (%v)", p.waiting(), other.o.Timeout)
	}
}
