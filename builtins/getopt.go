package builtins

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

const getoptUsage = `Usage:
 getopt <optstring> <parameters>
 getopt [options] [--] <optstring> <parameters>
 getopt [options] -o|--options <optstring> [options] [--] <parameters>

Parse command options.

Options:
 -a, --alternative             allow long options starting with single -
 -l, --longoptions <longopts>  the long options to be recognized
 -n, --name <progname>         the name under which errors are reported
 -o, --options <optstring>     the short options to be recognized
 -q, --quiet                   disable error reporting by getopt(3)
 -Q, --quiet-output            no normal output
 -s, --shell <shell>           set quoting conventions to those of <shell>
 -T, --test                    test for getopt(1) version
 -u, --unquoted                do not quote the output

 -h, --help                    display this help
`

// getoptSelf is util-linux getopt's own option parsing: it stops at the
// first word that is not one of its options (the optstring or "--").
var getoptSelf = Getopt{Short: "+ao:l:n:qQs:Tuh", Long: []string{"alternative", "options=", "longoptions=", "name=", "quiet",
	"quiet-output", "shell=", "test", "unquoted", "help"},
	LongAlias: map[string]string{"alternative": "a", "options": "o", "longoptions": "l", "name": "n", "quiet": "q",
		"quiet-output": "Q", "shell": "s", "test": "T", "unquoted": "u", "help": "h"}}

// getoptRun is one util-linux getopt: the options it was told to
// recognize and how to print what it finds.
type getoptRun struct {
	env         *Env
	name        string
	short       string
	long        []getoptLong
	alternative bool
	quiet       bool
	quote       bool
	csh         bool
	stop, inPlc bool // optstring '+' (or POSIXLY_CORRECT) / '-'
	out         strings.Builder
	failed      bool
}

// getoptLong is one long option: has 0 (none), 1 (required) or 2
// (optional) arguments.
type getoptLong struct {
	name string
	has  int
}

func runGetopt(ctx context.Context, env *Env, args []string) int {
	opts, rest, err := getoptSelf.Parse(args[1:])
	if err != nil {
		return env.UsageError("getopt", err, 2)
	}
	g := &getoptRun{env: env, name: "getopt", quote: true}
	haveShort := false
	quietOut := false
	for _, o := range opts {
		switch o.Name {
		case "a":
			g.alternative = true
		case "o":
			g.short, haveShort = o.Value, true
		case "l":
			for _, f := range strings.FieldsFunc(o.Value, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
				l := getoptLong{name: f}
				switch {
				case strings.HasSuffix(f, "::"):
					l = getoptLong{strings.TrimSuffix(f, "::"), 2}
				case strings.HasSuffix(f, ":"):
					l = getoptLong{strings.TrimSuffix(f, ":"), 1}
				}
				g.long = append(g.long, l)
			}
		case "n":
			g.name = o.Value
		case "q":
			g.quiet = true
		case "Q":
			quietOut = true
		case "s":
			switch o.Value {
			case "sh", "bash":
			case "csh", "tcsh":
				g.csh = true
			default:
				return env.UsageError("getopt", fmt.Errorf("unknown shell after -s or --shell argument"), 2)
			}
		case "T":
			return 4
		case "u":
			g.quote = false
		case "h":
			fmt.Fprint(env.Stdout, getoptUsage)
			return 0
		}
	}
	if !haveShort {
		if len(rest) == 0 {
			return env.UsageError("getopt", errors.New("missing optstring argument"), 2)
		}
		g.short, rest = rest[0], rest[1:]
		if len(opts) == 0 {
			g.quote = false // the first, traditional form: unquoted, as old getopt printed
		}
	}
	if _, ok := env.LookupEnv("POSIXLY_CORRECT"); ok {
		g.stop = true
	}
	switch {
	case strings.HasPrefix(g.short, "+"):
		g.short, g.stop = g.short[1:], true
	case strings.HasPrefix(g.short, "-"):
		g.short, g.inPlc = g.short[1:], true
	}
	g.parse(rest)
	if !quietOut {
		g.out.WriteByte('\n')
		if _, err := fmt.Fprint(env.Stdout, g.out.String()); err != nil {
			return env.WriteError("getopt", err)
		}
	}
	if g.failed {
		return 1
	}
	return 0
}

func (g *getoptRun) errorf(format string, a ...any) {
	g.failed = true
	if !g.quiet {
		fmt.Fprintf(g.env.Stderr, "%s: %s\n", g.name, fmt.Sprintf(format, a...))
	}
}

// word appends one output word, quoted for the shell unless -u.
func (g *getoptRun) word(s string) {
	g.out.WriteByte(' ')
	if !g.quote {
		g.out.WriteString(s)
		return
	}
	s = strings.ReplaceAll(s, "'", `'\''`)
	if g.csh {
		// csh history expansion: ! outside the quotes, escaped.
		s = strings.ReplaceAll(strings.ReplaceAll(s, "!", `'\!'`), "\n", "\\\n")
	}
	g.out.WriteString("'" + s + "'")
}

// shortHas reports whether c is a short option and how many arguments
// it has (0, 1 required, 2 optional).
func (g *getoptRun) shortHas(c byte) (int, bool) {
	i := strings.IndexByte(g.short, c)
	if c == ':' || i < 0 {
		return 0, false
	}
	switch {
	case strings.HasPrefix(g.short[i+1:], "::"):
		return 2, true
	case strings.HasPrefix(g.short[i+1:], ":"):
		return 1, true
	}
	return 0, true
}

// findLong matches name exactly or as a unique prefix; "" with ok=false
// when none does (ambiguous already reported).
func (g *getoptRun) findLong(name, shown string) (getoptLong, bool, bool) {
	var found []getoptLong
	for _, l := range g.long {
		if l.name == name {
			return l, true, false
		}
		if strings.HasPrefix(l.name, name) {
			found = append(found, l)
		}
	}
	if len(found) == 1 {
		return found[0], true, false
	}
	if len(found) > 1 {
		var names []string
		for _, l := range found {
			names = append(names, "'--"+l.name+"'")
		}
		g.errorf("option '%s' is ambiguous; possibilities: %s", shown, strings.Join(names, " "))
		return getoptLong{}, false, true
	}
	return getoptLong{}, false, false
}

func (g *getoptRun) parse(args []string) {
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			operands = append(operands, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "--"):
			i = g.longOpt(args, i, a[2:], "--")
		case g.alternative && len(a) > 2 && a[0] == '-':
			name, _, _ := strings.Cut(a[1:], "=")
			if _, ok, amb := g.findLong(name, "-"+name); ok {
				i = g.longOpt(args, i, a[1:], "-")
			} else if !amb {
				i = g.shortOpts(args, i)
			}
		case len(a) > 1 && a[0] == '-':
			i = g.shortOpts(args, i)
		case g.stop:
			operands = append(operands, args[i:]...)
			i = len(args)
		case g.inPlc:
			g.word(a)
		default:
			operands = append(operands, a)
		}
	}
	g.out.WriteString(" --")
	for _, o := range operands {
		g.word(o)
	}
}

// longOpt handles args[i], a long option spelled prefix+body; it returns
// the index of the last word it used.
func (g *getoptRun) longOpt(args []string, i int, body, prefix string) int {
	name, val, eq := strings.Cut(body, "=")
	l, ok, amb := g.findLong(name, prefix+name)
	if amb {
		return i
	}
	if !ok {
		g.errorf("unrecognized option '%s'", args[i])
		return i
	}
	switch {
	case l.has == 0 && eq:
		g.errorf("option '%s%s' doesn't allow an argument", prefix, l.name)
		return i
	case l.has == 1 && !eq:
		if i+1 >= len(args) {
			g.errorf("option '%s%s' requires an argument", prefix, l.name)
			return i
		}
		i++
		val = args[i]
	}
	g.out.WriteString(" --" + l.name)
	if l.has > 0 {
		g.word(val)
	}
	return i
}

// shortOpts handles the cluster of short options args[i].
func (g *getoptRun) shortOpts(args []string, i int) int {
	a := args[i]
	for j := 1; j < len(a); j++ {
		c := a[j]
		has, ok := g.shortHas(c)
		if !ok {
			g.errorf("invalid option -- '%c'", c)
			continue
		}
		switch has {
		case 0:
			g.out.WriteString(" -" + string(c))
			continue
		case 2:
			g.out.WriteString(" -" + string(c))
			g.word(a[j+1:])
			return i
		}
		switch {
		case j+1 < len(a):
			g.out.WriteString(" -" + string(c))
			g.word(a[j+1:])
		case i+1 < len(args):
			i++
			g.out.WriteString(" -" + string(c))
			g.word(args[i])
		default:
			g.errorf("option requires an argument -- '%c'", c)
		}
		return i
	}
	return i
}
