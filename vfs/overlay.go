package vfs

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"syscall"
)

// NewOverlay returns an in-memory filesystem (a MemFS, configured by opts)
// in which the host directory baseDir appears at sandbox path mount.
//
// The base is read-only and is never modified: it is only ever opened for
// reading, through an os.Root so that nothing in it (symlinks, "..") can
// reach outside baseDir. Its entries become inodes of the memory tree
// lazily, the first time a directory is looked into, and from then on the
// tree is the truth:
//
//   - reads of a base file go to the host until the file is first opened
//     for writing (or truncated), which copies it up into memory;
//   - deleting or renaming a base entry just edits the memory tree, so the
//     name is gone (a whiteout) without touching the host, and a directory
//     recreated in its place is empty (opaque);
//   - chmod, chown, chtimes, symlinks and hard links only change memory;
//   - base symlinks are read verbatim and resolved in the sandbox tree, so
//     an absolute target like /etc/passwd means the sandbox's /etc/passwd.
//
// Base entries are shown as owned by the view's user (so the sandbox user
// may "modify" them) with their host permission bits; they do not count
// against WithMaxFiles, and their bytes count against WithMaxBytes only
// once copied up. The base is expected not to change while the sandbox
// runs; a base file that shrinks reads short.
//
// The caller normally runs Populate on the result. Close releases the
// host directory.
func NewOverlay(baseDir, mount string, opts ...MemOption) (FS, error) {
	return openOverlay(baseDir, mount, nil, opts)
}

// NewImport is --import DIR made lazy: a NewOverlay of dir at mount
// that shows only directories, regular files and symlinks (sockets,
// FIFOs and devices are left out, as a copy would skip them). Like any
// overlay it is never written, and each directory is listed, and each
// file read, when the sandbox first uses it; a file is copied into
// memory when first written. CheckHostTree is the totals check to run
// first. Each of skip (a slash path relative to dir, e.g. "out" or
// "dist/site.tgz") is left out, as if it did not exist: sandsh's own
// --export target inside dir, which a run must neither read nor carry
// into its next export.
func NewImport(dir, mount string, skip []string, opts ...MemOption) (FS, error) {
	return openOverlay(dir, mount, skipSet(skip), opts)
}

// skipSet is the set of cleaned relative paths of skip.
func skipSet(skip []string) map[string]bool {
	m := make(map[string]bool, len(skip))
	for _, s := range skip {
		m[path.Clean(s)] = true
	}
	return m
}

// openOverlay shows baseDir at mount; skip non-nil makes it an import
// (NewImport), which leaves out what a copy would skip and skip itself.
func openOverlay(baseDir, mount string, skip map[string]bool, opts []MemOption) (FS, error) {
	root, err := os.OpenRoot(baseDir)
	if err != nil {
		return nil, fmt.Errorf("vfs: opening overlay base: %w", err)
	}
	fi, err := root.Stat(".")
	if err != nil {
		root.Close()
		return nil, fmt.Errorf("vfs: overlay base: %w", err)
	}
	m := NewMem(opts...)
	mount = Clean("/", mount)
	if err := m.MkdirAll(mount, 0o755); err != nil {
		root.Close()
		return nil, fmt.Errorf("vfs: overlay mount point: %w", err)
	}
	t := m.t
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lower = &lowerLayer{root: root, mount: mount, uid: m.cred.UID, gid: m.cred.GID, filesOnly: skip != nil, skip: skip}
	lk, err := m.resolve(mount, true)
	if err != nil || lk.node == nil {
		root.Close()
		return nil, fmt.Errorf("vfs: overlay mount point %s: %v", mount, err)
	}
	n := lk.node
	n.kids = nil
	n.lower = &lowerRef{rel: "."}
	n.mode = fs.ModeDir | fi.Mode()&(fs.ModePerm|fs.ModeSticky)
	if hm := metaFromSys(fi); hm != nil && hm.Nlink >= 2 {
		n.nlink = hm.Nlink // until loaded; loading recounts
	}
	t.lower.setTimes(n, fi)
	return m, nil
}

// lowerLayer is the read-only host side of an overlay.
type lowerLayer struct {
	root  *os.Root
	mount string // where the base shows in the sandbox
	// filesOnly leaves out what is neither a directory, a regular file
	// nor a symlink (NewImport).
	filesOnly bool
	uid, gid  int             // owner shown for base entries
	skip      map[string]bool // relative paths left out (NewImport)
}

// lowerRef names an entry in the base, relative to its root.
type lowerRef struct{ rel string }

func (l *lowerLayer) close() error { return l.root.Close() }

// open opens a base file for reading. O_NONBLOCK keeps a fifo swapped in
// on the host from blocking us, and the type check refuses anything but a
// regular file.
func (l *lowerLayer) open(rel string) (*os.File, error) {
	f, err := l.root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, hostErrno(err)
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, syscall.EACCES
	}
	return f, nil
}

// hostErrno reduces a host error to its errno so that host paths never
// show up in sandbox error messages.
func hostErrno(err error) error {
	if e := errnoOf(err); e != 0 {
		return e
	}
	return syscall.EIO
}

// setTimes copies the host times of fi into n.
func (l *lowerLayer) setTimes(n *inode, fi fs.FileInfo) {
	n.mtime, n.atime, n.ctime = fi.ModTime(), fi.ModTime(), fi.ModTime()
	if hm := metaFromSys(fi); hm != nil {
		n.atime, n.ctime = hm.Atime, hm.Ctime
	}
}

// loadDir turns the entries of base directory d into inodes. Entries that
// vanish or cannot be read meanwhile are left out.
func (t *memTree) loadDir(d *inode) error {
	l := t.lower
	rel := d.lower.rel
	f, err := l.root.Open(rel)
	if err != nil {
		return hostErrno(err)
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil {
		return hostErrno(err)
	}
	kids := make(map[string]*inode, len(ents))
	subdirs := 0
	for _, e := range ents {
		if l.skip[path.Join(rel, e.Name())] {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		child := t.lowerInode(path.Join(rel, e.Name()), fi)
		if child == nil {
			continue
		}
		if child.isDir() {
			child.parent = d
			subdirs++
		} else {
			child.dirs = []*inode{d}
		}
		kids[e.Name()] = child
	}
	d.kids = kids
	d.nlink = uint64(2 + subdirs)
	d.lower = nil
	return nil
}

// lowerInode makes the inode for base entry rel described by fi (an
// Lstat result), or nil if it cannot be represented.
func (t *memTree) lowerInode(rel string, fi fs.FileInfo) *inode {
	l := t.lower
	n := &inode{ino: t.newIno(), uid: l.uid, gid: l.gid, nlink: 1}
	l.setTimes(n, fi)
	perm := fi.Mode() & (fs.ModePerm | fs.ModeSticky)
	switch typ := fi.Mode().Type(); {
	case typ == fs.ModeDir:
		n.mode = fs.ModeDir | perm
		n.lower = &lowerRef{rel: rel}
		n.nlink = 2
		if hm := metaFromSys(fi); hm != nil && hm.Nlink >= 2 {
			n.nlink = hm.Nlink // until loaded; loading recounts
		}
	case typ == fs.ModeSymlink:
		target, err := l.root.Readlink(rel)
		if err != nil || target == "" {
			return nil
		}
		n.mode = fs.ModeSymlink | 0o777
		n.target = target
	case typ == 0:
		n.mode = perm
		n.size = fi.Size()
		if n.size > 0 {
			n.lower = &lowerRef{rel: rel}
		}
	default:
		// Fifos, sockets and devices are listed but cannot be opened.
		if l.filesOnly {
			return nil
		}
		n.mode = typ | perm
	}
	return n
}

// copyUp moves the contents of base file n into memory, charging them
// against the limits, so that it can be written.
func (t *memTree) copyUp(n *inode) error {
	if got, err := t.room(n, n.size); got < n.size {
		return err
	}
	f, err := t.lower.open(n.lower.rel)
	if err != nil {
		return err
	}
	defer f.Close()
	// Read chunk by chunk, straight into the file's layout (chunk k
	// full-sized but the last), stopping early if the host file shrank.
	var data fileData
	var got int64
	for got < n.size {
		chunk := make([]byte, min(chunkSize, n.size-got))
		c, err := io.ReadFull(f, chunk)
		data.chunks = append(data.chunks, chunk[:c])
		got += int64(c)
		if err == io.ErrUnexpectedEOF || err == io.EOF {
			break
		}
		if err != nil {
			return hostErrno(err)
		}
	}
	n.lower = nil
	n.data = data
	n.size = got
	t.bytes += n.size - n.charged
	n.charged = n.size
	return nil
}

// readLower reads base data for f at off, never past size (the size the
// sandbox sees). The host file is opened on first use and kept.
func (f *memFile) readLower(ref *lowerRef, size int64, p []byte, off int64) (int, error) {
	if f.host == nil {
		h, err := f.t.lower.open(ref.rel)
		if err != nil {
			return 0, err
		}
		f.host = h
	}
	if rem := size - off; int64(len(p)) > rem {
		p = p[:rem]
	}
	n, err := f.host.ReadAt(p, off)
	switch {
	case err == io.EOF && n > 0:
		err = nil
	case err != nil && err != io.EOF:
		err = hostErrno(err)
	}
	return n, err
}
