package builtins

import "context"

func runBunzip2(ctx context.Context, env *Env, args []string) int {
	return zMain(ctx, env, bzip2Format, args, true, false)
}
