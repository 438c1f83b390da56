package builtins

import "testing"

func TestChmod(t *testing.T) {
	modeIs := func(name, want string) func(*testing.T, *Env) {
		return func(t *testing.T, env *Env) {
			t.Helper()
			if m := filesMode(t, env, name); m != want {
				t.Errorf("%s is %s, want %s", name, m, want)
			}
		}
	}
	filesRunCases(t, []filesCase{
		{files: map[string]string{"a": ""}, args: []string{"chmod", "755", "a"}, check: modeIs("a", "-rwxr-xr-x")},
		{files: map[string]string{"a": ""}, args: []string{"chmod", "u+x,g+w,o-r", "a"}, check: modeIs("a", "-rwxrw----")},
		{files: map[string]string{"a": ""}, args: []string{"chmod", "-w", "a"}, check: modeIs("a", "-r--r--r--")},
		{files: map[string]string{"a": ""}, args: []string{"chmod", "+x", "a"}, check: modeIs("a", "-rwxr-xr-x")},
		{files: map[string]string{"a": ""}, args: []string{"chmod", "a=rwx,+t,u+s", "a"}, check: modeIs("a", "-rwsrwxrwt")},
		{files: map[string]string{"a": ""}, setup: func(t *testing.T, env *Env) { env.FS.Chmod(env.Abs("a"), 0o666) },
			args: []string{"chmod", "-w", "a"}, errSub: "a: new permissions are r--rw-rw-, not r--r--r--", status: 1},
		{files: map[string]string{"a": ""}, args: []string{"chmod", "-v", "600", "a"},
			out: "mode of 'a' changed from 0644 (rw-r--r--) to 0600 (rw-------)\n"},
		{files: map[string]string{"a": ""}, args: []string{"chmod", "-v", "644", "a"}, out: "mode of 'a' retained as 0644 (rw-r--r--)\n"},
		{files: map[string]string{"a": ""}, args: []string{"chmod", "-c", "644", "a"}},
		{files: map[string]string{"d/e/f": ""}, args: []string{"chmod", "-R", "go=", "d"}, check: func(t *testing.T, env *Env) {
			modeIs("d/e/f", "-rw-------")(t, env)
			modeIs("d/e", "drwx------")(t, env)
		}},
		{files: map[string]string{"d/f": ""}, args: []string{"chmod", "-R", "a+X", "d"}, check: modeIs("d/f", "-rw-r--r--")},
		{files: map[string]string{"a": "", "r": ""}, setup: func(t *testing.T, env *Env) { env.FS.Chmod(env.Abs("r"), 0o700) },
			args: []string{"chmod", "--reference=r", "a"}, check: modeIs("a", "-rwx------")},
		{files: map[string]string{"a": ""}, args: []string{"chmod", "x+y", "a"}, errSub: "invalid mode: 'x+y'", status: 1},
		{args: []string{"chmod", "644"}, errSub: "missing operand after '644'", status: 1},
		{args: []string{"chmod", "644", "nope"}, errSub: "cannot access 'nope': No such file or directory", status: 1},
		{args: []string{"chmod", "-f", "644", "nope"}, status: 1},
		{name: "link target changes", files: map[string]string{"a": ""}, setup: func(t *testing.T, env *Env) {
			filesSymlink(t, env, "a", "la")
		}, args: []string{"chmod", "700", "la"}, check: modeIs("a", "-rwx------")},
		{name: "-R skips links inside", files: map[string]string{"a": "", "d/": ""}, setup: func(t *testing.T, env *Env) {
			filesSymlink(t, env, "../a", "d/la")
		}, args: []string{"chmod", "-R", "700", "d"}, check: modeIs("a", "-rw-r--r--")},
		{name: "dangling link", setup: func(t *testing.T, env *Env) { filesSymlink(t, env, "none", "dl") },
			args: []string{"chmod", "700", "dl"}, errSub: "cannot operate on dangling symlink 'dl'", status: 1},
	})
}
