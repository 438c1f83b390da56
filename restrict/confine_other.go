//go:build !linux

package restrict

import (
	"errors"
	"syscall"
)

// Probe reports what confinement this system supports: none outside Linux.
func Probe() Report { return Report{} }

// Confine applies what it can outside Linux: nothing. Every wall is
// reported as a fallback so that --verbose says so.
func Confine(spec ConfineSpec) (Report, error) {
	var rep Report
	if spec.Restricted {
		rep.Fallbacks = append(rep.Fallbacks,
			"landlock unavailable (not Linux): host paths are guarded by the vfs layer only",
			"seccomp unavailable (not Linux): exec is refused by the gateway only",
			"no resource limits set (not Linux)")
	}
	return rep, nil
}

type statmReader struct{}

func openStatm(pid int) (*statmReader, error) { return nil, errors.New("no /proc on this system") }

func (s *statmReader) rss() (int64, error) { return 0, errors.New("no /proc on this system") }

func (s *statmReader) close() {}

// workerSysProcAttr: no parent-death signal outside Linux; the worker's
// watchdog notices an orphaned worker instead.
func workerSysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }
