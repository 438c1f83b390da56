package builtins

import (
	"testing"
	"time"
)

func TestFind(t *testing.T) {
	tree := map[string]string{"d/a.txt": "aaa", "d/b.go": "", "d/sub/c.txt": "c", "d/sub/deep/e": "", "top": "t"}
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	filesRunCases(t, []filesCase{
		{files: tree, args: []string{"find", "d"}, out: "d\nd/a.txt\nd/b.go\nd/sub\nd/sub/c.txt\nd/sub/deep\nd/sub/deep/e\n"},
		{files: tree, args: []string{"find", "d", "-name", "*.txt"}, out: "d/a.txt\nd/sub/c.txt\n"},
		{files: tree, args: []string{"find", "d", "-depth", "-type", "d"}, out: "d/sub/deep\nd/sub\nd\n"},
		{files: tree, args: []string{"find", "d", "-maxdepth", "1", "-type", "f", "-printf", "%f:%s\\n"}, out: "a.txt:3\nb.go:0\n"},
		{files: tree, args: []string{"find", "d", "-path", "d/sub", "-prune", "-o", "-type", "f", "-print"}, out: "d/a.txt\nd/b.go\n"},
		{files: tree, args: []string{"find", "d", "-empty", "-type", "f"}, out: "d/b.go\nd/sub/deep/e\n"},
		{files: tree, args: []string{"find", "d", "-name", "*.go", "-exec", "cat", "d/a.txt", "{}", ";"}, out: "aaa"},
		{name: "exec output stays in order", files: tree, args: []string{"find", "d", "-maxdepth", "1", "-print", "-exec", "basename", "{}", ";"},
			out: "d\nd\nd/a.txt\na.txt\nd/b.go\nb.go\nd/sub\nsub\n"},
		{files: tree, args: []string{"find", "d", "-type", "f", "-exec", "basename", "-a", "{}", "+"}, out: "a.txt\nb.go\nc.txt\ne\n"},
		{files: tree, args: []string{"find", "d/sub", "-type", "f", "-execdir", "ls", "{}", ";"}, out: "./c.txt\n./e\n"},
		{name: "-ok runs like -exec", files: tree, args: []string{"find", "d", "-name", "b.go", "-ok", "basename", "{}", ";"}, out: "b.go\n"},
		{files: tree, args: []string{"find", "d", "-name", "*.txt", "-delete"}, check: func(t *testing.T, env *Env) {
			if filesExists(env, "d/a.txt") || filesExists(env, "d/sub/c.txt") || !filesExists(env, "d/b.go") {
				t.Error("wrong files deleted")
			}
		}},
		{files: tree, setup: func(t *testing.T, env *Env) {
			for _, f := range []string{"d", "d/a.txt", "d/b.go", "d/sub", "d/sub/c.txt", "d/sub/deep", "d/sub/deep/e"} {
				filesSetTime(t, env, f, old)
			}
			filesSetTime(t, env, "d/b.go", time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC))
		}, args: []string{"find", "d", "-mtime", "-2"}, out: "d/b.go\n"},
		{files: tree, setup: func(t *testing.T, env *Env) {
			filesSetTime(t, env, "d/a.txt", old)
			filesSetTime(t, env, "top", old.Add(time.Hour))
		}, args: []string{"find", "d", "-maxdepth", "1", "!", "-newer", "top"}, out: "d/a.txt\n"},
		{files: tree, setup: func(t *testing.T, env *Env) { filesSetTime(t, env, "d/a.txt", old) },
			args: []string{"find", "d/a.txt", "-printf", "%TY-%Tm-%Td %TH:%TM %t %T@\\n"},
			out:  "2020-01-01 00:00 Wed Jan  1 00:00:00.0000000000 2020 1577836800.0000000000\n"},
		{files: tree, args: []string{"find", "d", "-user", "sandbox", "-name", "e"}, out: "d/sub/deep/e\n"},
		{files: tree, args: []string{"find", "d", "-uid", "0"}},
		{files: tree, args: []string{"find", "d", "-quit", "-print"}},
		{files: tree, args: []string{"find", "d/a.txt", "-ls"}, outSub: []string{"-rw-r--r--   1 sandbox  sandbox         3 ", " d/a.txt\n"}},
		{files: tree, args: []string{"find", "d", "-size", "+2c", "-type", "f"}, out: "d/a.txt\n"},
		{files: tree, args: []string{"find", "d", "-name", "*.go", "-fprint", "out"}, check: func(t *testing.T, env *Env) {
			if got := readFile(t, env, "out"); got != "d/b.go\n" {
				t.Errorf("out = %q", got)
			}
		}},
		{name: "loop under -L", files: tree, setup: func(t *testing.T, env *Env) { filesSymlink(t, env, "..", "d/sub/up") },
			args: []string{"find", "-L", "d", "-name", "e"}, out: "d/sub/deep/e\n", errSub: "File system loop detected", status: 1},
		{name: "links not followed", files: tree, setup: func(t *testing.T, env *Env) { filesSymlink(t, env, "sub", "d/ls") },
			args: []string{"find", "d", "-name", "c.txt"}, out: "d/sub/c.txt\n"},
		{name: "links followed with -L", files: tree, setup: func(t *testing.T, env *Env) { filesSymlink(t, env, "sub", "d/ls") },
			args: []string{"find", "-L", "d", "-name", "c.txt"}, out: "d/ls/c.txt\nd/sub/c.txt\n"},
		{files: tree, args: []string{"find", "nope"}, errSub: "find: 'nope': No such file or directory", status: 1},
		{files: tree, args: []string{"find", "d", "-bogus"}, errSub: "unknown predicate `-bogus'", status: 1},
		{files: tree, args: []string{"find", "d", "-name"}, errSub: "missing argument to `-name'", status: 1},
		{files: tree, args: []string{"find", "d", "-exec", "ls"}, errSub: "missing argument to `-exec'", status: 1},
		{files: tree, args: []string{"find", "--help"}, outSub: []string{"Usage: find"}},
	})
}
