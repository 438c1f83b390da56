// Package suite holds what sandsh's tests share about the machine they run
// on: the state of whoever started the tests, which no test may depend on
// (DefaultSignals), and the rule that a CI run never passes on a skipped
// security or conformance test (Skip). Only _test.go files import it.
package suite

import (
	"os"
	"os/signal"
	"syscall"
	"testing"
)

// callerSignals are the signals a Go process keeps ignored, and so passes
// on ignored to what it starts, when its caller ignored them: nohup
// ignores SIGHUP, and a shell ignores SIGINT for a background job.
var callerSignals = []os.Signal{syscall.SIGHUP, syscall.SIGINT}

// DefaultSignals makes the processes the test starts (an oracle bash, a
// worker) begin with the default disposition of SIGHUP and SIGINT even
// when the caller ignored them: bash lists an inherited ignored signal in
// `trap -p` and cannot trap it, and a worker that ignores SIGINT does not
// die of it. A signal ignored on entry gets a handler that drops it, so
// the test process itself still ignores it, and execve resets a handled
// signal to the default. The handler stays for the life of the test
// process: signal.Stop would put SIG_IGN back while signal.Ignored went
// on reporting false, and the next test's children would inherit it.
func DefaultSignals(t testing.TB) {
	t.Helper()
	for _, sig := range callerSignals {
		if !signal.Ignored(sig) {
			continue
		}
		c := make(chan os.Signal, 1)
		signal.Notify(c, sig)
		go func() {
			for range c {
			}
		}()
	}
}
