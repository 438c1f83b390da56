//go:build unix

package cmd

import (
	"bytes"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/sandsh/sandsh/internal/suite"
)

// quitOnWrite sends sig to this process (sandsh's parent side) when the
// script first writes, as a terminal's Ctrl-C or Ctrl-\ would.
type quitOnWrite struct {
	sig  syscall.Signal
	sent bool
}

func (q *quitOnWrite) Write(p []byte) (int, error) {
	if !q.sent {
		q.sent = true
		syscall.Kill(os.Getpid(), q.sig)
	}
	return len(p), nil
}

// TestWorkerSignals: a signal sent to sandsh ends the run as it would end
// bash: status 128+n and nothing on stderr (no Go goroutine dump for
// SIGQUIT, in the parent or the worker).
func TestWorkerSignals(t *testing.T) {
	if runtime.GOOS != "linux" {
		suite.Skip(t, "linux", "signals are forwarded on Unix; tested on Linux")
	}
	// A signal the caller ignores is not forwarded (nohup), so the test
	// must not inherit one ignored.
	suite.DefaultSignals(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGQUIT} {
		var errb bytes.Buffer
		status := Run([]string{"--timeout", "20s", "-c", "echo ready; while :; do :; done"}, IO{In: strings.NewReader(""),
			Out: &quitOnWrite{sig: sig}, Err: &errb, Getenv: func(string) string { return "" }, Getwd: os.Getwd})
		if status != 128+int(sig) || errb.Len() != 0 {
			t.Errorf("%v: status %d, stderr %q; want %d and nothing", sig, status, errb.String(), 128+int(sig))
		}
	}
}
