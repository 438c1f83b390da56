package builtins

import "context"

// runFgrep is GNU's fgrep script: grep -F with the same arguments.
func runFgrep(ctx context.Context, env *Env, args []string) int {
	return runGrep(ctx, env, append([]string{"grep", "-F"}, args[1:]...))
}
