package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/netgate"
	"github.com/sandsh/sandsh/policy"
	"github.com/sandsh/sandsh/sandbox"
	"github.com/sandsh/sandsh/vfs"
)

// Options is everything one sandsh run is configured with.
type Options struct {
	IO IO `wire:"-"` // the worker has its own (wire.go)

	Command *string  // -c text
	Args    []string // script path (or $0 with -c) and arguments

	FS         string
	Base       string
	Root       string
	Cwd        string
	Restricted bool
	Env        []string
	ShellOpts  []string
	Errexit    bool
	Xtrace     bool
	Nounset    bool
	Clock      string
	Verbose    bool
	History    string

	Timeout      time.Duration
	MaxCommands  int64
	MaxLoopIters int64
	MaxCallDepth int
	MaxOutput    string
	MaxFSBytes   string
	MaxFiles     int
	MaxFileSize  string
	MaxMemory    string
	MaxJobs      int
	MaxVarBytes  string
	MaxCapture   string
	MaxScript    string
	MaxFields    int

	// Session flags (results.go).
	State     string
	Vars      []string
	VarJSON   []string
	PrintVars []string
	JSON      bool
	Import    string
	Export    string
	ExportTar string
	Changes   bool

	// Policy (policy_load.go): the file's name, and its bytes once read.
	Policy     string
	PolicyData []byte
	Yes        bool // allow what the policy's ask rules ask about
	Check      bool // run sandsh check first; refuse a script with error findings (check.go)

	// Network (net.go): what curl and wget may reach, and the bounds.
	AllowNet       []string
	MaxNetRequests int64
	MaxNetBytes    string
	NetTimeout     time.Duration

	// Audit log (audit.go): the file ("-" for stderr), the redaction.
	Audit       string
	AuditRedact string

	// Host programs in a jail (jail.go).
	AllowRun    []string
	JailRO      []string
	JailBackend string

	NoWorker bool         // run in this process, without a supervised worker (worker.go)
	worker   *workerState // set in the worker process
	changed  func(flag string) bool
	audit    *sandbox.Audit // where the sandbox's events go
	auditRun *auditRun      // the parent's log, which the worker's events join
	ask      sandbox.Asker  // the REPL's terminal, for the policy's ask rules
	limitHit string         // the limit that killed the worker, for run_end
	gate     *netgate.Gate  // the network gate of this sandsh (net.go), built once
}

func addRunFlags(fl *pflag.FlagSet, o *Options) {
	d := interp.DefaultLimits()
	fl.StringVar(&o.FS, "fs", "mem", "filesystem: mem, overlay or disk")
	fl.StringVar(&o.Base, "base", "", "host directory shown read-only under the working directory (--fs overlay)")
	fl.StringVar(&o.Root, "root", "", "confine --fs disk to this host directory")
	fl.StringVar(&o.Cwd, "cwd", "", "starting directory inside the sandbox")
	fl.BoolVarP(&o.Restricted, "restricted", "r", false, "restricted mode on --fs disk (always on for other filesystems)")
	fl.StringArrayVar(&o.Env, "env", nil, "add NAME=VALUE to the environment, or pass host variable NAME through")
	fl.StringArrayVarP(&o.ShellOpts, "option", "o", nil, "turn on a `set -o` option (e.g. pipefail)")
	fl.BoolVarP(&o.Errexit, "errexit", "e", false, "exit on the first failing command (set -e)")
	fl.BoolVarP(&o.Xtrace, "xtrace", "x", false, "trace commands (set -x)")
	fl.BoolVarP(&o.Nounset, "nounset", "u", false, "treat unset variables as an error (set -u)")
	fl.StringVar(&o.Clock, "clock", "", "fixed clock for date and $EPOCHSECONDS (RFC 3339 or @epoch)")
	fl.BoolVar(&o.Verbose, "verbose", false, "print the sandbox set-up on stderr")
	fl.StringVar(&o.History, "history-file", "", "keep the interactive history in this host file (default: memory only)")
	fl.DurationVar(&o.Timeout, "timeout", d.Timeout, "wall-time limit (0 = none)")
	fl.Int64Var(&o.MaxCommands, "max-commands", d.MaxCommands, "limit on simple commands run (0 = none)")
	fl.Int64Var(&o.MaxLoopIters, "max-loop-iterations", d.MaxLoopIters, "limit on iterations of one loop (0 = none)")
	fl.IntVar(&o.MaxCallDepth, "max-call-depth", d.MaxCallDepth, "limit on nested function/source/eval/shell calls")
	fl.StringVar(&o.MaxOutput, "max-output", interp.FormatBytes(d.MaxOutput), "limit on bytes written to stdout and stderr")
	fl.StringVar(&o.MaxFSBytes, "max-fs-bytes", "512MiB", "limit on bytes stored in the in-memory filesystem")
	fl.IntVar(&o.MaxFiles, "max-files", 100000, "limit on files in the in-memory filesystem")
	fl.StringVar(&o.MaxFileSize, "max-file-size", "256MiB", "limit on the size of one file in the in-memory filesystem")
	fl.StringVar(&o.MaxMemory, "max-memory", "1GiB", "limit on memory for the whole run")
	fl.IntVar(&o.MaxJobs, "max-jobs", d.MaxJobs, "limit on background jobs, pipeline stages and substitutions alive at once")
	fl.StringVar(&o.MaxVarBytes, "max-var-bytes", interp.FormatBytes(int64(d.MaxVarBytes)), "limit on the size of one variable")
	fl.StringVar(&o.MaxCapture, "max-capture", interp.FormatBytes(d.MaxCapture), "limit on bytes one $(...) may capture")
	fl.StringVar(&o.MaxScript, "max-script-bytes", interp.FormatBytes(d.MaxScript), "limit on script, eval and source text")
	fl.IntVar(&o.MaxFields, "max-fields", d.MaxFields, "limit on the fields one command's words expand to (0 = none)")
	fl.StringVar(&o.State, "state", "", "load the sandbox (files and shell state) from FILE if it exists; save it there after the run")
	fl.StringArrayVar(&o.Vars, "var", nil, "set the shell variable NAME=VALUE before the run")
	fl.StringArrayVar(&o.VarJSON, "var-json", nil, "set NAME=JSON before the run: an array makes an indexed array, an object an associative array")
	fl.StringArrayVar(&o.PrintVars, "print-var", nil, "print the variable NAME (as JSON) after the run")
	fl.BoolVar(&o.JSON, "json", false, "print one JSON object (outputs, status, duration, limit, changes, variables) instead of streaming")
	fl.StringVar(&o.Import, "import", "", "copy host directory DIR into the sandbox's working directory before the run")
	fl.StringVar(&o.Export, "export", "", "write the sandbox's working tree to the new or empty host directory DIR after the run")
	fl.StringVar(&o.ExportTar, "export-tar", "", "write the sandbox's working tree to FILE (.tar, .tar.gz or .tgz) after the run")
	fl.BoolVar(&o.Changes, "changes", false, "list the files the run added (A), modified (M) and deleted (D) on stderr")
	fl.StringVar(&o.Policy, "policy", "", "decide which commands may run, and the limits, from this policy `FILE` (YAML)")
	fl.BoolVar(&o.Check, "check", false, "check the script statically first (as sandsh check) and refuse to run it if there is an error finding")
	fl.BoolVar(&o.Yes, "yes", false, "allow the commands the policy's ask rules ask about (without a terminal, ask means deny)")
	fl.StringVar(&o.Audit, "audit", "", "write the audit log (JSON Lines) to `FILE` (- for stderr)")
	fl.StringVar(&o.AuditRedact, "audit-redact", "", "mask argument values matching `REGEX` in the audit log")
	fl.StringSliceVar(&o.AllowRun, "allow-run", nil, "let the host program `NAME` run, in an OS jail that sees only the sandbox (repeatable, or a comma list)")
	fl.StringArrayVar(&o.JailRO, "jail-ro", nil, "show the host `PATH` read-only inside the jail too")
	fl.StringVar(&o.JailBackend, "jail-backend", "", "jail backend: ns, bwrap or auto (default $SANDSH_JAIL_BACKEND, else auto)")
	addNetFlags(fl, o)
	fl.BoolVar(&o.NoWorker, "no-worker", false, "run the script in this process instead of a supervised, confined worker (debugging)")
}

func newRunCmd(opts *Options) *cobra.Command {
	c := &cobra.Command{
		Use:   "run [flags] SCRIPT|- [args...]",
		Short: "Run a script file (- reads it from standard input)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Args = args
			markChanged(c, opts)
			return statusErr(runMain(opts))
		},
	}
	c.Flags().SetInterspersed(false)
	return c
}

// parseBytes parses a size flag ("64MiB", "1GiB", "512k", "1000") the
// way a policy file's limits are parsed, so the two spellings agree.
func parseBytes(s string) (int64, error) { return policy.ParseSize(s) }

// session is a ready-to-run sandbox: filesystem, gateway and runner.
type session struct {
	sb     *sandbox.Sandbox
	runner *interp.Runner
	fs     vfs.FS
	desc   string
}

// limits turns the flags into interp.Limits.
func (o *Options) limits() (interp.Limits, error) {
	l := interp.DefaultLimits()
	l.Timeout = o.Timeout
	l.MaxCommands = o.MaxCommands
	l.MaxLoopIters = o.MaxLoopIters
	l.MaxCallDepth = o.MaxCallDepth
	l.MaxJobs = o.MaxJobs
	l.MaxFields = o.MaxFields
	for _, b := range []struct {
		flag string
		val  string
		dst  *int64
	}{{"max-output", o.MaxOutput, &l.MaxOutput}, {"max-capture", o.MaxCapture, &l.MaxCapture}, {"max-script-bytes", o.MaxScript, &l.MaxScript}} {
		n, err := parseBytes(b.val)
		if err != nil {
			return l, usagef("--%s: %v", b.flag, err)
		}
		*b.dst = n
	}
	n, err := parseBytes(o.MaxVarBytes)
	if err != nil {
		return l, usagef("--max-var-bytes: %v", err)
	}
	l.MaxVarBytes = int(n)
	if l.Timeout < 0 || l.MaxCommands < 0 || l.MaxLoopIters < 0 || l.MaxCallDepth < 0 || l.MaxJobs < 0 || l.MaxFields < 0 {
		return l, usagef("limits must not be negative")
	}
	return l, nil
}

// sandboxLimits adds the filesystem and memory flags to limits().
func (o *Options) sandboxLimits() (sandbox.Limits, error) {
	il, err := o.limits()
	if err != nil {
		return sandbox.Limits{}, err
	}
	l := sandbox.Limits{Limits: il, MaxFiles: o.MaxFiles}
	for _, b := range []struct {
		flag string
		val  string
		dst  *int64
	}{{"max-fs-bytes", o.MaxFSBytes, &l.MaxFSBytes}, {"max-file-size", o.MaxFileSize, &l.MaxFileSize}, {"max-memory", o.MaxMemory, &l.MaxMemory}} {
		n, err := parseBytes(b.val)
		if err != nil {
			return l, usagef("--%s: %v", b.flag, err)
		}
		*b.dst = n
	}
	if l.MaxFiles < 0 {
		return l, usagef("limits must not be negative")
	}
	return l, nil
}

// environ resolves --env: NAME=VALUE as is, a bare NAME from the host.
// Nothing else of the host leaks in.
func (o *Options) environ() ([]string, error) {
	var out []string
	for _, e := range o.Env {
		name, val, ok := strings.Cut(e, "=")
		if name == "" || strings.ContainsAny(name, " \t\n$") {
			return nil, usagef("--env %q: want NAME=VALUE or NAME", e)
		}
		if !ok {
			if o.IO.Getenv == nil {
				continue
			}
			val = o.IO.Getenv(name)
		}
		out = append(out, name+"="+val)
	}
	return out, nil
}

// sandboxConfig turns the flags into a sandbox.Config.
func (o *Options) sandboxConfig() (sandbox.Config, error) {
	lim, err := o.sandboxLimits()
	if err != nil {
		return sandbox.Config{}, err
	}
	cfg := sandbox.Config{FS: o.FS, Base: o.Base, Root: o.Root, Cwd: o.Cwd, Restricted: o.Restricted, Limits: lim,
		AssumeYes: o.Yes, Audit: o.audit, Ask: o.ask}
	if cfg.Policy, err = o.loadPolicy(); err != nil {
		return cfg, err
	}
	if p := cfg.Policy; p != nil && (p.Paths.Read != nil || p.Paths.Write != nil) && o.FS == "disk" && o.Root == "" && !o.Restricted {
		// Host programs open host files without the vfs layer: the lists
		// could not hold, and a policy never looks stricter than it is.
		return cfg, &configError{fmt.Errorf("%s: paths: need a sandbox filesystem (--fs mem, overlay, --root or -r), not the unrestricted host disk", o.Policy)}
	}
	if allowed, err := o.jailAllowed(cfg.Policy); err != nil {
		return cfg, err
	} else if allowed != nil {
		run, err := o.jailer(allowed)
		if err != nil {
			return cfg, err
		}
		cfg.Jail = &sandbox.JailConfig{Allowed: allowed, Run: run, Verbose: o.Verbose}
	}
	if cfg.Net, err = o.sandboxNet(); err != nil {
		return cfg, err
	}
	if lim == (sandbox.Limits{}) {
		cfg.NoLimits = true
	}
	if o.Clock != "" {
		t, err := parseClock(o.Clock)
		if err != nil {
			return cfg, usagef("--clock: %v", err)
		}
		cfg.Clock = t
	}
	switch o.FS {
	case "overlay":
		if o.Base != "" && o.Root == "" {
			if err := checkDir(o.Base, "--base"); err != nil {
				return cfg, err
			}
		}
	case "disk":
		if o.Root != "" && o.Base == "" {
			if err := checkDir(o.Root, "--root"); err != nil {
				return cfg, err
			}
		}
		if o.Root == "" {
			if cfg.Cwd == "" {
				wd, err := o.IO.Getwd()
				if err != nil {
					return cfg, fmt.Errorf("get working directory: %w", err)
				}
				cfg.Cwd = wd
			}
			abs, err := filepath.Abs(cfg.Cwd)
			if err != nil {
				return cfg, usagef("--cwd: %v", err)
			}
			cfg.Cwd = abs
			if o.IO.Getenv != nil {
				cfg.Home = o.IO.Getenv("HOME")
			}
		}
	}
	if cfg.Env, err = o.environ(); err != nil {
		return cfg, err
	}
	cfg.ShellOptions = append(cfg.ShellOptions, o.ShellOpts...)
	if o.Errexit {
		cfg.ShellOptions = append(cfg.ShellOptions, "errexit")
	}
	if o.Xtrace {
		cfg.ShellOptions = append(cfg.ShellOptions, "xtrace")
	}
	if o.Nounset {
		cfg.ShellOptions = append(cfg.ShellOptions, "nounset")
	}
	return cfg, nil
}

// newSession builds the sandbox from the options (package sandbox does
// the work) and readies its shell for a run on the given streams.
func newSession(o *Options, stdout, stderr io.Writer, stdin io.Reader, arg0 string, params []string, extra ...interp.Option) (*session, error) {
	cfg, err := o.sandboxConfig()
	if err != nil {
		return nil, err
	}
	cfg.RunnerOptions = extra
	return newSessionFrom(cfg, stdout, stderr, stdin, arg0, params)
}

func newSessionFrom(cfg sandbox.Config, stdout, stderr io.Writer, stdin io.Reader, arg0 string, params []string) (*session, error) {
	sb, err := sandbox.New(cfg)
	if err != nil {
		var ce *sandbox.ConfigError
		if errors.As(err, &ce) {
			return nil, usagef("%s", ce.Msg)
		}
		return nil, err
	}
	sb.Runner().NextRun(stdin, stdout, stderr, arg0, params)
	return &session{sb: sb, runner: sb.Runner(), fs: sb.FS(), desc: sb.Description()}, nil
}

func checkDir(dir, flag string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return usagef("%s %s: no such directory", flag, dir)
		}
		return usagef("%s %s: %v", flag, dir, err)
	}
	if !fi.IsDir() {
		return usagef("%s %s: not a directory", flag, dir)
	}
	return nil
}

func parseClock(s string) (time.Time, error) {
	if strings.HasPrefix(s, "@") {
		var sec int64
		if _, err := fmt.Sscanf(s[1:], "%d", &sec); err != nil {
			return time.Time{}, fmt.Errorf("invalid epoch %q", s)
		}
		return time.Unix(sec, 0).UTC(), nil
	}
	return time.Parse(time.RFC3339, s)
}

// runMain decides what to run: -c text, a script file, stdin, or the REPL.
func runMain(o *Options) int {
	// A policy that cannot be used stops sandsh before anything runs;
	// its limits must be known before the worker starts.
	pol, err := o.loadPolicy()
	if err != nil {
		return reportSetupError(o.IO.Err, err)
	}
	if o.Check && o.worker == nil {
		if status, refused := o.preCheck(pol); refused {
			return status // check.go
		}
	}
	if o.worker == nil && o.Audit != "" {
		a, err := o.openAudit(os.Args)
		if err != nil {
			return reportSetupError(o.IO.Err, err)
		}
		if o.NoWorker {
			o.audit = a.log
		} else {
			o.auditRun = a
		}
		status := runMainAudited(o)
		a.finish(status, o.limitHit)
		return status
	}
	return runMainAudited(o)
}

// runMainAudited is runMain once the audit log (if any) is open.
func runMainAudited(o *Options) int {
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
			fmt.Fprintf(stdio.Err, "sandsh: %s\n", err)
			return status
		}
		src, name, arg0, params = bytes.NewReader(data), path, path, o.Args[1:]
	case len(o.Args) > 0:
		src, name, arg0, params = stdio.In, "-", "sandsh", o.Args[1:]
	case stdio.InTerminal:
		if o.sessionFlags() {
			return reportSetupError(stdio.Err, usagef("--state, --var, --json, --import, --export and --changes need a script"))
		}
		return runREPL(o)
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
	if !o.sessionFlags() {
		status, _ := o.runSandboxed(o.runContext(), nil, sc)
		return status
	}
	// --no-worker: both sides of the run in this process.
	if err := o.checkSessionFlags(); err != nil {
		return reportSetupError(stdio.Err, err)
	}
	h := o.newHostSide()
	in, status, err := o.readInputs()
	if err != nil {
		fmt.Fprintf(h.errw, "sandsh: %v\n", err)
		return h.finish(status, "", nil)
	}
	sc.Stdout, sc.Stderr = h.out, h.errw
	status, oc := o.runSandboxed(o.runContext(), in, sc)
	return h.finish(status, "", oc)
}

// maxScriptRead caps how much of a script file is read from the host.
const maxScriptRead = 1<<30 + 1

// readScriptFile reads a script named on the command line from the host.
func readScriptFile(path string) ([]byte, int, error) {
	fi, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, ExitNotFound, fmt.Errorf("%s: No such file or directory", path)
		}
		return nil, ExitNotExec, fmt.Errorf("%s: %s", path, builtins.ErrText(err))
	}
	if fi.IsDir() {
		return nil, ExitNotExec, fmt.Errorf("%s: Is a directory", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, ExitNotExec, fmt.Errorf("%s: %s", path, builtins.ErrText(err))
	}
	defer f.Close()
	// Read at most one byte more than any script limit allows, so a huge
	// (or endless, like /dev/zero) file cannot fill memory: the runner
	// reports the max-script-bytes limit on what it got.
	data, err := io.ReadAll(io.LimitReader(f, maxScriptRead))
	if err != nil {
		return nil, ExitNotExec, fmt.Errorf("%s: %s", path, builtins.ErrText(err))
	}
	return data, 0, nil
}

func reportSetupError(w io.Writer, err error) int {
	fmt.Fprintf(w, "sandsh: %v\n", err)
	var ue *usageError
	if errors.As(err, &ue) {
		return ExitUsage
	}
	var ce *configError
	if errors.As(err, &ce) {
		return ExitConfig
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
	switch {
	case errors.As(err, &le):
		fmt.Fprintf(w, "sandsh: %v\n", le)
		if le.Limit == "timeout" {
			return ExitTimeout
		}
		return ExitLimit
	case errors.As(err, &ie):
		fmt.Fprintf(w, "sandsh: %v (this is a bug in sandsh)\n", ie)
		return ExitInternal
	case errors.Is(err, context.DeadlineExceeded):
		fmt.Fprintf(w, "sandsh: limit exceeded: timeout\n")
		return ExitTimeout
	}
	fmt.Fprintf(w, "sandsh: %v\n", err)
	return ExitInternal
}

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
