package builtins

import "context"

func runZcat(ctx context.Context, env *Env, args []string) int {
	return dataRunGzip(ctx, env, args, true, true)
}
