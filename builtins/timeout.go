package builtins

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

const timeoutUsage = `Usage: timeout [OPTION] DURATION COMMAND [ARG]...
  or:  timeout [OPTION]
Start COMMAND, and kill it if still running after DURATION.

      --preserve-status
                 exit with the same status as COMMAND, even when the
                   command times out
      --foreground
                 when not running timeout directly from a shell prompt,
                   allow COMMAND to read from the TTY and get TTY signals
  -k, --kill-after=DURATION
                 also send a KILL signal if COMMAND is still running
                   this long after the initial signal was sent
  -s, --signal=SIGNAL
                 specify the signal to be sent on timeout
  -v, --verbose  diagnose to stderr any signal sent upon timeout

DURATION is a floating point number with an optional suffix:
's' for seconds (the default), 'm' for minutes, 'h' for hours or 'd' for days.
A duration of 0 disables the associated timeout.

If the command times out, and --preserve-status is not set, then exit with
status 124.
`

// timeoutSignals maps signal names to numbers; a command stopped by the
// timeout "dies" of the chosen signal under --preserve-status.
func timeoutSignals() map[string]int {
	return map[string]int{"HUP": 1, "INT": 2, "QUIT": 3, "ILL": 4, "TRAP": 5, "ABRT": 6,
		"IOT": 6, "BUS": 7, "FPE": 8, "KILL": 9, "USR1": 10, "SEGV": 11, "USR2": 12, "PIPE": 13,
		"ALRM": 14, "TERM": 15, "STKFLT": 16, "CHLD": 17, "CONT": 18, "STOP": 19, "TSTP": 20,
		"TTIN": 21, "TTOU": 22, "URG": 23, "XCPU": 24, "XFSZ": 25, "VTALRM": 26, "PROF": 27,
		"WINCH": 28, "IO": 29, "POLL": 29, "PWR": 30, "SYS": 31}
}

var timeoutGetopt = Getopt{Short: "+k:s:v", Long: []string{"kill-after=", "signal=", "verbose", "preserve-status", "foreground", "help"},
	LongAlias: map[string]string{"kill-after": "k", "signal": "s", "verbose": "v"}}

// runTimeout runs the command under a deadline; commands stop when their
// ctx is done, which stands in for the signal.
func runTimeout(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	opts, ops, err := timeoutGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(name, err, envStatusUsage)
	}
	if shellHelp(env, opts, timeoutUsage) {
		return 0
	}
	sig, sigName, verbose, preserve := 15, "TERM", false, false
	for _, o := range opts {
		switch o.Name {
		case "k":
			if _, ok := shellParseDuration(o.Value); !ok {
				return env.UsageError(name, fmt.Errorf("invalid time interval %s", shellQuoteGNU(o.Value)), envStatusUsage)
			}
		case "s":
			n, label, ok := timeoutSignal(o.Value)
			if !ok {
				return env.UsageError(name, fmt.Errorf("%s: invalid signal", shellQuoteGNU(o.Value)), envStatusUsage)
			}
			sig, sigName = n, label
		case "v":
			verbose = true
		case "preserve-status":
			preserve = true
		}
	}
	if len(ops) < 2 {
		if len(ops) == 1 {
			if _, ok := shellParseDuration(ops[0]); !ok {
				return env.UsageError(name, fmt.Errorf("invalid time interval %s", shellQuoteGNU(ops[0])), envStatusUsage)
			}
		}
		fmt.Fprintf(env.Stderr, "Try '%s --help' for more information.\n", name)
		return envStatusUsage
	}
	secs, ok := shellParseDuration(ops[0])
	if !ok {
		return env.UsageError(name, fmt.Errorf("invalid time interval %s", shellQuoteGNU(ops[0])), envStatusUsage)
	}
	runCtx := ctx
	if secs > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, shellDuration(secs))
		defer cancel()
	}
	st, found := shellExec(runCtx, env, env, "timeout", ops[1:])
	if !found {
		env.Errorf(name, "failed to run command %s: No such file or directory", shellQuoteGNU(ops[1]))
		return st
	}
	if ctx.Err() == nil && errors.Is(runCtx.Err(), context.DeadlineExceeded) {
		if verbose {
			env.Errorf(name, "sending signal %s to command %s", sigName, shellQuoteGNU(ops[1]))
		}
		if preserve {
			return 128 + sig
		}
		return 124
	}
	return st
}

// timeoutSignal parses a signal given by name (TERM, SIGTERM) or number.
func timeoutSignal(s string) (int, string, bool) {
	if n, err := strconv.Atoi(s); err == nil {
		for k, v := range timeoutSignals() {
			if v == n && k != "IOT" && k != "POLL" {
				return n, k, true
			}
		}
		return n, s, n >= 0 && n <= 64
	}
	up := strings.TrimPrefix(strings.ToUpper(s), "SIG")
	n, ok := timeoutSignals()[up]
	return n, up, ok && s == strings.ToUpper(s)
}
