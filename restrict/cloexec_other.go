//go:build !unix

package restrict

// CloseOnExec does nothing where descriptors are not inherited by
// number.
func CloseOnExec(fd int) {}
