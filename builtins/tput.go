package builtins

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

const tputUsage = `Usage: tput [-T TERM] CAPNAME [PARAMETERS]
Print a terminal capability from a small built-in terminfo: dumb,
ansi, linux, vt100, vt220 and the xterm, screen, tmux and rxvt families.
  colors cols lines       numbers (cols/lines from $COLUMNS/$LINES, else 80x24)
  sgr0 bold dim smul rmul rev smso rmso el ed clear civis cnorm
  setaf N, setab N, cup ROW COL
`

// tputTerm describes a terminal type: how many colours it has, or ok=false
// for one the built-in terminfo does not know.
func tputTerm(term string) (colors int, ok bool) {
	switch {
	case term == "dumb":
		return -1, true
	case strings.HasSuffix(term, "256color"):
		return 256, true
	case term == "ansi", term == "linux", strings.HasPrefix(term, "xterm"), strings.HasPrefix(term, "screen"),
		strings.HasPrefix(term, "tmux"), strings.HasPrefix(term, "rxvt"):
		return 8, true
	case term == "vt100", term == "vt220":
		return -1, true
	}
	return 0, false
}

// tputStrings are the xterm sequences of the capabilities without
// parameters.
var tputStrings = map[string]string{
	"sgr0": "\x1b(B\x1b[m", "bold": "\x1b[1m", "dim": "\x1b[2m", "smul": "\x1b[4m", "rmul": "\x1b[24m",
	"rev": "\x1b[7m", "smso": "\x1b[7m", "rmso": "\x1b[27m", "el": "\x1b[K", "ed": "\x1b[J",
	"clear": "\x1b[H\x1b[2J", "civis": "\x1b[?25l", "cnorm": "\x1b[?12l\x1b[?25h",
}

// runTput prints terminal capabilities, so that scripts and frameworks
// (shunit2, bats) decide about colours as they would with ncurses' tput.
func runTput(_ context.Context, env *Env, args []string) int {
	args = args[1:]
	term, haveTerm := env.LookupEnv("TERM")
	for len(args) > 0 && strings.HasPrefix(args[0], "-T") {
		if args[0] == "-T" {
			if len(args) < 2 {
				env.Errorf("tput", "option requires an argument -- 'T'")
				return 2
			}
			term, haveTerm, args = args[1], true, args[2:]
			continue
		}
		term, haveTerm, args = args[0][2:], true, args[1:]
	}
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, "usage: tput [-V] [-S] [-T term] capname\n")
		return 2
	}
	if !haveTerm || term == "" {
		env.Errorf("tput", "No value for $TERM and no -T specified")
		return 2
	}
	colors, ok := tputTerm(term)
	if !ok {
		env.Errorf("tput", "unknown terminal %q", term)
		return 3
	}
	capname, params := args[0], args[1:]
	num := func(n int) int { fmt.Fprintln(env.Stdout, n); return 0 }
	size := func(name string, def int) int {
		if n, err := strconv.Atoi(env.Getenv(name)); err == nil && n > 0 {
			return n
		}
		return def
	}
	intParams := func(want int) ([]int, bool) {
		if len(params) != want {
			return nil, false
		}
		out := make([]int, want)
		for i, p := range params {
			n, err := strconv.Atoi(p)
			if err != nil || n < 0 || n > 1<<20 {
				return nil, false
			}
			out[i] = n
		}
		return out, true
	}
	switch capname {
	case "colors":
		return num(colors)
	case "cols":
		return num(size("COLUMNS", 80))
	case "lines":
		return num(size("LINES", 24))
	}
	s, known := tputStrings[capname]
	switch capname {
	case "setaf", "setab", "cup":
		known = true
	}
	if !known {
		env.Errorf("tput", "unknown terminfo capability '%s'", capname)
		return 4
	}
	if colors < 0 && capname != "cup" && capname != "clear" && capname != "el" && capname != "ed" || term == "dumb" {
		return 1 // the terminal lacks it: no output, like ncurses
	}
	switch capname {
	case "setaf", "setab":
		p, ok := intParams(1)
		if !ok {
			env.Errorf("tput", "unknown terminfo capability '%s'", capname)
			return 4
		}
		n, base := p[0], 3
		if capname == "setab" {
			base = 4
		}
		switch {
		case n < 8:
			s = fmt.Sprintf("\x1b[%d%dm", base, n)
		case n < 16 && colors >= 16:
			s = fmt.Sprintf("\x1b[%dm", base*10+60+n-8)
		default:
			s = fmt.Sprintf("\x1b[%d8;5;%dm", base, n)
		}
	case "cup":
		p, ok := intParams(2)
		if !ok {
			env.Errorf("tput", "unknown terminfo capability '%s'", capname)
			return 4
		}
		s = fmt.Sprintf("\x1b[%d;%dH", p[0]+1, p[1]+1)
	default:
		if len(params) > 0 {
			env.Errorf("tput", "unknown terminfo capability '%s'", capname)
			return 4
		}
	}
	fmt.Fprint(env.Stdout, s)
	return 0
}
