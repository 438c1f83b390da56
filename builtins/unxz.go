package builtins

import "context"

func runUnxz(ctx context.Context, env *Env, args []string) int {
	return zMain(ctx, env, xzFormat, args, true, false)
}
