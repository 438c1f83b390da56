package cmd

import (
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/sandsh/sandsh/policy"
	"github.com/sandsh/sandsh/worker"
)

// Options is everything one sandsh run is configured with (package
// worker owns it: it travels to the worker).
type Options = worker.Options

// IO is the process's standard streams, injected for tests.
type IO = worker.IO

func addRunFlags(fl *pflag.FlagSet, o *Options) {
	d := worker.DefaultOptions() // the defaults live with the options
	fl.StringVar(&o.FS, "fs", d.FS, "filesystem: mem, overlay or disk")
	fl.StringVar(&o.Base, "base", "", "host directory shown read-only under the working directory (--fs overlay)")
	fl.StringVar(&o.Root, "root", "", "confine --fs disk to this host directory")
	fl.StringVar(&o.Cwd, "cwd", "", "starting directory inside the sandbox")
	fl.BoolVarP(&o.Restricted, "restricted", "r", false, "restricted mode on --fs disk (always on for other filesystems)")
	fl.StringArrayVar(&o.Env, "env", nil, "add NAME=VALUE to the environment, or pass host variable NAME through")
	fl.StringArrayVarP(&o.ShellOpts, "option", "o", nil, "turn on a `set -o` option (e.g. pipefail)")
	fl.BoolVarP(&o.Errexit, "errexit", "e", false, "exit on the first failing command (set -e)")
	fl.BoolVarP(&o.Xtrace, "xtrace", "x", false, "trace commands (set -x)")
	fl.BoolVarP(&o.Nounset, "nounset", "u", false, "treat unset variables as an error (set -u)")
	fl.BoolVarP(&o.Interactive, "interactive", "i", false, "run the script as an interactive shell, as bash -i does ($- has i, an error ends only its line; reads ~/.bashrc)")
	fl.BoolVarP(&o.Login, "login", "l", false, "act as a login shell, as bash -l (shopt login_shell; reads /etc/profile and ~/.profile)")
	fl.StringArrayVarP(&o.Shopts, "shopt", "O", nil, "turn on a shopt option (bash -O `NAME`); +O NAME turns one off")
	fl.BoolVar(&o.NoRC, "norc", false, "with -i, read no ~/.bashrc (as bash)")
	fl.BoolVar(&o.NoProfile, "noprofile", false, "with -l, read no profile files (as bash)")
	fl.StringVar(&o.RCFile, "rcfile", "", "with -i, read `FILE` (in the sandbox) instead of ~/.bashrc (as bash)")
	fl.StringVar(&o.Clock, "clock", "", "fixed clock for date and $EPOCHSECONDS (RFC 3339 or @epoch)")
	fl.BoolVar(&o.Verbose, "verbose", false, "print the sandbox set-up on stderr")
	fl.StringVar(&o.History, "history-file", "", "keep the interactive history in this host file (default: memory only)")
	durationVar(fl, &o.Timeout, "timeout", d.Timeout, "wall-time limit: seconds (as timeout(1)) or a duration like 5m (0 = none)")
	fl.Int64Var(&o.MaxCommands, "max-commands", d.MaxCommands, "limit on simple commands run (0 = none)")
	fl.Int64Var(&o.MaxLoopIters, "max-loop-iterations", d.MaxLoopIters, "limit on iterations of one loop (0 = none)")
	fl.IntVar(&o.MaxCallDepth, "max-call-depth", d.MaxCallDepth, "limit on nested function/source/eval/shell calls")
	fl.StringVar(&o.MaxOutput, "max-output", d.MaxOutput, "limit on bytes written to stdout and stderr")
	fl.StringVar(&o.MaxFSBytes, "max-fs-bytes", d.MaxFSBytes, "limit on bytes stored in the in-memory filesystem")
	fl.IntVar(&o.MaxFiles, "max-files", d.MaxFiles, "limit on files in the in-memory filesystem")
	fl.StringVar(&o.MaxFileSize, "max-file-size", d.MaxFileSize, "limit on the size of one file in the in-memory filesystem")
	fl.StringVar(&o.MaxMemory, "max-memory", d.MaxMemory, "limit on memory for the whole run")
	fl.IntVar(&o.MaxJobs, "max-jobs", d.MaxJobs, "limit on background jobs, pipeline stages and substitutions alive at once")
	fl.StringVar(&o.MaxVarBytes, "max-var-bytes", d.MaxVarBytes, "limit on the size of one variable")
	fl.StringVar(&o.MaxCapture, "max-capture", d.MaxCapture, "limit on bytes one $(...) may capture")
	fl.StringVar(&o.MaxScript, "max-script-bytes", d.MaxScript, "limit on script, eval and source text")
	fl.IntVar(&o.MaxFields, "max-fields", d.MaxFields, "limit on the fields one command's words expand to (0 = none)")
	fl.StringVar(&o.State, "state", "", "load the sandbox (files and shell state) from FILE if it exists; save it there after the run")
	fl.StringVar(&o.StateLock, "state-lock", "wait", "when another run holds the --state file: wait for it, or fail at once with status 75")
	fl.StringArrayVar(&o.Vars, "var", nil, "set the shell variable NAME=VALUE before the run")
	fl.StringArrayVar(&o.VarJSON, "var-json", nil, "set NAME=JSON before the run: an array makes an indexed array, an object an associative array")
	fl.StringArrayVar(&o.PrintVars, "print-var", nil, "print the variable NAME (as JSON) after the run")
	fl.BoolVar(&o.JSON, "json", false, "print one JSON object (outputs, status, duration, limit, changes, variables) instead of streaming")
	fl.BoolVar(&o.JSONStream, "json-stream", false, "print stdout and stderr as JSON Lines chunks as they come ({\"stream\":\"stdout\",\"data\":...}), then the --json object as the last line")
	fl.StringVar(&o.JSONBinary, "json-binary", "utf8", "with --json, how a stream that is not UTF-8 is given: utf8 (bad bytes become U+FFFD) or base64 (the exact bytes; stdout_encoding says so)")
	fl.StringVar(&o.Import, "import", "", "copy host directory DIR into the sandbox's working directory before the run")
	fl.StringVar(&o.ImportAt, "import-at", "", "show the --import directory at this absolute `PATH` in the sandbox instead of the working directory")
	fl.StringVar(&o.Export, "export", "", "write the sandbox's working tree to the new or empty host directory DIR after the run")
	fl.StringVar(&o.ExportTar, "export-tar", "", "write the sandbox's working tree to FILE (.tar, .tar.gz or .tgz) after the run")
	fl.BoolVar(&o.ExportUnsafeGit, "export-unsafe-git", false, "also export what makes git on the host run commands: a git directory's config and hooks, .gitattributes naming a filter (left out by default)")
	fl.BoolVar(&o.Changes, "changes", false, "list the files the run added (A), modified (M) and deleted (D) on stderr")
	fl.StringArrayVar(&o.Policy, "policy", nil, "decide which commands may run, and the limits, from this policy `FILE` (YAML); repeat to layer files: the strictest decision wins")
	fl.BoolVar(&o.Check, "check", false, "check the script statically first (as sandsh check) and refuse to run it if there is an error finding")
	fl.BoolVar(&o.Yes, "yes", false, "allow the commands the policy's ask rules ask about (without a terminal, ask means deny)")
	fl.StringVar(&o.AskCommand, "ask-command", "", "answer the policy's ask rules with the host command `PROG` (run by the supervisor through /bin/sh: the question as JSON on its stdin; allow, deny or allow-session on its stdout)")
	durationVar(fl, &o.AskTimeout, "ask-timeout", worker.DefaultAskTimeout, "how long --ask-command may take to answer; then the command is denied")
	fl.StringVar(&o.Audit, "audit", "", "write the audit log (JSON Lines) to `FILE` (- for stderr)")
	fl.StringVar(&o.AuditRedact, "audit-redact", "", "mask argument values matching `REGEX` in the audit log")
	fl.StringSliceVar(&o.AllowRun, "allow-run", nil, "let the host program `NAME` run, in an OS jail that sees only the sandbox (repeatable, or a comma list)")
	fl.StringArrayVar(&o.JailRO, "jail-ro", nil, "show the host `PATH` read-only inside the jail too")
	fl.StringVar(&o.JailBackend, "jail-backend", "", "jail backend: ns, bwrap or auto (default $SANDSH_JAIL_BACKEND, else auto)")
	addNetFlags(fl, o)
	fl.BoolVar(&o.NoWorker, "no-worker", false, "run the script in this process instead of a supervised, confined worker (debugging)")
}

// seconds is a time-limit flag: a bare number is seconds, as timeout(1)
// reads it; anything else is a Go duration (policy.ParseDuration).
type seconds struct{ d *time.Duration }

func (s seconds) String() string {
	if s.d == nil {
		return ""
	}
	return s.d.String()
}
func (s seconds) Set(v string) (err error) { *s.d, err = policy.ParseDuration(v); return err }
func (s seconds) Type() string             { return "duration" }

func durationVar(fl *pflag.FlagSet, p *time.Duration, name string, def time.Duration, usage string) {
	*p = def
	fl.Var(seconds{p}, name, usage)
}

const runUsage = "sandsh run [flags] SCRIPT|- [args...]"

func newRunCmd(opts *Options) *cobra.Command {
	c := &cobra.Command{
		Use:   "run [flags] SCRIPT|- [args...]",
		Short: "Run a script file (- reads it from standard input)",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return worker.Usagef("run: no script given (usage: %s)", runUsage)
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			args, err := plusOptions(c, args)
			if err != nil {
				return err
			}
			opts.Args = args
			markChanged(c, opts)
			return statusErr(runMain(opts))
		},
	}
	c.Flags().SetInterspersed(false)
	addRunFlags(c.Flags(), opts)
	return c
}

// parseBytes parses a size flag ("64MiB", "1GiB", "512k", "1000").
func parseBytes(s string) (int64, error) { return worker.ParseBytes(s) }

// runMain decides what to run: -c text, a script file, stdin, or the REPL.
func runMain(o *Options) int {
	// A policy that cannot be used stops sandsh before anything runs;
	// its limits must be known before the worker starts.
	pol, err := o.LoadPolicy()
	if err != nil {
		return worker.ReportSetupError(o.IO.Err, err)
	}
	if o.Check {
		if status, refused := preCheck(o, pol); refused {
			return status // check.go
		}
	}
	return worker.Run(o, os.Args, runREPL)
}

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// markChanged remembers which flags the command line set, so a policy
// file's limits apply only where no flag overrides them.
func markChanged(c *cobra.Command, o *Options) {
	o.Changed = func(name string) bool { return c.Flags().Changed(name) }
}

func addNetFlags(fl *pflag.FlagSet, o *Options) {
	d := worker.DefaultOptions()
	fl.StringArrayVar(&o.AllowNet, "allow-net", nil, "let curl and wget reach `HOST[:PORT]` or a URL prefix https://HOST/PATH (repeatable)")
	fl.Int64Var(&o.MaxNetRequests, "max-net-requests", d.MaxNetRequests, "limit on network requests of the run, redirects included (0 = none)")
	fl.StringVar(&o.MaxNetBytes, "max-net-bytes", d.MaxNetBytes, "limit on the size of one network response or request body")
	durationVar(fl, &o.NetTimeout, "net-timeout", d.NetTimeout, "limit on the time of one network request, seconds or a duration (0 = none)")
}
