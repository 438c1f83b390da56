package builtins

import "testing"

func TestGunzip(t *testing.T) {
	env := testEnv(t, map[string]string{"f": "hello\n", "x.tgz": ""})
	run(t, env, "", "gzip", "f")
	if r := run(t, env, "", "gunzip", "f.gz"); r.Status != 0 || readFile(t, env, "f") != "hello\n" {
		t.Errorf("gunzip: %+v", r)
	}
	if _, err := env.FS.Stat(env.Abs("f.gz")); err == nil {
		t.Errorf("f.gz not removed")
	}
	if r := run(t, env, "", "gunzip", "f"); r.Status != 2 {
		t.Errorf("unknown suffix: %+v", r)
	}
	if r := run(t, env, "", "gunzip", "nope.gz"); r.Status != 1 {
		t.Errorf("missing: %+v", r)
	}
}
