package builtins

import "context"

// runEgrep is GNU's egrep script: grep -E with the same arguments.
func runEgrep(ctx context.Context, env *Env, args []string) int {
	return runGrep(ctx, env, append([]string{"grep", "-E"}, args[1:]...))
}
