package vfs

import (
	"os"
	"syscall"
)

// haveRenameat says renameat below is the real renameat(2).
const haveRenameat = true

// renameat is renameat(2) on names relative to open directories.
func renameat(olddir *os.File, oldname string, newdir *os.File, newname string) error {
	return syscall.Renameat(int(olddir.Fd()), oldname, int(newdir.Fd()), newname)
}
