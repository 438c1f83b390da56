package builtins

import "testing"

func TestFalseCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"false"}, status: 1},
		{args: []string{"false", "x", "y"}, status: 1},
		{args: []string{"false", "--help"}, outHas: "Usage: false", status: 1},
	})
}
