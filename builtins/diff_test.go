package builtins

import (
	"strings"
	"testing"
	"time"

	"github.com/sandsh/sandsh/vfs"
)

func TestDiff(t *testing.T) {
	files := map[string]string{"a": "1\n2\n3\n", "b": "1\nX\n3\n", "c": "1\n2\n3\n", "d1/f": "x\n", "d2/f": "y\n", "d2/g": "z\n"}
	tests := []struct {
		args []string
		want string
		st   int
	}{
		{[]string{"a", "c"}, "", 0},
		{[]string{"a", "b"}, "2c2\n< 2\n---\n> X\n", 1},
		{[]string{"-q", "a", "b"}, "Files a and b differ\n", 1},
		{[]string{"-s", "a", "c"}, "Files a and c are identical\n", 0},
		{[]string{"--label", "L", "--label", "R", "-u", "a", "b"}, "--- L\n+++ R\n@@ -1,3 +1,3 @@\n 1\n-2\n+X\n 3\n", 1},
		{[]string{"-e", "a", "b"}, "2c\nX\n.\n", 1},
		{[]string{"d1", "d2"}, "diff d1/f d2/f\n1c1\n< x\n---\n> y\n" + "Only in d2: g\n", 1},
		{[]string{"a", "nope"}, "", 2},
	}
	for _, tc := range tests {
		env := testEnv(t, files)
		r := run(t, env, "", append([]string{"diff"}, tc.args...)...)
		if r.Stdout != tc.want || r.Status != tc.st {
			t.Errorf("diff %v: got %+v, want %q status %d", tc.args, r, tc.want, tc.st)
		}
	}
}

// TestDiffHeaderTime checks the unified header shows the file's mtime in
// GNU's format.
func TestDiffHeaderTime(t *testing.T) {
	env := testEnv(t, map[string]string{"a": "1\n", "b": "2\n"})
	mt := time.Date(2024, 1, 2, 3, 4, 5, 123456789, time.UTC)
	env.FS.Chtimes(vfs.Clean(env.Dir, "a"), mt, mt)
	r := run(t, env, "", "diff", "-u", "a", "b")
	first := strings.SplitN(r.Stdout, "\n", 2)[0]
	if first != "--- a\t2024-01-02 03:04:05.123456789 +0000" {
		t.Errorf("header %q", first)
	}
}

// TestDiffPatchRoundTrip applies our unified diffs with our patch.
func TestDiffPatchRoundTrip(t *testing.T) {
	pairs := [][2]string{
		{"a\nb\nc\n", "a\nc\nd\n"},
		{"", "new\n"},
		{"x\ny", "x\ny\n"},
		{strings.Repeat("k\n", 50), strings.Repeat("k\n", 20) + "mid\n" + strings.Repeat("k\n", 31)},
	}
	for i, p := range pairs {
		env := testEnv(t, map[string]string{"old": p[0], "new": p[1]})
		d := run(t, env, "", "diff", "-u", "old", "new")
		if d.Status != 1 {
			t.Fatalf("pair %d: diff status %d", i, d.Status)
		}
		if r := run(t, env, d.Stdout, "patch", "old"); r.Status != 0 {
			t.Fatalf("pair %d: patch %+v", i, r)
		}
		if got := readFile(t, env, "old"); got != p[1] {
			t.Errorf("pair %d: patched %q, want %q", i, got, p[1])
		}
	}
}
