package builtins

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
)

const basenameUsage = `Usage: basename NAME [SUFFIX]
  or:  basename OPTION... NAME...
Print NAME with any leading directory components removed.
If specified, also remove a trailing SUFFIX.

  -a, --multiple       support multiple arguments and treat each as a NAME
  -s, --suffix=SUFFIX  remove a trailing SUFFIX; implies -a
  -z, --zero           end each output line with NUL, not newline
      --help     display this help and exit
`

var basenameGetopt = Getopt{
	Short:     "+as:z",
	Long:      []string{"multiple", "suffix=", "zero"},
	LongAlias: map[string]string{"multiple": "a", "suffix": "s", "zero": "z"},
}

func runBasename(ctx context.Context, env *Env, args []string) int {
	opts, operands, err := basenameGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("basename", err, 1)
	}
	multiple, eol, suffix := false, byte('\n'), ""
	for _, o := range opts {
		switch o.Name {
		case "a":
			multiple = true
		case "s":
			multiple, suffix = true, o.Value
		case "z":
			eol = 0
		}
	}
	if len(operands) == 0 {
		return env.UsageError("basename", errors.New("missing operand"), 1)
	}
	if !multiple {
		switch len(operands) {
		case 1:
		case 2:
			suffix = operands[1]
			operands = operands[:1]
		default:
			return env.UsageError("basename", fmt.Errorf("extra operand %s", fileutil.Quote(operands[2])), 1)
		}
	}
	out := filesNewWriter(env.Stdout)
	for _, name := range operands {
		out.WriteString(basenameOf(name, suffix))
		out.WriteByte(eol)
	}
	if err := out.Flush(); err != nil {
		return env.WriteError("basename", err)
	}
	return 0
}

// basenameOf strips directories and then suffix, unless that would
// leave nothing, as POSIX basename does.
func basenameOf(name, suffix string) string {
	if name == "" {
		return ""
	}
	t := strings.TrimRight(name, "/")
	if t == "" {
		return "/"
	}
	if i := strings.LastIndexByte(t, '/'); i >= 0 {
		t = t[i+1:]
	}
	if suffix != "" && t != suffix && strings.HasSuffix(t, suffix) {
		t = t[:len(t)-len(suffix)]
	}
	return t
}
