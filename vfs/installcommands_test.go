package vfs

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"time"
)

// slowMem hides the *MemFS type from InstallCommands, so that it takes
// the general path (Lstat, LinkIfPossible and file creation per name).
type slowMem struct{ *MemFS }

// installListing is what ls -li /usr/bin would show of an installation.
func installListing(t *testing.T, fsys *MemFS) string {
	t.Helper()
	ents, err := afsReadDir(fsys, CommandDir)
	if err != nil {
		t.Fatal(err)
	}
	out := ""
	for _, e := range ents {
		fi, _, err := fsys.LstatIfPossible(CommandDir + "/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		m := MetaOf(fi)
		out += fmt.Sprintf("%s %v %d ino=%d nlink=%d uid=%d\n", e.Name(), fi.Mode(), fi.Size(), m.Ino, m.Nlink, m.UID)
	}
	return out
}

func afsReadDir(fsys FS, dir string) ([]fs.FileInfo, error) {
	f, err := fsys.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdir(-1)
}

// The one-lock path for a memory filesystem installs exactly what the
// general path does: the same names, one shared inode, the same link
// count, modes and owner; existing entries are left alone.
func TestInstallCommandsFastPath(t *testing.T) {
	clock := func() time.Time { return time.Unix(1700000000, 0) }
	names := []string{"ls", "cat", "", "a/b", ".", "..", "wc", "ls", "sort", "pre"}
	build := func(slow bool) string {
		m := NewMem(WithClock(clock))
		if err := Populate(m, WorkDir); err != nil {
			t.Fatal(err)
		}
		root := m.As(Cred{UID: 0, GID: 0, Umask: 0o022})
		if err := root.SymlinkIfPossible("/nowhere", CommandDir+"/pre"); err != nil {
			t.Fatal(err)
		}
		var fsys FS = m
		if slow {
			fsys = slowMem{root}
		}
		if err := InstallCommands(fsys, names); err != nil {
			t.Fatal(err)
		}
		return installListing(t, m)
	}
	fast, slow := build(false), build(true)
	if fast != slow {
		t.Errorf("fast path:\n%s\ngeneral path:\n%s", fast, slow)
	}
	if want := "nlink=4"; !strings.Contains(fast, want) {
		t.Errorf("the stubs do not share one inode (%s):\n%s", want, fast)
	}
}
