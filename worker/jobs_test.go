package worker

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestSessionJobs: a job started with & in a call runs on after the
// call returns; a later call sees it with jobs, waits for it (its
// status) or kills it; what it writes between calls comes first in the
// next call's output; the call that started it does not wait for it.
func TestSessionJobs(t *testing.T) {
	t.Parallel()
	s := startTest(t, nil)
	start := time.Now()
	res := run(t, s, Call{Script: `(sleep 0.4; echo late; echo late-err >&2; echo data > f; exit 3) & sleep 30 & echo started`})
	if d := time.Since(start); d > 300*time.Millisecond || string(res.Stdout) != "started\n" {
		t.Fatalf("the call waited for its jobs (%v) or lost its output: %q", d, res.Stdout)
	}
	res = run(t, s, Call{Script: `jobs`})
	if got := string(res.Stdout); !strings.Contains(got, "[1]") || !strings.Contains(got, "Running") || !strings.Contains(got, "sleep 30 &") {
		t.Errorf("jobs: %q", got)
	}
	time.Sleep(700 * time.Millisecond) // the first job writes and ends between calls
	res = run(t, s, Call{Script: `wait %1; echo "status $?"; cat f`})
	if got, want := string(res.Stdout), "late\nstatus 3\ndata\n"; got != want {
		t.Errorf("wait: stdout %q, want %q", got, want)
	}
	if string(res.Stderr) != "late-err\n" {
		t.Errorf("the job's stderr between calls: %q", res.Stderr)
	}
	res = run(t, s, Call{Script: `kill %2; wait %2; echo "status $?"; jobs; echo end`})
	if got := string(res.Stdout); got != "status 143\nend\n" {
		t.Errorf("kill: %q %q", got, res.Stderr)
	}
	// A job writing while a call runs writes into that call.
	run(t, s, Call{Script: `(sleep 0.3; echo during) &`})
	res = run(t, s, Call{Script: `sleep 0.6; echo after`})
	if got := string(res.Stdout); got != "during\nafter\n" {
		t.Errorf("output during a call: %q", got)
	}
}

// TestSessionJobsEnd: a job is bounded by --timeout from its start and
// by the session's limits, and Close and Reset stop the jobs.
func TestSessionJobsEnd(t *testing.T) {
	t.Parallel()
	s := startTest(t, func(o *Options) { o.Timeout, o.MaxCommands = time.Second, 5000 })
	run(t, s, Call{Script: `sleep 100 &`})
	// (later, so that this call's own second ends well after the job's)
	time.Sleep(400 * time.Millisecond)
	res := run(t, s, Call{Script: `wait %1; echo "status $?"`})
	if got := string(res.Stdout); got != "status 124\n" {
		t.Errorf("a job past --timeout: %q %q", got, res.Stderr)
	}
	// A runaway job between calls meets --max-commands.
	run(t, s, Call{Script: `while :; do :; done &`})
	time.Sleep(300 * time.Millisecond)
	res = run(t, s, Call{Script: `jobs; echo end`})
	if got := string(res.Stdout); strings.Contains(got, "Running") {
		t.Errorf("a runaway job still runs: %q", got)
	}
	run(t, s, Call{Script: `sleep 100 &`})
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	if res := run(t, s, Call{Script: `jobs; echo end`}); string(res.Stdout) != "end\n" {
		t.Errorf("after Reset: %q", res.Stdout)
	}
	run(t, s, Call{Script: `sleep 100 &`})
	done := make(chan struct{})
	go func() { s.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		t.Error("Close waited for a job")
	}
	if _, err := s.Run(context.Background(), Call{Script: "true"}); err != ErrSessionClosed {
		t.Errorf("after Close: %v", err)
	}
}
