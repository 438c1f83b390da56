package builtins

import (
	"testing"
	"time"
)

func TestStat(t *testing.T) {
	when := time.Date(2021, 3, 4, 5, 6, 7, 500000000, time.UTC)
	stamp := func(t *testing.T, env *Env) { filesSetTime(t, env, "a", when) }
	filesRunCases(t, []filesCase{
		{files: map[string]string{"a": "abc"}, setup: stamp, args: []string{"stat", "-c", "%n %s %a %A %F %U %G %u %g %h %b %B", "a"},
			out: "a 3 644 -rw-r--r-- regular file sandbox sandbox 1000 1000 1 8 512\n"},
		{files: map[string]string{"a": "abc"}, setup: stamp, args: []string{"stat", "-c", "%y|%Y|%.3Y|%x|%X", "a"},
			out: "2021-03-04 05:06:07.500000000 +0000|1614834367|1614834367.500|2021-03-04 05:06:07.500000000 +0000|1614834367\n"},
		{files: map[string]string{"a": "abc"}, setup: stamp, args: []string{"stat", "--printf", "%n\\t%s\\n", "a"}, out: "a\t3\n"},
		{files: map[string]string{"a": "abc"}, setup: func(t *testing.T, env *Env) {
			stamp(t, env)
			env.Environ = append(env.Environ, "TZ=UTC-2")
		}, args: []string{"stat", "-c", "%y", "a"}, out: "2021-03-04 07:06:07.500000000 +0200\n"},
		{files: map[string]string{"d/": ""}, args: []string{"stat", "-c", "%F %s %a %h", "d"}, out: "directory 4096 755 2\n"},
		{files: map[string]string{"e": ""}, args: []string{"stat", "-c", "%F|%N", "e"}, out: "regular empty file|'e'\n"},
		{files: map[string]string{"a": "abc"}, setup: stamp, args: []string{"stat", "a"}, outSub: []string{
			"  File: a\n  Size: 3         \tBlocks: 8          IO Block: 4096   regular file\n",
			"Access: (0644/-rw-r--r--)  Uid: ( 1000/ sandbox)   Gid: ( 1000/ sandbox)\n",
			"Modify: 2021-03-04 05:06:07.500000000 +0000\n", " Birth: -\n"}},
		{name: "link", files: map[string]string{"a": "abc"}, setup: func(t *testing.T, env *Env) { filesSymlink(t, env, "a", "la") },
			args: []string{"stat", "-c", "%N %F %s", "la"}, out: "'la' -> 'a' symbolic link 1\n"},
		{name: "link default", files: map[string]string{"a": "abc"}, setup: func(t *testing.T, env *Env) { filesSymlink(t, env, "a", "la") },
			args: []string{"stat", "la"}, outSub: []string{"  File: la -> a\n", "symbolic link\n"}},
		{name: "link -L", files: map[string]string{"a": "abc"}, setup: func(t *testing.T, env *Env) { filesSymlink(t, env, "a", "la") },
			args: []string{"stat", "-L", "-c", "%N %F", "la"}, out: "'la' regular file\n"},
		{args: []string{"stat", "nope"}, errSub: "stat: cannot statx 'nope': No such file or directory", status: 1},
		{files: map[string]string{"a": ""}, args: []string{"stat", "-t", "a"}, outSub: []string{"a 0 0 81a4 1000 1000 1f "}},
		{files: map[string]string{"a": ""}, args: []string{"stat", "-f", "-c", "%T %s", "a"}, out: "tmpfs 4096\n"},
	})
}
