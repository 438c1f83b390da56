package builtins

import "testing"

func TestReadlink(t *testing.T) {
	files := map[string]string{"d/e/f": "", "g": ""}
	links := func(t *testing.T, env *Env) {
		filesSymlink(t, env, "d", "ld")
		filesSymlink(t, env, "e/f", "d/lf")
		filesSymlink(t, env, "/workspace/g", "abs")
		filesSymlink(t, env, "none", "dang")
		filesSymlink(t, env, "l2", "l1")
		filesSymlink(t, env, "l1", "l2")
	}
	filesRunCases(t, []filesCase{
		{files: files, setup: links, args: []string{"readlink", "ld", "d/lf", "abs"}, out: "d\ne/f\n/workspace/g\n"},
		{files: files, setup: links, args: []string{"readlink", "g"}, status: 1},
		{files: files, setup: links, args: []string{"readlink", "-v", "g"}, errSub: "readlink: g: Invalid argument", status: 1},
		{files: files, setup: links, args: []string{"readlink", "-f", "ld/lf"}, out: "/workspace/d/e/f\n"},
		{files: files, setup: links, args: []string{"readlink", "-f", "dang"}, out: "/workspace/none\n"},
		{files: files, setup: links, args: []string{"readlink", "-e", "dang"}, status: 1},
		{files: files, setup: links, args: []string{"readlink", "-m", "dang/x/../y"}, out: "/workspace/none/y\n"},
		{files: files, setup: links, args: []string{"readlink", "-f", "l1"}, status: 1},
		{files: files, setup: links, args: []string{"readlink", "-vf", "l1"}, errSub: "Too many levels of symbolic links", status: 1},
		{files: files, setup: links, args: []string{"readlink", "-n", "ld"}, out: "d"},
	})
}
