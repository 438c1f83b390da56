package worker

// The interactive shell's worker. The terminal, line editing, history and
// Ctrl-C stay in the parent (repl.go); every line runs in a supervised,
// confined, long-lived worker (the same walls as `sandsh run`: rlimits,
// no_new_privs, Landlock, seccomp, the heap watchdog, the parent's memory
// poll and Go stack guard), which keeps the session: variables,
// functions, aliases, options, the directory, files and background jobs.
//
// Protocol: two pipes beside the worker's usual descriptors, one JSON
// message a line. The parent sends replRequest (run a line, finish,
// Complete a word); the worker answers every request with one ReplReply.
// After setting up and after every line that leaves the session going,
// the reply carries a snapshot of the session (interp.State and, for the
// memory and overlay filesystems, vfs.Snapshot), which the parent keeps.
//
// When the worker dies in a line (Go stack overflow, memory, a crash) or
// has to be killed (the line ignored Ctrl-C for a second, or ran past
// --timeout plus a second), the parent says so in one line, starts a new
// worker from the last snapshot (the state from before that line) and
// the session goes on. What a snapshot cannot hold is lost and the
// message says it: background jobs, and on --fs disk what the line had
// already written to the disk stays written.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/restrict"
	"github.com/sandsh/sandsh/vfs"
)

// replRequest is one request from the parent.
type replRequest struct {
	Op       string `json:"op"`             // "run", "finish", "commands", "paths"
	Src      string `json:"src,omitempty"`  // the line, for run
	Status   int    `json:"status"`         // $? before the request
	Word     string `json:"word,omitempty"` // the word to complete
	DirsOnly bool   `json:"dirs,omitempty"` // Complete directories only
}

// ReplReply answers one request (or says the worker is ready).
type ReplReply struct {
	Status      int      `json:"status"`
	Interrupted bool     `json:"interrupted,omitempty"` // Ctrl-C ended the line
	Exited      bool     `json:"exited,omitempty"`      // the session is over
	KillSig     int      `json:"killSig,omitempty"`     // SIGTERM/SIGHUP ended it
	Dir         string   `json:"dir"`
	Desc        string   `json:"desc,omitempty"`
	Cands       []string `json:"cands,omitempty"`
	Jobs        int      `json:"jobs,omitempty"` // background jobs running
	// StateLen is the length of the gob-encoded replSnapshot that
	// follows the message's line; 0 when the session is unchanged since
	// the last one sent.
	StateLen int64  `json:"stateLen,omitempty"`
	State    []byte `json:"-"`
}

// replSnapshot is the session as the worker saw it after a line.
type replSnapshot struct {
	Shell  *interp.State `json:"shell"`
	Files  *vfs.Snapshot `json:"files,omitempty"`
	Status int           `json:"status"`
	// What the session has added to a --root directory so far, so that
	// a restarted worker keeps counting --max-fs-bytes and --max-files
	// from there rather than from zero.
	DiskBytes int64
	DiskFiles int
}

// The worker's control pipes.
const (
	replRequestFD = restrict.WorkerExtraFD
	replReplyFD   = restrict.WorkerExtraFD + 1
)

// replMsgMax bounds one message from the worker: the parent is not under
// the memory limit, and a worker is not trusted to be sane.
func replMsgMax(o *Options) int64 {
	n, _ := ParseBytes(o.MaxFSBytes)
	if n <= 0 || n > 4<<30 {
		n = 4 << 30
	}
	return n*2 + 64<<20 // base64 of the files, and the shell state
}

// readMsg reads one newline-terminated message of at most max bytes.
func readMsg(br *bufio.Reader, max int64) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if int64(len(buf)+len(chunk)) > max {
			return nil, errors.New("message too long")
		}
		buf = append(buf, chunk...)
		if err == nil {
			return buf, nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return nil, err
		}
	}
}

// RemoteShell is the parent's handle on the interactive worker.
type RemoteShell struct {
	o      *Options
	stdin  io.Reader
	maxMem int64
	state  []byte // the last snapshot (gob-encoded replSnapshot)
	dir    string
	desc   string
	jobs   int // background jobs running after the last line

	mu       sync.Mutex
	proc     *os.Process
	req      *os.File
	replies  chan ReplReply // closed when the worker's reply pipe ends
	dead     chan restrict.WorkerResult
	gone     *restrict.WorkerResult // how the worker ended, once it has
	killed   string                 // why the parent killed it, if it did
	termSig  syscall.Signal         // SIGTERM/SIGHUP forwarded to a line
	running  bool                   // a line is running
	intrTime *time.Timer
}

// StartRemote starts the interactive worker and waits until it is ready.
func StartRemote(o *Options, stdin io.Reader) (*RemoteShell, error) {
	maxMem, err := ParseBytes(o.MaxMemory)
	if err != nil {
		return nil, usagef("--max-memory: %v", err)
	}
	if o.FS == "overlay" && o.Base != "" {
		if err := checkDir(o.Base, "--base"); err != nil {
			return nil, err
		}
	}
	if o.FS == "disk" && o.Root != "" {
		if err := checkDir(o.Root, "--root"); err != nil {
			return nil, err
		}
	}
	rs := &RemoteShell{o: o, stdin: stdin, maxMem: maxMem}
	rep, err := rs.start()
	if err != nil {
		return nil, err
	}
	rs.desc = rep.Desc
	return rs, nil
}

// start starts a worker from rs.state (a fresh session when nil) and
// returns its ready message.
func (rs *RemoteShell) start() (ReplReply, error) { return rs.startTry(3) }

func (rs *RemoteShell) startTry(retry int) (ReplReply, error) {
	o := rs.o
	p := workerPayload{HostEnv: map[string]string{}, REPL: true, ReplState: rs.state}
	if o.IO.Getenv != nil {
		names := []string{"HOME"}
		for _, e := range o.Env {
			if name, _, ok := splitEnv(e); !ok {
				names = append(names, name)
			}
		}
		for _, n := range names {
			if v := o.IO.Getenv(n); v != "" {
				p.HostEnv[n] = v
			}
		}
	}
	var err error
	p.Options = *o
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return ReplReply{}, err
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return ReplReply{}, err
	}
	traceback := "none"
	if o.Verbose {
		traceback = "single"
	}
	exe, _ := os.Executable()
	started := make(chan *os.Process, 1)
	dead := make(chan restrict.WorkerResult, 1)
	startErr := make(chan error, 1)
	var broker *netBroker
	spec := restrict.WorkerSpec{
		Exe:       exe,
		Arg0:      "sandsh",
		Env:       []string{restrict.WorkerEnv + "=1", "GOTRACEBACK=" + traceback},
		Stdin:     rs.stdin,
		Stdout:    o.IO.Out,
		Stderr:    o.IO.Err,
		MaxMemory: rs.maxMem,
		Extra:     []*os.File{reqR, respW},
		Started: func(p *os.Process) {
			broker.started()
			started <- p
		},
	}
	stopJail, err := o.serveJail(&spec, &p)
	if err == nil {
		// The network broker of this worker; the gate behind it is the
		// session's (o.gate), so its request count survives a restart.
		broker, err = o.startNetBroker(&spec.Extra, &p)
	}
	if err == nil {
		spec.Payload, err = encodeWire(&p)
	}
	if err != nil {
		if stopJail != nil {
			stopJail()
		}
		broker.stop()
		reqR.Close()
		reqW.Close()
		respR.Close()
		respW.Close()
		return ReplReply{}, err
	}
	go func() {
		defer broker.stop()
		res, err := restrict.RunWorker(spec)
		stopJail()
		if err != nil {
			startErr <- err
			return
		}
		dead <- res
	}()
	var proc *os.Process
	select {
	case proc = <-started:
	case err := <-startErr:
		reqR.Close()
		respW.Close()
		reqW.Close()
		respR.Close()
		return ReplReply{}, err
	}
	reqR.Close()
	respW.Close()
	replies := make(chan ReplReply, 1)
	max := replMsgMax(o)
	go func() {
		defer close(replies)
		defer respR.Close()
		br := bufio.NewReaderSize(respR, 64<<10)
		for {
			msg, err := readMsg(br, max)
			if err != nil {
				return
			}
			var rep ReplReply
			if json.Unmarshal(msg, &rep) != nil || rep.StateLen < 0 || rep.StateLen > max {
				return
			}
			if rep.StateLen > 0 {
				// Grown as the bytes arrive: a forged length costs
				// nothing before the data is really there.
				var buf bytes.Buffer
				if n, err := io.CopyN(&buf, br, rep.StateLen); err != nil || n != rep.StateLen {
					return
				}
				rep.State = buf.Bytes()
			}
			replies <- rep
		}
	}()
	rs.mu.Lock()
	rs.proc, rs.req, rs.replies, rs.dead, rs.gone, rs.killed = proc, reqW, replies, dead, nil, ""
	rs.mu.Unlock()
	rep, ok := rs.await(0)
	if !ok {
		rs.mu.Lock()
		res := rs.gone
		rs.mu.Unlock()
		if res != nil && res.Death == restrict.DiedSignal && res.Signal == syscall.SIGINT && retry > 0 {
			// Ctrl-C reached the new worker before it could handle it.
			return rs.startTry(retry - 1)
		}
		if res != nil && res.Death == restrict.Exited {
			// The worker reported its own set-up error.
			return ReplReply{}, &ExitError{Status: res.Status}
		}
		return ReplReply{}, errors.New("the interactive worker did not start")
	}
	rs.keep(rep)
	return rep, nil
}

// Desc describes the session's sandbox.
func (rs *RemoteShell) Desc() string { return rs.desc }

// Dir is the shell's directory after the last line.
func (rs *RemoteShell) Dir() string { return rs.dir }

// keep remembers what a reply says about the session.
func (rs *RemoteShell) keep(rep ReplReply) {
	if rep.Dir != "" {
		rs.dir = rep.Dir
	}
	rs.jobs = rep.Jobs
	if len(rep.State) > 0 {
		rs.state = rep.State
	}
}

// await waits for the worker's reply; with a timeout > 0 the worker is
// killed when none comes in time. ok is false when the worker died (rs.gone
// says how).
func (rs *RemoteShell) await(timeout time.Duration) (ReplReply, bool) {
	var tc <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		tc = t.C
	}
	for {
		select {
		case rep, ok := <-rs.replies:
			if ok {
				return rep, true
			}
			rs.reap()
			return ReplReply{}, false
		case <-tc:
			rs.kill("timeout")
			tc = nil
		}
	}
}

// reap waits for the dead worker's result.
func (rs *RemoteShell) reap() {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.gone != nil {
		return
	}
	rs.proc.Kill() // its reply pipe is gone: it is of no use any more
	select {
	case res := <-rs.dead:
		rs.gone = &res
	case <-time.After(5 * time.Second):
		rs.gone = &restrict.WorkerResult{Death: restrict.DiedCrash, Detail: "the worker did not end"}
	}
	rs.req.Close()
	if rs.intrTime != nil {
		rs.intrTime.Stop()
	}
}

// kill ends the worker on the parent's initiative.
func (rs *RemoteShell) kill(why string) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.killed == "" {
		rs.killed = why
	}
	rs.proc.Kill()
}

// send writes a request; false if the worker is gone.
func (rs *RemoteShell) send(req replRequest) bool {
	b, err := json.Marshal(req)
	if err != nil {
		return false
	}
	_, err = rs.req.Write(append(b, '\n'))
	return err == nil
}

// lineTimeout is how long the parent waits for a line before killing the
// worker: the worker ends the line itself at --timeout.
func (rs *RemoteShell) lineTimeout() time.Duration {
	if rs.o.Timeout <= 0 {
		return 0
	}
	return rs.o.Timeout + time.Second
}

// RunLine runs one line in the worker. When the worker died or was
// killed, the death is reported, a new worker starts from the state
// before the line and the line's status is returned.
func (rs *RemoteShell) RunLine(errw io.Writer, src string, status int) (rep ReplReply, ok bool) {
	rs.mu.Lock()
	rs.running = true
	rs.mu.Unlock()
	defer func() {
		rs.mu.Lock()
		rs.running = false
		if rs.intrTime != nil {
			rs.intrTime.Stop()
			rs.intrTime = nil
		}
		rs.mu.Unlock()
	}()
	if rs.send(replRequest{Op: "run", Src: src, Status: status}) {
		if rep, ok := rs.await(rs.lineTimeout()); ok {
			rs.keep(rep)
			return rep, true
		}
	} else {
		rs.reap()
	}
	rs.mu.Lock()
	sig := rs.termSig
	rs.mu.Unlock()
	if sig != 0 {
		// The session was ending anyway: no restart.
		return ReplReply{Status: 128 + int(sig), Exited: true, KillSig: int(sig)}, true
	}
	return ReplReply{Status: rs.recover(errw, true)}, false
}

// recover reports how the worker ended and starts a new one from the
// last snapshot. inLine says the death happened while a line ran. It
// returns the status the line gets.
func (rs *RemoteShell) recover(errw io.Writer, inLine bool) int {
	rs.mu.Lock()
	res, killed := rs.gone, rs.killed
	rs.mu.Unlock()
	status := ExitInternal
	var what string
	switch {
	case killed == "interrupt":
		status, what = StatusInterrupted, "the line did not stop on Ctrl-C"
	case killed == "timeout":
		status, what = ExitTimeout, (&interp.LimitError{Limit: "timeout", Value: rs.o.Timeout.String()}).Error()
	case res == nil:
		what = "internal error: the worker vanished (this is a bug in sandsh)"
	case res.Death == restrict.DiedMemory || res.Death == restrict.Exited && res.Status == ExitLimit:
		status, what = ExitLimit, (&interp.LimitError{Limit: "max-memory", Value: interp.FormatBytes(rs.maxMem)}).Error()
	case res.Death == restrict.DiedStack:
		status, what = ExitLimit, (&interp.LimitError{Limit: "nesting too deep", Value: "(Go stack)"}).Error()
	case res.Death == restrict.DiedSignal:
		status, what = 128+int(res.Signal), "the shell was ended by "+res.Signal.String()
	case res.Death == restrict.Exited:
		status, what = res.Status, fmt.Sprintf("the shell's worker exited with status %d", res.Status)
	default:
		what = "internal error: worker crashed: " + res.Detail + " (this is a bug in sandsh)"
	}
	if !inLine {
		what += " (between lines)"
	}
	if killed == "interrupt" {
		fmt.Fprintln(errw) // after the ^C the terminal echoed
	}
	var lost []string
	switch {
	case rs.jobs == 1:
		lost = append(lost, "1 background job was lost")
	case rs.jobs > 1:
		lost = append(lost, fmt.Sprintf("%d background jobs were lost", rs.jobs))
	}
	if rs.o.FS == "disk" && inLine {
		lost = append(lost, "what the line wrote on disk stays")
	}
	note := ""
	if len(lost) > 0 {
		note = " (" + strings.Join(lost, "; ") + ")"
	}
	fmt.Fprintf(errw, "sandsh: %s; the session goes on from its state before that line%s\n", what, note)
	if _, err := rs.start(); err != nil {
		fmt.Fprintf(errw, "sandsh: cannot restart the shell: %v\n", err)
		return -1
	}
	return status
}

// Alive makes sure a worker is there between lines, restarting one that
// died at the prompt (a background job hit a limit).
func (rs *RemoteShell) Alive(errw io.Writer) bool {
	select {
	case res := <-rs.dead:
		rs.mu.Lock()
		rs.gone = &res
		rs.mu.Unlock()
		rs.req.Close()
		return rs.recover(errw, false) >= 0
	default:
		return true
	}
}

// Finish asks the worker to run the EXIT trap and end the session.
func (rs *RemoteShell) Finish(status int) (int, bool) {
	// The EXIT trap is a line too: Ctrl-C ends it, or kills the worker.
	rs.mu.Lock()
	rs.running = true
	rs.mu.Unlock()
	if !rs.send(replRequest{Op: "finish", Status: status}) {
		return status, false
	}
	rep, ok := rs.await(rs.lineTimeout())
	if !ok {
		return status, false
	}
	rs.mu.Lock()
	dead := rs.dead
	rs.mu.Unlock()
	select {
	case <-dead:
	case <-time.After(2 * time.Second):
		rs.kill("exit")
	}
	return rep.Status, true
}

// Complete asks the worker for completions; nil when it cannot answer.
func (rs *RemoteShell) Complete(op, word string, dirsOnly bool) []string {
	if !rs.send(replRequest{Op: op, Word: word, DirsOnly: dirsOnly}) {
		return nil
	}
	rep, ok := rs.await(5 * time.Second)
	if !ok {
		return nil
	}
	return rep.Cands
}

// Interrupt forwards Ctrl-C to a running line, and kills the worker if
// the line has not ended a second later.
func (rs *RemoteShell) Interrupt() {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if !rs.running || rs.gone != nil {
		return
	}
	rs.proc.Signal(syscall.SIGINT)
	if rs.intrTime == nil {
		rs.intrTime = time.AfterFunc(time.Second, func() { rs.kill("interrupt") })
	}
}

// Terminate forwards SIGTERM/SIGHUP to a running line; false at the
// prompt, where the session simply ends.
func (rs *RemoteShell) Terminate(sig syscall.Signal) bool {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if !rs.running || rs.gone != nil {
		if rs.gone == nil {
			rs.proc.Kill()
		}
		return false
	}
	rs.termSig = sig
	rs.proc.Signal(sig)
	time.AfterFunc(2*time.Second, func() { rs.kill("terminate") })
	return true
}

// replWorkerMain is the worker side: set up the session (from the
// parent's snapshot, if any), then answer requests until the session
// ends.
func replWorkerMain(o *Options, p *workerPayload, tty *TTYInput, h *Hooks, onLine func(context.CancelCauseFunc)) int {
	restrict.CloseOnExec(replRequestFD)
	restrict.CloseOnExec(replReplyFD)
	reqF := os.NewFile(replRequestFD, "requests")
	repF := os.NewFile(replReplyFD, "replies")
	if reqF == nil || repF == nil {
		fmt.Fprintln(o.IO.Err, "sandsh: internal error: interactive worker without its pipes")
		return ExitInternal
	}
	var stdin io.Reader = o.IO.In
	if tty != nil {
		stdin = tty
	}
	if tty != nil {
		o.Ask = TerminalAsker(stdin, o.IO.Err) // the policy's ask rules ask here
	}
	sess, err := NewSandbox(o, o.IO.Out, o.IO.Err, stdin, "sandsh", nil, interp.Interactive(true))
	if err != nil {
		return ReportSetupError(o.IO.Err, err)
	}
	r := sess.Runner()
	fsBytes, _ := ParseBytes(o.MaxFSBytes)
	fileSize, _ := ParseBytes(o.MaxFileSize)
	lim := vfs.SnapLimits{MaxBytes: fsBytes, MaxFiles: o.MaxFiles, MaxFileSize: fileSize}
	_, memFS := sess.FS().(*vfs.MemFS)
	ctx := o.runContext()
	if len(p.ReplState) > 0 {
		var snap replSnapshot
		if err := gob.NewDecoder(bytes.NewReader(p.ReplState)).Decode(&snap); err != nil {
			fmt.Fprintf(o.IO.Err, "sandsh: internal error: restore the session: %v\n", err)
			return ExitInternal
		}
		if snap.Files != nil && memFS {
			if err := vfs.Restore(ctx, sess.FS(), snap.Files, lim); err != nil {
				fmt.Fprintf(o.IO.Err, "sandsh: restore the session's files: %v\n", err)
			}
		}
		vfs.SetUsage(sess.FS(), snap.DiskBytes, snap.DiskFiles)
		if snap.Shell != nil {
			if err := r.ImportState(snap.Shell); err != nil {
				fmt.Fprintf(o.IO.Err, "sandsh: restore the session: %v\n", err)
			}
		}
		r.SetStatus(snap.Status)
	}
	out := bufio.NewWriterSize(repF, 64<<10)
	reply := func(rep ReplReply) error {
		rep.StateLen = int64(len(rep.State))
		b, err := json.Marshal(rep)
		if err != nil {
			return err
		}
		out.Write(append(b, '\n'))
		out.Write(rep.State)
		return out.Flush()
	}
	// snapshot encodes the session, or returns nil when it is the same as
	// the last one sent (the parent keeps that one) or cannot be taken.
	seed := maphash.MakeSeed()
	var lastSum uint64
	snapshot := func(status int) []byte {
		s := replSnapshot{Shell: r.ExportState(), Status: status}
		if u, ok := sess.FS().(interface{ Usage() (int64, int) }); ok && !memFS {
			s.DiskBytes, s.DiskFiles = u.Usage()
		}
		if memFS {
			f, err := vfs.TakeSnapshot(ctx, sess.FS(), lim)
			if err != nil {
				return nil
			}
			s.Files = f
		}
		var buf bytes.Buffer
		if gob.NewEncoder(&buf).Encode(&s) != nil {
			return nil
		}
		sum := maphash.Bytes(seed, buf.Bytes())
		if sum == lastSum {
			return nil
		}
		lastSum = sum
		return buf.Bytes()
	}
	if reply(ReplReply{Dir: r.Dir(), Desc: sess.Description(), Jobs: r.RunningJobs(), State: snapshot(r.Status())}) != nil {
		return ExitInternal
	}

	var mu sync.Mutex
	var cancel context.CancelCauseFunc
	var intr bool
	var killSig int
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		for s := range sigs {
			mu.Lock()
			if cancel != nil {
				if s == syscall.SIGINT {
					intr = true
				} else {
					killSig = int(s.(syscall.Signal))
				}
				cancel(nil)
				tty.Interrupt()
			}
			mu.Unlock()
		}
	}()
	// guarded runs fn with a context that signals and the heap watchdog
	// cancel; a panic is reported as an internal error.
	guarded := func(fn func(context.Context) int) (status int, interrupted bool, sig int, panicked bool) {
		lctx, lcancel := context.WithCancelCause(ctx)
		mu.Lock()
		cancel, intr, killSig = lcancel, false, 0
		mu.Unlock()
		onLine(lcancel)
		defer func() {
			if v := recover(); v != nil {
				fmt.Fprintf(o.IO.Err, "sandsh: %v (this is a bug in sandsh)\n", &interp.InternalError{Value: v})
				panicked = true
			}
			onLine(nil)
			mu.Lock()
			cancel = nil
			interrupted, sig = intr, killSig
			mu.Unlock()
			lcancel(nil)
			if interrupted || sig != 0 {
				tty.Rearm()
			}
		}()
		return fn(lctx), false, 0, false
	}
	finish := func() int {
		st, _, _, panicked := guarded(r.Finish)
		if panicked {
			return ExitInternal
		}
		return st
	}
	br := bufio.NewReaderSize(reqF, 64<<10)
	for {
		msg, err := readMsg(br, 64<<20)
		if err != nil {
			return finish() // the parent is gone
		}
		var req replRequest
		if err := json.Unmarshal(bytes.TrimSpace(msg), &req); err != nil {
			fmt.Fprintf(o.IO.Err, "sandsh: internal error: interactive worker: %v\n", err)
			return ExitInternal
		}
		var rep ReplReply
		switch req.Op {
		case "commands":
			rep.Cands = r.CommandCompletions(req.Word)
		case "paths":
			rep.Cands = r.CompletePath(req.Word, req.DirsOnly)
		case "finish":
			r.SetStatus(req.Status)
			st := finish()
			if !r.Exited() { // `exit` in the EXIT trap sets the status
				st = req.Status
			}
			reply(ReplReply{Status: st, Exited: true, Dir: r.Dir()})
			return st
		case "run":
			r.SetStatus(req.Status)
			f, perr := ParseLine(req.Src)
			if perr != nil {
				fmt.Fprintf(o.IO.Err, "sandsh: %v\n", perr)
				rep.Status = ExitSyntax
				break
			}
			status, interrupted, sig, panicked := guarded(func(c context.Context) int {
				if h.Line != nil {
					h.Line(req.Src)
				}
				return r.RunLine(c, f.Stmts)
			})
			switch {
			case panicked:
				reply(ReplReply{Status: ExitInternal, Exited: true})
				return ExitInternal
			case sig != 0:
				finish()
				reply(ReplReply{Status: 128 + sig, Exited: true, KillSig: sig})
				return 128 + sig
			case r.Exited():
				st := finish()
				reply(ReplReply{Status: st, Exited: true})
				return st
			case interrupted:
				status = StatusInterrupted
				rep.Interrupted = true
			}
			r.Reset()
			rep.Status = status
			r.SetStatus(status)
			rep.State = snapshot(status)
		default:
			fmt.Fprintf(o.IO.Err, "sandsh: internal error: interactive worker: unknown request %q\n", req.Op)
			return ExitInternal
		}
		rep.Dir = r.Dir()
		rep.Jobs = r.RunningJobs()
		if err := reply(rep); err != nil {
			return finish()
		}
	}
}
