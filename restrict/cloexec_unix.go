//go:build unix

package restrict

import "syscall"

// CloseOnExec marks an inherited descriptor (a worker's WorkerStdoutFD,
// WorkerStderrFD, WorkerPayloadFD) close-on-exec, so that host programs
// (unrestricted mode) do not inherit it.
func CloseOnExec(fd int) { syscall.CloseOnExec(fd) }
