package vfs

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"
)

// FuzzMemFS runs random operation sequences on a MemFS and, in lockstep,
// on a RootFS over a fresh temporary directory, which lets the kernel
// decide the semantics. Every step must give the same errno and the same
// result on both, the final trees must be identical, and the MemFS
// bookkeeping must hold. The MemFS acts as the test process's own user,
// so permission checks agree with the kernel's.
//
// A program is a sequence of 4-byte instructions: opcode, two operand
// bytes (paths, targets, modes, sizes) and a data byte.
func FuzzMemFS(f *testing.F) {
	f.Add([]byte{0, 1, 0, 0, 2, 4, 0, 'x', 9, 1, 2, 0, 14, 4, 0, 0})
	f.Add([]byte{1, 5, 0, 0, 11, 0, 3, 0, 2, 6, 0, 'y', 14, 6, 0, 0, 15, 3, 0, 0})
	f.Fuzz(func(t *testing.T, prog []byte) {
		if len(prog) > 4*64 {
			prog = prog[:4*64]
		}
		cred := []MemOption{WithUser(os.Getuid(), os.Getgid()), WithUmask(0o022)}
		m := NewMem(cred...)
		d := fuzzDisk(t, t.TempDir())
		// The overlay's base starts with a few entries; a disk root
		// holding a copy of them is its reference.
		base, copyDir := t.TempDir(), t.TempDir()
		fuzzSeedTree(t, base)
		fuzzSeedTree(t, copyDir)
		baseBefore := hostTree(t, base)
		ovFS, err := NewOverlay(base, "/", cred...)
		if err != nil {
			t.Fatal(err)
		}
		ov := ovFS.(*MemFS)
		defer ov.Close()
		dc := fuzzDisk(t, copyDir)
		var log []string
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf(format+"\nprogram:\n%s", append(args, strings.Join(log, "\n"))...)
		}
		for i := 0; i+3 < len(prog); i += 4 {
			in := fuzzInstr{prog[i], prog[i+1], prog[i+2], prog[i+3]}
			desc, gotM := in.run(m)
			_, gotD := in.run(d)
			_, gotO := in.run(ov)
			_, gotC := in.run(dc)
			log = append(log, fmt.Sprintf("%s => %s | overlay %s", desc, gotD, gotC))
			if gotM != gotD {
				fail("%s: MemFS %q, disk %q", desc, gotM, gotD)
			}
			if gotO != gotC {
				fail("%s: overlay %q, disk copy %q", desc, gotO, gotC)
			}
		}
		if tm, td := fuzzTree(m), fuzzTree(d); tm != td {
			fail("trees differ\nMemFS:\n%s\ndisk:\n%s", tm, td)
		}
		if to, tc := fuzzTree(ov), fuzzTree(dc); to != tc {
			fail("trees differ\noverlay:\n%s\ndisk copy:\n%s", to, tc)
		}
		checkInvariants(t, m)
		checkInvariants(t, ov)
		if hostTree(t, base) != baseBefore {
			fail("the overlay changed its host base")
		}
	})
}

func fuzzDisk(t *testing.T, dir string) *RootFS {
	disk, err := NewDisk(dir)
	if err != nil {
		t.Fatal(err)
	}
	d := disk.(*RootFS)
	t.Cleanup(func() {
		d.Close()
		unlockTree(dir)
	})
	return d
}

// unlockTree gives the owner back access to every directory under dir,
// which a fuzzed chmod may have taken away from a non-root test process,
// so that the temporary directory can be removed.
func unlockTree(dir string) {
	os.Chmod(dir, 0o700)
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.IsDir() {
			unlockTree(filepath.Join(dir, e.Name()))
		}
	}
}

// fuzzSeedTree makes the starting content of an overlay base.
func fuzzSeedTree(t *testing.T, dir string) {
	for _, err := range []error{
		os.MkdirAll(dir+"/a/d", 0o755),
		os.WriteFile(dir+"/a/b", []byte("base"), 0o644),
		os.WriteFile(dir+"/c", []byte("cc"), 0o600),
		os.Symlink("a", dir+"/l"),
		os.Symlink("../c", dir+"/a/l"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// Operands index these tables, so that short programs hit interesting
// cases (symlinks to directories, trailing slashes, "..") often.
var (
	fuzzPaths = []string{
		"/", "/a", "/b", "/l", "/a/b", "/a/c", "/b/a", "/l/a", "/a/b/c",
		"/a/l", "/a/", "/l/", "/a/.", "/a/..", "/b/../a", "/m/x", "/a/b/",
		"/c", "/l/l", "/b/c",
	}
	fuzzTargets = []string{
		"a", "/a", "../a", "b", "l", "/a/b", ".", "..", "nowhere", "/",
		"a/", "../../..", "l/a", "c", "/b/c",
	}
	// No directory mode with search but without read permission for the
	// owner: os.Root opens the directories it walks through, so a disk
	// root cannot pass them where the kernel can.
	fuzzModes = []fs.FileMode{0o755, 0o700, 0o644, 0o600, 0o555, 0o444, 0o1777, 0o711, 0o500}
)

type fuzzInstr struct{ op, a, b, c byte }

func (in fuzzInstr) path(x byte) string { return fuzzPaths[int(x)%len(fuzzPaths)] }

// run applies the instruction to fsys and returns a description and a
// canonical result: the errno name, or "ok" plus any output.
func (in fuzzInstr) run(fsys FS) (string, string) {
	p, q := in.path(in.a), in.path(in.b)
	data := strings.Repeat(string(rune('a'+in.c%26)), int(in.c%7))
	switch in.op % 18 {
	case 0:
		return "mkdir " + p, res("", fsys.Mkdir(p, 0o755))
	case 1:
		return "mkdirall " + p, res("", fsys.MkdirAll(p, 0o755))
	case 2:
		return "write " + p + " " + data, res("", writeFlags(fsys, p, data, os.O_WRONLY|os.O_CREATE|os.O_TRUNC))
	case 3:
		return "append " + p + " " + data, res("", writeFlags(fsys, p, data, os.O_WRONLY|os.O_CREATE|os.O_APPEND))
	case 4:
		return "excl " + p, res("", writeFlags(fsys, p, data, os.O_WRONLY|os.O_CREATE|os.O_EXCL))
	case 5:
		b, err := afero.ReadFile(fsys, p)
		return "read " + p, res(string(b), err)
	case 6:
		return "remove " + p, res("", fsys.Remove(p))
	case 7:
		return "removeall " + p, res("", fsys.RemoveAll(p))
	case 8:
		return "rename " + p + " " + q, res("", fsys.Rename(p, q))
	case 9:
		target := fuzzTargets[int(in.b)%len(fuzzTargets)]
		return "symlink " + target + " " + p, res("", fsys.SymlinkIfPossible(target, p))
	case 10:
		return "link " + p + " " + q, res("", fsys.(HardLinker).LinkIfPossible(p, q))
	case 11:
		fi, err := fsys.Stat(p)
		return "stat " + p, res(fuzzInfo(fi), err)
	case 12:
		fi, err := Lstat(fsys, p)
		return "lstat " + p, res(fuzzInfo(fi), err)
	case 13:
		s, err := fsys.ReadlinkIfPossible(p)
		return "readlink " + p, res(s, err)
	case 14:
		// Names only: disk ReadDir needs search permission (os.Root
		// lstats every entry), the kernel's getdents does not.
		s, err := listDir(fsys, p, false)
		return "ls " + p, res(s, err)
	case 15:
		n := int64(in.b % 9)
		f, err := fsys.OpenFile(p, os.O_RDWR, 0)
		if err == nil {
			err = f.Truncate(n)
			f.Close()
		}
		return fmt.Sprintf("truncate %s %d", p, n), res("", err)
	case 16:
		if Clean("/", p) == "/" {
			// Through os.Root even "/" is looked up (as "."), which needs
			// search permission on it; a kernel path walk does not.
			return "noop", "ok"
		}
		mode := fuzzModes[int(in.b)%len(fuzzModes)]
		return fmt.Sprintf("chmod %s %o", p, mode), res("", fsys.Chmod(p, mode))
	case 17:
		flags := []int{
			os.O_RDONLY | os.O_TRUNC, os.O_WRONLY | syscall.O_NOFOLLOW, os.O_RDWR | os.O_CREATE,
			os.O_RDONLY | syscall.O_DIRECTORY, os.O_WRONLY | os.O_CREATE | os.O_EXCL,
		}
		flag := flags[int(in.b)%len(flags)]
		f, err := fsys.OpenFile(p, flag, 0o640)
		out := ""
		if err == nil {
			if flag&(os.O_WRONLY|os.O_RDWR) != 0 {
				_, err = f.WriteAt([]byte(data), int64(in.c%5))
			} else if fi, e := f.Stat(); e == nil && !fi.IsDir() {
				var b []byte
				b, err = io.ReadAll(f)
				out = string(b)
			}
			f.Close()
		}
		return fmt.Sprintf("open %s %#x", p, flag), res(out, err)
	}
	panic("unreachable")
}

func res(out string, err error) string {
	if err != nil {
		e := errnoOf(err)
		if e == 0 {
			return "error " + err.Error()
		}
		return errnoName(e)
	}
	return "ok " + out
}

func fuzzInfo(fi fs.FileInfo) string {
	if fi == nil {
		return ""
	}
	s := typeString(fi)
	if fi.IsDir() {
		s = "d"
	}
	return fmt.Sprintf("%s %s nlink=%d", s, modeString(fi.Mode()), MetaOf(fi).Nlink)
}

// fuzzTree renders a whole tree (lstat view and contents) canonically.
func fuzzTree(fsys FS) string {
	var lines []string
	var walk func(p string)
	walk = func(p string) {
		f, err := fsys.Open(p)
		if err != nil {
			lines = append(lines, p+" unreadable "+res("", err))
			return
		}
		names, err := f.Readdirnames(-1)
		f.Close()
		if err != nil {
			lines = append(lines, p+" unlistable "+res("", err))
			return
		}
		sort.Strings(names)
		for _, n := range names {
			c := joinPath(p, n)
			fi, err := Lstat(fsys, c)
			if err != nil {
				lines = append(lines, c+" "+res("", err))
				continue
			}
			line := c + " " + fuzzInfo(fi)
			switch {
			case fi.Mode()&fs.ModeSymlink != 0:
				target, _ := fsys.ReadlinkIfPossible(c)
				line += " -> " + target
			case fi.Mode().IsRegular():
				b, err := afero.ReadFile(fsys, c)
				line += " " + res(string(b), err)
			}
			lines = append(lines, line)
			if fi.IsDir() {
				walk(c)
			}
		}
	}
	walk("/")
	return strings.Join(lines, "\n")
}
