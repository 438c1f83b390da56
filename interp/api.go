// Package interp is sandsh's shell runner: it executes bash scripts parsed
// by mvdan.cc/sh/v3/syntax, with bash 5.2 as the reference for behaviour.
//
// The runner is built for the sandbox first. It reaches the outside world
// only through two seams: every file operation goes to a vfs.FS, and every
// command that is not a function or shell builtin goes to a Gateway. Pipes,
// here-documents and process substitution live in memory, process ids are
// virtual, and every step, loop iteration, call and byte can be counted
// against Limits.
package interp

import (
	"context"
	"errors"
	"fmt"
	"github.com/sandsh/sandsh/interp/internal/expand"
	"io"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/vfs"
)

// Gateway runs every command that is not a shell function or builtin.
type Gateway interface {
	// Run runs args through the gateway and returns the exit status. It
	// reports a refused or missing command on env.Stderr itself.
	Run(ctx context.Context, env *builtins.Env, args []string) int
	// LookPath reports the program $PATH lookup runs for name (which).
	LookPath(env *builtins.Env, name string) (string, bool)
	// LookCommand reports what `type` and `command -v` show for name:
	// LookPath's answer, else a file on $PATH that is not executable.
	LookCommand(env *builtins.Env, name string) (string, bool)
	// LookPathAll lists every place $PATH lookup finds name (type -a).
	LookPathAll(env *builtins.Env, name string) []string
	// Restricted reports whether host programs are refused.
	Restricted() bool
}

// Option configures a Runner.
type Option func(*config) error

type config struct {
	fs         vfs.FS
	gw         Gateway
	stdin      io.Reader
	stdout     io.Writer
	stderr     io.Writer
	env        []string
	dir        string
	sys        *builtins.System
	limits     Limits
	params     []string
	arg0       string
	interact   bool
	inv        Invocation
	keepJobs   bool
	shellOpt   []string
	scriptFile bool
	cmdString  bool
	biCheck    BuiltinCheck
	scrCheck   ScriptCheck
}

// ScriptCheck decides whether parsed shell code may run at all (the
// caller's policy looks for dangerous shapes such as fork bombs). It sees
// every script, nested shell's script, and eval or source text before
// any of it runs; a refusal is printed as "sandsh: WHY" and the code
// fails with status 126.
type ScriptCheck func(f *syntax.File) (why string, ok bool)

// WithScriptCheck sets the ScriptCheck.
func WithScriptCheck(fn ScriptCheck) Option {
	return func(c *config) error { c.scrCheck = fn; return nil }
}

// BuiltinCheck decides whether a shell builtin may run (the caller's
// policy: interp knows no policy). A refusal returns the reason, printed
// as "sandsh: NAME: WHY", and the builtin fails with status 126. When it
// runs, a non-nil done gets its status.
type BuiltinCheck func(ctx context.Context, call BuiltinCall) (why string, ok bool, done func(status int))

// BuiltinCall is a shell builtin about to run: its words, how it was
// reached ("name", or through "command", "builtin" or "exec") and the
// commands the shell runs inside (see builtins.Env.Via).
type BuiltinCall struct {
	Args  []string
	Route string
	Via   []string
	// Script and Line say where the call is (see builtins.Env).
	Script string
	Line   int
}

// WithBuiltinCheck makes every shell builtin pass fn before it runs, by
// name or through `builtin` and `command`.
func WithBuiltinCheck(fn BuiltinCheck) Option {
	return func(c *config) error { c.biCheck = fn; return nil }
}

// WithFS sets the filesystem every file operation goes to.
func WithFS(fsys vfs.FS) Option { return func(c *config) error { c.fs = fsys; return nil } }

// WithGateway sets where external commands go.
func WithGateway(gw Gateway) Option { return func(c *config) error { c.gw = gw; return nil } }

// WithStdio sets the standard streams. A nil reader reads nothing; nil
// writers discard.
func WithStdio(in io.Reader, out, err io.Writer) Option {
	return func(c *config) error { c.stdin, c.stdout, c.stderr = in, out, err; return nil }
}

// WithEnv sets the initial environment as NAME=VALUE pairs; all of them
// are exported.
func WithEnv(pairs []string) Option {
	return func(c *config) error { c.env = append([]string(nil), pairs...); return nil }
}

// WithDir sets the starting directory (an absolute sandbox path).
func WithDir(dir string) Option {
	return func(c *config) error {
		if !strings.HasPrefix(dir, "/") {
			return fmt.Errorf("directory %q is not absolute", dir)
		}
		c.dir = dir
		return nil
	}
}

// WithSystem sets the virtual identity (user, host name, clock).
func WithSystem(sys *builtins.System) Option {
	return func(c *config) error { c.sys = sys; return nil }
}

// WithLimits sets the resource limits.
func WithLimits(l Limits) Option { return func(c *config) error { c.limits = l; return nil } }

// WithParams sets $0 and the positional parameters.
func WithParams(arg0 string, args ...string) Option {
	return func(c *config) error { c.arg0, c.params = arg0, args; return nil }
}

// Interactive makes errors abort only the current command line instead
// of the shell, as in bash's interactive mode.
func Interactive(on bool) Option { return func(c *config) error { c.interact = on; return nil } }

// KeepJobs lets background jobs outlive the run that started them, as
// a live session's calls need: a job runs on until it ends, is killed
// (`kill %1`), runs for Limits.Timeout from its start, or a limit of
// the session's runs is hit (then every kept job stops with the run),
// or the shell ends (Finish stops them). Later runs see it with `jobs`
// and can `wait` for it; a run does not wait for them at its end.
func KeepJobs(on bool) Option { return func(c *config) error { c.keepJobs = on; return nil } }

// ScriptFile marks the run as a script file (as opposed to -c or stdin),
// which bash shows in ${FUNCNAME[@]} as "main".
func ScriptFile(on bool) Option { return func(c *config) error { c.scriptFile = on; return nil } }

// CommandString marks the run as -c text, which changes a few statuses
// as in bash (an unset variable under set -u ends it with 127) and $-.
func CommandString(on bool) Option { return func(c *config) error { c.cmdString = on; return nil } }

// WithShellOptions turns on `set -o` options (e.g. "errexit", "xtrace").
func WithShellOptions(names ...string) Option {
	return func(c *config) error { c.shellOpt = append(c.shellOpt, names...); return nil }
}

// session is the state a runner shares with all its subshells, nested
// shells and jobs: the sandbox, the limits and their counters.
type session struct {
	// history is the interactive history the history builtin lists
	// (SetHistory): the REPL's, so that `history | grep x` and
	// $(history) see what the prompt saw. histBase numbers the first.
	histMu   sync.Mutex
	history  []string
	histBase int

	fs       vfs.FS
	gw       Gateway
	sys      *builtins.System
	limits   Limits
	start    time.Time
	cancel   context.CancelCauseFunc
	commands atomic.Int64
	outBytes atomic.Int64
	live     atomic.Int64 // goroutines alive for jobs, pipeline stages, substitutions
	// With keepJobs, the goroutines of kept jobs (and everything they
	// run) count here instead, so that a run's end does not wait for
	// them; bgCtx is their parent, cancelled by a limit (fail) and
	// renewed by the next run (NextRun), under fatalMu.
	keepJobs bool
	bgLive   atomic.Int64
	bgCtx    context.Context
	bgCancel context.CancelCauseFunc
	nextPID  atomic.Int64
	fatalMu  sync.Mutex
	fatal    error
	// hasFatal mirrors fatal != nil so the check after every expansion
	// is one atomic load, not a lock.
	hasFatal atomic.Bool

	// jobCtx outlives single interactive lines: background jobs started
	// in the REPL keep running until the session ends.
	jobCtx    context.Context
	jobCancel context.CancelFunc

	randMu sync.Mutex
	rand   *rand.Rand

	rxMu    sync.Mutex
	rxCache map[string]*regexp.Regexp

	arith expand.ArithCache

	biCheck  BuiltinCheck
	scrCheck ScriptCheck

	// procs lists the run's shells and jobs (ps, kill -- -PGID); sid is
	// the session id they all share, the top shell's pid.
	procs procTable
	sid   int
}

// fail records the first fatal error (a limit) and stops every goroutine
// of the run.
func (s *session) fail(err error) {
	s.fatalMu.Lock()
	if s.fatal == nil {
		s.fatal = err
		s.hasFatal.Store(true)
		if s.cancel != nil {
			s.cancel(err)
		}
		if s.bgCancel != nil {
			// A limit of the session's runs holds for its kept jobs too:
			// a runaway job between runs is stopped by it.
			s.bgCancel(err)
		}
	}
	s.fatalMu.Unlock()
}

// jobParent is the context a kept job starts under.
func (s *session) jobParent() context.Context {
	s.fatalMu.Lock()
	defer s.fatalMu.Unlock()
	if s.bgCtx.Err() != nil {
		s.bgCtx, s.bgCancel = context.WithCancelCause(s.jobCtx)
	}
	return s.bgCtx
}

// goroutines is how many goroutines of the shell are alive.
func (s *session) goroutines() int64 { return s.live.Load() + s.bgLive.Load() }

func (s *session) fatalErr() error {
	if !s.hasFatal.Load() {
		return nil
	}
	s.fatalMu.Lock()
	defer s.fatalMu.Unlock()
	return s.fatal
}

func (s *session) newPID() int { return int(s.nextPID.Add(1)) }

// New makes a runner ready to run scripts.
func New(opts ...Option) (*Runner, error) {
	c := config{limits: DefaultLimits()}
	for _, o := range opts {
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	if c.fs == nil {
		c.fs = vfs.NewMem()
	}
	if c.gw == nil {
		return nil, errors.New("interp: no gateway configured")
	}
	if c.sys == nil {
		c.sys = builtins.DefaultSystem()
	}
	if c.dir == "" {
		c.dir = "/"
	}
	if c.arg0 == "" {
		c.arg0 = "sandsh"
	}
	s := &session{fs: c.fs, gw: c.gw, sys: c.sys, limits: c.limits, start: c.sys.Now(),
		rand: rand.New(rand.NewPCG(uint64(c.sys.Now().UnixNano()), 0x5a5d5))}
	s.biCheck, s.scrCheck = c.biCheck, c.scrCheck
	s.nextPID.Store(4200)
	s.jobCtx, s.jobCancel = context.WithCancel(context.Background())
	s.keepJobs = c.keepJobs
	s.bgCtx, s.bgCancel = context.WithCancelCause(s.jobCtx)
	r := newRunner(s)
	r.interactive, r.prompt = c.interact, c.interact
	r.startAs(c.inv)
	r.scriptFile = c.scriptFile
	r.cmdString = c.cmdString
	r.dir = c.dir
	r.arg0 = c.arg0
	r.params = c.params
	r.pid = s.newPID()
	r.shellPID = r.pid
	r.ppid = 4199
	r.pgid, s.sid = r.pid, r.pid
	r.registerShell([]string{"bash"})
	r.fds = newFDTable(c.stdin, c.stdout, c.stderr, &s.outBytes, s.limits.MaxOutput, s)
	r.initVars(c.env)
	for _, name := range c.shellOpt {
		if !r.setOptByName(name, true) {
			return nil, fmt.Errorf("interp: unknown shell option %q", name)
		}
	}
	if err := r.applyShopts(c.inv.Shopts); err != nil {
		return nil, fmt.Errorf("interp: %w", err)
	}
	return r, nil
}

// Run runs a whole parsed file and returns its exit status. The error is
// non-nil only for a fatal condition: a limit, a cancelled context or an
// internal error.
func (r *Runner) Run(ctx context.Context, file *syntax.File) (int, error) {
	ctx, stop := r.bind(ctx)
	defer stop()
	r.stmts(ctx, file.Stmts)
	return r.finish(ctx)
}

// RunReader parses and runs a script statement by statement, like bash:
// statements before a syntax error run, and the error then ends the run
// with status 2.
func (r *Runner) RunReader(ctx context.Context, src io.Reader, name string) (int, error) {
	ctx, stop := r.bind(ctx)
	defer stop()
	r.source = name
	r.mainSource, r.scriptArgs = name, r.params
	if r.proc != nil && r.pid == r.shellPID {
		r.proc.setArgv(r.shellArgv())
	}
	err := r.parseAndRun(ctx, src, name)
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			r.exitCode, r.exiting = 2, true
		}
	}
	status, ferr := r.finish(ctx)
	if ferr == nil && err != nil && !isSyntax(err) {
		ferr = err
	}
	return status, ferr
}

// Reset clears a pending exit so an interactive session can go on after
// an error that would end a script.
func (r *Runner) Reset() {
	r.exiting, r.breakN, r.contN, r.returning, r.abortLine = false, 0, 0, false, false
}

// Abort ends the run with err (reported by Run as its error), stopping
// every goroutine of the run.
func (r *Runner) Abort(err error) { r.s.fail(err) }

// SetStatus sets $?, e.g. to 2 after a syntax error or 130 after Ctrl-C
// at an interactive prompt.
func (r *Runner) SetStatus(n int) { r.lastStatus = n & 0xff }

// Exited reports whether the shell ran `exit` (or failed fatally).
func (r *Runner) Exited() bool { return r.exiting }

// Status is the exit status of the last command.
func (r *Runner) Status() int { return r.lastStatus }

// Dir is the current directory.
func (r *Runner) Dir() string { return r.dir }

// bind ties ctx to the session so limits can cancel everything.
func (r *Runner) bind(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	r.s.cancel = cancel
	if d := r.s.limits.Timeout; d > 0 {
		var stopT context.CancelFunc
		ctx, stopT = context.WithTimeoutCause(ctx, d, &LimitError{Limit: "timeout", Value: d.String()})
		return ctx, func() { stopT(); cancel(nil) }
	}
	return ctx, func() { cancel(nil) }
}

// finish runs the EXIT trap and turns the run's end into a status.
func (r *Runner) finish(ctx context.Context) (int, error) {
	r.runExitTrap(ctx)
	r.drainJobs(ctx)
	r.fds.flush()
	status := r.lastStatus
	if r.exiting {
		status = r.exitCode
	}
	if err := r.s.fatalErr(); err != nil {
		return status, err
	}
	if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil {
		var le *LimitError
		if errors.As(cause, &le) {
			return status, le
		}
		return status, cause
	}
	return status & 0xff, nil
}

// jobGrace is how long background jobs (and their own jobs) may go on
// after the script ends. In bash they would live on as orphans writing to
// the same output; in the sandbox they get this long to finish, then they
// are stopped.
const jobGrace = time.Second

// drainJobs waits for every goroutine of the run to end, up to jobGrace.
func (r *Runner) drainJobs(ctx context.Context) {
	if r.s.live.Load() == 0 {
		return
	}
	deadline := time.NewTimer(jobGrace)
	defer deadline.Stop()
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for r.s.live.Load() > 0 {
		select {
		case <-deadline.C:
			return
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// SetHistory gives the history builtin the interactive history: entries
// oldest first, the first numbered base+1. The REPL sets it before each
// line, so the line itself is its last entry, as in bash.
func (r *Runner) SetHistory(entries []string, base int) {
	r.s.histMu.Lock()
	r.s.history, r.s.histBase = entries, base
	r.s.histMu.Unlock()
}

// RunLine runs one interactive line (already parsed statements).
func (r *Runner) RunLine(ctx context.Context, stmts []*syntax.Stmt) int {
	// Each interactive line gets the full budget of every limit.
	r.s.fatalMu.Lock()
	r.s.fatal = nil
	r.s.hasFatal.Store(false)
	r.s.fatalMu.Unlock()
	r.s.commands.Store(0)
	r.s.outBytes.Store(0)
	ctx, stop := r.bind(ctx)
	defer stop()
	r.stmts(ctx, stmts)
	r.fds.flush()
	if err := r.s.fatalErr(); err != nil {
		fmt.Fprintf(r.fds.writer(2), "sandsh: %v\n", err)
		r.exiting, r.lastStatus = false, 1
		if _, ok := err.(*LimitError); ok && err.(*LimitError).Limit == "timeout" {
			r.lastStatus = 124
		}
	} else if cause := context.Cause(ctx); ctx.Err() != nil && cause != nil {
		if le, ok := cause.(*LimitError); ok {
			fmt.Fprintf(r.fds.writer(2), "sandsh: %v\n", le)
			r.exiting, r.lastStatus = false, 124
		}
	}
	r.abortLine = false
	if r.exiting {
		return r.exitCode
	}
	return r.lastStatus
}

// Finish runs the EXIT trap at the end of an interactive session.
func (r *Runner) Finish(ctx context.Context) int {
	ctx, stop := r.bind(ctx)
	defer stop()
	st, _ := r.finish(ctx)
	r.s.jobCancel()
	return st
}

// Completions lists command names and functions starting with prefix, for
// the REPL's tab completion.
func (r *Runner) Completions(prefix string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(n string) {
		if strings.HasPrefix(n, prefix) && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for name := range r.funcs {
		add(name)
	}
	for _, name := range shellBuiltinNames() {
		add(name)
	}
	for name := range r.aliases {
		add(name)
	}
	return out
}

// CommandCompletions lists functions, builtins, aliases and in-process
// commands starting with prefix.
func (r *Runner) CommandCompletions(prefix string) []string {
	out := r.Completions(prefix)
	out = append(out, r.commandNames(prefix)...)
	slices.Sort(out)
	return slices.Compact(out)
}

// FS returns the runner's filesystem.
func (r *Runner) FS() vfs.FS { return r.s.fs }
