package builtins

import "testing"

func TestMv(t *testing.T) {
	filesRunCases(t, []filesCase{
		{files: map[string]string{"a": "A"}, args: []string{"mv", "a", "b"}, check: func(t *testing.T, env *Env) {
			if filesExists(env, "a") || readFile(t, env, "b") != "A" {
				t.Error("not moved")
			}
		}},
		{files: map[string]string{"a": "A", "b": "B"}, args: []string{"mv", "-v", "a", "b"}, out: "renamed 'a' -> 'b'\n"},
		{files: map[string]string{"a": "A", "b": "B"}, args: []string{"mv", "-n", "a", "b"}, check: func(t *testing.T, env *Env) {
			if readFile(t, env, "b") != "B" || !filesExists(env, "a") {
				t.Error("-n replaced")
			}
		}},
		{files: map[string]string{"d/x": "1", "e/d/y": "2"}, args: []string{"mv", "d", "e"}, errSub: "Directory not empty", status: 1},
		{files: map[string]string{"d/x": "1", "e/d/": ""}, args: []string{"mv", "d", "e"}, check: func(t *testing.T, env *Env) {
			if readFile(t, env, "e/d/x") != "1" {
				t.Error("not moved over empty dir")
			}
		}},
		{files: map[string]string{"d/x": "1"}, args: []string{"mv", "d", "d/x/y"}, errSub: "cannot move 'd' to a subdirectory of itself", status: 1},
		{files: map[string]string{"a": "1"}, args: []string{"mv", "a", "a"}, errSub: "'a' and 'a' are the same file", status: 1},
		{files: map[string]string{"a": "1"}, args: []string{"mv", "a", "nodir/b"}, errSub: "cannot move 'a' to 'nodir/b': No such file or directory", status: 1},
		{files: map[string]string{"a": "1", "d/": ""}, args: []string{"mv", "-t", "d", "a"}, check: func(t *testing.T, env *Env) {
			if readFile(t, env, "d/a") != "1" {
				t.Error("-t")
			}
		}},
		{name: "moves the link, not the target", files: map[string]string{"a": "1"}, setup: func(t *testing.T, env *Env) {
			filesSymlink(t, env, "a", "la")
		}, args: []string{"mv", "la", "lb"}, check: func(t *testing.T, env *Env) {
			if tg, err := env.FS.ReadlinkIfPossible(env.Abs("lb")); err != nil || tg != "a" || !filesExists(env, "a") {
				t.Errorf("lb -> %q, %v", tg, err)
			}
		}},
		{files: map[string]string{"a": "1"}, args: []string{"mv", "." + "/", "x"}, errSub: "cannot move", status: 1},
	})
}
