// Package vfs provides the filesystems a sandsh session runs on and the one
// interface every file operation in sandsh goes through.
//
// Everything above this package (the runner, the gateway, the in-process
// commands) sees only FS and absolute, slash-separated sandbox paths. Only
// this package and cmd/ may touch the host filesystem.
//
// The filesystems:
//
//   - NewMem: an in-memory inode tree with POSIX semantics (symlinks, hard
//     links, permissions enforced for the sandbox user, kernel errnos) and
//     optional limits (WithMaxBytes, WithMaxFiles, WithMaxFileSize).
//   - NewOverlay: a NewMem tree in which a host directory shows through,
//     read-only, at one mount point; all changes stay in memory.
//   - NewDisk: a host directory as the whole sandbox (confined with
//     os.Root), or with "" the unconfined host filesystem.
//   - ReadOnly and Limit wrap any FS.
//
// A MemFS tracks its changes once marked: Mark, ChangesSince and
// ApplyDelta (delta.go) give what changed since a point, in proportion
// to the change, and apply it to a copy.
//
// Populate lays out the standard sandbox tree (/etc, /home/sandbox, /tmp,
// /workspace, ...). Errors are *fs.PathError or *os.LinkError around a
// syscall.Errno, as package os returns them.
package vfs

import (
	"io/fs"
	"os"
	"path"
	"time"

	"github.com/spf13/afero"
)

// FS is an afero filesystem that also supports symbolic links.
// All paths given to it are absolute and clean ("/a/b").
type FS interface {
	afero.Fs
	afero.Lstater
	afero.Linker
	afero.LinkReader
}

// LinkChtimer is implemented by filesystems that can set a symlink's own
// times (touch -h).
type LinkChtimer interface {
	LchtimesIfPossible(name string, atime, mtime time.Time) error
}

// HardLinker is implemented by filesystems that support hard links.
type HardLinker interface {
	LinkIfPossible(oldname, newname string) error
}

// Meta is the POSIX metadata sandsh shows for a file (ls -l, stat, test -O).
// Every FileInfo returned by an FS of this package has a *Meta as Sys().
type Meta struct {
	Ino   uint64
	Nlink uint64
	UID   int
	GID   int
	Atime time.Time
	Ctime time.Time
}

// MetaOf returns the metadata of fi, with sane defaults when the
// filesystem did not provide any.
func MetaOf(fi fs.FileInfo) Meta {
	if m, ok := fi.Sys().(*Meta); ok && m != nil {
		return *m
	}
	return Meta{Nlink: 1, UID: DefaultUID, GID: DefaultGID, Atime: fi.ModTime(), Ctime: fi.ModTime()}
}

// The virtual identity of the sandbox user.
const (
	DefaultUser = "sandbox"
	DefaultUID  = 1000
	DefaultGID  = 1000
)

// Default layout of a fresh sandbox.
const (
	HomeDir = "/home/sandbox"
	TmpDir  = "/tmp"
	WorkDir = "/workspace"
)

// Lstat stats name without following a final symlink.
func Lstat(fsys FS, name string) (os.FileInfo, error) {
	fi, _, err := fsys.LstatIfPossible(name)
	return fi, err
}

// Clean returns the clean absolute form of p, resolved against dir when p
// is relative.
func Clean(dir, p string) string {
	if p == "" {
		return path.Clean(dir)
	}
	if p[0] != '/' {
		p = dir + "/" + p
	}
	return path.Clean(p)
}
