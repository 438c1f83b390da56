package builtins

import (
	"context"
	"errors"
	"strings"
)

const dirnameUsage = `Usage: dirname [OPTION] NAME...
Output each NAME with its last non-slash component and trailing slashes
removed; if NAME contains no /'s, output '.' (meaning the current directory).

  -z, --zero     end each output line with NUL, not newline
      --help     display this help and exit
`

var dirnameGetopt = Getopt{
	Short:     "z",
	Long:      []string{"zero"},
	LongAlias: map[string]string{"zero": "z"},
}

func runDirname(ctx context.Context, env *Env, args []string) int {
	opts, operands, err := dirnameGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("dirname", err, 1)
	}
	eol := byte('\n')
	if len(opts) > 0 {
		eol = 0
	}
	if len(operands) == 0 {
		return env.UsageError("dirname", errors.New("missing operand"), 1)
	}
	out := filesNewWriter(env.Stdout)
	for _, name := range operands {
		out.WriteString(dirnameOf(name))
		out.WriteByte(eol)
	}
	if err := out.Flush(); err != nil {
		return env.WriteError("dirname", err)
	}
	return 0
}

// dirnameOf is POSIX dirname: "a/b/" -> "a", "a" -> ".", "/" -> "/".
func dirnameOf(name string) string {
	t := strings.TrimRight(name, "/")
	if t == "" {
		if strings.HasPrefix(name, "/") {
			return "/"
		}
		return "."
	}
	i := strings.LastIndexByte(t, '/')
	if i < 0 {
		return "."
	}
	d := strings.TrimRight(t[:i], "/")
	if d == "" {
		return "/"
	}
	return d
}
