package vfs

import (
	"io/fs"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/afero"
)

// PathRules are the directory lists of a policy's `paths:` section.
type PathRules struct {
	// Read lists the directories whose files may be read and listed; nil
	// means everywhere. The Write directories are readable too.
	Read []string
	// Write lists the directories in which files may be created, written,
	// removed, renamed, linked or have their mode, owner or times changed;
	// nil means everywhere.
	Write []string
	// Denied, when set, is called for every refusal with the operation,
	// the name the caller used, the resolved path that was checked and
	// the access that was missing ("read" or "write").
	Denied func(op, name, resolved, access string)
}

// RestrictPaths returns a view of fsys that confines reading and writing
// to the directories of rules, the way Landlock does for a process:
// looking at metadata (stat, lstat, readlink, a $PATH search, cd) is not
// restricted, reading a file or listing a directory needs read access,
// and every change needs write access. A refusal is EACCES, so commands
// say "Permission denied".
//
// The decision is made on the path as it resolves: every symlink in the
// name (and a final one for the operations that follow it) is followed
// and ".." is taken physically, and the operation is then done on that
// resolved, symlink-free path, so a link in a writable directory into a
// read-only one, or a name that the underlying filesystem would resolve
// differently, cannot carry an access the check did not see. Operations
// that change what a name resolves to (rename, remove, symlink, link,
// chmod, chown) are serialised against the check-and-use of every other
// operation, so a concurrent job cannot swap a directory for a link
// between the two.
//
// A hard link needs write access to both names: otherwise linking a
// read-only file into a writable directory would make it writable.
func RestrictPaths(fsys FS, rules PathRules) FS {
	return &pathsFS{FS: fsys, read: cleanDirs(rules.Read), write: cleanDirs(rules.Write), denied: rules.Denied}
}

func cleanDirs(dirs []string) []string {
	if dirs == nil {
		return nil
	}
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		out = append(out, Clean("/", d))
	}
	return out
}

type pathsFS struct {
	FS
	read, write []string // nil: everywhere
	denied      func(op, name, resolved, access string)
	// mu is held shared for resolve-and-operate, exclusively by the
	// operations that can change how a name resolves.
	mu sync.RWMutex
}

func (p *pathsFS) Name() string { return "RestrictPaths(" + p.FS.Name() + ")" }

// under reports whether name is dir or below it.
func under(name, dir string) bool {
	return dir == "/" || name == dir || strings.HasPrefix(name, dir+"/")
}

func underAny(name string, dirs []string) bool {
	for _, d := range dirs {
		if under(name, d) {
			return true
		}
	}
	return false
}

func (p *pathsFS) readable(name string) bool {
	name = strings.TrimSuffix(name, "/")
	if name == "" {
		name = "/"
	}
	return p.read == nil || underAny(name, p.read) || p.write != nil && underAny(name, p.write)
}

func (p *pathsFS) writable(name string) bool {
	name = strings.TrimSuffix(name, "/")
	if name == "" {
		name = "/"
	}
	return p.write == nil || underAny(name, p.write)
}

// allow checks resolved against the access needed and reports the
// refusal.
func (p *pathsFS) allow(op, name, resolved string, read, write bool) error {
	access := ""
	switch {
	case read && !p.readable(resolved):
		access = "read"
	case write && !p.writable(resolved):
		access = "write"
	default:
		return nil
	}
	if p.denied != nil {
		p.denied(op, name, resolved, access)
	}
	return syscall.EACCES
}

// resolve is the kernel's path walk over the filesystem below: it
// returns name with every symlink followed (the last component only with
// follow, or with a trailing slash) and ".." taken physically, keeping a
// trailing slash. A final component that does not exist is kept as is.
func (p *pathsFS) resolve(name string, follow bool) (string, error) {
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
	join := func(parts []string) string { return "/" + strings.Join(parts, "/") }
	for len(comps) > 0 {
		c := comps[0]
		comps = comps[1:]
		last := len(comps) == 0
		if c == "." || c == ".." {
			if c == ".." && len(done) > 0 {
				done = done[:len(done)-1]
			}
			continue
		}
		cand := join(append(done, c))
		if last && !follow && !trailing {
			done = append(done, c)
			break
		}
		fi, _, err := p.FS.LstatIfPossible(cand)
		if err != nil {
			if e := errnoOf(err); e == syscall.ENOENT && last {
				done = append(done, c)
				break
			}
			return "", bareErr(err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 && (follow || !last) {
			if hops++; hops > maxSymlinkHops {
				return "", syscall.ELOOP
			}
			target, err := p.FS.ReadlinkIfPossible(cand)
			if err != nil {
				return "", bareErr(err)
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
	r := join(done)
	if trailing && r != "/" {
		r += "/"
	}
	return r, nil
}

// bareErr is err's errno, or err itself when it carries none.
func bareErr(err error) error {
	if e := errnoOf(err); e != 0 {
		return e
	}
	return err
}

func resolveErr(op, name string, err error) error {
	if err == nil {
		return nil
	}
	return pathErr(op, name, err)
}

// renamed puts the caller's name back into an error about resolved.
func renamed(err error, name, resolved string) error {
	if err == nil || name == resolved {
		return err
	}
	switch e := err.(type) {
	case *fs.PathError:
		if e.Path == resolved {
			return &fs.PathError{Op: e.Op, Path: name, Err: e.Err}
		}
	case *os.LinkError:
		le := *e
		if le.Old == resolved {
			le.Old = name
		}
		if le.New == resolved {
			le.New = name
		}
		return &le
	}
	return err
}

// check resolves name and checks the access; it returns the path to
// operate on. Called with p.mu held.
func (p *pathsFS) check(op, name string, follow, read, write bool) (string, error) {
	r, err := p.resolve(name, follow)
	if err != nil {
		return "", resolveErr(op, name, err)
	}
	if err := p.allow(op, name, r, read, write); err != nil {
		return "", pathErr(op, name, err)
	}
	return r, nil
}

func (p *pathsFS) Create(name string) (afero.File, error) {
	return p.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (p *pathsFS) Open(name string) (afero.File, error) { return p.OpenFile(name, os.O_RDONLY, 0) }

func (p *pathsFS) OpenFile(name string, flag int, perm fs.FileMode) (afero.File, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	follow := flag&oNoFollow == 0 && !(flag&os.O_CREATE != 0 && flag&os.O_EXCL != 0)
	read := flag&(os.O_WRONLY|os.O_RDWR) != os.O_WRONLY
	write := flag&mutatingFlags != 0
	r, err := p.check("open", name, follow, read, write)
	if err != nil {
		return nil, err
	}
	f, err := p.FS.OpenFile(r, flag, perm)
	if err != nil {
		return nil, renamed(err, name, r)
	}
	if r != name {
		return &namedFile{File: f, name: name}, nil
	}
	return f, nil
}

// Stat and the other queries of metadata are not restricted (as under
// Landlock): a $PATH search, cd and test -e work everywhere.
func (p *pathsFS) Stat(name string) (os.FileInfo, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	r, err := p.resolve(name, true)
	if err != nil {
		return nil, resolveErr("stat", name, err)
	}
	fi, err := p.FS.Stat(r)
	if err != nil {
		return nil, renamed(err, name, r)
	}
	if b := baseName(name); fi.Name() != b {
		fi = namedInfo{fi, b}
	}
	return fi, nil
}

func (p *pathsFS) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	r, err := p.resolve(name, false)
	if err != nil {
		return nil, true, resolveErr("lstat", name, err)
	}
	fi, ok, err := p.FS.LstatIfPossible(r)
	if err != nil {
		return nil, ok, renamed(err, name, r)
	}
	if b := baseName(name); fi.Name() != b {
		fi = namedInfo{fi, b}
	}
	return fi, ok, nil
}

func (p *pathsFS) ReadlinkIfPossible(name string) (string, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	r, err := p.resolve(name, false)
	if err != nil {
		return "", resolveErr("readlink", name, err)
	}
	s, err := p.FS.ReadlinkIfPossible(r)
	return s, renamed(err, name, r)
}

func (p *pathsFS) Mkdir(name string, perm fs.FileMode) error {
	p.mu.RLock()
	defer p.mu.RUnlock()
	r, err := p.check("mkdir", name, false, false, true)
	if err != nil {
		return err
	}
	return renamed(p.FS.Mkdir(r, perm), name, r)
}

// MkdirAll makes the missing directories one by one through Mkdir, so
// each is resolved and checked where it is made.
func (p *pathsFS) MkdirAll(name string, perm fs.FileMode) error {
	if fi, err := p.Stat(name); err == nil {
		if fi.IsDir() {
			return nil
		}
		return pathErr("mkdir", name, syscall.ENOTDIR)
	}
	comps := splitPath(name)
	cur := ""
	for _, c := range comps {
		cur += "/" + c
		fi, err := p.Stat(cur)
		if err == nil {
			if !fi.IsDir() {
				return pathErr("mkdir", cur, syscall.ENOTDIR)
			}
			continue
		}
		if err := p.Mkdir(cur, perm); err != nil {
			if fi, serr := p.Stat(cur); serr == nil && fi.IsDir() {
				continue // made by someone else meanwhile
			}
			return err
		}
	}
	return nil
}

// change runs a namespace-changing operation on one name exclusively.
func (p *pathsFS) change(op, name string, follow bool, fn func(string) error) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	r, err := p.check(op, name, follow, false, true)
	if err != nil {
		return err
	}
	return renamed(fn(r), name, r)
}

func (p *pathsFS) Remove(name string) error {
	return p.change("remove", name, false, p.FS.Remove)
}

func (p *pathsFS) RemoveAll(name string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	r, err := p.resolve(name, false)
	if err != nil {
		if err == syscall.ENOENT {
			return nil // like os.RemoveAll of a missing path
		}
		return resolveErr("unlinkat", name, err)
	}
	if _, _, err := p.FS.LstatIfPossible(r); errnoOf(err) == syscall.ENOENT {
		return nil
	}
	if err := p.allow("unlinkat", name, r, false, true); err != nil {
		return pathErr("unlinkat", name, err)
	}
	return renamed(p.FS.RemoveAll(r), name, r)
}

func (p *pathsFS) Chmod(name string, mode fs.FileMode) error {
	return p.change("chmod", name, true, func(r string) error { return p.FS.Chmod(r, mode) })
}

func (p *pathsFS) Chown(name string, uid, gid int) error {
	return p.change("chown", name, true, func(r string) error { return p.FS.Chown(r, uid, gid) })
}

func (p *pathsFS) Chtimes(name string, atime, mtime time.Time) error {
	p.mu.RLock()
	defer p.mu.RUnlock()
	r, err := p.check("chtimes", name, true, false, true)
	if err != nil {
		return err
	}
	return renamed(p.FS.Chtimes(r, atime, mtime), name, r)
}

func (p *pathsFS) LchtimesIfPossible(name string, atime, mtime time.Time) error {
	p.mu.RLock()
	defer p.mu.RUnlock()
	r, err := p.check("chtimes", name, false, false, true)
	if err != nil {
		return err
	}
	if lc, ok := p.FS.(LinkChtimer); ok {
		return renamed(lc.LchtimesIfPossible(r, atime, mtime), name, r)
	}
	return nil
}

// two checks and resolves both names of a rename or link.
func (p *pathsFS) two(op, oldname, newname string) (string, string, error) {
	ro, err := p.resolve(oldname, false)
	if err != nil {
		return "", "", linkErr(op, oldname, newname, err)
	}
	rn, err := p.resolve(newname, false)
	if err != nil {
		return "", "", linkErr(op, oldname, newname, err)
	}
	if err := p.allow(op, oldname, ro, false, true); err != nil {
		return "", "", linkErr(op, oldname, newname, err)
	}
	if err := p.allow(op, newname, rn, false, true); err != nil {
		return "", "", linkErr(op, oldname, newname, err)
	}
	return ro, rn, nil
}

func linkRenamed(err error, oldname, newname, ro, rn string) error {
	le, ok := err.(*os.LinkError)
	if !ok {
		return renamed(renamed(err, oldname, ro), newname, rn)
	}
	out := *le
	if out.Old == ro {
		out.Old = oldname
	}
	if out.New == rn {
		out.New = newname
	}
	return &out
}

func (p *pathsFS) Rename(oldname, newname string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	ro, rn, err := p.two("rename", oldname, newname)
	if err != nil {
		return err
	}
	return linkRenamed(p.FS.Rename(ro, rn), oldname, newname, ro, rn)
}

func (p *pathsFS) LinkIfPossible(oldname, newname string) error {
	hl, ok := p.FS.(HardLinker)
	if !ok {
		return linkErr("link", oldname, newname, syscall.ENOTSUP)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	ro, rn, err := p.two("link", oldname, newname)
	if err != nil {
		return err
	}
	return linkRenamed(hl.LinkIfPossible(ro, rn), oldname, newname, ro, rn)
}

// SymlinkIfPossible checks only the new name: the target is text,
// resolved (and checked) whenever the link is used.
func (p *pathsFS) SymlinkIfPossible(target, newname string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	rn, err := p.resolve(newname, false)
	if err != nil {
		return linkErr("symlink", target, newname, err)
	}
	if err := p.allow("symlink", newname, rn, false, true); err != nil {
		return linkErr("symlink", target, newname, err)
	}
	err = p.FS.SymlinkIfPossible(target, rn)
	if le, ok := err.(*os.LinkError); ok && le.New == rn {
		out := *le
		out.New = newname
		return &out
	}
	return renamed(err, newname, rn)
}

func (p *pathsFS) Usage() (int64, int) {
	if u, ok := p.FS.(interface{ Usage() (int64, int) }); ok {
		return u.Usage()
	}
	return 0, 0
}

func (p *pathsFS) Limits() (int64, int) {
	if l, ok := p.FS.(interface{ Limits() (int64, int) }); ok {
		return l.Limits()
	}
	return 0, 0
}

func (p *pathsFS) Cred() Cred {
	if c, ok := p.FS.(interface{ Cred() Cred }); ok {
		return c.Cred()
	}
	return Cred{UID: DefaultUID, GID: DefaultGID, Umask: 0o022}
}

// namedFile is a file opened through a resolved path that answers to
// the name the caller used.
type namedFile struct {
	afero.File
	name string
}

func (f *namedFile) Name() string { return f.name }

type namedInfo struct {
	fs.FileInfo
	name string
}

func (i namedInfo) Name() string { return i.name }

// ExecOpener is implemented by views that restrict reading but not
// running (RestrictPaths): running a program is the command policy's
// business, as execute is a right apart from read under Landlock.
type ExecOpener interface {
	OpenExec(name string) (afero.File, error)
}

// OpenExec opens name read-only for the gateway to look at the start of
// a file it is about to run (a #! line, an in-process command's stub).
// What it reads must decide how to run the file and never reach the
// script: a script file's text is read again, with the read check, by
// the shell that runs it.
func OpenExec(fsys afero.Fs, name string) (afero.File, error) {
	if e, ok := fsys.(ExecOpener); ok {
		return e.OpenExec(name)
	}
	return fsys.Open(name)
}

func (p *pathsFS) OpenExec(name string) (afero.File, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	r, err := p.resolve(name, true)
	if err != nil {
		return nil, resolveErr("open", name, err)
	}
	f, err := p.FS.OpenFile(r, os.O_RDONLY, 0)
	if err != nil {
		return nil, renamed(err, name, r)
	}
	return &namedFile{File: f, name: name}, nil
}
