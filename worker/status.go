package worker

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Exit statuses of sandsh itself. A script's own status passes through
// unchanged; these are what sandsh returns when the script could not run
// to its end.
const (
	ExitSyntax   = 2   // the script has a syntax error (like bash)
	ExitState    = 65  // the --state file cannot be used (sysexits' EX_DATAERR)
	ExitUsage    = 64  // bad flag, bad --fs, missing --base/--root directory
	ExitInternal = 70  // a bug in sandsh: a recovered panic
	ExitIOErr    = 74  // a host file written for the operator (--export, --export-tar, --audit) failed (sysexits' EX_IOERR)
	ExitConfig   = 78  // the policy file cannot be used (sysexits' EX_CONFIG): nothing ran
	ExitTimeout  = 124 // --timeout expired (like timeout(1))
	ExitLimit    = 125 // any other limit was exceeded
	ExitNotExec  = 126 // the script is a directory or unreadable
	ExitNotFound = 127 // the script file does not exist
)

// usageError is a bad invocation: one line and ExitUsage.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// Usagef is a bad invocation: reported as one line, with ExitUsage.
func Usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

func usagef(format string, a ...any) error { return Usagef(format, a...) }

// ExitError is a failure the worker has already reported: only its
// status is left to return.
type ExitError struct{ Status int }

func (e *ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Status) }

// IO is the process's standard streams, injected for tests.
type IO struct {
	In       io.Reader
	Out, Err io.Writer
	// InTerminal reports whether In is an interactive terminal.
	InTerminal bool
	// Getenv reads the host environment (only for --env NAME and
	// NO_COLOR/TERM).
	Getenv func(string) string
	// Environ lists the host environment (for --env PREFIX*, and to
	// tell an unset --env NAME from an empty one); nil: Getenv alone,
	// where an empty value counts as unset.
	Environ func() []string
	// Getwd is the host working directory (for --fs disk).
	Getwd func() (string, error)
}

// lookupEnv reads host variable name and whether it is set.
func (io IO) lookupEnv(name string) (string, bool) {
	if io.Environ != nil {
		for _, kv := range io.Environ() {
			if k, v, _ := strings.Cut(kv, "="); k == name {
				return v, true
			}
		}
		return "", false
	}
	if io.Getenv == nil {
		return "", false
	}
	v := io.Getenv(name)
	return v, v != ""
}

// hostVars is the host variables whose names start with prefix, as
// NAME=VALUE, sorted.
func (io IO) hostVars(prefix string) []string {
	if io.Environ == nil {
		return nil
	}
	var l []string
	for _, kv := range io.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, prefix) && validName(k) {
			l = append(l, kv)
		}
	}
	slices.Sort(l)
	return l
}
