package builtins

import "context"

func runXzcat(ctx context.Context, env *Env, args []string) int {
	return zMain(ctx, env, xzFormat, args, true, true)
}
