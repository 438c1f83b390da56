//go:build !linux

package vfs

import (
	"errors"
	"os"
)

// Without renameat in package syscall, RootFS falls back to os.Root.Rename,
// which refuses to replace an existing directory (EEXIST).
const haveRenameat = false

func renameat(olddir *os.File, oldname string, newdir *os.File, newname string) error {
	return errors.New("renameat: not supported")
}
