package interp

import (
	"fmt"
	"time"

	"github.com/sandsh/sandsh/internal/units"
)

// Limits bound what one run may consume. Zero means "no limit" for every
// field. The defaults are generous enough for ordinary work (a 100k
// iteration loop, fib(20), sorting a 100 MB file) and small enough that a
// runaway script ends quickly with a clear error.
type Limits struct {
	Timeout       time.Duration
	MaxCommands   int64 // simple commands run in total
	MaxLoopIters  int64 // iterations of any single loop
	MaxCallDepth  int   // functions, source, eval, nested shells, traps
	MaxSubstDepth int   // nested $( ) and <( )
	MaxJobs       int   // goroutines alive for jobs, pipeline stages, substitutions
	MaxOutput     int64 // bytes written to the run's stdout and stderr
	MaxVarBytes   int   // size of one variable value
	MaxCapture    int64 // bytes one command substitution may capture
	MaxScript     int64 // bytes of script text for the top level, eval and source
	MaxHeredoc    int64 // bytes of one here-document or here-string
	MaxFields     int   // fields one command's words expand to (brace expansion, splitting, "${a[@]}")
}

// DefaultLimits are the limits a run gets unless configured otherwise.
func DefaultLimits() Limits {
	return Limits{
		Timeout:       60 * time.Second,
		MaxCommands:   10_000_000,
		MaxLoopIters:  10_000_000,
		MaxCallDepth:  1000,
		MaxSubstDepth: 64,
		MaxJobs:       512,
		MaxOutput:     64 << 20,
		MaxVarBytes:   64 << 20,
		MaxCapture:    64 << 20,
		MaxScript:     16 << 20,
		MaxHeredoc:    16 << 20,
		MaxFields:     1 << 20,
	}
}

// LimitError reports that a run exceeded one of its limits.
type LimitError struct {
	Limit string // flag-style name, e.g. "max-commands"
	Value string
	// Where is what bash would put before an error of the command that
	// hit the limit ("script.sh: line 7"), when the runner knows it.
	Where string
}

// Prefix is what the message about e starts with: Where, else "sandsh".
func (e *LimitError) Prefix() string {
	if e.Where != "" {
		return e.Where
	}
	return "sandsh"
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("limit exceeded: %s %s", e.Limit, e.Value)
}

// InternalError wraps a recovered panic: always a bug in sandsh.
type InternalError struct {
	Value any
	Stack string
}

func (e *InternalError) Error() string { return fmt.Sprintf("internal error: %v", e.Value) }

// SyntaxError is a parse error in the script, formatted like
// "FILE:LINE:COL: message".
type SyntaxError struct{ Err error }

func (e *SyntaxError) Error() string { return e.Err.Error() }
func (e *SyntaxError) Unwrap() error { return e.Err }

func isSyntax(err error) bool {
	_, ok := err.(*SyntaxError)
	return ok
}

// FormatBytes renders a byte count the way limit messages show it.
func FormatBytes(n int64) string { return units.FormatBytes(n) }

func (r *Runner) limitHit(name, value string) {
	r.limitErr(name, value)
}

// limitErr records that a limit was hit by the command running now: the
// run ends with it, and its message starts with the file and line, as
// bash's errors do.
func (r *Runner) limitErr(name, value string) *LimitError {
	le := &LimitError{Limit: name, Value: value, Where: r.errPrologue()}
	r.s.fail(le)
	return le
}
