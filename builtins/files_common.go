package builtins

// Helpers shared by the files group (cat, ls, cp, mv, rm, find, stat, ...).
// Everything here works on the sandbox filesystem through an Env.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/afero"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
	"github.com/sandsh/sandsh/builtins/internal/gdate"

	"github.com/sandsh/sandsh/vfs"
)

// filesUmask is the creation mask of the filesystem view: the memory
// filesystem carries it in its credentials, like a process umask;
// otherwise the usual 022.
func filesUmask(fsys vfs.FS) fs.FileMode {
	if c, ok := fsys.(interface{ Cred() vfs.Cred }); ok {
		return c.Cred().Umask & fs.ModePerm
	}
	return 0o022
}

// filesBufSize is the buffer size for streaming reads and writes.
const filesBufSize = 64 << 10

// filesNewWriter buffers w for output written as it is produced.
func filesNewWriter(w io.Writer) *bufio.Writer { return bufio.NewWriterSize(w, filesBufSize) }

// filesLstat stats a user-given path without following a final symlink.
func filesLstat(env *Env, name string) (fs.FileInfo, error) {
	return vfs.Lstat(env.FS, env.Abs(name))
}

// filesStat stats a user-given path, following symlinks.
func filesStat(env *Env, name string) (fs.FileInfo, error) {
	return env.FS.Stat(env.Abs(name))
}

// filesIsLink reports whether fi describes a symbolic link.
func filesIsLink(fi fs.FileInfo) bool { return fi.Mode()&fs.ModeSymlink != 0 }

// filesSymlinksWork reports whether err from SymlinkIfPossible means the
// filesystem cannot hold symlinks at all.
func filesNoSymlinks(err error) bool {
	return errors.Is(err, afero.ErrNoSymlink) || errors.Is(err, afero.ErrNoReadlink)
}

// filesReadDir lists a directory (absolute path) sorted by name in byte
// order, the order GNU tools show in the C locale.
func filesReadDir(fsys vfs.FS, dir string) ([]fs.FileInfo, error) {
	f, err := fsys.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && !fi.IsDir() {
		return nil, &fs.PathError{Op: "readdir", Path: dir, Err: syscall.ENOTDIR}
	}
	list, err := f.Readdir(-1)
	if err != nil && err != io.EOF {
		return nil, err
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name() < list[j].Name() })
	return list, nil
}

// filesDirNames lists the names in a directory, sorted.
func filesDirNames(fsys vfs.FS, dir string) ([]string, error) {
	list, err := filesReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(list))
	for i, fi := range list {
		names[i] = fi.Name()
	}
	return names, nil
}

// filesJoin joins a user-visible directory path and a name the way GNU
// tools print it: "dir/name", without doubling a trailing slash.
func filesJoin(dir, name string) string {
	if dir == "" {
		return name
	}
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}

// filesSize is the st_size of fi: directories report 4096 as on disk.
func filesSize(fi fs.FileInfo) int64 { return fileutil.Size(fi) }

// filesBlocks is the st_blocks (512-byte units) of fi.
func filesBlocks(fi fs.FileInfo) int64 { return fileutil.Blocks(fi) }

// filesFileType names a file's type the way stat %F does.
func filesFileType(fi fs.FileInfo) string {
	m := fi.Mode()
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "fifo"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character special file"
	case m&fs.ModeDevice != 0:
		return "block special file"
	case fi.Size() == 0:
		return "regular empty file"
	}
	return "regular file"
}

// filesUserName maps a uid to the sandbox's user names.
func filesUserName(env *Env, uid int) string {
	sys := env.System()
	switch {
	case uid == sys.UID:
		return sys.User
	case uid == 0:
		return "root"
	case uid == vfs.DefaultUID:
		return vfs.DefaultUser
	}
	return strconv.Itoa(uid)
}

// filesGroupName maps a gid to the sandbox's group names, which mirror
// the user names.
func filesGroupName(env *Env, gid int) string {
	sys := env.System()
	switch {
	case gid == sys.GID:
		return sys.User
	case gid == 0:
		return "root"
	case gid == vfs.DefaultGID:
		return vfs.DefaultUser
	}
	return strconv.Itoa(gid)
}

// filesLookupUser resolves a user name or number to a uid.
func filesLookupUser(env *Env, name string) (int, bool) {
	if n, err := strconv.Atoi(name); err == nil && n >= 0 {
		return n, true
	}
	sys := env.System()
	switch name {
	case sys.User:
		return sys.UID, true
	case "root":
		return 0, true
	case vfs.DefaultUser:
		return vfs.DefaultUID, true
	}
	return 0, false
}

// filesLocation is the time zone named by $TZ (UTC when unset), read the
// way date does.
func filesLocation(env *Env) *time.Location {
	return gdate.LoadTZ(env.LookupEnv("TZ"))
}

// filesErrorf prints "name: message: strerror" like GNU's error().
func filesErrorf(env *Env, name string, err error, format string, a ...any) {
	fmt.Fprintf(env.Stderr, "%s: %s: %s\n", name, fmt.Sprintf(format, a...), ErrText(err))
}

// filesSlashErr is the error the kernel gives for a name with a trailing
// slash that names an existing non-directory (the sandbox cleans paths,
// so the filesystem never sees the slash).
func filesSlashErr(env *Env, name string) error {
	if !strings.HasSuffix(name, "/") || strings.Trim(name, "/") == "" {
		return nil
	}
	if fi, err := filesStat(env, name); err == nil && !fi.IsDir() {
		return syscall.ENOTDIR
	}
	return nil
}

// filesLoopGuard tracks the directories on the current walk by canonical
// path, so that walks following symlinks notice when they go round in a
// loop.
type filesLoopGuard struct {
	fsys  vfs.FS
	stack []string
}

// enter pushes the directory abs and reports false, without pushing,
// when it is already being walked.
func (g *filesLoopGuard) enter(abs string) bool {
	c, err := filesResolve(g.fsys, abs, filesResolveMissing)
	if err != nil {
		c = abs
	}
	for _, s := range g.stack {
		if s == c {
			return false
		}
	}
	g.stack = append(g.stack, c)
	return true
}

func (g *filesLoopGuard) leave() { g.stack = g.stack[:len(g.stack)-1] }

// filesIsDir reports whether a user path names a directory (following
// symlinks).
func filesIsDir(env *Env, name string) bool {
	fi, err := filesStat(env, name)
	return err == nil && fi.IsDir()
}

// filesParentOK checks that the parent of abs exists and is a directory,
// which GNU tools get from the kernel and the placeholder FS does not
// enforce.
func filesParentOK(fsys vfs.FS, abs string) error {
	dir := path.Dir(abs)
	fi, err := fsys.Stat(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if _, lerr := vfs.Lstat(fsys, dir); lerr != nil {
				// A missing ancestor may be a file: report what the
				// kernel would.
				return filesAncestorError(fsys, dir)
			}
		}
		return err
	}
	if !fi.IsDir() {
		return syscall.ENOTDIR
	}
	return nil
}

// filesAncestorError finds whether a missing path runs through a
// non-directory (ENOTDIR) or simply does not exist (ENOENT).
func filesAncestorError(fsys vfs.FS, p string) error {
	for d := p; d != "/" && d != "."; d = path.Dir(d) {
		fi, err := fsys.Stat(d)
		if err == nil {
			if !fi.IsDir() {
				return syscall.ENOTDIR
			}
			return syscall.ENOENT
		}
	}
	return syscall.ENOENT
}

// filesStatErr cleans up a stat error for printing: a lookup through a
// regular file is "Not a directory".
func filesStatErr(fsys vfs.FS, abs string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return filesAncestorError(fsys, path.Dir(abs))
	}
	return err
}

// filesCreate opens abs for writing (truncating) with GNU's checks on
// the parent, creating it with perm (before umask) when missing.
func filesCreate(fsys vfs.FS, abs string, flag int, perm fs.FileMode) (afero.File, error) {
	if fi, err := fsys.Stat(abs); err == nil && fi.IsDir() {
		return nil, syscall.EISDIR
	}
	if err := filesParentOK(fsys, abs); err != nil {
		return nil, err
	}
	return fsys.OpenFile(abs, flag, perm&^filesUmask(fsys))
}

// filesWriteErr marks an error as a failed write, so that callers can
// tell it from a read error.
type filesWriteErr struct{ err error }

func (e filesWriteErr) Error() string { return e.err.Error() }
func (e filesWriteErr) Unwrap() error { return e.err }

// filesCopyData copies r to w with a large buffer, marking write errors
// so callers can report them as such.
func filesCopyData(w io.Writer, r io.Reader, buf []byte) (int64, error) {
	var total int64
	for {
		n, rerr := r.Read(buf)
		if n > 0 {
			m, werr := w.Write(buf[:n])
			total += int64(m)
			if werr != nil {
				return total, filesWriteErr{werr}
			}
			if m < n {
				return total, filesWriteErr{io.ErrShortWrite}
			}
		}
		if rerr == io.EOF {
			return total, nil
		}
		if rerr != nil {
			return total, rerr
		}
	}
}

// filesSameFile reports whether two absolute paths name the same file:
// by inode when the filesystem has them, else by canonical path.
func filesSameFile(fsys vfs.FS, a, b string) bool {
	fa, err1 := fsys.Stat(a)
	fb, err2 := fsys.Stat(b)
	if err1 != nil || err2 != nil {
		return false
	}
	ma, mb := vfs.MetaOf(fa), vfs.MetaOf(fb)
	if ma.Ino != 0 && mb.Ino != 0 {
		return ma.Ino == mb.Ino
	}
	ca, err1 := filesResolve(fsys, a, filesResolveExisting)
	cb, err2 := filesResolve(fsys, b, filesResolveExisting)
	return err1 == nil && err2 == nil && ca == cb
}

// How filesResolve treats missing components (readlink -e, -f, -m).
const (
	filesResolveExisting   = iota // every component must exist
	filesResolveAllButLast        // all but the last must exist
	filesResolveMissing           // nothing need exist
)

// filesMaxLinks bounds symlink expansion, like the kernel's ELOOP limit.
const filesMaxLinks = 40

// filesResolve returns the canonical form of the absolute path abs, with
// every symlink expanded, the way readlink -f/-e/-m do.
func filesResolve(fsys vfs.FS, abs string, mode int) (string, error) {
	rest := strings.Split(abs, "/")
	resolved := "/"
	links := 0
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			resolved = path.Dir(resolved)
			continue
		}
		next := path.Join(resolved, c)
		last := filesOnlyEmpty(rest)
		fi, err := vfs.Lstat(fsys, next)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && (mode == filesResolveMissing || mode == filesResolveAllButLast && last) {
				resolved = next
				continue
			}
			return "", err
		}
		if filesIsLink(fi) {
			links++
			if links > filesMaxLinks {
				return "", syscall.ELOOP
			}
			target, err := fsys.ReadlinkIfPossible(next)
			if err != nil {
				return "", err
			}
			if strings.HasPrefix(target, "/") {
				resolved = "/"
			}
			rest = append(strings.Split(target, "/"), rest...)
			continue
		}
		if !fi.IsDir() && !last {
			if mode == filesResolveMissing {
				resolved = next
				continue
			}
			return "", syscall.ENOTDIR
		}
		resolved = next
	}
	return resolved, nil
}

// filesOnlyEmpty reports whether the remaining components are all empty
// or ".", i.e. the current component is the last one.
func filesOnlyEmpty(rest []string) bool {
	for _, c := range rest {
		if c != "" && c != "." {
			return false
		}
	}
	return true
}

// filesWalkBelow calls change for everything below the directory name
// (at abs), parents before children, without following symlinks (GNU's
// -R with -P), as chmod, chown and chgrp -R do. It stops when ctx is
// done and reports false when a directory could not be read.
func filesWalkBelow(ctx context.Context, env *Env, cmd, name, abs string, quiet bool, change func(name, abs string, fi fs.FileInfo)) bool {
	list, err := filesReadDir(env.FS, abs)
	if err != nil {
		if !quiet {
			env.Errorf(cmd, "cannot read directory %s: %s", fileutil.Quote(name), ErrText(err))
		}
		return false
	}
	ok := true
	for _, fi := range list {
		if ctx.Err() != nil {
			return ok
		}
		if filesIsLink(fi) {
			continue
		}
		cn, cabs := filesJoin(name, fi.Name()), path.Join(abs, fi.Name())
		change(cn, cabs, fi)
		if fi.IsDir() && !filesWalkBelow(ctx, env, cmd, cn, cabs, quiet, change) {
			ok = false
		}
	}
	return ok
}
