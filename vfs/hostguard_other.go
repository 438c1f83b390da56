//go:build !linux

package vfs

import (
	"io/fs"
	"os"
)

// openGuarded is os.OpenFile where there is no /proc to guard.
func openGuarded(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}
