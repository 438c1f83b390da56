package builtins

import "context"

func runSha256sum(ctx context.Context, env *Env, args []string) int {
	d, _ := dataDigestByName("sha256sum")
	return dataRunSum(ctx, env, args, d)
}
