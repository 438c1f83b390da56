package builtins

import "testing"

func TestSortCommand(t *testing.T) {
	files := map[string]string{
		"a":    "c\na\nb\n",
		"b":    "b 2\na 10\nc 1\n",
		"s1":   "a\nc\n",
		"s2":   "b\nd\n",
		"dir/": "",
	}
	textRunUnits(t, files, []textUnit{
		{args: []string{"sort", "a"}, out: "a\nb\nc\n"},
		{args: []string{"sort", "-r", "a"}, out: "c\nb\na\n"},
		{args: []string{"sort", "-k2n", "b"}, out: "c 1\nb 2\na 10\n"},
		{args: []string{"sort", "-k2,2nr", "b"}, out: "a 10\nb 2\nc 1\n"},
		{args: []string{"sort", "-n"}, stdin: "10\n9\n-1\n", out: "-1\n9\n10\n"},
		{args: []string{"sort", "-h"}, stdin: "1G\n10K\n2M\n", out: "10K\n2M\n1G\n"},
		{args: []string{"sort", "-M"}, stdin: "Mar\nfeb\nJAN\nxyz\n", out: "xyz\nJAN\nfeb\nMar\n"},
		{args: []string{"sort", "-V"}, stdin: "v1.10\nv1.9\nv1.2\n", out: "v1.2\nv1.9\nv1.10\n"},
		{args: []string{"sort", "-u"}, stdin: "b\na\nb\n", out: "a\nb\n"},
		{args: []string{"sort", "-f"}, stdin: "b\nA\na\nB\n", out: "A\na\nB\nb\n"},
		{args: []string{"sort", "-t:", "-k2"}, stdin: "x:b\ny:a\n", out: "y:a\nx:b\n"},
		{args: []string{"sort", "-s", "-k1,1"}, stdin: "a 2\nb 1\na 1\n", out: "a 2\na 1\nb 1\n"},
		{args: []string{"sort", "-k1,1"}, stdin: "a 2\nb 1\na 1\n", out: "a 1\na 2\nb 1\n"},
		{args: []string{"sort", "-m", "s1", "s2"}, out: "a\nb\nc\nd\n"},
		{args: []string{"sort", "-z"}, stdin: "b\x00a\x00", out: "a\x00b\x00"},
		{args: []string{"sort"}, stdin: "b\na", out: "a\nb\n"},
		{args: []string{"sort", "-c", "a"}, status: 1, errSub: "sort: a:2: disorder: a"},
		{args: []string{"sort", "-C", "a"}, status: 1},
		{args: []string{"sort", "-c", "s1"}},
		{args: []string{"sort", "missing"}, status: 2, errSub: "cannot read: missing: No such file or directory"},
		{args: []string{"sort", "dir"}, status: 2, errSub: "read failed: dir: Is a directory"},
		{args: []string{"sort", "-k0"}, status: 2, errSub: "field number is zero"},
		{args: []string{"sort", "-n", "-g"}, status: 2, errSub: "options '-gn' are incompatible"},
		{args: []string{"sort", "-t", "xy"}, status: 2, errSub: "multi-character tab"},
		{args: []string{"sort", "--nope"}, status: 2, errSub: "unrecognized option"},
	})
}

func TestSortOutputFile(t *testing.T) {
	env := testEnv(t, map[string]string{"f": "b\na\n"})
	if got := run(t, env, "", "sort", "-o", "f", "f"); got.Status != 0 || got.Stdout != "" {
		t.Fatalf("sort -o f f: %+v", got)
	}
	if got := readFile(t, env, "f"); got != "a\nb\n" {
		t.Errorf("sorted in place: %q", got)
	}
	if got := run(t, env, "", "sort", "-m", "-o", "f", "f"); got.Status != 0 || readFile(t, env, "f") != "a\nb\n" {
		t.Errorf("sort -m -o f f: %+v, %q", got, readFile(t, env, "f"))
	}
}
