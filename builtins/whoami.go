package builtins

import (
	"context"
	"fmt"
)

const whoamiUsage = `Usage: whoami [OPTION]...
Print the user name associated with the current effective user ID.
`

var whoamiGetopt = Getopt{}

func runWhoami(ctx context.Context, env *Env, args []string) int {
	_, ops, err := whoamiGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(args[0], err, 1)
	}
	if len(ops) > 0 {
		return env.UsageError(args[0], fmt.Errorf("extra operand %s", shellQuoteGNU(ops[0])), 1)
	}
	return shellPrintln(env, args[0], env.System().User)
}

// shellPrintln writes one line to stdout, turning a failed write into a
// status.
func shellPrintln(env *Env, name, line string) int {
	if _, err := fmt.Fprintln(env.Stdout, line); err != nil {
		return env.WriteError(name, err)
	}
	return 0
}

// shellExtraOperand reports the first unexpected operand like coreutils.
func shellExtraOperand(env *Env, name, op string, status int) int {
	return env.UsageError(name, fmt.Errorf("extra operand %s", shellQuoteGNU(op)), status)
}
