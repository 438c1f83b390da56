package builtins

import (
	"testing"
	"time"

	"github.com/sandsh/sandsh/internal/suite"
	"github.com/sandsh/sandsh/vfs"
)

func TestCp(t *testing.T) {
	old := time.Date(2020, 5, 6, 7, 8, 9, 0, time.UTC)
	filesRunCases(t, []filesCase{
		{files: map[string]string{"a": "A"}, args: []string{"cp", "a", "b"},
			check: func(t *testing.T, env *Env) {
				if readFile(t, env, "b") != "A" {
					t.Error("b not copied")
				}
			}},
		{files: map[string]string{"a": "A", "d/": ""}, args: []string{"cp", "-v", "a", "d"}, out: "'a' -> 'd/a'\n",
			check: func(t *testing.T, env *Env) {
				if readFile(t, env, "d/a") != "A" {
					t.Error("d/a not copied")
				}
			}},
		{files: map[string]string{"a": "A"}, args: []string{"cp", "a", "a"}, errSub: "'a' and 'a' are the same file", status: 1},
		{files: map[string]string{"d/x": "1"}, args: []string{"cp", "d", "e"}, errSub: "-r not specified; omitting directory 'd'", status: 1},
		{files: map[string]string{"d/x": "1"}, args: []string{"cp", "-r", "d", "d/sub"}, errSub: "cannot copy a directory, 'd', into itself, 'd/sub'", status: 1},
		{files: map[string]string{"a": "new", "b": "old"}, args: []string{"cp", "-n", "a", "b"},
			check: func(t *testing.T, env *Env) {
				if readFile(t, env, "b") != "old" {
					t.Error("-n overwrote")
				}
			}},
		{name: "preserve times and mode", files: map[string]string{"a": "A"}, setup: func(t *testing.T, env *Env) {
			env.FS.Chmod(env.Abs("a"), 0o751)
			filesSetTime(t, env, "a", old)
		}, args: []string{"cp", "-p", "a", "b"}, check: func(t *testing.T, env *Env) {
			fi, _ := filesStat(env, "b")
			if !fi.ModTime().Equal(old) || fi.Mode().Perm() != 0o751 {
				t.Errorf("got %v %v", fi.ModTime(), fi.Mode())
			}
		}},
		{name: "new file mode masks umask", files: map[string]string{"a": "A"}, setup: func(t *testing.T, env *Env) {
			env.FS.Chmod(env.Abs("a"), 0o777)
		}, args: []string{"cp", "a", "b"}, check: func(t *testing.T, env *Env) {
			if m := filesMode(t, env, "b"); m != "-rwxr-xr-x" {
				t.Errorf("mode %s", m)
			}
		}},
		{name: "symlink followed", files: map[string]string{"a": "A"}, setup: func(t *testing.T, env *Env) {
			filesSymlink(t, env, "a", "la")
		}, args: []string{"cp", "la", "b"}, check: func(t *testing.T, env *Env) {
			if m := filesMode(t, env, "b"); m[0] != '-' {
				t.Errorf("b is %s, want a regular file", m)
			}
		}},
		{name: "symlink kept with -P", files: map[string]string{"a": "A"}, setup: func(t *testing.T, env *Env) {
			filesSymlink(t, env, "a", "la")
		}, args: []string{"cp", "-P", "la", "b"}, check: func(t *testing.T, env *Env) {
			if tg, err := env.FS.ReadlinkIfPossible(env.Abs("b")); err != nil || tg != "a" {
				t.Errorf("b -> %q, %v", tg, err)
			}
		}},
		{name: "archive keeps links", files: map[string]string{"d/a": "A"}, setup: func(t *testing.T, env *Env) {
			filesSymlink(t, env, "a", "d/la")
		}, args: []string{"cp", "-a", "d", "e"}, check: func(t *testing.T, env *Env) {
			if tg, err := env.FS.ReadlinkIfPossible(env.Abs("e/la")); err != nil || tg != "a" {
				t.Errorf("e/la -> %q, %v", tg, err)
			}
		}},
		{name: "archive keeps hard links", files: map[string]string{"d/a": "A"}, setup: func(t *testing.T, env *Env) {
			if err := filesHardLink(env.FS, env.Abs("d/a"), env.Abs("d/b")); err != nil {
				suite.Skip(t, "hardlinks", "%v", err)
			}
		}, args: []string{"cp", "-a", "d", "e"}, check: func(t *testing.T, env *Env) {
			a, _ := filesStat(env, "e/a")
			b, _ := filesStat(env, "e/b")
			if ma, mb := vfs.MetaOf(a), vfs.MetaOf(b); ma.Ino != mb.Ino || ma.Nlink != 2 {
				t.Errorf("inodes %d %d nlink %d", ma.Ino, mb.Ino, ma.Nlink)
			}
		}},
		{files: map[string]string{"a": "A", "b": "B"}, args: []string{"cp", "a", "b", "c"}, errSub: "target 'c'", status: 1},
		{files: map[string]string{"a": "A"}, args: []string{"cp", "a"}, errSub: "missing destination file operand after 'a'", status: 1},
		{files: map[string]string{"a": "A", "d/a/": ""}, args: []string{"cp", "a", "d"}, errSub: "cannot overwrite directory 'd/a' with non-directory", status: 1},
		{files: map[string]string{"a": "A"}, args: []string{"cp", "-s", "a", "b"}, check: func(t *testing.T, env *Env) {
			if tg, err := env.FS.ReadlinkIfPossible(env.Abs("b")); err != nil && !filesNoSymlinks(err) || err == nil && tg != "a" {
				t.Errorf("b -> %q, %v", tg, err)
			}
		}},
		{files: map[string]string{"a": "A", "b": "B"}, args: []string{"cp", "-l", "a", "c"}, check: func(t *testing.T, env *Env) {
			if readFile(t, env, "c") != "A" {
				t.Error("hard link has wrong content")
			}
		}},
		{files: map[string]string{"x/y/z": "Z", "out/": ""}, args: []string{"cp", "--parents", "x/y/z", "out"}, check: func(t *testing.T, env *Env) {
			if readFile(t, env, "out/x/y/z") != "Z" {
				t.Error("--parents")
			}
		}},
		{files: map[string]string{"a": "A"}, args: []string{"cp", "--preserve=bogus", "a", "b"}, errSub: "invalid argument 'bogus'", status: 1},
	})
}
