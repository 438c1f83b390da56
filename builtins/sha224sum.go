package builtins

import "context"

func runSha224sum(ctx context.Context, env *Env, args []string) int {
	d, _ := dataDigestByName("sha224sum")
	return dataRunSum(ctx, env, args, d)
}
