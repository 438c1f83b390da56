package builtins

import (
	"strings"
	"testing"
)

func TestDd(t *testing.T) {
	files := map[string]string{"in": "hello world\n", "o2": "abcdef"}
	cases := []struct {
		args       []string
		stdin, out string
		errSub     string
		status     int
		file, want string // a file's content after
	}{
		{args: []string{"dd", "if=in", "of=out", "bs=4", "count=2", "skip=1"}, errSub: "2+0 records in\n2+0 records out\n8 bytes copied", file: "out", want: "o world\n"},
		{args: []string{"dd", "if=in", "status=none"}, out: "hello world\n"},
		{args: []string{"dd", "status=noxfer"}, stdin: "abc", out: "abc", errSub: "0+1 records in\n0+1 records out\n"},
		{args: []string{"dd", "conv=ucase", "status=none"}, stdin: "abc", out: "ABC"},
		{args: []string{"dd", "of=o2", "seek=1", "bs=2", "conv=notrunc", "status=none"}, stdin: "XY", file: "o2", want: "abXYef"},
		{args: []string{"dd", "of=o2", "seek=1", "bs=2", "status=none"}, stdin: "XY", file: "o2", want: "abXY"},
		{args: []string{"dd", "ibs=2", "obs=3", "status=noxfer"}, stdin: "abcdefg", out: "abcdefg", errSub: "3+1 records in\n2+1 records out\n"},
		{args: []string{"dd", "bs=1x2", "count=1", "status=none"}, stdin: "abcdef", out: "ab"},
		{args: []string{"dd", "bs=2", "skip=1", "count=1", "status=none"}, stdin: "abcdef", out: "cd"},
		{args: []string{"dd", "bs=4", "conv=sync", "status=none"}, stdin: "ab", out: "ab\x00\x00"},
		{args: []string{"dd", "bs=1K", "count=1", "status=none"}, stdin: strings.Repeat("z", 3000), out: strings.Repeat("z", 1024)},
		{args: []string{"dd", "if=in", "bs=x"}, errSub: "dd: invalid number: 'x'", status: 1},
		{args: []string{"dd", "if=in", "bs=0"}, errSub: "dd: invalid number: '0'", status: 1},
		{args: []string{"dd", "count=-1"}, errSub: "dd: invalid number: '-1'", status: 1},
		{args: []string{"dd", "count=99999999999999999999"}, errSub: "invalid number", status: 1},
		{args: []string{"dd", "bs=1G"}, errSub: "over --max-capture", status: 1},
		{args: []string{"dd", "conv=bogus"}, errSub: "dd: invalid conversion: 'bogus'", status: 1},
		{args: []string{"dd", "bogus=1"}, errSub: "dd: unrecognized operand 'bogus=1'", status: 1},
		{args: []string{"dd", "if=nofile"}, errSub: "dd: failed to open 'nofile': No such file or directory", status: 1},
		{args: []string{"dd", "seek=1"}, stdin: "x", errSub: "cannot seek", status: 1},
		{args: []string{"dd", "of=o2", "conv=excl"}, errSub: "failed to open 'o2': File exists", status: 1},
	}
	for _, c := range cases {
		env := testEnv(t, files)
		r := run(t, env, c.stdin, c.args...)
		if r.Stdout != c.out || r.Status != c.status || (c.errSub == "") != (r.Stderr == "") || !strings.Contains(r.Stderr, c.errSub) {
			t.Errorf("%q: got %+v, want %q status %d stderr ~%q", c.args, r, c.out, c.status, c.errSub)
		}
		if c.file != "" {
			if got := readFile(t, env, c.file); got != c.want {
				t.Errorf("%q: %s holds %q, want %q", c.args, c.file, got, c.want)
			}
		}
	}
	// A closed reader stops an endless copy.
	env := testEnv(t, nil)
	sub := env.Sub()
	sub.Stdout = &closedPipe{n: 1 << 16}
	sub.Stdin = strings.NewReader(strings.Repeat("y", 1<<20))
	if st := runOrHang(t, "dd into a closed pipe", func() int { return sub.Run(t.Context(), []string{"dd", "status=none"}) }); st != StatusBrokenPipe {
		t.Errorf("status %d", st)
	}
}

// TestDiffDd compares stdout, status and whether stderr is empty (its
// last line holds a time and a rate).
func TestDiffDd(t *testing.T) {
	files := map[string]string{"in": "hello world\n"}
	runDiff(t, []diffCase{
		{Files: files, Args: []string{"dd", "if=in", "bs=4", "count=2", "skip=1"}},
		{Files: files, Args: []string{"dd", "if=in", "status=none", "conv=ucase"}},
		{Files: files, Args: []string{"dd", "if=in", "ibs=2", "obs=3", "status=noxfer"}},
		{Files: files, Args: []string{"dd", "if=in", "bs=2x2", "count=1", "status=none"}},
		{Files: files, Args: []string{"dd", "if=in", "bs=5", "conv=sync", "status=none"}},
		{Files: files, Args: []string{"dd", "if=in", "bs=x"}},
		{Files: files, Args: []string{"dd", "if=in", "bs=0"}},
		{Files: files, Args: []string{"dd", "if=in", "conv=bogus"}},
		{Files: files, Args: []string{"dd", "bogus=1"}},
		{Files: files, Args: []string{"dd", "if=nofile"}},
		{Files: files, Args: []string{"dd", "status=none"}, Stdin: "from stdin\n"},
	})
}
