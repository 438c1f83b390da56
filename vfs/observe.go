package vfs

import (
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/afero"
)

// FileEvent is one change a script made to the filesystem, as Observe
// reports it: Op is "create", "write", "mkdir", "delete", "rename",
// "chmod", "chown" or "link"; Size is the file's size after a write.
type FileEvent struct {
	Op   string
	Path string
	To   string // rename and link: the new name
	Size int64
	Mode fs.FileMode // chmod
	UID  int         // chown: the new owner (-1: unchanged)
	GID  int         // chown: the new group (-1: unchanged)
	// Cmd is the tag of the view the change came through (Attribute):
	// the audit log's number for the command that made it, 0 for the
	// shell's own changes.
	Cmd int64
}

// Observe returns a view of fsys that calls fn after every change that
// succeeded (the audit log's file events). A file opened for writing is
// reported once, when it is closed, with its final size; a chown carries
// the new owner and group. Everything else
// passes through, including the optional capabilities (hard links,
// symlink times, usage, limits, credentials).
func Observe(fsys FS, fn func(FileEvent)) FS { return &observeFS{FS: fsys, fn: fn} }

// Rebaser is a view over another FS (the shell's /dev layer) that can be
// rebuilt over a changed copy of what it wraps.
type Rebaser interface {
	Rebase(func(FS) FS) FS
}

// Attribute returns a view of fsys whose changes Observe reports with
// Cmd set to cmd: the one observer sees every change, and each command's
// own view says whose change it was. Views that are neither an Observe
// view nor a Rebaser over one come back unchanged.
func Attribute(fsys FS, cmd int64) FS {
	switch f := fsys.(type) {
	case *observeFS:
		c := *f
		c.cmd = cmd
		return &c
	case Rebaser:
		return f.Rebase(func(in FS) FS { return Attribute(in, cmd) })
	}
	return fsys
}

type observeFS struct {
	FS
	fn  func(FileEvent)
	cmd int64 // Attribute's tag, copied into every event
}

func (o *observeFS) emit(ev FileEvent) {
	ev.Cmd = o.cmd
	o.fn(ev)
}

func (o *observeFS) Chown(name string, uid, gid int) error {
	err := o.FS.Chown(name, uid, gid)
	if err == nil {
		o.emit(FileEvent{Op: "chown", Path: name, UID: uid, GID: gid})
	}
	return err
}

func (o *observeFS) Name() string { return "Observe(" + o.FS.Name() + ")" }

func (o *observeFS) Create(name string) (afero.File, error) {
	return o.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (o *observeFS) OpenFile(name string, flag int, perm fs.FileMode) (afero.File, error) {
	if flag&mutatingFlags == 0 {
		return o.FS.OpenFile(name, flag, perm)
	}
	_, statErr := o.FS.Stat(name)
	f, err := o.FS.OpenFile(name, flag, perm)
	if err != nil {
		return f, err
	}
	op := "write"
	if statErr != nil {
		op = "create"
	}
	return &observeFile{File: f, o: o, name: name, op: op}, nil
}

func (o *observeFS) Mkdir(name string, perm fs.FileMode) error {
	err := o.FS.Mkdir(name, perm)
	if err == nil {
		o.emit(FileEvent{Op: "mkdir", Path: name})
	}
	return err
}

func (o *observeFS) MkdirAll(name string, perm fs.FileMode) error {
	_, statErr := o.FS.Stat(name)
	err := o.FS.MkdirAll(name, perm)
	if err == nil && statErr != nil {
		o.emit(FileEvent{Op: "mkdir", Path: name})
	}
	return err
}

func (o *observeFS) Remove(name string) error {
	err := o.FS.Remove(name)
	if err == nil {
		o.emit(FileEvent{Op: "delete", Path: name})
	}
	return err
}

func (o *observeFS) RemoveAll(name string) error {
	_, statErr := Lstat(o.FS, name)
	err := o.FS.RemoveAll(name)
	if err == nil && statErr == nil {
		o.emit(FileEvent{Op: "delete", Path: name})
	}
	return err
}

func (o *observeFS) Rename(oldname, newname string) error {
	err := o.FS.Rename(oldname, newname)
	if err == nil {
		o.emit(FileEvent{Op: "rename", Path: oldname, To: newname})
	}
	return err
}

func (o *observeFS) Chmod(name string, mode fs.FileMode) error {
	err := o.FS.Chmod(name, mode)
	if err == nil {
		o.emit(FileEvent{Op: "chmod", Path: name, Mode: mode})
	}
	return err
}

func (o *observeFS) SymlinkIfPossible(oldname, newname string) error {
	err := o.FS.SymlinkIfPossible(oldname, newname)
	if err == nil {
		o.emit(FileEvent{Op: "create", Path: newname, To: oldname})
	}
	return err
}

func (o *observeFS) LinkIfPossible(oldname, newname string) error {
	hl, ok := o.FS.(HardLinker)
	if !ok {
		return &os.LinkError{Op: "link", Old: oldname, New: newname, Err: syscall.ENOTSUP}
	}
	err := hl.LinkIfPossible(oldname, newname)
	if err == nil {
		o.emit(FileEvent{Op: "link", Path: oldname, To: newname})
	}
	return err
}

func (o *observeFS) LchtimesIfPossible(name string, atime, mtime time.Time) error {
	if lc, ok := o.FS.(LinkChtimer); ok {
		return lc.LchtimesIfPossible(name, atime, mtime)
	}
	return nil
}

func (o *observeFS) Usage() (int64, int) {
	if u, ok := o.FS.(interface{ Usage() (int64, int) }); ok {
		return u.Usage()
	}
	return 0, 0
}

func (o *observeFS) Limits() (int64, int) {
	if l, ok := o.FS.(interface{ Limits() (int64, int) }); ok {
		return l.Limits()
	}
	return 0, 0
}

func (o *observeFS) Cred() Cred {
	if c, ok := o.FS.(interface{ Cred() Cred }); ok {
		return c.Cred()
	}
	return Cred{UID: DefaultUID, GID: DefaultGID, Umask: 0o022}
}

type observeFile struct {
	afero.File
	o    *observeFS
	name string
	op   string
	once sync.Once
}

func (f *observeFile) Close() error {
	err := f.File.Close()
	f.once.Do(func() {
		var size int64
		if fi, serr := f.o.FS.Stat(f.name); serr == nil {
			size = fi.Size()
		}
		f.o.emit(FileEvent{Op: f.op, Path: f.name, Size: size})
	})
	return err
}

func (o *observeFS) OpenExec(name string) (afero.File, error) { return OpenExec(o.FS, name) }
