package builtins

import "testing"

func TestTtyCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"tty"}, out: "not a tty\n", status: 1},
		{args: []string{"tty", "-s"}, status: 1},
		{args: []string{"tty", "--quiet"}, status: 1},
		{args: []string{"tty", "x"}, status: 2, errHas: "extra operand"},
	})
}
