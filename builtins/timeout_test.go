package builtins

import (
	"context"
	"io"
	"testing"
)

func TestTimeoutCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"timeout", "5", "echo", "hi"}, out: "hi\n"},
		{args: []string{"timeout", "5", "false"}, status: 1},
		{args: []string{"timeout", "0.05", "sleep", "10"}, status: 124},
		{args: []string{"timeout", "--preserve-status", "0.05", "sleep", "10"}, status: 143},
		{args: []string{"timeout", "-s", "KILL", "--preserve-status", "0.05", "sleep", "10"}, status: 137},
		{args: []string{"timeout", "-s", "SIGINT", "--preserve-status", "0.05", "sleep", "10"}, status: 130},
		{args: []string{"timeout", "-s", "9", "--preserve-status", "0.05", "sleep", "10"}, status: 137},
		{args: []string{"timeout", "-v", "0.05", "sleep", "10"}, status: 124, errHas: "sending signal TERM to command 'sleep'"},
		{args: []string{"timeout", "-k", "1", "0.05", "sleep", "10"}, status: 124},
		{args: []string{"timeout", "0", "true"}},
		{args: []string{"timeout", "x", "true"}, status: 125, errHas: "invalid time interval 'x'"},
		{args: []string{"timeout", "-s", "BOGUS", "1", "true"}, status: 125, errHas: "invalid signal"},
		{args: []string{"timeout", "1"}, status: 125, errHas: "Try 'timeout --help'"},
		{args: []string{"timeout", "1", "nosuch"}, status: 127, errHas: "failed to run command 'nosuch'", setup: shellLookPath},
		{args: []string{"timeout", "1", "echo", "--help"}, outHas: "Usage: echo"},
	})
	// The command is stopped, not waited for: with an endless sleep only
	// the hang detector bounds the wait.
	env := testEnv(t, nil)
	st := runOrHang(t, "timeout 0.05 sleep inf", func() int {
		sub := env.Sub()
		sub.Stdout, sub.Stderr = io.Discard, io.Discard
		return sub.Run(context.Background(), []string{"timeout", "0.05", "sleep", "inf"})
	})
	if st != 124 {
		t.Fatalf("timeout 0.05 sleep inf: status %d, want 124", st)
	}
}
