package worker

import (
	"bufio"
	"io"
	"os"
	"regexp"
	"time"

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
	a := &auditRun{start: time.Now()}
	if o.Audit != "-" {
		f, err := os.OpenFile(o.Audit, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
		if err != nil {
			return nil, usagef("--audit %s: %v", o.Audit, err)
		}
		w, a.file = f, f
	}
	a.log = sandbox.NewAudit(w, redact)
	start := map[string]any{"argv": a.log.Argv(argv), "limits": o.auditLimits()}
	if o.Policy != "" {
		if p, err := o.LoadPolicy(); err == nil && p != nil {
			start["policy"] = map[string]any{"file": p.File, "digest": p.Digest}
		}
	}
	a.log.Emit("run_start", start)
	return a, nil
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

// finish writes run_end and closes the log.
func (a *auditRun) finish(status int, limit string) {
	if a == nil {
		return
	}
	end := map[string]any{"status": status, "duration_ms": float64(time.Since(a.start).Microseconds()) / 1000}
	if limit != "" {
		end["limit"] = limit
	}
	a.log.Emit("run_end", end)
	if a.file != nil {
		a.file.Close()
	}
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
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), auditLineMax)
		for sc.Scan() {
			a.log.Resequence(sc.Bytes())
		}
		io.Copy(io.Discard, r)
	}()
	return w, func() { w.Close(); <-done }, nil
}

// auditLineMax bounds one event from the worker (an argv can be long,
// but not unbounded: the parent is not under the memory limit).
const auditLineMax = 4 << 20

// workerAudit is the worker's end of the audit pipe.
func workerAudit(fd int, redact *regexp.Regexp) *sandbox.Audit {
	restrict.CloseOnExec(fd)
	f := os.NewFile(uintptr(fd), "audit")
	if f == nil {
		return nil
	}
	return sandbox.NewAudit(f, redact)
}
