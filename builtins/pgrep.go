package builtins

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"syscall"
)

const pgrepUsage = `Usage: pgrep [options] <pattern>
List the ids of the sandbox's processes (its shells and background jobs)
whose name matches the extended regular expression <pattern>.

 -d, --delimiter <string>  separator between ids (default: newline)
 -l, --list-name           list the name as well as the id
 -a, --list-full           list the full command line as well as the id
 -v, --inverse             negate the matching
 -c, --count               count the matching processes
 -f, --full                match against the full command line
 -g, --pgroup <PGID,...>   match these process group ids
 -P, --parent <PPID,...>   match only children of these parents
 -s, --session <SID,...>   match these session ids
 -u, -U <user,...>         match these users (ids or names)
 -n, --newest              select the most recently started
 -o, --oldest              select the first started
 -x, --exact               match the whole name (or command line)
 -i, --ignore-case         match case-insensitively

Exit status: 0 one or more processes matched, 1 none, 2 syntax error.
`

var pgrepGetopt = Getopt{Short: "d:lavcfg:P:s:u:U:noxiqe", Long: []string{"delimiter=", "list-name", "list-full", "inverse",
	"count", "full", "pgroup=", "parent=", "session=", "euid=", "uid=", "newest", "oldest", "exact", "ignore-case", "help", "signal=", "echo", "quiet"},
	LongAlias: map[string]string{"delimiter": "d", "list-name": "l", "list-full": "a", "inverse": "v", "count": "c", "full": "f",
		"pgroup": "g", "parent": "P", "session": "s", "euid": "u", "uid": "U", "newest": "n", "oldest": "o", "exact": "x",
		"ignore-case": "i", "quiet": "q", "echo": "e"}}

// runPgrep lists matching processes of the run.
func runPgrep(ctx context.Context, env *Env, args []string) int {
	return procGrep(ctx, env, args, false)
}

// procGrep is pgrep, or pkill when kill is set: the same selection, then
// a signal to each process instead of a listing.
func procGrep(ctx context.Context, env *Env, args []string, kill bool) int {
	name := args[0]
	rest := args[1:]
	sig := 15
	if kill && len(rest) > 0 && strings.HasPrefix(rest[0], "-") && len(rest[0]) > 1 {
		// pkill -TERM, pkill -9: the signal comes first, as in kill.
		if n, _, ok := timeoutSignal(rest[0][1:]); ok {
			sig, rest = n, rest[1:]
		}
	}
	opts, ops, err := pgrepGetopt.Parse(rest)
	if err != nil {
		return env.UsageError(name, err, 2)
	}
	if shellHelp(env, opts, pgrepUsage) {
		return 0
	}
	var (
		sel                                 procSelect
		users                               []string
		delim                               = "\n"
		listName, listFull, inverse, count  bool
		full, newest, oldest, exact, nocase bool
		echo, quiet                         bool
	)
	for _, o := range opts {
		var err error
		switch o.Name {
		case "d":
			delim = o.Value
		case "l":
			listName = true
		case "a":
			listFull = true
		case "v":
			inverse = true
		case "c":
			count = true
		case "f":
			full = true
		case "n":
			newest = true
		case "o":
			oldest = true
		case "x":
			exact = true
		case "i":
			nocase = true
		case "q":
			quiet = true
		case "e":
			echo = true
		case "g":
			sel.pgids, err = procIDList(o.Value)
		case "P":
			sel.ppids, err = procIDList(o.Value)
		case "s":
			sel.sids, err = procIDList(o.Value)
		case "u", "U":
			users = append(users, strings.Split(o.Value, ",")...)
		case "signal":
			n, _, ok := timeoutSignal(o.Value)
			if !ok || !kill {
				env.Errorf(name, "Unknown signal \"%s\".", o.Value)
				return 2
			}
			sig = n
		}
		if err != nil {
			env.Errorf(name, "invalid argument %s", shellQuoteGNU(o.Value))
			return 2
		}
	}
	if len(ops) > 1 {
		env.Errorf(name, "only one pattern can be provided")
		return 2
	}
	if len(ops) == 0 && sel.empty() && len(users) == 0 {
		fmt.Fprintf(env.Stderr, "%s: no matching criteria specified\nTry `%s --help' for more information.\n", name, name)
		return 2
	}
	if newest && oldest {
		env.Errorf(name, "-n and -o are mutually exclusive")
		return 2
	}
	var re *regexp.Regexp
	if len(ops) == 1 {
		pat := ops[0]
		if exact {
			pat = "^(" + pat + ")$"
		}
		if nocase {
			pat = "(?i)" + pat
		}
		if re, err = regexp.Compile(pat); err != nil {
			env.Errorf(name, "invalid regular expression: %v", err)
			return 2
		}
	}
	var procs []Process
	if env.Procs != nil {
		procs = env.Procs.List()
	}
	var hits []Process
	for _, p := range procs {
		if ctx.Err() != nil {
			return 3
		}
		ok := (len(sel.pgids) == 0 || sel.match(Process{PGID: p.PGID})) &&
			(len(sel.ppids) == 0 || sel.match(Process{PPID: p.PPID})) &&
			(len(sel.sids) == 0 || sel.match(Process{SID: p.SID}))
		if len(users) > 0 {
			sys := env.System()
			ok = ok && (shellContains(users, sys.User) || shellContains(users, fmt.Sprint(sys.UID)))
		}
		if re != nil {
			subject := p.Comm
			if full {
				subject = strings.Join(p.Argv, " ")
			}
			ok = ok && re.MatchString(subject)
		}
		if ok != inverse {
			hits = append(hits, p)
		}
	}
	if (newest || oldest) && len(hits) > 1 {
		pick := hits[0]
		for _, p := range hits[1:] {
			later := p.Start.After(pick.Start) || p.Start.Equal(pick.Start) && p.PID > pick.PID
			if later == newest {
				pick = p
			}
		}
		hits = []Process{pick}
	}
	var out strings.Builder
	status := 1
	for i, p := range hits {
		if kill {
			if err := env.Procs.Signal(p.PID, sig); err != nil {
				msg := "No such process"
				if errors.Is(err, syscall.EPERM) {
					msg = "Operation not permitted"
				}
				env.Errorf(name, "killing pid %d failed: %s", p.PID, msg)
				continue
			}
			status = 0
			if echo {
				fmt.Fprintf(&out, "%s %s (pid %d)\n", "killed", p.Comm, p.PID)
			}
			continue
		}
		status = 0
		if count || quiet {
			continue
		}
		if i > 0 {
			out.WriteString(delim)
		}
		fmt.Fprint(&out, p.PID)
		switch {
		case listFull:
			out.WriteString(" " + strings.Join(p.Argv, " "))
		case listName:
			out.WriteString(" " + p.Comm)
		}
	}
	if !kill && !count && !quiet && len(hits) > 0 {
		out.WriteString("\n")
	}
	if count {
		fmt.Fprintf(&out, "%d\n", len(hits))
	}
	if _, err := env.Stdout.Write([]byte(out.String())); err != nil {
		return 3
	}
	return status
}

func shellContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
