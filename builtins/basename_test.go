package builtins

import "testing"

func TestBasename(t *testing.T) {
	filesRunCases(t, []filesCase{
		{args: []string{"basename", "/a/b.txt", ".txt"}, out: "b\n"},
		{args: []string{"basename", "-a", "/a/b/", "c", "/"}, out: "b\nc\n/\n"},
		{args: []string{"basename", "-s", ".c", "x.c", "y.c.c", ".c"}, out: "x\ny.c\n.c\n"},
		{args: []string{"basename", "-z", "a/b"}, out: "b\x00"},
		{args: []string{"basename"}, errSub: "missing operand", status: 1},
		{args: []string{"basename", "a", "b", "c"}, errSub: "extra operand 'c'", status: 1},
	})
}
