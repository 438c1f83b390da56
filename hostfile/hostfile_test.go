package hostfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within fails the test if f takes longer than d: an open that waits on
// a FIFO is the bug these tests look for, and must not hang the suite.
func within(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still blocked after %v", d)
	}
}

func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "reg")
	os.WriteFile(reg, []byte("data"), 0o600)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	os.Symlink(reg, link)
	fifoLink := filepath.Join(dir, "fifolink")
	os.Symlink(fifo, fifoLink)
	for _, c := range []struct {
		name, want string // want: "" to read "data", else a substring of the error
	}{
		{reg, ""},
		{link, ""}, // reading follows a link: the operator named it
		{fifo, "not a regular file (a FIFO)"},
		{fifoLink, "not a regular file (a FIFO)"},
		{dir, "Is a directory"},
		{"/dev/null", "not a regular file (a character device)"},
		{"/dev/zero", "not a regular file (a character device)"},
		{filepath.Join(dir, "missing"), "no such file"},
	} {
		within(t, 5*time.Second, func() {
			data, err := ReadFile(c.name, 100)
			switch {
			case c.want == "" && (err != nil || string(data) != "data"):
				t.Errorf("%s: %q, %v", c.name, data, err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("%s: error %v, want %q", c.name, err, c.want)
			}
		})
	}
	// A bound: one byte past max is all that is read.
	os.WriteFile(reg, []byte(strings.Repeat("x", 1000)), 0o600)
	if data, err := ReadFile(reg, 10); err != nil || len(data) != 11 {
		t.Errorf("bounded read: %d bytes, %v", len(data), err)
	}
}

func TestOpenWriteRefuses(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("keep"), 0o600)
	link := filepath.Join(dir, "link")
	os.Symlink(victim, link)
	dangling := filepath.Join(dir, "dangling")
	os.Symlink(filepath.Join(dir, "created-through-link"), dangling)
	fifo := filepath.Join(dir, "fifo")
	syscall.Mkfifo(fifo, 0o600)
	for _, c := range []struct{ name, want string }{
		{link, "is a symbolic link"},
		{dangling, "is a symbolic link"},
		{fifo, "not a regular file (a FIFO)"},
		{dir, "Is a directory"},
		{"/dev/null", "not a regular file (a character device)"},
	} {
		for _, trunc := range []bool{true, false} {
			within(t, 5*time.Second, func() {
				f, err := OpenWrite(c.name, 0o600, trunc, !trunc)
				if err == nil {
					f.Close()
					t.Errorf("%s: opened for writing", c.name)
				} else if !strings.Contains(err.Error(), c.want) {
					t.Errorf("%s: %v, want %q", c.name, err, c.want)
				}
			})
		}
	}
	// A FIFO with a reader waiting opens without blocking, and is still
	// refused.
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	within(t, 5*time.Second, func() {
		if _, err := OpenWrite(fifo, 0o600, true, false); err == nil || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("FIFO with a reader: %v", err)
		}
	})
	r.Close()
	if data, _ := os.ReadFile(victim); string(data) != "keep" {
		t.Errorf("the symlink's target was written: %q", data)
	}
	if _, err := os.Lstat(filepath.Join(dir, "created-through-link")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file was created through a dangling link")
	}
	// A new path and a regular file are fine; truncation happens.
	for _, name := range []string{filepath.Join(dir, "new"), victim} {
		f, err := OpenWrite(name, 0o600, true, false)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		io.WriteString(f, "x")
		f.Close()
		if data, _ := os.ReadFile(name); string(data) != "x" {
			t.Errorf("%s: %q", name, data)
		}
	}
}

func TestWriteAtomicRefuses(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("keep"), 0o600)
	link := filepath.Join(dir, "link")
	os.Symlink(victim, link)
	fifo := filepath.Join(dir, "fifo")
	syscall.Mkfifo(fifo, 0o600)
	write := func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }
	for _, name := range []string{link, fifo, dir} {
		if err := WriteAtomic(name, 0o600, write); err == nil {
			t.Errorf("%s: written", name)
		}
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced")
	}
	if data, _ := os.ReadFile(victim); string(data) != "keep" {
		t.Errorf("the link's target was written: %q", data)
	}
	if err := WriteAtomic(filepath.Join(dir, "out"), 0o600, write); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("left a temporary file %s", e.Name())
		}
	}
}

// TestRemove: only a regular file is removed; a symlink (even to a
// regular file), a directory and a FIFO are refused and left alone.
func TestRemove(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "f")
	if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(f, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{link, fifo, sub} {
		if removed, err := Remove(p); err == nil || removed {
			t.Errorf("%s: removed=%v err=%v", p, removed, err)
		}
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s is gone: %v", p, err)
		}
	}
	if _, err := os.Stat(f); err != nil {
		t.Errorf("the link's target is gone: %v", err)
	}
	if removed, err := Remove(f); err != nil || !removed {
		t.Errorf("a regular file: removed=%v err=%v", removed, err)
	}
	if removed, err := Remove(f); err != nil || removed {
		t.Errorf("a missing file: removed=%v err=%v", removed, err)
	}
}
