package vfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/sandsh/sandsh/internal/suite"
)

// attackSetup makes top/{root, canary, root-evil/secret} plus symlinks
// inside root that point outside it, as a hostile pre-existing tree would.
func attackSetup(t *testing.T) (top string, d *RootFS) {
	t.Helper()
	top = t.TempDir()
	root := filepath.Join(top, "root")
	canary := filepath.Join(top, "canary")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "sub"), 0o755))
	must(os.MkdirAll(root+"-evil", 0o755))
	must(os.WriteFile(canary, []byte("CANARY"), 0o644))
	must(os.WriteFile(filepath.Join(root+"-evil", "secret"), []byte("CANARY"), 0o644))
	must(os.WriteFile(filepath.Join(root, "file"), []byte("inside"), 0o644))
	must(os.Symlink(canary, filepath.Join(root, "out-abs")))
	must(os.Symlink("../canary", filepath.Join(root, "out-rel")))
	must(os.Symlink(top, filepath.Join(root, "out-dir")))
	must(os.Symlink("../../canary", filepath.Join(root, "sub", "deep-rel")))
	must(os.Symlink("../root-evil", filepath.Join(root, "sibling")))
	fsys, err := NewDisk(root)
	if err != nil {
		t.Fatal(err)
	}
	d = fsys.(*RootFS)
	t.Cleanup(func() { d.Close() })
	return top, d
}

// outside describes everything next to the root, to prove it unchanged.
func outside(t *testing.T, top string) string {
	t.Helper()
	return hostTree(t, filepath.Join(top, "root-evil")) + "\n" + func() string {
		fi, err := os.Lstat(filepath.Join(top, "canary"))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(filepath.Join(top, "canary"))
		return string(b) + " " + fi.Mode().String() + " " + fi.ModTime().String()
	}()
}

func TestDiskCannotEscape(t *testing.T) {
	top, d := attackSetup(t)
	before := outside(t, top)
	topEntries, _ := os.ReadDir(top)

	// Reads: every way out either fails or lands inside the root.
	for _, p := range []string{
		"/out-abs", "/out-rel", "/sub/deep-rel", "/out-dir/canary", "/sibling/secret",
		"/../canary", "../canary", "/../../../canary", "/sub/../../canary",
		"/../root-evil/secret", "/../root/../canary", top + "/canary",
		"/out-dir/root-evil/secret",
	} {
		b, err := afero.ReadFile(d, p)
		if strings.Contains(string(b), "CANARY") {
			t.Fatalf("read %s leaked the canary", p)
		}
		if err == nil {
			t.Fatalf("read %s: unexpectedly found %q", p, b)
		}
	}
	if b, err := afero.ReadFile(d, "/../file"); err != nil || string(b) != "inside" {
		t.Fatalf("/../file should be /file: %q %v", b, err)
	}

	// Writes through the outward symlinks create files inside the root.
	for _, p := range []string{"/out-rel", "/sub/deep-rel"} {
		if err := afero.WriteFile(d, p, []byte("owned"), 0o644); err != nil {
			t.Fatalf("write %s: %v", p, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(top, "root", "canary")); string(b) != "owned" {
		t.Fatalf("write through ../canary went to %q", b)
	}

	// A symlink made through the FS to ../../.. stays inside too.
	if err := d.SymlinkIfPossible("../../..", "/sub/up"); err != nil {
		t.Fatal(err)
	}
	if err := afero.WriteFile(d, "/sub/up/canary", []byte("again"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := d.MkdirAll("/sub/up/made", 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(top, "root", "made")); err != nil {
		t.Fatalf("mkdir through ../../..: %v", err)
	}

	// Renames, links, chmods, removals aimed outside.
	wantNotOut := func(what string, err error) {
		t.Helper()
		if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) &&
			errnoOf(err) != syscall.EXDEV && errnoOf(err) != syscall.EEXIST {
			t.Fatalf("%s: unexpected error %v", what, err)
		}
	}
	wantNotOut("rename out", d.Rename("/file", "/../moved"))
	if _, err := os.Stat(filepath.Join(top, "root", "moved")); err != nil {
		t.Fatalf("rename /../moved should land in root: %v", err)
	}
	wantNotOut("rename in", d.Rename("/../canary", "/stolen"))
	wantNotOut("rename via dir link", d.Rename("/out-dir/canary", "/stolen2"))
	wantNotOut("link out", d.LinkIfPossible("/../canary", "/hl"))
	wantNotOut("link via symlink dir", d.LinkIfPossible("/out-dir/canary", "/hl2"))
	if err := d.LinkIfPossible("/out-abs", "/hl3"); err != nil {
		t.Fatalf("hard link to the symlink itself: %v", err)
	}
	wantNotOut("chmod", d.Chmod("/out-abs", 0o777))
	wantNotOut("chown", d.Chown("/out-dir/canary", 0, 0))
	wantNotOut("chtimes", d.Chtimes("/out-dir/canary", time.Time{}, time.Time{}))
	wantNotOut("remove", d.Remove("/out-dir/canary"))
	wantNotOut("remove sibling", d.Remove("/sibling/secret"))
	if err := d.RemoveAll("/out-dir"); err != nil {
		t.Fatal(err)
	}
	wantNotOut("removeall", d.RemoveAll("/../root-evil"))
	wantNotOut("symlink out", d.SymlinkIfPossible("x", "/../evil-link"))
	if _, err := d.Stat("/../canary"); err == nil {
		t.Fatal("stat /../canary found something")
	}
	if err := d.RemoveAll("/"); err != nil {
		t.Fatalf("RemoveAll /: %v", err)
	}
	if ents, _ := os.ReadDir(filepath.Join(top, "root")); len(ents) != 0 {
		t.Fatalf("root not emptied: %v", ents)
	}

	if after := outside(t, top); after != before {
		t.Fatalf("outside changed:\n%s\n%s", before, after)
	}
	if after, _ := os.ReadDir(top); len(after) != len(topEntries) {
		t.Fatalf("entries next to the root changed: %v -> %v", topEntries, after)
	}
}

// TestDiskRootGuard checks the last line of defence: if a symlink that
// leaves the tree is met by os.Root itself (as after a race with a host
// process), the operation fails with EACCES instead of escaping.
func TestDiskRootGuard(t *testing.T) {
	_, d := attackSetup(t)
	err := d.do("open", "/x", false, func(string) error {
		_, err := d.r.Open("out-rel")
		return err
	})
	wantErrno(t, err, syscall.EACCES)
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != "/x" {
		t.Fatalf("error should name the sandbox path: %v", err)
	}
}

func TestDiskSemantics(t *testing.T) {
	_, d := attackSetup(t)
	// Absolute symlink targets resolve against the sandbox root.
	runScript(t, d, `
		mkdir /etc
		write /etc/passwd pw
		symlink /etc/passwd /pw
		read /pw => pw
		readlink /pw => /etc/passwd
		symlink ../../../etc /sub/etc
		read /sub/etc/passwd => pw
		stat /file => f6
		read /file => inside
	`)
	fi, err := d.Stat("/file")
	if err != nil {
		t.Fatal(err)
	}
	m, ok := fi.Sys().(*Meta)
	if !ok || m.Ino == 0 || m.Nlink != 1 || fi.Name() != "file" {
		t.Fatalf("Stat: %q %#v", fi.Name(), fi.Sys())
	}
	f, err := d.Open("/sub")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Name() != "/sub" {
		t.Fatalf("Name %q", f.Name())
	}
	infos, err := f.Readdir(-1)
	if err != nil || len(infos) != 2 {
		t.Fatalf("Readdir: %v %v", infos, err)
	}
	for _, fi := range infos {
		if _, ok := fi.Sys().(*Meta); !ok {
			t.Fatalf("Readdir Sys %T", fi.Sys())
		}
	}
	_, err = d.Open("/missing")
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != "/missing" || strings.Contains(err.Error(), "root") {
		t.Fatalf("error leaks the host path or is malformed: %v", err)
	}
	if _, err := NewDisk(filepath.Join(t.TempDir(), "none")); err == nil {
		t.Fatal("NewDisk of a missing dir succeeded")
	}
}

func TestHostFS(t *testing.T) {
	fsys, err := NewDisk("")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	mustWrite(t, fsys, p, "host")
	if err := fsys.(HardLinker).LinkIfPossible(p, p+"2"); err != nil {
		t.Fatal(err)
	}
	if err := fsys.SymlinkIfPossible("f", p+"l"); err != nil {
		t.Fatal(err)
	}
	fi, err := fsys.Stat(p)
	if err != nil || MetaOf(fi).Nlink != 2 || fi.Size() != 4 {
		t.Fatalf("host Stat: %v %+v", err, MetaOf(fi))
	}
	if _, ok := fi.Sys().(*Meta); !ok {
		t.Fatalf("Sys %T", fi.Sys())
	}
	lfi, err := Lstat(fsys, p+"l")
	if err != nil || lfi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("host Lstat: %v %v", lfi, err)
	}
	if err := fsys.Mkdir(filepath.Join(dir, "t"), 0o1777); err != nil {
		t.Fatal(err)
	}
	if fi, _ := fsys.Stat(filepath.Join(dir, "t")); fi.Mode()&fs.ModeSticky == 0 {
		t.Fatalf("raw 01777 lost the sticky bit: %v", fi.Mode())
	}
	if fsys.Name() == "" {
		t.Fatal("no name")
	}
}

// TestRootHardLinkOutside: a file in the root that shares its inode with
// a name outside is never changed through that inode (issue 11).
func TestRootHardLinkOutside(t *testing.T) {
	top := t.TempDir()
	root, out := filepath.Join(top, "root"), filepath.Join(top, "out")
	os.Mkdir(root, 0o755)
	os.Mkdir(out, 0o755)
	shared := filepath.Join(out, "shared")
	if err := os.WriteFile(shared, []byte("outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"w", "a", "t", "m", "c"} {
		if err := os.Link(shared, filepath.Join(root, n)); err != nil {
			suite.Skip(t, "hardlinks", "%v", err)
		}
	}
	fsys, err := NewDisk(root)
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.(*RootFS).Close()
	mustWrite(t, fsys, "/w", "new")
	f, err := fsys.OpenFile("/a", os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("more\n"))
	f.Close()
	if f, err := fsys.OpenFile("/t", os.O_RDONLY|os.O_TRUNC, 0); err == nil {
		f.Close()
	}
	if err := fsys.Chmod("/m", 0o600); err != nil {
		t.Fatal(err)
	}
	if err := fsys.Chtimes("/c", time.Unix(0, 0), time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(shared)
	fi, _ := os.Stat(shared)
	if string(got) != "outside\n" || fi.Mode().Perm() != 0o644 || fi.ModTime().Unix() == 0 {
		t.Fatalf("outside file changed: %q %v %v", got, fi.Mode(), fi.ModTime())
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a")); string(b) != "outside\nmore\n" {
		t.Errorf("/a = %q", b)
	}
	runScript(t, fsys, "read /w => new")
	ents, _ := os.ReadDir(root)
	if len(ents) != 5 {
		t.Errorf("left-over copies in the root: %v", ents)
	}
	// Links made inside the root by the run itself stay links.
	mustWrite(t, fsys, "/own", "a")
	if err := fsys.(HardLinker).LinkIfPossible("/own", "/own2"); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, fsys, "/own2", "b")
	runScript(t, fsys, "read /own => b")
}

// TestRootIdentity: no host uid, gid or inode number shows through.
func TestRootIdentity(t *testing.T) {
	root := t.TempDir()
	fsys, err := NewDisk(root)
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.(*RootFS).Close()
	mustWrite(t, fsys, "/f", "x")
	seen := map[uint64]string{}
	for _, p := range []string{"/", "/f", "/", "/f"} {
		fi, err := fsys.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		m := MetaOf(fi)
		if m.UID != DefaultUID || m.GID != DefaultGID {
			t.Errorf("%s: uid %d gid %d, want the sandbox user", p, m.UID, m.GID)
		}
		if m.Ino == 0 || m.Ino > 2 {
			t.Errorf("%s: inode %d, want a small virtual number", p, m.Ino)
		}
		if q, ok := seen[m.Ino]; ok && q != p {
			t.Errorf("%s and %s share inode %d", p, q, m.Ino)
		}
		seen[m.Ino] = p
	}
	f, _ := fsys.Open("/")
	infos, _ := f.Readdir(-1)
	f.Close()
	if len(infos) != 1 || MetaOf(infos[0]).Ino != 2 {
		t.Errorf("listing: %v", infos)
	}
}
