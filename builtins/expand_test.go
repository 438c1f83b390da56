package builtins

import "testing"

func TestExpandCommand(t *testing.T) {
	textRunUnits(t, nil, []textUnit{
		{args: []string{"expand"}, stdin: "a\tb\n", out: "a       b\n"},
		{args: []string{"expand", "-t", "4"}, stdin: "a\tb\n", out: "a   b\n"},
		{args: []string{"expand", "-t", "2,5"}, stdin: "\ta\tb\tc\n", out: "  a  b c\n"},
		{args: []string{"expand", "-i", "-t2"}, stdin: "\ta\tb\n", out: "  a\tb\n"},
		{args: []string{"expand", "-t", "2,/3"}, stdin: "\t\t\tx\n", out: "      x\n"},
		{args: []string{"expand", "-3"}, stdin: "\tx\n", out: "   x\n"},
		{args: []string{"expand", "-t", "0"}, status: 1, errSub: "tab size cannot be 0"},
		{args: []string{"expand", "-t", "4,2"}, status: 1, errSub: "tab sizes must be ascending"},
		{args: []string{"expand", "-t", "x"}, status: 1, errSub: "invalid character"},
	})
}
