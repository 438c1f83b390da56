package builtins

import "testing"

func TestRealpath(t *testing.T) {
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
		{files: files, setup: links, args: []string{"realpath", "ld/lf", "ld/e/..", "abs"}, out: "/workspace/d/e/f\n/workspace/d\n/workspace/g\n"},
		{files: files, setup: links, args: []string{"realpath", "-s", "ld/e/.."}, out: "/workspace/ld\n"},
		{files: files, setup: links, args: []string{"realpath", "-L", "ld/e/.."}, out: "/workspace/d\n"},
		{files: files, setup: links, args: []string{"realpath", "--relative-to=d/e", "g", "ld/lf"}, out: "../../g\nf\n"},
		{files: files, setup: links, args: []string{"realpath", "--relative-base=d", "ld/e", "g"}, out: "e\n/workspace/g\n"},
		{files: files, setup: links, args: []string{"realpath", "-e", "dang"}, errSub: "realpath: dang: No such file or directory", status: 1},
		{files: files, setup: links, args: []string{"realpath", "-z", "g"}, out: "/workspace/g\x00"},
		{files: files, args: []string{"realpath", "nodir/x"}, errSub: "No such file or directory", status: 1},
		{files: files, args: []string{"realpath", "-m", "nodir/x/../y", "/"}, out: "/workspace/nodir/y\n/\n"},
		{files: files, args: []string{"realpath", "g/"}, errSub: "Not a directory", status: 1},
	})
}
