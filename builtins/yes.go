package builtins

import (
	"context"
	"strings"
)

const yesUsage = `Usage: yes [STRING]...
  or:  yes OPTION
Repeatedly output a line with all specified STRING(s), or 'y'.
`

// runYes writes its line until the reader goes away or ctx is done. The
// line is repeated into one large buffer so each write moves many lines.
func runYes(ctx context.Context, env *Env, args []string) int {
	ops := args[1:]
	if len(ops) > 0 && ops[0] == "--" {
		ops = ops[1:]
	} else if len(ops) > 0 && len(ops[0]) > 1 && ops[0][0] == '-' {
		if _, _, err := (Getopt{}).Parse(ops[:1]); err != nil {
			return env.UsageError(args[0], err, 1)
		}
	}
	line := "y\n"
	if len(ops) > 0 {
		line = strings.Join(ops, " ") + "\n"
	}
	const bufSize = 64 << 10
	n := max(bufSize/len(line), 1)
	buf := []byte(strings.Repeat(line, n))
	for {
		if err := ctx.Err(); err != nil {
			return 130
		}
		if _, err := env.Stdout.Write(buf); err != nil {
			return env.WriteError(args[0], err)
		}
	}
}
