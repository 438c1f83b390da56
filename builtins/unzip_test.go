package builtins

import (
	"strings"
	"testing"
)

func TestUnzip(t *testing.T) {
	env := testEnv(t, map[string]string{"d/a.txt": strings.Repeat("a", 100), "d/sub/b.txt": "b\n", "out/": ""})
	run(t, env, "", "zip", "-qr", "x.zip", "d")
	r := run(t, env, "", "unzip", "x.zip", "-d", "out")
	if r.Status != 0 || !strings.Contains(r.Stdout, "inflating: out/d/a.txt") {
		t.Errorf("unzip: %+v", r)
	}
	if got := readFile(t, env, "out/d/sub/b.txt"); got != "b\n" {
		t.Errorf("extracted %q", got)
	}
	if r := run(t, env, "", "unzip", "-p", "x.zip", "d/sub/b.txt"); r.Stdout != "b\n" {
		t.Errorf("-p: %+v", r)
	}
	if r := run(t, env, "", "unzip", "-d", "out", "x.zip"); r.Status != 1 || !strings.Contains(r.Stderr, "replace") {
		t.Errorf("existing without -o: %+v", r)
	}
	if r := run(t, env, "", "unzip", "-o", "-q", "-d", "out", "x.zip"); r.Status != 0 || r.Stdout != "" {
		t.Errorf("-o -q: %+v", r)
	}
	if r := run(t, env, "", "unzip", "nope.zip"); r.Status != 9 {
		t.Errorf("missing: %+v", r)
	}
}
