package vfs

import (
	"os"

	"github.com/spf13/afero"
)

// NewMem returns a new, empty in-memory filesystem.
// PLACEHOLDER: wraps afero.MemMapFs until the POSIX memory filesystem lands.
func NewMem() FS { return &placeholderMem{afero.NewMemMapFs()} }

type placeholderMem struct{ afero.Fs }

func (p *placeholderMem) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	fi, err := p.Stat(name)
	return fi, false, err
}
func (p *placeholderMem) SymlinkIfPossible(oldname, newname string) error {
	return &os.LinkError{Op: "symlink", Old: oldname, New: newname, Err: afero.ErrNoSymlink}
}
func (p *placeholderMem) ReadlinkIfPossible(name string) (string, error) {
	return "", &os.PathError{Op: "readlink", Path: name, Err: afero.ErrNoReadlink}
}
