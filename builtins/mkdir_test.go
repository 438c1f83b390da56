package builtins

import "testing"

func TestMkdir(t *testing.T) {
	filesRunCases(t, []filesCase{
		{args: []string{"mkdir", "a"}, check: func(t *testing.T, env *Env) {
			if m := filesMode(t, env, "a"); m != "drwxr-xr-x" {
				t.Errorf("mode %s", m)
			}
		}},
		{args: []string{"mkdir", "-pv", "a/b"}, out: "mkdir: created directory 'a'\nmkdir: created directory 'a/b'\n"},
		{args: []string{"mkdir", "a/b"}, errSub: "cannot create directory 'a/b': No such file or directory", status: 1},
		{files: map[string]string{"a/": ""}, args: []string{"mkdir", "a"}, errSub: "cannot create directory 'a': File exists", status: 1},
		{files: map[string]string{"f": ""}, args: []string{"mkdir", "-p", "f/x"}, errSub: "cannot create directory 'f': Not a directory", status: 1},
		{args: []string{"mkdir", "-m", "1777", "t"}, check: func(t *testing.T, env *Env) {
			if m := filesMode(t, env, "t"); m != "drwxrwxrwt" {
				t.Errorf("mode %s", m)
			}
		}},
		{args: []string{"mkdir", "-m", "g-w,o=", "t"}, check: func(t *testing.T, env *Env) {
			if m := filesMode(t, env, "t"); m != "drwxr-x---" {
				t.Errorf("mode %s", m)
			}
		}},
		{args: []string{"mkdir", "-m", "x", "t"}, errSub: "invalid mode 'x'", status: 1},
		{args: []string{"mkdir"}, errSub: "missing operand", status: 1},
	})
}
