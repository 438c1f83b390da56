package builtins

import (
	"context"
	"fmt"
)

const falseUsage = `Usage: false [ignored command line arguments]
  or:  false OPTION
Exit with a status code indicating failure.
`

// runFalse fails; even its --help exits 1, as coreutils' does.
func runFalse(ctx context.Context, env *Env, args []string) int {
	if len(args) == 2 && args[1] == "--help" {
		fmt.Fprint(env.Stdout, falseUsage)
	}
	return 1
}
