package builtins

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

const niceUsage = `Usage: nice [OPTION] [COMMAND [ARG]...]
Run COMMAND with an adjusted niceness, which affects process scheduling.
With no COMMAND, print the current niceness.

  -n, --adjustment=N   add integer N to the niceness (default 10)
`

// niceOldStyle matches the obsolete "-N" / "--N" adjustment forms.
func niceOldStyle(s string) bool {
	if len(s) < 2 || s[0] != '-' {
		return false
	}
	s = s[1:]
	if s[0] == '-' {
		s = s[1:]
	}
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	return s != "" && strings.Trim(s, "0123456789") == ""
}

var niceGetopt = Getopt{Short: "+n:", Long: []string{"adjustment=", "help"},
	LongAlias: map[string]string{"adjustment": "n"}}

// runNice runs the command unchanged: the sandbox has no scheduler
// priorities, but the adjustment is still validated.
func runNice(ctx context.Context, env *Env, args []string) int {
	rest := args[1:]
	adjust, hasAdjust := "", false
	if len(rest) > 0 && niceOldStyle(rest[0]) {
		adjust, hasAdjust = rest[0][1:], true
		rest = rest[1:]
	}
	opts, ops, err := niceGetopt.Parse(rest)
	if err != nil {
		return env.UsageError(args[0], err, envStatusUsage)
	}
	if shellHelp(env, opts, niceUsage) {
		return 0
	}
	for _, o := range opts {
		adjust, hasAdjust = o.Value, true
	}
	if hasAdjust {
		if _, err := strconv.ParseInt(adjust, 10, 64); err != nil {
			if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
				env.Errorf(args[0], "invalid adjustment %s", shellQuoteGNU(adjust))
				return envStatusUsage
			}
		}
	}
	if len(ops) == 0 {
		if hasAdjust {
			return env.UsageError(args[0], errors.New("a command must be given with an adjustment"), envStatusUsage)
		}
		return shellPrintln(env, args[0], fmt.Sprint(0))
	}
	st, found := shellExec(ctx, env, env, "nice", ops)
	if !found {
		env.Errorf(args[0], "%s: No such file or directory", shellQuoteGNU(ops[0]))
	}
	return st
}
