package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sandsh/sandsh/hostfile"
	"github.com/sandsh/sandsh/internal/termsafe"
	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/sandbox"
)

// Run runs what the options say: -c text, a script file or standard
// input, in a supervised, confined worker (in this process with
// NoWorker). With a terminal on standard input and no script, it calls
// interactive (the caller's interactive shell) instead. argv is the
// command line, for the audit log's run_start. The caller has loaded
// the policy (Options.LoadPolicy) and run any --check first.
func Run(o *Options, argv []string, interactive func(*Options) int) int {
	if o.Audit != "" {
		a, err := o.openAudit(argv)
		if err != nil {
			return ReportSetupError(o.IO.Err, err)
		}
		if o.NoWorker {
			o.audit = a.log
		} else {
			o.auditRun = a
		}
		status := runAudited(o, interactive)
		return a.finish(o.IO.Err, status, o.limitHit)
	}
	return runAudited(o, interactive)
}

// runScriptInWorker is the worker's side of a script run.
func runScriptInWorker(o *Options) int {
	if _, err := o.LoadPolicy(); err != nil {
		return ReportSetupError(o.IO.Err, err)
	}
	return runAudited(o, nil)
}

// runAudited is Run once the audit log (if any) is open.
func runAudited(o *Options, interactive func(*Options) int) int {
	if status, done := o.superviseRun(); done {
		return status // the run happened in a supervised worker (worker.go)
	}
	stdio := o.IO
	var src io.Reader
	var name, arg0 string
	var params []string
	switch {
	case o.Command != nil:
		src, name, arg0 = strings.NewReader(*o.Command), "-c", "sandsh"
		if len(o.Args) > 0 {
			arg0, params = o.Args[0], o.Args[1:]
		}
	case len(o.Args) > 0 && o.Args[0] != "-":
		path := o.Args[0]
		data, status, err := o.readScript(path)
		if err != nil {
			termsafe.Fprintf(stdio.Err, "sandsh: %s\n", err)
			return status
		}
		src, name, arg0, params = bytes.NewReader(data), path, path, o.Args[1:]
	case len(o.Args) > 0:
		src, name, arg0, params = stdio.In, "-", "sandsh", o.Args[1:]
	case stdio.InTerminal && interactive != nil:
		rest := *o
		rest.State = "" // the interactive shell loads and saves a state
		if rest.SessionFlags() {
			return ReportSetupError(stdio.Err, usagef("--var, --json, --import, --export and --changes need a script"))
		}
		if o.State != "" && o.NoWorker {
			return ReportSetupError(stdio.Err, usagef("--state in the interactive shell needs the worker (not --no-worker)"))
		}
		return interactive(o)
	default:
		src, name, arg0 = stdio.In, "-", "sandsh"
	}
	var scriptStdin io.Reader = stdio.In
	if src == stdio.In {
		// The script itself comes from stdin, so its commands read
		// what follows it, as with `bash < script`.
		scriptStdin = src
	}
	sc := sandbox.Script{Reader: src, Name: name, Args: append([]string{arg0}, params...),
		File: o.Command == nil && name != "-", Command: o.Command != nil, Stdin: scriptStdin, Stdout: stdio.Out, Stderr: stdio.Err}
	if o.worker != nil {
		// The sandbox side of a supervised run (worker.go).
		status, oc := o.runSandboxed(o.runContext(), o.worker.inputs, sc)
		if o.worker.result != nil {
			json.NewEncoder(o.worker.result).Encode(oc)
		}
		return status
	}
	if !o.SessionFlags() {
		status, _ := o.runSandboxed(o.runContext(), nil, sc)
		return status
	}
	// --no-worker: both sides of the run in this process.
	if err := o.checkSessionFlags(); err != nil {
		return ReportSetupError(stdio.Err, err)
	}
	h := o.newHostSide()
	in, status, err := o.readInputs()
	if err != nil {
		termsafe.Fprintf(h.errw, "sandsh: %v\n", err)
		return h.finish(status, "", nil)
	}
	sc.Stdout, sc.Stderr = h.out, h.errw
	status, oc := o.runSandboxed(o.runContext(), in, sc)
	return h.finish(status, "", oc)
}

// maxScriptRead caps how much of a script file is read from the host.
const maxScriptRead = 1<<30 + 1

// ReadScriptFile reads a script named on the command line from the host.
func ReadScriptFile(path string) ([]byte, int, error) {
	// At most one byte more than any script limit allows: the runner
	// reports the max-script-bytes limit on what it got.
	return readScript(path, maxScriptRead-1)
}

// readScript reads a script file of at most max+1 bytes. It must be a
// regular file: a directory, a FIFO (which would wait for a writer
// before --timeout applies) or a device (/dev/zero) is refused at once,
// status 126.
func readScript(path string, max int64) ([]byte, int, error) {
	data, err := hostfile.ReadFile(path, max)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, ExitNotFound, fmt.Errorf("%s: No such file or directory", path)
	case err != nil:
		return nil, ExitNotExec, fmt.Errorf("%s: %s", path, hostErr(err))
	}
	return data, 0, nil
}

func ReportSetupError(w io.Writer, err error) int {
	termsafe.Fprintf(w, "sandsh: %v\n", err)
	var ue *usageError
	if errors.As(err, &ue) {
		return ExitUsage
	}
	var ce *configError
	if errors.As(err, &ce) {
		return ExitConfig
	}
	var se *stateError
	if errors.As(err, &se) {
		return ExitState
	}
	var le *lockedError
	if errors.As(err, &le) {
		return ExitLocked
	}
	var af *auditFailure
	if errors.As(err, &af) {
		return sandbox.ExitAudit
	}
	return ExitInternal
}

// finalStatus maps a run's outcome to sandsh's exit status.
func finalStatus(w io.Writer, status int, err error) int {
	if err == nil {
		return status
	}
	var le *interp.LimitError
	var ie *interp.InternalError
	var ae *sandbox.AuditError
	var de *sandbox.DeniedExit
	switch {
	case errors.As(err, &de):
		// The refusal said so on its own line: the run ends with it.
		return sandbox.ExitDenied
	case errors.As(err, &ae):
		termsafe.Fprintf(w, "sandsh: %v; the run was stopped\n", ae)
		return sandbox.ExitAudit
	case errors.As(err, &le):
		termsafe.Fprintf(w, "%s: %v\n", le.Prefix(), le)
		if le.Limit == "timeout" {
			return ExitTimeout
		}
		return ExitLimit
	case errors.As(err, &ie):
		termsafe.Fprintf(w, "sandsh: %v (this is a bug in sandsh)\n", ie)
		return ExitInternal
	case errors.Is(err, context.DeadlineExceeded):
		fmt.Fprintf(w, "sandsh: limit exceeded: timeout\n")
		return ExitTimeout
	}
	termsafe.Fprintf(w, "sandsh: %v\n", err)
	return ExitInternal
}
