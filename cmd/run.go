package cmd

import (
	"bytes"
	"context"
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
	"github.com/sandsh/sandsh/restrict"
	"github.com/sandsh/sandsh/vfs"
)

// Options is everything one sandsh run is configured with.
type Options struct {
	IO IO

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

	NoWorker bool         // run in this process, without a supervised worker (worker.go)
	worker   *workerState // set in the worker process
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
	fl.BoolVar(&o.NoWorker, "no-worker", false, "run the script in this process instead of a supervised, confined worker (debugging)")
}

func newRunCmd(opts *Options) *cobra.Command {
	c := &cobra.Command{
		Use:   "run [flags] SCRIPT|- [args...]",
		Short: "Run a script file (- reads it from standard input)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Args = args
			return statusErr(runMain(opts))
		},
	}
	c.Flags().SetInterspersed(false)
	return c
}

// parseBytes parses "64MiB", "1GiB", "512k", "1000".
func parseBytes(s string) (int64, error) {
	t := strings.TrimSpace(strings.ToLower(s))
	mult := int64(1)
	for _, suf := range []struct {
		s string
		m int64
	}{{"gib", 1 << 30}, {"mib", 1 << 20}, {"kib", 1 << 10}, {"gb", 1e9}, {"mb", 1e6}, {"kb", 1e3}, {"g", 1 << 30}, {"m", 1 << 20}, {"k", 1 << 10}, {"b", 1}} {
		if strings.HasSuffix(t, suf.s) {
			t, mult = strings.TrimSuffix(t, suf.s), suf.m
			break
		}
	}
	var n int64
	if _, err := fmt.Sscanf(t, "%d", &n); err != nil || n < 0 || fmt.Sprint(n) != t {
		return 0, fmt.Errorf("invalid size %q", s)
	}
	return n * mult, nil
}

// session is a ready-to-run sandbox: filesystem, gateway and runner.
type session struct {
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

// environ builds the sandbox's starting environment: a clean, documented
// set plus --env additions. Nothing else of the host leaks in.
func (o *Options) environ(home, cwd string) ([]string, error) {
	env := map[string]string{
		"HOME":     home,
		"PATH":     "/usr/local/bin:/usr/bin:/bin",
		"PWD":      cwd,
		"USER":     vfs.DefaultUser,
		"LOGNAME":  vfs.DefaultUser,
		"HOSTNAME": "sandbox",
		"SHELL":    "/bin/bash",
		"LANG":     "C.UTF-8",
		"TERM":     "dumb",
		"TMPDIR":   vfs.TmpDir,
		"SHLVL":    "1",
	}
	order := []string{"HOME", "HOSTNAME", "LANG", "LOGNAME", "PATH", "PWD", "SHELL", "SHLVL", "TERM", "TMPDIR", "USER"}
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
		if _, seen := env[name]; !seen {
			order = append(order, name)
		}
		env[name] = val
	}
	out := make([]string, 0, len(order))
	for _, n := range order {
		out = append(out, n+"="+env[n])
	}
	return out, nil
}

// newSession builds the filesystem, gateway and runner from the options.
func newSession(o *Options, stdout, stderr io.Writer, stdin io.Reader, arg0 string, params []string, extra ...interp.Option) (*session, error) {
	limits, err := o.limits()
	if err != nil {
		return nil, err
	}
	fsBytes, err := parseBytes(o.MaxFSBytes)
	if err != nil {
		return nil, usagef("--max-fs-bytes: %v", err)
	}
	fileSize, err := parseBytes(o.MaxFileSize)
	if err != nil {
		return nil, usagef("--max-file-size: %v", err)
	}
	if _, err := parseBytes(o.MaxMemory); err != nil {
		return nil, usagef("--max-memory: %v", err)
	}
	sys := builtins.DefaultSystem()
	if o.Clock != "" {
		t, err := parseClock(o.Clock)
		if err != nil {
			return nil, usagef("--clock: %v", err)
		}
		start := time.Now()
		sys.Now = func() time.Time { return t.Add(time.Since(start)) }
	}
	memOpts := []vfs.MemOption{vfs.WithMaxBytes(fsBytes), vfs.WithMaxFiles(o.MaxFiles), vfs.WithMaxFileSize(fileSize), vfs.WithClock(sys.Now)}
	restricted := true
	cwd := o.Cwd
	home := vfs.HomeDir
	var fsys vfs.FS
	var desc string
	switch o.FS {
	case "mem", "":
		if o.Base != "" || o.Root != "" {
			return nil, usagef("--base and --root need --fs overlay or --fs disk")
		}
		if cwd == "" {
			cwd = vfs.WorkDir
		}
		cwd = vfs.Clean("/", cwd)
		m := vfs.NewMem(memOpts...)
		if err := vfs.Populate(m, cwd); err != nil {
			return nil, fmt.Errorf("set up the memory filesystem: %w", err)
		}
		fsys, desc = m, "mem"
	case "overlay":
		if o.Base == "" {
			return nil, usagef("--fs overlay needs --base DIR")
		}
		if o.Root != "" {
			return nil, usagef("--root goes with --fs disk")
		}
		if err := checkDir(o.Base, "--base"); err != nil {
			return nil, err
		}
		if cwd == "" {
			cwd = vfs.WorkDir
		}
		cwd = vfs.Clean("/", cwd)
		ov, err := vfs.NewOverlay(o.Base, cwd, memOpts...)
		if err != nil {
			return nil, fmt.Errorf("set up the overlay filesystem: %w", err)
		}
		if err := vfs.Populate(ov, cwd); err != nil {
			return nil, fmt.Errorf("set up the overlay filesystem: %w", err)
		}
		fsys, desc = ov, "overlay of "+o.Base
	case "disk":
		if o.Base != "" {
			return nil, usagef("--base goes with --fs overlay")
		}
		restricted = o.Restricted
		if o.Root != "" {
			if err := checkDir(o.Root, "--root"); err != nil {
				return nil, err
			}
			// Host programs cannot be confined to --root, so a confined
			// disk is always restricted.
			restricted = true
			if cwd == "" {
				cwd = "/"
			}
			cwd = vfs.Clean("/", cwd)
			home = cwd
		} else {
			if cwd == "" {
				wd, err := o.IO.Getwd()
				if err != nil {
					return nil, fmt.Errorf("get working directory: %w", err)
				}
				cwd = wd
			}
			abs, err := filepath.Abs(cwd)
			if err != nil {
				return nil, usagef("--cwd: %v", err)
			}
			cwd = abs
			if h := o.IO.Getenv("HOME"); h != "" {
				home = h
			}
		}
		d, err := vfs.NewDisk(o.Root)
		if err != nil {
			return nil, fmt.Errorf("set up the disk filesystem: %w", err)
		}
		if o.Root == "" && restricted {
			d = vfs.NewRestrictedDisk()
		}
		fsys = d
		desc = "disk"
		if o.Root != "" {
			// Only what the run adds counts: the operator's files in DIR
			// were there before and are not the script's doing.
			fsys = vfs.Limit(d, vfs.WithMaxBytes(fsBytes), vfs.WithMaxFiles(o.MaxFiles), vfs.WithMaxFileSize(fileSize))
			desc = "disk confined to " + o.Root
		}
	default:
		return nil, usagef("--fs %q: want mem, overlay or disk", o.FS)
	}
	if fi, err := fsys.Stat(cwd); err != nil || !fi.IsDir() {
		return nil, usagef("--cwd %s: not a directory in the sandbox", cwd)
	}
	env, err := o.environ(home, cwd)
	if err != nil {
		return nil, err
	}
	var shellOpts []string
	shellOpts = append(shellOpts, o.ShellOpts...)
	if o.Errexit {
		shellOpts = append(shellOpts, "errexit")
	}
	if o.Xtrace {
		shellOpts = append(shellOpts, "xtrace")
	}
	if o.Nounset {
		shellOpts = append(shellOpts, "nounset")
	}
	var runner *interp.Runner
	// A crashing in-process command is a bug in sandsh: report it as an
	// internal error of the whole run rather than carry on.
	gw := restrict.New(builtins.NewRegistry(), restrict.Restricted(restricted),
		restrict.OnPanic(func(cmd string, v any, stack []byte) {
			if runner != nil {
				runner.Abort(&interp.InternalError{Value: fmt.Sprintf("%s: %v", cmd, v), Stack: string(stack)})
			}
		}))
	runner, err = interp.New(append([]interp.Option{
		interp.WithFS(fsys),
		interp.WithGateway(gw),
		interp.WithStdio(stdin, stdout, stderr),
		interp.WithEnv(env),
		interp.WithDir(cwd),
		interp.WithSystem(sys),
		interp.WithLimits(limits),
		interp.WithParams(arg0, params...),
		interp.WithShellOptions(shellOpts...),
	}, extra...)...)
	if err != nil {
		return nil, usagef("%v", err)
	}
	mode := "restricted"
	if !restricted {
		mode = "unrestricted"
	}
	return &session{runner: runner, fs: fsys, desc: desc + ", " + mode + ", cwd " + cwd}, nil
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
	sess, err := newSession(o, stdio.Out, stdio.Err, scriptStdin, arg0, params, interp.ScriptFile(o.Command == nil && name != "-"))
	if err != nil {
		return reportSetupError(stdio.Err, err)
	}
	if o.Verbose {
		fmt.Fprintf(stdio.Err, "sandsh: sandbox: %s\n", sess.desc)
	}
	status, err := runProtected(o.runContext(), sess.runner, src, name)
	return finalStatus(stdio.Err, status, err)
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

// runProtected runs a script and turns a panic into an internal error.
func runProtected(ctx context.Context, r *interp.Runner, src io.Reader, name string) (status int, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &interp.InternalError{Value: v}
		}
	}()
	return r.RunReader(ctx, src, name)
}

func reportSetupError(w io.Writer, err error) int {
	fmt.Fprintf(w, "sandsh: %v\n", err)
	var ue *usageError
	if errors.As(err, &ue) {
		return ExitUsage
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
