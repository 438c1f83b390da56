package vfs

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// hostTree describes a host directory tree completely enough to notice
// any change: every entry's type, mode, size, mtime, symlink target and
// content hash.
func hostTree(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		line := fmt.Sprintf("%s %v %d %d", rel, fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			line += " -> " + target
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		if m := metaFromSys(fi); m != nil {
			line += fmt.Sprintf(" nlink=%d uid=%d ctime=%d", m.Nlink, m.UID, m.Ctime.UnixNano())
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// makeBase builds a host tree to mount, next to a canary file outside it
// that nothing may read or change. It returns the base and canary paths.
func makeBase(t *testing.T) (base, canary string) {
	t.Helper()
	top := t.TempDir()
	base = filepath.Join(top, "base")
	canary = filepath.Join(top, "canary")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(canary, []byte("CANARY"), 0o644))
	// A sibling whose name extends the base's: prefix checks must not
	// mistake it for part of the base.
	must(os.MkdirAll(base+"-evil", 0o755))
	must(os.WriteFile(filepath.Join(base+"-evil", "secret"), []byte("CANARY"), 0o644))
	must(os.MkdirAll(filepath.Join(base, "src", "lib"), 0o755))
	must(os.MkdirAll(filepath.Join(base, "empty"), 0o755))
	must(os.WriteFile(filepath.Join(base, "README"), []byte("readme\n"), 0o644))
	must(os.WriteFile(filepath.Join(base, "src", "main.go"), []byte("package main\n"), 0o644))
	must(os.WriteFile(filepath.Join(base, "src", "lib", "util.go"), []byte("package lib\n"), 0o600))
	must(os.WriteFile(filepath.Join(base, "ro.txt"), []byte("read only\n"), 0o444))
	must(os.WriteFile(filepath.Join(base, "big"), []byte(strings.Repeat("x", 5000)), 0o644))
	must(os.WriteFile(filepath.Join(base, "zero"), nil, 0o644))
	must(os.Link(filepath.Join(base, "README"), filepath.Join(base, "README.hard")))
	must(os.Symlink("src/main.go", filepath.Join(base, "link-rel")))
	must(os.Symlink("/etc/hostname", filepath.Join(base, "link-abs")))
	must(os.Symlink("../../../../../../canary", filepath.Join(base, "link-up")))
	must(os.Symlink(canary, filepath.Join(base, "link-canary")))
	must(os.Symlink("../base-evil/secret", filepath.Join(base, "link-sibling")))
	must(os.Symlink("src", filepath.Join(base, "link-dir")))
	must(syscall.Mkfifo(filepath.Join(base, "fifo"), 0o644))
	return base, canary
}

func newOverlay(t *testing.T, base string, opts ...MemOption) *MemFS {
	t.Helper()
	fsys, err := NewOverlay(base, WorkDir, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := Populate(fsys, WorkDir); err != nil {
		t.Fatal(err)
	}
	m := fsys.(*MemFS)
	t.Cleanup(func() { m.Close() })
	return m
}

func TestOverlayReadThrough(t *testing.T) {
	base, _ := makeBase(t)
	m := newOverlay(t, base)
	runScript(t, m, `
		read /workspace/README => readme\n
		read /workspace/README.hard => readme\n
		read /workspace/src/main.go => package main\n
		read /workspace/link-rel => package main\n
		read /workspace/link-abs => sandbox\n
		read /workspace/link-up => ENOENT
		read /workspace/link-canary => ENOENT
		read /workspace/link-sibling => ENOENT
		read /workspace/zero =>
		ls /workspace/link-dir => lib main.go
		lsl /workspace => README README.hard big empty/ fifo link-abs@ link-canary@ link-dir@ link-rel@ link-sibling@ link-up@ ro.txt src/ zero
		mode /workspace/ro.txt => 444
		mode /workspace/src/lib/util.go => 600
		stat /workspace/big => f5000
		nlink /workspace/src => 3
		readlink /workspace/link-abs => /etc/hostname
		openr /workspace/fifo => EACCES
		stat /workspace/nothing => ENOENT
		stat /workspace/README/x => ENOTDIR
	`)
	// The mount point and base files belong to the sandbox user.
	for _, p := range []string{"/workspace", "/workspace/README", "/workspace/src"} {
		fi, err := m.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if u := MetaOf(fi).UID; u != DefaultUID {
			t.Fatalf("%s uid %d", p, u)
		}
	}
	// The host mtime shows through.
	hfi, _ := os.Stat(filepath.Join(base, "README"))
	fi, _ := m.Stat("/workspace/README")
	if !fi.ModTime().Equal(hfi.ModTime()) {
		t.Fatalf("mtime %v, host %v", fi.ModTime(), hfi.ModTime())
	}
	// Base files do not count as upper-layer usage.
	if b, _ := m.Usage(); b > 4096 {
		t.Fatalf("reading the base charged %d bytes", b)
	}
	// A big base file is read in pieces through ReadAt and Seek.
	f, _ := m.Open("/workspace/big")
	defer f.Close()
	buf := make([]byte, 10)
	if n, err := f.ReadAt(buf, 4995); n != 5 || err != io.EOF {
		t.Fatalf("ReadAt at end: %d %v", n, err)
	}
	f.Seek(100, io.SeekStart)
	if b, _ := io.ReadAll(f); len(b) != 4900 {
		t.Fatalf("read %d bytes after seek", len(b))
	}
}

// TestOverlayWritesStayInMemory runs a barrage of modifications through
// the overlay and proves the host base, its sibling and the canary are
// byte-for-byte and metadata-for-metadata unchanged.
func TestOverlayWritesStayInMemory(t *testing.T) {
	base, canary := makeBase(t)
	top := filepath.Dir(base)
	before := hostTree(t, top)
	m := newOverlay(t, base)
	runScript(t, m, `
		append /workspace/README more
		read /workspace/README => readme\nmore
		read /workspace/README.hard => readme\n
		write /workspace/src/main.go changed
		write /workspace/link-rel via-link
		read /workspace/src/main.go => via-link
		write /workspace/new.txt new
		trunc /workspace/big 10
		stat /workspace/big => f10
		rm /workspace/src/lib/util.go
		rmall /workspace/empty
		write /workspace/link-dir/x y
		read /workspace/src/x => y
		rename /workspace/src /workspace/src2
		ls /workspace/src2 => lib main.go x
		ls /workspace/link-dir => ENOENT
		chmod /workspace/ro.txt 644
		write /workspace/ro.txt writable
		chmod /workspace/README 600
		symlink /etc/passwd /workspace/newlink
		rm /workspace/link-abs
		rm /workspace/link-canary
		write /workspace/link-up escaped => EACCES
		write /workspace/link-sibling escaped => ENOENT
		link /workspace/README /workspace/README.third
		mkdirall /workspace/deep/er/dir
		rename /workspace/zero /workspace/deep/zero
		rmall /workspace/fifo
	`)
	// Writes through symlinks that point outside the mount land in the
	// sandbox tree, where the links resolve, never on the host.
	root := m.As(Cred{})
	if err := afero.WriteFile(root, "/workspace/link-up", []byte("escaped"), 0o644); err != nil {
		t.Fatal(err)
	}
	runScript(t, m, "read /canary => escaped")
	if err := m.Chtimes("/workspace/new.txt", time.Unix(0, 0), time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	if err := m.Chtimes("/workspace/README", time.Unix(0, 0), time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	if err := m.Chown("/workspace/ro.txt", -1, DefaultGID); err != nil {
		t.Fatal(err)
	}
	// The user may empty /workspace but, / being root's, not remove it.
	wantErrno(t, m.RemoveAll(WorkDir), syscall.EACCES)
	runScript(t, m, "ls /workspace =>")
	if err := root.RemoveAll(WorkDir); err != nil {
		t.Fatal(err)
	}
	runScript(t, root, `
		stat /workspace => ENOENT
		mkdir /workspace
		ls /workspace =>
	`)
	if after := hostTree(t, top); after != before {
		t.Fatalf("host tree changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if b, _ := os.ReadFile(canary); string(b) != "CANARY" {
		t.Fatal("canary changed")
	}
	checkInvariants(t, m)
}

func TestOverlayWhiteoutAndOpaque(t *testing.T) {
	base, _ := makeBase(t)
	m := newOverlay(t, base)
	runScript(t, m, `
		rm /workspace/README
		stat /workspace/README => ENOENT
		read /workspace/README.hard => readme\n
		write /workspace/README again
		read /workspace/README => again
		rmall /workspace/src
		mkdir /workspace/src
		ls /workspace/src =>
		write /workspace/src/main.go fresh
		ls /workspace/src => main.go
		rename /workspace/empty /workspace/src => ENOTEMPTY
		rm /workspace/src/main.go
		rename /workspace/empty /workspace/src
		stat /workspace/empty => ENOENT
	`)
	// Base files keep existing on the host all along.
	if _, err := os.Stat(filepath.Join(base, "src", "lib", "util.go")); err != nil {
		t.Fatal(err)
	}
}

func TestOverlayCopyUp(t *testing.T) {
	base, _ := makeBase(t)
	m := newOverlay(t, base, WithMaxBytes(1000))
	// Copying up the 5000-byte file does not fit; truncating it does.
	_, err := m.OpenFile("/workspace/big", os.O_WRONLY, 0)
	wantErrno(t, err, syscall.ENOSPC)
	_, err = m.OpenFile("/workspace/big", os.O_WRONLY|os.O_APPEND, 0)
	wantErrno(t, err, syscall.ENOSPC)
	runScript(t, m, `
		read /workspace/big => `+strings.Repeat("x", 5000)+`
		write /workspace/big small
		read /workspace/big => small
	`)
	if b, _ := m.Usage(); b < 5 || b > 1000 {
		t.Fatalf("usage %d", b)
	}

	// A reader opened before the copy-up sees the file's new contents
	// afterwards: it is one inode.
	r, err := m.Open("/workspace/src/main.go")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	buf := make([]byte, 4)
	r.Read(buf)
	if string(buf) != "pack" {
		t.Fatalf("read %q", buf)
	}
	w, err := m.OpenFile("/workspace/src/main.go", os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.WriteAt([]byte("XXXXXXXX"), 0)
	w.Close()
	rest, _ := io.ReadAll(r)
	if string(rest) != "XXXXmain\n" {
		t.Fatalf("after copy-up read %q", rest)
	}
	// Permissions of base files apply: ro.txt is 0444.
	_, err = m.OpenFile("/workspace/ro.txt", os.O_WRONLY, 0)
	wantErrno(t, err, syscall.EACCES)
}

func TestOverlayErrors(t *testing.T) {
	if _, err := NewOverlay(filepath.Join(t.TempDir(), "missing"), "/w"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing base: %v", err)
	}
	// Mounting at / makes the whole tree lower-backed.
	base, _ := makeBase(t)
	fsys, err := NewOverlay(base, "/")
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.(*MemFS).Close()
	if err := Populate(fsys, "/"); err != nil {
		t.Fatal(err)
	}
	runScript(t, fsys, `
		read /README => readme\n
		read /etc/hostname => sandbox\n
		read /link-abs => sandbox\n
		stat /workspace => d
	`)
}

func TestOverlayConcurrent(t *testing.T) {
	base, _ := makeBase(t)
	before := hostTree(t, base)
	m := newOverlay(t, base)
	var wg sync.WaitGroup
	for g := 0; g < 6; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				switch (g + i) % 5 {
				case 0:
					afero.ReadFile(m, "/workspace/big")
				case 1:
					afero.ReadDir(m, "/workspace/src")
				case 2:
					afero.WriteFile(m, fmt.Sprintf("/workspace/src/f%d", g), []byte("x"), 0o644)
				case 3:
					if f, err := m.OpenFile("/workspace/README", os.O_WRONLY|os.O_APPEND, 0); err == nil {
						f.Write([]byte("+"))
						f.Close()
					}
				case 4:
					m.Rename(fmt.Sprintf("/workspace/src/f%d", g), fmt.Sprintf("/workspace/f%d", g))
				}
			}
		}()
	}
	wg.Wait()
	if after := hostTree(t, base); after != before {
		t.Fatal("host base changed")
	}
	checkInvariants(t, m)
}
