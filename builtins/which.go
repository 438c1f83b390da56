package builtins

import (
	"context"
	"fmt"
	"strings"
)

const whichUsage = `Usage: which [-a] args
Locate a command: print the path that would run for each name.

  -a   print all matching pathnames of each argument
`

// runWhich asks the gateway where each name would run from: the first
// place on $PATH, or with -a every place.
func runWhich(ctx context.Context, env *Env, args []string) int {
	var names []string
	all := false
	for i, a := range args[1:] {
		if a == "--" {
			names = append(names, args[i+2:]...)
			break
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 && len(names) == 0 {
			if strings.Trim(a[1:], "a") != "" {
				fmt.Fprintf(env.Stderr, "Illegal option %s\nUsage: %s [-a] args\n", a, args[0])
				return 2
			}
			all = all || strings.Contains(a, "a")
			continue
		}
		names = append(names, a)
	}
	status := 0
	if len(names) == 0 {
		return 1
	}
	var b strings.Builder
	for _, n := range names {
		var found []string
		if all && env.LookPathAll != nil {
			found = env.LookPathAll(n)
		} else if env.LookPath != nil {
			if p, ok := env.LookPath(n); ok {
				found = []string{p}
			}
		}
		if len(found) == 0 {
			status = 1
			continue
		}
		for _, p := range found {
			b.WriteString(p)
			b.WriteByte('\n')
		}
	}
	if _, err := fmt.Fprint(env.Stdout, b.String()); err != nil {
		return env.WriteError(args[0], err)
	}
	return status
}
