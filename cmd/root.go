// Package cmd is sandsh's command line: flag parsing, choosing the
// filesystem and mode, and turning a run's outcome into an exit status.
// Each subcommand lives in its own file with an options struct and a
// function that does the work, which tests call without the CLI.
package cmd

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sandsh/sandsh/jail"
	"github.com/sandsh/sandsh/worker"
)

// Exit statuses of sandsh itself (package worker's). A script's own
// status passes through unchanged; these are what sandsh returns when the
// script could not run to its end.
const (
	ExitSyntax   = worker.ExitSyntax
	ExitUsage    = worker.ExitUsage
	ExitInternal = worker.ExitInternal
	ExitTimeout  = worker.ExitTimeout
	ExitLimit    = worker.ExitLimit
	ExitNotExec  = worker.ExitNotExec
	ExitNotFound = worker.ExitNotFound
	ExitState    = worker.ExitState
	ExitConfig   = worker.ExitConfig
)

// exitError carries a status out of a cobra command.
type exitError struct{ status int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.status) }

// Main runs sandsh with args and returns its exit status.
func Main(args []string) int {
	if jail.IsInit() {
		return jail.InitMain() // a jail's first process (package jail)
	}
	if worker.IsWorker() {
		return worker.Main(nil) // the run comes from the parent sandsh (package worker)
	}
	return Run(args, IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr,
		InTerminal: isTerminal(os.Stdin), Getenv: os.Getenv, Environ: os.Environ, Getwd: os.Getwd})
}

// Run runs sandsh with args on the given streams.
func Run(args []string, stdio IO) int {
	// With --json, a run that ends before its result is printed (a
	// missing script, a bad flag, a bad policy) still prints one JSON
	// object: JSONErrors watches both streams for that.
	je := worker.WatchJSONErrors(&stdio, jsonFlag(args))
	opts := &Options{IO: stdio}
	root := newRootCmdWith(opts)
	root.SetArgs(args)
	root.SetIn(stdio.In)
	root.SetOut(stdio.Out)
	root.SetErr(stdio.Err)
	c, err := root.ExecuteC()
	status := 0
	var ee *exitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		status = ee.status
	default:
		fmt.Fprintf(stdio.Err, "sandsh: %v\n", err)
		status = ExitUsage
	}
	if c == root || c.Name() == "run" {
		// A command line that parsed says itself whether --json is on;
		// one that did not may name it anywhere (jsonFlag).
		var fe *flagError
		je.Finish(opts.JSON || opts.JSONStream || errors.As(err, &fe) && jsonFlag(args), status)
	}
	return status
}

// flagError is a command line whose flags did not parse.
type flagError struct{ error }

func (e *flagError) Unwrap() error { return e.error }

// jsonFlag reports whether --json is among sandsh's own arguments, for
// a command line that failed before its flags were all parsed.
func jsonFlag(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "--json", "--json=true", "--json-stream", "--json-stream=true":
			return true
		}
	}
	return false
}

func newRootCmd(stdio IO) *cobra.Command { return newRootCmdWith(&Options{IO: stdio}) }

// newRootCmdWith is the command tree around opts, which the flags fill.
func newRootCmdWith(opts *Options) *cobra.Command {
	stdio := opts.IO
	root := &cobra.Command{
		Use:   "sandsh [flags] [-c command [name [args...]] | script [args...]]",
		Short: "Run untrusted bash scripts in a sandbox",
		Long: `sandsh runs bash scripts with bash semantics and no side effects on the host.
Scripts see a sandbox filesystem (in memory by default) and can run only
sandsh's in-process commands unless --fs disk is chosen without -r.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			args, err := plusOptions(c, args)
			if err != nil {
				return err
			}
			if opts.Command != nil || c.Flags().Changed("command") {
				s, _ := c.Flags().GetString("command")
				opts.Command = &s
			}
			if opts.Command == nil && len(args) > 0 {
				if err := unknownCommand(c, args[0]); err != nil {
					return err
				}
			}
			opts.Args = args
			markChanged(c, opts)
			return statusErr(runMain(opts))
		},
	}
	root.Flags().SetInterspersed(false)
	root.Flags().StringP("command", "c", "", "run `COMMANDS` instead of a script file")
	root.Version = versionLine()
	root.SetVersionTemplate("{{.Version}}\n")
	// Each command takes only its own flags: the run flags belong to the
	// commands that run scripts (sandsh, run, mcp, policy).
	addRunFlags(root.Flags(), opts)
	mcp, pol := newMCPCmd(opts), newPolicyCmd(opts)
	addRunFlags(mcp.Flags(), opts)
	addRunFlags(pol.PersistentFlags(), opts)
	root.AddCommand(newRunCmd(opts), newVersionCmd(stdio), newCommandsCmd(stdio), mcp, pol, newCheckCmd(stdio), newAuditCmd(stdio), newManCmd(stdio))
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &flagError{worker.Usagef("%v", err)} })
	root.SuggestionsMinimumDistance = 2
	return root
}

// unknownCommand refuses a first argument that reads as a mistyped
// subcommand rather than a script: a bare word (no '/' and no '.') that
// names no existing host file. Anything else is a script path, and a
// missing one is status 127 as with bash.
func unknownCommand(root *cobra.Command, name string) error {
	if name == "-" || strings.ContainsAny(name, "/.") {
		return nil
	}
	if _, err := os.Lstat(name); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q", name)
	if s := root.SuggestionsFor(name); len(s) > 0 {
		msg += fmt.Sprintf(" (did you mean %q?)", s[0])
	}
	return worker.Usagef("%s", msg)
}

// plusOptions reads bash's +O NAME (turn a shopt option off, recorded
// as -O +NAME) where the flag parser stopped, and the flags after it.
func plusOptions(c *cobra.Command, args []string) ([]string, error) {
	for len(args) > 0 && args[0] == "+O" {
		if len(args) < 2 {
			return nil, &flagError{worker.Usagef("+O: option requires an argument")}
		}
		if err := c.Flags().Set("shopt", "+"+args[1]); err != nil {
			return nil, &flagError{worker.Usagef("%v", err)}
		}
		if err := c.Flags().Parse(args[2:]); err != nil {
			return nil, &flagError{worker.Usagef("%v", err)}
		}
		args = c.Flags().Args()
	}
	return args, nil
}

func statusErr(status int) error {
	if status == 0 {
		return nil
	}
	return &exitError{status}
}
