package builtins

import (
	"context"
	"fmt"
)

const trueUsage = `Usage: true [ignored command line arguments]
  or:  true OPTION
Exit with a status code indicating success.
`

// runTrue ignores its arguments, except a lone --help like coreutils.
func runTrue(ctx context.Context, env *Env, args []string) int {
	if len(args) == 2 && args[1] == "--help" {
		fmt.Fprint(env.Stdout, trueUsage)
	}
	return 0
}
