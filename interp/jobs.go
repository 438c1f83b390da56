package interp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// job is a background command: a goroutine with a virtual pid.
type job struct {
	id     int
	pid    int
	text   string
	done   chan struct{}
	status int
	cancel context.CancelFunc
	// signal is the virtual signal that ended it, if any.
	signal int
	// pgid is its process group: its own pid when the shell that started
	// it had job control (set -m), else that shell's group.
	pgid int
	// ignoreInt: without job control bash starts a background command
	// with SIGINT and SIGQUIT ignored.
	ignoreInt bool
}

// kill delivers a virtual signal to the job: the default action of most
// signals ends it; those ignored by default, or by a job started without
// job control (INT, QUIT), leave it running.
func (j *job) kill(sig int) {
	switch sig {
	case 0, 17, 18, 23, 28: // signal 0, SIGCHLD, SIGCONT, SIGURG, SIGWINCH
		return
	case 2, 3:
		if j.ignoreInt {
			return
		}
	}
	j.signal = sig
	j.cancel()
}

type jobTable struct {
	mu   sync.Mutex
	jobs []*job
}

func newJobTable() *jobTable { return &jobTable{} }

// copyForSubshell gives a subshell the parent's jobs to list (bash's
// `jobs | cat` shows them), in a table of its own.
func (t *jobTable) copyForSubshell() *jobTable {
	t.mu.Lock()
	defer t.mu.Unlock()
	return &jobTable{jobs: append([]*job(nil), t.jobs...)}
}

// add numbers a new job as bash does: one past the highest number in
// use, so numbering starts over at 1 once every job was reaped.
func (t *jobTable) add(j *job) {
	t.mu.Lock()
	j.id = 1
	for _, x := range t.jobs {
		j.id = max(j.id, x.id+1)
	}
	t.jobs = append(t.jobs, j)
	t.mu.Unlock()
}

func (t *jobTable) list() []*job {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]*job(nil), t.jobs...)
}

func (t *jobTable) remove(j *job) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, x := range t.jobs {
		if x == j {
			t.jobs = append(t.jobs[:i], t.jobs[i+1:]...)
			return
		}
	}
}

// find resolves a job spec: %N, %%, %+, %-, %string or a pid.
func (t *jobTable) find(spec string) *job {
	jobs := t.list()
	if len(jobs) == 0 {
		return nil
	}
	if strings.HasPrefix(spec, "%") {
		s := spec[1:]
		switch s {
		case "", "%", "+":
			return jobs[len(jobs)-1]
		case "-":
			if len(jobs) > 1 {
				return jobs[len(jobs)-2]
			}
			return jobs[0]
		}
		if n, err := strconv.Atoi(s); err == nil {
			for _, j := range jobs {
				if j.id == n {
					return j
				}
			}
			return nil
		}
		for _, j := range jobs {
			if strings.HasPrefix(j.text, strings.TrimPrefix(s, "?")) || strings.HasPrefix(s, "?") && strings.Contains(j.text, s[1:]) {
				return j
			}
		}
		return nil
	}
	pid, err := strconv.Atoi(spec)
	if err != nil {
		return nil
	}
	for _, j := range jobs {
		if j.pid == pid {
			return j
		}
	}
	return nil
}

// alive reports whether pid is this shell or one of its unfinished jobs
// (tail --pid follows until it is not).
func (r *Runner) alive(pid int) bool {
	if pid == r.shellPID || pid == r.pid {
		return true
	}
	j := r.jobs.find(strconv.Itoa(pid))
	return j != nil && !j.finished()
}

func (j *job) finished() bool {
	select {
	case <-j.done:
		return true
	default:
		return false
	}
}

// background starts `st &` as a job.
func (r *Runner) background(ctx context.Context, st *syntax.Stmt) {
	c := r.subshell()
	parent := ctx
	var jctx context.Context
	var cancel context.CancelFunc
	switch {
	case r.s.keepJobs:
		// A session's job outlives its call, bounded by the timeout
		// from its own start, and counted apart so the call's end does
		// not wait for it.
		parent = r.s.jobParent()
		if d := r.s.limits.Timeout; d > 0 {
			jctx, cancel = context.WithTimeoutCause(parent, d, &LimitError{Limit: "timeout", Value: d.String()})
		} else {
			jctx, cancel = context.WithCancel(parent)
		}
		c.live = &r.s.bgLive
	case r.prompt:
		// A job started at the prompt outlives its line.
		parent = r.s.jobCtx
		fallthrough
	default:
		jctx, cancel = context.WithCancel(parent)
	}
	j := &job{pid: c.pid, done: make(chan struct{}), cancel: cancel, text: r.printNode(st.Cmd),
		pgid: r.pgid, ignoreInt: !r.opts.monitor}
	if r.opts.monitor && r.pid == r.shellPID {
		// Job control is the shell's own: its subshells put what they
		// start in their own group.
		j.pgid = j.pid
	}
	c.pgid = j.pgid
	c.shellPID = r.shellPID
	c.ppid = r.pid
	// Forked, the job shows its shell's command line until it runs a
	// simple command, which bash execs in place.
	c.sigs = newSignalBox()
	c.publishTraps()
	p := &procEntry{pid: j.pid, ppid: r.pid, pgid: j.pgid, start: r.s.sys.Now(), job: j, argv: r.procArgv(), sigs: c.sigs}
	c.proc = p
	if !r.opts.monitor {
		// Without job control a background job reads from /dev/null.
		c.fds.set(0, newOpenFile(eofReader{}, nil, nil, "/dev/null"))
	}
	fg := *st
	fg.Background, fg.Coprocess = false, false
	// Like bash, a simple command run in the background fails without
	// the ERR trap (errtrace) or set -e: only what it runs sees them.
	_, c.asyncSimple = st.Cmd.(*syntax.CallExpr)
	c.execProc = c.asyncSimple
	if ce, ok := st.Cmd.(*syntax.CallExpr); ok && c.execProc {
		// Words with nothing to expand are known at once: ps run right
		// after `sleep 10 &` sees what bash's exec would show.
		if argv, lit := literalArgv(ce); lit && r.funcs[argv[0]] == nil && !slices.Contains(builtinNames, argv[0]) {
			p.setArgv(argv)
		}
	}
	r.jobs.add(j)
	r.s.procs.add(p)
	// The job's context is cancelled only by kill: when the job ends, its
	// own background children live on, like orphaned processes.
	if !c.goSafe(func() {
		defer close(j.done)
		defer r.s.procs.remove(j.pid)
		defer c.fds.closeAll()
		c.stmt(jctx, &fg)
		c.runExitTrap(jctx)
		j.status = c.exitStatus()
		var le *LimitError
		switch {
		case jctx.Err() != nil && parent.Err() == nil && j.signal != 0:
			j.status = 128 + j.signal
		case jctx.Err() != nil && parent.Err() == nil && errors.As(context.Cause(jctx), &le):
			j.status = 124 // its own time ran out
		}
	}) {
		close(j.done)
		r.s.procs.remove(j.pid)
		cancel()
		c.fds.closeAll()
		j.status = 1
	}
	r.lastBgPID = j.pid
	r.lastStatus = 0
}

// waitJob waits for one job and returns its status, or 128+n and
// interrupted when a trapped signal n arrived first (the wait builtin;
// fg waits like for a foreground command, whose end takes the signal).
func (r *Runner) waitJob(ctx context.Context, j *job) (status int, interrupted bool) {
	return r.waitJobFor(ctx, j, r.sigWake())
}

func (r *Runner) waitJobFor(ctx context.Context, j *job, wake <-chan struct{}) (status int, interrupted bool) {
	for {
		select {
		case <-j.done:
			r.reap(j)
			return j.status, false
		case <-ctx.Done():
			return 130, false
		case <-wake:
			// A trapped signal ends the wait at once, as in bash: its
			// trap runs when wait returns 128+n.
			if sig := r.sigs.trappedPending(); sig != 0 {
				return 128 + sig, true
			}
		}
	}
}

// sigWake is what a `wait` selects on to return when a trapped signal
// arrives: nil (never ready) in a shell no one can signal.
func (r *Runner) sigWake() <-chan struct{} {
	if r.sigs == nil {
		return nil
	}
	return r.sigs.wake
}

// reap takes a finished job out of the table. With job control on, bash
// reports a job a signal ended, in the format of jobs.
func (r *Runner) reap(j *job) {
	if r.opts.monitor && j.signal != 0 && !r.interactive {
		mark := " "
		if jobs := r.jobsSorted(); len(jobs) > 0 && jobs[len(jobs)-1] == j {
			mark = "+"
		} else if len(jobs) > 1 && jobs[len(jobs)-2] == j {
			mark = "-"
		}
		fmt.Fprintf(r.fds.writer(2), "[%d]%s  %-24s%s\n", j.id, mark, signalDescription(j.signal), j.text)
	} else if !r.opts.monitor && j.signal != 0 && j.signal != 2 && j.signal != 13 && j.signal != 15 && !r.interactive {
		// Without job control bash reports a death by any other signal.
		r.errf("%d %-24s%s", j.pid, signalDescription(j.signal), j.text)
	}
	r.jobs.remove(j)
}

// signalDescription is bash's word for a signal that ended a job.
func signalDescription(sig int) string {
	if sig == 2 {
		return "Interrupt"
	}
	if d, ok := signalDescriptions[sig]; ok {
		return d
	}
	return "Signal " + strconv.Itoa(sig)
}

// runTrap runs a trap's command text.
func (r *Runner) runTrap(ctx context.Context, sig, cmd string) {
	if !r.enterCall("trap") {
		return
	}
	defer func() { r.callDepth-- }()
	r.inTrap = append(r.inTrap, sig)
	defer func() { r.inTrap = r.inTrap[:len(r.inTrap)-1] }()
	// bash numbers the lines of an ERR, DEBUG or RETURN handler from the
	// line of the command that set it off; EXIT and signal handlers from 1.
	line := uint(1)
	switch sig {
	case "ERR", "DEBUG", "RETURN":
		line = max(r.line, 1)
	}
	f, err := r.parseAt(nil, cmd, "trap", line)
	if err != nil {
		r.errf("%v", err)
		return
	}
	status := r.lastStatus
	r.stmts(ctx, f.Stmts)
	if sig != "EXIT" && !r.exiting {
		r.lastStatus = status
	}
}

// trapRunning reports whether the handler of sig is running, at any depth.
func (r *Runner) trapRunning(sig string) bool {
	return slices.Contains(r.inTrap, sig)
}

// runReturnTrap runs the RETURN trap as a function or sourced file ends.
func (r *Runner) runReturnTrap(ctx context.Context) {
	if cmd, ok := r.traps["RETURN"]; ok && cmd != "" && !r.trapRunning("RETURN") {
		st := r.lastStatus
		r.runTrap(ctx, "RETURN", cmd)
		r.lastStatus = st
	}
}

// runExitTrap runs the EXIT trap once, when a shell ends.
func (r *Runner) runExitTrap(ctx context.Context) {
	cmd, ok := r.traps["EXIT"]
	if !ok || cmd == "" {
		return
	}
	delete(r.traps, "EXIT")
	status := r.lastStatus
	if r.exiting {
		status = r.exitCode
	}
	wasExiting := r.exiting
	r.exiting, r.breakN, r.contN, r.returning = false, 0, 0, false
	r.lastStatus = status
	// The EXIT trap still runs when the run was cancelled by a limit, but
	// with a fresh context so it can print; it stays bounded by the
	// limits on commands and output.
	tctx := ctx
	if ctx.Err() != nil {
		tctx = context.WithoutCancel(ctx)
	}
	r.runTrap(tctx, "EXIT", cmd)
	if !r.exiting {
		r.exiting, r.exitCode = wasExiting, status
		if !wasExiting {
			r.lastStatus = status
		}
	}
}

// deliverSignal acts on a virtual signal sent to this shell by kill:
// run its trap, or terminate like the default action.
func (r *Runner) deliverSignal(ctx context.Context, sig int) {
	name := signalName(sig)
	if cmd, ok := r.traps[name]; ok {
		if cmd != "" {
			r.runTrap(ctx, name, cmd)
		}
		return
	}
	switch sig {
	case 0, 17, 18, 20, 23, 28: // signal 0, SIGCHLD, SIGCONT, SIGTSTP, SIGURG, SIGWINCH
		return
	}
	r.exiting, r.exitCode = true, 128+sig
	r.killedBy = sig
}

// signalDescriptions are what bash prints when a foreground child dies
// of a signal.
var signalDescriptions = map[int]string{1: "Hangup", 3: "Quit", 6: "Aborted", 9: "Killed", 10: "User defined signal 1",
	12: "User defined signal 2", 14: "Alarm clock", 15: "Terminated"}

// reportKilled prints bash's notice for a subshell ended by a signal.
func (r *Runner) reportKilled(c *Runner) {
	if d, ok := signalDescriptions[c.killedBy]; ok {
		fmt.Fprintln(r.fds.writer(2), d)
	}
}

var signalNames = []string{"EXIT", "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1",
	"SEGV", "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU",
	"URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS"}

func signalName(n int) string {
	if n >= 0 && n < len(signalNames) {
		return signalNames[n]
	}
	return strconv.Itoa(n)
}

// signalNumber parses "TERM", "SIGTERM", "15", "term".
func signalNumber(s string) (int, bool) {
	if n, err := strconv.Atoi(s); err == nil {
		if n >= 0 && n < 65 {
			return n, true
		}
		return 0, false
	}
	s = strings.TrimPrefix(strings.ToUpper(s), "SIG")
	switch s {
	case "ERR", "DEBUG", "RETURN":
		return -1, true
	}
	for i, name := range signalNames {
		if name == s {
			return i, true
		}
	}
	return 0, false
}

func (r *Runner) jobsSorted() []*job {
	js := r.jobs.list()
	sort.Slice(js, func(a, b int) bool { return js[a].id < js[b].id })
	return js
}

func (j *job) stateString() string {
	if j.finished() {
		if j.status == 0 {
			return "Done"
		}
		return fmt.Sprintf("Exit %d", j.status)
	}
	return "Running"
}

// RunningJobs is the number of background jobs still running: what an
// interactive session would lose if its process had to be replaced.
func (r *Runner) RunningJobs() int {
	n := 0
	for _, j := range r.jobs.list() {
		if !j.finished() {
			n++
		}
	}
	return n
}

// Active reports whether any goroutine of the shell still runs: a
// background job, one of its own jobs, a pipeline stage or substitution
// past its run. A session's worker with none is idle between calls.
func (r *Runner) Active() bool { return r.s.goroutines() > 0 }

// literalArgv returns a command's words when none needs expanding.
func literalArgv(ce *syntax.CallExpr) ([]string, bool) {
	if len(ce.Assigns) > 0 || len(ce.Args) == 0 {
		return nil, false
	}
	argv := make([]string, len(ce.Args))
	for i, w := range ce.Args {
		if len(w.Parts) != 1 {
			return nil, false
		}
		switch p := w.Parts[0].(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[]{}~\\") {
				return nil, false
			}
			argv[i] = p.Value
		case *syntax.SglQuoted:
			if p.Dollar {
				return nil, false
			}
			argv[i] = p.Value
		default:
			return nil, false
		}
	}
	return argv, true
}
