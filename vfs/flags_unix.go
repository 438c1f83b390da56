//go:build unix

package vfs

import "syscall"

// Open flags beyond package os that OpenFile honours.
const (
	oNoFollow  = syscall.O_NOFOLLOW
	oDirectory = syscall.O_DIRECTORY
	oNonBlock  = syscall.O_NONBLOCK
)
