package worker

// Sessions: one long-lived, supervised, confined worker holding a live
// shell and filesystem. The interactive shell, `sandsh mcp`'s named
// sessions and a library program that wants the walls all use one.
//
// A call (Run) sends the script and gets the result back; nothing in
// proportion to the workspace is copied, encoded or hashed per call. After
// every call that leaves the session going, the worker sends what the
// call changed (protocol.go), which the session keeps in its own copy of
// the tree (a checkpoint, in the parent). When the worker dies (a limit
// it could not stop in time, a Go stack overflow, a crash) or must be
// killed (a call past its time), the session says so in one line and
// starts a new worker from the checkpoint: what the failed call did is
// lost, nothing before it.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/sandsh/sandsh/internal/termsafe"
	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/restrict"
	"github.com/sandsh/sandsh/sandbox"
	"github.com/sandsh/sandsh/vfs"
)

// SessionConfig says how a session's worker is wired.
type SessionConfig struct {
	// Stdin is the worker's standard input (the interactive shell's
	// terminal); nil is empty. A call's own input is Call.Stdin.
	Stdin io.Reader
	// Stdout and Stderr, when set, receive the output of every call
	// directly (the worker writes there; nothing passes through the
	// session). When nil, each call's output comes back in its Result,
	// or goes to Call.Stdout and Call.Stderr as it is written.
	Stdout, Stderr io.Writer
	// Interactive makes the session the interactive shell's: lines run
	// as typed at a prompt (RunLine), an error ends only its line, and
	// the worker reads the terminal (Stdin) itself.
	Interactive bool
}

// Call is one script run in a session.
type Call struct {
	Script string
	// Name is $0 and the name in error messages (default "sandsh");
	// Args are the positional parameters.
	Name string
	Args []string
	// Stdin is the script's standard input.
	Stdin []byte
	// Cwd, when set, is where the call starts, as after `cd Cwd` (the
	// session stays there).
	Cwd string
	// Timeout, when set, bounds this call instead of the session's
	// --timeout.
	Timeout time.Duration
	// MaxOutput bounds what the Result keeps of each of stdout and
	// stderr (default 1 MiB): the first and the last half are kept, and
	// Result.StdoutTruncated says that the middle was dropped. The run
	// goes on (the session's --max-output still ends it).
	MaxOutput int
	// Stdout and Stderr, when set, receive the output as it is written
	// (chunk by chunk, while the call runs) instead of the Result.
	Stdout, Stderr io.Writer
	// Changes asks for the files the call added, modified and deleted;
	// Vars for the values of these variables after it.
	Changes bool
	Vars    []string
}

// Result is how a call ended.
type Result struct {
	// Status is the exit status, like sandsh's: the script's own, or 2
	// (syntax), 124 (timeout), 125 (another limit), 70 (internal).
	Status int
	// Limit is the limit that ended the call ("timeout", "max-memory",
	// ...), or "".
	Limit string
	// Finished reports that the script ran to its end (whatever its
	// status).
	Finished bool
	Duration time.Duration
	// Stdout and Stderr hold the output kept (see Call.MaxOutput);
	// StdoutBytes and StderrBytes count what the call wrote.
	Stdout, Stderr                   []byte
	StdoutTruncated, StderrTruncated bool
	StdoutBytes, StderrBytes         int64
	// Changes lists what the call changed, when asked.
	Changes []vfs.Change
	// Vars holds the variables asked for: a string, a []string or a
	// map[string]string; nil when unset.
	Vars map[string]any
	// Restarted, when set, is the one line that says the worker died in
	// this call and was restarted, and what was lost.
	Restarted string
}

// DefaultMaxOutput is what a Result keeps of each stream by default.
const DefaultMaxOutput = 1 << 20

// ErrSessionClosed is returned by the methods of a closed Session.
var ErrSessionClosed = errors.New("session: closed")

// Session is one live sandbox in its own supervised, confined worker.
// Its methods are safe for concurrent use; calls run one at a time.
type Session struct {
	o      Options
	cfg    SessionConfig
	maxMem int64
	desc   string
	dir    string
	jobs   int // background jobs running after the last call

	history  []string // SetHistory's, sent with each line
	histBase int

	calls       sync.Mutex    // one call at a time
	local       *localSession // the session runs in this process (Options.NoWorker)
	ckpt        *sessionCheckpoint
	closed      bool
	inputs      []byte   // the worker's inputs (the --state file it starts from)
	wantChanges bool     // the running call asked for its changes
	lastLimit   string   // the limit that killed the last worker
	stateLock   *os.File // the --state file's lock, held until Close

	mu       sync.Mutex
	proc     *os.Process
	req      *os.File
	replies  chan reply // closed when the worker's reply pipe ends
	dead     chan restrict.WorkerResult
	gone     *restrict.WorkerResult // how the worker ended, once it has
	killed   string                 // why the session killed it, if it did
	termSig  syscall.Signal         // SIGTERM/SIGHUP forwarded to a line
	running  bool                   // a call is running
	intrTime *time.Timer

	// outMu guards sink and held: output frames go to the running
	// call's sink; what a background job writes while no call runs is
	// held (bounded, head and tail) and comes first in the next call's
	// output, as it would have shown on a terminal before the next
	// command.
	outMu sync.Mutex
	sink  [3]io.Writer
	held  [3]*headTail
	// poll holds the supervisor's memory poll from the moment a new
	// worker is ready until the first request reaches it: a worker that
	// has run nothing yet (a pooled one) cannot grow, and should cost
	// no wake-ups while it waits.
	poll restrict.Pause
}

// sessionCheckpoint is the session as of the last finished call: a copy
// of its tree (memory and overlay filesystems) and its shell state.
type sessionCheckpoint struct {
	sb        *sandbox.Sandbox // holds the copy; no script runs in it
	fs        *vfs.MemFS
	start     vfs.Mark // the copy equals a new worker's tree here
	shell     *interp.State
	started   bool // a worker has started from this copy
	status    int
	diskBytes int64
	diskFiles int
}

// StartSession starts a session's worker and waits until it is ready.
// The options are the run's (filesystem, limits, policy, network, jail);
// they are copied.
func StartSession(o *Options, cfg SessionConfig) (*Session, error) {
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
	s := &Session{o: *o, cfg: cfg, maxMem: maxMem}
	started := false
	if o.State != "" {
		// The session holds the state's lock from before it reads the
		// state until it is closed, after the last save, as a run does
		// (issue 23.7): two sessions, or a session and a run, on one
		// --state file would each save over the other's work.
		lock, status, err := o.lockState()
		if err != nil {
			return nil, lockError(status, err)
		}
		s.stateLock = lock
		defer func() {
			if !started {
				s.unlockState()
			}
		}()
	}
	if o.NoWorker {
		if cfg.Interactive {
			return nil, errors.New("session: an interactive session needs a worker")
		}
		if s.local, err = startLocal(&s.o); err != nil {
			return nil, err
		}
		s.desc, s.dir = s.local.sb.Description(), s.local.sb.Dir()
		started = true
		return s, nil
	}
	if err := s.newCheckpoint(); err != nil {
		return nil, err
	}
	rep, err := s.start()
	if err != nil {
		s.ckpt.close()
		return nil, err
	}
	s.desc = rep.Desc
	started = true
	return s, nil
}

// newCheckpoint builds the session's copy of a new worker's tree: the
// same sandbox (from the --state file, when there is one), built in this
// process, where no script ever runs.
func (s *Session) newCheckpoint() error {
	c := &sessionCheckpoint{}
	data, st, err := s.o.sessionState()
	if err != nil {
		return err
	}
	if s.inputs, err = stateInputs(data); err != nil {
		return err
	}
	if st != nil {
		c.shell = st.Shell
	}
	if s.o.FS == "" || s.o.FS == "mem" || s.o.FS == "overlay" {
		o := s.o
		cfg, err := o.SandboxConfig()
		if err != nil {
			return err
		}
		cfg.Jail, cfg.Net, cfg.Audit, cfg.Policy, cfg.Ask, cfg.RunnerOptions = nil, nil, nil, nil, nil, nil
		cfg.State = st
		sb, err := sandbox.New(cfg)
		if err != nil {
			var ce *sandbox.ConfigError
			var se *sandbox.StateError
			switch {
			case errors.As(err, &ce):
				return usagef("%s", ce.Msg)
			case errors.As(err, &se):
				return &stateError{fmt.Errorf("--state %s: %v", o.State, err)}
			}
			return err
		}
		if m, ok := sb.FS().(*vfs.MemFS); ok {
			c.sb, c.fs, c.start = sb, m, m.Mark()
		} else {
			sb.Close()
		}
	}
	s.ckpt = c
	return nil
}

func (c *sessionCheckpoint) close() {
	if c != nil && c.sb != nil {
		c.sb.Close()
	}
}

// apply takes the checkpoint of a reply from the worker into the copy;
// when the call asked for them, its changes go into the reply first.
func (s *Session) apply(rep *reply) error {
	k := s.ckpt
	if !rep.Checkpoint {
		return nil
	}
	if len(rep.data) == 0 {
		if s.wantChanges && k.fs != nil {
			rep.Changes, rep.HasChanges = []vfs.Change{}, true
		}
		return nil
	}
	c, err := decodeCheckpoint(rep.data)
	if err != nil {
		return fmt.Errorf("decode a checkpoint: %w", err)
	}
	if s.wantChanges && k.fs != nil {
		rep.Changes, rep.HasChanges = changesOf(k.fs, c.Delta), true
	}
	if c.Delta != nil {
		if k.fs == nil {
			return errors.New("a checkpoint with files for a session without a copy")
		}
		if err := vfs.ApplyDelta(context.Background(), k.fs, c.Delta, vfs.SnapLimits{}); err != nil {
			return fmt.Errorf("apply a checkpoint: %w", err)
		}
	}
	if c.Shell != nil {
		k.shell = c.Shell
	}
	k.status, k.diskBytes, k.diskFiles = c.Status, c.DiskBytes, c.DiskFiles
	n := len(rep.data)
	rep.data = nil
	releaseBig(n)
	return nil
}

// restartPayload is the checkpoint a new worker starts from: the files
// changed since the session began, and the shell.
func (s *Session) restartPayload() ([]byte, error) {
	k := s.ckpt
	if k.shell == nil && k.fs == nil && k.diskBytes == 0 && k.diskFiles == 0 {
		return nil, nil
	}
	if k.fs == nil && !k.started {
		return nil, nil // the first start: the worker loads the state itself
	}
	c := checkpoint{Shell: k.shell, Status: k.status, DiskBytes: k.diskBytes, DiskFiles: k.diskFiles}
	if k.fs != nil {
		d, err := vfs.ChangesSince(context.Background(), k.fs, k.start, vfs.SnapLimits{})
		if err != nil {
			return nil, err
		}
		if !d.Empty() {
			c.Delta = d
		}
	}
	var buf bytes.Buffer
	if err := encodeCheckpoint(&buf, &c); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// start starts a worker from the checkpoint and returns its ready reply.
func (s *Session) start() (reply, error) { return s.startTry(3) }

func (s *Session) startTry(retry int) (reply, error) {
	s.poll.Resume() // a new worker is watched while it sets up
	o := &s.o
	ck, err := s.restartPayload()
	if err != nil {
		return reply{}, fmt.Errorf("restart the session: %w", err)
	}
	p := workerPayload{HostEnv: hostEnv(o), Session: true, Interactive: s.cfg.Interactive,
		Capture: s.cfg.Stdout == nil, Restore: ck != nil, Inputs: s.inputs}
	p.Options = *o
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return reply{}, err
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return reply{}, err
	}
	traceback := "none"
	if o.Verbose {
		traceback = "single"
	}
	exe, _ := os.Executable()
	started := make(chan *os.Process, 1)
	dead := make(chan restrict.WorkerResult, 1)
	startErr := make(chan error, 1)
	var nets *broker
	var asks *broker
	spec := restrict.WorkerSpec{
		Exe:       exe,
		Arg0:      "sandsh",
		Env:       []string{restrict.WorkerEnv + "=1", "GOTRACEBACK=" + traceback},
		Stdin:     s.cfg.Stdin,
		Stdout:    s.cfg.Stdout,
		Stderr:    s.cfg.Stderr,
		MaxMemory: s.maxMem,
		Poll:      &s.poll,
		Extra:     []*os.File{reqR, respW},
		Started: func(p *os.Process) {
			nets.started()
			asks.started()
			started <- p
		},
	}
	if spec.Stdin == nil {
		spec.Stdin = bytes.NewReader(nil)
	}
	stopJail, err := o.serveJail(&spec, &p)
	if err == nil {
		// The network broker of this worker; the gate behind it is the
		// session's (o.gate), so its request count survives a restart.
		nets, err = o.startNetBroker(&spec.Extra, &p)
	}
	if err == nil {
		asks, err = o.startAskBroker(&spec.Extra, &p)
	}
	if err == nil {
		spec.Payload, err = encodeWire(&p)
	}
	if err != nil {
		if stopJail != nil {
			stopJail()
		}
		nets.stop()
		asks.stop()
		reqR.Close()
		reqW.Close()
		respR.Close()
		respW.Close()
		return reply{}, err
	}
	go func() {
		defer nets.stop()
		defer asks.stop()
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
		return reply{}, err
	}
	reqR.Close()
	respW.Close()
	if ck != nil {
		// Written while the worker reads it; an error shows as the
		// worker's death below.
		go func() {
			b, _ := json.Marshal(request{Op: "restore", DataLen: int64(len(ck))})
			reqW.Write(append(b, '\n'))
			reqW.Write(ck)
		}()
	}
	replies := make(chan reply, 1)
	go s.readFrames(respR, replies, replyMax(o))
	s.mu.Lock()
	s.proc, s.req, s.replies, s.dead, s.gone, s.killed, s.termSig = proc, reqW, replies, dead, nil, "", 0
	s.mu.Unlock()
	rep, ok := s.await(0)
	if !ok {
		s.mu.Lock()
		res := s.gone
		s.mu.Unlock()
		if res != nil && res.Death == restrict.DiedSignal && res.Signal == syscall.SIGINT && retry > 0 {
			// Ctrl-C reached the new worker before it could handle it.
			return s.startTry(retry - 1)
		}
		if res != nil && res.Death == restrict.Exited {
			// The worker reported its own set-up error.
			return reply{}, &ExitError{Status: res.Status}
		}
		return reply{}, errors.New("the session's worker did not start")
	}
	if err := s.keep(&rep); err != nil {
		s.kill("checkpoint")
		s.reap()
		return reply{}, err
	}
	s.ckpt.started = true
	if !s.cfg.Interactive {
		s.poll.Pause()
	}
	return rep, nil
}

// hostEnv holds the host variables the run may read: HOME, each --env
// NAME that is set on the host, and each variable --env PREFIX* names.
func hostEnv(o *Options) map[string]string {
	env := map[string]string{}
	if v, ok := o.IO.lookupEnv("HOME"); ok {
		env["HOME"] = v
	}
	for _, e := range o.Env {
		name, _, ok := splitEnv(e)
		switch {
		case ok:
		case strings.HasSuffix(name, "*"):
			for _, kv := range o.IO.hostVars(strings.TrimSuffix(name, "*")) {
				k, v, _ := strings.Cut(kv, "=")
				env[k] = v
			}
		default:
			if v, set := o.IO.lookupEnv(name); set {
				env[name] = v
			}
		}
	}
	return env
}

// envList is env as NAME=VALUE lines, sorted.
func envList(env map[string]string) []string {
	var l []string
	for k, v := range env {
		l = append(l, k+"="+v)
	}
	slices.Sort(l)
	return l
}

// replyMax bounds one frame from the worker: the parent is not under the
// memory limit, and a worker is not trusted to be sane.
func replyMax(o *Options) int64 {
	n, _ := ParseBytes(o.MaxFSBytes)
	if n <= 0 || n > 4<<30 {
		n = 4 << 30
	}
	return n + 64<<20 // the files, and the shell state
}

// readFrames reads the worker's frames: output to the running call's
// sink, replies (with their payload) to replies.
func (s *Session) readFrames(r *os.File, replies chan<- reply, max int64) {
	defer close(replies)
	defer r.Close()
	br := bufio.NewReaderSize(r, 64<<10)
	var data []byte
	for {
		kind, b, err := readFrame(br, max)
		if err != nil {
			return
		}
		switch kind {
		case frameStdout, frameStderr:
			s.outMu.Lock()
			if w := s.sink[kind]; w != nil {
				w.Write(b)
			} else {
				if s.held[kind] == nil {
					s.held[kind] = &headTail{max: heldMax}
				}
				s.held[kind].Write(b)
			}
			s.outMu.Unlock()
		case frameData:
			if int64(len(data)+len(b)) > max {
				return
			}
			data = append(data, b...)
		case frameReply:
			var rep reply
			if json.Unmarshal(b, &rep) != nil {
				return
			}
			rep.data, data = data, nil
			replies <- rep
		default:
			return
		}
	}
}

// keep remembers what a reply says about the session.
func (s *Session) keep(rep *reply) error {
	if rep.Dir != "" {
		s.dir = rep.Dir
	}
	s.jobs = rep.Jobs
	return s.apply(rep)
}

// await waits for the worker's reply; with a timeout > 0 the worker is
// killed when none comes in time. ok is false when the worker died
// (s.gone says how).
func (s *Session) await(timeout time.Duration) (reply, bool) {
	var tc <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		tc = t.C
	}
	for {
		select {
		case rep, ok := <-s.replies:
			if ok {
				return rep, true
			}
			s.reap()
			return reply{}, false
		case <-tc:
			s.kill("timeout")
			tc = nil
		}
	}
}

// reap waits for the dead worker's result.
func (s *Session) reap() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gone != nil {
		return
	}
	s.proc.Kill() // its reply pipe is gone: it is of no use any more
	select {
	case res := <-s.dead:
		s.gone = &res
	case <-time.After(5 * time.Second):
		s.gone = &restrict.WorkerResult{Death: restrict.DiedCrash, Detail: "the worker did not end"}
	}
	s.req.Close()
	if s.intrTime != nil {
		s.intrTime.Stop()
	}
}

// kill ends the worker on the session's initiative.
func (s *Session) kill(why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.killed == "" {
		s.killed = why
	}
	s.proc.Kill()
}

// send writes a request (and its data); false if the worker is gone.
func (s *Session) send(req request, data []byte) bool {
	s.poll.Resume()
	req.DataLen = int64(len(data))
	b, err := json.Marshal(req)
	if err != nil {
		return false
	}
	if _, err = s.req.Write(append(b, '\n')); err != nil {
		return false
	}
	if len(data) > 0 {
		_, err = s.req.Write(data)
	}
	return err == nil
}

// callTimeout is how long the session waits for a call before killing
// the worker: the worker ends the call itself at its timeout.
func (s *Session) callTimeout(t time.Duration) time.Duration {
	if t <= 0 {
		t = s.o.Timeout
	}
	if t <= 0 {
		return 0
	}
	return t + time.Second
}

// Desc describes the session's sandbox.
func (s *Session) Desc() string { return s.desc }

// Dir is the shell's directory after the last call.
func (s *Session) Dir() string {
	s.calls.Lock()
	defer s.calls.Unlock()
	return s.dir
}

// do sends one request and waits for its reply; when the worker died
// or was killed meanwhile, it is restarted from the checkpoint and
// restarted holds the one line that says so (ok false).
func (s *Session) do(req request, data []byte, timeout time.Duration, sink [3]io.Writer) (rep reply, ok bool, restarted string, status int) {
	s.setSink(sink)
	s.mu.Lock()
	s.running = true
	s.mu.Unlock()
	defer func() {
		s.setSink([3]io.Writer{})
		s.mu.Lock()
		s.running = false
		if s.intrTime != nil {
			s.intrTime.Stop()
			s.intrTime = nil
		}
		s.mu.Unlock()
	}()
	if s.send(req, data) {
		if rep, ok := s.await(timeout); ok {
			if err := s.keep(&rep); err != nil {
				// The copy could not follow: it is what the last
				// good checkpoint left, which a restart would use.
				s.kill("checkpoint")
				s.reap()
			} else {
				return rep, true, "", 0
			}
		}
	} else {
		s.reap()
	}
	s.mu.Lock()
	sig := s.termSig
	s.mu.Unlock()
	if sig != 0 {
		// The session was ending anyway: no restart.
		return reply{Status: 128 + int(sig), Exited: true, KillSig: int(sig)}, true, "", 0
	}
	restarted, status = s.recover(true)
	return reply{Status: status}, false, restarted, status
}

// heldMax bounds what is held of each stream of background output
// between calls.
const heldMax = 1 << 20

// setSink says where output frames go from now on; what was held for
// a stream goes there first (with a marker line where its middle was
// cut).
func (s *Session) setSink(sink [3]io.Writer) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	s.sink = sink
	for k, w := range sink {
		h := s.held[k]
		if w == nil || h == nil {
			continue
		}
		head, tail, cut := h.parts()
		w.Write(head)
		if cut > 0 {
			fmt.Fprintf(w, "[... sandsh: %d bytes of background output cut here ...]\n", cut)
		}
		w.Write(tail)
		s.held[k] = nil
	}
}

// recover starts a new worker from the checkpoint after a death, and
// returns the line that says what happened and the status the call gets
// (-1 when no worker could be started again).
func (s *Session) recover(inCall bool) (string, int) {
	s.mu.Lock()
	res, killed := s.gone, s.killed
	s.mu.Unlock()
	status := ExitInternal
	var what, limit string
	switch {
	case killed == "interrupt":
		status, what = StatusInterrupted, "the line did not stop on Ctrl-C"
	case killed == "timeout":
		status, limit = ExitTimeout, "timeout"
	case killed == "cancelled":
		status, what = StatusInterrupted, "the call was cancelled"
	case killed == "checkpoint":
		what = "internal error: the session's checkpoint failed (this is a bug in sandsh)"
	case res == nil:
		what = "internal error: the worker vanished (this is a bug in sandsh)"
	case res.Death == restrict.DiedMemory || res.Death == restrict.Exited && res.Status == ExitLimit:
		status, limit = ExitLimit, "max-memory"
	case res.Death == restrict.DiedStack:
		status, limit = ExitLimit, "nesting too deep"
	case res.Death == restrict.DiedSignal:
		status, what = 128+int(res.Signal), "the shell was ended by "+res.Signal.String()
	case res.Death == restrict.Exited:
		status, what = res.Status, fmt.Sprintf("the shell's worker exited with status %d", res.Status)
	default:
		what = "internal error: worker crashed: " + res.Detail + " (this is a bug in sandsh)"
	}
	s.lastLimit = limit
	var line string
	if s.cfg.Interactive {
		line = s.interactiveLost(killed, limit, what, inCall)
	} else {
		line = s.callLost(limit, what, inCall)
	}
	if _, err := s.start(); err != nil {
		return line + "\nsandsh: cannot restart the session: " + err.Error(), -1
	}
	return line, status
}

// limitText is the limit's usual message.
func (s *Session) limitText(limit string) string {
	switch limit {
	case "timeout":
		return (&interp.LimitError{Limit: "timeout", Value: s.o.Timeout.String()}).Error()
	case "max-memory":
		return (&interp.LimitError{Limit: "max-memory", Value: interp.FormatBytes(s.maxMem)}).Error()
	case "nesting too deep":
		return (&interp.LimitError{Limit: "nesting too deep", Value: "(Go stack)"}).Error()
	}
	return ""
}

// interactiveLost is the interactive shell's line about a restart.
func (s *Session) interactiveLost(killed, limit, what string, inLine bool) string {
	if limit != "" {
		what = s.limitText(limit)
	}
	if !inLine {
		what += " (between lines)"
	}
	var lost []string
	switch {
	case s.jobs == 1:
		lost = append(lost, "1 background job was lost")
	case s.jobs > 1:
		lost = append(lost, fmt.Sprintf("%d background jobs were lost", s.jobs))
	}
	if s.o.FS == "disk" && inLine {
		lost = append(lost, "what the line wrote on disk stays")
	}
	note := ""
	if len(lost) > 0 {
		note = " (" + joinSemi(lost) + ")"
	}
	line := fmt.Sprintf("sandsh: %s; the session goes on from its state before that line%s", what, note)
	if killed == "interrupt" {
		line = "\n" + line // after the ^C the terminal echoed
	}
	return line
}

// callLost is a script session's line about a restart.
func (s *Session) callLost(limit, what string, inCall bool) string {
	why := limit
	if why == "" {
		why = what
	}
	when := "the last finished call"
	if !inCall {
		why += " between calls"
	}
	lost := "changes since " + when + " were lost"
	if s.jobs > 0 {
		lost += fmt.Sprintf(", and %d background job(s)", s.jobs)
	}
	if s.o.FS == "disk" {
		lost = "what the call wrote on disk stays; the shell state since " + when + " was lost"
	}
	return fmt.Sprintf("sandsh: session restarted after %s; %s", why, lost)
}

func joinSemi(list []string) string {
	out := ""
	for i, s := range list {
		if i > 0 {
			out += "; "
		}
		out += s
	}
	return out
}

// Run runs one call in the session. The error is non-nil only when the
// session is closed or cannot go on (no worker could be started again);
// a script that fails, or a worker that died in it and was restarted, is
// a Result. The context's deadline bounds the call like Call.Timeout
// (status 124); cancelling it ends the call at once (status 130), by
// ending the worker if need be: the session then goes on from its last
// checkpoint.
func (s *Session) Run(ctx context.Context, c Call) (*Result, error) {
	s.calls.Lock()
	defer s.calls.Unlock()
	if s.closed {
		return nil, ErrSessionClosed
	}
	if s.cfg.Interactive {
		return nil, errors.New("session: an interactive session runs lines (RunLine)")
	}
	max := c.MaxOutput
	if max <= 0 {
		max = DefaultMaxOutput
	}
	var outCap, errCap *headTail
	var sink [3]io.Writer
	sink[frameStdout], sink[frameStderr] = c.Stdout, c.Stderr
	if c.Stdout == nil {
		outCap = &headTail{max: max}
		sink[frameStdout] = outCap
	}
	if c.Stderr == nil {
		errCap = &headTail{max: max}
		sink[frameStderr] = errCap
	}
	if s.local != nil {
		res, err := s.local.run(ctx, c, sink[frameStdout], sink[frameStderr])
		if err == nil {
			s.dir = s.local.sb.Dir()
			if outCap != nil {
				res.Stdout, res.StdoutTruncated = outCap.bytes()
				res.StdoutBytes = outCap.written()
			}
			if errCap != nil {
				res.Stderr, res.StderrTruncated = errCap.bytes()
				res.StderrBytes = errCap.written()
			}
		}
		return res, err
	}
	if err := s.aliveLocked(); err != nil {
		return nil, err
	}
	s.wantChanges = c.Changes
	defer func() { s.wantChanges = false }()
	req := request{Op: "script", Src: c.Script, Name: c.Name, Args: c.Args, Cwd: c.Cwd, Timeout: c.Timeout,
		Capture: s.cfg.Stdout == nil, Changes: c.Changes && s.ckpt.fs == nil, Vars: c.Vars}
	if d, ok := ctx.Deadline(); ok && (req.Timeout <= 0 || time.Until(d) < req.Timeout) {
		req.Timeout = max64(time.Until(d), time.Millisecond)
	}
	start := time.Now()
	stop := context.AfterFunc(ctx, func() { s.kill(cancelReason(ctx)) })
	rep, ok, restarted, status := s.do(req, c.Stdin, s.callTimeout(req.Timeout), sink)
	stop()
	res := &Result{Status: rep.Status, Limit: rep.Limit, Finished: rep.Finished, Duration: rep.Duration, Vars: varValues(rep.Vars)}
	if rep.HasChanges {
		res.Changes = rep.Changes
		if res.Changes == nil {
			res.Changes = []vfs.Change{}
		}
	}
	if !ok {
		res.Status, res.Restarted, res.Duration = status, restarted, time.Since(start)
		res.Limit = s.lastLimit
		if status < 0 {
			return nil, errors.New(restarted)
		}
	}
	if outCap != nil {
		res.Stdout, res.StdoutTruncated = outCap.bytes()
		res.StdoutBytes = outCap.written()
	}
	if errCap != nil {
		res.Stderr, res.StderrTruncated = errCap.bytes()
		res.StderrBytes = errCap.written()
	}
	return res, nil
}

// varValues gives the values of variables, which came as JSON, their Go
// types back: string, []string, map[string]string.
func varValues(in map[string]any) map[string]any {
	if in == nil {
		return nil
	}
	out := make(map[string]any, len(in))
	for name, v := range in {
		switch v := v.(type) {
		case []any:
			list := make([]string, len(v))
			for i, e := range v {
				list[i], _ = e.(string)
			}
			out[name] = list
		case map[string]any:
			m := make(map[string]string, len(v))
			for k, e := range v {
				m[k], _ = e.(string)
			}
			out[name] = m
		default:
			out[name] = v
		}
	}
	return out
}

// cancelReason is why a call's context ended it: its deadline is the
// call's timeout (124), a cancellation is like Ctrl-C (130).
func cancelReason(ctx context.Context) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "timeout"
	}
	return "cancelled"
}

func max64(a, b time.Duration) time.Duration {
	if a > b {
		return a
	}
	return b
}

// aliveLocked makes sure a worker is there between calls, restarting
// one that died (a background job hit a limit).
func (s *Session) aliveLocked() error {
	select {
	case res := <-s.dead:
		s.mu.Lock()
		s.gone = &res
		s.mu.Unlock()
		s.req.Close()
		if line, st := s.recover(false); st < 0 {
			return errors.New(line)
		}
		return nil
	default:
		return nil
	}
}

// RunLine runs one line of an interactive session. When the worker died
// or was killed, the death is reported on errw, a new worker starts from
// the checkpoint and the line's status is returned (ok false; a status
// below 0 when no worker could be started again).
func (s *Session) RunLine(errw io.Writer, src string, status int) (rep LineReply, ok bool) {
	s.calls.Lock()
	defer s.calls.Unlock()
	req := request{Op: "line", Src: src, Status: status, History: s.history, HistBase: s.histBase}
	r, ok, restarted, st := s.do(req, nil, s.callTimeout(0), [3]io.Writer{})
	if !ok {
		termsafe.Fprintf(errw, "%s\n", restarted)
		return LineReply{Status: st}, false
	}
	return LineReply{Status: r.Status, Interrupted: r.Interrupted, Exited: r.Exited, KillSig: r.KillSig}, true
}

// SetHistory sets the interactive history the next lines' history
// builtin lists (in a pipeline or $( ) too): entries oldest first, the
// first numbered base+1. It goes with every line, so a worker started
// again from a checkpoint has it as well.
func (s *Session) SetHistory(entries []string, base int) {
	s.calls.Lock()
	defer s.calls.Unlock()
	s.history, s.histBase = entries, base
}

// LineReply is how an interactive line ended.
type LineReply struct {
	Status      int
	Interrupted bool // Ctrl-C ended the line
	Exited      bool // the session is over
	KillSig     int  // SIGTERM/SIGHUP ended it
}

// Alive makes sure a worker is there between lines, restarting one that
// died at the prompt (a background job hit a limit); the line about it
// goes to errw.
func (s *Session) Alive(errw io.Writer) bool {
	s.calls.Lock()
	defer s.calls.Unlock()
	select {
	case res := <-s.dead:
		s.mu.Lock()
		s.gone = &res
		s.mu.Unlock()
		s.req.Close()
		line, st := s.recover(false)
		termsafe.Fprintf(errw, "%s\n", line)
		return st >= 0
	default:
		return true
	}
}

// Finish asks the worker to run the EXIT trap and end the session.
func (s *Session) Finish(status int) (int, bool) {
	s.calls.Lock()
	defer s.calls.Unlock()
	// The EXIT trap is a line too: Ctrl-C ends it, or kills the worker.
	s.mu.Lock()
	s.running = true
	s.mu.Unlock()
	if !s.send(request{Op: "finish", Status: status}, nil) {
		return status, false
	}
	rep, ok := s.await(s.callTimeout(0))
	if !ok {
		return status, false
	}
	s.mu.Lock()
	dead := s.dead
	s.mu.Unlock()
	select {
	case res := <-dead:
		s.mu.Lock()
		s.gone = &res
		s.mu.Unlock()
	case <-time.After(2 * time.Second):
		s.kill("exit")
		s.reap()
	}
	return rep.Status, true
}

// Complete asks the worker for completions ("commands" or "paths"); nil
// when it cannot answer.
func (s *Session) Complete(op, word string, dirsOnly bool) []string {
	s.calls.Lock()
	defer s.calls.Unlock()
	if !s.send(request{Op: op, Word: word, DirsOnly: dirsOnly}, nil) {
		return nil
	}
	rep, ok := s.await(5 * time.Second)
	if !ok {
		return nil
	}
	return rep.Cands
}

// Interrupt forwards Ctrl-C to a running line, and kills the worker if
// the line has not ended a second later.
func (s *Session) Interrupt() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.running || s.gone != nil {
		return
	}
	s.proc.Signal(syscall.SIGINT)
	if s.intrTime == nil {
		s.intrTime = time.AfterFunc(time.Second, func() { s.kill("interrupt") })
	}
}

// Terminate forwards SIGTERM/SIGHUP to a running line; false at the
// prompt, where the session simply ends.
func (s *Session) Terminate(sig syscall.Signal) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.running || s.gone != nil {
		if s.gone == nil {
			s.proc.Kill()
		}
		return false
	}
	s.termSig = sig
	s.proc.Signal(sig)
	time.AfterFunc(2*time.Second, func() { s.kill("terminate") })
	return true
}

// ReadFile reads a file of the session (a relative name from the shell's
// directory), at most max bytes (0: the file size limit); the same
// filesystem, permissions and policy paths as the script's.
func (s *Session) ReadFile(ctx context.Context, name string, max int64) ([]byte, error) {
	if s.local != nil {
		s.calls.Lock()
		defer s.calls.Unlock()
		if s.closed {
			return nil, ErrSessionClosed
		}
		return s.local.readFile(name, max)
	}
	rep, err := s.fileOp(ctx, request{Op: "read", Path: name, MaxBytes: max}, nil)
	if err != nil {
		return nil, err
	}
	return rep.data, nil
}

// WriteFile creates or replaces a file of the session with data.
func (s *Session) WriteFile(ctx context.Context, name string, data []byte, perm fs.FileMode) error {
	if s.local != nil {
		s.calls.Lock()
		defer s.calls.Unlock()
		if s.closed {
			return ErrSessionClosed
		}
		return s.local.writeFile(name, data, perm.Perm())
	}
	_, err := s.fileOp(ctx, request{Op: "write", Path: name, Mode: uint32(perm.Perm())}, data)
	return err
}

// MkdirAll creates a directory of the session and its parents, like
// os.MkdirAll.
func (s *Session) MkdirAll(ctx context.Context, name string, perm fs.FileMode) error {
	if s.local != nil {
		r := s.local.sb.Runner()
		return mkdirAll(r.FS(), r.Dir(), name, perm.Perm())
	}
	_, err := s.fileOp(ctx, request{Op: "mkdir", Path: name, Mode: uint32(perm.Perm())}, nil)
	return err
}

// ReadDir lists a directory of the session, sorted by name.
func (s *Session) ReadDir(ctx context.Context, name string) ([]DirEntry, error) {
	if s.local != nil {
		s.calls.Lock()
		defer s.calls.Unlock()
		if s.closed {
			return nil, ErrSessionClosed
		}
		return s.local.readDir(name)
	}
	rep, err := s.fileOp(ctx, request{Op: "list", Path: name}, nil)
	if err != nil {
		return nil, err
	}
	return rep.Entries, nil
}

func (s *Session) fileOp(ctx context.Context, req request, data []byte) (reply, error) {
	s.calls.Lock()
	defer s.calls.Unlock()
	if s.closed {
		return reply{}, ErrSessionClosed
	}
	if err := s.aliveLocked(); err != nil {
		return reply{}, err
	}
	stop := context.AfterFunc(ctx, func() { s.kill(cancelReason(ctx)) })
	defer stop()
	rep, ok, restarted, _ := s.do(req, data, 0, [3]io.Writer{})
	if !ok {
		return reply{}, errors.New(restarted)
	}
	if rep.Err != "" {
		return reply{}, errors.New(rep.Err)
	}
	return rep, nil
}

// Reset ends the worker and starts the session afresh: no file, no
// variable of before is left.
func (s *Session) Reset() error {
	s.calls.Lock()
	defer s.calls.Unlock()
	if s.closed {
		return ErrSessionClosed
	}
	if s.local != nil {
		s.local.sb.Close()
		l, err := startLocal(&s.o)
		if err != nil {
			return err
		}
		s.local = l
		return nil
	}
	s.stopWorker()
	s.ckpt.close()
	s.outMu.Lock()
	s.held = [3]*headTail{} // the old jobs' output is the old session's
	s.outMu.Unlock()
	if err := s.newCheckpoint(); err != nil {
		return err
	}
	_, err := s.start()
	return err
}

// Close ends the session: the worker (and its background jobs) stops.
func (s *Session) Close() error {
	s.calls.Lock()
	defer s.calls.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	defer s.unlockState()
	if s.local != nil {
		return s.local.sb.Close()
	}
	s.stopWorker()
	s.ckpt.close()
	return nil
}

// unlockState releases the --state lock, if the session holds it.
func (s *Session) unlockState() {
	if s.stateLock != nil {
		s.stateLock.Close()
		s.stateLock = nil
	}
}

// stopWorker ends the worker: closing its requests ends it (after its
// EXIT trap), or it is killed a second later.
func (s *Session) stopWorker() {
	s.mu.Lock()
	if s.gone != nil {
		s.mu.Unlock()
		return
	}
	s.req.Close()
	dead := s.dead
	s.mu.Unlock()
	select {
	case res := <-dead:
		s.mu.Lock()
		s.gone = &res
		s.mu.Unlock()
	case <-time.After(time.Second):
		s.kill("close")
		s.reap()
	}
}

// headTail keeps the first and the last max/2 bytes written to it.
type headTail struct {
	mu        sync.Mutex
	max       int
	head      []byte
	tail      []byte // a ring of max-max/2 bytes once full
	tailStart int
	total     int64
}

func (h *headTail) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := len(p)
	h.total += int64(n)
	if room := h.max/2 - len(h.head); room > 0 {
		k := min(room, len(p))
		h.head = append(h.head, p[:k]...)
		p = p[k:]
	}
	tmax := h.max - h.max/2
	for len(p) > 0 && tmax > 0 {
		if len(h.tail) < tmax {
			k := min(tmax-len(h.tail), len(p))
			h.tail = append(h.tail, p[:k]...)
			p = p[k:]
			continue
		}
		k := min(tmax-h.tailStart, len(p))
		copy(h.tail[h.tailStart:], p[:k])
		h.tailStart = (h.tailStart + k) % tmax
		p = p[k:]
	}
	return n, nil
}

// written is how many bytes were written.
func (h *headTail) written() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.total
}

// parts returns the head, the tail and how many bytes were dropped
// between them.
func (h *headTail) parts() (head, tail []byte, cut int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	tail = append(append([]byte(nil), h.tail[h.tailStart:]...), h.tail[:h.tailStart]...)
	return append([]byte(nil), h.head...), tail, h.total - int64(len(h.head)+len(tail))
}

// bytes returns what was kept and whether anything was dropped.
func (h *headTail) bytes() ([]byte, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := append([]byte(nil), h.head...)
	out = append(out, h.tail[h.tailStart:]...)
	out = append(out, h.tail[:h.tailStart]...)
	return out, h.total > int64(len(out))
}
