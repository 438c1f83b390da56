package worker

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"sync"
	"time"

	"github.com/sandsh/sandsh/hostfile"
	"github.com/sandsh/sandsh/restrict"
	"github.com/sandsh/sandsh/sandbox"
)

// auditRun is the audit log of one sandsh run, kept by the process that
// parsed the command line: it writes run_start and run_end itself, so a
// worker killed by a limit still ends the log, and merges the worker's
// events (read from a pipe) into one monotonic sequence.
type auditRun struct {
	log   *sandbox.Audit
	file  io.Closer // nil for stderr
	start time.Time
	name  string // the --audit file, for the failure line
}

// openAudit starts the audit log of --audit, or returns nil without it.
func (o *Options) openAudit(argv []string) (*auditRun, error) {
	if o.Audit == "" {
		return nil, nil
	}
	redact, err := o.auditRedact()
	if err != nil {
		return nil, err
	}
	var w io.Writer = o.IO.Err
	a := &auditRun{start: time.Now(), name: o.Audit}
	if o.Audit != "-" {
		// Never through a symlink, never into a FIFO or a device: the
		// log is a regular file sandsh owns (hostfile.OpenWrite).
		f, err := hostfile.OpenWrite(o.Audit, 0o600, true, false)
		if err != nil {
			return nil, usagef("--audit %s: %s", o.Audit, hostErr(err))
		}
		a.file = f
		a.log = sandbox.NewAuditFile(f, redact)
	} else {
		a.log = sandbox.NewAudit(w, redact)
	}
	start := map[string]any{"argv": a.log.Argv(argv), "limits": o.auditLimits()}
	if len(o.Policy) > 0 {
		if p, err := o.LoadPolicy(); err == nil && p != nil {
			start["policy"] = map[string]any{"file": p.File, "digest": p.Digest}
		}
	}
	a.log.Emit("run_start", start)
	if err := a.log.Err(); err != nil {
		if a.file != nil {
			a.file.Close()
		}
		return nil, &auditFailure{name: o.Audit, err: err}
	}
	return a, nil
}

// auditFailure is a failed audit log, as the one line sandsh prints.
type auditFailure struct {
	name string
	err  error
}

func (e *auditFailure) Error() string {
	return fmt.Sprintf("--audit %s: %v; the run was stopped", e.name, e.err)
}

func (o *Options) auditRedact() (*regexp.Regexp, error) {
	if o.AuditRedact == "" {
		return nil, nil
	}
	re, err := regexp.Compile(o.AuditRedact)
	if err != nil {
		return nil, usagef("--audit-redact: %v", err)
	}
	return re, nil
}

func (o *Options) auditLimits() map[string]any {
	return map[string]any{"timeout": o.Timeout.String(), "max-commands": o.MaxCommands, "max-loop-iterations": o.MaxLoopIters,
		"max-call-depth": o.MaxCallDepth, "max-output": o.MaxOutput, "max-fs-bytes": o.MaxFSBytes, "max-files": o.MaxFiles,
		"max-file-size": o.MaxFileSize, "max-memory": o.MaxMemory, "max-jobs": o.MaxJobs, "max-var-bytes": o.MaxVarBytes,
		"max-capture": o.MaxCapture, "max-script-bytes": o.MaxScript, "max-fields": o.MaxFields}
}

// finish writes run_end and closes the log. A log that failed makes the
// run's status ExitAudit; the failure's line is printed here unless the
// run printed it (its status is ExitAudit already).
func (a *auditRun) finish(errw io.Writer, status int, limit string) int {
	if a == nil {
		return status
	}
	end := map[string]any{"status": status, "duration_ms": float64(time.Since(a.start).Microseconds()) / 1000}
	if limit != "" {
		end["limit"] = limit
	}
	a.log.Emit("run_end", end)
	if a.file != nil {
		if err := a.file.Close(); err != nil && a.log.Err() == nil {
			fmt.Fprintf(errw, "sandsh: %v\n", &auditFailure{name: a.name, err: err})
			return sandbox.ExitAudit
		}
	}
	if err := a.log.Err(); err != nil {
		if status != sandbox.ExitAudit {
			fmt.Fprintf(errw, "sandsh: %v\n", &auditFailure{name: a.name, err: err})
		}
		return sandbox.ExitAudit
	}
	return status
}

// workerPipe gives the worker a pipe for its events and copies what it
// writes into the log; wait waits for the copy once the worker is gone.
func (a *auditRun) workerPipe() (w *os.File, wait func(), err error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer r.Close()
		a.log.Relay(r)
	}()
	var once sync.Once
	return w, func() { once.Do(func() { w.Close(); <-done }) }, nil
}

// workerAudit is the worker's end of the audit pipe.
func workerAudit(fd int, redact *regexp.Regexp) *sandbox.Audit {
	restrict.CloseOnExec(fd)
	f := os.NewFile(uintptr(fd), "audit")
	if f == nil {
		return nil
	}
	return sandbox.NewAudit(f, redact)
}

// stopWorkerOnFailure kills the worker when the log fails (a write error,
// a lost event): no command runs unaudited. It chains spec.Started.
func (a *auditRun) stopWorkerOnFailure(spec *restrict.WorkerSpec) (remove func()) {
	var mu sync.Mutex
	var proc *os.Process
	failed := false
	prev := spec.Started
	spec.Started = func(p *os.Process) {
		if prev != nil {
			prev(p)
		}
		mu.Lock()
		proc = p
		if failed {
			p.Kill()
		}
		mu.Unlock()
	}
	return a.log.OnFail(func(error) {
		mu.Lock()
		failed = true
		if proc != nil {
			proc.Kill()
		}
		mu.Unlock()
	})
}

// failed reports a failed log in one line and returns ExitAudit, or
// returns status as is.
func (a *auditRun) failed(errw io.Writer, status int) int {
	if err := a.log.Err(); err != nil {
		fmt.Fprintf(errw, "sandsh: %v\n", &auditFailure{name: a.name, err: err})
		return sandbox.ExitAudit
	}
	return status
}
