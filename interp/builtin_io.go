package interp

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"

	"github.com/sandsh/sandsh/interp/internal/expand"
	"github.com/sandsh/sandsh/interp/internal/parseguard"
)

// biRead implements read with bash's flags.
func (r *Runner) biRead(ctx context.Context, args []string) int {
	raw, silent := false, false
	arrayName, prompt := "", ""
	delim := byte('\n')
	nchars, exact := -1, false
	fd := 0
	timeout := time.Duration(-1)
	opts, args, ok := r.parseOpts(args, "ersa:d:i:n:N:p:t:u:")
	if !ok {
		return 2
	}
	for _, o := range opts {
		v := o.val
		switch o.c {
		case 'r':
			raw = true
		case 's':
			silent = true
		case 'a':
			arrayName = v
		case 'd':
			if v == "" {
				delim = 0
			} else {
				delim = v[0]
			}
		case 'n', 'N':
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				r.builtinErr("read", "%s: invalid number", v)
				return 1
			}
			nchars, exact = n, o.c == 'N'
		case 'p':
			prompt = v
		case 't':
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || f < 0 || strings.ContainsAny(v, "eEnNxX") {
				r.builtinErr("read", "%s: invalid timeout specification", v)
				return 1
			}
			timeout = time.Duration(min(f, 1e6) * float64(time.Second))
		case 'u':
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || r.fds.get(n) == nil {
				r.builtinErr("read", "%s: invalid file descriptor specification", v)
				return 1
			}
			fd = n
		}
	}
	_ = silent
	for _, name := range args {
		if !syntax.ValidName(name) {
			r.builtinErr("read", "`%s': not a valid identifier", name)
			return 1
		}
	}
	if prompt != "" {
		// bash prints the prompt only when reading from a terminal; we
		// never are one, so like bash we stay quiet.
		_ = prompt
	}
	if timeout == 0 {
		// read -t 0 only asks whether input is there; an in-process
		// descriptor that is open can always be read (or hits EOF) at once.
		return 0
	}
	type result struct {
		line string
		eof  bool
	}
	// The source is taken here: with -t, readIt runs on its own goroutine
	// and may outlive this call.
	src := r.readSource(fd)
	readIt := func() result {
		defer src.done()
		var sb []byte
		count, reads := 0, 0
		for nchars < 0 || count < nchars {
			// Bytes that are dropped (NULs, /dev/zero) add nothing to
			// the value, so the context is checked per bytes read.
			if reads++; reads >= 0x1000 {
				if reads = 0; ctx.Err() != nil {
					return result{string(sb), true}
				}
			}
			if nchars < 0 && !exact {
				// Most lines are in the block read ahead: take all of
				// it up to the delimiter at once when no byte needs a
				// second look (a NUL, a backslash without -r).
				src.readAhead() // an error is readByte's below
				seg := src.buffered()
				end := bytes.IndexByte(seg, delim)
				if end < 0 {
					end = len(seg)
				}
				seg = seg[:end]
				max := r.s.limits.MaxVarBytes
				if len(seg) > 0 && (max <= 0 || len(sb)+len(seg) <= max) &&
					bytes.IndexByte(seg, 0) < 0 && (raw || bytes.IndexByte(seg, '\\') < 0) {
					src.skip(len(seg))
					reads += len(seg)
					count += len(seg)
					if src.more() {
						src.skip(1) // the delimiter
						if sb == nil {
							return result{string(seg), false}
						}
						return result{string(append(sb, seg...)), false}
					}
					sb = append(sb, seg...)
					continue
				}
			}
			c, err := src.readByte()
			if err != nil {
				return result{string(sb), true}
			}
			if !exact && c == delim {
				return result{string(sb), false}
			}
			if c == 0 {
				continue // like bash, which cannot hold NUL in a variable
			}
			if !raw && c == '\\' {
				c, err := src.readByte()
				if err != nil {
					return result{string(sb), true}
				}
				if c == '\n' {
					continue
				}
				sb = append(sb, '\\', c)
				count++
				continue
			}
			sb = append(sb, c)
			count++
			if r.s.limits.MaxVarBytes > 0 && len(sb) > r.s.limits.MaxVarBytes {
				r.checkSize(len(sb))
				return result{string(sb), true}
			}
		}
		return result{string(sb), false}
	}
	var res result
	// A regular file or a document never makes read wait: -t needs no
	// goroutine there.
	if timeout > 0 && !src.readsAhead() {
		ch := make(chan result, 1)
		if !r.goSafe(func() { ch <- readIt() }) {
			src.done() // the run is ending (max-jobs): let go of the file
		}
		select {
		case res = <-ch:
		case <-time.After(timeout):
			return 142
		case <-ctx.Done():
			return 130
		}
	} else {
		res = readIt()
	}
	status := 0
	if res.eof {
		status = 1
	}
	chars := readChars(res.line, raw)
	set := func(name, val string) bool {
		if err := r.setString(name, val, false); err != nil {
			r.assignError(err)
			return false
		}
		return true
	}
	if len(args) == 0 && arrayName == "" {
		// REPLY gets the line as read, only unescaped.
		if !set("REPLY", chars.String()) {
			return 1
		}
		return status
	}
	if exact {
		// -N does no splitting: the first name gets it all.
		for i, name := range args {
			val := ""
			if i == 0 {
				val = chars.String()
			}
			if !set(name, val) {
				return 1
			}
		}
		return status
	}
	ifs := " \t\n"
	if v := r.getVar("IFS"); v.IsSet() {
		ifs = v.String()
	}
	sp := readSplitter{ifs: ifs}
	rest := sp.trimLeft(chars)
	if arrayName != "" {
		var fields []string
		for rest.len() > 0 {
			var w readText
			var ok bool
			if w, rest, ok = sp.word(rest); !ok {
				break
			}
			fields = append(fields, w.String())
		}
		v, err := r.varForWrite(arrayName)
		if err != nil {
			r.assignError(err)
			return 1
		}
		v.Kind, v.List, v.Indexes, v.Set, v.Str = expand.Indexed, fields, nil, true, ""
		if v.List == nil {
			v.List = []string{}
		}
		return status
	}
	for i, name := range args {
		var val readText
		switch {
		case rest.len() == 0:
		case i < len(args)-1:
			val, rest, _ = sp.word(rest)
		default:
			// The last name gets the rest of the line, its trailing IFS
			// white space removed, except that a lone last field keeps
			// no delimiter after it (bash's read.c).
			w, after, _ := sp.word(rest)
			if after.len() == 0 {
				val = w
			} else {
				val = sp.trimRight(rest)
			}
		}
		if !set(name, val.String()) {
			return 1
		}
	}
	return status
}

// readText is a line read by read, each byte marked when a backslash
// escaped it: escaped bytes never split fields nor get trimmed. esc is
// nil when nothing was escaped (always with -r), so such a line is split
// without a copy.
type readText struct {
	s   string
	esc []bool
}

func (t readText) String() string { return t.s }

func (t readText) len() int { return len(t.s) }

func (t readText) slice(i, j int) readText {
	if t.esc == nil {
		return readText{s: t.s[i:j]}
	}
	return readText{t.s[i:j], t.esc[i:j]}
}

// readChars turns what read stored ("\\c" for an escaped c) into text.
func readChars(s string, raw bool) readText {
	if raw || strings.IndexByte(s, '\\') < 0 {
		return readText{s: s}
	}
	b := make([]byte, 0, len(s))
	esc := make([]bool, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			b, esc = append(b, s[i]), append(esc, true)
			continue
		}
		b, esc = append(b, s[i]), append(esc, false)
	}
	return readText{string(b), esc}
}

// readSplitter splits read's input on IFS the way bash's read does
// (subst.c get_word_from_string and strip_trailing_ifs_whitespace).
type readSplitter struct{ ifs string }

// sep reports whether byte i of t splits fields.
func (sp readSplitter) sep(t readText, i int) bool {
	return (t.esc == nil || !t.esc[i]) && strings.IndexByte(sp.ifs, t.s[i]) >= 0
}

// white reports whether byte i of t is IFS white space.
func (sp readSplitter) white(t readText, i int) bool {
	c := t.s[i]
	return (c == ' ' || c == '\t' || c == '\n') && sp.sep(t, i)
}

func (sp readSplitter) trimLeft(t readText) readText {
	i := 0
	for i < t.len() && sp.white(t, i) {
		i++
	}
	return t.slice(i, t.len())
}

func (sp readSplitter) trimRight(t readText) readText {
	j := t.len()
	for j > 0 && sp.white(t, j-1) {
		j--
	}
	return t.slice(0, j)
}

// word takes one field off t: leading IFS white space, the field, then
// its delimiter: white space, or one other IFS byte with the white space
// around it. ok is false when nothing but white space was left.
func (sp readSplitter) word(t readText) (w, rest readText, ok bool) {
	if sp.ifs == "" {
		// IFS= read: nothing splits (the usual loop over lines).
		return t, t.slice(t.len(), t.len()), t.len() > 0
	}
	t = sp.trimLeft(t)
	n := t.len()
	if n == 0 {
		return readText{}, t, false
	}
	j := 0
	for j < n && !sp.sep(t, j) {
		j++
	}
	w = t.slice(0, j)
	if j == n {
		return w, t.slice(j, n), true
	}
	delim := j
	j++
	for j < n && sp.white(t, j) {
		j++
	}
	if j < n && sp.white(t, delim) && sp.sep(t, j) && !sp.white(t, j) {
		j++
		for j < n && sp.white(t, j) {
			j++
		}
	}
	return w, t.slice(j, n), true
}

// biMapfile implements mapfile/readarray.
func (r *Runner) biMapfile(ctx context.Context, args []string) int {
	trim := false
	delim := byte('\n')
	count, origin, skip := -1, 0, 0
	fd := 0
	name := "MAPFILE"
	opts, rest, ok := r.parseOpts(args, "d:n:O:s:tu:C:c:")
	if !ok {
		return 2
	}
	for _, o := range opts {
		val := o.val
		num := func() (int, bool) {
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 {
				r.builtinErr(args[0], "%s: invalid number", val)
				return 0, false
			}
			return n, true
		}
		var ok = true
		switch o.c {
		case 't':
			trim = true
		case 'd':
			if val == "" {
				delim = 0
			} else {
				delim = val[0]
			}
		case 'n':
			count, ok = num()
			if count == 0 {
				count = -1
			}
		case 'O':
			origin, ok = num()
		case 's':
			skip, ok = num()
		case 'u':
			fd, ok = num()
			if ok && r.fds.get(fd) == nil {
				r.builtinErr(args[0], "%d: invalid file descriptor: Bad file descriptor", fd)
				return 1
			}
		}
		if !ok {
			return 1
		}
	}
	if len(rest) > 0 {
		name = rest[0]
	}
	v, err := r.varForWrite(name)
	if err != nil {
		r.assignError(err)
		return 1
	}
	if origin == 0 || v.Kind != expand.Indexed {
		v.List, v.Indexes = []string{}, nil
	}
	v.Kind, v.Set, v.Str = expand.Indexed, true, ""
	src := r.readSource(fd)
	defer src.done()
	i := origin
	read := 0
	maxLine, total := -1, 0
	if max := r.s.limits.MaxVarBytes; max > 0 {
		maxLine = max + 1
	}
	for count < 0 || read < count {
		if ctx.Err() != nil {
			return 1
		}
		line, err := readLine(src, delim, maxLine, !trim)
		if err != nil && line == "" {
			break
		}
		if skip > 0 {
			skip--
			continue
		}
		if k := strings.IndexByte(line, 0); k >= 0 {
			line = line[:k] // like bash, which keeps C strings
		}
		// The whole array counts against the variable size limit.
		if total += len(line); r.checkSize(total) != nil || r.checkSize(len(line)) != nil {
			return 1
		}
		v.List, v.Indexes = indexedSet(v.List, v.Indexes, i, line)
		i++
		read++
		if err != nil {
			break
		}
	}
	return 0
}

// biTrap implements trap.
func (r *Runner) biTrap(_ context.Context, args []string) int {
	opts, args, ok := r.parseOpts(args, "lp")
	if !ok {
		return 2
	}
	list, display := false, false
	for _, o := range opts {
		list = list || o.c == 'l'
		display = display || o.c == 'p'
	}
	w := r.out()
	if list {
		// bash 5.2 lists every signal whatever the operands.
		for i := 1; i < len(signalNames); i++ {
			fmt.Fprintf(w, "%2d) SIG%s", i, signalNames[i])
			if i%5 == 0 || i == len(signalNames)-1 {
				fmt.Fprintln(w)
			} else {
				fmt.Fprint(w, "\t")
			}
		}
		return 0
	}
	if display || len(args) == 0 {
		traps := r.traps
		if r.parentTraps != nil {
			// A subshell shows the traps it inherited but does not run,
			// until it sets one itself (bash: `saved=$(trap -p)`).
			traps = r.parentTraps
		}
		keys := slices.Collect(maps.Keys(traps))
		if len(args) > 0 {
			keys = keys[:0]
			for _, a := range args {
				n, ok := signalNumber(a)
				if !ok {
					r.builtinErr("trap", "%s: invalid signal specification", a)
					return 1
				}
				keys = append(keys, trapKey(a, n))
			}
		} else {
			slices.SortFunc(keys, func(a, b string) int { return trapOrder(a) - trapOrder(b) })
		}
		for _, k := range keys {
			if cmd, ok := traps[k]; ok {
				fmt.Fprintf(w, "trap -- %s %s\n", aliasQuote(cmd), trapDisplayName(k))
			}
		}
		return 0
	}
	// As in bash: a first word that is a signal number, or a lone signal
	// name, resets; "-" resets; "" ignores; anything else is the handler.
	first := args[0]
	sigs := args[1:]
	reset := false
	if n, ok := signalNumber(first); ok && n >= 0 && allDigits(first) {
		reset, sigs = true, args
	} else if ok && len(args) == 1 && !r.opts.posix {
		reset, sigs = true, args
	} else if len(sigs) == 0 {
		r.usageErr("trap")
		return 2
	} else if first == "-" {
		reset = true
	}
	if r.parentTraps != nil {
		r.parentTraps = nil
	}
	status := 0
	for _, s := range sigs {
		n, ok := signalNumber(s)
		if !ok {
			r.builtinErr("trap", "%s: invalid signal specification", s)
			status = 1
			continue
		}
		if r.ignoredOnEntry&sigBit(n) != 0 {
			continue // bash leaves a signal ignored on entry alone, silently
		}
		key := trapKey(s, n)
		if reset {
			delete(r.traps, key)
		} else {
			r.traps[key] = first
		}
	}
	r.publishTraps()
	return status
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// trapOrder sorts trap keys as bash lists them: by signal number, then
// DEBUG, ERR and RETURN.
func trapOrder(key string) int {
	switch key {
	case "DEBUG":
		return 1000
	case "ERR":
		return 1001
	case "RETURN":
		return 1002
	}
	n, _ := signalNumber(key)
	return n
}

// trapDisplayName is how `trap -p` names a trap: SIGINT, EXIT, DEBUG,
// SIGRTMIN+3.
func trapDisplayName(key string) string {
	switch key {
	case "EXIT", "DEBUG", "ERR", "RETURN":
		return key
	}
	n, ok := signalNumber(key)
	switch {
	case !ok || n < 0:
		return key
	case n == 34:
		return "SIGRTMIN"
	case n == 64:
		return "SIGRTMAX"
	case n > 34 && n <= 49:
		return fmt.Sprintf("SIGRTMIN+%d", n-34)
	case n > 49 && n < 64:
		return fmt.Sprintf("SIGRTMAX-%d", 64-n)
	case n < len(signalNames):
		return "SIG" + signalNames[n]
	}
	return key
}

func trapKey(s string, n int) string {
	if n >= 0 {
		return signalName(n)
	}
	return strings.TrimPrefix(strings.ToUpper(s), "SIG")
}

// biKill sends virtual signals to jobs or to the shell itself.
func (r *Runner) biKill(ctx context.Context, args []string) int {
	sig := 15
	args = args[1:]
	if len(args) == 0 {
		r.builtinErr("kill", "usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]")
		return 2
	}
	switch {
	case args[0] == "-l" || args[0] == "-L":
		if len(args) > 1 {
			for _, a := range args[1:] {
				n, err := strconv.Atoi(a)
				if err == nil {
					if n > 128 {
						n -= 128
					}
					fmt.Fprintln(r.out(), signalName(n))
				} else if n, ok := signalNumber(a); ok {
					fmt.Fprintln(r.out(), n)
				}
			}
			return 0
		}
		for i := 1; i < len(signalNames); i++ {
			fmt.Fprintf(r.out(), "%2d) SIG%s\n", i, signalNames[i])
		}
		return 0
	case args[0] == "-s" || args[0] == "-n":
		if len(args) < 2 {
			r.builtinErr("kill", "%s: option requires an argument", args[0])
			return 2
		}
		n, ok := signalNumber(args[1])
		if !ok {
			r.builtinErr("kill", "%s: invalid signal specification", args[1])
			return 1
		}
		sig, args = n, args[2:]
	case strings.HasPrefix(args[0], "-") && len(args[0]) > 1 && args[0] != "--":
		n, ok := signalNumber(args[0][1:])
		if !ok {
			r.builtinErr("kill", "%s: invalid signal specification", args[0][1:])
			return 1
		}
		sig, args = n, args[1:]
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	status := 0
	for _, target := range args {
		if g, ok := strings.CutPrefix(target, "-"); ok {
			// -PGID: every process of the group.
			if n, err := strconv.Atoi(g); err == nil && n > 0 {
				if !r.signalGroup(ctx, n, sig) {
					r.builtinErr("kill", "(%s) - No such process", target)
					status = 1
				}
				continue
			}
		}
		pid, err := strconv.Atoi(target)
		if strings.HasPrefix(target, "%") {
			j := r.jobs.find(target)
			switch {
			case j == nil:
				r.builtinErr("kill", "%s: no such job", target)
				status = 1
				continue
			case j.finished():
				if sig == 0 {
					status = 1
				}
				continue
			case sig != 0 && r.opts.monitor && j.pgid == j.pid:
				// A job spec names the job's whole process group.
				r.signalGroup(ctx, j.pgid, sig)
				continue
			}
			pid, err = j.pid, nil
		}
		if err != nil {
			r.builtinErr("kill", "%s: arguments must be process or job IDs", target)
			status = 1
			continue
		}
		// A pid names any process of the run: this shell, a job, or
		// another shell (`sh -c "kill -USR1 $$"` signals its parent).
		if err := r.signalPID(ctx, pid, sig); err != nil {
			r.builtinErr("kill", "(%s) - No such process", target)
			status = 1
		}
	}
	return status
}

// biWait waits for jobs.
func (r *Runner) biWait(ctx context.Context, args []string) int {
	args = args[1:]
	anyOne := false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		if args[0] == "-n" {
			anyOne = true
		}
		args = args[1:]
	}
	if len(args) == 0 {
		jobs := r.jobs.list()
		if anyOne {
			if len(jobs) == 0 {
				return 127
			}
			cases := make(chan *job, len(jobs))
			for _, j := range jobs {
				j := j
				go func() { <-j.done; cases <- j }()
			}
			for {
				select {
				case j := <-cases:
					r.reap(j)
					return j.status
				case <-ctx.Done():
					return 130
				case <-r.sigWake():
					if sig := r.sigs.trappedPending(); sig != 0 {
						return 128 + sig
					}
				}
			}
		}
		for _, j := range jobs {
			if st, intr := r.waitJob(ctx, j); intr {
				return st
			}
		}
		return 0
	}
	status := 0
	for _, a := range args {
		j := r.jobs.find(a)
		if j == nil {
			if strings.HasPrefix(a, "%") {
				r.builtinErr("wait", "%s: no such job", a)
			} else {
				r.builtinErr("wait", "pid %s is not a child of this shell", a)
			}
			status = 127
			continue
		}
		var intr bool
		if status, intr = r.waitJob(ctx, j); intr {
			return status
		}
	}
	return status
}

func (r *Runner) biJobs(_ context.Context, args []string) int {
	pidsOnly := len(args) > 1 && args[1] == "-p"
	long := len(args) > 1 && args[1] == "-l"
	jobs := r.jobsSorted()
	for i, j := range jobs {
		if pidsOnly {
			fmt.Fprintln(r.out(), j.pid)
			continue
		}
		mark := " "
		switch i {
		case len(jobs) - 1:
			mark = "+"
		case len(jobs) - 2:
			mark = "-"
		}
		state := j.stateString()
		if long {
			fmt.Fprintf(r.out(), "[%d]%s %d %-22s%s &\n", j.id, mark, j.pid, state, j.text)
		} else {
			fmt.Fprintf(r.out(), "[%d]%s  %-24s%s &\n", j.id, mark, state, j.text)
		}
		if j.finished() {
			r.jobs.remove(j)
		}
	}
	return 0
}

func (r *Runner) biFg(ctx context.Context, args []string) int {
	spec := "%%"
	if len(args) > 1 {
		spec = args[1]
	}
	j := r.jobs.find(spec)
	if j == nil {
		r.builtinErr(args[0], "%s: no such job", strings.TrimPrefix(spec, "%"))
		return 1
	}
	if args[0] == "bg" {
		fmt.Fprintf(r.out(), "[%d]+ %s &\n", j.id, j.text)
		return 0
	}
	fmt.Fprintln(r.out(), j.text)
	st, _ := r.waitJobFor(ctx, j, nil)
	return st
}

func (r *Runner) biDisown(_ context.Context, args []string) int {
	for _, a := range args[1:] {
		if a == "-a" || a == "-r" || a == "-h" {
			for _, j := range r.jobs.list() {
				r.jobs.remove(j)
			}
			continue
		}
		if j := r.jobs.find(a); j != nil {
			r.jobs.remove(j)
		}
	}
	if len(args) == 1 {
		if j := r.jobs.find("%%"); j != nil {
			r.jobs.remove(j)
		}
	}
	return 0
}

// biGetopts implements getopts optstring name [arg...].
func (r *Runner) biGetopts(_ context.Context, args []string) int {
	args, ok := r.noOpts(args)
	if !ok {
		return 2
	}
	if len(args) < 2 {
		r.usageErr("getopts")
		return 2
	}
	optstr, name := args[0], args[1]
	params := r.params
	if len(args) > 2 {
		params = args[2:]
	}
	silent := strings.HasPrefix(optstr, ":")
	if silent {
		optstr = optstr[1:]
	}
	optind, _ := strconv.Atoi(r.getVar("OPTIND").String())
	if optind < 1 {
		optind = 1
	}
	if optind == 1 && r.getoptsChar > 0 && r.getoptsLastInd != 1 {
		r.getoptsChar = 0
	}
	// setName stores the option letter; like bash it fails (status 1)
	// on an invalid name only after OPTIND and OPTARG were set.
	setName := func(val string) int {
		if !syntax.ValidName(name) {
			r.builtinErr("getopts", "`%s': not a valid identifier", name)
			return 1
		}
		if err := r.setString(name, val, false); err != nil {
			r.assignError(err)
			return 1
		}
		return 0
	}
	done := func() int {
		r.unsetVar("OPTARG")
		setName("?")
		r.setString("OPTIND", strconv.Itoa(optind), false)
		r.getoptsChar = 0
		return 1
	}
	if optind > len(params) {
		optind = len(params) + 1
		return done()
	}
	arg := params[optind-1]
	if r.getoptsChar == 0 {
		if len(arg) < 2 || arg[0] != '-' {
			return done()
		}
		if arg == "--" {
			optind++
			return done()
		}
		r.getoptsChar = 1
	}
	c := arg[r.getoptsChar]
	r.getoptsChar++
	advance := func() {
		if r.getoptsChar >= len(arg) {
			optind++
			r.getoptsChar = 0
		}
	}
	i := strings.IndexByte(optstr, c)
	if i < 0 || c == ':' {
		advance()
		if silent {
			r.setString("OPTARG", string(c), false)
		} else {
			fmt.Fprintf(r.fds.writer(2), "%s: illegal option -- %c\n", r.prefix(), c)
			r.unsetVar("OPTARG")
		}
		r.setString("OPTIND", strconv.Itoa(optind), false)
		r.getoptsLastInd = optind
		return setName("?")
	}
	if i+1 < len(optstr) && optstr[i+1] == ':' {
		var val string
		if r.getoptsChar < len(arg) {
			val = arg[r.getoptsChar:]
			optind++
			r.getoptsChar = 0
		} else if optind < len(params) {
			val = params[optind]
			optind += 2
			r.getoptsChar = 0
		} else {
			optind++
			r.getoptsChar = 0
			letter := "?"
			if silent {
				letter = ":"
				r.setString("OPTARG", string(c), false)
			} else {
				fmt.Fprintf(r.fds.writer(2), "%s: option requires an argument -- %c\n", r.prefix(), c)
				r.unsetVar("OPTARG")
			}
			r.setString("OPTIND", strconv.Itoa(optind), false)
			r.getoptsLastInd = optind
			return setName(letter)
		}
		r.setString("OPTARG", val, false)
	} else {
		advance()
		r.unsetVar("OPTARG")
	}
	r.setString("OPTIND", strconv.Itoa(optind), false)
	r.getoptsLastInd = optind
	return setName(string(c))
}

// biCompgen lists completions, as used by scripts and the REPL. Like
// bash's, the candidates come from the actions (-A, -c, -f, ...), -G's
// glob, -W's words and -F's function, in that order; those of the actions
// and -W start with word; -X's pattern then drops candidates (or keeps only
// them, after a !), -P and -S wrap them, and -o plusdirs adds the
// directories that start with word.
func (r *Runner) biCompgen(ctx context.Context, args []string) int {
	var wordlist, globpat, filter, fn string
	var haveW, haveG, haveX, plusdirs, dirnames bool
	prefix, suffix := "", ""
	var actions []string
	args = args[1:]
	word := ""
	for len(args) > 0 {
		a := args[0]
		args = args[1:]
		if !strings.HasPrefix(a, "-") || a == "-" {
			word = a
			continue
		}
		if a == "--" {
			if len(args) > 0 {
				word = args[0]
			}
			break
		}
		for i := 1; i < len(a); i++ {
			c := a[i]
			switch c {
			case 'W', 'P', 'S', 'A', 'G', 'X', 'F', 'C', 'o':
				v := a[i+1:]
				if v == "" {
					if len(args) == 0 {
						r.builtinErr("compgen", "-%c: option requires an argument", c)
						return 2
					}
					v, args = args[0], args[1:]
				}
				i = len(a)
				switch c {
				case 'W':
					wordlist, haveW = v, true
				case 'P':
					prefix = v
				case 'S':
					suffix = v
				case 'A':
					actions = append(actions, v)
				case 'G':
					globpat, haveG = v, true
				case 'X':
					filter, haveX = v, true
				case 'F':
					fn = v
				case 'o':
					switch v {
					case "plusdirs":
						plusdirs = true
					case "dirnames":
						dirnames = true
					case "bashdefault", "default", "filenames", "noquote", "nosort", "nospace", "fullquote":
					default:
						r.builtinErr("compgen", "%s: invalid option name", v)
						return 2
					}
				}
			case 'c':
				actions = append(actions, "command")
			case 'f':
				actions = append(actions, "file")
			case 'd':
				actions = append(actions, "directory")
			case 'v':
				actions = append(actions, "variable")
			case 'a':
				actions = append(actions, "alias")
			case 'b':
				actions = append(actions, "builtin")
			case 'k':
				actions = append(actions, "keyword")
			case 'e':
				actions = append(actions, "export")
			case 'j':
				actions = append(actions, "job")
			case 's':
				actions = append(actions, "service")
			case 'u':
				actions = append(actions, "user")
			case 'g':
				actions = append(actions, "group")
			default:
				r.builtinErr("compgen", "-%c: invalid option", c)
				return 2
			}
		}
	}
	var out []string
	for _, act := range actions {
		out = append(out, r.compAction(act, word)...)
	}
	if haveG {
		out = append(out, r.compGlob(ctx, globpat)...)
	}
	if haveW {
		for _, w := range r.compWords(ctx, wordlist) {
			if strings.HasPrefix(w, word) {
				out = append(out, w)
			}
		}
	}
	if fn != "" {
		r.builtinErr("compgen", "warning: -F option may not work as you expect")
		body, ok := r.funcs[fn]
		if !ok {
			r.errf("completion: function `%s' not found", fn)
			return 1
		}
		r.unsetVar("COMPREPLY")
		r.callFunc(ctx, fn, body, []string{fn, "compgen", word, ""})
		out = append(out, r.compWords(ctx, `"${COMPREPLY[@]}"`)...)
		r.unsetVar("COMPREPLY")
	}
	if haveX {
		out = r.compFilter(filter, word, out)
	}
	if plusdirs || dirnames && len(out) == 0 {
		out = append(out, r.compAction("directory", word)...)
	}
	status := 1
	seen := make(map[string]bool, len(out))
	for _, s := range out {
		if seen[s] {
			continue
		}
		seen[s] = true
		fmt.Fprintln(r.out(), prefix+s+suffix)
		status = 0
	}
	return status
}

// compAction lists the names an action of compgen/complete -A gives for
// word.
func (r *Runner) compAction(act, word string) []string {
	var out []string
	add := func(names ...string) {
		for _, n := range names {
			if strings.HasPrefix(n, word) {
				out = append(out, n)
			}
		}
	}
	switch act {
	case "command":
		out = append(out, r.Completions(word)...)
		out = append(out, r.commandNames(word)...)
		add(slices.Collect(maps.Keys(keywords))...)
	case "function":
		add(slices.Collect(maps.Keys(r.funcs))...)
	case "builtin", "enabled":
		add(builtinNames...)
	case "keyword":
		add(slices.Collect(maps.Keys(keywords))...)
	case "alias":
		add(slices.Collect(maps.Keys(r.aliases))...)
	case "variable", "export", "arrayvar":
		for _, n := range r.varNames() {
			v, _ := r.lookup(n)
			if act == "export" && (v == nil || !v.Exported) || act == "arrayvar" && (v == nil || v.Kind != expand.Indexed && v.Kind != expand.Associative) {
				continue
			}
			add(n)
		}
	case "setopt":
		for _, o := range setOptions {
			add(o.name)
		}
	case "shopt":
		add(shoptNames()...)
	case "file", "directory":
		// bash marks no directory with a slash here, unlike the
		// REPL's completion of paths.
		for _, p := range r.CompletePath(word, act == "directory") {
			out = append(out, strings.TrimSuffix(p, "/"))
		}
		return out
	}
	slices.Sort(out)
	return out
}

// compWords expands compgen's -W list as bash does: shell words, with
// quoting honoured, each expanded ("${arr[@]}" gives each element).
func (r *Runner) compWords(ctx context.Context, list string) []string {
	var words []*syntax.Word
	err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Words(parseguard.String(ctx, list), func(w *syntax.Word) bool {
		words = append(words, w)
		return len(words) < maxCompWords
	})
	if err != nil {
		return expand.ReadFields(r.ecfg(ctx), list, -1, true)
	}
	fields, err := r.argFields(ctx, words...)
	if err != nil {
		r.expandError(err)
		return nil
	}
	return fields
}

// maxCompWords bounds the words of one -W list.
const maxCompWords = 100_000

// compGlob lists the paths -G's pattern matches (none when nothing
// does).
func (r *Runner) compGlob(ctx context.Context, pat string) []string {
	saved := r.opts.nullglob
	r.opts.nullglob = true
	defer func() { r.opts.nullglob = saved }()
	w := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: pat}}}
	fields, err := r.argFields(ctx, w)
	if err != nil {
		return nil
	}
	return fields
}

// compFilter applies -X's pattern: an unescaped & in it stands for word,
// and a leading ! keeps the candidates that match instead of dropping
// them.
func (r *Runner) compFilter(pat, word string, cands []string) []string {
	neg := strings.HasPrefix(pat, "!")
	if neg {
		pat = pat[1:]
	}
	var sb strings.Builder
	for i := 0; i < len(pat); i++ {
		switch {
		case pat[i] == '\\' && i+1 < len(pat) && pat[i+1] == '&':
			sb.WriteString(`\&`)
			i++
		case pat[i] == '&':
			sb.WriteString(pattern.QuoteMeta(word, 0))
		default:
			sb.WriteByte(pat[i])
		}
	}
	pat = sb.String()
	var out []string
	for _, c := range cands {
		if r.matchPattern(pat, c) == neg {
			out = append(out, c)
		}
	}
	return out
}

// commandNames lists the in-process commands the gateway would run.
func (r *Runner) commandNames(prefix string) []string {
	lister, ok := r.s.gw.(interface{ CommandNames() []string })
	if !ok {
		return nil
	}
	var out []string
	for _, n := range lister.CommandNames() {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	return out
}

// CompletePath lists sandbox paths starting with word, for completion.
func (r *Runner) CompletePath(word string, dirsOnly bool) []string {
	dir, base := "", word
	if i := strings.LastIndexByte(word, '/'); i >= 0 {
		dir, base = word[:i+1], word[i+1:]
	}
	infos, err := r.readDirForGlob(r.abs(dir + "."))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range infos {
		name := e.Name()
		if !strings.HasPrefix(name, base) || strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		isDir := e.IsDir()
		if !isDir {
			if fi, err := r.s.fs.Stat(r.abs(dir + name)); err == nil && fi.IsDir() {
				isDir = true
			}
		}
		if dirsOnly && !isDir {
			continue
		}
		if isDir {
			name += "/"
		}
		out = append(out, dir+name)
	}
	slices.Sort(out)
	return out
}

func (r *Runner) dirsList() []string {
	list := []string{r.dir}
	for i := len(r.dirStack) - 1; i >= 0; i-- {
		list = append(list, r.dirStack[i])
	}
	return list
}

func (r *Runner) tildeDir(d string) string {
	home := r.getVar("HOME").String()
	if home != "" && (d == home || strings.HasPrefix(d, home+"/")) {
		return "~" + d[len(home):]
	}
	return d
}

func (r *Runner) printDirs(long bool) {
	var parts []string
	for _, d := range r.dirsList() {
		if !long {
			d = r.tildeDir(d)
		}
		parts = append(parts, d)
	}
	fmt.Fprintln(r.out(), strings.Join(parts, " "))
}

// stackArgs parses the operands of dirs, pushd and popd the way bash
// does: their flags, "--", and +N / -N stack indexes. num is set when an
// index was given (fromRight for -N); operands are the other words.
type stackArgs struct {
	flags     string
	num       int
	hasNum    bool
	fromRight bool
	operands  []string
}

func (r *Runner) parseStackArgs(name, flags string, args []string) (stackArgs, bool) {
	var sa stackArgs
	opts := true
	for _, a := range args[1:] {
		switch {
		case opts && a == "--":
			opts = false
		case opts && len(a) > 1 && (a[0] == '+' || a[0] == '-') && allDigits(a[1:]):
			n, err := strconv.Atoi(a[1:])
			if err != nil || n > 1<<20 {
				n = 1 << 20
			}
			sa.num, sa.hasNum, sa.fromRight = n, true, a[0] == '-'
		case opts && len(a) > 1 && a[0] == '-':
			for i := 1; i < len(a); i++ {
				if strings.IndexByte(flags, a[i]) < 0 {
					r.builtinErr(name, "%s: invalid number", a)
					r.usageErr(name)
					return sa, false
				}
				sa.flags += string(a[i])
			}
		default:
			sa.operands = append(sa.operands, a)
		}
	}
	return sa, true
}

// stackIndex turns +N/-N into an index of dirsList, or -1.
func (r *Runner) stackIndex(sa stackArgs) int {
	n := len(r.dirStack) + 1
	i := sa.num
	if sa.fromRight {
		i = n - 1 - sa.num
	}
	if i < 0 || i >= n {
		return -1
	}
	return i
}

// setDirsList stores a full list (current directory first) back.
func (r *Runner) setDirsList(list []string) {
	r.dirStack = r.dirStack[:0]
	for i := len(list) - 1; i >= 1; i-- {
		r.dirStack = append(r.dirStack, list[i])
	}
}

func (r *Runner) biDirs(_ context.Context, args []string) int {
	sa, ok := r.parseStackArgs("dirs", "clpv", args)
	if !ok {
		return 2
	}
	if len(sa.operands) > 0 {
		r.builtinErr("dirs", "%s: invalid option", sa.operands[0])
		r.usageErr("dirs")
		return 2
	}
	long := strings.Contains(sa.flags, "l")
	show := func(d string) string {
		if long {
			return d
		}
		return r.tildeDir(d)
	}
	if strings.Contains(sa.flags, "c") {
		r.dirStack = nil
		return 0
	}
	list := r.dirsList()
	if sa.hasNum {
		i := r.stackIndex(sa)
		if i < 0 {
			r.builtinErr("dirs", "%d: directory stack index out of range", sa.num)
			return 1
		}
		fmt.Fprintln(r.out(), show(list[i]))
		return 0
	}
	switch {
	case strings.Contains(sa.flags, "v"):
		for i, d := range list {
			fmt.Fprintf(r.out(), "%2d  %s\n", i, show(d))
		}
	case strings.Contains(sa.flags, "p"):
		for _, d := range list {
			fmt.Fprintln(r.out(), show(d))
		}
	default:
		r.printDirs(long)
	}
	return 0
}

func (r *Runner) biPushd(ctx context.Context, args []string) int {
	sa, ok := r.parseStackArgs("pushd", "n", args)
	if !ok {
		return 2
	}
	noCd := strings.Contains(sa.flags, "n")
	if len(sa.operands) > 1 || len(sa.operands) == 1 && sa.hasNum {
		r.builtinErr("pushd", "too many arguments")
		return 1
	}
	list := r.dirsList()
	switch {
	case sa.hasNum:
		// Rotate so that entry N comes to the top.
		i := r.stackIndex(sa)
		if i < 0 {
			r.builtinErr("pushd", "%d: directory stack index out of range", sa.num)
			return 1
		}
		list = append(list[i:], list[:i]...)
	case len(sa.operands) == 0:
		if len(list) < 2 {
			r.builtinErr("pushd", "no other directory")
			return 1
		}
		list[0], list[1] = list[1], list[0]
	case noCd:
		list = append([]string{list[0], r.abs(sa.operands[0])}, list[1:]...)
		r.setDirsList(list)
		r.printDirs(false)
		return 0
	default:
		old := r.dir
		if st := r.biCd(ctx, []string{"cd", "--", sa.operands[0]}); st != 0 {
			return st
		}
		r.dirStack = append(r.dirStack, old)
		r.printDirs(false)
		return 0
	}
	if !noCd && list[0] != r.dir {
		if st := r.biCd(ctx, []string{"cd", "--", list[0]}); st != 0 {
			return st
		}
	}
	list[0] = r.dir
	r.setDirsList(list)
	r.printDirs(false)
	return 0
}

func (r *Runner) biPopd(ctx context.Context, args []string) int {
	sa, ok := r.parseStackArgs("popd", "n", args)
	if !ok {
		return 2
	}
	if len(sa.operands) > 0 {
		r.builtinErr("popd", "%s: invalid argument", sa.operands[0])
		r.usageErr("popd")
		return 2
	}
	if len(r.dirStack) == 0 {
		r.builtinErr("popd", "directory stack empty")
		return 1
	}
	noCd := strings.Contains(sa.flags, "n")
	list := r.dirsList()
	i := 0
	if sa.hasNum {
		if i = r.stackIndex(sa); i < 0 {
			r.builtinErr("popd", "%s%d: directory stack index out of range", map[bool]string{true: "-", false: "+"}[sa.fromRight], sa.num)
			return 1
		}
	} else if noCd {
		i = 1
	}
	list = append(list[:i:i], list[i+1:]...)
	if i == 0 && !noCd {
		if st := r.biCd(ctx, []string{"cd", "--", list[0]}); st != 0 {
			return st
		}
		list[0] = r.dir
	}
	r.setDirsList(list)
	r.printDirs(false)
	return 0
}
