package builtins

import "testing"

func TestUnexpandCommand(t *testing.T) {
	textRunUnits(t, nil, []textUnit{
		{args: []string{"unexpand"}, stdin: "        a       b\n", out: "\ta       b\n"},
		{args: []string{"unexpand", "-a"}, stdin: "        a       b\n", out: "\ta\tb\n"},
		{args: []string{"unexpand", "-t", "4"}, stdin: "    a   b\n", out: "\ta\tb\n"},
		{args: []string{"unexpand", "--first-only", "-t", "4"}, stdin: "    a   b\n", out: "\ta   b\n"},
		{args: []string{"unexpand", "-a"}, stdin: "a b\n", out: "a b\n"},
		{args: []string{"unexpand", "-a"}, stdin: "abcdefg h\n", out: "abcdefg h\n"},
		{args: []string{"unexpand", "-a"}, stdin: "       x", out: "       x"},
		{args: []string{"unexpand", "nofile"}, status: 1, errSub: "nofile: No such file"},
	})
}
