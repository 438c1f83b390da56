package builtins

import "context"

func runBzcat(ctx context.Context, env *Env, args []string) int {
	return zMain(ctx, env, bzip2Format, args, true, true)
}
