package builtins

import "testing"

func TestRmdir(t *testing.T) {
	filesRunCases(t, []filesCase{
		{files: map[string]string{"a/b/c/": ""}, args: []string{"rmdir", "-pv", "a/b/c"},
			out: "rmdir: removing directory, 'a/b/c'\nrmdir: removing directory, 'a/b'\nrmdir: removing directory, 'a'\n"},
		{files: map[string]string{"a/b/": "", "a/f": ""}, args: []string{"rmdir", "-p", "a/b"},
			errSub: "failed to remove directory 'a': Directory not empty", status: 1},
		{files: map[string]string{"a/f": ""}, args: []string{"rmdir", "a"}, errSub: "failed to remove 'a': Directory not empty", status: 1},
		{files: map[string]string{"a/f": ""}, args: []string{"rmdir", "--ignore-fail-on-non-empty", "a"}},
		{files: map[string]string{"f": ""}, args: []string{"rmdir", "f"}, errSub: "Not a directory", status: 1},
		{name: "symlink to dir", files: map[string]string{"d/": ""}, setup: func(t *testing.T, env *Env) {
			filesSymlink(t, env, "d", "ld")
		}, args: []string{"rmdir", "ld"}, errSub: "Not a directory", status: 1},
	})
}
