package vfs

import (
	"io"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/afero"
)

// ReadOnly returns a view of fsys that refuses every change with EROFS,
// like a read-only mount. Opening for reading and all queries pass
// through.
func ReadOnly(fsys FS) FS { return readOnlyFS{fsys} }

type readOnlyFS struct{ FS }

// mutatingFlags are the open flags that may change a file.
const mutatingFlags = os.O_WRONLY | os.O_RDWR | os.O_CREATE | os.O_TRUNC | os.O_APPEND

func (r readOnlyFS) Name() string { return "ReadOnly(" + r.FS.Name() + ")" }

func (r readOnlyFS) Create(name string) (afero.File, error) {
	return nil, pathErr("open", name, syscall.EROFS)
}

func (r readOnlyFS) OpenFile(name string, flag int, perm fs.FileMode) (afero.File, error) {
	if flag&mutatingFlags != 0 {
		return nil, pathErr("open", name, syscall.EROFS)
	}
	return r.FS.OpenFile(name, flag, perm)
}

func (r readOnlyFS) Mkdir(name string, perm fs.FileMode) error {
	return pathErr("mkdir", name, syscall.EROFS)
}

// MkdirAll succeeds for an existing directory, as os.MkdirAll does on a
// read-only mount.
func (r readOnlyFS) MkdirAll(name string, perm fs.FileMode) error {
	if fi, err := r.FS.Stat(name); err == nil && fi.IsDir() {
		return nil
	}
	return pathErr("mkdir", name, syscall.EROFS)
}

func (r readOnlyFS) Remove(name string) error { return pathErr("remove", name, syscall.EROFS) }

func (r readOnlyFS) RemoveAll(name string) error {
	if _, err := Lstat(r.FS, name); errnoOf(err) == syscall.ENOENT {
		return nil
	}
	return pathErr("unlinkat", name, syscall.EROFS)
}

func (r readOnlyFS) Rename(o, n string) error { return linkErr("rename", o, n, syscall.EROFS) }

func (r readOnlyFS) Chmod(name string, mode fs.FileMode) error {
	return pathErr("chmod", name, syscall.EROFS)
}

func (r readOnlyFS) Chown(name string, uid, gid int) error {
	return pathErr("chown", name, syscall.EROFS)
}

func (r readOnlyFS) Chtimes(name string, a, m time.Time) error {
	return pathErr("chtimes", name, syscall.EROFS)
}

func (r readOnlyFS) SymlinkIfPossible(o, n string) error {
	return linkErr("symlink", o, n, syscall.EROFS)
}

func (r readOnlyFS) LinkIfPossible(o, n string) error { return linkErr("link", o, n, syscall.EROFS) }

// Limit returns a view of fsys that enforces WithMaxBytes,
// WithMaxFileSize and WithMaxFiles (other options are ignored) on what
// is done through it, for filesystems such as a disk root that have no
// limits of their own. (A MemFS or an overlay takes the options
// directly.)
//
// It accounts for changes, not for what was there before: bytes are the
// net growth of files written through the view (removals give space
// back) and files the net number of entries created. Writes that would
// pass a limit are cut short with ENOSPC or EFBIG, like on a full disk.
// Writes through the view are serialised to keep the accounting exact.
func Limit(fsys FS, opts ...MemOption) FS {
	var cfg memConfig
	for _, o := range opts {
		o(&cfg)
	}
	return &limitFS{FS: fsys, cfg: cfg}
}

type limitFS struct {
	FS
	cfg   memConfig
	mu    sync.Mutex
	bytes int64 // net bytes grown
	files int   // net entries created
}

func (l *limitFS) Name() string { return "Limit(" + l.FS.Name() + ")" }

// Usage returns the net bytes and entries added through the view.
func (l *limitFS) Usage() (bytes int64, files int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.bytes, l.files
}

// SetUsage sets what a Limit view counts as already added (bytes and
// entries), so that a session carried over into a new process keeps its
// totals. It reports false when fsys is not a Limit view.
func SetUsage(fsys FS, bytes int64, files int) bool {
	l, ok := fsys.(*limitFS)
	if !ok {
		return false
	}
	l.mu.Lock()
	l.bytes, l.files = max(bytes, 0), max(files, 0)
	l.mu.Unlock()
	return true
}

// Limits reports the byte and file limits (0: none), for df.
func (l *limitFS) Limits() (int64, int) { return l.cfg.maxBytes, l.cfg.maxFiles }

// LchtimesIfPossible passes touch -h through when the filesystem has it.
func (l *limitFS) LchtimesIfPossible(name string, atime, mtime time.Time) error {
	if lc, ok := l.FS.(LinkChtimer); ok {
		return lc.LchtimesIfPossible(name, atime, mtime)
	}
	return nil // like the device layer: symlink times are not kept here
}

// Close closes the filesystem below when it has a Close.
func (l *limitFS) Close() error {
	if c, ok := l.FS.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// room returns how far a file of size may be written, up to end, and the
// error for falling short. Called with l.mu held.
func (l *limitFS) room(size, end int64) (int64, error) {
	var err error
	if lim := l.cfg.maxFileSize; lim > 0 && end > lim {
		end, err = lim, fileSizeLimit(lim)
	}
	if lim := l.cfg.maxBytes; lim > 0 && end > size {
		free := max(lim-l.bytes, 0)
		if end-size > free {
			end, err = size+free, bytesLimit(lim)
		}
	}
	return end, err
}

// newEntry charges one entry, failing with ENOSPC at the limit.
func (l *limitFS) newEntry() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cfg.maxFiles > 0 && l.files >= l.cfg.maxFiles {
		return filesLimit(l.cfg.maxFiles)
	}
	l.files++
	return nil
}

func (l *limitFS) dropEntry(bytes int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.files = max(l.files-1, 0)
	l.bytes = max(l.bytes-bytes, 0)
}

func (l *limitFS) Create(name string) (afero.File, error) {
	return l.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (l *limitFS) Open(name string) (afero.File, error) { return l.OpenFile(name, os.O_RDONLY, 0) }

func (l *limitFS) OpenFile(name string, flag int, perm fs.FileMode) (afero.File, error) {
	created := false
	var oldSize int64
	if flag&(os.O_CREATE|os.O_TRUNC) != 0 {
		fi, err := l.FS.Stat(name)
		switch {
		case err == nil:
			oldSize = fi.Size()
		case flag&os.O_CREATE != 0 && errnoOf(err) == syscall.ENOENT:
			if err := l.newEntry(); err != nil {
				return nil, pathErr("open", name, err)
			}
			created = true
		}
	}
	f, err := l.FS.OpenFile(name, flag, perm)
	if err != nil {
		if created {
			l.dropEntry(0)
		}
		return nil, err
	}
	if flag&os.O_TRUNC != 0 && oldSize > 0 {
		l.mu.Lock()
		l.bytes = max(l.bytes-oldSize, 0)
		l.mu.Unlock()
	}
	return &limitFile{File: f, l: l, append: flag&os.O_APPEND != 0}, nil
}

func (l *limitFS) Mkdir(name string, perm fs.FileMode) error {
	if err := l.newEntry(); err != nil {
		return pathErr("mkdir", name, err)
	}
	err := l.FS.Mkdir(name, perm)
	if err != nil {
		l.dropEntry(0)
	}
	return err
}

// MkdirAll creates the missing directories one by one so each is charged.
func (l *limitFS) MkdirAll(name string, perm fs.FileMode) error {
	p := ""
	for _, c := range splitPath(name) {
		p += "/" + c
		if fi, err := l.FS.Stat(p); err == nil {
			if !fi.IsDir() {
				return pathErr("mkdir", p, syscall.ENOTDIR)
			}
			continue
		}
		if err := l.Mkdir(p, perm); err != nil {
			if fi, e := l.FS.Stat(p); e != nil || !fi.IsDir() {
				return err
			}
		}
	}
	return nil
}

func (l *limitFS) SymlinkIfPossible(o, n string) error {
	if err := l.newEntry(); err != nil {
		return linkErr("symlink", o, n, err)
	}
	err := l.FS.SymlinkIfPossible(o, n)
	if err != nil {
		l.dropEntry(0)
	}
	return err
}

func (l *limitFS) LinkIfPossible(o, n string) error {
	hl, ok := l.FS.(HardLinker)
	if !ok {
		return linkErr("link", o, n, syscall.EPERM)
	}
	// A link is an entry like any other (removing one gives one back),
	// so a loop of `ln` cannot grow a directory without bound.
	if err := l.newEntry(); err != nil {
		return linkErr("link", o, n, err)
	}
	err := hl.LinkIfPossible(o, n)
	if err != nil {
		l.dropEntry(0)
	}
	return err
}

// freed returns what removing name gives back: its bytes if it is the
// file's last name.
func (l *limitFS) freed(name string) int64 {
	fi, err := Lstat(l.FS, name)
	if err != nil || !fi.Mode().IsRegular() || MetaOf(fi).Nlink > 1 {
		return 0
	}
	return fi.Size()
}

func (l *limitFS) Remove(name string) error {
	size := l.freed(name)
	err := l.FS.Remove(name)
	if err == nil {
		l.dropEntry(size)
	}
	return err
}

// RemoveAll gives back the space and entries of what it removed, counted
// by walking the tree first.
func (l *limitFS) RemoveAll(name string) error {
	type entry struct {
		path string
		size int64
	}
	var entries []entry
	var walk func(p string)
	walk = func(p string) {
		fi, err := Lstat(l.FS, p)
		if err != nil {
			return
		}
		entries = append(entries, entry{p, l.freed(p)})
		if !fi.IsDir() {
			return
		}
		f, err := l.FS.Open(p)
		if err != nil {
			return
		}
		names, _ := f.Readdirnames(-1)
		f.Close()
		for _, n := range names {
			walk(joinPath(p, n))
		}
	}
	walk(name)
	err := l.FS.RemoveAll(name)
	for _, e := range entries {
		if _, lerr := Lstat(l.FS, e.path); errnoOf(lerr) == syscall.ENOENT {
			l.dropEntry(e.size)
		}
	}
	return err
}

func (l *limitFS) Rename(o, n string) error {
	// A replaced destination file gives its space back.
	size := l.freed(n)
	_, lerr := Lstat(l.FS, n)
	existed := lerr == nil
	err := l.FS.Rename(o, n)
	if err == nil && existed {
		if _, e := Lstat(l.FS, o); errnoOf(e) == syscall.ENOENT {
			l.dropEntry(size)
		}
	}
	return err
}

// limitFile charges the growth of a file written through a limitFS.
type limitFile struct {
	afero.File
	l      *limitFS
	append bool
}

// grow writes through write at off (the end when appending), cutting the
// data short at the limits and charging the growth.
func (f *limitFile) grow(p []byte, off int64, useOff bool, write func([]byte) (int, error)) (int, error) {
	l := f.l
	l.mu.Lock()
	defer l.mu.Unlock()
	fi, err := f.File.Stat()
	if err != nil {
		return 0, err
	}
	size := fi.Size()
	if !useOff {
		if f.append {
			off = size
		} else if off, err = f.File.Seek(0, io.SeekCurrent); err != nil {
			return 0, err
		}
	}
	end, lerr := l.room(size, off+int64(len(p)))
	allowed := max(end-off, 0)
	if allowed < int64(len(p)) {
		p = p[:allowed]
	}
	n := 0
	if len(p) > 0 {
		n, err = write(p)
	}
	if grown := off + int64(n) - size; grown > 0 {
		l.bytes += grown
	}
	if err == nil && lerr != nil {
		err = pathErr("write", f.File.Name(), lerr)
	}
	return n, err
}

func (f *limitFile) Write(p []byte) (int, error) {
	return f.grow(p, 0, false, f.File.Write)
}

func (f *limitFile) WriteString(s string) (int, error) { return f.Write([]byte(s)) }

func (f *limitFile) WriteAt(p []byte, off int64) (int, error) {
	return f.grow(p, off, true, func(b []byte) (int, error) { return f.File.WriteAt(b, off) })
}

func (f *limitFile) Truncate(size int64) error {
	l := f.l
	l.mu.Lock()
	defer l.mu.Unlock()
	fi, err := f.File.Stat()
	if err != nil {
		return err
	}
	old := fi.Size()
	if size > old {
		if end, lerr := l.room(old, size); end < size {
			return pathErr("truncate", f.File.Name(), lerr)
		}
	}
	if err := f.File.Truncate(size); err != nil {
		return err
	}
	l.bytes = max(l.bytes+size-old, 0)
	return nil
}

// ReadDir passes directory listings through when the file supports them.
func (f *limitFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if rd, ok := f.File.(fs.ReadDirFile); ok {
		return rd.ReadDir(n)
	}
	return nil, pathErr("readdirent", f.File.Name(), syscall.ENOTDIR)
}

var (
	_ FS         = readOnlyFS{}
	_ HardLinker = readOnlyFS{}
	_ FS         = (*limitFS)(nil)
	_ HardLinker = (*limitFS)(nil)
)
