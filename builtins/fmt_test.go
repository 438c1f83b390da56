package builtins

import "testing"

func TestFmtCommand(t *testing.T) {
	textRunUnits(t, nil, []textUnit{
		{args: []string{"fmt"}, stdin: "a\nb\nc\n", out: "a b c\n"},
		{args: []string{"fmt", "-w", "7"}, stdin: "aaa bbb ccc\n", out: "aaa\nbbb\nccc\n"},
		{args: []string{"fmt", "-u"}, stdin: "a   b.  c\n", out: "a b.  c\n"},
		{args: []string{"fmt", "-s", "-w", "5"}, stdin: "aa bb\ncc\n", out: "aa\nbb\ncc\n"},
		{args: []string{"fmt"}, stdin: "p1\n\np2\n", out: "p1\n\np2\n"},
		{args: []string{"fmt", "-p", "#", "-w", "8"}, stdin: "# a b c d e\nx y\n", out: "# a b c\n# d e\nx y\n"},
		{args: []string{"fmt", "-10"}, stdin: "one two three\n", out: "one\ntwo three\n"},
		{args: []string{"fmt", "-w", "x"}, status: 1, errSub: "invalid width"},
		{args: []string{"fmt", "nofile"}, status: 1, errSub: "cannot open 'nofile' for reading"},
	})
}
