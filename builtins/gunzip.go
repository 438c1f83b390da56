package builtins

import "context"

func runGunzip(ctx context.Context, env *Env, args []string) int {
	return dataRunGzip(ctx, env, args, true, false)
}
