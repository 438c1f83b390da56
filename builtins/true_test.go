package builtins

import "testing"

func TestTrueCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"true"}},
		{args: []string{"true", "--nonsense", "x"}},
		{args: []string{"true", "--help"}, outHas: "Usage: true"},
		{args: []string{"true", "--help", "x"}},
	})
}
