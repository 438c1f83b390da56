package builtins

import "testing"

func TestWhoamiCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"whoami"}, out: "sandbox\n"},
		{args: []string{"whoami"}, out: "alice\n", setup: func(e *Env) { e.Sys.User = "alice" }},
		{args: []string{"whoami", "x"}, status: 1, errHas: "extra operand 'x'"},
	})
}
