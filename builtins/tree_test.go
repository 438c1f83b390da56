package builtins

import "testing"

func TestTree(t *testing.T) {
	files := map[string]string{"a": "", "d/b": "", "d/e/c": "", ".hidden": ""}
	utf := func(t *testing.T, env *Env) { env.Environ = append(env.Environ, "LANG=en_US.UTF-8") }
	filesRunCases(t, []filesCase{
		{files: files, args: []string{"tree"}, out: ".\n|-- a\n`-- d\n    |-- b\n    `-- e\n        `-- c\n\n2 directories, 3 files\n"},
		{files: files, args: []string{"tree", "--charset=utf-8", "d"},
			out: "d\n\u251c\u2500\u2500 b\n\u2514\u2500\u2500 e\n    \u2514\u2500\u2500 c\n\n1 directory, 2 files\n"},
		{files: files, setup: func(t *testing.T, env *Env) {
			env.Environ = []string{"LANG=en_US.UTF-8"}
		}, args: []string{"tree", "--noreport"},
			out: ".\n\u251c\u2500\u2500 a\n\u2514\u2500\u2500 d\n    \u251c\u2500\u2500 b\n    \u2514\u2500\u2500 e\n        \u2514\u2500\u2500 c\n"},
		{files: files, setup: utf, args: []string{"tree", "-a", "-L", "1", "--charset", "ascii"}, out: ".\n|-- .hidden\n|-- a\n`-- d\n\n1 directory, 2 files\n"},
		{files: files, args: []string{"tree", "-d"}, out: ".\n`-- d\n    `-- e\n\n2 directories\n"},
		{files: files, args: []string{"tree", "-f", "-i", "d"}, out: "d\nd/b\nd/e\nd/e/c\n\n1 directory, 2 files\n"},
		{files: files, args: []string{"tree", "-F", "-L", "1"}, out: ".\n|-- a\n`-- d/\n\n1 directory, 1 file\n"},
		{files: files, args: []string{"tree", "-s", "-L", "1"}, out: ".\n|-- [          0]  a\n`-- [       4096]  d\n\n1 directory, 1 file\n"},
		{files: files, args: []string{"tree", "-p", "-L", "1", "--noreport"}, out: ".\n|-- [-rw-r--r--]  a\n`-- [drwxr-xr-x]  d\n"},
		{files: files, args: []string{"tree", "-P", "c", "--noreport"}, out: ".\n`-- d\n    `-- e\n        `-- c\n"},
		{files: files, args: []string{"tree", "-I", "e", "--noreport", "d"}, out: "d\n`-- b\n"},
		{files: files, args: []string{"tree", "-r", "-L", "1", "--noreport"}, out: ".\n|-- d\n`-- a\n"},
		{files: files, args: []string{"tree", "--dirsfirst", "-L", "1", "--noreport"}, out: ".\n|-- d\n`-- a\n"},
		{name: "symlinks", files: files, setup: func(t *testing.T, env *Env) { filesSymlink(t, env, "d", "ld") },
			args: []string{"tree", "-L", "1"}, out: ".\n|-- a\n|-- d\n`-- ld -> d\n\n2 directories, 1 file\n"},
		{name: "symlinks followed", files: files, setup: func(t *testing.T, env *Env) { filesSymlink(t, env, "d/e", "le") },
			args: []string{"tree", "-l", "--noreport", "le", "."}, out: "le\n`-- c\n.\n|-- a\n|-- d\n|   |-- b\n|   `-- e\n|       `-- c\n`-- le -> d/e\n    `-- c\n"},
		{files: files, args: []string{"tree", "nope"}, out: "nope [error opening dir]\n\n0 directories, 0 files\n", status: 2},
		{files: files, args: []string{"tree", "-L", "0"}, errSub: "Invalid level", status: 1},
	})
}

func TestTreeLoop(t *testing.T) {
	filesRunCases(t, []filesCase{
		{files: map[string]string{"d/sub/": ""}, setup: func(t *testing.T, env *Env) { filesSymlink(t, env, "..", "d/sub/up") },
			args: []string{"tree", "-l", "d"}, out: "d\n`-- sub\n    `-- up -> ..  [recursive, not followed]\n\n2 directories, 0 files\n"},
	})
}
