package builtins

import (
	"testing"

	"github.com/sandsh/sandsh/vfs"
)

func TestChown(t *testing.T) {
	owner := func(name string, uid, gid int) func(*testing.T, *Env) {
		return func(t *testing.T, env *Env) {
			t.Helper()
			fi, err := env.FS.Stat(env.Abs(name))
			if err != nil {
				t.Fatal(err)
			}
			if m := vfs.MetaOf(fi); m.UID != uid || m.GID != gid {
				t.Errorf("%s owned by %d:%d, want %d:%d", name, m.UID, m.GID, uid, gid)
			}
		}
	}
	f := map[string]string{"a": ""}
	filesRunCases(t, []filesCase{
		{files: f, args: []string{"chown", "sandbox", "a"}, check: owner("a", 1000, 1000)},
		{files: f, args: []string{"chown", "-v", "sandbox:sandbox", "a"}, out: "ownership of 'a' retained as sandbox:sandbox\n"},
		{files: f, args: []string{"chown", "-v", "1000", "a"}, out: "ownership of 'a' retained as sandbox\n"},
		{files: f, args: []string{"chown", "-c", "sandbox:", "a"}},
		{files: f, args: []string{"chgrp", "-v", "sandbox", "a"}, out: "group of 'a' retained as sandbox\n"},
		{files: f, args: []string{"chown", "root", "a"}, errSub: "chown: changing ownership of 'a': Operation not permitted", status: 1,
			check: owner("a", 1000, 1000)},
		{files: f, args: []string{"chown", "-v", "root", "a"}, out: "failed to change ownership of 'a' to root\n",
			errSub: "Operation not permitted", status: 1},
		{files: f, args: []string{"chown", "-f", ":root", "a"}, status: 1},
		{files: f, args: []string{"chgrp", "0", "a"}, errSub: "chgrp: changing group of 'a': Operation not permitted", status: 1},
		{files: f, args: []string{"chown", "nosuch", "a"}, errSub: "chown: invalid user: 'nosuch'", status: 1},
		{files: f, args: []string{"chown", "sandbox:nosuch", "a"}, errSub: "chown: invalid group: 'sandbox:nosuch'", status: 1},
		{files: f, args: []string{"chgrp", "nosuch", "a"}, errSub: "chgrp: invalid group: 'nosuch'", status: 1},
		{args: []string{"chown"}, errSub: "chown: missing operand", status: 1},
		{args: []string{"chown", "sandbox"}, errSub: "chown: missing operand after 'sandbox'", status: 1},
		{args: []string{"chown", "sandbox", "nope"}, errSub: "chown: cannot access 'nope': No such file or directory", status: 1},
		{files: f, args: []string{"chown", "sandbox.sandbox", "a"}, errSub: "warning: '.' should be ':'", check: owner("a", 1000, 1000)},
		{files: map[string]string{"d/e/f": "", "r": ""}, args: []string{"chown", "-R", "--reference=r", "d"}, check: owner("d/e/f", 1000, 1000)},
		{name: "an unknown user, even for root", files: map[string]string{"d/e/f": ""}, setup: func(t *testing.T, env *Env) {
			env.FS = env.FS.(*vfs.MemFS).As(vfs.Cred{UID: 0, GID: 0, Umask: 0o022})
		}, args: []string{"chown", "-R", "nobody:7", "d"}, errSub: "invalid user", status: 1},
		{name: "root chowns -R", files: map[string]string{"d/e/f": ""}, setup: func(t *testing.T, env *Env) {
			env.FS = env.FS.(*vfs.MemFS).As(vfs.Cred{UID: 0, GID: 0, Umask: 0o022})
		}, args: []string{"chown", "-R", "0:7", "d"}, check: owner("d/e/f", 0, 7)},
	})
}

// TestDiffChown compares what does not depend on who runs the tests (the
// host's GNU chown may run as root, which the sandbox user never is).
func TestDiffChown(t *testing.T) {
	f := map[string]string{"a": "x"}
	runDiff(t, []diffCase{
		{Files: f, Args: []string{"chown", "nosuchuser9", "a"}},
		{Files: f, Args: []string{"chown", ":nosuchgroup9", "a"}},
		{Files: f, Args: []string{"chgrp", "nosuchgroup9", "a"}},
		{Files: f, Args: []string{"chown"}},
		{Files: f, Args: []string{"chown", "root"}},
		{Files: f, Args: []string{"chgrp", "root"}},
		{Files: f, Args: []string{"chown", "root", "nofile"}},
		{Files: f, Args: []string{"chown", "-f", "root", "nofile"}},
		{Files: f, Args: []string{"chown", "--bogus", "a"}},
	})
}
