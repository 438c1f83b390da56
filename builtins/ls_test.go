package builtins

import (
	"testing"
	"time"
)

func TestLs(t *testing.T) {
	recent := time.Date(2023, 12, 1, 10, 0, 0, 0, time.UTC)
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	future := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	stamp := func(t *testing.T, env *Env) {
		filesSetTime(t, env, "a", recent)
		filesSetTime(t, env, "d/x", recent)
		filesSetTime(t, env, "d", old)
		filesSetTime(t, env, "big", future)
	}
	files := map[string]string{"a": "hello", "d/x": "", "big": string(make([]byte, 5000))}
	links := func(t *testing.T, env *Env) {
		stamp(t, env)
		filesSymlink(t, env, "a", "la")
		filesSymlink(t, env, "d", "ld")
		filesSetTime(t, env, "la", recent)
	}
	filesRunCases(t, []filesCase{
		{files: files, setup: stamp, args: []string{"ls", "-l"}, out: "total 16\n" +
			"-rw-r--r-- 1 sandbox sandbox    5 Dec  1 10:00 a\n" +
			"-rw-r--r-- 1 sandbox sandbox 5000 Jan  1  2025 big\n" +
			"drwxr-xr-x 2 sandbox sandbox 4096 Jan  1  2020 d\n"},
		{files: files, setup: stamp, args: []string{"ls", "-ln", "a"}, out: "-rw-r--r-- 1 1000 1000 5 Dec  1 10:00 a\n"},
		{files: files, setup: stamp, args: []string{"ls", "-lh", "big", "d"}, out: "-rw-r--r-- 1 sandbox sandbox 4.9K Jan  1  2025 big\n\nd:\ntotal 0\n-rw-r--r-- 1 sandbox sandbox 0 Dec  1 10:00 x\n"},
		{files: files, setup: stamp, args: []string{"ls", "-go", "a"}, out: "-rw-r--r-- 1 5 Dec  1 10:00 a\n"},
		{files: files, setup: stamp, args: []string{"ls", "-lG", "a"}, out: "-rw-r--r-- 1 sandbox 5 Dec  1 10:00 a\n"},
		{files: files, setup: stamp, args: []string{"ls", "-l", "--full-time", "a"}, out: "-rw-r--r-- 1 sandbox sandbox 5 2023-12-01 10:00:00.000000000 +0000 a\n"},
		{files: files, setup: stamp, args: []string{"ls", "-l", "--time-style=long-iso", "d"}, out: "total 0\n-rw-r--r-- 1 sandbox sandbox 0 2023-12-01 10:00 x\n"},
		{files: files, setup: stamp, args: []string{"ls", "-l", "--time-style=+%Y/%m", "a"}, out: "-rw-r--r-- 1 sandbox sandbox 5 2023/12 a\n"},
		{files: files, setup: stamp, args: []string{"ls", "-l", "--time-style=bogus", "a"}, errSub: "invalid argument 'bogus'", status: 1},
		{files: files, setup: stamp, args: []string{"ls", "-t"}, out: "big\na\nd\n"},
		{files: files, setup: stamp, args: []string{"ls", "-tr"}, out: "d\na\nbig\n"},
		{files: files, setup: stamp, args: []string{"ls", "-S"}, out: "big\nd\na\n"},
		{files: files, setup: func(t *testing.T, env *Env) {
			stamp(t, env)
			env.Environ = append(env.Environ, "TZ=EST5")
		}, args: []string{"ls", "-l", "a"}, out: "-rw-r--r-- 1 sandbox sandbox 5 Dec  1 05:00 a\n"},
		{files: files, setup: links, args: []string{"ls", "-l", "--time-style=+-", "la", "ld"}, out: "lrwxrwxrwx 1 sandbox sandbox 1 - la -> a\n" +
			"lrwxrwxrwx 1 sandbox sandbox 1 - ld -> d\n"},
		{files: files, setup: links, args: []string{"ls", "-lF", "--time-style=+-", "ld"}, out: "lrwxrwxrwx 1 sandbox sandbox 1 - ld -> d/\n"},
		{files: files, setup: links, args: []string{"ls", "ld"}, out: "x\n"},
		{files: files, setup: links, args: []string{"ls", "-F"}, out: "a\nbig\nd/\nla@\nld@\n"},
		{files: files, setup: links, args: []string{"ls", "-L", "-l", "la"}, out: "-rw-r--r-- 1 sandbox sandbox 5 Dec  1 10:00 la\n"},
		{files: files, setup: links, args: []string{"ls", "-R"}, out: ".:\na\nbig\nd\nla\nld\n\n./d:\nx\n"},
		{files: files, args: []string{"ls", "-a", "d"}, out: ".\n..\nx\n"},
		{files: files, args: []string{"ls", "-ld", "d"}, outSub: []string{"drwxr-xr-x 2 sandbox sandbox 4096 "}},
		{files: files, args: []string{"ls", "-i", "a"}, outSub: []string{" a\n"}},
		{files: files, args: []string{"ls", "-s", "a", "big"}, out: "4 a\n8 big\n"},
		{files: files, args: []string{"ls", "nope", "a"}, out: "a\n", errSub: "ls: cannot access 'nope': No such file or directory", status: 2},
		{files: files, args: []string{"ls", "-w", "x"}, errSub: "invalid line width", status: 2},
		{files: files, args: []string{"ls", "--sort=bogus"}, errSub: "invalid argument 'bogus' for '--sort'", status: 1},
		{files: files, args: []string{"ls", "-C", "-w", "20"}, out: "a  big\td\n"},
		{files: files, setup: func(t *testing.T, env *Env) { env.Environ = append(env.Environ, "COLUMNS=9") },
			args: []string{"ls", "-C"}, out: "a    d\nbig\n"},
		{files: files, args: []string{"ls", "-m"}, out: "a, big, d\n"},
		{files: files, args: []string{"ls", "--group-directories-first"}, out: "d\na\nbig\n"},
	})
}
