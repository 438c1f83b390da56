package builtins

import "testing"

func TestPasteCommand(t *testing.T) {
	files := map[string]string{"a": "1\n2\n3\n", "b": "x\ny\n", "n": "p\nq"}
	textRunUnits(t, files, []textUnit{
		{args: []string{"paste", "a", "b"}, out: "1\tx\n2\ty\n3\t\n"},
		{args: []string{"paste", "-d,", "a", "b"}, out: "1,x\n2,y\n3,\n"},
		{args: []string{"paste", "-d", ",;", "a", "b", "a"}, out: "1,x;1\n2,y;2\n3,;3\n"},
		{args: []string{"paste", "-s", "a", "b"}, out: "1\t2\t3\nx\ty\n"},
		{args: []string{"paste", "-s", "-d", "\\n", "a"}, out: "1\n2\n3\n"},
		{args: []string{"paste", "-d", "\\0", "a", "b"}, out: "1x\n2y\n3\n"},
		{args: []string{"paste", "n", "b"}, out: "p\tx\nq\ty\n"},
		{args: []string{"paste", "-", "-"}, stdin: "1\n2\n3\n", out: "1\t2\n3\t\n"},
		{args: []string{"paste", "-z", "-", "-"}, stdin: "a\x00b\x00", out: "a\tb\x00"},
		{args: []string{"paste", "-d", "x\\"}, status: 1, errSub: "unescaped backslash"},
		{args: []string{"paste", "a", "nofile"}, status: 1, errSub: "paste: nofile: No such file or directory"},
	})
}
