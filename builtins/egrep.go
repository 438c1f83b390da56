package builtins

import "context"

// egrepImplied is what GNU's egrep script puts before the arguments; the
// option table (options.go) says the same, so a policy reads egrep as grep.
var egrepImplied = []string{"-E"}

// runEgrep is GNU's egrep script: grep -E with the same arguments.
func runEgrep(ctx context.Context, env *Env, args []string) int {
	return runGrep(ctx, env, append(append([]string{"grep"}, egrepImplied...), args[1:]...))
}
