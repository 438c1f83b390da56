package builtins

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
	"testing"

	"github.com/sandsh/sandsh/internal/suite"
	"github.com/sandsh/sandsh/vfs"
)

func TestSed(t *testing.T) {
	files := map[string]string{
		"a.txt":   "one\ntwo\nthree\n",
		"s.sed":   "s/o/0/g\n",
		"sub/b":   "x\ny\n",
		"ins.txt": "INS\n",
	}
	cases := []struct {
		name   string
		args   []string
		stdin  string
		env    []string
		out    string
		status int
		errSub string // expected in stderr; "" means stderr must be empty
	}{
		{"script operand", []string{"sed", "s/o/0/", "a.txt"}, "", nil, "0ne\ntw0\nthree\n", 0, ""},
		{"stdin", []string{"sed", "-n", "2p"}, "a\nb\nc\n", nil, "b\n", 0, ""},
		{"dash is stdin", []string{"sed", "-n", "$p", "a.txt", "-"}, "last\n", nil, "last\n", 0, ""},
		{"-e and -f in order", []string{"sed", "-e", "1d", "-f", "s.sed", "a.txt"}, "", nil, "tw0\nthree\n", 0, ""},
		{"-f - reads the script from stdin", []string{"sed", "-f", "-", "a.txt"}, "2d\n", nil, "one\nthree\n", 0, ""},
		{"long options", []string{"sed", "--quiet", "--expression=$p", "--regexp-extended", "a.txt"}, "", nil, "three\n", 0, ""},
		{"combined short options", []string{"sed", "-ne", "1p", "a.txt"}, "", nil, "one\n", 0, ""},
		{"options after operands", []string{"sed", "1p", "a.txt", "-n"}, "", nil, "one\n", 0, ""},
		{"-- ends options", []string{"sed", "-n", "--", "1p", "a.txt"}, "", nil, "one\n", 0, ""},
		{"-s", []string{"sed", "-s", "-n", "1p", "a.txt", "sub/b"}, "", nil, "one\nx\n", 0, ""},
		{"-z", []string{"sed", "-z", "s/^/>/"}, "a\x00b\x00", nil, ">a\x00>b\x00", 0, ""},
		{"-l", []string{"sed", "-l", "3", "-n", "l"}, "abcd\n", nil, "ab\\\ncd$\n", 0, ""},
		{"r from the sandbox", []string{"sed", "1r ins.txt", "a.txt"}, "", nil, "one\nINS\ntwo\nthree\n", 0, ""},
		{"w to the sandbox", []string{"sed", "-n", "2w out.txt", "a.txt"}, "", nil, "", 0, ""},
		{"POSIXLY_CORRECT N", []string{"sed", "N"}, "1\n2\n3\n", []string{"POSIXLY_CORRECT=1"}, "1\n2\n", 0, ""},
		{"UTF-8 locale", []string{"sed", "y/é/e/"}, "été\n", []string{"LC_ALL=en_US.UTF-8"}, "ete\n", 0, ""},
		{"C locale y counts bytes", []string{"sed", "y/é/e/"}, "été\n", nil, "", 1, "different lengths"},
		{"version", []string{"sed", "--version"}, "", nil, "sed (GNU sed) 4.9\n", 0, ""},
		{"help", []string{"sed", "--help"}, "", nil, sedUsage, 0, ""},
		{"no script", []string{"sed"}, "", nil, "", 1, "Usage: sed"},
		{"bad option", []string{"sed", "-k", "p"}, "", nil, "", 1, "invalid option -- 'k'"},
		{"missing -f file", []string{"sed", "-f", "none.sed"}, "", nil, "", 4, "couldn't open file none.sed: No such file or directory"},
		{"script error", []string{"sed", "s/x/"}, "", nil, "", 1, "sed: -e expression #1, char 4: unterminated `s' command"},
		{"missing input", []string{"sed", "p", "none"}, "", nil, "", 2, "sed: can't read none: No such file or directory"},
		{"directory input", []string{"sed", "p", "sub"}, "", nil, "", 4, "sed: read error on sub: Is a directory"},
		{"sandbox", []string{"sed", "--sandbox", "w x"}, "", nil, "", 1, "disabled in sandbox mode"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := testEnv(t, files)
			env.Environ = append(env.Environ, c.env...)
			got := run(t, env, c.stdin, c.args...)
			if got.Stdout != c.out || got.Status != c.status {
				t.Errorf("got %q status %d, want %q status %d (stderr %q)", got.Stdout, got.Status, c.out, c.status, got.Stderr)
			}
			if c.errSub == "" && got.Stderr != "" || !strings.Contains(got.Stderr, c.errSub) {
				t.Errorf("stderr %q, want %q", got.Stderr, c.errSub)
			}
		})
	}
}

func TestSedWriteFile(t *testing.T) {
	env := testEnv(t, map[string]string{"a.txt": "one\ntwo\nthree\n"})
	got := run(t, env, "", "sed", "-n", "-e", "/o/w out.txt", "-e", "s/t/T/w out2.txt", "a.txt")
	if got.Status != 0 || got.Stdout != "" {
		t.Fatalf("%+v", got)
	}
	if s := readFile(t, env, "out.txt"); s != "one\ntwo\n" {
		t.Errorf("out.txt = %q", s)
	}
	if s := readFile(t, env, "out2.txt"); s != "Two\nThree\n" {
		t.Errorf("out2.txt = %q", s)
	}
}

func TestSedInPlace(t *testing.T) {
	env := testEnv(t, map[string]string{"f": "a\nb\n", "g": "c\n", "d/h": "h\n"})
	if err := env.FS.Chmod(env.Abs("f"), 0o751); err != nil {
		t.Fatal(err)
	}
	got := run(t, env, "", "sed", "-i.bak", "s/^/>/", "f", "g", "d/h")
	if got.Status != 0 || got.Stdout != "" || got.Stderr != "" {
		t.Fatalf("%+v", got)
	}
	for name, want := range map[string]string{"f": ">a\n>b\n", "g": ">c\n", "d/h": ">h\n", "f.bak": "a\nb\n", "d/h.bak": "h\n"} {
		if s := readFile(t, env, name); s != want {
			t.Errorf("%s = %q, want %q", name, s, want)
		}
	}
	fi, err := env.FS.Stat(env.Abs("f"))
	if err != nil || fi.Mode().Perm() != 0o751 {
		t.Errorf("mode not kept: %v %v", fi.Mode(), err)
	}
	if n := sedCountTemp(t, env); n != 0 {
		t.Errorf("%d temporary files left", n)
	}

	// A failing run leaves the file alone and no temporary file behind.
	got = run(t, env, "", "sed", "-i", "p;R d", "g")
	if got.Status != 4 || readFile(t, env, "g") != ">c\n" || sedCountTemp(t, env) != 0 {
		t.Errorf("failed edit: %+v, g = %q", got, readFile(t, env, "g"))
	}
}

func TestSedInPlaceSymlink(t *testing.T) {
	env := testEnv(t, map[string]string{"target": "t\n"})
	if err := env.FS.SymlinkIfPossible("target", env.Abs("link")); err != nil {
		suite.Skip(t, "symlinks", "the host filesystem has none: %v", err)
	}
	// --follow-symlinks edits the file the link points to.
	got := run(t, env, "", "sed", "-i", "--follow-symlinks", "s/t/T/", "link")
	if got.Status != 0 || readFile(t, env, "target") != "T\n" {
		t.Fatalf("follow: %+v, target %q", got, readFile(t, env, "target"))
	}
	fi, err := vfs.Lstat(env.FS, env.Abs("link"))
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("link replaced: %v %v", fi, err)
	}
	// Without it, like GNU sed, the link is replaced by a regular file.
	got = run(t, env, "", "sed", "-i", "s/T/x/", "link")
	fi, err = vfs.Lstat(env.FS, env.Abs("link"))
	if got.Status != 0 || err != nil || !fi.Mode().IsRegular() || readFile(t, env, "link") != "x\n" || readFile(t, env, "target") != "T\n" {
		t.Errorf("no follow: %+v %v %v", got, fi, err)
	}
}

func TestSedExec(t *testing.T) {
	env := testEnv(t, nil)
	var calls []string
	gateway := env.Exec
	env.Exec = func(ctx context.Context, sub *Env, args []string) int {
		if args[0] != "sh" {
			return gateway(ctx, sub, args)
		}
		calls = append(calls, strings.Join(args, " "))
		fmt.Fprintf(sub.Stdout, "out of %s\n", args[2])
		return 0
	}
	got := run(t, env, "a\nb\n", "sed", "-e", "1e date", "-e", "2s/.*/echo &/e")
	want := "out of date\na\nout of echo b\n"
	if got.Stdout != want || got.Status != 0 {
		t.Errorf("got %q, want %q", got.Stdout, want)
	}
	if strings.Join(calls, "|") != "sh -c date|sh -c echo b" {
		t.Errorf("calls %q", calls)
	}
}

// sedErrWriter fails every write with err.
type sedErrWriter struct{ err error }

func (w sedErrWriter) Write([]byte) (int, error) { return 0, w.err }

func TestSedWriteErrors(t *testing.T) {
	for _, c := range []struct {
		err    error
		status int
	}{{syscall.EPIPE, StatusBrokenPipe}, {syscall.ENOSPC, 1}} {
		env := testEnv(t, nil)
		var errb bytes.Buffer
		sub := env.Sub()
		sub.Stdin = strings.NewReader(strings.Repeat("line\n", 50000))
		sub.Stdout, sub.Stderr = sedErrWriter{c.err}, &errb
		if st := sub.Run(context.Background(), []string{"sed", "p"}); st != c.status {
			t.Errorf("%v: status %d, want %d (%q)", c.err, st, c.status, errb.String())
		}
	}
}
