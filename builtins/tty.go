package builtins

import "context"

const ttyUsage = `Usage: tty [OPTION]...
Print the file name of the terminal connected to standard input.

  -s, --silent, --quiet   print nothing, only return an exit status
`

var ttyGetopt = Getopt{Short: "s", Long: []string{"silent", "quiet"},
	LongAlias: map[string]string{"silent": "s", "quiet": "s"}}

// runTty reports that stdin is not a terminal: sandsh never has one.
func runTty(ctx context.Context, env *Env, args []string) int {
	opts, ops, err := ttyGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(args[0], err, 2)
	}
	if len(ops) > 0 {
		return shellExtraOperand(env, args[0], ops[0], 2)
	}
	if len(opts) > 0 {
		return 1
	}
	if st := shellPrintln(env, args[0], "not a tty"); st != 0 {
		return st
	}
	return 1
}
