package builtins

import (
	"testing"
	"time"
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
	start := time.Now()
	run(t, testEnv(t, nil), "", "timeout", "0.05", "sleep", "10")
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("timeout took %v", d)
	}
}
