package builtins

import "testing"

func TestPrintenvCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"printenv", "HOME"}, out: "/home/sandbox\n"},
		{args: []string{"printenv", "HOME", "USER"}, out: "/home/sandbox\nsandbox\n"},
		{args: []string{"printenv", "NOPE", "USER"}, out: "sandbox\n", status: 1},
		{args: []string{"printenv", "-0", "USER"}, out: "sandbox\x00"},
		{args: []string{"printenv"}, out: "HOME=/home/sandbox\nPATH=/usr/bin:/bin\nLC_ALL=C\nUSER=sandbox\n"},
		{args: []string{"printenv", "X"}, env: []string{"X=1", "X=2"}, out: "2\n"},
		{args: []string{"printenv", "USER=sandbox"}, status: 1},
		{args: []string{"printenv", "-z"}, status: 2, errHas: "invalid option"},
	})
}
