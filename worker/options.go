package worker

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/netgate"
	"github.com/sandsh/sandsh/policy"
	"github.com/sandsh/sandsh/sandbox"
	"github.com/sandsh/sandsh/statefile"
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
	// bash's own command line (interp.Invocation): -i, -l, -O NAME
	// (Shopts holds NAME; +O NAME is "+NAME": off), --norc,
	// --noprofile, --rcfile.
	Interactive bool
	Login       bool
	Shopts      []string
	NoRC        bool
	NoProfile   bool
	RCFile      string
	Clock       string
	Verbose     bool
	History     string

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
	StateLock string
	Vars      []string
	VarJSON   []string
	PrintVars []string
	JSON      bool
	// JSONStream prints the output as JSON Lines chunks as it comes,
	// then the --json object (it implies JSON).
	JSONStream bool
	// JSONBinary is how --json gives a stream that is not UTF-8:
	// "utf8" (default: each bad byte becomes U+FFFD) or "base64".
	JSONBinary string
	Import     string
	// ImportAt is where --import shows its directory (an absolute
	// sandbox path; default the working directory).
	ImportAt  string
	Export    string
	ExportTar string
	// ExportUnsafeGit writes what makes host git run commands (a git
	// directory's config and hooks, filter drivers) into the export,
	// which leaves them out by default (vfs.HoldBackGit).
	ExportUnsafeGit bool
	Changes         bool

	// Policy (policy.go): the files' names (--policy, repeatable:
	// layers, the strictest decision wins), and their bytes once read.
	Policy     []string
	PolicyData [][]byte
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

	// Approval outside a terminal (ask.go): the operator's program the
	// supervisor runs for each ask, and how long it may take.
	AskCommand string
	AskTimeout time.Duration

	NoWorker bool         // run in this process, without a supervised worker (worker.go)
	worker   *workerState // set in the worker process
	// Changed reports whether the command line set a flag, so a policy
	// file's limits apply only where no flag overrides them; nil means
	// none was set.
	Changed func(flag string) bool `wire:"-"`
	// Ask answers the policy's ask rules (the REPL's terminal); nil
	// refuses them.
	Ask sandbox.Asker `wire:"-"`
	// AskFunc answers the policy's ask rules in the supervising process
	// (sandsh mcp's elicitation); the worker reaches it through the ask
	// broker, like --ask-command, which it replaces.
	AskFunc sandbox.Asker `wire:"-"`

	audit      *sandbox.Audit // where the sandbox's events go
	stateFiles *stateFiles    // --state's lock and files (state.go)
	auditRun   *auditRun      // the parent's log, which the worker's events join
	limitHit   string         // the limit that killed the worker, for run_end
	gate       *netgate.Gate  // the network gate of this sandsh (net.go), built once
	// netPolicy is the policy's network section, in the parent: its
	// entries' methods and bodies, its deny list and its credentials
	// (whose values never travel to the worker).
	netPolicy *policy.Network
}

// DefaultOptions are the sandsh command's defaults (its flags' default
// values): a memory filesystem and the default limits.
func DefaultOptions() Options {
	d := interp.DefaultLimits()
	return Options{FS: "mem", Timeout: d.Timeout, MaxCommands: d.MaxCommands, MaxLoopIters: d.MaxLoopIters,
		MaxCallDepth: d.MaxCallDepth, MaxOutput: interp.FormatBytes(d.MaxOutput), MaxFSBytes: "512MiB",
		MaxFiles: 100000, MaxFileSize: "256MiB", MaxMemory: "1GiB", MaxJobs: d.MaxJobs,
		MaxVarBytes: interp.FormatBytes(int64(d.MaxVarBytes)), MaxCapture: interp.FormatBytes(d.MaxCapture),
		MaxScript: interp.FormatBytes(d.MaxScript), MaxFields: d.MaxFields,
		MaxNetRequests: netgate.DefaultMaxRequests, MaxNetBytes: "64MiB", NetTimeout: netgate.DefaultTimeout}
}

// ParseBytes parses a size flag ("64MiB", "1GiB", "512k", "1000") the
// way a policy file's limits are parsed, so the two spellings agree.
func ParseBytes(s string) (int64, error) { return policy.ParseSize(s) }

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
		n, err := ParseBytes(b.val)
		if err != nil {
			return l, usagef("--%s: %v", b.flag, err)
		}
		*b.dst = n
	}
	n, err := ParseBytes(o.MaxVarBytes)
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
		n, err := ParseBytes(b.val)
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

// environ resolves --env: NAME=VALUE as is; a bare NAME from the host,
// left unset when the host has no such variable (as docker run -e
// does); PREFIX* every host variable whose name starts with PREFIX.
// Nothing else of the host leaks in.
func (o *Options) environ() ([]string, error) {
	var out []string
	for _, e := range o.Env {
		name, val, ok := strings.Cut(e, "=")
		if prefix, pat := strings.CutSuffix(name, "*"); pat && !ok {
			if prefix == "" || !validName(prefix) {
				return nil, usagef("--env %q: want NAME=VALUE, NAME or PREFIX* (a variable name's start, then *)", e)
			}
			out = append(out, o.IO.hostVars(prefix)...)
			continue
		}
		if !validName(name) {
			return nil, usagef("--env %q: %q is not a variable name", e, name)
		}
		if !ok {
			if val, ok = o.IO.lookupEnv(name); !ok {
				continue
			}
		}
		out = append(out, name+"="+val)
	}
	return out, nil
}

// SandboxConfig turns the flags into a sandbox.Config.
func (o *Options) SandboxConfig() (sandbox.Config, error) {
	lim, err := o.sandboxLimits()
	if err != nil {
		return sandbox.Config{}, err
	}
	cfg := sandbox.Config{FS: o.FS, Base: o.Base, Root: o.Root, Cwd: o.Cwd, Restricted: o.Restricted, Limits: lim,
		AssumeYes: o.Yes, Audit: o.audit, Ask: o.asker()}
	if cfg.Policy, err = o.LoadPolicy(); err != nil {
		return cfg, err
	}
	if p := cfg.Policy; p != nil && (p.Paths.Read != nil || p.Paths.Write != nil) && o.FS == "disk" && o.Root == "" && !o.Restricted {
		// Host programs open host files without the vfs layer: the lists
		// could not hold, and a policy never looks stricter than it is.
		return cfg, &configError{fmt.Errorf("%s: paths: need a sandbox filesystem (--fs mem, overlay, --root or -r), not the unrestricted host disk", p.File)}
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
				// As bash: no HOME when the host's environment has none.
				home, ok := o.IO.lookupEnv("HOME")
				cfg.Home, cfg.NoHome = home, !ok
			}
			if !o.Restricted {
				// Host programs run here and see the host's name.
				cfg.Hostname, _ = os.Hostname()
			}
		}
	}
	if cfg.Env, err = o.environ(); err != nil {
		return cfg, err
	}
	cfg.ShellOptions = append(cfg.ShellOptions, o.ShellOpts...)
	if cfg.Invocation, err = o.invocation(); err != nil {
		return cfg, err
	}
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

// NewSandbox builds the sandbox from the options (package sandbox does
// the work) and readies its shell for a run on the given streams.
func NewSandbox(o *Options, stdout, stderr io.Writer, stdin io.Reader, arg0 string, params []string, extra ...interp.Option) (*sandbox.Sandbox, error) {
	return newSandboxFrom(o, nil, stdout, stderr, stdin, arg0, params, extra...)
}

// newSandboxFrom is NewSandbox, started from a saved state when st is
// set.
func newSandboxFrom(o *Options, st *statefile.File, stdout, stderr io.Writer, stdin io.Reader, arg0 string, params []string, extra ...interp.Option) (*sandbox.Sandbox, error) {
	cfg, err := o.SandboxConfig()
	if err != nil {
		return nil, err
	}
	cfg.State = st
	cfg.RunnerOptions = extra
	sb, err := sandbox.New(cfg)
	if err != nil {
		var ce *sandbox.ConfigError
		var se *sandbox.StateError
		switch {
		case errors.As(err, &ce):
			return nil, usagef("%s", ce.Msg)
		case errors.As(err, &se):
			return nil, &stateError{fmt.Errorf("--state %s: %v", o.State, err)}
		}
		return nil, err
	}
	sb.Runner().NextRun(stdin, stdout, stderr, arg0, params)
	return sb, nil
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

// invocation is bash's own command line of the run.
func (o *Options) invocation() (interp.Invocation, error) {
	inv := interp.Invocation{Interactive: o.Interactive, Login: o.Login, NoRC: o.NoRC, NoProfile: o.NoProfile, RCFile: o.RCFile}
	for _, s := range o.Shopts {
		name, off := strings.CutPrefix(s, "+")
		if !interp.ValidShopt(name) {
			return inv, usagef("-O %s: invalid shell option name", name)
		}
		inv.Shopts = append(inv.Shopts, interp.Shopt{Name: name, On: !off})
	}
	return inv, nil
}
