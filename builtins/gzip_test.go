package builtins

import (
	"strings"
	"testing"
)

func TestGzip(t *testing.T) {
	text := strings.Repeat("compress me\n", 100)
	env := testEnv(t, map[string]string{"a": text, "b": "keep\n"})
	if r := run(t, env, "", "gzip", "a"); r.Status != 0 {
		t.Fatalf("gzip: %+v", r)
	}
	if _, err := env.FS.Stat(env.Abs("a")); err == nil {
		t.Errorf("input not removed")
	}
	if r := run(t, env, "", "gzip", "-k", "b"); r.Status != 0 || readFile(t, env, "b") != "keep\n" {
		t.Errorf("-k: %+v", r)
	}
	if r := run(t, env, "", "gzip", "-k", "b"); r.Status != 2 || !strings.Contains(r.Stderr, "already exists") {
		t.Errorf("overwrite refused: %+v", r)
	}
	if r := run(t, env, "", "gzip", "-dc", "a.gz"); r.Stdout != text {
		t.Errorf("-dc: %d bytes", len(r.Stdout))
	}
	// stdin to stdout, any level, and back.
	for _, lvl := range []string{"-1", "-9"} {
		c := run(t, env, text, "gzip", lvl)
		if r := run(t, env, c.Stdout, "gzip", "-d"); r.Stdout != text {
			t.Errorf("%s round trip failed", lvl)
		}
	}
	if r := run(t, env, "plain", "gzip", "-d"); r.Status != 1 || !strings.Contains(r.Stderr, "not in gzip format") {
		t.Errorf("not gzip: %+v", r)
	}
}
