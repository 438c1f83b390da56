package builtins

import "testing"

func TestCommCommand(t *testing.T) {
	files := map[string]string{"a": "a\nb\nd\n", "b": "b\nc\nd\n", "u": "b\na\n"}
	textRunUnits(t, files, []textUnit{
		{args: []string{"comm", "a", "b"}, out: "a\n\t\tb\n\tc\n\t\td\n"},
		{args: []string{"comm", "-12", "a", "b"}, out: "b\nd\n"},
		{args: []string{"comm", "-3", "a", "b"}, out: "a\n\tc\n"},
		{args: []string{"comm", "-13", "a", "b"}, out: "c\n"},
		{args: []string{"comm", "--output-delimiter=|", "a", "b"}, out: "a\n||b\n|c\n||d\n"},
		{args: []string{"comm", "--total", "-123", "a", "b"}, out: "1\t1\t2\ttotal\n"},
		{args: []string{"comm", "-", "b"}, stdin: "c\n", out: "\tb\n\t\tc\n\td\n"},
		{args: []string{"comm", "u", "b"}, out: "\t\tb\na\n\tc\n\td\n", status: 1, errSub: "file 1 is not in sorted order"},
		{args: []string{"comm", "--check-order", "u", "a"}, out: "\ta\n\t\tb\n", status: 1, errSub: "file 1 is not in sorted order"},
		{args: []string{"comm", "--nocheck-order", "u", "a"}, out: "\ta\n\t\tb\na\n\td\n"},
		{args: []string{"comm", "a"}, status: 1, errSub: "missing operand after 'a'"},
		{args: []string{"comm", "a", "nofile"}, status: 1, errSub: "comm: nofile: No such file or directory"},
	})
}
