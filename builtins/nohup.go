package builtins

import (
	"context"
	"errors"
)

const nohupUsage = `Usage: nohup COMMAND [ARG]...
  or:  nohup OPTION
Run COMMAND, ignoring hangup signals.
`

var nohupGetopt = Getopt{Short: "+", Long: []string{"help"}}

// runNohup just runs the command: sandsh has no terminal, so GNU nohup's
// redirections to nohup.out never apply.
func runNohup(ctx context.Context, env *Env, args []string) int {
	opts, ops, err := nohupGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(args[0], err, envStatusUsage)
	}
	if shellHelp(env, opts, nohupUsage) {
		return 0
	}
	if len(ops) == 0 {
		return env.UsageError(args[0], errors.New("missing operand"), envStatusUsage)
	}
	st, found := shellExec(ctx, env, env, "nohup", ops)
	if !found {
		env.Errorf(args[0], "failed to run command %s: No such file or directory", shellQuoteGNU(ops[0]))
	}
	return st
}
