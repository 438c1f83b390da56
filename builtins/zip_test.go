package builtins

import (
	"strings"
	"testing"
)

func TestZip(t *testing.T) {
	env := testEnv(t, map[string]string{"d/a.txt": strings.Repeat("a", 100), "d/b.txt": "b\n", "top": "t\n"})
	r := run(t, env, "", "zip", "-r", "x.zip", "d")
	if r.Status != 0 || !strings.Contains(r.Stdout, "adding: d/a.txt (deflated") || !strings.Contains(r.Stdout, "adding: d/b.txt (stored 0%)") {
		t.Errorf("zip -r: %+v", r)
	}
	if r := run(t, env, "", "zip", "x.zip", "top"); !strings.Contains(r.Stdout, "adding: top") {
		t.Errorf("add to existing: %+v", r)
	}
	l := run(t, env, "", "unzip", "-l", "x.zip")
	for _, n := range []string{"d/a.txt", "d/b.txt", "top", "4 files"} {
		if !strings.Contains(l.Stdout, n) {
			t.Errorf("listing lacks %s: %q", n, l.Stdout)
		}
	}
	if r := run(t, env, "", "zip", "-d", "x.zip", "top"); r.Status != 0 {
		t.Errorf("zip -d: %+v", r)
	}
	if r := run(t, env, "", "zip", "y.zip", "nope"); r.Status != 12 {
		t.Errorf("nothing to do: %+v", r)
	}
}
