// Package cmd is sandsh's command line: flag parsing, choosing the
// filesystem and mode, and turning a run's outcome into an exit status.
// Each subcommand lives in its own file with an options struct and a
// function that does the work, which tests call without the CLI.
package cmd

import (
	"errors"
	"fmt"
	"os"

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
		InTerminal: isTerminal(os.Stdin), Getenv: os.Getenv, Getwd: os.Getwd})
}

// Run runs sandsh with args on the given streams.
func Run(args []string, stdio IO) int {
	root := newRootCmd(stdio)
	root.SetArgs(args)
	root.SetIn(stdio.In)
	root.SetOut(stdio.Out)
	root.SetErr(stdio.Err)
	err := root.Execute()
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.status
	}
	fmt.Fprintf(stdio.Err, "sandsh: %v\n", err)
	return ExitUsage
}

func newRootCmd(stdio IO) *cobra.Command {
	opts := &Options{IO: stdio}
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
			if opts.Command != nil || c.Flags().Changed("command") {
				s, _ := c.Flags().GetString("command")
				opts.Command = &s
			}
			opts.Args = args
			markChanged(c, opts)
			return statusErr(runMain(opts))
		},
	}
	root.Flags().SetInterspersed(false)
	root.Flags().StringP("command", "c", "", "run `COMMANDS` instead of a script file")
	addRunFlags(root.PersistentFlags(), opts)
	root.AddCommand(newRunCmd(opts), newVersionCmd(stdio), newCommandsCmd(stdio), newMCPCmd(opts), newPolicyCmd(opts), newCheckCmd(stdio), newAuditCmd(stdio))
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return worker.Usagef("%v", err) })
	root.CompletionOptions.DisableDefaultCmd = true
	return root
}

func statusErr(status int) error {
	if status == 0 {
		return nil
	}
	return &exitError{status}
}
