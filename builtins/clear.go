package builtins

import (
	"context"
	"fmt"
	"io"
	"strings"
)

const clearUsage = `Usage: clear [options]

Options:
  -T TERM     use this instead of $TERM
  -V          print curses-version
  -x          do not try to clear scrollback
`

var clearGetopt = Getopt{Short: "T:Vx"}

// clearSequence is the terminfo clear string of the terminal types a
// sandbox meets, and its E3 (clear the scrollback) if it has one, as
// ncurses 6.4's database gives them; known is false for any other type.
func clearSequence(term string) (seq, e3 string, known bool) {
	switch {
	case term == "dumb":
		return "", "", true
	case strings.HasPrefix(term, "xterm"):
		return "\x1b[H\x1b[2J", "\x1b[3J", true
	case term == "linux" || strings.HasPrefix(term, "tmux"):
		return "\x1b[H\x1b[J", "\x1b[3J", true
	case strings.HasPrefix(term, "screen") || term == "vt100" || term == "vt102" || term == "vt220" || term == "ansi":
		return "\x1b[H\x1b[J", "", true
	}
	return "", "", false
}

// runClear prints the terminal's clear sequence; like ncurses' clear it
// needs to know the terminal type.
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
	seq, e3, known := clearSequence(term)
	if !known {
		fmt.Fprintf(env.Stderr, "'%s': unknown terminal type.\n", term)
		return 1
	}
	if seq == "" {
		return 1 // like ncurses: the terminal cannot clear
	}
	if scrollback {
		seq += e3
	}
	if _, err := io.WriteString(env.Stdout, seq); err != nil {
		return env.WriteError(args[0], err)
	}
	return 0
}
