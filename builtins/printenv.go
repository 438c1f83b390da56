package builtins

import (
	"context"
	"strings"
)

const printenvUsage = `Usage: printenv [OPTION]... [VARIABLE]...
Print the values of the specified environment VARIABLE(s).
If no VARIABLE is specified, print name and value pairs for them all.

  -0, --null     end each output line with NUL, not newline
      --help     display this help and exit
`

var printenvGetopt = Getopt{Short: "0", Long: []string{"null"}, LongAlias: map[string]string{"null": "0"}}

func runPrintenv(ctx context.Context, env *Env, args []string) int {
	opts, ops, err := printenvGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(args[0], err, 2)
	}
	end := "\n"
	if len(opts) > 0 {
		end = "\x00"
	}
	if len(ops) == 0 {
		return envPrint(env, args[0], env.Environ, len(opts) > 0)
	}
	var b strings.Builder
	status := 0
	for _, name := range ops {
		v, ok := env.LookupEnv(name)
		if !ok || strings.Contains(name, "=") {
			status = 1
			continue
		}
		b.WriteString(v)
		b.WriteString(end)
	}
	if _, err := env.Stdout.Write([]byte(b.String())); err != nil {
		return env.WriteError(args[0], err)
	}
	return status
}
