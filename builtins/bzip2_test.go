package builtins

import (
	"strings"
	"testing"
)

// bz2Hello is "hello\nworld\n" as bzip2 -9 writes it.
const bz2Hello = "BZh91AY&SYk_\xb1\xdd\x00\x00\x02A\x80\x00\x10\x06D\x90\x80 \x001\x0c\x08!\xa3i\x08\x07#\xae\x87\x8b\xb9\"\x9c(H5\xaf\xd8\xee\x80"

// xzHello is "hello\nworld\n" as xz writes it.
const xzHello = "\xfd7zXZ\x00\x00\x04\xe6\xd6\xb4F\x02\x00!\x01\x16\x00\x00\x00t/\xe5\xa3\x01\x00\x0bhello\nworld\n\x00\x87\xc6\xcew\xceF+\xae\x00\x01$\x0c\xa6\x18\xd8\xd8\x1f\xb6\xf3}\x01\x00\x00\x00\x00\x04YZ"

func TestBzip2Xz(t *testing.T) {
	files := map[string]string{"a.bz2": bz2Hello, "b.xz": xzHello, "j.bz2": "junk\n", "j.xz": "junk\n", "plain": "p\n", "a": "exists\n",
		"t.tbz2": bz2Hello, "cut.bz2": bz2Hello[:30]}
	cases := []struct {
		args        []string
		stdin, out  string
		errSub      string
		status      int
		gone, there []string // files removed / present after
	}{
		{args: []string{"bzcat", "a.bz2"}, out: "hello\nworld\n"},
		{args: []string{"bzip2", "-dc", "a.bz2", "a.bz2"}, out: "hello\nworld\nhello\nworld\n"},
		{args: []string{"bunzip2", "-c"}, stdin: bz2Hello, out: "hello\nworld\n"},
		{args: []string{"xzcat", "b.xz"}, out: "hello\nworld\n"},
		{args: []string{"unxz", "-c"}, stdin: xzHello, out: "hello\nworld\n"},
		{args: []string{"xz", "-d", "b.xz"}, gone: []string{"b.xz"}, there: []string{"b"}},
		{args: []string{"unxz", "-k", "b.xz"}, there: []string{"b", "b.xz"}},
		{args: []string{"bunzip2", "t.tbz2"}, gone: []string{"t.tbz2"}, there: []string{"t.tar"}},
		{args: []string{"bunzip2", "a.bz2"}, errSub: "bunzip2: Output file a already exists.", status: 1, there: []string{"a.bz2"}},
		{args: []string{"bunzip2", "-f", "a.bz2"}, gone: []string{"a.bz2"}, there: []string{"a"}},
		{args: []string{"bunzip2", "j.bz2"}, errSub: "bunzip2: j.bz2 is not a bzip2 file.", status: 2, there: []string{"j.bz2"}, gone: []string{"j"}},
		{args: []string{"bunzip2", "cut.bz2"}, errSub: "Data integrity error", status: 2, there: []string{"cut.bz2"}, gone: []string{"cut"}},
		{args: []string{"unxz", "j.xz"}, errSub: "unxz: j.xz: File format not recognized", status: 1},
		{args: []string{"bunzip2", "nope"}, errSub: "bunzip2: Can't open input file nope: No such file or directory.", status: 1},
		{args: []string{"xz", "-d", "nope"}, errSub: "xz: nope: No such file or directory", status: 1},
		{args: []string{"unxz", "plain"}, errSub: "unxz: plain: Filename has an unknown suffix, skipping", status: 1},
		{args: []string{"bzip2", "plain"}, errSub: "compression is not available", status: 1},
		{args: []string{"bzip2", "-t", "a.bz2"}},
		{args: []string{"xz", "-dc"}, errSub: "xz: (stdin): File format not recognized", status: 1},
		{args: []string{"xz", "--bogus"}, errSub: "unrecognized option '--bogus'", status: 1},
	}
	for _, c := range cases {
		env := testEnv(t, files)
		r := run(t, env, c.stdin, c.args...)
		if r.Stdout != c.out || r.Status != c.status || (c.errSub == "") != (r.Stderr == "") || !strings.Contains(r.Stderr, c.errSub) {
			t.Errorf("%q: got %+v, want %q status %d stderr ~%q", c.args, r, c.out, c.status, c.errSub)
		}
		for _, f := range c.gone {
			if _, err := env.FS.Stat(env.Abs(f)); err == nil {
				t.Errorf("%q: %s is still there", c.args, f)
			}
		}
		for _, f := range c.there {
			if _, err := env.FS.Stat(env.Abs(f)); err != nil {
				t.Errorf("%q: %s is missing", c.args, f)
			}
		}
	}
	// xz compresses, and what it writes reads back.
	env := testEnv(t, map[string]string{"f": strings.Repeat("data ", 1000)})
	if r := run(t, env, "", "xz", "f"); r.Status != 0 || r.Stderr != "" {
		t.Fatalf("xz f: %+v", r)
	}
	if r := run(t, env, "", "xzcat", "f.xz"); r.Stdout != strings.Repeat("data ", 1000) {
		t.Errorf("round trip: %d bytes", len(r.Stdout))
	}
}

// TestBzip2Bomb: a small input that expands past the output's bound stops
// with a write error, leaves no partial file, and does not hang.
func TestBzip2Bomb(t *testing.T) {
	env := testEnv(t, nil)
	big := strings.Repeat("\x00", 4<<20)
	c := run(t, env, big, "xz", "-c")
	sub := env.Sub()
	sub.Stdout = &closedPipe{n: 1 << 20}
	st := runOrHang(t, "xzcat into a 1 MiB pipe", func() int {
		sub.Stdin = strings.NewReader(c.Stdout)
		return sub.Run(t.Context(), []string{"xzcat"})
	})
	if st != StatusBrokenPipe {
		t.Errorf("status %d, want %d", st, StatusBrokenPipe)
	}
}

func TestDiffBzip2Xz(t *testing.T) {
	files := map[string]string{"a.bz2": bz2Hello, "b.xz": xzHello, "j.bz2": "junk\n", "j.xz": "junk\n"}
	runDiff(t, []diffCase{
		{Files: files, Args: []string{"bzcat", "a.bz2"}},
		{Files: files, Args: []string{"bzip2", "-dc", "a.bz2"}},
		{Files: files, Args: []string{"bunzip2", "-c"}, Stdin: bz2Hello},
		{Files: files, Args: []string{"bunzip2", "-k", "a.bz2"}},
		{Files: files, Args: []string{"bunzip2", "j.bz2"}},
		{Files: files, Args: []string{"bunzip2", "nofile"}},
		{Files: files, Args: []string{"xzcat", "b.xz"}},
		{Files: files, Args: []string{"xz", "-dc", "b.xz"}},
		{Files: files, Args: []string{"unxz", "-c"}, Stdin: xzHello},
		{Files: files, Args: []string{"unxz", "-k", "b.xz"}},
		{Files: files, Args: []string{"unxz", "j.xz"}},
		{Files: files, Args: []string{"xz", "-d", "nofile"}},
		{Files: files, Args: []string{"xz", "-t", "b.xz"}},
	})
}
