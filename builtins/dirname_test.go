package builtins

import "testing"

func TestDirname(t *testing.T) {
	filesRunCases(t, []filesCase{
		{args: []string{"dirname", "/a/b/", "c", "/", "a//b", "///"}, out: "/a\n.\n/\na\n/\n"},
		{args: []string{"dirname", "-z", "a/b"}, out: "a\x00"},
		{args: []string{"dirname"}, errSub: "missing operand", status: 1},
	})
}
