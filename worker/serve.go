package worker

// The session worker's side: one live sandbox (shell and filesystem)
// serving the requests of the parent's Session until it ends. The
// protocol is in protocol.go.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/restrict"
	"github.com/sandsh/sandsh/sandbox"
	"github.com/sandsh/sandsh/statefile"
	"github.com/sandsh/sandsh/vfs"
)

// served is the worker's live session.
type served struct {
	o      *Options
	sb     *sandbox.Sandbox
	r      *interp.Runner
	mem    *vfs.MemFS // the filesystem, when it tracks changes; else nil
	lim    vfs.SnapLimits
	ctx    context.Context
	out    *frameWriter
	mark   vfs.Mark // the last checkpoint
	seed   maphash.Seed
	lastSh uint64 // hash of the shell state last sent
}

// serveSession sets up the session (from the parent's checkpoint, if
// any), then answers requests until the session ends.
func serveSession(o *Options, p *workerPayload, tty *TTYInput, h *Hooks, wd *restrict.HeapWatchdog, onLine func(context.CancelCauseFunc)) int {
	restrict.CloseOnExec(sessionRequestFD)
	restrict.CloseOnExec(sessionReplyFD)
	reqF := os.NewFile(sessionRequestFD, "requests")
	repF := os.NewFile(sessionReplyFD, "replies")
	if reqF == nil || repF == nil {
		fmt.Fprintln(o.IO.Err, "sandsh: internal error: session worker without its pipes")
		return ExitInternal
	}
	var stdin io.Reader = o.IO.In
	if tty != nil {
		stdin = tty
	}
	var extra []interp.Option
	if p.Interactive {
		extra = append(extra, interp.Interactive(true))
	} else {
		// A job started with & in a call runs on after it, as in a
		// shell session (interp.KeepJobs: bounded by --timeout from its
		// start and by the session's limits).
		extra = append(extra, interp.KeepJobs(true))
	}
	fw := &frameWriter{w: bufio.NewWriterSize(repF, 64<<10)}
	var err error
	outW, errW := o.IO.Out, o.IO.Err
	if p.Capture {
		// Each call's output goes back framed (a background job keeps
		// the frames of the call that started it, and the parent holds
		// what comes between calls for the next one).
		outW, errW = io.Discard, io.Discard
	}
	var st *statefile.File
	if in := o.worker.inputs; in != nil && in.HasState {
		if st, err = o.parseState(in.State); err != nil {
			return ReportSetupError(o.IO.Err, err)
		}
	}
	sb, err := newSandboxFrom(o, st, outW, errW, stdin, "sandsh", nil, extra...)
	if err != nil {
		return ReportSetupError(o.IO.Err, err)
	}
	fsBytes, _ := ParseBytes(o.MaxFSBytes)
	fileSize, _ := ParseBytes(o.MaxFileSize)
	s := &served{o: o, sb: sb, r: sb.Runner(), lim: vfs.SnapLimits{MaxBytes: fsBytes, MaxFiles: o.MaxFiles, MaxFileSize: fileSize},
		ctx: o.runContext(), out: fw, seed: maphash.MakeSeed()}
	if m, ok := sb.FS().(*vfs.MemFS); ok {
		s.mem = m
		// The parent's copy of the tree equals this one here: what the
		// checkpoints carry is what changes after this mark.
		s.mark = m.Mark()
	}
	br := bufio.NewReaderSize(reqF, 64<<10)
	if p.Restore {
		// The checkpoint comes as the first request, read straight
		// into one buffer (the payload pipe would hold it twice).
		req, data, err := readRequest(br, replyMax(o))
		if err == nil && req.Op != "restore" {
			err = fmt.Errorf("the first request is %q", req.Op)
		}
		if err == nil {
			err = s.restore(data)
		}
		if err != nil {
			fmt.Fprintf(o.IO.Err, "sandsh: internal error: restore the session: %v (this is a bug in sandsh)\n", err)
			return ExitInternal
		}
		releaseBig(len(data))
	}
	r := s.r
	ready := reply{Dir: r.Dir(), Desc: sb.Description(), Jobs: r.RunningJobs()}
	if s.sendCheckpoint(ready, r.Status()) != nil {
		return ExitInternal
	}

	var mu sync.Mutex
	var cancel context.CancelCauseFunc
	var intr bool
	var killSig int
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		for sg := range sigs {
			mu.Lock()
			if cancel != nil {
				if sg == syscall.SIGINT {
					intr = true
				} else {
					killSig = int(sg.(syscall.Signal))
				}
				cancel(nil)
				tty.Interrupt()
			}
			mu.Unlock()
		}
	}()
	// guarded runs fn with a context that signals and the heap watchdog
	// cancel; a panic is reported as an internal error.
	guarded := func(ctx context.Context, errw io.Writer, fn func(context.Context) int) (status int, interrupted bool, sig int, panicked bool) {
		lctx, lcancel := context.WithCancelCause(ctx)
		mu.Lock()
		cancel, intr, killSig = lcancel, false, 0
		mu.Unlock()
		onLine(lcancel)
		defer func() {
			if v := recover(); v != nil {
				fmt.Fprintf(errw, "sandsh: %v (this is a bug in sandsh)\n", &interp.InternalError{Value: v})
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
		st, _, _, panicked := guarded(s.ctx, o.IO.Err, r.Finish)
		if panicked {
			return ExitInternal
		}
		return st
	}
	for {
		if !p.Interactive && !r.Active() {
			// Nothing runs until the next request: the heap cannot
			// grow, and an idle worker (a pooled one, a session
			// between calls) should cost no wake-ups.
			wd.Pause()
		}
		req, data, err := readRequest(br, requestMax(o))
		wd.Resume()
		if err != nil {
			if err == io.EOF {
				return finish() // the parent is gone, or closed the session
			}
			fmt.Fprintf(o.IO.Err, "sandsh: internal error: session worker: %v\n", err)
			return ExitInternal
		}
		var rep reply
		var payload []byte
		var ck *checkpoint
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
			s.send(reply{Status: st, Exited: true, Dir: r.Dir()}, nil, nil)
			return st
		case "line":
			r.SetStatus(req.Status)
			r.SetHistory(req.History, req.HistBase)
			f, perr := ParseLine(req.Src)
			if perr == nil {
				// Again with the session's aliases and extglob.
				f, perr = r.ParseLine(req.Src)
			}
			if perr != nil {
				fmt.Fprintf(o.IO.Err, "sandsh: %v\n", perr)
				rep.Status = ExitSyntax
				break
			}
			status, interrupted, sig, panicked := guarded(s.ctx, o.IO.Err, func(c context.Context) int {
				if h.Line != nil {
					h.Line(req.Src)
				}
				return r.RunLine(c, f.Stmts)
			})
			switch {
			case panicked:
				s.send(reply{Status: ExitInternal, Exited: true}, nil, nil)
				return ExitInternal
			case sig != 0:
				finish()
				s.send(reply{Status: 128 + sig, Exited: true, KillSig: sig}, nil, nil)
				return 128 + sig
			case r.Exited():
				st := finish()
				s.send(reply{Status: st, Exited: true}, nil, nil)
				return st
			case interrupted:
				status = StatusInterrupted
				rep.Interrupted = true
			}
			r.Reset()
			rep.Status = status
			r.SetStatus(status)
			ck, rep.Checkpoint = s.checkpoint(status), true
		case "script":
			var panicked bool
			rep, panicked = s.script(req, data, h, guarded)
			if panicked {
				s.send(reply{Status: ExitInternal, Exited: true}, nil, nil)
				return ExitInternal
			}
			ck, rep.Checkpoint = s.checkpoint(r.Status()), true
		case "read":
			payload, err = readFile(s.r.FS(), s.r.Dir(), req.Path, req.MaxBytes, s.lim.MaxFileSize)
			rep.Err = errString(err)
		case "write":
			err = writeFile(s.r.FS(), s.r.Dir(), req.Path, data, fs.FileMode(req.Mode)&fs.ModePerm)
			rep.Err = errString(err)
			ck, rep.Checkpoint = s.checkpoint(r.Status()), true
		case "mkdir":
			err = mkdirAll(s.r.FS(), s.r.Dir(), req.Path, fs.FileMode(req.Mode)&fs.ModePerm)
			rep.Err = errString(err)
			ck, rep.Checkpoint = s.checkpoint(r.Status()), true
		case "list":
			rep.Entries, err = readDir(s.r.FS(), s.r.Dir(), req.Path)
			rep.Err = errString(err)
		default:
			fmt.Fprintf(o.IO.Err, "sandsh: internal error: session worker: unknown request %q\n", req.Op)
			return ExitInternal
		}
		rep.Dir = r.Dir()
		rep.Jobs = r.RunningJobs()
		if err := s.send(rep, payload, ck); err != nil {
			return finish()
		}
		n := len(payload) + len(data)
		if ck != nil && ck.Delta != nil {
			n += int(ck.Delta.Bytes())
		}
		releaseBig(n)
	}
}

// script runs one call of a script session.
func (s *served) script(req *request, stdin []byte, h *Hooks, guarded func(context.Context, io.Writer, func(context.Context) int) (int, bool, int, bool)) (reply, bool) {
	var rep reply
	stdout, stderr := s.o.IO.Out, s.o.IO.Err
	if req.Capture {
		stdout, stderr = s.out.stream(frameStdout), s.out.stream(frameStderr)
	}
	ctx := s.ctx
	if req.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, req.Timeout)
		defer cancel()
	}
	if !enterCwd(ctx, s.sb, req.Cwd, stderr) {
		rep.Status = 1
		return rep, false
	}
	var before vfs.Manifest
	if req.Changes && s.mem == nil {
		// A disk sandbox tracks no changes: compare the trees (what
		// --changes does on --fs disk --root).
		var err error
		if before, err = vfs.TakeManifest(ctx, s.sb.FS(), "/", manifestMax(s.lim.MaxFiles)); err != nil {
			fmt.Fprintf(stderr, "sandsh: changes: %v\n", err)
		}
	}
	name := req.Name
	if name == "" {
		name = "sandsh"
	}
	var res *sandbox.Result
	var runErr error
	_, _, _, panicked := guarded(ctx, stderr, func(c context.Context) int {
		if h.Line != nil {
			h.Line(req.Src)
		}
		res, runErr = s.sb.Run(c, sandbox.Script{Source: req.Src, Name: name, Args: append([]string{name}, req.Args...),
			Command: true, Stdin: bytes.NewReader(stdin), Stdout: stdout, Stderr: stderr})
		return 0
	})
	if panicked {
		return rep, true
	}
	if runErr != nil || res == nil {
		rep.Status = finalStatus(stderr, 0, &interp.InternalError{Value: fmt.Sprint(runErr)})
		return rep, false
	}
	rep.Status = finalStatus(stderr, res.Status, res.Err)
	rep.Limit, rep.Duration, rep.Finished = res.Limit, res.Duration, res.Err == nil
	s.r.SetStatus(rep.Status)
	rep.Vars = varsOf(s.sb, req.Vars)
	if before != nil {
		if after, err := vfs.TakeManifest(context.Background(), s.sb.FS(), "/", manifestMax(s.lim.MaxFiles)); err == nil {
			rep.Changes, rep.HasChanges = vfs.Diff(before, after), true
		}
	}
	return rep, false
}

// enterCwd starts a call in cwd (when set), as `cd cwd` would; false
// (with the message on stderr) when it cannot.
func enterCwd(ctx context.Context, sb *sandbox.Sandbox, cwd string, stderr io.Writer) bool {
	if cwd == "" {
		return true
	}
	dir := vfs.Clean(sb.Dir(), cwd)
	if fi, err := sb.FS().Stat(dir); err != nil || !fi.IsDir() {
		fmt.Fprintf(stderr, "sandsh: cd: %s: No such file or directory\n", cwd)
		return false
	}
	res, err := sb.Run(ctx, sandbox.Script{Source: "cd -- " + shellQuote(dir), Stdout: io.Discard, Stderr: stderr})
	return err == nil && res.Status == 0
}

// varsOf reads the variables a call asked for; nil when none.
func varsOf(sb *sandbox.Sandbox, names []string) map[string]any {
	if len(names) == 0 {
		return nil
	}
	vars := make(map[string]any, len(names))
	for _, n := range names {
		vars[n], _ = sb.Var(n)
	}
	return vars
}

// shellQuote quotes s for the shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func manifestMax(maxFiles int) int {
	if maxFiles > 0 {
		return 4*maxFiles + 100000
	}
	return 0
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// checkpoint takes what changed in the session since the last
// checkpoint: the shell state (when it changed) and the files changed
// (a vfs.Delta), or the usage counters of a disk. nil when it cannot be
// taken: the next one then holds these changes too.
func (s *served) checkpoint(status int) *checkpoint {
	c := &checkpoint{Status: status}
	sh := s.r.ExportState()
	var shBuf bytes.Buffer
	if gob.NewEncoder(&shBuf).Encode(sh) != nil {
		return nil
	}
	if sum := maphash.Bytes(s.seed, shBuf.Bytes()); sum != s.lastSh {
		c.Shell, s.lastSh = sh, sum
	}
	if s.mem != nil {
		d, err := vfs.ChangesSince(s.ctx, s.mem, s.mark, vfs.SnapLimits{})
		if err != nil {
			return nil
		}
		mk := s.mem.Mark()
		s.mem.Forget(s.mark)
		s.mark = mk
		if !d.Empty() {
			c.Delta = d
		}
	} else if u, ok := s.sb.FS().(interface{ Usage() (int64, int) }); ok {
		c.DiskBytes, c.DiskFiles = u.Usage()
	}
	return c
}

// restore starts the session from the parent's checkpoint: the files
// changed since the session began, then the shell.
func (s *served) restore(data []byte) error {
	c, err := decodeCheckpoint(data)
	if err != nil {
		return err
	}
	if c.Delta != nil && s.mem != nil {
		if err := vfs.ApplyDelta(s.ctx, s.mem, c.Delta, s.lim); err != nil {
			return fmt.Errorf("files: %w", err)
		}
	}
	vfs.SetUsage(s.sb.FS(), c.DiskBytes, c.DiskFiles)
	if c.Shell != nil {
		if err := s.r.ImportState(c.Shell); err != nil {
			return fmt.Errorf("shell: %w", err)
		}
	}
	s.r.SetStatus(c.Status)
	if s.mem != nil {
		// What was restored is in the parent's copy already.
		mk := s.mem.Mark()
		s.mem.Forget(s.mark)
		s.mark = mk
	}
	return nil
}

// sendCheckpoint sends a reply with a checkpoint.
func (s *served) sendCheckpoint(rep reply, status int) error {
	return s.send(rep, nil, s.checkpoint(status))
}

// send writes a reply and its payload to the parent: the bytes of a
// file read, or a checkpoint, encoded straight onto the pipe (a big one
// is never held twice in the worker, whose memory is limited).
func (s *served) send(rep reply, payload []byte, ck *checkpoint) error {
	rep.Checkpoint = rep.Checkpoint || ck != nil
	b, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	return s.out.reply(b, payload, ck)
}

// requestMax bounds one request from the parent (a file written, the
// stdin of a call): the file size limit and some room.
func requestMax(o *Options) int64 {
	n, _ := ParseBytes(o.MaxFileSize)
	if n <= 0 || n > 1<<30 {
		n = 1 << 30
	}
	return n + 64<<20
}
