package vfs

import "io/fs"

// TypeWord names a file's type as snapshots, deltas and change lists
// record it: dir, symlink, file or other.
func TypeWord(fi fs.FileInfo) string {
	switch {
	case fi.IsDir():
		return "dir"
	case fi.Mode()&fs.ModeSymlink != 0:
		return "symlink"
	case fi.Mode().IsRegular():
		return "file"
	}
	return "other"
}

// UnixMode converts a Go file mode to the st_mode permission and
// special bits (04000 setuid, 02000 setgid, 01000 sticky), the word
// snapshots record and stat prints.
func UnixMode(m fs.FileMode) uint32 {
	p := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		p |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		p |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		p |= 0o1000
	}
	return p
}

// GoMode converts st_mode permission and special bits to a Go mode.
func GoMode(p uint32) fs.FileMode {
	m := fs.FileMode(p & 0o777)
	if p&0o4000 != 0 {
		m |= fs.ModeSetuid
	}
	if p&0o2000 != 0 {
		m |= fs.ModeSetgid
	}
	if p&0o1000 != 0 {
		m |= fs.ModeSticky
	}
	return m
}
