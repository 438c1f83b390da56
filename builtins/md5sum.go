package builtins

import "context"

func runMd5sum(ctx context.Context, env *Env, args []string) int {
	d, _ := dataDigestByName("md5sum")
	return dataRunSum(ctx, env, args, d)
}
