//go:build !unix

package vfs

// Without these open flags the corresponding checks never apply.
const (
	oNoFollow  = 0
	oDirectory = 0
	oNonBlock  = 0
)
