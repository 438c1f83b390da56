package builtins

import "context"

func runSha512sum(ctx context.Context, env *Env, args []string) int {
	d, _ := dataDigestByName("sha512sum")
	return dataRunSum(ctx, env, args, d)
}
