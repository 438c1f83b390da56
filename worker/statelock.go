package worker

// The host side of --state: the lock held for the whole run, the state
// file handed to the worker as an open descriptor (read there, never
// copied through the parent), and the temporary file beside it the
// worker writes the new state into, renamed over the old one only when
// the run finished and the state was written whole.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/sandsh/sandsh/hostfile"
)

// ExitLocked is sandsh's status when --state-lock fail finds the state
// in use by another run (sysexits' EX_TEMPFAIL: try again later).
const ExitLocked = 75

// stateFiles is what the host side holds of --state during a run.
type stateFiles struct {
	lock *os.File // <state>.lock, flocked: released when closed
	in   *os.File // the state file, nil when there is none yet
	out  *os.File // the temporary file the new state goes into
}

// openState takes the state's lock, opens the state file (if it exists)
// and creates the temporary file for the new state.
func (o *Options) openState(max int64) (*stateFiles, int, error) {
	sf := &stateFiles{}
	lock, status, err := o.lockState()
	if err != nil {
		return nil, status, err
	}
	sf.lock = lock
	ok := false
	defer func() {
		if !ok {
			sf.close()
		}
	}()
	f, err := hostfile.Open(o.State)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, ExitState, fmt.Errorf("--state %s: %v", o.State, hostErr(err))
	default:
		sf.in = f
		fi, err := f.Stat()
		if err != nil {
			return nil, ExitState, fmt.Errorf("--state %s: %v", o.State, err)
		}
		// A state holds at most the filesystem's bytes, compressed,
		// plus the shell: anything much bigger is refused unread.
		if fi.Size() > max {
			return nil, ExitState, fmt.Errorf("--state %s: bigger than %d bytes", o.State, max)
		}
	}
	out, err := os.CreateTemp(filepath.Dir(o.State), "."+filepath.Base(o.State)+".tmp-*")
	if err != nil {
		return nil, ExitState, fmt.Errorf("--state %s: cannot save: %v", o.State, err)
	}
	sf.out = out
	ok = true
	return sf, 0, nil
}

// lockState takes the exclusive lock of the state: a run that finds it
// taken waits for it (--state-lock wait, the default, up to --timeout
// if one is set) or fails at once (--state-lock fail). The lock is an
// flock on <state>.lock, a file kept beside the state: the state file
// itself cannot carry it, as each save replaces it by a rename, and a
// run waiting on the old file would then read a stale state.
func (o *Options) lockState() (*os.File, int, error) {
	mode := o.StateLock
	if mode == "" {
		mode = "wait"
	}
	if mode != "wait" && mode != "fail" {
		return nil, ExitUsage, usagef("--state-lock %q: want wait or fail", o.StateLock)
	}
	name := o.State + ".lock"
	f, err := hostfile.OpenWrite(name, 0o600, false, false)
	if err != nil {
		return nil, ExitState, fmt.Errorf("--state %s: lock: %s", o.State, hostErr(err))
	}
	var deadline time.Time
	if o.Timeout > 0 {
		deadline = time.Now().Add(o.Timeout)
	}
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return f, 0, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, ExitState, fmt.Errorf("--state %s: lock: %v", o.State, err)
		}
		if mode == "fail" {
			f.Close()
			return nil, ExitLocked, fmt.Errorf("--state %s: in use by another run (--state-lock fail)", o.State)
		}
		if !deadline.IsZero() && time.Now().After(deadline) {
			f.Close()
			return nil, ExitLocked, fmt.Errorf("--state %s: still in use by another run after --timeout %s", o.State, o.Timeout)
		}
		time.Sleep(wait)
	}
}

// lockedError is a --state file in use by another run (ExitLocked).
type lockedError struct{ err error }

func (e *lockedError) Error() string { return e.err.Error() }
func (e *lockedError) Unwrap() error { return e.err }

// lockError is lockState's failure as an error that carries its status.
func lockError(status int, err error) error {
	switch status {
	case ExitLocked:
		return &lockedError{err}
	case ExitState:
		return &stateError{err}
	}
	return err
}

// commit makes the new state the state file: the temporary file is
// synced and renamed over it.
func (sf *stateFiles) commit(name string) error {
	out := sf.out
	sf.out = nil
	ok := false
	defer func() {
		out.Close()
		if !ok {
			os.Remove(out.Name())
		}
	}()
	// The path is replaced by a rename, never written through; a link or
	// FIFO planted there during the run is refused, not replaced.
	if err := hostfile.CheckWritable(name); err != nil {
		return err
	}
	if err := out.Chmod(0o600); err != nil {
		return err
	}
	if err := out.Sync(); err != nil {
		return err
	}
	if err := os.Rename(out.Name(), name); err != nil {
		return err
	}
	ok = true
	return nil
}

// close drops what was not committed and releases the lock.
func (sf *stateFiles) close() {
	if sf == nil {
		return
	}
	if sf.in != nil {
		sf.in.Close()
	}
	if sf.out != nil {
		sf.out.Close()
		os.Remove(sf.out.Name())
	}
	if sf.lock != nil {
		sf.lock.Close()
	}
}

// readStateBytes reads the --state file whole (nil when there is none
// yet), for a session, which parses it in the parent for its own copy:
// a path holding anything but a regular file, or a file much bigger
// than the limits allow, is refused.
func (o *Options) readStateBytes() ([]byte, error) {
	lim, err := o.sandboxLimits()
	if err != nil {
		return nil, err
	}
	if err := hostfile.CheckWritable(o.State); err != nil {
		return nil, fmt.Errorf("--state %s: %s", o.State, hostfile.Describe(err))
	}
	max := StateFileMax(lim)
	data, err := hostfile.ReadFile(o.State, max)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("--state %s: %v", o.State, hostErr(err))
	case int64(len(data)) > max:
		return nil, fmt.Errorf("--state %s: bigger than %d bytes", o.State, max)
	}
	return data, nil
}
