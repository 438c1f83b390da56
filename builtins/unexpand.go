package builtins

import (
	"context"
)

const unexpandUsage = `Usage: unexpand [OPTION]... [FILE]...
Convert blanks in each FILE to tabs, writing to standard output.

With no FILE, or when FILE is -, read standard input.

  -a, --all        convert all blanks, instead of just initial blanks
      --first-only  convert only leading sequences of blanks (overrides -a)
  -t, --tabs=N     have tabs N characters apart instead of 8 (enables -a)
  -t, --tabs=LIST  use comma separated list of tab positions.
                     The last specified position can be prefixed with '/'
                     to specify a tab size to use after the last
                     explicitly specified tab stop.  Also a prefix of '+'
                     can be used to align remaining tab stops relative to
                     the last specified tab stop instead of the first column
      --help     display this help and exit
`

var unexpandGetopt = Getopt{
	Short:        "at:",
	Long:         []string{"all", "first-only", "tabs="},
	LongAlias:    map[string]string{"all": "a", "tabs": "t"},
	NumericShort: true,
}

// textUnexpander is GNU unexpand's per-line state machine.
type textUnexpander struct {
	tabs                  *textTabs
	all                   bool
	convert               bool
	column, nextTab, idx  int
	oneBlankBeforeTabStop bool
	prevBlank             bool
	pending               []byte
}

func (u *textUnexpander) reset() {
	u.convert, u.column, u.nextTab, u.idx = true, 0, 0, 0
	u.oneBlankBeforeTabStop, u.prevBlank = false, true
	u.pending = u.pending[:0]
}

// step handles one input byte (c < 0 is end of input) and writes what
// can be decided.
func (u *textUnexpander) step(c int, w textWriter) error {
	if u.convert {
		blank := c == ' ' || c == '\t'
		switch {
		case blank:
			next, last := u.tabs.next(u.column, &u.idx)
			u.nextTab = next
			if last {
				u.convert = false
			}
			if u.convert {
				if c == '\t' {
					u.column = u.nextTab
					if len(u.pending) > 0 {
						u.pending[0] = '\t'
					}
				} else {
					u.column++
					if !(u.prevBlank && u.column == u.nextTab) {
						if u.column == u.nextTab {
							u.oneBlankBeforeTabStop = true
						}
						u.pending = append(u.pending, byte(c))
						u.prevBlank = true
						return nil
					}
					c = '\t'
					if len(u.pending) > 0 {
						u.pending[0] = '\t'
					}
				}
				if u.oneBlankBeforeTabStop {
					u.pending = u.pending[:min(1, len(u.pending))]
				} else {
					u.pending = u.pending[:0]
				}
			}
		case c == '\b':
			if u.column > 0 {
				u.column--
			}
			u.nextTab = u.column
			if u.idx > 0 {
				u.idx--
			}
		default:
			u.column++
		}
		if len(u.pending) > 0 {
			if len(u.pending) > 1 && u.oneBlankBeforeTabStop {
				u.pending[0] = '\t'
			}
			w.Write(u.pending)
			u.pending = u.pending[:0]
			u.oneBlankBeforeTabStop = false
		}
		u.prevBlank = blank
		u.convert = u.convert && (u.all || blank)
	}
	if c < 0 {
		return nil
	}
	if err := w.WriteByte(byte(c)); err != nil {
		return err
	}
	if c == '\n' {
		u.reset()
	}
	return nil
}

func runUnexpand(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	opts, files, err := unexpandGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(name, err, 1)
	}
	var tabs textTabs
	all, firstOnly := false, false
	for _, o := range opts {
		switch o.Name {
		case "a":
			all = true
		case "first-only":
			firstOnly = true
		case "t", "#":
			all = all || o.Name == "t"
			if err := tabs.add(o.Value); err != nil {
				env.Errorf(name, "%v", err)
				return 1
			}
		}
	}
	if firstOnly {
		all = false
	}
	if err := tabs.finish(); err != nil {
		env.Errorf(name, "%v", err)
		return 1
	}
	w := newTextWriter(env.Stdout)
	u := &textUnexpander{tabs: &tabs, all: all}
	u.reset()
	status, err := textEachChunk(ctx, env, name, files, func(chunk []byte) error {
		for _, c := range chunk {
			if err := u.step(int(c), w); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		u.step(-1, w)
		err = w.Flush()
	}
	if err != nil {
		return env.WriteError(name, err)
	}
	return status
}
