package builtins

import "testing"

func TestNohupCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"nohup", "echo", "hi"}, out: "hi\n"},
		{args: []string{"nohup", "false"}, status: 1},
		{args: []string{"nohup"}, status: 125, errHas: "missing operand"},
		{args: []string{"nohup", "nosuch"}, status: 127, errHas: "failed to run command 'nosuch'", setup: shellLookPath},
		{args: []string{"nohup", "--help"}, outHas: "Usage: nohup"},
		{args: []string{"nohup", "echo", "--help"}, outHas: "Usage: echo"},
	})
}
