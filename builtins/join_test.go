package builtins

import "testing"

func TestJoinCommand(t *testing.T) {
	files := map[string]string{
		"a": "1 alice\n2 bob\n4 dan\n",
		"b": "1 red\n2 blue\n3 green\n",
		"c": "k,v\n1,x\n",
		"u": "2 b\n1 a\n",
	}
	textRunUnits(t, files, []textUnit{
		{args: []string{"join", "a", "b"}, out: "1 alice red\n2 bob blue\n"},
		{args: []string{"join", "-a1", "a", "b"}, out: "1 alice red\n2 bob blue\n4 dan\n"},
		{args: []string{"join", "-a2", "a", "b"}, out: "1 alice red\n2 bob blue\n3 green\n"},
		{args: []string{"join", "-v1", "a", "b"}, out: "4 dan\n"},
		{args: []string{"join", "-v2", "a", "b"}, out: "3 green\n"},
		{args: []string{"join", "-o", "2.2,1.2", "a", "b"}, out: "red alice\nblue bob\n"},
		{args: []string{"join", "-a1", "-e", "NA", "-o", "0,1.2,2.2", "a", "b"}, out: "1 alice red\n2 bob blue\n4 dan NA\n"},
		{args: []string{"join", "-o", "auto", "-a2", "-e", "-", "a", "b"}, out: "1 alice red\n2 bob blue\n3 - green\n"},
		{args: []string{"join", "-t,", "--header", "c", "c"}, out: "k,v,v\n1,x,x\n"},
		{args: []string{"join", "-1", "2", "-2", "1", "-", "b"}, stdin: "x 1\ny 3\n", out: "1 x red\n3 y green\n"},
		{args: []string{"join", "-i", "-", "b"}, stdin: "1 A\n", out: "1 A red\n"},
		{args: []string{"join", "u", "b"}, out: "2 b blue\n", status: 1, errSub: "is not sorted"},
		{args: []string{"join", "--nocheck-order", "u", "b"}, out: "2 b blue\n"},
		{args: []string{"join", "--check-order", "u", "b"}, status: 1, errSub: "u:2: is not sorted: 1 a"},
		{args: []string{"join", "a"}, status: 1, errSub: "missing operand after 'a'"},
		{args: []string{"join", "-", "-"}, status: 1, errSub: "both files cannot be standard input"},
		{args: []string{"join", "-o", "3.1", "a", "b"}, status: 1, errSub: "invalid file number"},
		{args: []string{"join", "a", "nofile"}, status: 1, errSub: "join: nofile: No such file or directory"},
	})
}
