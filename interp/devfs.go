package interp

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/afero"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/vfs"
)

// devFS puts the runner's devices in front of the sandbox filesystem:
// /dev/null, /dev/zero, /dev/full, /dev/urandom, and /dev/stdin, /dev/stdout,
// /dev/stderr and /dev/fd/N, which name the shell's own descriptors (so
// process substitution and `cat /dev/stdin` work with no host file).
type devFS struct {
	vfs.FS
	r *Runner
}

func (r *Runner) devFS() *devFS { return &devFS{FS: r.s.fs, r: r} }

// Rebase returns the same devices over f(the filesystem below): the audit
// log tags one command's view of the files (vfs.Attribute).
func (d *devFS) Rebase(f func(vfs.FS) vfs.FS) vfs.FS { return &devFS{FS: f(d.FS), r: d.r} }

// device returns the device file for a /dev path, or ok=false.
func (d *devFS) device(name string, flag int) (afero.File, bool, error) {
	if !strings.HasPrefix(name, "/dev/") && !strings.HasPrefix(name, "/proc/") {
		return nil, false, nil
	}
	// Every spelling of a device path means the device: callers pass
	// absolute paths, but "/dev/./fd/1", "/dev//stdout" or
	// "/proc/self/../thread-self/fd/1" must not slip past to the
	// filesystem below, which on a host disk would reach sandsh's own
	// descriptors. The kernel's name for the current thread's fd table
	// is the shell's too.
	name = path.Clean(name)
	if rest, ok := strings.CutPrefix(name, "/proc/thread-self/fd/"); ok {
		name = "/proc/self/fd/" + rest
	}
	switch name {
	case "/dev/null":
		return &devFile{name: name, r: eofReader{}, w: io.Discard, mode: fs.ModeDevice | fs.ModeCharDevice | 0o666}, true, nil
	case "/dev/zero":
		return &devFile{name: name, r: zeroReader{}, w: io.Discard, mode: fs.ModeDevice | fs.ModeCharDevice | 0o666}, true, nil
	case "/dev/full":
		// Linux's full device: reads give zeros, every write fails as
		// on a full disk (what scripts test their write checks with).
		return &devFile{name: name, r: zeroReader{}, w: fullWriter{}, mode: fs.ModeDevice | fs.ModeCharDevice | 0o666}, true, nil
	case "/dev/random", "/dev/urandom":
		return &devFile{name: name, r: randReader{d.r.s}, w: io.Discard, mode: fs.ModeDevice | fs.ModeCharDevice | 0o666}, true, nil
	case "/dev/tty":
		return nil, true, &fs.PathError{Op: "open", Path: name, Err: syscall.ENXIO}
	}
	if rest, ok := strings.CutPrefix(name, "/dev/tcp/"); ok || strings.HasPrefix(name, "/dev/udp/") {
		// bash's network redirections: sandsh opens no socket for a
		// script; only curl and wget reach the network, through the
		// gate and only with --allow-net.
		if !ok {
			rest = strings.TrimPrefix(name, "/dev/udp/")
		}
		host, _, _ := strings.Cut(rest, "/")
		return nil, true, &fs.PathError{Op: "open", Path: name,
			Err: fmt.Errorf("restricted: sandsh opens no sockets for redirections (host %s); curl and wget reach hosts --allow-net names", host)}
	}
	if name == "/dev/fd" || name == "/proc/self/fd" {
		return d.fdDir(name), true, nil
	}
	n := -1
	switch {
	case name == "/dev/stdin":
		n = 0
	case name == "/dev/stdout":
		n = 1
	case name == "/dev/stderr":
		n = 2
	case strings.HasPrefix(name, "/dev/fd/"), strings.HasPrefix(name, "/proc/self/fd/"):
		i, err := strconv.Atoi(name[strings.LastIndexByte(name, '/')+1:])
		if err != nil {
			return nil, false, nil
		}
		n = i
	default:
		return nil, false, nil
	}
	of := d.r.fds.get(n)
	if of == nil {
		return nil, true, &fs.PathError{Op: "open", Path: name, Err: syscall.ENOENT}
	}
	if flag&(os.O_WRONLY|os.O_RDWR) != 0 && of.w == nil || flag&(os.O_WRONLY|os.O_RDWR) == 0 && of.r == nil {
		return nil, true, &fs.PathError{Op: "open", Path: name, Err: syscall.EACCES}
	}
	// The open file keeps the descriptor's pipe alive until it is closed,
	// as an open of /dev/fd/N does on Linux.
	return &devFile{name: name, r: of.r, w: of.w, mode: fs.ModeNamedPipe | 0o600, held: of.retain()}, true, nil
}

func (d *devFS) Open(name string) (afero.File, error) { return d.OpenFile(name, os.O_RDONLY, 0) }

func (d *devFS) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if f, ok, err := d.device(name, flag); ok {
		return f, err
	}
	return d.FS.OpenFile(name, flag, perm)
}

// OpenExec keeps the filesystem's view of running a file (see
// vfs.OpenExec); a device is opened as usual.
func (d *devFS) OpenExec(name string) (afero.File, error) {
	if f, ok, err := d.device(name, os.O_RDONLY); ok {
		return f, err
	}
	return vfs.OpenExec(d.FS, name)
}

func (d *devFS) Create(name string) (afero.File, error) {
	return d.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (d *devFS) Stat(name string) (os.FileInfo, error) {
	if f, ok, err := d.device(name, os.O_RDONLY); ok {
		if err != nil {
			return nil, err
		}
		return f.Stat()
	}
	return d.FS.Stat(name)
}

func (d *devFS) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	if f, ok, err := d.device(name, os.O_RDONLY); ok {
		if err != nil {
			return nil, true, err
		}
		fi, err := f.Stat()
		return fi, true, err
	}
	return d.FS.LstatIfPossible(name)
}

// devFile is an open device or shell descriptor.
type devFile struct {
	held *openFile // released on Close
	once sync.Once
	name string
	r    io.Reader
	w    io.Writer
	mode fs.FileMode
}

func (f *devFile) Close() error {
	if f.held != nil {
		f.once.Do(f.held.release)
	}
	return nil
}
func (f *devFile) Read(b []byte) (int, error) {
	if f.r == nil {
		return 0, syscall.EBADF
	}
	return f.r.Read(b)
}

// ReadContext passes a command's context on to a pipe behind the device
// (`timeout 1 cat < <(sleep 100)` must end after a second).
func (f *devFile) ReadContext(ctx context.Context, b []byte) (int, error) {
	if cr, ok := f.r.(builtins.ContextReader); ok {
		return cr.ReadContext(ctx, b)
	}
	return f.Read(b)
}
func (f *devFile) ReadAt([]byte, int64) (int, error) { return 0, syscall.ESPIPE }
func (f *devFile) Seek(int64, int) (int64, error)    { return 0, syscall.ESPIPE }
func (f *devFile) Write(b []byte) (int, error) {
	if f.w == nil {
		return 0, syscall.EBADF
	}
	return f.w.Write(b)
}
func (f *devFile) WriteAt([]byte, int64) (int, error) { return 0, syscall.ESPIPE }
func (f *devFile) Name() string                       { return f.name }
func (f *devFile) Readdir(int) ([]os.FileInfo, error) { return nil, syscall.ENOTDIR }
func (f *devFile) Readdirnames(int) ([]string, error) { return nil, syscall.ENOTDIR }
func (f *devFile) Stat() (os.FileInfo, error)         { return devInfo{f}, nil }
func (f *devFile) Sync() error                        { return nil }
func (f *devFile) Truncate(int64) error               { return nil }
func (f *devFile) WriteString(s string) (int, error)  { return f.Write([]byte(s)) }
func (f *devFile) ReadFrom(r io.Reader) (n int64, err error) {
	return io.Copy(struct{ io.Writer }{f}, r)
}

type devInfo struct{ f *devFile }

func (i devInfo) Name() string       { return i.f.name[strings.LastIndexByte(i.f.name, '/')+1:] }
func (i devInfo) Size() int64        { return 0 }
func (i devInfo) Mode() fs.FileMode  { return i.f.mode }
func (i devInfo) ModTime() time.Time { return time.Time{} }
func (i devInfo) IsDir() bool        { return false }
func (i devInfo) Sys() any {
	return &vfs.Meta{Nlink: 1, UID: vfs.DefaultUID, GID: vfs.DefaultGID}
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// fullWriter is /dev/full's writing end.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

type zeroReader struct{}

func (zeroReader) Read(b []byte) (int, error) {
	clear(b)
	return len(b), nil
}

type randReader struct{ s *session }

func (r randReader) Read(b []byte) (int, error) {
	r.s.randMu.Lock()
	defer r.s.randMu.Unlock()
	for i := range b {
		b[i] = byte(r.s.rand.Uint32())
	}
	return len(b), nil
}

// The optional capabilities of the sandbox filesystem pass through the
// device layer, so in-process commands see them (ln, touch -h, df, umask).

// LinkIfPossible makes a hard link when the filesystem supports them.
func (d *devFS) LinkIfPossible(oldname, newname string) error {
	if hl, ok := d.FS.(vfs.HardLinker); ok {
		return hl.LinkIfPossible(oldname, newname)
	}
	return &os.LinkError{Op: "link", Old: oldname, New: newname, Err: syscall.ENOTSUP}
}

// LchtimesIfPossible sets a symlink's own times when supported.
func (d *devFS) LchtimesIfPossible(name string, atime, mtime time.Time) error {
	if lc, ok := d.FS.(vfs.LinkChtimer); ok {
		return lc.LchtimesIfPossible(name, atime, mtime)
	}
	return nil
}

// Usage reports the bytes and files stored, when the filesystem counts.
func (d *devFS) Usage() (int64, int) {
	if u, ok := d.FS.(interface{ Usage() (int64, int) }); ok {
		return u.Usage()
	}
	return 0, 0
}

// Limits reports the filesystem's byte and file limits, when it has any.
func (d *devFS) Limits() (int64, int) {
	if l, ok := d.FS.(interface{ Limits() (int64, int) }); ok {
		return l.Limits()
	}
	return 0, 0
}

// Cred is the identity and umask the filesystem acts with.
func (d *devFS) Cred() vfs.Cred {
	if c, ok := d.FS.(interface{ Cred() vfs.Cred }); ok {
		return c.Cred()
	}
	return vfs.Cred{UID: vfs.DefaultUID, GID: vfs.DefaultGID, Umask: 0o022}
}

// fdDir is the directory /dev/fd: one entry per open descriptor of the
// shell, plus the one the listing itself holds open, as Linux shows it
// (bash's `ls /dev/fd` prints 0 1 2 3).
func (d *devFS) fdDir(name string) *fdDirFile {
	fds := d.r.fds.fds
	nums := make([]int, 0, len(fds)+1)
	for n := range fds {
		nums = append(nums, n)
	}
	for own := 0; ; own++ {
		if _, used := fds[own]; !used {
			nums = append(nums, own)
			break
		}
	}
	slices.Sort(nums)
	entries := make([]os.FileInfo, 0, len(nums))
	for _, n := range nums {
		perm := fs.FileMode(0o700) // the listing's own descriptor is read-only, like any opened directory
		if of := fds[n]; of == nil || of.w == nil {
			perm = 0o500
		} else if of.r == nil {
			perm = 0o300
		}
		entries = append(entries, fdEntry{name: strconv.Itoa(n), mode: fs.ModeSymlink | perm})
	}
	return &fdDirFile{devFile: devFile{name: name, mode: fs.ModeDir | 0o500}, entries: entries}
}

// fdDirFile is an open /dev/fd; reading it lists the descriptors.
type fdDirFile struct {
	devFile
	entries []os.FileInfo
	read    int
}

func (f *fdDirFile) Stat() (os.FileInfo, error) {
	return fdEntry{name: path.Base(f.name), mode: f.mode}, nil
}
func (f *fdDirFile) Read([]byte) (int, error)  { return 0, syscall.EISDIR }
func (f *fdDirFile) Write([]byte) (int, error) { return 0, syscall.EISDIR }
func (f *fdDirFile) Readdir(n int) ([]os.FileInfo, error) {
	rest := f.entries[f.read:]
	if n > 0 {
		if len(rest) == 0 {
			return nil, io.EOF
		}
		rest = rest[:min(n, len(rest))]
	}
	f.read += len(rest)
	return rest, nil
}
func (f *fdDirFile) Readdirnames(n int) ([]string, error) {
	infos, err := f.Readdir(n)
	names := make([]string, len(infos))
	for i, fi := range infos {
		names[i] = fi.Name()
	}
	return names, err
}

// fdEntry describes /dev/fd or one of its entries.
type fdEntry struct {
	name string
	mode fs.FileMode
}

func (e fdEntry) Name() string       { return e.name }
func (e fdEntry) Size() int64        { return 0 }
func (e fdEntry) Mode() fs.FileMode  { return e.mode }
func (e fdEntry) ModTime() time.Time { return time.Time{} }
func (e fdEntry) IsDir() bool        { return e.mode.IsDir() }
func (e fdEntry) Sys() any {
	return &vfs.Meta{Nlink: 1, UID: vfs.DefaultUID, GID: vfs.DefaultGID}
}
