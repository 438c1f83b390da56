package vfs

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
)

// Kernel limits the memory filesystem mirrors, so that a script cannot
// grow a single name or path without bound and so that error behaviour
// matches Linux.
const (
	maxSymlinkHops = 40   // Linux MAXSYMLINKS
	maxNameLen     = 255  // NAME_MAX
	maxPathLen     = 4096 // PATH_MAX (including the terminating NUL)
)

// pathErr wraps errno the way package os does, so callers can use
// errors.Is(err, fs.ErrNotExist) and friends and print "op path: text".
func pathErr(op, name string, err error) error {
	if err == nil {
		return nil
	}
	return &fs.PathError{Op: op, Path: name, Err: err}
}

// linkErr is pathErr for the two-path operations (rename, link, symlink).
func linkErr(op, oldname, newname string, err error) error {
	if err == nil {
		return nil
	}
	return &os.LinkError{Op: op, Old: oldname, New: newname, Err: err}
}

// splitPath returns the non-empty components of p. Leading, trailing and
// repeated slashes carry no name, exactly as in a kernel path walk.
func splitPath(p string) []string {
	// One allocation (strings.Split would make a second slice).
	comps := make([]string, 0, strings.Count(p, "/")+1)
	for p != "" {
		i := strings.IndexByte(p, '/')
		if i < 0 {
			comps = append(comps, p)
			break
		}
		if i > 0 {
			comps = append(comps, p[:i])
		}
		p = p[i+1:]
	}
	return comps
}

// hasTrailingSlash reports whether p names its last component with a
// trailing slash, which makes POSIX insist on a directory.
func hasTrailingSlash(p string) bool {
	return len(p) > 1 && strings.HasSuffix(p, "/") && strings.Trim(p, "/") != ""
}

// baseName is the FileInfo name os.Stat would report for p.
func baseName(p string) string {
	if p == "" {
		return "."
	}
	return path.Base(p)
}

// normPerm keeps the permission and set-id/sticky bits of m. Besides Go's
// fs.ModeSetuid/ModeSetgid/ModeSticky it also accepts the raw octal
// 04000/02000/01000 bits, because shell code naturally writes modes like
// 01777 and Go would otherwise silently drop the special bits.
func normPerm(m fs.FileMode) fs.FileMode {
	p := m & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	if m&0o4000 != 0 {
		p |= fs.ModeSetuid
	}
	if m&0o2000 != 0 {
		p |= fs.ModeSetgid
	}
	if m&0o1000 != 0 {
		p |= fs.ModeSticky
	}
	return p
}

// errnoOf extracts the syscall.Errno inside err, or 0.
func errnoOf(err error) syscall.Errno {
	var e syscall.Errno
	if errors.As(err, &e) {
		return e
	}
	return 0
}
