package interp_test

import (
	"strings"
	"testing"
)

// TestProcessTableIsVirtual: ps, pgrep, pkill and kill see and reach
// only the run's own virtual processes, never the host's (pid 1, the
// test binary, other users' programs): a script cannot list or signal
// what runs beside the sandbox.
func TestProcessTableIsVirtual(t *testing.T) {
	for _, c := range []struct {
		name, script, want string
		status             int
	}{
		{"ps -e lists the shell and its jobs only",
			"sleep 5 & ps -e -o comm= | sort | tr '\\n' ' '; kill $!", "bash sleep ", 0},
		{"ps -p 1 finds no host init", "ps -p 1 -o comm=", "", 1},
		{"pgrep -f finds no host program", "pgrep -f 'go|test|init|systemd'", "", 1},
		{"pkill reaches no host program", "pkill -KILL -f 'go|test|init'", "", 1},
		{"kill -9 -1 signals no host process", "kill -9 -1 2>/dev/null; echo $?", "1\n", 0},
		{"kill of a host-looking pid", "kill -0 1 2>/dev/null; echo $?", "1\n", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := runSandsh(t, c.script, false)
			if got.stdout != c.want || got.status != c.status {
				t.Errorf("%s: stdout %q status %d, want %q %d (stderr %q)", c.script, got.stdout, got.status, c.want, c.status, got.stderr)
			}
			if strings.Contains(got.stderr, "panic") {
				t.Errorf("stderr: %s", got.stderr)
			}
		})
	}
}
