package builtins

import "testing"

func TestUniqCommand(t *testing.T) {
	files := map[string]string{"d": "a\na\nb\nc\nc\nc\n"}
	textRunUnits(t, files, []textUnit{
		{args: []string{"uniq", "d"}, out: "a\nb\nc\n"},
		{args: []string{"uniq", "-c", "d"}, out: "      2 a\n      1 b\n      3 c\n"},
		{args: []string{"uniq", "-d", "d"}, out: "a\nc\n"},
		{args: []string{"uniq", "-u", "d"}, out: "b\n"},
		{args: []string{"uniq", "-D", "d"}, out: "a\na\nc\nc\nc\n"},
		{args: []string{"uniq", "--all-repeated=separate", "d"}, out: "a\na\n\nc\nc\nc\n"},
		{args: []string{"uniq", "--group", "d"}, out: "a\na\n\nb\n\nc\nc\nc\n"},
		{args: []string{"uniq", "-i"}, stdin: "A\na\nb\n", out: "A\nb\n"},
		{args: []string{"uniq", "-f1"}, stdin: "x a\ny a\nz b\n", out: "x a\nz b\n"},
		{args: []string{"uniq", "-s1"}, stdin: "xa\nya\nzb\n", out: "xa\nzb\n"},
		{args: []string{"uniq", "-w1"}, stdin: "ab\nac\nbc\n", out: "ab\nbc\n"},
		{args: []string{"uniq", "-z"}, stdin: "a\x00a\x00b", out: "a\x00b\x00"},
		{args: []string{"uniq"}, stdin: "a\na", out: "a\n"},
		{args: []string{"uniq", "-c", "-D"}, status: 1, errSub: "meaningless"},
		{args: []string{"uniq", "-f", "x"}, status: 1, errSub: "invalid number of fields to skip"},
		{args: []string{"uniq", "nofile"}, status: 1, errSub: "uniq: nofile: No such file or directory"},
		{args: []string{"uniq", "a", "b", "c"}, status: 1, errSub: "extra operand 'c'"},
	})
}

func TestUniqOutputFile(t *testing.T) {
	env := testEnv(t, map[string]string{"in": "x\nx\ny\n"})
	if got := run(t, env, "", "uniq", "in", "out"); got.Status != 0 || got.Stdout != "" {
		t.Fatalf("uniq in out: %+v", got)
	}
	if got := readFile(t, env, "out"); got != "x\ny\n" {
		t.Errorf("out = %q", got)
	}
}
