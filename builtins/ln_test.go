package builtins

import (
	"testing"

	"github.com/sandsh/sandsh/internal/suite"
	"github.com/sandsh/sandsh/vfs"
)

func TestLn(t *testing.T) {
	linkIs := func(name, want string) func(*testing.T, *Env) {
		return func(t *testing.T, env *Env) {
			t.Helper()
			got, err := env.FS.ReadlinkIfPossible(env.Abs(name))
			if filesNoSymlinks(err) {
				suite.Skip(t, "symlinks", "the host filesystem has none")
			}
			if err != nil || got != want {
				t.Errorf("%s -> %q (%v), want %q", name, got, err, want)
			}
		}
	}
	filesRunCases(t, []filesCase{
		{files: map[string]string{"a": "A"}, args: []string{"ln", "-s", "a", "b"}, check: linkIs("b", "a")},
		{files: map[string]string{"a": "A", "b": ""}, args: []string{"ln", "-s", "a", "b"},
			errSub: "failed to create symbolic link 'b': File exists", status: 1},
		{files: map[string]string{"a": "A", "b": ""}, args: []string{"ln", "-sfv", "a", "b"}, out: "'b' -> 'a'\n", check: linkIs("b", "a")},
		{files: map[string]string{"a": "A", "d/": ""}, args: []string{"ln", "-s", "../a", "d"}, check: linkIs("d/a", "../a")},
		{files: map[string]string{"a": "A", "x/y/": ""}, args: []string{"ln", "-sr", "a", "x/y/l"}, check: linkIs("x/y/l", "../../a")},
		{name: "-n replaces a link to a dir", files: map[string]string{"a": "", "d/": ""}, setup: func(t *testing.T, env *Env) {
			filesSymlink(t, env, "d", "ld")
		}, args: []string{"ln", "-sfn", "a", "ld"}, check: linkIs("ld", "a")},
		{name: "without -n goes into the dir", files: map[string]string{"a": "", "d/": ""}, setup: func(t *testing.T, env *Env) {
			filesSymlink(t, env, "d", "ld")
		}, args: []string{"ln", "-sf", "a", "ld"}, check: linkIs("d/a", "a")},
		{name: "hard link", files: map[string]string{"a": "A"}, args: []string{"ln", "-v", "a", "b"}, out: "'b' => 'a'\n",
			check: func(t *testing.T, env *Env) {
				fa, _ := filesStat(env, "a")
				fb, err := filesStat(env, "b")
				if err != nil || vfs.MetaOf(fa).Ino != vfs.MetaOf(fb).Ino || vfs.MetaOf(fb).Nlink != 2 {
					t.Errorf("not a hard link: %v", err)
				}
			}},
		{files: map[string]string{"d/": ""}, args: []string{"ln", "d", "e"}, errSub: "d: hard link not allowed for directory", status: 1},
		{files: map[string]string{"a": ""}, args: []string{"ln", "a", "a"}, errSub: "'a' and 'a' are the same file", status: 1},
		{args: []string{"ln", "nofile", "x"}, errSub: "failed to access 'nofile'", status: 1},
		{args: []string{"ln", "-r", "a", "b"}, errSub: "cannot do --relative without --symbolic", status: 1},
		{files: map[string]string{"a": ""}, args: []string{"ln", "-s", "/x/y"}, check: linkIs("y", "/x/y")},
	})
}
