package vfs

import (
	"io/fs"
	"os"
	"sort"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/afero"
)

// MemFS is an in-memory filesystem with POSIX semantics: an inode tree
// with hard links, symbolic links, permission bits enforced for non-root
// users, kernel-like errors and optional size limits. It exists because
// afero.MemMapFs gets too much of that wrong for running real scripts.
//
// A MemFS value is a view of a shared tree through one set of credentials
// (Cred); As returns another view of the same tree. All views are safe for
// concurrent use: one mutex guards the whole tree, which keeps every
// operation atomic (O_APPEND writes, renames) at the cost of parallelism
// that an in-process sandbox does not need.
type MemFS struct {
	t    *memTree
	cred Cred
}

// Cred is the identity a MemFS view acts as. UID 0 bypasses permission
// checks like root; Umask is applied to the mode of new files and
// directories, as the kernel applies the process umask.
type Cred struct {
	UID, GID int
	Umask    fs.FileMode
}

// MemOption configures NewMem (and NewOverlay).
type MemOption func(*memConfig)

type memConfig struct {
	maxBytes    int64
	maxFiles    int
	maxFileSize int64
	cred        Cred
	now         func() time.Time
}

// WithMaxBytes limits the total size of all file contents; a write that
// would exceed it is cut short and fails with ENOSPC. 0 means no limit.
func WithMaxBytes(n int64) MemOption { return func(c *memConfig) { c.maxBytes = n } }

// WithMaxFiles limits the number of inodes (files, directories, symlinks)
// below the root; creating more fails with ENOSPC. 0 means no limit.
func WithMaxFiles(n int) MemOption { return func(c *memConfig) { c.maxFiles = n } }

// WithMaxFileSize limits the size of a single file; growing a file past it
// fails with EFBIG. 0 means no limit.
func WithMaxFileSize(n int64) MemOption { return func(c *memConfig) { c.maxFileSize = n } }

// WithUser sets the identity of the returned view (default: the sandbox
// user, DefaultUID/DefaultGID). The root directory of a new tree belongs
// to this user so that a fresh filesystem is writable by it.
func WithUser(uid, gid int) MemOption {
	return func(c *memConfig) { c.cred.UID, c.cred.GID = uid, gid }
}

// WithUmask sets the umask of the returned view (default 022).
func WithUmask(mask fs.FileMode) MemOption {
	return func(c *memConfig) { c.cred.Umask = mask & fs.ModePerm }
}

// WithClock sets the clock used for timestamps (default time.Now), which
// lets tests and replayable sessions get deterministic times.
func WithClock(now func() time.Time) MemOption { return func(c *memConfig) { c.now = now } }

// memTree is the state shared by all views of one filesystem.
type memTree struct {
	mu      sync.Mutex
	root    *inode
	cfg     memConfig
	nextIno uint64
	bytes   int64 // file bytes charged against cfg.maxBytes
	files   int   // inodes below the root charged against cfg.maxFiles
	lower   *lowerLayer
	// standard is set while Populate lays out the standard tree, whose
	// entries are not charged against cfg.maxFiles.
	standard bool

	// gen is the change generation (delta.go): 0 until the first Mark,
	// then every change is stamped with it. named lists the directories
	// whose names map holds entries, for Forget.
	gen   uint64
	named []*inode
}

// inode is one file, directory or symlink. Directory entries map names to
// inodes, so hard links are simply several entries sharing one inode.
type inode struct {
	ino   uint64
	mode  fs.FileMode // type bits | permission | setuid/setgid/sticky
	uid   int
	gid   int
	nlink uint64

	atime, mtime, ctime time.Time

	data   fileData          // regular file contents (none while lower-backed)
	size   int64             // regular file size
	target string            // symlink target, verbatim
	kids   map[string]*inode // directory entries; use memTree.children
	parent *inode            // directory: the ".." entry (the root is its own parent)

	opens   int   // open file handles: an unlinked inode lives until the last closes
	charged int64 // bytes charged against maxBytes for this inode
	counted bool  // charged against maxFiles

	// lower is set while the contents (file) or the entries (directory)
	// still live in the overlay's read-only host base.
	lower *lowerRef

	// Change tracking (delta.go). gen: the generation of the last change
	// of the inode itself (metadata or contents); dgen: of its contents;
	// subGen (directories): of the last change anywhere below, itself
	// included; names (directories): the generation at which each name
	// was last bound or unbound; dirs (non-directories): the directory of
	// each of its links, so that a write through an open handle can
	// flag the directories above it.
	gen, dgen, subGen uint64
	names             map[string]uint64
	dirs              []*inode
}

func (n *inode) isDir() bool     { return n.mode.IsDir() }
func (n *inode) isSymlink() bool { return n.mode&fs.ModeSymlink != 0 }
func (n *inode) isRegular() bool { return n.mode.IsRegular() }

// NewMem returns a new, empty in-memory filesystem whose root directory
// (mode 0755) belongs to the view's user.
func NewMem(opts ...MemOption) *MemFS {
	cfg := memConfig{
		cred: Cred{UID: DefaultUID, GID: DefaultGID, Umask: 0o022},
		now:  time.Now,
	}
	for _, o := range opts {
		o(&cfg)
	}
	t := &memTree{cfg: cfg}
	now := cfg.now()
	t.root = &inode{
		ino: t.newIno(), mode: fs.ModeDir | 0o755, uid: cfg.cred.UID, gid: cfg.cred.GID,
		nlink: 2, atime: now, mtime: now, ctime: now, kids: map[string]*inode{},
	}
	t.root.parent = t.root
	return &MemFS{t: t, cred: cfg.cred}
}

// As returns a view of the same tree acting with credentials c, e.g. a
// root view to lay out system directories the sandbox user cannot write.
func (m *MemFS) As(c Cred) *MemFS { return &MemFS{t: m.t, cred: c} }

// Cred returns the credentials of this view.
func (m *MemFS) Cred() Cred { return m.cred }

// Usage returns the file bytes and the number of inodes (below the root)
// currently charged against the limits. Unlinked files that are still
// open keep counting until closed, as on a real disk.
func (m *MemFS) Usage() (bytes int64, files int) {
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	return m.t.bytes, m.t.files
}

// setStandard marks (on) or ends the laying out of the standard tree.
func (m *MemFS) setStandard(on bool) {
	m.t.mu.Lock()
	m.t.standard = on
	m.t.mu.Unlock()
}

// uncharge takes the entries at paths off the max-files count: the
// standard tree Populate lays out is the sandbox's, not the run's (a
// tree loaded from a state file holds it already, charged).
func (m *MemFS) uncharge(paths []string) {
	t := m.t
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, p := range paths {
		if lk, err := m.resolve(p, false); err == nil && lk.node != nil && lk.node.counted {
			lk.node.counted = false
			t.files--
		}
	}
}

// Close releases the host directory held by an overlay; it is a no-op for
// a pure memory filesystem. The tree stays usable for memory-only paths.
func (m *MemFS) Close() error {
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	if m.t.lower == nil {
		return nil
	}
	return m.t.lower.close()
}

// Name implements afero.Fs.
func (m *MemFS) Name() string { return "MemFS" }

func (t *memTree) newIno() uint64 {
	t.nextIno++
	return t.nextIno
}

// Permission bits asked of access.
const (
	permR fs.FileMode = 4
	permW fs.FileMode = 2
	permX fs.FileMode = 1
)

// can reports whether the view may access n with want (a mix of permR,
// permW, permX), using the owner, group or other bits like the kernel:
// only the first class that matches the caller counts.
func (m *MemFS) can(n *inode, want fs.FileMode) bool {
	if m.cred.UID == 0 {
		return true
	}
	perm := n.mode.Perm()
	switch {
	case m.cred.UID == n.uid:
		perm >>= 6
	case m.cred.GID == n.gid:
		perm >>= 3
	}
	return perm&want == want
}

// canUnlink reports why the view may not remove entry n from dir: it needs
// write and search permission on dir and, in a sticky directory such as
// /tmp, must own either the entry or the directory.
func (m *MemFS) canUnlink(dir, n *inode) error {
	if !m.can(dir, permW|permX) {
		return syscall.EACCES
	}
	if dir.mode&fs.ModeSticky != 0 && m.cred.UID != 0 && m.cred.UID != n.uid && m.cred.UID != dir.uid {
		return syscall.EPERM
	}
	return nil
}

// lookup is the result of a path walk.
type lookup struct {
	dir      *inode // directory holding the last entry; nil for "/", "." and ".."
	name     string // last component
	node     *inode // the entry, nil when it does not exist (dir is then set)
	trailing bool   // the path ended in "/": the entry must be a directory
}

// resolve walks name from the root under t.mu. Intermediate symlinks are
// always followed (relative ones from their own directory, absolute ones
// from the root, at most 40 in all); a final symlink only when follow is
// set. A missing last component is not an error, nor is a trailing slash
// after a non-directory: the caller decides, so that errors come in the
// kernel's order. Every directory searched needs search permission.
// Errors are bare errnos for the caller to wrap.
func (m *MemFS) resolve(name string, follow bool) (lookup, error) {
	if name == "" {
		return lookup{}, syscall.ENOENT
	}
	if len(name) >= maxPathLen {
		return lookup{}, syscall.ENAMETOOLONG
	}
	t := m.t
	trailing := hasTrailingSlash(name)
	comps := splitPath(name)
	cur := t.root
	if len(comps) == 0 {
		return lookup{node: cur, name: "/"}, nil
	}
	hops := 0
	for len(comps) > 0 {
		c := comps[0]
		comps = comps[1:]
		last := len(comps) == 0
		if !m.can(cur, permX) {
			return lookup{}, syscall.EACCES
		}
		switch c {
		case ".":
			if last {
				return lookup{node: cur, name: c}, nil
			}
			continue
		case "..":
			cur = cur.parent
			if last {
				return lookup{node: cur, name: c}, nil
			}
			continue
		}
		if len(c) > maxNameLen {
			return lookup{}, syscall.ENAMETOOLONG
		}
		kids, err := t.children(cur)
		if err != nil {
			return lookup{}, err
		}
		child := kids[c]
		if child == nil {
			if last {
				return lookup{dir: cur, name: c, trailing: trailing}, nil
			}
			return lookup{}, syscall.ENOENT
		}
		if child.isSymlink() && (!last || follow) {
			hops++
			if hops > maxSymlinkHops {
				return lookup{}, syscall.ELOOP
			}
			target := child.target
			if target[0] == '/' {
				cur = t.root
			}
			if last && hasTrailingSlash(target) {
				trailing = true
			}
			tc := splitPath(target)
			if len(tc) == 0 { // the link points at "/"
				if last {
					return lookup{node: cur, name: "/"}, nil
				}
				continue
			}
			comps = append(tc, comps...)
			continue
		}
		if !last {
			if !child.isDir() {
				return lookup{}, syscall.ENOTDIR
			}
			cur = child
			continue
		}
		return lookup{dir: cur, name: c, node: child, trailing: trailing}, nil
	}
	panic("unreachable")
}

// children returns d's entries, first loading them from the overlay base
// if they still live there.
func (t *memTree) children(d *inode) (map[string]*inode, error) {
	if d.lower != nil {
		if err := t.loadDir(d); err != nil {
			return nil, err
		}
	}
	return d.kids, nil
}

// newChild creates an inode of the given type and permission in dir.
// perm is normalised and masked with the view's umask.
func (m *MemFS) newChild(dir *inode, name string, mode fs.FileMode, target string) (*inode, error) {
	t := m.t
	if !m.can(dir, permW|permX) {
		return nil, syscall.EACCES
	}
	if dir.nlink == 0 { // a removed directory takes no new entries
		return nil, syscall.ENOENT
	}
	if t.cfg.maxFiles > 0 && t.files >= t.cfg.maxFiles && !t.standard {
		return nil, filesLimit(t.cfg.maxFiles)
	}
	kids, err := t.children(dir)
	if err != nil {
		return nil, err
	}
	now := t.cfg.now()
	n := &inode{
		ino: t.newIno(), uid: m.cred.UID, gid: m.cred.GID,
		atime: now, mtime: now, ctime: now, counted: !t.standard,
	}
	typ := mode.Type()
	switch {
	case typ == fs.ModeSymlink:
		n.mode = fs.ModeSymlink | 0o777
		n.target = target
		n.nlink = 1
	case typ == fs.ModeDir:
		n.mode = fs.ModeDir | normPerm(mode)&^m.cred.Umask
		n.kids = map[string]*inode{}
		n.parent = dir
		n.nlink = 2
		dir.nlink++
	default:
		n.mode = normPerm(mode) &^ m.cred.Umask
		n.nlink = 1
	}
	// A set-group-ID directory hands its group down, and its flag to
	// subdirectories, as on Linux (BSD group semantics).
	if dir.mode&fs.ModeSetgid != 0 {
		n.gid = dir.gid
		if n.isDir() {
			n.mode |= fs.ModeSetgid
		}
	}
	kids[name] = n
	if !n.isDir() {
		n.dirs = []*inode{dir}
	}
	dir.mtime, dir.ctime = now, now
	if n.counted {
		t.files++
	}
	t.bound(dir, name)
	return n, nil
}

// unlink removes entry name (inode n) from dir, after the permission
// checks, and frees n once nothing references it.
func (m *MemFS) unlink(dir *inode, name string, n *inode) error {
	t := m.t
	if err := m.canUnlink(dir, n); err != nil {
		return err
	}
	if n.isDir() {
		kids, err := t.children(n)
		if err != nil {
			return err
		}
		if len(kids) > 0 {
			return syscall.ENOTEMPTY
		}
	}
	t.detach(dir, name, n)
	return nil
}

// detach drops entry name (inode n) from dir without checks.
func (t *memTree) detach(dir *inode, name string, n *inode) {
	now := t.cfg.now()
	delete(dir.kids, name)
	dir.mtime, dir.ctime = now, now
	if n.isDir() {
		dir.nlink--
		n.nlink = 0
	} else {
		n.nlink--
		n.ctime = now
		n.dirs = dropDir(n.dirs, dir)
	}
	t.bound(dir, name)
	t.release(n)
}

// release frees n's resources once it has neither names nor open handles.
func (t *memTree) release(n *inode) {
	if n.nlink > 0 || n.opens > 0 {
		return
	}
	t.bytes -= n.charged
	n.charged = 0
	n.data = fileData{}
	n.lower = nil
	if n.counted {
		t.files--
		n.counted = false
	}
}

// setSize resizes a regular in-memory file, and keeps the byte accounting
// right. Growth is a hole that reads as zeros and takes no memory until
// written. Limits are checked by the callers.
func (t *memTree) setSize(n *inode, size int64) {
	if size < n.size {
		n.data.truncate(size)
	}
	n.size = size
	t.bytes += size - n.charged
	n.charged = size
}

// room returns how large file n may grow to (at most want), and the error
// to report when that falls short of want.
func (t *memTree) room(n *inode, want int64) (int64, error) {
	var err error
	if lim := t.cfg.maxFileSize; lim > 0 && want > lim {
		want, err = lim, fileSizeLimit(lim)
	}
	if lim := t.cfg.maxBytes; lim > 0 && want > n.charged {
		free := lim - t.bytes
		if free < 0 {
			free = 0
		}
		if want-n.charged > free {
			want, err = n.charged+free, bytesLimit(lim)
		}
	}
	return want, err
}

// truncate sets the size of regular file n, checking the limits.
func (t *memTree) truncate(n *inode, size int64) error {
	if size < 0 {
		return syscall.EINVAL
	}
	if n.isDir() {
		return syscall.EISDIR
	}
	if !n.isRegular() {
		return syscall.EINVAL
	}
	if n.lower != nil {
		if size == 0 {
			n.lower = nil
			n.size = 0
		} else if err := t.copyUp(n); err != nil {
			return err
		}
	}
	if size > n.size {
		if got, err := t.room(n, size); got < size {
			return err
		}
	}
	t.setSize(n, size)
	now := t.cfg.now()
	n.mtime, n.ctime = now, now
	t.touchData(n)
	return nil
}

// writeAt writes p at off (at the end when appending) into n and returns
// the count written and the offset after it. Writes that hit a limit are
// cut short, like a kernel write on a full disk.
func (t *memTree) writeAt(n *inode, p []byte, off int64, appending bool) (int, int64, error) {
	if n.lower != nil {
		if err := t.copyUp(n); err != nil {
			return 0, off, err
		}
	}
	if appending {
		off = n.size
	}
	if len(p) == 0 {
		return 0, off, nil
	}
	end := off + int64(len(p))
	got, err := t.room(n, end)
	if got <= off {
		return 0, off, err
	}
	if got > n.size {
		t.setSize(n, got)
	}
	w := int(got - off)
	n.data.writeAt(p[:w], off)
	now := t.cfg.now()
	n.mtime, n.ctime = now, now
	t.touchData(n)
	if got < end {
		return w, off + int64(w), err
	}
	return w, off + int64(w), nil
}

// info snapshots n as a FileInfo named name. Snapshots keep FileInfo
// race-free: they never look at the live inode again.
func (t *memTree) info(name string, n *inode) *fileInfo {
	fi := &fileInfo{
		name:  name,
		mode:  n.mode,
		mtime: n.mtime,
		meta: Meta{
			Ino: n.ino, Nlink: n.nlink, UID: n.uid, GID: n.gid,
			Atime: n.atime, Ctime: n.ctime,
		},
	}
	switch {
	case n.isDir():
		fi.size = 4096
	case n.isSymlink():
		fi.size = int64(len(n.target))
	default:
		fi.size = n.size
	}
	return fi
}

// sortedNames returns the names in kids in byte order: directory listings
// in sandsh are deterministic.
func sortedNames(kids map[string]*inode) []string {
	names := make([]string, 0, len(kids))
	for k := range kids {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// Create implements afero.Fs like os.Create.
func (m *MemFS) Create(name string) (afero.File, error) {
	return m.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

// Open implements afero.Fs like os.Open.
func (m *MemFS) Open(name string) (afero.File, error) {
	return m.OpenFile(name, os.O_RDONLY, 0)
}

// OpenFile implements afero.Fs like os.OpenFile: O_CREATE, O_EXCL,
// O_TRUNC, O_APPEND, O_NOFOLLOW and O_DIRECTORY are honoured; the other
// flags (O_SYNC, ...) have nothing to do in memory.
func (m *MemFS) OpenFile(name string, flag int, perm fs.FileMode) (afero.File, error) {
	f, err := m.openFile(name, flag, perm)
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	return f, nil
}

func (m *MemFS) openFile(name string, flag int, perm fs.FileMode) (*memFile, error) {
	t := m.t
	t.mu.Lock()
	defer t.mu.Unlock()
	creat, excl := flag&os.O_CREATE != 0, flag&os.O_EXCL != 0
	follow := flag&oNoFollow == 0 && !(creat && excl)
	lk, err := m.resolve(name, follow || hasTrailingSlash(name))
	if err != nil {
		return nil, err
	}
	acc := flag & (os.O_RDONLY | os.O_WRONLY | os.O_RDWR)
	rd := acc == os.O_RDONLY || acc == os.O_RDWR
	wr := acc == os.O_WRONLY || acc == os.O_RDWR
	trunc := flag&os.O_TRUNC != 0
	n := lk.node
	created := false
	switch {
	case n != nil && lk.trailing && !n.isDir():
		return nil, syscall.ENOTDIR
	case n == nil:
		if !creat {
			return nil, syscall.ENOENT
		}
		if lk.trailing {
			return nil, syscall.EISDIR
		}
		if n, err = m.newChild(lk.dir, lk.name, normPerm(perm), ""); err != nil {
			return nil, err
		}
		created = true
	case creat && excl:
		return nil, syscall.EEXIST
	case n.isSymlink(): // only reached with O_NOFOLLOW
		return nil, syscall.ELOOP
	case n.isDir():
		if wr || creat || trunc {
			return nil, syscall.EISDIR
		}
		if !m.can(n, permR) {
			return nil, syscall.EACCES
		}
	default:
		if flag&oDirectory != 0 {
			return nil, syscall.ENOTDIR
		}
		if !n.isRegular() { // host fifos, devices, sockets shown by an overlay
			return nil, syscall.EACCES
		}
		if (rd && !m.can(n, permR)) || ((wr || trunc) && !m.can(n, permW)) {
			return nil, syscall.EACCES
		}
	}
	if n.isRegular() && !created {
		// Linux truncates even for O_RDONLY|O_TRUNC; so do we.
		if trunc {
			if err := t.truncate(n, 0); err != nil {
				return nil, err
			}
		} else if wr && n.lower != nil {
			if err := t.copyUp(n); err != nil {
				return nil, err
			}
		}
	}
	n.opens++
	return &memFile{
		t: t, m: m, node: n, name: name,
		read: rd, write: wr, append: flag&os.O_APPEND != 0, isDir: n.isDir(),
	}, nil
}

// Mkdir implements afero.Fs like os.Mkdir.
func (m *MemFS) Mkdir(name string, perm fs.FileMode) error {
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	return pathErr("mkdir", name, m.mkdir(name, perm))
}

func (m *MemFS) mkdir(name string, perm fs.FileMode) error {
	lk, err := m.resolve(name, false)
	if err != nil {
		return err
	}
	if lk.node != nil {
		return syscall.EEXIST
	}
	_, err = m.newChild(lk.dir, lk.name, fs.ModeDir|normPerm(perm), "")
	return err
}

// MkdirAll implements afero.Fs like os.MkdirAll, atomically: concurrent
// MkdirAll calls of overlapping paths all succeed.
func (m *MemFS) MkdirAll(name string, perm fs.FileMode) error {
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	if name == "" {
		return pathErr("mkdir", name, syscall.ENOENT)
	}
	p := ""
	if name[0] == '/' {
		p = "/"
	}
	for _, c := range splitPath(name) {
		p += c
		lk, err := m.resolve(p, true)
		if err == nil && lk.node != nil && lk.trailing && !lk.node.isDir() {
			err = syscall.ENOTDIR // a link to "file/": stat fails
		}
		switch {
		case err == nil && lk.node != nil && !lk.node.isDir():
			return pathErr("mkdir", p, syscall.ENOTDIR)
		case err != nil || lk.node == nil:
			// Missing, a dangling symlink (EEXIST) or unresolvable (a
			// loop): try mkdir, whose error os.MkdirAll would report.
			if err := m.mkdir(p, perm); err != nil {
				return pathErr("mkdir", p, err)
			}
		}
		p += "/"
	}
	return nil
}

// Remove implements afero.Fs like os.Remove: a file, a symlink or an
// empty directory.
func (m *MemFS) Remove(name string) error {
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	return pathErr("remove", name, m.remove(name))
}

func (m *MemFS) remove(name string) error {
	lk, err := m.resolve(name, false)
	if err != nil {
		return err
	}
	if err := badLast(lk); err != nil {
		return err
	}
	if lk.trailing && !lk.node.isDir() {
		return syscall.ENOTDIR
	}
	return m.unlink(lk.dir, lk.name, lk.node)
}

// badLast rejects the last components no entry can be removed or renamed
// by: a missing one, "/" (busy), "." (invalid) and ".." (not empty).
func badLast(lk lookup) error {
	switch {
	case lk.node == nil:
		return syscall.ENOENT
	case lk.dir != nil:
		return nil
	case lk.name == ".":
		return syscall.EINVAL
	case lk.name == "..":
		return syscall.ENOTEMPTY
	}
	return syscall.EBUSY
}

// RemoveAll implements afero.Fs like os.RemoveAll: it removes what it may
// and returns the first error; a missing path is not an error.
func (m *MemFS) RemoveAll(name string) error {
	// Like os.RemoveAll and rm -rf, refuse to remove "." or "..".
	if dotLast(name) {
		return pathErr("unlinkat", name, syscall.EINVAL)
	}
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	lk, err := m.resolve(name, false)
	if err == syscall.ENOENT || err == nil && lk.node == nil {
		return nil
	}
	if err != nil {
		return pathErr("unlinkat", name, err)
	}
	if lk.dir == nil {
		if lk.name == "/" {
			// Empty the root but keep it, as it cannot go away.
			return m.removeKids(name, lk.node)
		}
		return pathErr("unlinkat", name, syscall.EINVAL)
	}
	if lk.trailing && !lk.node.isDir() {
		return pathErr("unlinkat", name, syscall.ENOTDIR)
	}
	return m.removeTree(name, lk.dir, lk.name, lk.node)
}

func (m *MemFS) removeTree(p string, dir *inode, name string, n *inode) error {
	var first error
	if n.isDir() {
		first = m.removeKids(p, n)
	}
	if err := m.unlink(dir, name, n); err != nil && first == nil {
		first = pathErr("unlinkat", p, err)
	}
	return first
}

func (m *MemFS) removeKids(p string, d *inode) error {
	if !m.can(d, permR|permX) {
		return pathErr("open", p, syscall.EACCES)
	}
	kids, err := m.t.children(d)
	if err != nil {
		return pathErr("open", p, err)
	}
	var first error
	for _, k := range sortedNames(kids) {
		if err := m.removeTree(joinPath(p, k), d, k, kids[k]); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func joinPath(dir, name string) string {
	if dir == "" || dir[len(dir)-1] == '/' {
		return dir + name
	}
	return dir + "/" + name
}

// Rename implements afero.Fs with the POSIX rules of rename(2): a file may
// replace a file, a directory may replace an empty directory, a directory
// may not move into itself, and renaming a name onto another link of the
// same inode does nothing.
func (m *MemFS) Rename(oldname, newname string) error {
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	return linkErr("rename", oldname, newname, m.rename(oldname, newname))
}

func (m *MemFS) rename(oldname, newname string) error {
	t := m.t
	lo, err := m.resolve(oldname, false)
	if err != nil {
		return err
	}
	ln, err := m.resolve(newname, false)
	if err != nil {
		return err
	}
	// "/", "." and ".." cannot be renamed or replaced.
	if lo.dir == nil || ln.dir == nil {
		return syscall.EBUSY
	}
	if lo.node == nil {
		return syscall.ENOENT
	}
	src, dst := lo.node, ln.node
	// From here on the checks follow do_renameat2 and vfs_rename in
	// order, so that the same error wins when several apply.
	if (lo.trailing || ln.trailing) && !src.isDir() {
		return syscall.ENOTDIR
	}
	if lo.dir != ln.dir {
		// The source may not be an ancestor of the target's directory,
		// and the target may not be an ancestor of the source.
		if isAncestor(t, src, ln.dir) {
			return syscall.EINVAL
		}
		if dst != nil && isAncestor(t, dst, lo.dir) {
			return syscall.ENOTEMPTY
		}
	}
	if src == dst {
		return nil
	}
	if err := m.canUnlink(lo.dir, src); err != nil {
		return err
	}
	if dst == nil {
		if !m.can(ln.dir, permW|permX) {
			return syscall.EACCES
		}
	} else {
		if err := m.canUnlink(ln.dir, dst); err != nil {
			return err
		}
		switch {
		case src.isDir() && !dst.isDir():
			return syscall.ENOTDIR
		case !src.isDir() && dst.isDir():
			return syscall.EISDIR
		}
	}
	// Moving a directory rewrites its "..": that needs write permission on
	// the directory itself.
	if src.isDir() && lo.dir != ln.dir && !m.can(src, permW) {
		return syscall.EACCES
	}
	if dst != nil && dst.isDir() {
		kids, err := t.children(dst)
		if err != nil {
			return err
		}
		if len(kids) > 0 {
			return syscall.ENOTEMPTY
		}
	}
	newKids, err := t.children(ln.dir)
	if err != nil {
		return err
	}
	if dst != nil {
		t.detach(ln.dir, ln.name, dst)
	}
	now := t.cfg.now()
	delete(lo.dir.kids, lo.name)
	newKids[ln.name] = src
	lo.dir.mtime, lo.dir.ctime = now, now
	ln.dir.mtime, ln.dir.ctime = now, now
	src.ctime = now
	if src.isDir() && lo.dir != ln.dir {
		lo.dir.nlink--
		ln.dir.nlink++
		src.parent = ln.dir
	}
	if !src.isDir() && lo.dir != ln.dir {
		src.dirs = append(dropDir(src.dirs, lo.dir), ln.dir)
	}
	t.bound(lo.dir, lo.name)
	t.bound(ln.dir, ln.name)
	return nil
}

// isAncestor reports whether directory a is d or one of d's ancestors.
func isAncestor(t *memTree, a, d *inode) bool {
	for ; ; d = d.parent {
		if d == a {
			return true
		}
		if d == t.root {
			return false
		}
	}
}

// Stat implements afero.Fs like os.Stat.
func (m *MemFS) Stat(name string) (fs.FileInfo, error) {
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	fi, err := m.stat(name, true)
	return fi, pathErr("stat", name, err)
}

// LstatIfPossible implements afero.Lstater like os.Lstat.
func (m *MemFS) LstatIfPossible(name string) (fs.FileInfo, bool, error) {
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	// A trailing slash makes even lstat follow the link, as on Linux.
	fi, err := m.stat(name, hasTrailingSlash(name))
	return fi, true, pathErr("lstat", name, err)
}

func (m *MemFS) stat(name string, follow bool) (fs.FileInfo, error) {
	lk, err := m.resolve(name, follow)
	if err != nil {
		return nil, err
	}
	if lk.node == nil {
		return nil, syscall.ENOENT
	}
	if lk.trailing && !lk.node.isDir() {
		return nil, syscall.ENOTDIR
	}
	return m.t.info(baseName(name), lk.node), nil
}

// SymlinkIfPossible implements afero.Linker like os.Symlink. The target
// is stored verbatim and only interpreted when the link is followed.
func (m *MemFS) SymlinkIfPossible(oldname, newname string) error {
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	return linkErr("symlink", oldname, newname, m.symlink(oldname, newname))
}

func (m *MemFS) symlink(target, name string) error {
	if target == "" {
		return syscall.ENOENT
	}
	if len(target) >= maxPathLen {
		return syscall.ENAMETOOLONG
	}
	lk, err := m.resolve(name, false)
	if err != nil {
		return err
	}
	if lk.node != nil {
		return syscall.EEXIST
	}
	if lk.trailing {
		return syscall.ENOENT
	}
	_, err = m.newChild(lk.dir, lk.name, fs.ModeSymlink, target)
	return err
}

// ReadlinkIfPossible implements afero.LinkReader like os.Readlink.
func (m *MemFS) ReadlinkIfPossible(name string) (string, error) {
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	// "link/" follows the link, as in the kernel, and then is no symlink.
	lk, err := m.resolve(name, hasTrailingSlash(name))
	switch {
	case err != nil:
	case lk.node == nil:
		err = syscall.ENOENT
	case lk.trailing && !lk.node.isDir():
		err = syscall.ENOTDIR
	case !lk.node.isSymlink():
		err = syscall.EINVAL
	default:
		return lk.node.target, nil
	}
	return "", pathErr("readlink", name, err)
}

// LinkIfPossible implements HardLinker like os.Link: newname becomes
// another name of oldname's inode (never of a directory, and never
// following a symlink oldname).
func (m *MemFS) LinkIfPossible(oldname, newname string) error {
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	return linkErr("link", oldname, newname, m.link(oldname, newname))
}

// linkCommands links each name of names (those commandName accepts) in
// dir to dir's entry first, as LinkIfPossible(dir/first, dir/name) would
// but under one lock and with dir resolved once; a name already in dir is
// left alone. It stops at the first name it cannot link this way (too
// long, or anything unusual about dir or first) and returns its index,
// len(names) when it linked them all.
func (m *MemFS) linkCommands(dir, first string, names []string) int {
	t := m.t
	t.mu.Lock()
	defer t.mu.Unlock()
	ld, err := m.resolve(dir, true)
	if err != nil || ld.node == nil || !ld.node.isDir() || !m.can(ld.node, permW|permX) {
		return 0
	}
	d := ld.node
	kids, err := t.children(d)
	if err != nil {
		return 0
	}
	n := kids[first]
	if n == nil || n.isDir() || n.isSymlink() || (m.cred.UID != 0 && m.cred.UID != n.uid && !(n.isRegular() && m.can(n, permR|permW))) {
		return 0
	}
	for i, name := range names {
		if !commandName(name) {
			continue
		}
		if len(name) > maxNameLen {
			return i
		}
		if kids[name] != nil {
			continue
		}
		now := t.cfg.now()
		kids[name] = n
		n.nlink++
		n.dirs = append(n.dirs, d)
		n.ctime = now
		d.mtime, d.ctime = now, now
		t.bound(d, name)
	}
	return len(names)
}

func (m *MemFS) link(oldname, newname string) error {
	t := m.t
	// "link/" follows the link (and then must be a directory: EPERM).
	lo, err := m.resolve(oldname, hasTrailingSlash(oldname))
	if err != nil {
		return err
	}
	if lo.node == nil {
		return syscall.ENOENT
	}
	n := lo.node
	if lo.trailing && !n.isDir() {
		return syscall.ENOTDIR
	}
	// The checks come in the kernel's order, so that the same error wins.
	ln, err := m.resolve(newname, false)
	if err != nil {
		return err
	}
	if ln.node != nil {
		return syscall.EEXIST
	}
	if ln.trailing {
		return syscall.ENOENT
	}
	// fs.protected_hardlinks (on by default): only the owner, or someone
	// who may read and write a regular file, may link to it.
	if m.cred.UID != 0 && m.cred.UID != n.uid && !(n.isRegular() && m.can(n, permR|permW)) {
		return syscall.EPERM
	}
	if !m.can(ln.dir, permW|permX) {
		return syscall.EACCES
	}
	if n.isDir() {
		return syscall.EPERM
	}
	kids, err := t.children(ln.dir)
	if err != nil {
		return err
	}
	now := t.cfg.now()
	kids[ln.name] = n
	n.nlink++
	n.dirs = append(n.dirs, ln.dir)
	n.ctime = now
	ln.dir.mtime, ln.dir.ctime = now, now
	t.bound(ln.dir, ln.name)
	return nil
}

// Chmod implements afero.Fs like os.Chmod (following symlinks); only the
// owner may change the mode.
func (m *MemFS) Chmod(name string, mode fs.FileMode) error {
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	n, err := m.target(name)
	if err == nil && m.cred.UID != 0 && m.cred.UID != n.uid {
		err = syscall.EPERM
	}
	if err != nil {
		return pathErr("chmod", name, err)
	}
	n.mode = n.mode.Type() | normPerm(mode)
	n.ctime = m.t.cfg.now()
	m.t.touch(n)
	return nil
}

// Chown implements afero.Fs like os.Chown (following symlinks; -1 keeps
// an id). As on Linux only root may give a file away; the owner may only
// change the group to one of its own.
func (m *MemFS) Chown(name string, uid, gid int) error {
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	n, err := m.target(name)
	if err != nil {
		return pathErr("chown", name, err)
	}
	if uid == -1 {
		uid = n.uid
	}
	if gid == -1 {
		gid = n.gid
	}
	if m.cred.UID != 0 && (uid != n.uid || gid != n.gid && (m.cred.UID != n.uid || gid != m.cred.GID)) {
		return pathErr("chown", name, syscall.EPERM)
	}
	n.uid, n.gid = uid, gid
	n.ctime = m.t.cfg.now()
	m.t.touch(n)
	return nil
}

// Chtimes implements afero.Fs like os.Chtimes (a zero time leaves that
// time alone). The owner may set any time; others need write permission,
// which is what the kernel asks for "touch" (set to now).
func (m *MemFS) Chtimes(name string, atime, mtime time.Time) error {
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	n, err := m.target(name)
	if err == nil && m.cred.UID != 0 && m.cred.UID != n.uid && !m.can(n, permW) {
		err = syscall.EPERM
	}
	if err != nil {
		return pathErr("chtimes", name, err)
	}
	if !atime.IsZero() {
		n.atime = atime
	}
	if !mtime.IsZero() {
		n.mtime = mtime
	}
	n.ctime = m.t.cfg.now()
	m.t.touch(n)
	return nil
}

// LchtimesIfPossible sets the times of name itself, not following a
// final symlink (touch -h).
func (m *MemFS) LchtimesIfPossible(name string, atime, mtime time.Time) error {
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	lk, err := m.resolve(name, false)
	if err == nil && lk.node == nil {
		err = syscall.ENOENT
	}
	if err == nil && m.cred.UID != 0 && m.cred.UID != lk.node.uid {
		err = syscall.EPERM
	}
	if err != nil {
		return pathErr("lchtimes", name, err)
	}
	n := lk.node
	if !atime.IsZero() {
		n.atime = atime
	}
	if !mtime.IsZero() {
		n.mtime = mtime
	}
	n.ctime = m.t.cfg.now()
	m.t.touch(n)
	return nil
}

// target resolves name, following symlinks, to an existing inode.
func (m *MemFS) target(name string) (*inode, error) {
	lk, err := m.resolve(name, true)
	if err != nil {
		return nil, err
	}
	if lk.node == nil {
		return nil, syscall.ENOENT
	}
	if lk.trailing && !lk.node.isDir() {
		return nil, syscall.ENOTDIR
	}
	return lk.node, nil
}

var (
	_ FS         = (*MemFS)(nil)
	_ HardLinker = (*MemFS)(nil)
)
