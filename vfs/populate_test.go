package vfs

import (
	"strings"
	"testing"

	"github.com/spf13/afero"
)

func TestPopulateMem(t *testing.T) {
	m := NewMem()
	if err := Populate(m, "/home/sandbox/project/src"); err != nil {
		t.Fatal(err)
	}
	// Running it again changes nothing and does not fail.
	if err := Populate(m, "/home/sandbox/project/src"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		mode string
		uid  int
	}{
		{"/", "755", 0},
		{"/usr/bin", "755", 0},
		{"/usr/local/bin", "755", 0},
		{"/etc", "755", 0},
		{"/etc/passwd", "644", 0},
		{"/dev", "755", 0},
		{"/tmp", "1777", 0},
		{HomeDir, "755", DefaultUID},
		{WorkDir, "755", DefaultUID},
		{"/home/sandbox/project/src", "755", DefaultUID},
	}
	for _, tc := range tests {
		fi, err := m.Stat(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := modeString(fi.Mode()); got != tc.mode || MetaOf(fi).UID != tc.uid {
			t.Errorf("%s: mode %s uid %d, want %s uid %d", tc.path, got, MetaOf(fi).UID, tc.mode, tc.uid)
		}
	}
	passwd := readAll(t, m, "/etc/passwd")
	for _, want := range []string{"root:x:0:0:", "sandbox:x:1000:1000:sandbox:/home/sandbox:"} {
		if !strings.Contains(passwd, want) {
			t.Errorf("/etc/passwd lacks %q:\n%s", want, passwd)
		}
	}
	if !strings.Contains(readAll(t, m, "/etc/group"), "sandbox:x:1000:") {
		t.Error("/etc/group lacks the sandbox group")
	}
	if !strings.Contains(readAll(t, m, "/etc/os-release"), "ID=sandsh") {
		t.Error("/etc/os-release does not describe sandsh")
	}
	// The sandbox user works in its places and not in the system's.
	runScript(t, m, `
		write /tmp/t x
		write /workspace/w x
		write /home/sandbox/h x
		write /home/sandbox/project/src/p x
		write /etc/passwd x => EACCES
		write /etc/new x => EACCES
		mkdir /bin/x => EACCES
		mkdir /opt => EACCES
		rm /etc/hostname => EACCES
		read /etc/hostname => sandbox\n
	`)
}

func TestPopulateCwdVariants(t *testing.T) {
	for _, cwd := range []string{"", WorkDir, "/", "/opt/app", "sub/dir"} {
		m := NewMem()
		if err := Populate(m, cwd); err != nil {
			t.Fatalf("cwd %q: %v", cwd, err)
		}
		p := Clean(WorkDir, cwd)
		fi, err := m.Stat(p)
		if err != nil || !fi.IsDir() {
			t.Fatalf("cwd %q: %v", cwd, err)
		}
		if p != "/" && MetaOf(fi).UID != DefaultUID {
			t.Fatalf("cwd %q is not the user's", cwd)
		}
	}
	m := NewMem()
	afero.WriteFile(m, "/file", nil, 0o644)
	if err := Populate(m, "/file"); err == nil {
		t.Fatal("cwd on a file succeeded")
	}
}

func TestPopulateDisk(t *testing.T) {
	fsys, err := NewDisk(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.(*RootFS).Close()
	if err := Populate(fsys, WorkDir); err != nil {
		t.Fatal(err)
	}
	runScript(t, fsys, `
		mode /tmp => 1777
		stat /workspace => d
		read /etc/hostname => sandbox\n
	`)
	// A user-modified file survives another Populate.
	afero.WriteFile(fsys, "/etc/hostname", []byte("mine\n"), 0o644)
	if err := Populate(fsys, WorkDir); err != nil {
		t.Fatal(err)
	}
	runScript(t, fsys, `read /etc/hostname => mine\n`)
}
