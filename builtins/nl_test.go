package builtins

import "testing"

func TestNlCommand(t *testing.T) {
	textRunUnits(t, nil, []textUnit{
		{args: []string{"nl"}, stdin: "a\n\nb\n", out: "     1\ta\n       \n     2\tb\n"},
		{args: []string{"nl", "-ba"}, stdin: "a\n\nb\n", out: "     1\ta\n     2\t\n     3\tb\n"},
		{args: []string{"nl", "-bn"}, stdin: "a\n", out: "       a\n"},
		{args: []string{"nl", "-bp^b"}, stdin: "a\nb\n", out: "       a\n     1\tb\n"},
		{args: []string{"nl", "-nln", "-w3"}, stdin: "a\n", out: "1  \ta\n"},
		{args: []string{"nl", "-nrz", "-w3"}, stdin: "a\n", out: "001\ta\n"},
		{args: []string{"nl", "-s:", "-v5", "-i2"}, stdin: "a\nb\n", out: "     5:a\n     7:b\n"},
		{args: []string{"nl"}, stdin: "a\n\\:\\:\nb\n", out: "     1\ta\n\n     1\tb\n"},
		{args: []string{"nl", "-p"}, stdin: "a\n\\:\\:\nb\n", out: "     1\ta\n\n     2\tb\n"},
		{args: []string{"nl"}, stdin: "x", out: "     1\tx\n"},
		{args: []string{"nl", "-bx"}, status: 1, errSub: "invalid body numbering style"},
		{args: []string{"nl", "-w", "0"}, status: 1, errSub: "invalid line number field width"},
	})
}
