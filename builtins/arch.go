package builtins

import "context"

const archUsage = `Usage: arch [OPTION]...
Print machine architecture.
`

var archGetopt = Getopt{}

func runArch(ctx context.Context, env *Env, args []string) int {
	_, ops, err := archGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(args[0], err, 1)
	}
	if len(ops) > 0 {
		return shellExtraOperand(env, args[0], ops[0], 1)
	}
	return shellPrintln(env, args[0], shellMachine)
}

// shellMachine is the virtual machine's hardware name.
const shellMachine = "x86_64"
