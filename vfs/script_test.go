package vfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"
)

// This file holds a tiny script language for filesystem tests, so that
// the same POSIX expectations can be checked, table-driven, against every
// FS of the package. One step per line:
//
//	op arg... [=> want]
//
// want is an errno name (ENOENT, ...) for an expected failure, or the
// expected output of a query op; without "=>" the step must succeed.
//
//	mkdir P [MODE]     mkdirall P     rm P     rmall P
//	write P DATA       append P DATA  excl P   trunc P N
//	read P             readlink P     ls P     lsl P
//	symlink TARGET P   link OLD NEW   rename OLD NEW
//	stat P             lstat P        nlink P  mode P
//	chmod P MODE       openr P        openw P  opendir P
//	ino P              (prints the inode number: compare with "same")
//
// read shows newlines as \n; stat prints "d", "l" or "f<size>"; lsl prints names with "/" for
// directories and "@" for symlinks; mode prints the octal permission
// (with set-id/sticky bits as 4/2/1 thousands).

// errnoNames maps names used in scripts to errnos.
var errnoNames = map[string]syscall.Errno{
	"ENOENT": syscall.ENOENT, "ENOTDIR": syscall.ENOTDIR, "EISDIR": syscall.EISDIR,
	"ENOTEMPTY": syscall.ENOTEMPTY, "EEXIST": syscall.EEXIST, "ELOOP": syscall.ELOOP,
	"EINVAL": syscall.EINVAL, "EACCES": syscall.EACCES, "EPERM": syscall.EPERM,
	"EXDEV": syscall.EXDEV, "ENOSPC": syscall.ENOSPC, "EFBIG": syscall.EFBIG,
	"EBUSY": syscall.EBUSY, "EBADF": syscall.EBADF, "ENAMETOOLONG": syscall.ENAMETOOLONG,
	"EROFS": syscall.EROFS,
}

func errnoName(e syscall.Errno) string {
	for k, v := range errnoNames {
		if v == e {
			return k
		}
	}
	return fmt.Sprintf("errno(%d)", int(e))
}

// runScript runs script on fsys, failing t on the first mismatch.
func runScript(t *testing.T, fsys FS, script string) {
	t.Helper()
	inos := map[string]uint64{}
	for i, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cmd, want, hasWant := strings.Cut(line, "=>")
		cmd, want = strings.TrimSpace(cmd), strings.TrimSpace(want)
		args := strings.Fields(cmd)
		got, err := scriptStep(fsys, args, inos)
		switch {
		case err != nil:
			e := errnoOf(err)
			if e == 0 {
				t.Fatalf("line %d %q: error without errno: %v", i+1, line, err)
			}
			if !hasWant || want != errnoName(e) {
				t.Fatalf("line %d %q: got error %v (%s), want %q", i+1, line, err, errnoName(e), want)
			}
			checkErrorShape(t, line, err)
		case hasWant && want != got:
			t.Fatalf("line %d %q: got %q, want %q", i+1, line, got, want)
		case !hasWant && got != "":
			t.Fatalf("line %d %q: unexpected output %q", i+1, line, got)
		}
	}
}

// checkErrorShape insists on *fs.PathError / *os.LinkError wrapping, so
// that messages read "op path: text" like package os.
func checkErrorShape(t *testing.T, line string, err error) {
	t.Helper()
	var pe *fs.PathError
	var le *os.LinkError
	if !errors.As(err, &pe) && !errors.As(err, &le) {
		t.Fatalf("%q: error %T is neither *fs.PathError nor *os.LinkError", line, err)
	}
}

func arg(args []string, i int) string {
	if i < len(args) {
		return args[i]
	}
	return ""
}

func octal(s string) fs.FileMode {
	n, err := strconv.ParseUint(s, 8, 32)
	if err != nil {
		panic(err)
	}
	return fs.FileMode(n)
}

func scriptStep(fsys FS, args []string, inos map[string]uint64) (string, error) {
	p, q := arg(args, 1), arg(args, 2)
	switch args[0] {
	case "mkdir":
		mode := fs.FileMode(0o755)
		if q != "" {
			mode = octal(q)
		}
		return "", fsys.Mkdir(p, mode)
	case "mkdirall":
		return "", fsys.MkdirAll(p, 0o755)
	case "rm":
		return "", fsys.Remove(p)
	case "rmall":
		return "", fsys.RemoveAll(p)
	case "write":
		return "", writeFlags(fsys, p, q, os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
	case "append":
		return "", writeFlags(fsys, p, q, os.O_WRONLY|os.O_CREATE|os.O_APPEND)
	case "excl":
		return "", writeFlags(fsys, p, q, os.O_WRONLY|os.O_CREATE|os.O_EXCL)
	case "trunc":
		n, _ := strconv.ParseInt(q, 10, 64)
		f, err := fsys.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			return "", err
		}
		defer f.Close()
		return "", f.Truncate(n)
	case "read":
		b, err := afero.ReadFile(fsys, p)
		return strings.ReplaceAll(string(b), "\n", `\n`), err
	case "readlink":
		return fsys.ReadlinkIfPossible(p)
	case "ls", "lsl":
		return listDir(fsys, p, args[0] == "lsl")
	case "symlink":
		return "", fsys.SymlinkIfPossible(p, q)
	case "link":
		hl, ok := fsys.(HardLinker)
		if !ok {
			return "", errors.New("no hard links")
		}
		return "", hl.LinkIfPossible(p, q)
	case "rename":
		return "", fsys.Rename(p, q)
	case "stat", "lstat":
		var fi fs.FileInfo
		var err error
		if args[0] == "stat" {
			fi, err = fsys.Stat(p)
		} else {
			fi, err = Lstat(fsys, p)
		}
		if err != nil {
			return "", err
		}
		return typeString(fi), nil
	case "nlink":
		fi, err := Lstat(fsys, p)
		if err != nil {
			return "", err
		}
		return strconv.FormatUint(MetaOf(fi).Nlink, 10), nil
	case "ino":
		fi, err := Lstat(fsys, p)
		if err != nil {
			return "", err
		}
		ino := MetaOf(fi).Ino
		if prev, ok := inos[q]; ok {
			if prev == ino {
				return "same", nil
			}
			return "different", nil
		}
		inos[q] = ino
		return "", nil
	case "mode":
		fi, err := Lstat(fsys, p)
		if err != nil {
			return "", err
		}
		return modeString(fi.Mode()), nil
	case "chmod":
		return "", fsys.Chmod(p, octal(q))
	case "openr", "openw", "opendir":
		flag := os.O_RDONLY
		if args[0] == "openw" {
			flag = os.O_WRONLY
		}
		f, err := fsys.OpenFile(p, flag, 0)
		if err != nil {
			return "", err
		}
		defer f.Close()
		if args[0] == "opendir" {
			_, err = f.Readdirnames(-1)
		}
		return "", err
	}
	panic("unknown script op " + args[0])
}

func writeFlags(fsys FS, name, data string, flag int) error {
	f, err := fsys.OpenFile(name, flag, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(f, data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func typeString(fi fs.FileInfo) string {
	switch {
	case fi.IsDir():
		return "d"
	case fi.Mode()&fs.ModeSymlink != 0:
		return "l"
	}
	return "f" + strconv.FormatInt(fi.Size(), 10)
}

func modeString(m fs.FileMode) string {
	v := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		v |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		v |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		v |= 0o1000
	}
	return fmt.Sprintf("%o", v)
}

func listDir(fsys FS, name string, types bool) (string, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var names []string
	if types {
		rd, ok := f.(interface {
			ReadDir(int) ([]fs.DirEntry, error)
		})
		if !ok {
			return "", errors.New("no ReadDir")
		}
		ents, err := rd.ReadDir(-1)
		if err != nil {
			return "", err
		}
		for _, e := range ents {
			n := e.Name()
			switch {
			case e.IsDir():
				n += "/"
			case e.Type()&fs.ModeSymlink != 0:
				n += "@"
			}
			names = append(names, n)
		}
		sort.Strings(names)
	} else {
		names, err = f.Readdirnames(-1)
		if err != nil {
			return "", err
		}
		// The host lists in directory order; MemFS must already be sorted,
		// which TestMemReaddirSorted checks separately.
		sort.Strings(names)
	}
	return strings.Join(names, " "), nil
}
