package builtins

import "testing"

func TestCutCommand(t *testing.T) {
	files := map[string]string{"p": "a:b:c\nd:e\nnodelim\n"}
	textRunUnits(t, files, []textUnit{
		{args: []string{"cut", "-d:", "-f2", "p"}, out: "b\ne\nnodelim\n"},
		{args: []string{"cut", "-d:", "-f2", "-s", "p"}, out: "b\ne\n"},
		{args: []string{"cut", "-d:", "-f1,3", "p"}, out: "a:c\nd\nnodelim\n"},
		{args: []string{"cut", "-d:", "-f2-", "p"}, out: "b:c\ne\nnodelim\n"},
		{args: []string{"cut", "-d:", "--complement", "-f1", "p"}, out: "b:c\ne\nnodelim\n"},
		{args: []string{"cut", "-d:", "-f1,3", "--output-delimiter=--", "p"}, out: "a--c\nd\nnodelim\n"},
		{args: []string{"cut", "-c1-2", "p"}, out: "a:\nd:\nno\n"},
		{args: []string{"cut", "-b", "-2,5-"}, stdin: "abcdefg\n", out: "abefg\n"},
		{args: []string{"cut", "-b1,3", "--output-delimiter=|"}, stdin: "abc\n", out: "a|c\n"},
		{args: []string{"cut", "-f2"}, stdin: "x\ty\tz", out: "y\n"},
		{args: []string{"cut", "-z", "-d,", "-f1"}, stdin: "a,b\x00c,d\x00", out: "a\x00c\x00"},
		{args: []string{"cut", "p"}, status: 1, errSub: "you must specify a list"},
		{args: []string{"cut", "-f0", "p"}, status: 1, errSub: "numbered from 1"},
		{args: []string{"cut", "-c3-1", "p"}, status: 1, errSub: "invalid decreasing range"},
		{args: []string{"cut", "-d", "ab", "-f1", "p"}, status: 1, errSub: "the delimiter must be a single character"},
		{args: []string{"cut", "-c1", "-s", "p"}, status: 1, errSub: "suppressing non-delimited lines"},
		{args: []string{"cut", "-f1", "nofile", "p"}, out: "a:b:c\nd:e\nnodelim\n", status: 1, errSub: "cut: nofile: No such file"},
	})
}
