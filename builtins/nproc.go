package builtins

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

const nprocUsage = `Usage: nproc [OPTION]...
Print the number of processing units available to the current process,
which may be less than the number of online processors

      --all      print the number of installed processors
      --ignore=N  if possible, exclude N processing units
`

var nprocGetopt = Getopt{Long: []string{"all", "ignore="}}

// runNproc reports the virtual CPU count, honouring OMP_NUM_THREADS and
// OMP_THREAD_LIMIT like GNU nproc.
func runNproc(ctx context.Context, env *Env, args []string) int {
	opts, ops, err := nprocGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(args[0], err, 1)
	}
	if len(ops) > 0 {
		return shellExtraOperand(env, args[0], ops[0], 1)
	}
	all, ignore := false, 0
	for _, o := range opts {
		switch o.Name {
		case "all":
			all = true
		case "ignore":
			n, err := strconv.ParseUint(strings.TrimSpace(o.Value), 10, 63)
			if err != nil {
				env.Errorf(args[0], "invalid number: %s", shellQuoteGNU(o.Value))
				return 1
			}
			ignore = int(min(n, 1<<31))
		}
	}
	n := env.System().NumCPU
	if n < 1 {
		n = 1
	}
	if !all {
		if v, ok := nprocOMP(env.Getenv("OMP_NUM_THREADS")); ok {
			n = v
		}
		if v, ok := nprocOMP(env.Getenv("OMP_THREAD_LIMIT")); ok && v < n {
			n = v
		}
	}
	n = max(n-ignore, 1)
	return shellPrintln(env, args[0], fmt.Sprint(n))
}

// nprocOMP parses the first value of an OMP_* list; 0 or junk is ignored.
func nprocOMP(s string) (int, bool) {
	s, _, _ = strings.Cut(strings.TrimSpace(s), ",")
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n <= 0 {
		return 0, false
	}
	return n, true
}
