package builtins

import "context"

// fgrepImplied is what GNU's fgrep script puts before the arguments.
var fgrepImplied = []string{"-F"}

// runFgrep is GNU's fgrep script: grep -F with the same arguments.
func runFgrep(ctx context.Context, env *Env, args []string) int {
	return runGrep(ctx, env, append(append([]string{"grep"}, fgrepImplied...), args[1:]...))
}
