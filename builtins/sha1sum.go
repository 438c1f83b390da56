package builtins

import "context"

func runSha1sum(ctx context.Context, env *Env, args []string) int {
	d, _ := dataDigestByName("sha1sum")
	return dataRunSum(ctx, env, args, d)
}
