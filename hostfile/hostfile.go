// Package hostfile opens the host files sandsh itself reads and writes
// on the operator's behalf: the script file, --policy, --state, --audit,
// --history-file, --export-tar. Those paths come from the command line,
// but what lies at them may have been put there by someone else (a
// previous run's output directory, a shared /tmp): a symlink planted at
// an output path, or a FIFO at any path, must not make sandsh write
// through the link or hang before --timeout applies.
//
// So every open here is non-blocking (a FIFO opens at once), is checked
// on the descriptor it got (fstat, not a racy stat of the path) to be a
// regular file, and only then becomes blocking again. Writes never follow
// a final symlink (O_NOFOLLOW) and never truncate before the check.
// Errors are one line: "NAME: not a regular file (a FIFO)",
// "NAME: is a symbolic link (refused: sandsh does not write through
// links)".
package hostfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// NotRegularError is a path that holds something other than a regular
// file: a FIFO, a device, a socket, a directory, or (for writing) a
// symbolic link.
type NotRegularError struct {
	Name string
	Kind string // "a FIFO", "a directory", "a symbolic link", ...
}

func (e *NotRegularError) Error() string {
	if e.Kind == "a symbolic link" {
		return e.Name + ": is a symbolic link (refused: sandsh does not write through links)"
	}
	if e.Kind == "a directory" {
		return e.Name + ": Is a directory"
	}
	return e.Name + ": not a regular file (" + e.Kind + ")"
}

// IsDir reports whether err says the path is a directory.
func IsDir(err error) bool {
	var nr *NotRegularError
	return errors.As(err, &nr) && nr.Kind == "a directory"
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "not a file"
}

// regular checks the opened file and makes it blocking again.
func regular(f *os.File, name string) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return &NotRegularError{Name: name, Kind: kind(fi.Mode())}
	}
	return setBlocking(f)
}

// Open opens a host file for reading. A symlink is followed (the file it
// names is read, which is what the operator named), but the end must be
// a regular file: a FIFO, a device or a directory is refused at once.
func Open(name string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	if err := regular(f, name); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadFile reads a host file of at most max bytes (max < 0: no bound);
// a bigger one returns its first max+1 bytes, for the caller to refuse
// with its own words.
func ReadFile(name string, max int64) ([]byte, error) {
	f, err := Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if max >= 0 {
		r = io.LimitReader(f, max+1)
	}
	data, err := io.ReadAll(r)
	if data == nil {
		data = []byte{}
	}
	return data, err
}

// OpenWrite opens a host file for writing: created (with perm) when
// missing, else it must be a regular file, reached without a final
// symlink. With truncate the file is emptied, after the check; with
// append every write goes to its end.
func OpenWrite(name string, perm fs.FileMode, truncate, appendMode bool) (*os.File, error) {
	flags := os.O_WRONLY | os.O_CREATE | syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_NOCTTY
	if appendMode {
		flags |= os.O_APPEND
	}
	f, err := os.OpenFile(name, flags, perm)
	if err != nil {
		return nil, writeOpenError(name, err)
	}
	if err := regular(f, name); err != nil {
		f.Close()
		return nil, err
	}
	if truncate {
		if err := f.Truncate(0); err != nil {
			f.Close()
			return nil, err
		}
	}
	return f, nil
}

// writeOpenError names what refused the open: O_NOFOLLOW fails with
// ELOOP on a final symlink, and a FIFO without a reader with ENXIO.
func writeOpenError(name string, err error) error {
	if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.ENXIO) || errors.Is(err, syscall.EISDIR) {
		if fi, lerr := os.Lstat(name); lerr == nil {
			return &NotRegularError{Name: name, Kind: kind(fi.Mode())}
		}
	}
	return err
}

// CheckWritable refuses a path that exists and is not a regular file
// (a symlink included), without opening it.
func CheckWritable(name string) error {
	fi, err := os.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return &NotRegularError{Name: name, Kind: kind(fi.Mode())}
	}
	return nil
}

// WriteAtomic writes a host file through a new temporary file in the same
// directory (O_EXCL: never an existing file or link) and a rename, so
// the file is either the old one or the whole new one, never a torn mix.
// The rename replaces a name: it never writes through a symlink there,
// but a path that holds anything other than a regular file is refused
// first, so a planted link or FIFO is reported, not silently replaced.
func WriteAtomic(name string, perm os.FileMode, write func(io.Writer) error) error {
	if err := CheckWritable(name); err != nil {
		return err
	}
	dir := filepath.Dir(name)
	f, err := os.CreateTemp(dir, "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err := write(f); err != nil {
		return err
	}
	if err := f.Chmod(perm); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, name); err != nil {
		return err
	}
	ok = true
	return nil
}

// Describe is err's text without Go's "open NAME:" prefix when err is a
// *fs.PathError, for one-line messages that name the path themselves.
func Describe(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var nr *NotRegularError
	if errors.As(err, &nr) {
		return nr.Error()[len(nr.Name)+2:]
	}
	return fmt.Sprint(err)
}

// Remove removes a regular file the operator's flags name (a saved
// session's state file) and reports whether there was one; a missing
// one is no error, and anything else (a directory, a symlink, a FIFO)
// is left alone and refused.
func Remove(name string) (bool, error) {
	fi, err := os.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !fi.Mode().IsRegular() {
		return false, &NotRegularError{Name: name, Kind: kind(fi.Mode())}
	}
	return true, os.Remove(name)
}
