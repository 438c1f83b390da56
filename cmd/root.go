// Package cmd is sandsh's command line: flag parsing, choosing the
// filesystem and mode, and turning a run's outcome into an exit status.
// Each subcommand lives in its own file with an options struct and a
// function that does the work, which tests call without the CLI.
package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/sandsh/sandsh/jail"
)

// Exit statuses of sandsh itself. A script's own status passes through
// unchanged; these are what sandsh returns when the script could not run
// to its end.
const (
	ExitSyntax   = 2   // the script has a syntax error (like bash)
	ExitUsage    = 64  // bad flag, bad --fs, missing --base/--root directory
	ExitInternal = 70  // a bug in sandsh: a recovered panic
	ExitTimeout  = 124 // --timeout expired (like timeout(1))
	ExitLimit    = 125 // any other limit was exceeded
	ExitNotExec  = 126 // the script is a directory or unreadable
	ExitNotFound = 127 // the script file does not exist
)

// usageError is a bad invocation: one line and ExitUsage.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// exitError carries a status out of a cobra command.
type exitError struct{ status int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.status) }

// IO is the process's standard streams, injected for tests.
type IO struct {
	In       io.Reader
	Out, Err io.Writer
	// InTerminal reports whether In is an interactive terminal.
	InTerminal bool
	// Getenv reads the host environment (only for --env NAME and
	// NO_COLOR/TERM).
	Getenv func(string) string
	// Getwd is the host working directory (for --fs disk).
	Getwd func() (string, error)
}

// Main runs sandsh with args and returns its exit status.
func Main(args []string) int {
	if jail.IsInit() {
		return jail.InitMain() // a jail's first process (package jail)
	}
	if isWorker() {
		return workerMain() // the run comes from the parent sandsh (worker.go)
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
	root.AddCommand(newRunCmd(opts), newVersionCmd(stdio), newCommandsCmd(stdio), newMCPCmd(opts), newPolicyCmd(opts), newCheckCmd(stdio))
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usagef("%v", err) })
	root.CompletionOptions.DisableDefaultCmd = true
	return root
}

func statusErr(status int) error {
	if status == 0 {
		return nil
	}
	return &exitError{status}
}
