package builtins

import "testing"

func TestZcat(t *testing.T) {
	env := testEnv(t, map[string]string{"f": "one\n", "g": "two\n"})
	run(t, env, "", "gzip", "f", "g")
	if r := run(t, env, "", "zcat", "f.gz", "g.gz"); r.Stdout != "one\ntwo\n" || r.Status != 0 {
		t.Errorf("zcat: %+v", r)
	}
	if _, err := env.FS.Stat(env.Abs("f.gz")); err != nil {
		t.Errorf("zcat removed its input")
	}
	c := run(t, env, "three\n", "gzip")
	if r := run(t, env, c.Stdout+c.Stdout, "zcat"); r.Stdout != "three\nthree\n" {
		t.Errorf("multi-member: %+v", r)
	}
}
