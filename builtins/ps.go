package builtins

import (
	"context"
	"fmt"
	"strings"
	"time"
)

const psUsage = `Usage: ps [options]
Report a snapshot of the sandbox's own processes: its shells and
background jobs (the host's processes are not visible).

 -e, -A            all processes
 -p, --pid LIST    processes with these ids
 --ppid LIST       processes whose parent is in LIST
 -g, --pgid LIST   processes in these process groups
 -C LIST           processes with these command names
 -f                full format (UID PID PPID C STIME TTY TIME CMD)
 -o, --format FMT  user-defined format: pid ppid pgid pgrp sid sess comm
                   ucomm args cmd command user uid tty tt time etime
                   etimes stat s state ni nice c stime start lstart
                   (FIELD=HEADER renames a column; all headers empty: none)
 --no-headers      print no header line
 a, u, x           BSD style: all processes; u: user-oriented format
`

// psColumn is one output field: its header, width, alignment and value.
type psColumn struct {
	header string
	width  int
	left   bool
	value  func(env *Env, p Process, now time.Time) string
}

func psPid(f func(Process) int) func(*Env, Process, time.Time) string {
	return func(_ *Env, p Process, _ time.Time) string { return fmt.Sprint(f(p)) }
}

func psConst(s string) func(*Env, Process, time.Time) string {
	return func(*Env, Process, time.Time) string { return s }
}

func psArgs(_ *Env, p Process, _ time.Time) string {
	if len(p.Argv) == 0 {
		return "[" + p.Comm + "]"
	}
	return strings.Join(p.Argv, " ")
}

func psComm(_ *Env, p Process, _ time.Time) string { return p.Comm }

func psElapsed(_ *Env, p Process, now time.Time) string {
	s := int64(max(now.Sub(p.Start), 0) / time.Second)
	d, h, m := s/86400, s/3600%24, s/60%60
	switch {
	case d > 0:
		return fmt.Sprintf("%d-%02d:%02d:%02d", d, h, m, s%60)
	case h > 0:
		return fmt.Sprintf("%02d:%02d:%02d", h, m, s%60)
	}
	return fmt.Sprintf("%02d:%02d", m, s%60)
}

// psColumns are procps's fields, with its headers and widths (pids as on
// a machine whose pid_max has five digits).
var psColumns = map[string]psColumn{
	"pid":     {"PID", 5, false, psPid(func(p Process) int { return p.PID })},
	"ppid":    {"PPID", 5, false, psPid(func(p Process) int { return p.PPID })},
	"pgid":    {"PGID", 5, false, psPid(func(p Process) int { return p.PGID })},
	"pgrp":    {"PGRP", 5, false, psPid(func(p Process) int { return p.PGID })},
	"sid":     {"SID", 5, false, psPid(func(p Process) int { return p.SID })},
	"sess":    {"SESS", 5, false, psPid(func(p Process) int { return p.SID })},
	"comm":    {"COMMAND", 15, true, psComm},
	"ucomm":   {"COMMAND", 15, true, psComm},
	"ucmd":    {"CMD", 15, true, psComm},
	"args":    {"COMMAND", 27, true, psArgs},
	"cmd":     {"CMD", 27, true, psArgs},
	"command": {"COMMAND", 27, true, psArgs},
	"user": {"USER", 8, true, func(env *Env, _ Process, _ time.Time) string {
		return env.System().User
	}},
	"uid": {"UID", 5, false, func(env *Env, _ Process, _ time.Time) string {
		return fmt.Sprint(env.System().UID)
	}},
	"tty":   {"TT", 8, true, psConst("?")},
	"tt":    {"TT", 8, true, psConst("?")},
	"time":  {"TIME", 8, false, psConst("00:00:00")},
	"etime": {"ELAPSED", 11, false, psElapsed},
	"etimes": {"ELAPSED", 7, false, func(_ *Env, p Process, now time.Time) string {
		return fmt.Sprint(int64(max(now.Sub(p.Start), 0) / time.Second))
	}},
	"stat":  {"STAT", 4, true, psConst("S")},
	"s":     {"S", 1, true, psConst("S")},
	"state": {"S", 1, true, psConst("S")},
	"ni":    {"NI", 3, false, psConst("0")},
	"nice":  {"NI", 3, false, psConst("0")},
	"c":     {"C", 2, false, psConst("0")},
	"pcpu":  {"%CPU", 4, false, psConst("0.0")},
	"%cpu":  {"%CPU", 4, false, psConst("0.0")},
	"pmem":  {"%MEM", 4, false, psConst("0.0")},
	"%mem":  {"%MEM", 4, false, psConst("0.0")},
	"vsz":   {"VSZ", 6, false, psConst("0")},
	"rss":   {"RSS", 5, false, psConst("0")},
	"stime": {"STIME", 5, true, func(_ *Env, p Process, _ time.Time) string { return p.Start.Format("15:04") }},
	"start": {"STARTED", 8, false, func(_ *Env, p Process, _ time.Time) string { return p.Start.Format("15:04:05") }},
	"lstart": {"STARTED", 24, true, func(_ *Env, p Process, _ time.Time) string {
		return p.Start.Format("Mon Jan _2 15:04:05 2006")
	}},
}

// psField is one requested column, with its header as asked for.
type psField struct {
	col    psColumn
	header string
}

// runPs lists the run's virtual processes.
func runPs(ctx context.Context, env *Env, args []string) int {
	var (
		sel     procSelect
		all     bool
		fields  []psField
		format  string // "", "f", "u"
		headers = true
	)
	addFormat := func(spec string) error {
		for _, item := range strings.FieldsFunc(spec, func(r rune) bool { return r == ',' || r == ' ' }) {
			name, header, renamed := strings.Cut(item, "=")
			col, ok := psColumns[strings.ToLower(name)]
			if !ok {
				return fmt.Errorf("unknown user-defined format specifier \"%s\"", name)
			}
			if !renamed {
				header = col.header
			}
			fields = append(fields, psField{col, header})
		}
		return nil
	}
	fail := func(msg string) int {
		fmt.Fprintf(env.Stderr, "error: %s\n\nUsage:\n ps [options]\n\n Try 'ps --help <simple|list|output|threads|misc|all>'\n  or 'ps --help <s|l|o|t|m|a>'\n for additional help text.\n\nFor more details see ps(1).\n", msg)
		return 1
	}
	list := func(name string, dst *[]int, v string) error {
		ids, err := procIDList(v)
		if err != nil {
			return fmt.Errorf("%s list syntax error", name)
		}
		*dst = append(*dst, ids...)
		return nil
	}
	rest := args[1:]
	next := func(opt string) (string, bool) {
		if len(rest) == 0 {
			return "", false
		}
		v := rest[0]
		rest = rest[1:]
		return v, true
	}
	for len(rest) > 0 {
		a := rest[0]
		rest = rest[1:]
		if long, ok := strings.CutPrefix(a, "--"); ok {
			name, val, hasVal := strings.Cut(long, "=")
			needVal := func() (string, bool) {
				if hasVal {
					return val, true
				}
				return next(name)
			}
			var err error
			switch name {
			case "pid", "ppid", "pgid", "format", "sid":
				v, ok := needVal()
				if !ok {
					return fail("list of process IDs must follow --" + name)
				}
				switch name {
				case "pid":
					err = list("process ID", &sel.pids, v)
				case "ppid":
					err = list("process ID", &sel.ppids, v)
				case "pgid":
					err = list("process group ID", &sel.pgids, v)
				case "sid":
					err = list("session ID", &sel.sids, v)
				case "format":
					err = addFormat(v)
				}
			case "no-headers", "no-heading":
				headers = false
			case "help":
				fmt.Fprint(env.Stdout, psUsage)
				return 0
			case "version":
				fmt.Fprintln(env.Stdout, "ps from procps-ng 4.0.2 (sandsh)")
				return 0
			default:
				return fail("unknown gnu long option")
			}
			if err != nil {
				return fail(err.Error())
			}
			continue
		}
		bsd := !strings.HasPrefix(a, "-")
		letters := strings.TrimPrefix(a, "-")
		if bsd && letters != "" && letters[0] >= '0' && letters[0] <= '9' {
			if err := list("process ID", &sel.pids, letters); err != nil {
				return fail(err.Error())
			}
			continue
		}
		for i := 0; i < len(letters); i++ {
			c := letters[i]
			// An option with a value takes the rest of the word, or the
			// next argument.
			value := func() (string, bool) {
				if i+1 < len(letters) {
					v := letters[i+1:]
					i = len(letters)
					return v, true
				}
				return next(string(c))
			}
			var err error
			switch {
			case c == 'e' || c == 'A' || bsd && (c == 'a' || c == 'x'):
				all = true
			case c == 'f' && !bsd:
				format = "f"
			case c == 'u' && bsd:
				format = "u"
			case c == 'w': // wide output: lines are never cut here
			case c == 'p' || c == 'o' || c == 'g' || c == 'C' || c == 's' || c == 'q' || c == 'O':
				v, ok := value()
				if !ok {
					return fail("list of process IDs must follow -" + string(c))
				}
				switch c {
				case 'p', 'q':
					err = list("process ID", &sel.pids, v)
				case 'g':
					err = list("process group ID", &sel.pgids, v)
				case 's':
					err = list("session ID", &sel.sids, v)
				case 'C':
					sel.names = append(sel.names, strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' })...)
				case 'o', 'O':
					err = addFormat(v)
				}
			case c == 'h' && bsd:
				headers = false
			default:
				if bsd {
					return fail("unsupported option (BSD syntax)")
				}
				return fail("unsupported SysV option")
			}
			if err != nil {
				return fail(err.Error())
			}
		}
	}
	if len(fields) == 0 {
		var spec string
		switch format {
		case "f":
			spec = "user=UID,pid,ppid,c,stime,tty=TTY,time,args=CMD"
		case "u":
			spec = "user,pid,%cpu,%mem,vsz,rss,tty=TTY,stat,start=START,time,args"
		default:
			spec = "pid,tty=TTY,time,comm=CMD"
		}
		if err := addFormat(spec); err != nil {
			return fail(err.Error())
		}
	}
	if all {
		sel = procSelect{}
	}
	var procs []Process
	if env.Procs != nil {
		procs = env.Procs.List()
	}
	now := env.System().Now()
	var b strings.Builder
	writeRow := func(cells []string) {
		for i, f := range fields {
			if i > 0 {
				b.WriteByte(' ')
			}
			cell := cells[i]
			switch {
			case i == len(fields)-1 && f.col.left:
				b.WriteString(cell)
			case f.col.left:
				fmt.Fprintf(&b, "%-*s", f.col.width, cell)
			default:
				fmt.Fprintf(&b, "%*s", f.col.width, cell)
			}
		}
		b.WriteByte('\n')
	}
	if headers {
		cells := make([]string, len(fields))
		any := false
		for i, f := range fields {
			cells[i] = f.header
			any = any || f.header != ""
		}
		if any {
			writeRow(cells)
		}
	}
	found := false
	for _, p := range procs {
		if ctx.Err() != nil {
			return 130
		}
		if !sel.match(p) {
			continue
		}
		found = true
		cells := make([]string, len(fields))
		for i, f := range fields {
			cells[i] = f.col.value(env, p, now)
		}
		writeRow(cells)
	}
	if _, err := env.Stdout.Write([]byte(b.String())); err != nil {
		return 1
	}
	if !found {
		return 1
	}
	return 0
}
