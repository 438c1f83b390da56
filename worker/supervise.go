package worker

// The worker: every script runs in a child sandsh process (the worker),
// supervised by the sandsh the user started (the parent). The parent
// parses the command line, reads the script file, starts the worker with
// the run's options on a pipe, and turns every death of the worker into
// one clean line and exit status (restrict.RunWorker). The worker
// confines itself (restrict.Confine: rlimits, no_new_privs, Landlock,
// seccomp), starts a heap watchdog and then runs exactly as an
// in-process run would (runMain).
//
// The interactive shell (REPL) keeps the terminal, the history file and
// Ctrl-C in the parent and runs its lines in a long-lived worker of the
// same kind (a Session, session.go). --no-worker runs a script or the REPL
// in-process (for debugging and the in-process tests); the limits inside
// the runner still apply, but a Go stack overflow or an unbounded
// allocation then kills sandsh.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/restrict"
	"github.com/sandsh/sandsh/sandbox"
)

// workerState is what a worker process knows beyond its Options.
type workerState struct {
	ctx       context.Context // cancelled by the heap watchdog
	hasScript bool            // the script file was read by the parent
	script    []byte
	inputs    *runInputs    // what the parent read for the session flags
	result    io.Writer     // where the run's outcome goes back (results.go), or nil
	jail      *os.File      // the socket to ask the parent for jailed programs (jail.go), or nil
	net       builtins.Net  // the network broker to the parent's gate (net.go), or nil
	ask       sandbox.Asker // the parent's --ask-command, through the ask broker (ask.go), or nil
}

// memoryLimitMark is what a worker writes on its crash pipe (its own
// stderr, which only the parent reads) when the heap watchdog ended the
// run, instead of printing the limit: the parent prints it, as it does
// when it kills the worker for its RSS. With one process reporting, the
// line comes once however the two race (a worker that printed the line
// could still be killed for RSS before it exited, and the parent printed
// it again).
const memoryLimitMark = "sandsh-worker: limit max-memory\n"

// memoryLimitHit hands the report of the memory limit to the parent.
func memoryLimitHit() int {
	os.Stderr.WriteString(memoryLimitMark)
	return ExitLimit
}

// isMemoryLimit reports whether err is the worker's memory limit.
func isMemoryLimit(err error) bool {
	var le *interp.LimitError
	return errors.As(err, &le) && le.Limit == "max-memory"
}

// workerPayload is the run, as the parent sends it to the worker, in the
// wire format (wire.go).
type workerPayload struct {
	// Options are the run's options: the exported fields but IO.
	Options Options
	// HostEnv holds the host variables the run may read (--env NAME,
	// HOME); the worker's own environment is minimal.
	HostEnv map[string]string
	// Script is the script file's content when the script is a file.
	HasScript bool
	Script    []byte
	// Session makes the worker a long-lived session's (session.go);
	// Restore says its first request is the checkpoint to start from;
	// Interactive makes it the interactive shell's; Capture sends each
	// call's output back framed instead of writing it to the worker's
	// stdout and stderr.
	Session     bool
	Restore     bool
	Interactive bool
	Capture     bool
	// Inputs (a *runInputs in JSON, which carries a vfs.Snapshot) and
	// WantResult carry the session flags (results.go).
	Inputs     []byte
	WantResult bool
	// AuditFD is the worker's descriptor for its audit events, or 0.
	AuditFD int
	// JailFD is the worker's socket to the parent's jail runner, or 0.
	JailFD int
	// NetFDs are the worker's ends of the network broker (requests out,
	// responses in), zero without --allow-net (net.go).
	NetFDs      [2]int
	NetMaxBytes int64
	// AskFDs are the worker's ends of the ask broker (questions out,
	// answers in), zero without --ask-command (ask.go).
	AskFDs [2]int
}

// Hooks stand in for bugs in sandsh, for the tests of the walls: they
// run inside a worker once it is confined. Production code passes nil.
type Hooks struct {
	// Confined runs before the script (or the first interactive line);
	// it may set Line.
	Confined func(o *Options, h *Hooks)
	// Line runs in the interactive worker before each line.
	Line func(src string)
}

// IsWorker reports whether this process is a worker: then the program's
// main must call Main and exit with its status.
func IsWorker() bool { return os.Getenv(restrict.WorkerEnv) == "1" }

// superviseRun hands the whole run to a supervised worker. It reports
// false when the run stays in this process: in the worker itself, with
// --no-worker, and for the interactive shell.
func (o *Options) superviseRun() (int, bool) {
	if o.worker != nil || o.NoWorker {
		return 0, false
	}
	if o.Command == nil && len(o.Args) == 0 && o.IO.InTerminal {
		return 0, false // the REPL starts its own session (session.go)
	}
	return runSupervised(o), true
}

// readScript reads the script file: in the worker, the parent has already
// read it.
func (o *Options) readScript(path string) ([]byte, int, error) {
	if o.worker != nil && o.worker.hasScript {
		return o.worker.script, 0, nil
	}
	return ReadScriptFile(path)
}

// runContext is the context a run starts from.
func (o *Options) runContext() context.Context {
	if o.worker != nil {
		return o.worker.ctx
	}
	return context.Background()
}

// runSupervised is the parent side: start the worker, wait, report.
func runSupervised(o *Options) int {
	stdio := o.IO
	maxMem, err := ParseBytes(o.MaxMemory)
	if err != nil {
		return ReportSetupError(stdio.Err, usagef("--max-memory: %v", err))
	}
	// Host directories are checked here so the usage errors are the
	// same as in-process (the worker's Landlock rules need them).
	if o.FS == "overlay" && o.Base != "" {
		if err := checkDir(o.Base, "--base"); err != nil {
			return ReportSetupError(stdio.Err, err)
		}
	}
	if o.FS == "disk" && o.Root != "" {
		if err := checkDir(o.Root, "--root"); err != nil {
			return ReportSetupError(stdio.Err, err)
		}
	}
	p := workerPayload{}
	if o.Command == nil && len(o.Args) > 0 && o.Args[0] != "-" {
		data, status, err := readScriptCapped(o.Args[0], o.MaxScript)
		if err != nil {
			fmt.Fprintf(stdio.Err, "sandsh: %s\n", err)
			return status
		}
		p.HasScript, p.Script = true, data
	}
	session := o.SessionFlags()
	if session {
		if err := o.checkSessionFlags(); err != nil {
			return ReportSetupError(stdio.Err, err)
		}
	}
	h := o.newHostSide()
	var result bytes.Buffer
	var in *runInputs
	if session {
		var status int
		var err error
		if in, status, err = o.readInputs(); err != nil {
			fmt.Fprintf(h.errw, "sandsh: %v\n", err)
			return h.finish(status, "", nil)
		}
		defer o.stateFiles.close() // finish closes them; this is for the early returns
		p.WantResult = true
	}
	p.HostEnv = hostEnv(o)
	p.Options = *o
	payload, err := encodeWire(&p)
	if err != nil {
		return finalStatus(stdio.Err, 0, &interp.InternalError{Value: "encode options: " + err.Error()})
	}
	traceback := "none" // no Go stack trace ever reaches the user
	if o.Verbose {
		traceback = "single" // kept in a debug file, below
	}
	exe, _ := os.Executable()
	arg0 := "sandsh"
	if len(os.Args) > 0 {
		arg0 = filepath.Base(os.Args[0])
	}
	spec := restrict.WorkerSpec{
		Exe:            exe,
		Arg0:           arg0,
		Env:            []string{restrict.WorkerEnv + "=1", "GOTRACEBACK=" + traceback},
		Payload:        payload,
		Stdin:          stdio.In,
		Stdout:         h.out,
		Stderr:         h.errw,
		Timeout:        o.Timeout,
		MaxMemory:      maxMem,
		ForwardSignals: true,
	}
	// The worker reports its outcome on a pipe (its first extra
	// descriptor), read while it runs so it never blocks on it.
	var resultDone chan struct{}
	var auditWait func()
	var resW *os.File
	if session {
		resR, w, err := os.Pipe()
		if err != nil {
			return finalStatus(h.errw, 0, &interp.InternalError{Value: err.Error()})
		}
		resW, resultDone = w, make(chan struct{})
		spec.Extra = []*os.File{resW}
		in.passState(&spec.Extra)
		if p.Inputs, err = json.Marshal(in); err != nil {
			return finalStatus(stdio.Err, 0, &interp.InternalError{Value: "encode inputs: " + err.Error()})
		}
		if spec.Payload, err = encodeWire(&p); err != nil {
			return finalStatus(stdio.Err, 0, &interp.InternalError{Value: "encode options: " + err.Error()})
		}
		go func() {
			io.Copy(&result, io.LimitReader(resR, resultMax))
			io.Copy(io.Discard, resR)
			resR.Close()
			close(resultDone)
		}()
	}
	if o.auditRun != nil {
		w, wait, err := o.auditRun.workerPipe()
		auditWait = wait
		if err != nil {
			return finalStatus(h.errw, 0, &interp.InternalError{Value: err.Error()})
		}
		defer wait()
		defer o.auditRun.stopWorkerOnFailure(&spec)()
		spec.Extra = append(spec.Extra, w)
		p.AuditFD = restrict.WorkerExtraFD + len(spec.Extra) - 1
		if spec.Payload, err = encodeWire(&p); err != nil {
			return finalStatus(stdio.Err, 0, &interp.InternalError{Value: "encode options: " + err.Error()})
		}
	}
	stopJail, err := o.serveJail(&spec, &p)
	if err != nil {
		return ReportSetupError(h.errw, err)
	}
	broker, err := o.startNetBroker(&spec.Extra, &p)
	if err != nil {
		stopJail()
		return ReportSetupError(h.errw, err)
	}
	defer broker.stop()
	asks, err := o.startAskBroker(&spec.Extra, &p)
	if err != nil {
		stopJail()
		return ReportSetupError(h.errw, err)
	}
	defer asks.stop()
	if p.JailFD > 0 || broker != nil || asks != nil {
		if spec.Payload, err = encodeWire(&p); err != nil {
			return finalStatus(stdio.Err, 0, &interp.InternalError{Value: "encode options: " + err.Error()})
		}
	}
	res, err := restrict.RunWorker(spec)
	stopJail()
	broker.started()
	asks.started()
	if resW != nil {
		resW.Close() // the worker is gone: the reader sees EOF
		<-resultDone
	}
	if o.auditRun != nil {
		auditWait()
		if o.auditRun.log.Err() != nil {
			return o.auditRun.failed(h.errw, 0)
		}
	}
	if err != nil {
		return finalStatus(h.errw, 0, &interp.InternalError{Value: err.Error()})
	}
	status, limit := workerStatus(o, h.errw, res, maxMem)
	o.limitHit = limit
	if !session {
		return status
	}
	var oc *runOutcome
	if result.Len() > 0 {
		oc = &runOutcome{}
		if err := json.Unmarshal(result.Bytes(), oc); err != nil {
			oc = nil
		}
	}
	return h.finish(status, limit, oc)
}

// resultMax bounds what the parent takes from the worker's report: a
// state or an export can be as big as the filesystem.
const resultMax = 4 << 30

// workerStatus turns how the worker ended into sandsh's status (and the
// limit that ended it), reporting deaths on errw.
func workerStatus(o *Options, errw io.Writer, res restrict.WorkerResult, maxMem int64) (int, string) {
	if o.Verbose && res.CrashText != "" {
		if f, err := os.CreateTemp("", "sandsh-crash-*.txt"); err == nil {
			f.WriteString(res.CrashText)
			f.Close()
			fmt.Fprintf(o.IO.Err, "sandsh: the worker's crash report is in %s\n", f.Name())
		}
	}
	switch {
	case res.Death == restrict.Exited && res.Status == ExitLimit && strings.Contains(res.CrashText, memoryLimitMark):
		// The worker's heap watchdog ended the run and left the
		// report to this process (memoryLimitMark).
		return finalStatus(errw, 0, &interp.LimitError{Limit: "max-memory", Value: interp.FormatBytes(maxMem)}), "max-memory"
	}
	switch res.Death {
	case restrict.Exited:
		return res.Status, ""
	case restrict.DiedMemory:
		return finalStatus(errw, 0, &interp.LimitError{Limit: "max-memory", Value: interp.FormatBytes(maxMem)}), "max-memory"
	case restrict.DiedTimeout:
		return finalStatus(errw, 0, &interp.LimitError{Limit: "timeout", Value: o.Timeout.String()}), "timeout"
	case restrict.DiedStack:
		return finalStatus(errw, 0, &interp.LimitError{Limit: "nesting too deep", Value: "(Go stack)"}), "nesting too deep"
	case restrict.DiedSignal:
		return 128 + int(res.Signal), ""
	}
	return finalStatus(errw, 0, &interp.InternalError{Value: "worker crashed: " + res.Detail}), ""
}

// readScriptCapped reads the script file for the worker, but never more
// than one byte past --max-script-bytes: the parent is not under the
// memory limit, and the worker reports the limit (`sandsh /dev/zero`
// must not fill the parent's memory).
func readScriptCapped(path, maxFlag string) ([]byte, int, error) {
	limit, err := ParseBytes(maxFlag)
	if err != nil || limit <= 0 {
		return ReadScriptFile(path)
	}
	return readScript(path, limit)
}

func splitEnv(e string) (name, val string, ok bool) {
	for i := 0; i < len(e); i++ {
		if e[i] == '=' {
			return e[:i], e[i+1:], true
		}
	}
	return e, "", false
}

// epipeWriter makes a broken pipe on the worker's stdout/stderr (fds 3
// and 4) end the worker, as Go does for fds 1 and 2 (and bash's SIGPIPE):
// `sandsh -c 'yes' | head -1` must end.
type epipeWriter struct{ f *os.File }

func (w epipeWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	if err != nil && errors.Is(err, syscall.EPIPE) {
		os.Exit(128 + int(syscall.SIGPIPE))
	}
	return n, err
}

// Main is the worker side: read the run, confine, watch the heap, run.
// It returns the worker's exit status.
func Main(h *Hooks) int {
	if h == nil {
		h = &Hooks{}
	}
	for _, fd := range []int{restrict.WorkerStdoutFD, restrict.WorkerStderrFD, restrict.WorkerPayloadFD} {
		restrict.CloseOnExec(fd) // host programs (unrestricted mode) must not inherit them
	}
	outF := os.NewFile(restrict.WorkerStdoutFD, "/dev/stdout")
	errF := os.NewFile(restrict.WorkerStderrFD, "/dev/stderr")
	payF := os.NewFile(restrict.WorkerPayloadFD, "payload")
	if outF == nil || errF == nil || payF == nil {
		fmt.Fprintln(os.Stderr, "sandsh: worker started without its descriptors")
		return ExitInternal
	}
	errW := epipeWriter{errF}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(errW, "sandsh: internal error: worker: "+format+" (this is a bug in sandsh)\n", a...)
		return ExitInternal
	}
	data, err := io.ReadAll(payF)
	payF.Close()
	if err != nil {
		return fail("read the run: %v", err)
	}
	var p workerPayload
	if err := decodeWire(data, &p); err != nil {
		return fail("decode the run: %v", err)
	}
	var inputs *runInputs
	if p.Inputs != nil {
		inputs = &runInputs{}
		if err := json.Unmarshal(p.Inputs, inputs); err != nil {
			return fail("decode the run: %v", err)
		}
	}
	if p.Session {
		// Like bash at a prompt, the interactive shell ignores Ctrl-\
		// (the terminal sends it to the worker too).
		signal.Ignore(syscall.SIGQUIT)
		// Until the shell handles Ctrl-C (replWorkerMain's Notify undoes
		// this), a Ctrl-C for a line that just died must not end it.
		signal.Ignore(syscall.SIGINT)
	}
	o := &p.Options
	hostEnv := p.HostEnv
	o.IO = IO{
		In:      os.Stdin,
		Out:     epipeWriter{outF},
		Err:     errW,
		Getenv:  func(name string) string { return hostEnv[name] },
		Environ: func() []string { return envList(hostEnv) },
		Getwd:   os.Getwd,
	}
	maxMem, err := ParseBytes(o.MaxMemory)
	if err != nil {
		return ReportSetupError(errW, usagef("--max-memory: %v", err))
	}
	var maxFile int64
	if o.FS == "disk" {
		if maxFile, err = ParseBytes(o.MaxFileSize); err != nil {
			return ReportSetupError(errW, usagef("--max-file-size: %v", err))
		}
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	o.worker = &workerState{ctx: ctx, hasScript: p.HasScript, script: p.Script, inputs: inputs, jail: workerJail(p.JailFD), net: workerNet(&p), ask: workerAsk(&p)}
	if p.AuditFD > 0 {
		redact, err := o.auditRedact()
		if err != nil {
			return ReportSetupError(errW, err)
		}
		o.audit = workerAudit(p.AuditFD, redact)
	}
	if p.WantResult && !p.Session {
		restrict.CloseOnExec(restrict.WorkerExtraFD)
		if f := os.NewFile(restrict.WorkerExtraFD, "result"); f != nil {
			defer f.Close()
			o.worker.result = f
		}
	}
	// The interactive worker reads the terminal through a second,
	// pollable open of it, so Ctrl-C can end a read; Landlock would
	// refuse that open later.
	var tty *TTYInput
	if p.Interactive && !(o.FS == "disk" && o.Root == "" && !o.Restricted) {
		tty = NewTTYInput(os.Stdin)
		defer tty.Close()
	}

	// Load what the Go runtime reads lazily from the host before the
	// host is out of reach: the local time zone. (Zones a script asks
	// for come from the embedded time/tzdata.)
	_ = time.Local.String()

	rep, err := restrict.Confine(confineSpec(o, maxMem, maxFile))
	if err != nil {
		// Fail closed: a wall the kernel has did not go up.
		fmt.Fprintf(errW, "sandsh: cannot confine the worker: %v\n", err)
		return ExitInternal
	}
	if o.Verbose {
		for _, l := range rep.Lines() {
			fmt.Fprintf(errW, "sandsh: worker: %s\n", l)
		}
	}
	if !p.Session {
		// SIGQUIT (Ctrl-\) ends the run as it would end bash, 128+3,
		// without the Go runtime's goroutine dump. Only once confined:
		// the signal-handling goroutine is locked to a thread of its
		// own, and each thread that exists before Confine makes it
		// slower (Landlock goes up thread by thread). A SIGQUIT before
		// this point ends the worker with the runtime's report, which
		// the supervisor maps to 128+3 too (restrict.RunWorker).
		quit := make(chan os.Signal, 1)
		signal.Notify(quit, syscall.SIGQUIT)
		go func() {
			<-quit
			os.Exit(128 + int(syscall.SIGQUIT))
		}()
	}
	limitErr := &interp.LimitError{Limit: "max-memory", Value: interp.FormatBytes(maxMem)}
	// In the interactive worker the watchdog ends the running line, not
	// the session.
	var lineMu sync.Mutex
	var lineCancel context.CancelCauseFunc
	wd := restrict.StartHeapWatchdog(maxMem, 10*time.Millisecond, 2*time.Second,
		func() {
			if !p.Session {
				cancel(limitErr)
				return
			}
			lineMu.Lock()
			if lineCancel != nil {
				lineCancel(limitErr)
			}
			lineMu.Unlock()
		},
		func(orphaned bool) {
			if orphaned {
				os.Exit(ExitInternal)
			}
			if p.Session {
				os.Exit(ExitLimit) // the parent reports it and restarts
			}
			// The run did not stop in time after the limit: end it here
			// (the parent reports it).
			os.Exit(memoryLimitHit())
		})
	defer wd.Stop()
	if h.Confined != nil {
		h.Confined(o, h)
	}
	if p.Session {
		return serveSession(o, &p, tty, h, wd, func(c context.CancelCauseFunc) {
			lineMu.Lock()
			lineCancel = c
			lineMu.Unlock()
			if c == nil {
				wd.Rearm() // the line is over: watch the next one
			}
		})
	}
	return runScriptInWorker(o)
}

// confineSpec says what the worker may still reach on the host: nothing
// for mem, the --base directory read-only for overlay, the --root
// directory for disk --root, everything but exec for disk -r, and no
// Landlock or seccomp in unrestricted disk mode.
func confineSpec(o *Options, maxMem, maxFile int64) restrict.ConfineSpec {
	spec := restrict.ConfineSpec{Restricted: true, MaxMemory: maxMem}
	abs := func(p string) string {
		if a, err := filepath.Abs(p); err == nil {
			return a
		}
		return p
	}
	if o.Import != "" && (o.FS == "" || o.FS == "mem") {
		spec.ReadOnly = []string{abs(o.Import)} // read when used (results.go)
	}
	switch o.FS {
	case "overlay":
		if o.Base != "" {
			spec.ReadOnly = []string{abs(o.Base)}
		}
	case "disk":
		spec.MaxFileSize = maxFile
		switch {
		case o.Root != "":
			spec.ReadWrite = []string{abs(o.Root)}
		case o.Restricted:
			spec.WholeDisk = true
		default:
			spec.Restricted = false
		}
	}
	return spec
}
