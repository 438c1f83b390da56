package builtins

import "testing"

func TestClearCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"clear"}, status: 1, errHas: "TERM environment variable not set."},
		{args: []string{"clear"}, env: []string{"TERM=xterm"}, out: "\x1b[H\x1b[2J\x1b[3J"},
		{args: []string{"clear", "-x"}, env: []string{"TERM=xterm"}, out: "\x1b[H\x1b[2J"},
		{args: []string{"clear", "-T", "vt100"}, out: "\x1b[H\x1b[J"},
		{args: []string{"clear", "-T", "linux"}, out: "\x1b[H\x1b[J\x1b[3J"},
		{args: []string{"clear", "-T", "dumb"}, status: 1},
		{args: []string{"clear", "-T", "junk"}, status: 1, errHas: "'junk': unknown terminal type."},
		{args: []string{"clear", "junk"}, status: 1, errHas: "Usage: clear"},
	})
}
