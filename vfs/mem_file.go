package vfs

import (
	"io"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"
)

// memFile is an open file of a MemFS. It holds its inode, not its name,
// so it keeps working after the name is unlinked or renamed.
//
// Lock order: memFile.mu before memTree.mu.
type memFile struct {
	t    *memTree
	m    *MemFS // the view that opened the file: its credentials apply
	node *inode
	name string

	read, write, append bool
	isDir               bool // the inode is a directory (types never change)

	mu     sync.Mutex
	off    int64
	closed bool
	dir    []*fileInfo // Readdir snapshot, taken on the first call
	dirPos int
	host   *os.File // overlay base file serving reads of lower-backed data
}

// Name returns the name the file was opened with, like os.File.Name.
func (f *memFile) Name() string { return f.name }

// check returns the error for using f in op: closed, or (for want r/w) not
// opened for that access.
func (f *memFile) check(op string, wantRead, wantWrite bool) error {
	switch {
	case f.closed:
		return pathErr(op, f.name, fs.ErrClosed)
	case wantRead && !f.read, wantWrite && !f.write:
		return pathErr(op, f.name, syscall.EBADF)
	}
	return nil
}

// Read implements io.Reader.
func (f *memFile) Read(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.check("read", true, false); err != nil {
		return 0, err
	}
	n, err := f.readAt(p, f.off)
	f.off += int64(n)
	if err != nil && err != io.EOF {
		err = pathErr("read", f.name, err)
	}
	return n, err
}

// ReadAt implements io.ReaderAt: it reads len(p) bytes unless the file
// ends first, without moving the offset.
func (f *memFile) ReadAt(p []byte, off int64) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.check("read", true, false); err != nil {
		return 0, err
	}
	if off < 0 {
		return 0, pathErr("readat", f.name, syscall.EINVAL)
	}
	total := 0
	for total < len(p) {
		n, err := f.readAt(p[total:], off+int64(total))
		total += n
		if err == io.EOF {
			return total, io.EOF
		}
		if err != nil {
			return total, pathErr("read", f.name, err)
		}
		if n == 0 {
			return total, io.EOF
		}
	}
	return total, nil
}

// readAt copies file data at off into p. Lower-backed data is read from
// the host outside the tree lock, so a slow disk never stalls the tree.
func (f *memFile) readAt(p []byte, off int64) (int, error) {
	t := f.t
	t.mu.Lock()
	n := f.node
	if n.isDir() {
		t.mu.Unlock()
		return 0, syscall.EISDIR
	}
	if len(p) == 0 {
		t.mu.Unlock()
		return 0, nil
	}
	if off >= n.size {
		t.mu.Unlock()
		return 0, io.EOF
	}
	if n.lower == nil {
		c := n.data.readAt(p, off, n.size)
		t.mu.Unlock()
		return c, nil
	}
	ref, size := n.lower, n.size
	t.mu.Unlock()
	return f.readLower(ref, size, p, off)
}

// Write implements io.Writer. With O_APPEND each write lands at the end
// of the file atomically, even with many writers.
func (f *memFile) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.check("write", false, true); err != nil {
		return 0, err
	}
	f.t.mu.Lock()
	n, end, err := f.t.writeAt(f.node, p, f.off, f.append)
	f.t.mu.Unlock()
	f.off = end
	return n, pathErr("write", f.name, err)
}

// WriteAt implements io.WriterAt (refused with O_APPEND, as in package os).
func (f *memFile) WriteAt(p []byte, off int64) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.check("write", false, true); err != nil {
		return 0, err
	}
	if f.append || off < 0 {
		return 0, pathErr("writeat", f.name, syscall.EINVAL)
	}
	f.t.mu.Lock()
	n, _, err := f.t.writeAt(f.node, p, off, false)
	f.t.mu.Unlock()
	return n, pathErr("write", f.name, err)
}

// WriteString implements afero.File.
func (f *memFile) WriteString(s string) (int, error) { return f.Write([]byte(s)) }

// Seek implements io.Seeker. Seeking a directory to 0 restarts Readdir.
func (f *memFile) Seek(offset int64, whence int) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.check("seek", false, false); err != nil {
		return 0, err
	}
	var base int64
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		base = f.off
	case io.SeekEnd:
		f.t.mu.Lock()
		base = f.node.size
		f.t.mu.Unlock()
	default:
		return 0, pathErr("seek", f.name, syscall.EINVAL)
	}
	pos := base + offset
	if pos < 0 {
		return 0, pathErr("seek", f.name, syscall.EINVAL)
	}
	f.off = pos
	if pos == 0 && f.dir != nil {
		f.dir, f.dirPos = nil, 0
	}
	return pos, nil
}

// Truncate implements afero.File like os.File.Truncate.
func (f *memFile) Truncate(size int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.check("truncate", false, false); err != nil {
		return err
	}
	if !f.write {
		return pathErr("truncate", f.name, syscall.EINVAL)
	}
	f.t.mu.Lock()
	defer f.t.mu.Unlock()
	return pathErr("truncate", f.name, f.t.truncate(f.node, size))
}

// Stat implements afero.File; it works on unlinked files too.
func (f *memFile) Stat() (fs.FileInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.check("stat", false, false); err != nil {
		return nil, err
	}
	f.t.mu.Lock()
	defer f.t.mu.Unlock()
	return f.t.info(baseName(f.name), f.node), nil
}

// Sync implements afero.File; memory needs no flushing.
func (f *memFile) Sync() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.check("sync", false, false)
}

// Close implements io.Closer. The inode is freed here if it was unlinked.
func (f *memFile) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.check("close", false, false); err != nil {
		return err
	}
	f.closed = true
	f.dir = nil
	f.t.mu.Lock()
	f.node.opens--
	f.t.release(f.node)
	f.t.mu.Unlock()
	if f.host != nil {
		f.host.Close()
		f.host = nil
	}
	return nil
}

// Readdir implements afero.File like os.File.Readdir: entries are sorted
// by name, carry Lstat information, and exclude "." and "..".
//
// As with os.File.Readdir, which lstats every entry, listing infos needs
// search permission on the directory; Readdirnames and ReadDir (whose
// types come from the directory itself, like d_type) need only read
// permission.
func (f *memFile) Readdir(count int) ([]fs.FileInfo, error) {
	infos, err := f.readdir(count)
	if infos == nil {
		return nil, err
	}
	if len(infos) > 0 && !f.canSearch() {
		return nil, pathErr("lstat", joinPath(f.name, infos[0].name), syscall.EACCES)
	}
	out := make([]fs.FileInfo, len(infos))
	for i, fi := range infos {
		out[i] = fi
	}
	return out, err
}

func (f *memFile) canSearch() bool {
	f.t.mu.Lock()
	defer f.t.mu.Unlock()
	return f.m.can(f.node, permX)
}

// Readdirnames implements afero.File like os.File.Readdirnames.
func (f *memFile) Readdirnames(count int) ([]string, error) {
	infos, err := f.readdir(count)
	if infos == nil {
		return nil, err
	}
	out := make([]string, len(infos))
	for i, fi := range infos {
		out[i] = fi.name
	}
	return out, err
}

// ReadDir implements fs.ReadDirFile like os.File.ReadDir; Type() shows
// symlinks as symlinks.
func (f *memFile) ReadDir(count int) ([]fs.DirEntry, error) {
	infos, err := f.readdir(count)
	if infos == nil {
		return nil, err
	}
	out := make([]fs.DirEntry, len(infos))
	for i, fi := range infos {
		out[i] = fs.FileInfoToDirEntry(fi)
	}
	return out, err
}

// readdir returns the next count entries (all remaining when count <= 0)
// with the os.File conventions: io.EOF only when count > 0 and nothing is
// left, and an empty non-nil slice for count <= 0 at the end.
func (f *memFile) readdir(count int) ([]*fileInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.check("readdirent", false, false); err != nil {
		return nil, err
	}
	if !f.isDir {
		return nil, pathErr("readdirent", f.name, syscall.ENOTDIR)
	}
	if f.dir == nil {
		if err := f.snapshot(); err != nil {
			return nil, pathErr("readdirent", f.name, err)
		}
	}
	rest := f.dir[f.dirPos:]
	if count > 0 {
		if len(rest) == 0 {
			return nil, io.EOF
		}
		if len(rest) > count {
			rest = rest[:count]
		}
	}
	f.dirPos += len(rest)
	return append([]*fileInfo{}, rest...), nil
}

func (f *memFile) snapshot() error {
	t := f.t
	t.mu.Lock()
	defer t.mu.Unlock()
	kids, err := t.children(f.node)
	if err != nil {
		return err
	}
	names := sortedNames(kids)
	f.dir = make([]*fileInfo, len(names))
	for i, name := range names {
		f.dir[i] = t.info(name, kids[name])
	}
	f.dirPos = 0
	return nil
}

// fileInfo is an immutable snapshot of an inode.
type fileInfo struct {
	name  string
	size  int64
	mode  fs.FileMode
	mtime time.Time
	meta  Meta
}

func (fi *fileInfo) Name() string       { return fi.name }
func (fi *fileInfo) Size() int64        { return fi.size }
func (fi *fileInfo) Mode() fs.FileMode  { return fi.mode }
func (fi *fileInfo) ModTime() time.Time { return fi.mtime }
func (fi *fileInfo) IsDir() bool        { return fi.mode.IsDir() }

// Sys returns a fresh *Meta, so callers may keep or modify it freely.
func (fi *fileInfo) Sys() any {
	m := fi.meta
	return &m
}
