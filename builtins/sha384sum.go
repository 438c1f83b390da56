package builtins

import "context"

func runSha384sum(ctx context.Context, env *Env, args []string) int {
	d, _ := dataDigestByName("sha384sum")
	return dataRunSum(ctx, env, args, d)
}
