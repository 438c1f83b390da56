//go:build linux

package vfs

import (
	"io/fs"
	"syscall"
	"time"
)

// metaFromSys converts the host stat data behind fi into a Meta, or
// returns nil when fi does not come from the host.
func metaFromSys(fi fs.FileInfo) *Meta {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st == nil {
		return nil
	}
	return &Meta{
		Ino:   st.Ino,
		Nlink: uint64(st.Nlink),
		UID:   int(st.Uid),
		GID:   int(st.Gid),
		Atime: time.Unix(st.Atim.Unix()),
		Ctime: time.Unix(st.Ctim.Unix()),
	}
}

// hostID returns the device and inode numbers of the host file behind fi.
func hostID(fi fs.FileInfo) (dev, ino uint64, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st == nil {
		return 0, 0, false
	}
	return uint64(st.Dev), st.Ino, true
}
