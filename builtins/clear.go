package builtins

import (
	"context"
	"io"
)

const clearUsage = `Usage: clear [options]

Options:
  -T TERM     use this instead of $TERM
  -V          print curses-version
  -x          do not try to clear scrollback
`

var clearGetopt = Getopt{Short: "T:Vx"}

// runClear prints the xterm clear sequence; like ncurses' clear it needs
// to know the terminal type.
func runClear(ctx context.Context, env *Env, args []string) int {
	opts, ops, err := clearGetopt.Parse(args[1:])
	if err != nil || len(ops) > 0 {
		io.WriteString(env.Stderr, clearUsage)
		return 1
	}
	term := env.Getenv("TERM")
	scrollback := true
	for _, o := range opts {
		switch o.Name {
		case "T":
			term = o.Value
		case "V":
			return shellPrintln(env, args[0], "ncurses 6.4")
		case "x":
			scrollback = false
		}
	}
	if term == "" {
		io.WriteString(env.Stderr, "TERM environment variable not set.\n")
		return 1
	}
	seq := "\x1b[H\x1b[2J"
	if scrollback {
		seq += "\x1b[3J"
	}
	if _, err := io.WriteString(env.Stdout, seq); err != nil {
		return env.WriteError(args[0], err)
	}
	return 0
}
