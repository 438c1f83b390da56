// Package sandbox runs untrusted bash scripts in a sandsh sandbox from Go:
// the same sandbox the sandsh command builds (it is the CLI's own core),
// with real bash semantics and no side effects on the host.
//
// A Sandbox is a shell session: a filesystem (in memory by default), a
// restricted gateway that runs sandsh's in-process commands and never a
// host program, limits, and the shell state that persists from one Run
// to the next (variables, functions, aliases, options, the working
// directory, traps and the files).
//
//	sb, err := sandbox.New(sandbox.Config{})
//	if err != nil { ... }
//	defer sb.Close()
//	res, err := sb.Run(ctx, sandbox.Script{Source: "echo hi > f; wc -c f"})
//	fmt.Printf("%s", res.Stdout) // "3 f\n"
//
// Input and output are injected (Script.Stdin, Script.Stdout,
// Script.Stderr; with nil writers the output is captured into the
// Result), nothing is global, and cancelling the context ends a run.
// Many sandboxes in one process are independent and safe for concurrent
// use; one Sandbox runs one script at a time (its methods wait for each
// other).
//
// # Containment
//
// An embedded Run has the walls that live inside the runner: every
// command goes through the restricted gateway (no host process, ever,
// except on an unrestricted "disk" sandbox), every file operation through
// the sandbox filesystem (no host file outside Config.Base or Config.Root), a clean
// environment, and every limit of Limits but MaxMemory: time, commands,
// loop iterations, call depth, jobs, output, variable and capture sizes,
// fields and the filesystem's size. It does not have the walls of the
// sandsh worker process, which only a separate process can give: the
// Landlock and seccomp filters, the rlimits, the supervisor that enforces
// MaxMemory from outside and survives a Go stack overflow or an
// allocation of gigabytes in one expansion step. Such a script can crash
// the embedding process. For full containment use package worker: call
// worker.Init first in main, and run scripts in a worker.Session, which
// is this same sandbox in a confined, supervised worker process (the
// sandsh command's walls), live across calls.
package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/policy"
	"github.com/sandsh/sandsh/restrict"
	"github.com/sandsh/sandsh/statefile"
	"github.com/sandsh/sandsh/vfs"
)

// Exit statuses a Run returns when the script could not run to its end
// (the script's own status passes through otherwise); the same as the
// sandsh command's.
const (
	ExitSyntax   = 2   // syntax error in the script
	ExitInternal = 70  // a bug in sandsh (a recovered panic)
	ExitAudit    = 74  // the audit log failed (a write error, a lost event): the run was stopped
	ExitTimeout  = 124 // the Timeout limit
	ExitLimit    = 125 // any other limit
	ExitDenied   = 126 // a refusal under a policy's on_deny: exit
)

// Limits bound one run; zero means no limit for every field. The
// interpreter's limits apply to each Run separately, the filesystem
// limits to the sandbox's whole life.
type Limits struct {
	interp.Limits
	MaxFSBytes  int64 // bytes held by the in-memory filesystem
	MaxFiles    int   // files, directories and symlinks in it
	MaxFileSize int64 // one file
	// MaxMemory is enforced only by the sandsh worker process (see
	// Containment); an embedded Run ignores it.
	MaxMemory int64
}

// DefaultLimits are the sandsh command's defaults.
func DefaultLimits() Limits {
	return Limits{Limits: interp.DefaultLimits(), MaxFSBytes: 512 << 20, MaxFiles: 100000,
		MaxFileSize: 256 << 20, MaxMemory: 1 << 30}
}

// Config says how to build a sandbox. The zero value is the sandsh
// command's default: a fresh in-memory filesystem, restricted, working
// directory /workspace, the default limits.
type Config struct {
	// FS is "mem" (default), "overlay" (Base shows through read-only at
	// the working directory; every change stays in memory) or "disk"
	// (the host disk, confined to Root when it is set).
	FS   string
	Base string
	Root string
	// Import, on a memory filesystem, is a host directory shown at the
	// working directory as an overlay would show Base (vfs.NewImport):
	// never written, each directory listed and each file read when the
	// script first uses it, copied into memory when first written;
	// sockets, FIFOs and devices are left out; the entries belong to
	// the sandbox user, without setuid and setgid bits. The caller runs
	// vfs.CheckHostTree first (sandsh --import does). ImportSkip lists
	// paths relative to Import that are left out (sandsh's own export
	// targets inside it). ImportAt is where Import is shown (an
	// absolute sandbox path; default the working directory), so a run
	// can start elsewhere in it, or see it at its host path.
	Import     string
	ImportSkip []string
	ImportAt   string
	// Cwd is the starting directory inside the sandbox (default
	// /workspace; "/" with Root). An unconfined disk sandbox needs an
	// absolute host path here.
	Cwd string
	// Restricted turns on restricted mode for an unconfined disk sandbox;
	// every other sandbox is always restricted.
	Restricted bool
	// Home is $HOME for an unconfined disk sandbox (default /home/sandbox).
	// NoHome leaves HOME unset there instead, as bash does when its
	// environment has none (the host's has none).
	Home   string
	NoHome bool
	// Hostname is $HOSTNAME for an unrestricted disk sandbox, whose host
	// programs (hostname, uname -n) see the host's name; every other
	// sandbox is host "sandbox".
	Hostname string
	// Invocation is bash's own command line (-i, -l, -O/+O, --rcfile):
	// see interp.Invocation.
	Invocation interp.Invocation
	// Env adds NAME=VALUE pairs to the clean environment (HOME HOSTNAME
	// LANG LOGNAME PATH PWD SHELL SHLVL TERM TMPDIR USER).
	Env []string
	// ShellOptions are `set -o` options turned on before the first run
	// (e.g. "errexit", "pipefail").
	ShellOptions []string
	// Clock, when not zero, is the time the sandbox's clock starts at
	// (then it runs at the real pace): reproducible dates and file times.
	Clock time.Time
	// Limits; the zero value means DefaultLimits. Set NoLimits to run
	// without any.
	Limits   Limits
	NoLimits bool
	// Interactive makes an error end only the current command line
	// rather than the run, as in bash's interactive mode (the REPL).
	Interactive bool
	// RunnerOptions are applied last when the shell is built (the sandsh
	// REPL passes interp.WithStdio here).
	RunnerOptions []interp.Option
	// Policy, when set, decides which commands may run: every command
	// line that reaches the gateway and every shell builtin a rule names
	// (see package policy). Nil runs everything, as without --policy.
	Policy *policy.Policy
	// Ask answers the policy's `ask` rules; nil refuses them (no one to
	// ask). AssumeYes allows them without asking (sandsh --yes).
	Ask       Asker
	AssumeYes bool
	// Audit, when set, receives the audit log's events from inside the
	// sandbox: every command that reaches the gateway (start with the
	// decision, exit with status and duration), every denial, every
	// limit that ends a run (see README, "Audit log").
	Audit *Audit
	// Jail, when set, lets the host programs it allows run in an OS jail
	// (see package jail and README "Host programs in a jail"); the
	// sandbox's working tree is what they see. Memory and overlay
	// filesystems only.
	Jail *JailConfig
	// Net, when set, is how curl and wget reach the network (a
	// netgate.Gate, or the worker's broker to the parent's gate); nil
	// refuses every request.
	Net builtins.Net
	// State is a saved session (see Sandbox.State) to start from. It is
	// checked whole first: New fails and nothing is loaded if any of it
	// is damaged or over the limits.
	State *statefile.File
}

// JailConfig says which host programs run in a jail and who builds it.
type JailConfig struct {
	// Allowed decides whether a command line (argv[0] a bare name that
	// nothing in the sandbox answers) runs in the jail.
	Allowed func(argv []string) bool
	// Run builds the jail and runs the program: a *jail.Config's Run,
	// or restrict.JailClient in a confined worker.
	Run restrict.Jailer
	// Verbose prints each jailed run's backend and limits on stderr.
	Verbose bool
}

// ConfigError is a Config that cannot work (a bad FS name, a Cwd that is
// not a directory, a bad Env entry); the sandsh command reports it as a
// usage error.
type ConfigError struct{ Msg string }

func (e *ConfigError) Error() string { return e.Msg }

func configErr(format string, a ...any) error { return &ConfigError{fmt.Sprintf(format, a...)} }

// StateError is a Config.State that cannot be loaded (over the limits,
// inconsistent, or files for a disk sandbox); nothing of it was loaded.
type StateError struct{ Err error }

func (e *StateError) Error() string { return e.Err.Error() }
func (e *StateError) Unwrap() error { return e.Err }

// Sandbox is one sandbox session. Its methods may be called from any
// goroutine; they wait for each other.
type Sandbox struct {
	mu         sync.Mutex
	cfg        Config
	limits     Limits
	fs         vfs.FS
	view       vfs.FS // fs as the script sees it: the policy's paths, the audit log
	runner     *interp.Runner
	restricted bool
	desc       string
	closed     bool
	audit      *Audit
	// mark is the point, on an overlay, right after set-up: its state is
	// what changed since (vfs.ChangesSince), not the base.
	mark vfs.Mark
}

// New builds a sandbox.
func New(cfg Config) (*Sandbox, error) {
	lim := cfg.Limits
	switch {
	case cfg.NoLimits:
		lim = Limits{}
	case lim == Limits{}:
		lim = DefaultLimits()
	}
	if lim.Timeout < 0 || lim.MaxCommands < 0 || lim.MaxLoopIters < 0 || lim.MaxCallDepth < 0 || lim.MaxJobs < 0 ||
		lim.MaxFields < 0 || lim.MaxOutput < 0 || lim.MaxVarBytes < 0 || lim.MaxCapture < 0 || lim.MaxScript < 0 ||
		lim.MaxFSBytes < 0 || lim.MaxFiles < 0 || lim.MaxFileSize < 0 || lim.MaxMemory < 0 {
		return nil, configErr("limits must not be negative")
	}
	sys := builtins.DefaultSystem()
	if !cfg.Clock.IsZero() {
		t, start := cfg.Clock, time.Now()
		sys.Now = func() time.Time { return t.Add(time.Since(start)) }
	}
	memOpts := []vfs.MemOption{vfs.WithMaxBytes(lim.MaxFSBytes), vfs.WithMaxFiles(lim.MaxFiles),
		vfs.WithMaxFileSize(lim.MaxFileSize), vfs.WithClock(sys.Now)}
	restricted := true
	cwd := cfg.Cwd
	home := vfs.HomeDir
	var fsys vfs.FS
	var desc string
	switch cfg.FS {
	case "mem", "":
		if cfg.Base != "" || cfg.Root != "" {
			return nil, configErr("--base and --root need --fs overlay or --fs disk")
		}
		if cwd == "" {
			cwd = vfs.WorkDir
		}
		cwd = vfs.Clean("/", cwd)
		if cfg.Import != "" {
			mount := cwd
			if cfg.ImportAt != "" {
				mount = vfs.Clean("/", cfg.ImportAt)
			}
			im, err := vfs.NewImport(cfg.Import, mount, cfg.ImportSkip, memOpts...)
			if err != nil {
				return nil, fmt.Errorf("set up the memory filesystem: %w", err)
			}
			if err := vfs.Populate(im, cwd); err != nil {
				closeFS(im)
				return nil, fmt.Errorf("set up the memory filesystem: %w", err)
			}
			fsys, desc = im, "mem with "+cfg.Import+" imported (read when used)"
			break
		}
		m := vfs.NewMem(memOpts...)
		if err := vfs.Populate(m, cwd); err != nil {
			return nil, fmt.Errorf("set up the memory filesystem: %w", err)
		}
		fsys, desc = m, "mem"
	case "overlay":
		if cfg.Import != "" {
			return nil, configErr("Import needs the memory filesystem")
		}
		if cfg.Base == "" {
			return nil, configErr("--fs overlay needs --base DIR")
		}
		if cfg.Root != "" {
			return nil, configErr("--root goes with --fs disk")
		}
		if cwd == "" {
			cwd = vfs.WorkDir
		}
		cwd = vfs.Clean("/", cwd)
		ov, err := vfs.NewOverlay(cfg.Base, cwd, memOpts...)
		if err != nil {
			return nil, fmt.Errorf("set up the overlay filesystem: %w", err)
		}
		if err := vfs.Populate(ov, cwd); err != nil {
			closeFS(ov)
			return nil, fmt.Errorf("set up the overlay filesystem: %w", err)
		}
		fsys, desc = ov, "overlay of "+cfg.Base
	case "disk":
		if cfg.Base != "" {
			return nil, configErr("--base goes with --fs overlay")
		}
		if cfg.Import != "" {
			return nil, configErr("Import needs the memory filesystem")
		}
		restricted = cfg.Restricted
		if cfg.Root != "" {
			// Host programs cannot be confined to Root, so a confined
			// disk is always restricted.
			restricted = true
			if cwd == "" {
				cwd = "/"
			}
			cwd = vfs.Clean("/", cwd)
			home = cwd
		} else {
			if !filepath.IsAbs(cwd) {
				return nil, configErr("--fs disk without --root needs an absolute working directory")
			}
			cwd = filepath.Clean(cwd)
			switch {
			case cfg.NoHome:
				home = ""
			case cfg.Home != "":
				home = cfg.Home
			}
			if !restricted && cfg.Hostname != "" {
				sys.Hostname = cfg.Hostname
			}
		}
		d, err := vfs.NewDisk(cfg.Root)
		if err != nil {
			return nil, fmt.Errorf("set up the disk filesystem: %w", err)
		}
		if cfg.Root == "" && restricted {
			d = vfs.NewRestrictedDisk()
		}
		fsys, desc = d, "disk"
		if cfg.Root != "" {
			// Only what the run adds counts: the operator's files in Root
			// were there before and are not the script's doing.
			fsys = vfs.Limit(d, vfs.WithMaxBytes(lim.MaxFSBytes), vfs.WithMaxFiles(lim.MaxFiles), vfs.WithMaxFileSize(lim.MaxFileSize))
			desc = "disk confined to " + cfg.Root
		}
	default:
		return nil, configErr("--fs %q: want mem, overlay or disk", cfg.FS)
	}
	sb := &Sandbox{cfg: cfg, limits: lim, fs: fsys, restricted: restricted, audit: cfg.Audit}
	ok := false
	defer func() {
		if !ok {
			closeFS(fsys)
		}
	}()
	if cfg.State != nil {
		if cfg.FS != "overlay" {
			if err := sb.restoreFiles(cfg.State); err != nil {
				return nil, &StateError{err}
			}
		}
		if cfg.State.Shell != nil && cfg.State.Shell.Dir != "" {
			cwd = cfg.State.Shell.Dir
		}
	}
	env, err := environ(cfg.Env, home, sys.Hostname, cwd)
	if err != nil {
		return nil, err
	}
	var runner *interp.Runner
	// A crashing in-process command is a bug in sandsh: report it as an
	// internal error of the whole run rather than carry on.
	gwOpts := []restrict.Option{restrict.Restricted(restricted),
		restrict.OnPanic(func(cmd string, v any, stack []byte) {
			if runner != nil {
				runner.Abort(&interp.InternalError{Value: fmt.Sprintf("%s: %v", cmd, v), Stack: string(stack)})
			}
		})}
	var policyOpts []interp.Option
	var enf *enforcer
	if cfg.Policy != nil || cfg.Audit != nil {
		e := &enforcer{p: cfg.Policy, ask: cfg.Ask, yes: cfg.AssumeYes, audit: cfg.Audit, abort: func(err error) {
			if runner != nil {
				runner.Abort(err)
			}
		}}
		enf = e
		gwOpts = append(gwOpts, restrict.WithCheck(e.gateway))
		if cfg.Audit != nil {
			gwOpts = append(gwOpts, restrict.Observe(e.exited))
		}
		if cfg.Policy != nil {
			policyOpts = append(policyOpts, interp.WithBuiltinCheck(e.builtin), interp.WithScriptCheck(e.script))
		}
	}
	if cfg.Jail != nil && cfg.Jail.Allowed != nil {
		if cfg.FS == "disk" {
			return nil, configErr("--allow-run needs --fs mem or --fs overlay (the jail is shown a copy of the working tree)")
		}
		js := restrict.JailSetup{Allowed: cfg.Jail.Allowed, Run: cfg.Jail.Run, Work: cwd, Limits: sb.snapLimits(), Verbose: cfg.Jail.Verbose}
		if js.Run == nil {
			js.Run = func(context.Context, *restrict.JailRequest, *os.File, *os.File, *os.File) (*restrict.JailResult, error) {
				return nil, errors.New("no jail runner")
			}
		}
		if a := cfg.Audit; a != nil {
			js.Observe = func(ev restrict.JailEvent) {
				f := map[string]any{"name": ev.Argv[0], "argv": a.Argv(ev.Argv), "backend": ev.Backend, "status": ev.Status,
					"duration_ms": float64(ev.Duration.Microseconds()) / 1000, "changes": ev.Changes}
				if ev.Refused != "" {
					f["refused"] = ev.Refused
				}
				if len(ev.RefusedExecs) > 0 {
					var execs []map[string]any
					for _, x := range ev.RefusedExecs {
						execs = append(execs, map[string]any{"path": x.Path, "argv": a.Argv(x.Argv)})
					}
					f["refused_execs"] = execs
				}
				a.Emit("jail", f)
			}
		}
		gwOpts = append(gwOpts, restrict.WithJail(js))
	}
	switch {
	case cfg.Audit != nil:
		an := &auditedNet{net: cfg.Net, audit: cfg.Audit}
		if enf != nil {
			enf.net = an
		}
		gwOpts = append(gwOpts, restrict.WithNet(an))
	case cfg.Net != nil:
		gwOpts = append(gwOpts, restrict.WithNet(cfg.Net))
	}
	gw := restrict.New(builtins.NewRegistry(), gwOpts...)
	if cfg.FS == "mem" || cfg.FS == "" || cfg.FS == "overlay" {
		// The in-process commands appear as programs in /usr/bin (and
		// /bin, a symlink), where bash would find them.
		if err := vfs.InstallCommands(fsys, gw.ProgramNames()); err != nil {
			return nil, fmt.Errorf("set up the sandbox: %w", err)
		}
	}
	if cfg.FS == "overlay" {
		// Set up: from here on, what changes is the session's.
		sb.mark = fsys.(*vfs.MemFS).Mark()
		if cfg.State != nil {
			if err := sb.restoreFiles(cfg.State); err != nil {
				return nil, &StateError{err}
			}
		}
	}
	if fi, err := fsys.Stat(cwd); err != nil || !fi.IsDir() {
		return nil, configErr("--cwd %s: not a directory in the sandbox", cwd)
	}
	// With an audit log the script's changes to the files are reported
	// as they happen; the sandbox's own set-up above is not the script's.
	runnerFS := fsys
	if pol := cfg.Policy; pol != nil && (pol.Paths.Read != nil || pol.Paths.Write != nil) {
		if !restricted {
			// Host programs open host files directly: no vfs layer sees
			// them, so the lists could not hold.
			return nil, configErr("policy paths: need a sandbox filesystem (--fs mem, overlay, --root or -r), not the unrestricted host disk")
		}
		a := cfg.Audit
		runnerFS = vfs.RestrictPaths(fsys, vfs.PathRules{Read: pol.Paths.Read, Write: pol.Paths.Write,
			Denied: func(op, name, resolved, access string) {
				f := map[string]any{"op": op, "path": name, "access": access, "decision": "deny", "rule": "paths",
					"message": "Permission denied"}
				if resolved != strings.TrimSuffix(name, "/") && resolved != name {
					f["resolved"] = resolved
				}
				a.Emit("denied", f)
			}})
	}
	if cfg.Audit != nil {
		a := cfg.Audit
		runnerFS = vfs.Observe(runnerFS, func(ev vfs.FileEvent) {
			f := map[string]any{"op": ev.Op, "path": ev.Path}
			if ev.To != "" {
				f["to"] = ev.To // rename, link; a symlink's target
			}
			switch ev.Op {
			case "create", "write":
				f["size"] = ev.Size
			case "chmod":
				f["mode"] = fmt.Sprintf("%04o", uint32(ev.Mode.Perm()))
			case "chown":
				if ev.UID >= 0 {
					f["uid"] = ev.UID
				}
				if ev.GID >= 0 {
					f["gid"] = ev.GID
				}
			}
			if ev.Cmd != 0 {
				f["cmd_seq"] = ev.Cmd
			}
			a.Emit("file", f)
		})
	}
	runner, err = interp.New(append([]interp.Option{
		interp.WithFS(runnerFS),
		interp.WithGateway(gw),
		interp.WithEnv(env),
		interp.WithDir(cwd),
		interp.WithSystem(sys),
		interp.WithLimits(lim.Limits),
		interp.WithShellOptions(cfg.ShellOptions...),
		interp.Interactive(cfg.Interactive),
		interp.WithInvocation(cfg.Invocation),
	}, append(policyOpts, cfg.RunnerOptions...)...)...)
	if err != nil {
		return nil, &ConfigError{strings.TrimPrefix(err.Error(), "interp: ")}
	}
	if cfg.State != nil && cfg.State.Shell != nil {
		if err := runner.ImportState(cfg.State.Shell); err != nil {
			return nil, &StateError{err}
		}
		// The caller's environment wins over the saved one.
		for _, kv := range cfg.Env {
			name, val, _ := strings.Cut(kv, "=")
			if err := runner.SetEnv(name, val); err != nil {
				return nil, configErr("--env %s: %v", name, err)
			}
		}
	}
	mode := "restricted"
	if !restricted {
		mode = "unrestricted"
	}
	sb.runner = runner
	sb.view = runnerFS
	sb.desc = desc + ", " + mode + ", cwd " + cwd
	ok = true
	return sb, nil
}

func closeFS(fsys vfs.FS) {
	if c, ok := fsys.(io.Closer); ok {
		c.Close()
	}
}

func (s *Sandbox) snapLimits() vfs.SnapLimits {
	return vfs.SnapLimits{MaxBytes: s.limits.MaxFSBytes, MaxFiles: s.limits.MaxFiles, MaxFileSize: s.limits.MaxFileSize}
}

// restoreFiles loads the files of a saved session: the whole tree of a
// memory filesystem, or the changes saved over an overlay's base, once
// the base is seen to hold what it held when they were saved.
func (s *Sandbox) restoreFiles(st *statefile.File) error {
	if st.FS == nil && st.Delta == nil {
		return nil
	}
	if _, ok := s.fs.(*vfs.MemFS); !ok {
		return errors.New("a state with files needs --fs mem or --fs overlay")
	}
	ctx := context.Background()
	if st.Delta != nil {
		if s.mark == 0 {
			return errors.New("the state was saved on --fs overlay: it needs --fs overlay and the same --base")
		}
		if err := vfs.CheckBase(ctx, s.fs, st.Base); err != nil {
			return fmt.Errorf("state: %w", err)
		}
		if err := vfs.ApplyDelta(ctx, s.fs, st.Delta, s.snapLimits()); err != nil {
			return fmt.Errorf("state: %w", err)
		}
	}
	if st.FS != nil {
		if err := vfs.Restore(ctx, s.fs, st.FS, s.snapLimits()); err != nil {
			return fmt.Errorf("state: %w", err)
		}
	}
	return nil
}

// environ builds the starting environment: a clean, documented set plus
// extra. Nothing of the host leaks in.
func environ(extra []string, home, hostname, cwd string) ([]string, error) {
	env := map[string]string{
		"HOME":     home,
		"PATH":     "/usr/local/bin:/usr/bin:/bin",
		"PWD":      cwd,
		"USER":     vfs.DefaultUser,
		"LOGNAME":  vfs.DefaultUser,
		"HOSTNAME": hostname,
		"SHELL":    "/bin/bash",
		"LANG":     "C.UTF-8",
		"TERM":     "dumb",
		"TMPDIR":   vfs.TmpDir,
		"SHLVL":    "1",
	}
	order := []string{"HOME", "HOSTNAME", "LANG", "LOGNAME", "PATH", "PWD", "SHELL", "SHLVL", "TERM", "TMPDIR", "USER"}
	if home == "" {
		delete(env, "HOME") // Config.NoHome
	}
	for _, e := range extra {
		name, val, ok := strings.Cut(e, "=")
		if !ok || name == "" || strings.ContainsAny(name, " \t\n$") {
			return nil, configErr("--env %q: want NAME=VALUE", e)
		}
		if !slices.Contains(order, name) {
			order = append(order, name)
		}
		env[name] = val
	}
	out := make([]string, 0, len(order))
	for _, n := range order {
		if _, ok := env[n]; !ok {
			continue
		}
		out = append(out, n+"="+env[n])
	}
	return out, nil
}

// Description says what the sandbox is, e.g. "mem, restricted, cwd
// /workspace".
func (s *Sandbox) Description() string { return s.desc }

// Restricted reports whether host programs are refused.
func (s *Sandbox) Restricted() bool { return s.restricted }

// Script is one run.
type Script struct {
	// Source is the script text; Reader, when set, is read instead (at
	// most Limits.MaxScript+1 bytes).
	Source string
	Reader io.Reader
	// Name shows in error messages ("NAME: line 3: ...") and is $0 unless
	// Args says otherwise; default "sandsh".
	Name string
	// Args are $0 and the positional parameters: Args[0] is $0.
	Args []string
	// File marks the script as a script file (bash then lists "main" in
	// ${FUNCNAME[@]}), as opposed to -c text or stdin.
	File bool
	// Command marks the script as -c text: like bash, an unset variable
	// under set -u then ends it with 127 rather than 1.
	Command bool
	// Stdin is what the script reads (nothing when nil).
	Stdin io.Reader
	// Stdout and Stderr receive the output; when nil it is captured into
	// Result.Stdout and Result.Stderr.
	Stdout, Stderr io.Writer
}

// Result is how a run ended.
type Result struct {
	// Status is the exit status, like the sandsh command's: the script's
	// own, 2 for a syntax error, 124 when the timeout (or the context's
	// deadline) ended it, 125 for another limit, 130 when the context was
	// cancelled, 70 for an internal error.
	Status int
	// Limit is the limit that ended the run ("timeout", "max-commands",
	// "max-output", ... the flag names), or "".
	Limit string
	// Err is the error that ended the run early: an *interp.LimitError,
	// an *interp.InternalError or the context's error; nil when the
	// script ran to its end (whatever its status).
	Err      error
	Duration time.Duration
	// Stdout and Stderr hold the output when Script did not give writers.
	Stdout, Stderr []byte
}

// ErrClosed is returned by every method of a closed Sandbox.
var ErrClosed = errors.New("sandbox: closed")

// Run runs a script in the sandbox's session: what it leaves (variables,
// functions, files, the directory) is there for the next Run.
func (s *Sandbox) Run(ctx context.Context, sc Script) (*Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	res := &Result{}
	var outBuf, errBuf bytes.Buffer
	stdout, stderr := sc.Stdout, sc.Stderr
	if stdout == nil {
		stdout = &outBuf
	}
	if stderr == nil {
		stderr = &errBuf
	}
	name := sc.Name
	if name == "" {
		name = "sandsh"
	}
	arg0, params := name, []string(nil)
	if len(sc.Args) > 0 {
		arg0, params = sc.Args[0], sc.Args[1:]
	}
	src := sc.Reader
	if src == nil {
		src = strings.NewReader(sc.Source)
	}
	s.runner.NextRun(sc.Stdin, stdout, stderr, arg0, params)
	s.runner.SetScriptFile(sc.File)
	s.runner.SetCommandString(sc.Command)
	if err := s.audit.Err(); err != nil {
		// A log that failed in an earlier run takes no more commands.
		res.Status, res.Err = ExitAudit, err
		return res, nil
	}
	// A failing audit log stops the run: nothing runs unaudited.
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	defer s.audit.OnFail(stop)()
	start := time.Now()
	status, err := runProtected(ctx, s.runner, src, name)
	res.Duration = time.Since(start)
	res.Status, res.Err = status, err
	var ae *AuditError
	if aerr := s.audit.Err(); aerr != nil && errors.As(aerr, &ae) {
		res.Status, res.Err = ExitAudit, ae
	} else if err != nil {
		var le *interp.LimitError
		var de *DeniedExit
		switch {
		case errors.As(err, &de):
			res.Status = ExitDenied
		case errors.As(err, &le):
			res.Limit, res.Status = le.Limit, ExitLimit
			if le.Limit == "timeout" {
				res.Status = ExitTimeout
			}
		case errors.Is(err, context.DeadlineExceeded):
			res.Limit, res.Status = "timeout", ExitTimeout
		case errors.Is(err, context.Canceled):
			res.Status = 130 // the caller's cancellation, like Ctrl-C
		default:
			res.Status = ExitInternal
		}
	}
	if res.Limit != "" {
		s.audit.Emit("limit", map[string]any{"limit": res.Limit, "detail": errText(res.Err)})
	}
	// Drop the run's streams: the caller's writers must not be written
	// after Run returns (a background job that outlived the grace period).
	s.runner.SetStdio(nil, nil, nil)
	if sc.Stdout == nil {
		res.Stdout = outBuf.Bytes()
	}
	if sc.Stderr == nil {
		res.Stderr = errBuf.Bytes()
	}
	return res, nil
}

// runProtected runs a script and turns a panic into an internal error.
func runProtected(ctx context.Context, r *interp.Runner, src io.Reader, name string) (status int, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &interp.InternalError{Value: v}
		}
	}()
	return r.RunReader(ctx, src, name)
}

// Runner is the sandbox's shell, for what this package does not wrap
// (the sandsh REPL runs lines on it). It must not be used while a Run is
// going on.
func (s *Sandbox) Runner() *interp.Runner { return s.runner }

// FS is the sandbox's filesystem, as the sandbox user sees it.
func (s *Sandbox) FS() vfs.FS { return s.fs }

// Dir is the shell's current directory.
func (s *Sandbox) Dir() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.runner.Dir()
}

func (s *Sandbox) path(name string) string { return vfs.Clean(s.runner.Dir(), name) }

// ReadFile reads a file of the sandbox; a relative name is taken from
// the shell's current directory. The script's walls apply: permissions,
// the policy's paths (a refusal is fs.ErrPermission) and the limits; the
// audit log sees what the file methods below change, as it sees the
// script's changes.
func (s *Sandbox) ReadFile(name string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	f, err := s.view.Open(s.path(name))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	max := s.limits.MaxFileSize
	if max <= 0 {
		max = 1 << 30
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: file bigger than %d bytes", name, max)
	}
	return data, nil
}

// WriteFile writes a file of the sandbox (creating it with perm, or
// truncating it), like os.WriteFile; the filesystem's limits apply.
func (s *Sandbox) WriteFile(name string, data []byte, perm fs.FileMode) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	f, err := s.view.OpenFile(s.path(name), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// MkdirAll creates a directory and its parents, like os.MkdirAll.
func (s *Sandbox) MkdirAll(name string, perm fs.FileMode) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	return s.view.MkdirAll(s.path(name), perm)
}

// Stat describes a file of the sandbox, following symlinks. (Looking
// at metadata needs no access in the policy's paths, as for a script.)
func (s *Sandbox) Stat(name string) (fs.FileInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	return s.view.Stat(s.path(name))
}

// Readlink gives a symlink's target.
func (s *Sandbox) Readlink(name string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return "", ErrClosed
	}
	return s.view.ReadlinkIfPossible(s.path(name))
}

// ReadDir lists a directory of the sandbox, sorted by name.
func (s *Sandbox) ReadDir(name string) ([]fs.FileInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	f, err := s.view.Open(s.path(name))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	list, err := f.Readdir(-1)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(list, func(a, b fs.FileInfo) int { return strings.Compare(a.Name(), b.Name()) })
	return list, nil
}

// SetVar sets a global shell variable to a string (exported if it was).
func (s *Sandbox) SetVar(name, value string) error {
	return s.withRunner(func(r *interp.Runner) error { return r.SetVar(name, value) })
}

// SetArray sets a global indexed array.
func (s *Sandbox) SetArray(name string, list []string) error {
	return s.withRunner(func(r *interp.Runner) error { return r.SetIndexed(name, list) })
}

// SetAssoc sets a global associative array.
func (s *Sandbox) SetAssoc(name string, m map[string]string) error {
	return s.withRunner(func(r *interp.Runner) error { return r.SetAssoc(name, m) })
}

// Var reads a shell variable: a string, a []string (indexed array) or a
// map[string]string (associative array); ok is false when it is unset.
func (s *Sandbox) Var(name string) (value any, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, false
	}
	return s.runner.Var(name)
}

func (s *Sandbox) withRunner(f func(*interp.Runner) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	return f(s.runner)
}

// State captures the session for Config.State or statefile.Write: the
// shell state and, for the memory filesystem, every file; for an
// overlay, what the runs changed over the base (a vfs.Delta since the
// sandbox was set up) with stamps of what the base held at those paths,
// so that it is as big as the change, and is refused over a base that
// changed under it. A disk sandbox keeps its files on the disk; its
// state holds the shell only.
func (s *Sandbox) State(ctx context.Context) (*statefile.File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	st := &statefile.File{Shell: s.runner.ExportState()}
	if s.mark != 0 {
		// An overlay saves what changed over its base, with what the
		// base held there, not the base.
		d, err := vfs.ChangesSince(ctx, s.fs, s.mark, s.snapLimits())
		if err != nil {
			return nil, err
		}
		if st.Base, err = vfs.BaseStamps(ctx, s.fs, d); err != nil {
			return nil, err
		}
		st.Delta = d
		return st, nil
	}
	if _, ok := s.fs.(*vfs.MemFS); ok {
		snap, err := vfs.TakeSnapshot(ctx, s.fs, s.snapLimits())
		if err != nil {
			return nil, err
		}
		st.FS = snap
	}
	return st, nil
}

// Close ends the session: background jobs still running stop and the
// filesystem is released. A closed Sandbox refuses every call.
func (s *Sandbox) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	s.runner.SetStdio(nil, nil, nil)
	s.runner.StopJobs()
	if c, ok := s.fs.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
