package builtins

import "testing"

func TestArchCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"arch"}, out: "x86_64\n"},
		{args: []string{"arch", "x"}, status: 1, errHas: "extra operand"},
		{args: []string{"arch", "--help"}, outHas: "Usage: arch"},
	})
}
