package interp

import (
	"context"
	"path"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/sandsh/sandsh/builtins"
)

// procEntry is one virtual process of the run that ps lists and kill,
// pkill signal: a shell (the top one or a nested bash/sh) or a background
// job. Subshells of pipelines and substitutions are not listed: they are
// short-lived, and bash runs a simple command there by exec anyway.
type procEntry struct {
	pid, ppid, pgid int
	start           time.Time
	job             *job // nil for a shell
	// sigs receives the signals other processes send it; nil when they
	// can only end it (a job that is not a subshell of the run).
	sigs *signalBox

	mu   sync.Mutex
	argv []string
}

func (p *procEntry) setArgv(argv []string) {
	p.mu.Lock()
	p.argv = argv
	p.mu.Unlock()
}

// procTable is the run's table of virtual processes, shared by every shell
// of the session.
type procTable struct {
	mu sync.Mutex
	m  map[int]*procEntry
}

func (t *procTable) add(p *procEntry) {
	t.mu.Lock()
	if t.m == nil {
		t.m = map[int]*procEntry{}
	}
	t.m[p.pid] = p
	t.mu.Unlock()
}

func (t *procTable) get(pid int) *procEntry {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.m[pid]
}

func (t *procTable) remove(pid int) {
	t.mu.Lock()
	delete(t.m, pid)
	t.mu.Unlock()
}

func (t *procTable) list() []*procEntry {
	t.mu.Lock()
	ps := make([]*procEntry, 0, len(t.m))
	for _, p := range t.m {
		ps = append(ps, p)
	}
	t.mu.Unlock()
	sort.Slice(ps, func(a, b int) bool { return ps[a].pid < ps[b].pid })
	return ps
}

// registerShell lists a shell in the process table; the returned func
// takes it out when the shell ends.
func (r *Runner) registerShell(argv []string) func() {
	r.sigs = newSignalBox()
	r.publishTraps()
	p := &procEntry{pid: r.pid, ppid: r.ppid, pgid: r.pgid, start: r.s.sys.Now(), argv: argv, sigs: r.sigs}
	r.s.procs.add(p)
	r.proc = p
	return func() { r.s.procs.remove(p.pid) }
}

// shellArgv is what ps shows for the top shell: bash and its script.
func (r *Runner) shellArgv() []string {
	argv := []string{"bash"}
	if r.scriptFile && r.mainSource != "" {
		argv = append(append(argv, r.mainSource), r.scriptArgs...)
	}
	return argv
}

// procArgv is what ps shows for this shell: a forked subshell shows its
// parent's command line.
func (r *Runner) procArgv() []string {
	if r.proc != nil {
		r.proc.mu.Lock()
		defer r.proc.mu.Unlock()
		return slices.Clone(r.proc.argv)
	}
	return r.shellArgv()
}

// signalGroup sends sig to every process of group pgid: the jobs in it
// and, when it is this shell's own group, the shell. It reports whether
// the group had any process.
func (r *Runner) signalGroup(ctx context.Context, pgid, sig int) bool {
	found := false
	for _, p := range r.s.procs.list() {
		if p.pgid != pgid || p.job == nil || p.job.finished() {
			continue
		}
		found = true
		p.signal(sig)
	}
	if pgid == r.pgid {
		found = true
		r.deliverSignal(ctx, sig)
	}
	return found
}

// processes is the process table as in-process commands see it.
type processes struct {
	r   *Runner
	ctx context.Context
}

func (ps processes) List() []builtins.Process {
	var out []builtins.Process
	for _, p := range ps.r.s.procs.list() {
		if p.job != nil && p.job.finished() {
			continue
		}
		p.mu.Lock()
		argv := slices.Clone(p.argv)
		p.mu.Unlock()
		out = append(out, builtins.Process{PID: p.pid, PPID: p.ppid, PGID: p.pgid, SID: ps.r.s.sid,
			Argv: argv, Comm: procComm(argv), Start: p.start})
	}
	return out
}

// Signal sends sig to one process of the run: a job, a shell, or the
// calling shell itself.
func (ps processes) Signal(pid, sig int) error { return ps.r.signalPID(ps.ctx, pid, sig) }

// procComm is a process's name: its program's base name, cut to the
// kernel's 15 bytes.
func procComm(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	c := path.Base(argv[0])
	if len(c) > 15 {
		c = c[:15]
	}
	return c
}
