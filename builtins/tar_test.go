package builtins

import (
	"archive/tar"
	"bytes"
	"strings"
	"testing"

	"github.com/sandsh/sandsh/vfs"
)

// dataEvilTar builds an archive with names an extractor must refuse or
// rewrite.
func dataEvilTar(t *testing.T) string {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, n := range []string{"../evil.txt", "ok/../../x", "/abs.txt", "a/./b.txt", "good.txt"} {
		tw.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Size: 4, Typeflag: tar.TypeReg})
		tw.Write([]byte("data"))
	}
	tw.WriteHeader(&tar.Header{Name: "ln", Linkname: "good.txt", Typeflag: tar.TypeSymlink, Mode: 0o777})
	tw.Close()
	return b.String()
}

func TestTar(t *testing.T) {
	env := testEnv(t, map[string]string{"src/a.txt": "a\n", "src/sub/b.txt": "bb\n", "out/": ""})
	if r := run(t, env, "", "tar", "czf", "x.tgz", "src"); r.Status != 0 {
		t.Fatalf("create: %+v", r)
	}
	if r := run(t, env, "", "tar", "tzf", "x.tgz"); r.Stdout != "src/\nsrc/a.txt\nsrc/sub/\nsrc/sub/b.txt\n" {
		t.Errorf("list: %+v", r)
	}
	if r := run(t, env, "", "tar", "-xvf", "x.tgz", "-C", "out", "--strip-components=1"); r.Status != 0 || !strings.Contains(r.Stdout, "src/a.txt") {
		t.Errorf("extract: %+v", r)
	}
	if got := readFile(t, env, "out/sub/b.txt"); got != "bb\n" {
		t.Errorf("extracted %q", got)
	}
	// Archive on stdout and back in from stdin.
	c := run(t, env, "", "tar", "cf", "-", "src/a.txt")
	if r := run(t, env, c.Stdout, "tar", "xOf", "-"); r.Stdout != "a\n" {
		t.Errorf("stdin archive: %+v", r)
	}

	// Unsafe names are refused, leading slashes stripped.
	env = testEnv(t, map[string]string{"x.tar": dataEvilTar(t), "d/": ""})
	r := run(t, env, "", "tar", "xf", "x.tar", "-C", "d")
	if r.Status != 2 || !strings.Contains(r.Stderr, "Member name contains '..'") {
		t.Errorf("evil: %+v", r)
	}
	for _, p := range []string{"/workspace/evil.txt", "/workspace/x", "/x", "/evil.txt", "/abs.txt"} {
		if _, err := env.FS.Stat(p); err == nil {
			t.Errorf("%s was written", p)
		}
	}
	for _, p := range []string{"d/abs.txt", "d/a/b.txt", "d/good.txt"} {
		if got := readFile(t, env, p); got != "data" {
			t.Errorf("%s = %q", p, got)
		}
	}
	if fi, err := vfs.Lstat(env.FS, env.Abs("d/ln")); err == nil && fi.Mode().Type() == 0 {
		t.Errorf("symlink member became a regular file")
	}
	if r := run(t, env, "", "tar", "tf", "nope.tar"); r.Status != 2 {
		t.Errorf("missing archive: %+v", r)
	}
}
