package vfs

import (
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
)

func TestMain(m *testing.M) {
	// Mode expectations in the scripts assume the usual umask, which the
	// host filesystems apply and MemFS defaults to.
	syscall.Umask(0o022)
	os.Exit(m.Run())
}

// fsFactory makes a fresh, empty filesystem for a test.
type fsFactory struct {
	name string
	new  func(t *testing.T) FS
}

// allFS lists every filesystem the POSIX conformance scripts must pass
// on: they describe behaviour shared by MemFS (as the sandbox user and as
// root), a disk root, and overlays whose lower-backed root is empty.
func allFS() []fsFactory {
	return []fsFactory{
		{"mem", func(t *testing.T) FS { return NewMem() }},
		{"mem-root", func(t *testing.T) FS { return NewMem(WithUser(0, 0)) }},
		{"disk", func(t *testing.T) FS {
			fsys, err := NewDisk(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { fsys.(*RootFS).Close() })
			return fsys
		}},
		{"overlay", func(t *testing.T) FS {
			fsys, err := NewOverlay(t.TempDir(), "/")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { fsys.(*MemFS).Close() })
			return fsys
		}},
		// Path lists that allow everything still resolve every name
		// themselves and hand the filesystem the resolved path: the
		// behaviour must not change.
		{"paths-mem", func(t *testing.T) FS {
			return RestrictPaths(NewMem(), PathRules{Read: []string{"/"}, Write: []string{"/"}})
		}},
		{"paths-disk", func(t *testing.T) FS {
			fsys, err := NewDisk(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { fsys.(*RootFS).Close() })
			return RestrictPaths(fsys, PathRules{Read: []string{"/"}, Write: []string{"/"}})
		}},
	}
}

// symlinkChain builds links /c1 -> /target, /cN -> cN-1.
func symlinkChain(n int) string {
	var b strings.Builder
	b.WriteString("write /target x\nsymlink target /c1\n")
	for i := 2; i <= n; i++ {
		fmt.Fprintf(&b, "symlink c%d /c%d\n", i-1, i)
	}
	return b.String()
}

var conformScripts = []struct{ name, script string }{
	{"files", `
		write /f hello
		read /f => hello
		stat /f => f5
		append /f world
		read /f => helloworld
		write /f x
		read /f => x
		excl /f => EEXIST
		excl /g
		read /g =>
		read /missing => ENOENT
		write /x/y z => ENOENT
		write /f/y z => ENOTDIR
		stat /f/ => ENOTDIR
		read /f/ => ENOTDIR
		write /new/ x => EISDIR
		trunc /f 0
		read /f =>
		write /f hello
		trunc /f 2
		read /f => he
		trunc /f 7
		stat /f => f7
		ls / => f g
	`},
	{"dirs", `
		mkdir /d
		stat /d => d
		stat /d/ => d
		mkdir /d => EEXIST
		mkdir /d/ => EEXIST
		mkdir /e/
		stat /e => d
		mkdir /x/y => ENOENT
		write /f x
		mkdir /f => EEXIST
		mkdir /f/y => ENOTDIR
		read /d => EISDIR
		openw /d => EISDIR
		write /d x => EISDIR
		opendir /d
		opendir /f => ENOTDIR
		mkdirall /a/b/c
		mkdirall /a/b/c
		stat /a/b/c => d
		mkdirall /f/x => ENOTDIR
		mkdirall /a/./b/../b/d
		stat /a/b/d => d
		write /d/b 1
		write /d/a 1
		mkdir /d/c
		symlink a /d/l
		lsl /d => a b c/ l@
		ls /a/b => c d
		stat /d/../f => f1
		stat /../../f => f1
	`},
	{"remove", `
		mkdir /d
		write /d/f x
		rm /d => ENOTEMPTY
		rm /d/f
		rm /d
		rm /d => ENOENT
		rm /nothing/x => ENOENT
		write /f x
		rm /f/ => ENOTDIR
		mkdirall /a/b/c
		write /a/b/c/f x
		symlink /a /s
		rmall /s
		lstat /s => ENOENT
		stat /a/b/c/f => f1
		rmall /a
		stat /a => ENOENT
		rmall /nothing
		rmall /f/x => ENOTDIR
		mkdir /e
		symlink /e /se
		rm /se/ => ENOTDIR
		rm /se
		stat /e => d
	`},
	{"symlinks", `
		mkdir /d
		write /d/f data
		symlink f /d/rel
		symlink /d/f /abs
		symlink ../d/f /up
		symlink ./d/../d/./f /dots
		read /d/rel => data
		read /abs => data
		read /up => data
		read /dots => data
		readlink /d/rel => f
		readlink /abs => /d/f
		readlink /d/f => EINVAL
		readlink /missing => ENOENT
		lstat /abs => l
		stat /abs => f4
		symlink nowhere /dangling
		stat /dangling => ENOENT
		lstat /dangling => l
		read /dangling => ENOENT
		excl /dangling => EEXIST
		write /dangling new
		read /nowhere => new
		symlink loop /loop
		stat /loop => ELOOP
		read /loop => ELOOP
		lstat /loop => l
		symlink b /a
		symlink a /b
		stat /a/x => ELOOP
		symlink /d /dl
		lstat /dl/ => d
		lstat /dl => l
		stat /dl/f => f4
		symlink x /d/rel => EEXIST
		symlink x /dangling => EEXIST
		symlink x /d => EEXIST
		symlink x /nodir/l => ENOENT
		mkdirall /dl/sub
		stat /d/sub => d
		ls /dl => f rel sub
		symlink missing /dm
		mkdirall /dm => EEXIST
		mkdirall /dm/x => EEXIST
		write /d/f2 y
		symlink f2/ /d/slash
		stat /d/slash => ENOTDIR
		symlink / /root
		stat /root => d
		stat /root/d/f => f4
	`},
	{"chain40", symlinkChain(41) + `
		read /c40 => x
		read /c41 => ELOOP
	`},
	{"hardlinks", `
		write /f abc
		link /f /g
		nlink /f => 2
		ino /f X
		ino /g X => same
		ino /abc Y => ENOENT
		append /g def
		read /f => abcdef
		rm /f
		read /g => abcdef
		nlink /g => 1
		mkdir /d
		link /d /dd => EPERM
		link /g /d => EEXIST
		link /missing /h => ENOENT
		link /g /nodir/h => ENOENT
		symlink g /s
		link /s /s2
		lstat /s2 => l
		read /s2 => abcdef
	`},
	{"rename", `
		write /f 1
		write /g 2
		rename /f /g
		read /g => 1
		stat /f => ENOENT
		mkdir /d
		mkdir /e
		write /e/x 1
		rename /d /e => ENOTEMPTY
		rm /e/x
		rename /d /e
		stat /d => ENOENT
		stat /e => d
		write /h 3
		rename /h /e => EISDIR
		rename /e /g => ENOTDIR
		rename /h /h
		mkdirall /a/b
		rename /a /a/b/c => EINVAL
		rename /a /a/c => EINVAL
		rename /missing /z => ENOENT
		rename /g /nodir/z => ENOENT
		rename /g /h/z => ENOTDIR
		link /g /g2
		rename /g /g2
		read /g => 1
		read /g2 => 1
		rename /g / => EBUSY
		mkdir /p
		mkdir /q
		mkdir /p/c
		nlink /p => 3
		rename /p/c /q/c
		nlink /p => 2
		nlink /q => 3
		symlink /q /sq
		rename /sq /sq2
		readlink /sq2 => /q
		rename /g/ /x => ENOTDIR
		rename /q /r/
		stat /r/c => d
	`},
	{"modes", `
		write /f x
		mode /f => 644
		chmod /f 600
		mode /f => 600
		chmod /f 4755
		mode /f => 4755
		mkdir /t 1777
		mode /t => 1755
		chmod /t 1777
		mode /t => 1777
		mkdir /u 700
		mode /u => 700
		symlink f /l
		mode /l => 777
		chmod /l 640
		mode /f => 640
		chmod /missing 644 => ENOENT
	`},
}

func TestConformance(t *testing.T) {
	for _, f := range allFS() {
		for _, s := range conformScripts {
			t.Run(f.name+"/"+s.name, func(t *testing.T) {
				fsys := f.new(t)
				runScript(t, fsys, s.script)
				if m, ok := fsys.(*MemFS); ok {
					checkInvariants(t, m)
				}
			})
		}
	}
}

// TestReaddirSortedEverywhere: every FS lists directories in byte order,
// in batches too, so that sandbox output never depends on the backend.
func TestReaddirSortedEverywhere(t *testing.T) {
	names := []string{"zz", "b", "A", "a", "10", "9", "_"}
	for _, f := range allFS() {
		t.Run(f.name, func(t *testing.T) {
			fsys := f.new(t)
			for _, n := range names {
				mustWrite(t, fsys, "/d/"+n, n)
			}
			dir, err := fsys.Open("/d")
			if err != nil {
				t.Fatal(err)
			}
			defer dir.Close()
			var got []string
			for {
				batch, err := dir.Readdir(3)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				for _, fi := range batch {
					got = append(got, fi.Name())
				}
			}
			if want := "10 9 A _ a b zz"; strings.Join(got, " ") != want {
				t.Fatalf("listing %q, want %q", strings.Join(got, " "), want)
			}
			dir.Seek(0, io.SeekStart)
			all, err := dir.Readdirnames(-1)
			if err != nil || len(all) != len(names) || all[0] != "10" {
				t.Fatalf("after rewind: %v %v", all, err)
			}
		})
	}
}
