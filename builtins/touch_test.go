package builtins

import (
	"testing"
	"time"

	"github.com/sandsh/sandsh/vfs"
)

func TestTouch(t *testing.T) {
	now := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	mtimeIs := func(name string, want time.Time) func(*testing.T, *Env) {
		return func(t *testing.T, env *Env) {
			t.Helper()
			fi, err := filesStat(env, name)
			if err != nil {
				t.Fatal(err)
			}
			if !fi.ModTime().Equal(want) {
				t.Errorf("%s mtime %v, want %v", name, fi.ModTime(), want)
			}
		}
	}
	old := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	filesRunCases(t, []filesCase{
		{args: []string{"touch", "new"}, check: mtimeIs("new", now)},
		{files: map[string]string{"a": "x"}, args: []string{"touch", "a"}, check: mtimeIs("a", now)},
		{args: []string{"touch", "-d", "2020-02-03 04:05:06", "a"}, check: mtimeIs("a", time.Date(2020, 2, 3, 4, 5, 6, 0, time.UTC))},
		{args: []string{"touch", "-d", "@86400", "a"}, check: mtimeIs("a", time.Unix(86400, 0))},
		{args: []string{"touch", "-d", "yesterday", "a"}, check: mtimeIs("a", now.AddDate(0, 0, -1))},
		{args: []string{"touch", "-t", "202001020304.05", "a"}, check: mtimeIs("a", time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC))},
		{args: []string{"touch", "-t", "01020304", "a"}, check: mtimeIs("a", time.Date(2024, 1, 2, 3, 4, 0, 0, time.UTC))},
		{args: []string{"touch", "-t", "9901020304", "a"}, check: mtimeIs("a", time.Date(1999, 1, 2, 3, 4, 0, 0, time.UTC))},
		{args: []string{"touch", "-d", "2020-01-01", "-t", "202001010000", "a"}, errSub: "cannot specify times from more than one source", status: 1},
		{args: []string{"touch", "-d", "nonsense", "a"}, errSub: "invalid date format 'nonsense'", status: 1},
		{args: []string{"touch", "-c", "a"}, check: func(t *testing.T, env *Env) {
			if filesExists(env, "a") {
				t.Error("-c created a file")
			}
		}},
		{args: []string{"touch", "nodir/a"}, errSub: "cannot touch 'nodir/a': No such file or directory", status: 1},
		{files: map[string]string{"a": "", "ref": ""}, setup: func(t *testing.T, env *Env) { filesSetTime(t, env, "ref", old) },
			args: []string{"touch", "-r", "ref", "a"}, check: mtimeIs("a", old)},
		{name: "-a keeps mtime", files: map[string]string{"a": ""}, setup: func(t *testing.T, env *Env) { filesSetTime(t, env, "a", old) },
			args: []string{"touch", "-a", "a"}, check: func(t *testing.T, env *Env) {
				mtimeIs("a", old)(t, env)
				fi, _ := filesStat(env, "a")
				if at := vfs.MetaOf(fi).Atime; !at.Equal(now) {
					t.Errorf("atime %v", at)
				}
			}},
		{name: "-m keeps atime", files: map[string]string{"a": ""}, setup: func(t *testing.T, env *Env) { filesSetTime(t, env, "a", old) },
			args: []string{"touch", "-m", "-d", "2015-01-01", "a"}, check: func(t *testing.T, env *Env) {
				mtimeIs("a", time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC))(t, env)
				fi, _ := filesStat(env, "a")
				if at := vfs.MetaOf(fi).Atime; !at.Equal(old) {
					t.Errorf("atime %v", at)
				}
			}},
		{name: "through a dangling link", setup: func(t *testing.T, env *Env) { filesSymlink(t, env, "target", "l") },
			args: []string{"touch", "l"}, check: func(t *testing.T, env *Env) {
				if !filesExists(env, "target") {
					t.Error("target not created")
				}
			}},
		{args: []string{"touch"}, errSub: "missing file operand", status: 1},
	})
}
