package worker

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sandsh/sandsh/restrict"
)

// TestMemoryLimitReportedOnce: the memory limit is reported by the parent
// alone, once, whichever way the worker ended (issue 24.5: a worker that
// had printed the limit itself could still be killed for its RSS before
// it exited, and the parent printed the line again). A script's own
// `exit 125` stays silent.
func TestMemoryLimitReportedOnce(t *testing.T) {
	const line = "sandsh: limit exceeded: max-memory 64MiB\n"
	for _, c := range []struct {
		name   string
		res    restrict.WorkerResult
		status int
		limit  string
		stderr string
	}{
		{"watchdog ended the run", restrict.WorkerResult{Death: restrict.Exited, Status: ExitLimit, CrashText: memoryLimitMark}, ExitLimit, "max-memory", line},
		{"killed for RSS after the watchdog", restrict.WorkerResult{Death: restrict.DiedMemory, CrashText: memoryLimitMark}, ExitLimit, "max-memory", line},
		{"killed for RSS", restrict.WorkerResult{Death: restrict.DiedMemory}, ExitLimit, "max-memory", line},
		{"the script's exit 125", restrict.WorkerResult{Death: restrict.Exited, Status: ExitLimit}, ExitLimit, "", ""},
	} {
		var errw bytes.Buffer
		status, limit := workerStatus(&Options{}, &errw, c.res, 64<<20)
		if status != c.status || limit != c.limit || errw.String() != c.stderr {
			t.Errorf("%s: status %d limit %q stderr %q; want %d %q %q", c.name, status, limit, errw.String(), c.status, c.limit, c.stderr)
		}
	}
	// The worker's side prints nothing: it leaves the mark on its crash
	// pipe (its own stderr, never the script's) and exits with 125.
	if !strings.HasSuffix(memoryLimitMark, "\n") || strings.Contains(memoryLimitMark, "limit exceeded") {
		t.Errorf("the mark %q must be one line the user never sees as a report", memoryLimitMark)
	}
}
