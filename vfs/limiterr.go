package vfs

import (
	"fmt"
	"syscall"

	"github.com/sandsh/sandsh/internal/units"
)

// LimitError is a write refused by one of the sandbox filesystem's
// limits. To a program it is what a full disk gives (errors.Is with
// syscall.ENOSPC, or EFBIG for the size of one file), so a script can
// handle it as bash would; its text names the limit, so a CI log says
// which flag to raise: "No space left on device (sandsh: limit
// exceeded: max-fs-bytes 512MiB)".
type LimitError struct {
	Limit string // the flag: max-fs-bytes, max-files or max-file-size
	Value string // as the flags spell it: 512MiB, 100000
	Errno syscall.Errno
}

func (e *LimitError) Error() string {
	text := "No space left on device"
	if e.Errno == syscall.EFBIG {
		text = "File too large"
	}
	return fmt.Sprintf("%s (sandsh: limit exceeded: %s %s)", text, e.Limit, e.Value)
}

func (e *LimitError) Unwrap() error { return e.Errno }

func bytesLimit(n int64) *LimitError {
	return &LimitError{Limit: "max-fs-bytes", Value: units.FormatBytes(n), Errno: syscall.ENOSPC}
}

func fileSizeLimit(n int64) *LimitError {
	return &LimitError{Limit: "max-file-size", Value: units.FormatBytes(n), Errno: syscall.EFBIG}
}

func filesLimit(n int) *LimitError {
	return &LimitError{Limit: "max-files", Value: fmt.Sprint(n), Errno: syscall.ENOSPC}
}
