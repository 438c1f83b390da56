package vfs

import (
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
	"time"

	"github.com/spf13/afero"
)

// NewDisk returns a filesystem on the host disk.
//
// With root == "" it is the plain host filesystem: sandbox paths are host
// paths and nothing is confined (afero.OsFs plus symlinks, hard links and
// *Meta from the host stat data). Use it only where the host is meant to
// be changed.
//
// With a root directory, sandbox path "/a/b" means root/a/b and nothing
// can reach outside root. Paths are walked component by component here,
// with symlinks read and resolved against the sandbox root (so an
// absolute target "/etc/passwd" means root/etc/passwd and "../../.."
// stops at root, as chroot would do), and the symlink-free result is then
// handed to an os.Root, which refuses anything that would still leave the
// tree (e.g. a symlink swapped in by a racing host process): such paths
// fail with EACCES. Symlink targets are stored verbatim on the host, so
// host programs following them outside sandsh see host paths.
//
// Permissions are the kernel's, for the user sandsh runs as, with two
// differences that come from os.Root opening the directories it walks:
// a directory needs read (not only search) permission to be walked
// through, and "/" itself needs search permission. Directory listings are
// sorted by name, like MemFS's. Close (on *RootFS) releases the root.
func NewDisk(root string) (FS, error) {
	if root == "" {
		return hostFS{}, nil
	}
	return newRoot(root)
}

// NewRestrictedDisk is the whole host disk for a restricted run (--fs
// disk -r): NewDisk("") except that opens never follow /proc's magic
// links and refuse /proc's per-process directories, so that no path
// reaches sandsh's own descriptors, memory or pids (see openGuarded).
func NewRestrictedDisk() FS { return hostFS{guard: true} }

func newRoot(root string) (FS, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("vfs: opening sandbox root: %w", err)
	}
	return &RootFS{r: r, uid: os.Geteuid(), gid: os.Getegid(),
		inos: map[fileID]uint64{}, owned: map[fileID]bool{}}, nil
}

// hostFS is the unconfined host filesystem.
type hostFS struct {
	afero.OsFs
	guard bool // see NewRestrictedDisk
}

func (hostFS) Name() string { return "HostFS" }

func (h hostFS) Create(name string) (afero.File, error) {
	return h.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (h hostFS) Open(name string) (afero.File, error) { return h.OpenFile(name, os.O_RDONLY, 0) }

func (h hostFS) OpenFile(name string, flag int, perm fs.FileMode) (afero.File, error) {
	open := os.OpenFile
	if h.guard {
		open = openGuarded
	}
	f, err := open(name, flag, sysPerm(perm))
	if err != nil {
		return nil, err
	}
	lstat := func(entry string) (fs.FileInfo, error) { return os.Lstat(filepath.Join(name, entry)) }
	return &diskFile{File: f, name: name, lstat: lstat}, nil
}

func (hostFS) Mkdir(name string, perm fs.FileMode) error { return os.Mkdir(name, sysPerm(perm)) }

func (hostFS) MkdirAll(name string, perm fs.FileMode) error {
	return os.MkdirAll(name, sysPerm(perm))
}

func (hostFS) Chmod(name string, mode fs.FileMode) error { return os.Chmod(name, sysPerm(mode)) }

func (hostFS) Stat(name string) (fs.FileInfo, error) {
	fi, err := os.Stat(name)
	return withMeta(fi, ""), err
}

func (hostFS) LstatIfPossible(name string) (fs.FileInfo, bool, error) {
	fi, err := os.Lstat(name)
	return withMeta(fi, ""), true, err
}

func (hostFS) LinkIfPossible(oldname, newname string) error { return os.Link(oldname, newname) }

// sysPerm maps raw octal set-id/sticky bits to Go's mode bits, which is
// what os.Chmod and friends understand.
func sysPerm(m fs.FileMode) fs.FileMode { return m.Type() | normPerm(m) }

// RootFS is a host directory seen as the whole sandbox filesystem.
// See NewDisk.
//
// It shows the sandbox's virtual identity, not the host's: files owned by
// the user sandsh runs as belong to the sandbox user (DefaultUID and
// DefaultGID), every other owner is shown as root, and inode numbers are
// small numbers handed out in the order files are first seen, so that no
// host uid, gid or inode number reaches the script.
//
// Hard links: a regular file with more than one link may share its inode
// with a name outside the root (an operator's package store or object
// cache), and nothing tells where its other names are. Such a file is
// never changed in place: opening it for writing, truncating it, chmod,
// chown and touch first break the link (the file is copied next to
// itself and the copy renamed over the name, so the outside name keeps
// the old inode and contents). Inodes whose every name is known to lie
// inside the root (created by this run, or linked by it while they had a
// single name) are written in place, so `ln a b; echo x >> b` behaves as
// on any disk. Breaking was chosen over refusing because scripts that
// edit files in a tree handed to them must keep working; the cost is a
// copy of the file on its first change.
type RootFS struct {
	r        *os.Root
	uid, gid int // host ids shown as the sandbox user

	mu    sync.Mutex
	inos  map[fileID]uint64 // host file -> virtual inode number
	owned map[fileID]bool   // inodes with every name inside the root
	tmpN  uint64            // names for link-breaking copies
}

// fileID names a host inode.
type fileID struct{ dev, ino uint64 }

// Name implements afero.Fs.
func (d *RootFS) Name() string { return "RootFS" }

// Close releases the root directory.
func (d *RootFS) Close() error { return d.r.Close() }

// resolve turns sandbox path name into a path relative to the root whose
// components are, at the time of the walk, free of symlinks (the last one
// only when follow is set). Like the kernel it follows at most 40 links,
// needs intermediate components to be directories and keeps a trailing
// slash. ".." never climbs above the root.
func (d *RootFS) resolve(name string, follow bool) (string, error) {
	if name == "" {
		return "", syscall.ENOENT
	}
	if len(name) >= maxPathLen {
		return "", syscall.ENAMETOOLONG
	}
	trailing := hasTrailingSlash(name)
	comps := splitPath(name)
	var done []string
	hops := 0
	for len(comps) > 0 {
		c := comps[0]
		comps = comps[1:]
		last := len(comps) == 0
		if c == "." || c == ".." {
			// The kernel needs search permission on a directory to look
			// up even "." or ".." in it; ask it, then walk lexically
			// (done holds no symlinks, so that is the physical walk).
			if _, err := d.r.Lstat(strings.Join(append(done, "."), "/")); err != nil {
				return "", rootErrno(err)
			}
			if c == ".." && len(done) > 0 {
				done = done[:len(done)-1]
			}
			continue
		}
		cand := strings.Join(append(done, c), "/")
		if last && !follow && !trailing {
			done = append(done, c)
			break
		}
		fi, err := d.r.Lstat(cand)
		if err != nil {
			if e := errnoOf(err); e == syscall.ENOENT && last {
				done = append(done, c)
				break
			}
			return "", rootErrno(err)
		}
		if last && !follow {
			// "link/" names the link for a non-following operation:
			// removing or renaming it is ENOTDIR, creating it EEXIST.
			if fi.Mode()&fs.ModeSymlink != 0 {
				return "", errTrailingSymlink
			}
			done = append(done, c)
			break
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			if hops++; hops > maxSymlinkHops {
				return "", syscall.ELOOP
			}
			target, err := d.r.Readlink(cand)
			if err != nil {
				return "", rootErrno(err)
			}
			if strings.HasPrefix(target, "/") {
				done = done[:0]
			}
			if last && hasTrailingSlash(target) {
				trailing = true
			}
			comps = append(splitPath(target), comps...)
			continue
		}
		if !last && !fi.IsDir() {
			return "", syscall.ENOTDIR
		}
		done = append(done, c)
	}
	rel := strings.Join(done, "/")
	switch {
	case rel == "":
		rel = "."
	case trailing:
		rel += "/"
	}
	return rel, nil
}

// errTrailingSymlink reports a symlink named with a trailing slash to an
// operation that does not follow it.
var errTrailingSymlink = &trailingSymlinkError{}

type trailingSymlinkError struct{}

func (*trailingSymlinkError) Error() string { return syscall.ENOTDIR.Error() }
func (*trailingSymlinkError) Unwrap() error { return syscall.ENOTDIR }

// existsIfTrailing turns errTrailingSymlink into EEXIST for operations
// that create the name.
func existsIfTrailing(err error) error {
	if err == errTrailingSymlink {
		return syscall.EEXIST
	}
	return err
}

// rootErrno reduces an os.Root error to an errno, so that messages show
// sandbox paths only; os.Root's refusal to leave the tree becomes EACCES.
func rootErrno(err error) error {
	if e := errnoOf(err); e != 0 {
		return e
	}
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe) && pe.Err.Error() == "path escapes from parent",
		errors.As(err, &le) && le.Err.Error() == "path escapes from parent":
		return syscall.EACCES
	case errors.Is(err, fs.ErrNotExist):
		return syscall.ENOENT
	case errors.Is(err, fs.ErrExist):
		return syscall.EEXIST
	case errors.Is(err, fs.ErrPermission):
		return syscall.EACCES
	}
	return syscall.EINVAL
}

// do resolves name and runs op on the result, reporting errors as
// "op name: ...".
func (d *RootFS) do(opName, name string, follow bool, op func(rel string) error) error {
	rel, err := d.resolve(name, follow)
	if err == nil {
		err = op(rel)
	}
	if err != nil {
		return pathErr(opName, name, rootErrno(err))
	}
	return nil
}

// Create implements afero.Fs.
func (d *RootFS) Create(name string) (afero.File, error) {
	return d.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

// Open implements afero.Fs.
func (d *RootFS) Open(name string) (afero.File, error) { return d.OpenFile(name, os.O_RDONLY, 0) }

// OpenFile implements afero.Fs.
func (d *RootFS) OpenFile(name string, flag int, perm fs.FileMode) (afero.File, error) {
	creat := flag&os.O_CREATE != 0
	follow := flag&oNoFollow == 0 && !(creat && flag&os.O_EXCL != 0)
	var f *os.File
	var dirRel string
	err := d.do("open", name, follow || hasTrailingSlash(name), func(rel string) (err error) {
		dirRel = rel
		if creat && strings.HasSuffix(rel, "/") {
			// open("new/", O_CREAT) is EISDIR in the kernel; os.Root
			// would say ENOENT.
			if _, err := d.r.Lstat(rel); errors.Is(err, fs.ErrNotExist) {
				return syscall.EISDIR
			}
		}
		if flag&oNoFollow != 0 {
			// os.Root follows the link itself; the kernel says ELOOP.
			if fi, err := d.r.Lstat(rel); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				return syscall.ELOOP
			}
		}
		if flag&(os.O_WRONLY|os.O_RDWR|os.O_TRUNC) != 0 {
			if err := d.unshare(rel); err != nil {
				return err
			}
		}
		f, err = d.r.OpenFile(rel, flag, perm.Perm())
		if err == nil && creat && normPerm(perm)&^fs.ModePerm != 0 {
			err = d.addSpecial(rel, perm)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	lstat := func(entry string) (fs.FileInfo, error) {
		return d.r.Lstat(strings.TrimSuffix(dirRel, "/") + "/" + entry)
	}
	return &diskFile{File: f, name: name, lstat: lstat, meta: d.virtual}, nil
}

// Mkdir implements afero.Fs.
func (d *RootFS) Mkdir(name string, perm fs.FileMode) error {
	rel, err := d.resolve(name, false)
	if err == nil {
		if err = d.r.Mkdir(rel, perm.Perm()); err == nil {
			err = d.addSpecial(rel, perm)
		}
	}
	return pathErr("mkdir", name, rootErrnoOrNil(existsIfTrailing(err)))
}

// addSpecial adds the set-id and sticky bits of perm to rel, which
// os.Root refuses at creation; the permission bits keep the umask the
// kernel applied.
func (d *RootFS) addSpecial(rel string, perm fs.FileMode) error {
	special := normPerm(perm) &^ fs.ModePerm
	if special == 0 {
		return nil
	}
	fi, err := d.r.Lstat(rel)
	if err != nil {
		return err
	}
	return d.r.Chmod(rel, fi.Mode().Perm()|special)
}

// MkdirAll implements afero.Fs like os.MkdirAll.
func (d *RootFS) MkdirAll(name string, perm fs.FileMode) error {
	p := "/"
	for _, c := range splitPath(name) {
		p += c
		fi, err := d.Stat(p)
		switch {
		case err == nil && !fi.IsDir():
			return pathErr("mkdir", p, syscall.ENOTDIR)
		case err != nil:
			if err := d.Mkdir(p, perm); err != nil {
				if fi, e := d.Stat(p); e != nil || !fi.IsDir() {
					return err
				}
			}
		}
		p += "/"
	}
	return nil
}

// Remove implements afero.Fs.
func (d *RootFS) Remove(name string) error {
	return d.do("remove", name, false, func(rel string) error {
		c := splitPath(name)
		switch {
		case len(c) == 0:
			return syscall.EBUSY // rmdir("/"); os.Root would say EINVAL
		case c[len(c)-1] == ".":
			return syscall.EINVAL // resolve dropped what rmdir refuses
		case c[len(c)-1] == "..":
			return syscall.ENOTEMPTY
		case rel == ".":
			return syscall.EBUSY
		}
		return d.r.Remove(rel)
	})
}

// RemoveAll implements afero.Fs.
func (d *RootFS) RemoveAll(name string) error {
	if dotLast(name) {
		return pathErr("unlinkat", name, syscall.EINVAL) // like rm -rf, and MemFS
	}
	rel, err := d.resolve(name, false)
	if errnoOf(err) == syscall.ENOENT {
		return nil
	}
	if err == nil {
		if rel == "." {
			return d.removeKids()
		}
		if strings.HasSuffix(rel, "/") {
			// os.Root.RemoveAll ignores the slash in "file/"; rm -rf
			// and the kernel do not.
			if fi, e := d.r.Lstat(strings.TrimSuffix(rel, "/")); e == nil && !fi.IsDir() {
				return pathErr("unlinkat", name, syscall.ENOTDIR)
			}
		}
		err = d.r.RemoveAll(rel)
	}
	return pathErr("unlinkat", name, rootErrnoOrNil(err))
}

// removeKids empties the root, which cannot itself be removed.
func (d *RootFS) removeKids() error {
	f, err := d.r.Open(".")
	if err != nil {
		return pathErr("open", "/", rootErrno(err))
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return pathErr("readdirent", "/", rootErrno(err))
	}
	for _, n := range names {
		if err := d.r.RemoveAll(n); err != nil {
			return pathErr("unlinkat", "/"+n, rootErrno(err))
		}
	}
	return nil
}

func rootErrnoOrNil(err error) error {
	if err == nil {
		return nil
	}
	return rootErrno(err)
}

// Rename implements afero.Fs with the kernel's rename(2) rules (unlike
// os.Rename and os.Root.Rename, a directory may replace an empty one).
func (d *RootFS) Rename(oldname, newname string) error {
	return d.two("rename", oldname, newname, func(o, n string) error {
		if dotLast(oldname) || dotLast(newname) {
			return syscall.EBUSY // resolve dropped the "." the kernel refuses
		}
		return d.renameAt(o, n)
	})
}

// dotLast reports whether p ends in a "." or ".." component.
func dotLast(p string) bool {
	c := splitPath(p)
	return len(c) > 0 && (c[len(c)-1] == "." || c[len(c)-1] == "..")
}

// renameAt renames between two symlink-free root-relative paths by
// calling renameat(2) on single names inside their parent directories,
// which are opened through the os.Root and so cannot be outside it.
func (d *RootFS) renameAt(oldRel, newRel string) error {
	if !haveRenameat {
		return d.r.Rename(oldRel, newRel)
	}
	od, ob, err := d.parentOf(oldRel)
	if err != nil {
		return err
	}
	defer od.Close()
	nd, nb, err := d.parentOf(newRel)
	if err != nil {
		return err
	}
	defer nd.Close()
	return renameat(od, ob, nd, nb)
}

// parentOf opens the directory holding rel and returns it with rel's last
// component (keeping a trailing slash for the kernel to check). The root
// itself has no parent here: renaming it or onto it is EBUSY.
func (d *RootFS) parentOf(rel string) (*os.File, string, error) {
	trimmed := strings.TrimSuffix(rel, "/")
	if trimmed == "." || trimmed == "" {
		return nil, "", syscall.EBUSY
	}
	parent, base := ".", trimmed
	if i := strings.LastIndexByte(trimmed, '/'); i >= 0 {
		parent, base = trimmed[:i], trimmed[i+1:]
	}
	if strings.HasSuffix(rel, "/") {
		base += "/"
	}
	f, err := d.r.Open(parent)
	if err != nil {
		return nil, "", err
	}
	return f, base, nil
}

// LinkIfPossible implements HardLinker. Like the kernel it looks the old
// name up before the new one, so that the same error wins.
func (d *RootFS) LinkIfPossible(oldname, newname string) error {
	// "link/" follows the link, then must be a directory (EPERM) or fails.
	o, err := d.resolve(oldname, hasTrailingSlash(oldname))
	if err == nil {
		_, err = d.r.Lstat(o)
	}
	var n string
	if err == nil {
		n, err = d.resolve(newname, false)
	}
	if err == nil {
		err = d.trailingCreate(n)
	}
	var before fs.FileInfo
	if err == nil {
		before, _ = d.r.Lstat(o)
		err = d.r.Link(o, n)
	}
	if err == nil && before != nil && before.Mode().IsRegular() {
		// A file that had one name, inside the root, now has two there.
		if m := metaFromSys(before); m != nil && m.Nlink == 1 {
			d.own(before)
		}
	}
	return linkErr("link", oldname, newname, rootErrnoOrNil(existsIfTrailing(err)))
}

// trailingCreate gives the kernel's answer for creating a non-directory
// named "name/": EEXIST if name exists, else ENOENT (os.Root differs).
func (d *RootFS) trailingCreate(rel string) error {
	if !strings.HasSuffix(rel, "/") {
		return nil
	}
	if _, err := d.r.Lstat(strings.TrimSuffix(rel, "/")); err == nil {
		return syscall.EEXIST
	}
	return syscall.ENOENT
}

func (d *RootFS) two(op, oldname, newname string, fn func(o, n string) error) error {
	o, err := d.resolveParent(oldname)
	if err == nil {
		var n string
		if n, err = d.resolveParent(newname); err == nil {
			err = fn(o, n)
		}
	}
	return linkErr(op, oldname, newname, rootErrnoOrNil(err))
}

// resolveParent resolves name without looking at its last component at
// all, even with a trailing slash, which is left for the kernel to judge
// (as rename(2) does, after looking up both parents).
func (d *RootFS) resolveParent(name string) (string, error) {
	if !hasTrailingSlash(name) {
		return d.resolve(name, false)
	}
	rel, err := d.resolve(strings.TrimRight(name, "/"), false)
	if err != nil || rel == "." {
		return rel, err
	}
	return rel + "/", nil
}

// SymlinkIfPossible implements afero.Linker. The target is stored
// verbatim; see NewDisk for how it is resolved.
func (d *RootFS) SymlinkIfPossible(oldname, newname string) error {
	n, err := d.resolve(newname, false)
	if err == nil {
		if err = d.trailingCreate(n); err == nil {
			err = d.r.Symlink(oldname, n)
		}
	}
	err = existsIfTrailing(err)
	return linkErr("symlink", oldname, newname, rootErrnoOrNil(err))
}

// ReadlinkIfPossible implements afero.LinkReader.
func (d *RootFS) ReadlinkIfPossible(name string) (string, error) {
	var target string
	// "link/" follows the link, as in the kernel.
	err := d.do("readlink", name, hasTrailingSlash(name), func(rel string) (err error) {
		target, err = d.r.Readlink(rel)
		return err
	})
	return target, err
}

// Stat implements afero.Fs.
func (d *RootFS) Stat(name string) (fs.FileInfo, error) {
	var fi fs.FileInfo
	err := d.do("stat", name, true, func(rel string) (err error) {
		fi, err = d.r.Stat(rel)
		return err
	})
	if err != nil {
		return nil, err
	}
	return d.virtual(fi, baseName(name)), nil
}

// LstatIfPossible implements afero.Lstater.
func (d *RootFS) LstatIfPossible(name string) (fs.FileInfo, bool, error) {
	var fi fs.FileInfo
	err := d.do("lstat", name, hasTrailingSlash(name), func(rel string) (err error) {
		fi, err = d.r.Lstat(rel)
		return err
	})
	if err != nil {
		return nil, true, err
	}
	return d.virtual(fi, baseName(name)), true, nil
}

// Chmod implements afero.Fs.
func (d *RootFS) Chmod(name string, mode fs.FileMode) error {
	return d.do("chmod", name, true, func(rel string) error {
		if err := d.unshare(rel); err != nil {
			return err
		}
		return d.r.Chmod(rel, normPerm(mode))
	})
}

// Chown implements afero.Fs. Sandbox ids map back to the host's: the
// sandbox user is the user sandsh runs as.
func (d *RootFS) Chown(name string, uid, gid int) error {
	if uid == DefaultUID {
		uid = d.uid
	}
	if gid == DefaultGID {
		gid = d.gid
	}
	return d.do("chown", name, true, func(rel string) error {
		if err := d.unshare(rel); err != nil {
			return err
		}
		return d.r.Chown(rel, uid, gid)
	})
}

// Chtimes implements afero.Fs.
func (d *RootFS) Chtimes(name string, atime, mtime time.Time) error {
	return d.do("chtimes", name, true, func(rel string) error {
		if err := d.unshare(rel); err != nil {
			return err
		}
		return d.r.Chtimes(rel, atime, mtime)
	})
}

// own records that every name of fi's inode is inside the root.
func (d *RootFS) own(fi fs.FileInfo) {
	dev, ino, ok := hostID(fi)
	if !ok {
		return
	}
	d.mu.Lock()
	d.owned[fileID{dev, ino}] = true
	d.mu.Unlock()
}

// shared reports whether fi is a regular file that may have a name
// outside the root.
func (d *RootFS) shared(fi fs.FileInfo) bool {
	m := metaFromSys(fi)
	if !fi.Mode().IsRegular() || m == nil || m.Nlink <= 1 {
		return false
	}
	dev, ino, _ := hostID(fi)
	d.mu.Lock()
	defer d.mu.Unlock()
	return !d.owned[fileID{dev, ino}]
}

// unshare breaks the hard link at rel (symlink-free) when its inode may
// be shared with a name outside the root: the contents, mode and times
// are copied to a new file in the same directory, which then replaces
// rel by rename(2). Writing to rel afterwards changes only the copy.
// The change the caller is about to make must be one the kernel would
// allow on the original, so write permission is checked first (without
// changing anything), and an unreadable file cannot be copied: both fail
// with EACCES, like the change itself would.
func (d *RootFS) unshare(rel string) error {
	fi, err := d.r.Lstat(strings.TrimSuffix(rel, "/"))
	if err != nil || !d.shared(fi) {
		return nil // the operation itself reports a missing file
	}
	rel = strings.TrimSuffix(rel, "/")
	w, err := d.r.OpenFile(rel, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	w.Close()
	src, err := d.r.Open(rel)
	if err != nil {
		return err
	}
	defer src.Close()
	dir, base := ".", rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		dir, base = rel[:i], rel[i+1:]
	}
	d.mu.Lock()
	d.tmpN++
	tmp := fmt.Sprintf("%s/.%s.sandsh-unlink-%d-%d", dir, truncName(base, 180), os.Getpid(), d.tmpN)
	d.mu.Unlock()
	dst, err := d.r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(dst, src)
	if err == nil {
		err = dst.Chmod(fi.Mode().Perm() | fi.Mode()&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky))
	}
	var copied fs.FileInfo
	if err == nil {
		copied, err = dst.Stat()
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		m := MetaOf(withMeta(fi, ""))
		err = d.r.Chtimes(tmp, m.Atime, fi.ModTime())
	}
	if err == nil {
		err = d.renameAt(tmp, rel)
	}
	if err != nil {
		d.r.Remove(tmp)
		return err
	}
	d.own(copied)
	return nil
}

// truncName shortens a file name to at most n bytes.
func truncName(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// virtual is withMeta with the sandbox's identity: see RootFS.
func (d *RootFS) virtual(fi fs.FileInfo, name string) fs.FileInfo {
	if fi == nil {
		return nil
	}
	out := withMeta(fi, name)
	mi := out.(*metaInfo)
	m := *mi.meta
	m.UID, m.GID = 0, 0
	if host := metaFromSys(fi); host != nil {
		if host.UID == d.uid {
			m.UID = DefaultUID
		}
		if host.GID == d.gid {
			m.GID = DefaultGID
		}
	}
	m.Ino = 0
	if dev, ino, ok := hostID(fi); ok {
		d.mu.Lock()
		v, seen := d.inos[fileID{dev, ino}]
		if !seen {
			v = uint64(len(d.inos)) + 1
			d.inos[fileID{dev, ino}] = v
		}
		d.mu.Unlock()
		m.Ino = v
	}
	mi.meta = &m
	return mi
}

// diskFile is a host file that reports its sandbox name and *Meta infos.
type diskFile struct {
	*os.File
	name  string
	lstat func(entry string) (fs.FileInfo, error) // lstat of an entry of this directory
	meta  func(fi fs.FileInfo, name string) fs.FileInfo

	mu    sync.Mutex
	names []string // sorted directory listing, read on first use
	pos   int
}

func (f *diskFile) Name() string { return f.name }

func (f *diskFile) Stat() (fs.FileInfo, error) {
	fi, err := f.File.Stat()
	if err != nil {
		return nil, f.fix(err)
	}
	return f.withMeta(fi, baseName(f.name)), nil
}

// withMeta is the filesystem's view of a host FileInfo.
func (f *diskFile) withMeta(fi fs.FileInfo, name string) fs.FileInfo {
	if f.meta != nil {
		return f.meta(fi, name)
	}
	return withMeta(fi, name)
}

// Readdir lists like MemFS: sorted by name, with *Meta infos. Like
// os.File.Readdir it fails if an entry cannot be lstat'ed (a directory
// without search permission) and skips entries removed meanwhile.
func (f *diskFile) Readdir(n int) ([]fs.FileInfo, error) {
	names, err := f.next(n)
	if names == nil {
		return nil, err
	}
	infos := make([]fs.FileInfo, 0, len(names))
	for _, name := range names {
		fi, err := f.lstat(name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return infos, pathErr("lstat", joinPath(f.name, name), rootErrno(err))
		}
		infos = append(infos, f.withMeta(fi, ""))
	}
	return infos, nil
}

// ReadDir is fs.ReadDirFile.ReadDir, sorted by name, with the same rules
// as Readdir.
func (f *diskFile) ReadDir(n int) ([]fs.DirEntry, error) {
	infos, err := f.Readdir(n)
	if infos == nil {
		return nil, err
	}
	ents := make([]fs.DirEntry, len(infos))
	for i, fi := range infos {
		ents[i] = fs.FileInfoToDirEntry(fi)
	}
	return ents, err
}

// Readdirnames is sorted by name; it needs only read permission.
func (f *diskFile) Readdirnames(n int) ([]string, error) {
	return f.next(n)
}

// next returns the next n names of the sorted listing, read whole on
// first use, with the os.File conventions for n and io.EOF: a sandbox
// sees directories in the same order whatever filesystem it runs on.
func (f *diskFile) next(n int) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.names == nil {
		names, err := f.File.Readdirnames(-1)
		if err != nil {
			return nil, f.fix(err)
		}
		sort.Strings(names)
		f.names = names
	}
	rest := f.names[f.pos:]
	if n > 0 {
		if len(rest) == 0 {
			return nil, io.EOF
		}
		rest = rest[:min(n, len(rest))]
	}
	f.pos += len(rest)
	return append([]string{}, rest...), nil
}

// Seek restarts the listing when a directory is rewound.
func (f *diskFile) Seek(off int64, whence int) (int64, error) {
	pos, err := f.File.Seek(off, whence)
	if err == nil && pos == 0 {
		f.mu.Lock()
		f.names, f.pos = nil, 0
		f.mu.Unlock()
	}
	return pos, f.fix(err)
}

func (f *diskFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	return n, f.fix(err)
}

func (f *diskFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.File.ReadAt(p, off)
	return n, f.fix(err)
}

func (f *diskFile) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	return n, f.fix(err)
}

func (f *diskFile) WriteAt(p []byte, off int64) (int, error) {
	n, err := f.File.WriteAt(p, off)
	return n, f.fix(err)
}

func (f *diskFile) WriteString(s string) (int, error) { return f.Write([]byte(s)) }

func (f *diskFile) Truncate(size int64) error { return f.fix(f.File.Truncate(size)) }

// fix replaces the host path in a *PathError by the sandbox name.
func (f *diskFile) fix(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: pe.Op, Path: f.name, Err: pe.Err}
	}
	return err
}

// metaInfo is a host FileInfo with a *Meta as Sys and an optional name
// override (the sandbox base name).
type metaInfo struct {
	fs.FileInfo
	name string
	meta *Meta
}

func (fi *metaInfo) Name() string {
	if fi.name != "" {
		return fi.name
	}
	return fi.FileInfo.Name()
}

func (fi *metaInfo) Sys() any {
	m := *fi.meta
	return &m
}

func withMeta(fi fs.FileInfo, name string) fs.FileInfo {
	if fi == nil {
		return nil
	}
	m := metaFromSys(fi)
	if m == nil {
		mm := Meta{Nlink: 1, Atime: fi.ModTime(), Ctime: fi.ModTime()}
		m = &mm
	}
	return &metaInfo{FileInfo: fi, name: name, meta: m}
}

var (
	_ FS         = (*RootFS)(nil)
	_ HardLinker = (*RootFS)(nil)
	_ FS         = hostFS{}
	_ HardLinker = hostFS{}
)
