package builtins

import "testing"

func TestNiceCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"nice"}, out: "0\n"},
		{args: []string{"nice", "echo", "a"}, out: "a\n"},
		{args: []string{"nice", "-n", "19", "echo", "a"}, out: "a\n"},
		{args: []string{"nice", "-5", "echo", "a"}, out: "a\n"},
		{args: []string{"nice", "--adjustment=-5", "false"}, status: 1},
		{args: []string{"nice", "-n", "1.5", "true"}, status: 125, errHas: "invalid adjustment '1.5'"},
		{args: []string{"nice", "-n", "3"}, status: 125, errHas: "a command must be given"},
		{args: []string{"nice", "nosuch"}, status: 127, errHas: "'nosuch': No such file or directory", setup: shellLookPath},
		{args: []string{"nice", "echo", "--help"}, outHas: "Usage: echo"},
	})
}
