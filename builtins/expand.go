package builtins

import (
	"context"
	"github.com/sandsh/sandsh/builtins/internal/guard"
)

const expandUsage = `Usage: expand [OPTION]... [FILE]...
Convert tabs in each FILE to spaces, writing to standard output.

With no FILE, or when FILE is -, read standard input.

  -i, --initial    do not convert tabs after non blanks
  -t, --tabs=N     have tabs N characters apart, not 8
  -t, --tabs=LIST  use comma separated list of tab positions.
                     The last specified position can be prefixed with '/'
                     to specify a tab size to use after the last
                     explicitly specified tab stop.  Also a prefix of '+'
                     can be used to align remaining tab stops relative to
                     the last specified tab stop instead of the first column
      --help     display this help and exit
`

var expandGetopt = Getopt{
	Short:        "it:",
	Long:         []string{"initial", "tabs="},
	LongAlias:    map[string]string{"initial": "i", "tabs": "t"},
	NumericShort: true,
}

func runExpand(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	opts, files, err := expandGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(name, err, 1)
	}
	var tabs textTabs
	initial := false
	for _, o := range opts {
		switch o.Name {
		case "i":
			initial = true
		case "t", "#":
			if err := tabs.add(o.Value); err != nil {
				env.Errorf(name, "%v", err)
				return 1
			}
		}
	}
	if err := tabs.finish(); err != nil {
		env.Errorf(name, "%v", err)
		return 1
	}
	w := newTextWriter(env.Stdout)
	meter := guard.NewMeter(ctx)
	column, idx, convert := 0, 0, true
	status, err := textEachChunk(ctx, env, name, files, func(chunk []byte) error {
		for _, c := range chunk {
			if convert {
				switch c {
				case '\t':
					next, last := tabs.next(column, &idx)
					if last {
						next = column + 1
					}
					// A tab stop may be as far as the script asks:
					// pad in metered blocks that stop on a write error.
					if err := guard.Repeat(w, meter, ' ', next-column-1); err != nil {
						return err
					}
					column = next
					c = ' '
				case '\b':
					if column > 0 {
						column--
					}
					if idx > 0 {
						idx--
					}
				default:
					column++
				}
				convert = convert && (!initial || textIsBlank(c))
			}
			if err := w.WriteByte(c); err != nil {
				return err
			}
			if c == '\n' {
				column, idx, convert = 0, 0, true
			}
		}
		return nil
	})
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return env.WriteError(name, err)
	}
	return status
}
