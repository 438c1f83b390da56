//go:build !linux

package restrict

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
)

var errNoJail = errors.New("jails need Linux")

// JailProcSpec is how package jail starts a jail process (Linux only).
type JailProcSpec struct {
	Path          string
	Args          []string
	Env           []string
	Files         []*os.File
	NewNamespaces bool
	NewUserNS     bool
	UseCgroup     bool
	CgroupFD      int
	HostUID       int
	HostGID       int
}

// JailProc is a started jail process.
type JailProc struct{}

// StartJailProc fails: jails need Linux.
func StartJailProc(JailProcSpec) (*JailProc, error) { return nil, errNoJail }

// Kill does nothing.
func (j *JailProc) Kill() {}

// Wait returns at once.
func (j *JailProc) Wait() (syscall.WaitStatus, error) { return 0, errNoJail }

// CPUTime is 0.
func (j *JailProc) CPUTime() time.Duration { return 0 }

// ExecJailed fails: jails need Linux.
func ExecJailed(string, []string, []string, uint64) error { return errNoJail }

// JailSocket fails: jails need Linux.
func JailSocket() (parent, worker *os.File, err error) { return nil, nil, errNoJail }

// JailClient refuses every request.
func JailClient(*os.File) Jailer {
	return func(context.Context, *JailRequest, *os.File, *os.File, *os.File) (*JailResult, error) {
		return nil, errNoJail
	}
}

// ServeJail does nothing.
func ServeJail(context.Context, *os.File, Jailer, int64) func() { return func() {} }
