package builtins

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/sandsh/sandsh/internal/suite"
)

// grepEndless is an input that never ends, like `yes`.
type grepEndless struct{ line []byte }

func (e grepEndless) Read(p []byte) (int, error) {
	n := 0
	for n+len(e.line) <= len(p) {
		n += copy(p[n:], e.line)
	}
	return n, nil
}

// grepFailWriter fails every write, like a full disk or a closed pipe.
type grepFailWriter struct{ err error }

func (w grepFailWriter) Write([]byte) (int, error) { return 0, w.err }

func TestGrep(t *testing.T) {
	files := map[string]string{
		"a.txt":         "alpha\nbeta\ngamma\n",
		"b.txt":         "beta blocker\n",
		"tree/x.go":     "package x // beta\n",
		"tree/y.txt":    "nothing\n",
		"tree/sub/z.md": "beta z\n",
		"tree/.hidden":  "beta hidden\n",
		"crlf":          "one\r\ntwo\r\n",
	}
	cases := []struct {
		name   string
		stdin  string
		args   []string
		out    string
		status int
		errSub string // part of stderr, "" for none
	}{
		{"plain", "", []string{"grep", "beta", "a.txt"}, "beta\n", 0, ""},
		{"files", "", []string{"grep", "beta", "a.txt", "b.txt"}, "a.txt:beta\nb.txt:beta blocker\n", 0, ""},
		{"no match", "", []string{"grep", "zeta", "a.txt"}, "", 1, ""},
		{"missing", "", []string{"grep", "beta", "nope"}, "", 2, "grep: nope: No such file or directory"},
		{"recursive sorted", "", []string{"grep", "-r", "beta", "tree"},
			"tree/.hidden:beta hidden\ntree/sub/z.md:beta z\ntree/x.go:package x // beta\n", 0, ""},
		{"recursive implicit", "", []string{"grep", "-rl", "blocker"}, "b.txt\n", 0, ""},
		{"include", "", []string{"grep", "-r", "--include=*.md", "beta", "tree"}, "tree/sub/z.md:beta z\n", 0, ""},
		{"exclude-dir", "", []string{"grep", "-rc", "--exclude-dir=sub", "beta", "tree"},
			"tree/.hidden:1\ntree/x.go:1\ntree/y.txt:0\n", 0, ""},
		{"dir without -r", "", []string{"grep", "beta", "tree"}, "", 2, "grep: tree: Is a directory"},
		{"egrep", "", []string{"egrep", "al|ga", "a.txt"}, "alpha\ngamma\n", 0, ""},
		{"fgrep", "", []string{"fgrep", "a.", "a.txt"}, "", 1, ""},
		{"egrep conflict", "", []string{"egrep", "-F", "a", "a.txt"}, "", 2, "conflicting matchers"},
		{"warning", "", []string{"grep", "-E", "*alpha", "a.txt"}, "alpha\n", 0, "grep: warning: * at start of expression"},
		{"bad regex", "", []string{"grep", "a\\{1", "a.txt"}, "", 2, "grep: Unmatched \\{"},
		{"usage", "", []string{"grep"}, "", 2, "Usage: grep"},
		{"crlf kept", "", []string{"grep", "-c", "one\r$", "crlf"}, "1\n", 0, ""},
		{"stdin label", "x\n", []string{"grep", "-H", "--label=IN", "x"}, "IN:x\n", 0, ""},
		{"help", "", []string{"grep", "--help"}, grepUsage, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := testEnv(t, files)
			got := run(t, env, c.stdin, c.args...)
			if got.Stdout != c.out || got.Status != c.status {
				t.Errorf("got %q status %d, want %q status %d (stderr %q)", got.Stdout, got.Status, c.out, c.status, got.Stderr)
			}
			if c.errSub == "" && got.Stderr != "" || !strings.Contains(got.Stderr, c.errSub) {
				t.Errorf("stderr %q, want it to contain %q", got.Stderr, c.errSub)
			}
		})
	}
}

func TestGrepSymlinks(t *testing.T) {
	env := testEnv(t, map[string]string{"d/f": "hit\n", "other/g": "hit too\n"})
	if err := env.FS.SymlinkIfPossible("/workspace/other", "/workspace/d/link"); err != nil {
		suite.Skip(t, "symlinks", "the host filesystem has none: %v", err)
	}
	if err := env.FS.SymlinkIfPossible("/workspace/other/g", "/workspace/filelink"); err != nil {
		t.Fatal(err)
	}
	if got := run(t, env, "", "grep", "-r", "hit", "d"); got.Stdout != "d/f:hit\n" {
		t.Errorf("-r followed a symlink: %q", got.Stdout)
	}
	if got := run(t, env, "", "grep", "-R", "hit", "d"); got.Stdout != "d/f:hit\nd/link/g:hit too\n" {
		t.Errorf("-R: %q", got.Stdout)
	}
	if got := run(t, env, "", "grep", "-r", "hit", "filelink"); got.Stdout != "hit too\n" {
		t.Errorf("command-line symlink: %q", got.Stdout)
	}
}

// TestGrepStopsEarly: -q, -l and -m must not read endless input to its end.
func TestGrepStopsEarly(t *testing.T) {
	for _, args := range [][]string{
		{"grep", "-q", "y"},
		{"grep", "-m", "3", "y"},
		{"grep", "-l", "y"},
		{"grep", "-c", "-m", "5", "y"},
	} {
		env := testEnv(t, nil)
		var out bytes.Buffer
		sub := env.Sub()
		sub.Stdin, sub.Stdout, sub.Stderr = grepEndless{[]byte("y\n")}, &out, io.Discard
		done := make(chan int)
		go func() { done <- sub.Run(context.Background(), args) }()
		select {
		case st := <-done:
			if st != 0 {
				t.Errorf("%v: status %d", args, st)
			}
		case <-time.After(hangTimeout):
			t.Fatalf("%v did not stop", args)
		}
	}
}

func TestGrepCancel(t *testing.T) {
	env := testEnv(t, nil)
	sub := env.Sub()
	sub.Stdin, sub.Stdout, sub.Stderr = grepEndless{[]byte("n\n")}, io.Discard, io.Discard
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	done := make(chan int)
	go func() { done <- sub.Run(ctx, []string{"grep", "y"}) }()
	select {
	case st := <-done:
		if st == 0 || st == 1 {
			t.Errorf("cancelled grep returned %d", st)
		}
	case <-time.After(hangTimeout):
		t.Fatal("grep ignored cancellation")
	}
}

func TestGrepWriteErrors(t *testing.T) {
	env := testEnv(t, map[string]string{"f": strings.Repeat("match\n", 50000)})
	for _, c := range []struct {
		err    error
		status int
		stderr string
	}{
		{io.ErrClosedPipe, StatusBrokenPipe, ""},
		{errors.New("quota"), 1, "grep: write error"},
	} {
		var errb bytes.Buffer
		sub := env.Sub()
		sub.Stdout, sub.Stderr = grepFailWriter{c.err}, &errb
		st := sub.Run(context.Background(), []string{"grep", "match", "f"})
		if st != c.status || !strings.Contains(errb.String(), c.stderr) || c.stderr == "" && errb.Len() > 0 {
			t.Errorf("%v: status %d stderr %q", c.err, st, errb.String())
		}
	}
}
