package builtins

import (
	"strings"
	"testing"
)

func TestPatch(t *testing.T) {
	p := "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n 1\n-2\n+two\n 3\n"
	tests := []struct {
		name  string
		files map[string]string
		args  []string
		want  string // content of f afterwards
		st    int
		out   string // substring of stdout
	}{
		{"apply", map[string]string{"f": "1\n2\n3\n"}, []string{"-p1"}, "1\ntwo\n3\n", 0, "patching file f"},
		{"offset", map[string]string{"f": "0\n1\n2\n3\n"}, []string{"-p1"}, "0\n1\ntwo\n3\n", 0, "offset 1 line"},
		{"reverse", map[string]string{"f": "1\ntwo\n3\n"}, []string{"-R", "-p1"}, "1\n2\n3\n", 0, "patching file f"},
		{"dry run", map[string]string{"f": "1\n2\n3\n"}, []string{"--dry-run", "-p1"}, "1\n2\n3\n", 0, "checking file f"},
		{"fails", map[string]string{"f": "a\nb\nc\n"}, []string{"-p1"}, "a\nb\nc\n", 1, "saving rejects to file f.rej"},
		{"already applied", map[string]string{"f": "1\ntwo\n3\n"}, []string{"-N", "-p1"}, "1\ntwo\n3\n", 1, "Skipping patch"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := testEnv(t, tc.files)
			r := run(t, env, p, append([]string{"patch"}, tc.args...)...)
			if r.Status != tc.st || !strings.Contains(r.Stdout, tc.out) {
				t.Errorf("got %+v", r)
			}
			if got := readFile(t, env, "f"); got != tc.want {
				t.Errorf("f = %q, want %q", got, tc.want)
			}
		})
	}
	env := testEnv(t, map[string]string{"f": "a\nb\nc\n"})
	run(t, env, p, "patch", "-p1")
	if rej := readFile(t, env, "f.rej"); !strings.Contains(rej, "@@ -1,3 +1,3 @@") {
		t.Errorf("reject file %q", rej)
	}
	// Creation and deletion.
	env = testEnv(t, map[string]string{"gone": "bye\n"})
	r := run(t, env, "--- /dev/null\n+++ b/new\n@@ -0,0 +1 @@\n+hi\n--- a/gone\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n", "patch", "-p1")
	if r.Status != 0 || readFile(t, env, "new") != "hi\n" {
		t.Errorf("create: %+v", r)
	}
	if _, err := env.FS.Stat(env.Abs("gone")); err == nil {
		t.Errorf("gone still exists")
	}
}
