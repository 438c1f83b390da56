package builtins

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

const xargsUsage = `Usage: xargs [OPTION]... COMMAND [INITIAL-ARGS]...
Run COMMAND with arguments INITIAL-ARGS and more arguments read from input.

  -0, --null                   items are separated by a null, not whitespace;
                                 disables quote and backslash processing and
                                 logical EOF processing
  -a, --arg-file=FILE          read arguments from FILE, not standard input
  -d, --delimiter=CHARACTER    items in input stream are separated by CHARACTER,
                                 not by whitespace
  -E END                       set logical EOF string; if END occurs as a line
                                 of input, the rest of the input is ignored
  -e, --eof[=END]              equivalent to -E END if END is specified;
                                 otherwise, there is no end-of-file string
  -I R                         same as --replace=R
  -i, --replace[=R]            replace R in INITIAL-ARGS with names read
                                 from standard input, split at newlines;
                                 if R is unspecified, assume {}
  -L, --max-lines=MAX-LINES    use at most MAX-LINES non-blank input lines per
                                 command line
  -l[MAX-LINES]                similar to -L but defaults to at most one non-
                                 blank input line if MAX-LINES is not specified
  -n, --max-args=MAX-ARGS      use at most MAX-ARGS arguments per command line
  -P, --max-procs=MAX-PROCS    run at most MAX-PROCS processes at a time
  -p, --interactive            prompt before running commands
  -r, --no-run-if-empty        if there are no arguments, then do not run COMMAND;
                                 if this option is not given, COMMAND will be
                                 run at least once
  -s, --max-chars=MAX-CHARS    limit length of command line to MAX-CHARS
      --show-limits            show limits on command-line length
  -t, --verbose                print commands before executing them
  -x, --exit                   exit if the size (see -s) is exceeded
      --help                   display this help and exit
`

// xargs limits, as GNU xargs computes them on Linux.
const (
	xargsBufSize   = 131072  // default command buffer
	xargsPosixMax  = 2095085 // ARG_MAX minus the headroom xargs keeps
	xargsMaxProcs  = 16      // sandsh's cap on -P
	xargsMaxArgCnt = 1 << 31
)

// xargsFatal ends xargs with a status after pending work is done; it
// carries the message to print.
type xargsFatal struct {
	msg    string
	status int
}

func (e *xargsFatal) Error() string { return e.msg }

// xargsConfig holds the parsed options.
type xargsConfig struct {
	delim      int // -1: whitespace/quote parsing
	eofStr     string
	hasEOF     bool
	replace    string
	hasReplace bool
	maxLines   int
	maxArgs    int
	maxChars   int
	procs      int
	noRunEmpty bool
	verbose    bool
	prompt     bool
	exitSize   bool
	argFile    string
	showLimits bool
}

func runXargs(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	cfg, cmd, st := xargsParse(env, name, args[1:])
	if st >= 0 {
		return st
	}
	if len(cmd) == 0 {
		cmd = []string{"echo"}
	}
	envSize := 0
	for _, kv := range env.Environ {
		envSize += len(kv) + 1
	}
	limit := xargsPosixMax - envSize
	if cfg.showLimits {
		xargsShowLimits(env, envSize, limit, cfg.maxChars)
	}
	if cfg.maxChars > limit {
		fmt.Fprintf(env.Stderr, "%s: value %d for -s option should be <= %d\n", name, cfg.maxChars, limit)
		cfg.maxChars = limit
	}
	in := env.Stdin
	cmdStdin := io.Reader(strings.NewReader(""))
	if cfg.argFile != "" {
		if cfg.argFile != "-" {
			f, err := env.Open(cfg.argFile)
			if err != nil {
				env.Errorf(name, "Cannot open input file %s: %s", shellQuoteGNU(cfg.argFile), ErrText(err))
				return 1
			}
			defer f.Close()
			in = f
			cmdStdin = env.Stdin
		}
	}
	x := &xargsRun{ctx: ctx, env: env, name: name, cfg: cfg, cmd: cmd, stdin: cmdStdin,
		in: bufio.NewReaderSize(in, 64<<10)}
	x.setup()
	err := x.loop()
	x.wait()
	var fatal *xargsFatal
	if errors.As(err, &fatal) {
		if fatal.msg != "" {
			env.Errorf(name, "%s", fatal.msg)
		}
		return fatal.status
	}
	if ctxDone(err) {
		return 130 // cancelled while waiting for input: the run says why
	}
	if err != nil {
		env.Errorf(name, "%s", ErrText(err))
		return 1
	}
	return x.status()
}

var xargsGetopt = Getopt{Short: "+0a:d:E:e::I:i::L:l::n:P:prs:tx",
	Long: []string{"null", "arg-file=", "delimiter=", "eof?", "replace?", "max-lines=", "max-args=",
		"max-procs=", "interactive", "no-run-if-empty", "max-chars=", "verbose", "exit", "show-limits",
		"help", "version", "open-tty", "process-slot-var="},
	LongAlias: map[string]string{"null": "0", "arg-file": "a", "delimiter": "d", "eof": "e", "replace": "i",
		"max-lines": "L", "max-args": "n", "max-procs": "P", "interactive": "p", "no-run-if-empty": "r",
		"max-chars": "s", "verbose": "t", "exit": "x", "open-tty": "o"}}

// xargsParse parses options; st >= 0 means exit with that status now.
func xargsParse(env *Env, name string, args []string) (xargsConfig, []string, int) {
	cfg := xargsConfig{delim: -1, maxChars: xargsBufSize, procs: 1}
	g := xargsGetopt
	opts, ops, err := g.Parse(args)
	if err != nil {
		return cfg, nil, env.UsageError(name, err, 1)
	}
	num := func(o Opt, min int) (int, bool) {
		v, err := strconv.ParseInt(o.Value, 10, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) || o.Value == "" {
			fmt.Fprintf(env.Stderr, "%s: invalid number \"%s\" for -%s option\n", name, o.Value, o.Name)
			fmt.Fprintf(env.Stderr, "Try '%s --help' for more information.\n", name)
			return 0, false
		}
		if v < int64(min) {
			fmt.Fprintf(env.Stderr, "%s: value %s for -%s option should be >= %d\n", name, o.Value, o.Name, min)
			fmt.Fprintf(env.Stderr, "Try '%s --help' for more information.\n", name)
			return 0, false
		}
		return int(min64(v, xargsMaxArgCnt)), true
	}
	for _, o := range opts {
		var ok = true
		switch o.Name {
		case "help":
			io.WriteString(env.Stdout, xargsUsage)
			return cfg, nil, 0
		case "version":
			return cfg, nil, shellPrintln(env, name, "xargs (GNU findutils) 4.9.0")
		case "0":
			cfg.delim = 0
		case "a":
			cfg.argFile = o.Value
		case "d":
			d, err := xargsDelimiter(o.Value)
			if err != nil {
				env.Errorf(name, "%v", err)
				return cfg, nil, 1
			}
			cfg.delim = d
		case "E":
			cfg.eofStr, cfg.hasEOF = o.Value, true
		case "e":
			cfg.eofStr, cfg.hasEOF = o.Value, o.HasValue && o.Value != ""
		case "I", "i":
			xargsExclusive(env, name, &cfg.maxArgs, "--max-args and --replace/-I/-i", "--max-args")
			xargsExclusive(env, name, &cfg.maxLines, "--max-lines and --replace/-I/-i", "--max-lines")
			cfg.replace, cfg.hasReplace = o.Value, true
			if o.Name == "i" && !o.HasValue {
				cfg.replace = "{}"
			}
		case "L", "l":
			xargsExclusive(env, name, &cfg.maxArgs, "--max-args and -L", "--max-args")
			if cfg.hasReplace {
				fmt.Fprintf(env.Stderr, "%s: warning: options --replace and -L are mutually exclusive, ignoring previous --replace value\n", name)
				cfg.hasReplace = false
			}
			cfg.maxLines = 1
			if o.Name == "L" || o.HasValue {
				cfg.maxLines, ok = num(o, 1)
			}
		case "n":
			xargsExclusive(env, name, &cfg.maxLines, "--max-lines and --max-args/-n", "--max-lines")
			cfg.maxArgs, ok = num(o, 1)
		case "P":
			cfg.procs, ok = num(o, 0)
			if cfg.procs == 0 || cfg.procs > xargsMaxProcs {
				cfg.procs = xargsMaxProcs
			}
		case "p":
			cfg.prompt, cfg.verbose = true, true
		case "r":
			cfg.noRunEmpty = true
		case "s":
			cfg.maxChars, ok = num(o, 1)
		case "t":
			cfg.verbose = true
		case "x":
			cfg.exitSize = true
		case "show-limits":
			cfg.showLimits = true
		case "o":
			env.Errorf(name, "failed to open /dev/tty for reading: No such device or address")
			return cfg, nil, 1
		}
		if !ok {
			return cfg, nil, 1
		}
	}
	if cfg.hasReplace || cfg.maxLines > 0 {
		cfg.exitSize = true
	}
	return cfg, ops, -1
}

// xargsExclusive drops an earlier option that a later one overrides,
// with GNU's warning.
func xargsExclusive(env *Env, name string, v *int, pair, which string) {
	if *v > 0 {
		fmt.Fprintf(env.Stderr, "%s: warning: options %s are mutually exclusive, ignoring previous %s value\n", name, pair, which)
		*v = 0
	}
}

func min64(a, b int64) int64 {
	if a < b {
		return a
	}
	return b
}

// xargsDelimiter parses -d's argument: one character or an escape.
func xargsDelimiter(s string) (int, error) {
	bad := fmt.Errorf("Invalid input delimiter specification %s: the delimiter must be either a single character or an escape sequence starting with \\.", s)
	switch {
	case len(s) == 1:
		return int(s[0]), nil
	case len(s) < 2 || s[0] != '\\':
		return 0, bad
	}
	switch c := s[1]; {
	case len(s) == 2 && strings.IndexByte("abfnrtv\\", c) >= 0:
		if c == '\\' {
			return '\\', nil
		}
		return int(shellSimpleEscape(c)), nil
	case c == 'x':
		v, err := strconv.ParseUint(s[2:], 16, 8)
		if err != nil {
			return 0, fmt.Errorf("Invalid escape sequence %s in input delimiter specification; character values must not exceed %s.", s, "0xff")
		}
		return int(v), nil
	case c >= '0' && c <= '7':
		v, err := strconv.ParseUint(s[1:], 8, 8)
		if err != nil {
			return 0, fmt.Errorf("Invalid escape sequence %s in input delimiter specification; character values must not exceed %s.", s, "0377")
		}
		return int(v), nil
	}
	return 0, fmt.Errorf("Invalid escape sequence %s in input delimiter specification.", s)
}

func xargsShowLimits(env *Env, envSize, limit, bufSize int) {
	fmt.Fprintf(env.Stderr, "Your environment variables take up %d bytes\n", envSize)
	fmt.Fprintf(env.Stderr, "POSIX upper limit on argument length (this system): %d\n", xargsPosixMax)
	fmt.Fprintf(env.Stderr, "POSIX smallest allowable upper limit on argument length (all systems): 4096\n")
	fmt.Fprintf(env.Stderr, "Maximum length of command we could actually use: %d\n", limit)
	fmt.Fprintf(env.Stderr, "Size of command buffer we are actually using: %d\n", min(bufSize, limit))
	fmt.Fprintf(env.Stderr, "Maximum parallelism (--max-procs must be no greater): %d\n", xargsMaxProcs)
}

// xargsRun is one xargs invocation: it reads items, batches them into
// command lines and runs them, up to cfg.procs at a time.
type xargsRun struct {
	ctx   context.Context
	env   *Env
	name  string
	cfg   xargsConfig
	cmd   []string
	stdin io.Reader
	in    *bufio.Reader

	args      []string // pending arguments after the initial ones
	chars     int      // size of the pending command line, with NULs
	initChars int
	lines     int
	ran       bool
	eof       bool

	mu       sync.Mutex
	wg       sync.WaitGroup
	slots    chan struct{}
	worst    int   // 123 once any command failed
	abort    error // set by a command that ends xargs
	outMu    sync.Mutex
	out, err io.Writer
}

func (x *xargsRun) setup() {
	x.slots = make(chan struct{}, x.cfg.procs)
	x.out, x.err = x.env.Stdout, x.env.Stderr
	if x.cfg.procs > 1 {
		x.out = &shellLockedWriter{mu: &x.outMu, w: x.env.Stdout}
		x.err = &shellLockedWriter{mu: &x.outMu, w: x.env.Stderr}
	}
	for _, a := range x.cmd {
		x.initChars += len(a) + 1
	}
	x.chars = x.initChars
}

// shellLockedWriter serialises writes from concurrent commands.
type shellLockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *shellLockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (x *xargsRun) status() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.worst
}

// loop reads the input and runs commands as batches fill.
func (x *xargsRun) loop() error {
	if x.cfg.hasReplace {
		return x.replaceLoop()
	}
	if x.initChars > x.cfg.maxChars {
		return &xargsFatal{"cannot fit single argument within argument list size limit", 1}
	}
	for {
		if err := x.failed(); err != nil {
			return err
		}
		item, ok, err := x.next()
		if err != nil {
			x.flushPending()
			return err
		}
		if !ok {
			break
		}
		if item.isArg {
			if err := x.push(item.text); err != nil {
				return err
			}
		}
		if item.endLine && x.cfg.maxLines > 0 {
			x.lines++
			if x.lines >= x.cfg.maxLines {
				if err := x.exec(); err != nil {
					return err
				}
				x.lines = 0
			}
		}
	}
	if len(x.args) > 0 || !x.cfg.noRunEmpty && !x.ran {
		return x.exec()
	}
	return nil
}

// flushPending runs what was collected before a fatal input error, like
// GNU's exec_if_possible.
func (x *xargsRun) flushPending() {
	if len(x.args) > 0 {
		x.exec()
	}
}

// push adds an argument, first running the pending batch when the
// argument would overflow -s or -n.
func (x *xargsRun) push(arg string) error {
	size := len(arg) + 1
	if x.chars+size > x.cfg.maxChars {
		if len(x.args) == 0 {
			return &xargsFatal{"argument line too long", 1}
		}
		if x.cfg.exitSize {
			return &xargsFatal{"argument list too long", 1}
		}
		if err := x.exec(); err != nil {
			return err
		}
	}
	if x.cfg.maxArgs > 0 && len(x.args) >= x.cfg.maxArgs {
		if err := x.exec(); err != nil {
			return err
		}
	}
	x.args = append(x.args, arg)
	x.chars += size
	return nil
}

// replaceLoop is -I: one command per input line, with the line
// substituted into the initial arguments (not the command name).
func (x *xargsRun) replaceLoop() error {
	for {
		if err := x.failed(); err != nil {
			return err
		}
		item, ok, err := x.next()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		argv := []string{x.cmd[0]}
		size := len(x.cmd[0]) + 1
		for _, a := range x.cmd[1:] {
			r := strings.ReplaceAll(a, x.cfg.replace, item.text)
			argv = append(argv, r)
			size += len(r) + 1
		}
		if size > x.cfg.maxChars {
			return &xargsFatal{"argument line too long", 1}
		}
		if err := x.start(argv); err != nil {
			return err
		}
	}
}

// xargsItem is one token from the input: an argument and/or the end of
// an input line (for -L).
type xargsItem struct {
	text    string
	isArg   bool
	endLine bool
}

// next returns the next input item; ok is false at the end of input or at
// the logical EOF string.
func (x *xargsRun) next() (xargsItem, bool, error) {
	if x.eof {
		return xargsItem{}, false, nil
	}
	if x.cfg.delim >= 0 {
		return x.nextDelimited()
	}
	return x.nextWord()
}

// nextDelimited reads an item ending at the -d / -0 delimiter.
func (x *xargsRun) nextDelimited() (xargsItem, bool, error) {
	var buf []byte
	for {
		c, err := x.in.ReadByte()
		if err != nil {
			x.eof = true
			if err != io.EOF {
				return xargsItem{}, false, err
			}
			if len(buf) == 0 {
				return xargsItem{}, false, nil
			}
			return xargsItem{text: string(buf), isArg: true, endLine: true}, true, nil
		}
		if int(c) == x.cfg.delim {
			return xargsItem{text: string(buf), isArg: true, endLine: true}, true, nil
		}
		buf = append(buf, c)
		if len(buf)+x.initChars+1 > x.cfg.maxChars {
			x.flushPending()
			return xargsItem{}, false, &xargsFatal{"argument line too long", 1}
		}
	}
}

// nextWord is GNU's read_line: blanks separate words (except under -I,
// where the line is one item), quotes group, a backslash escapes, and a
// line ending in a blank continues on the next line.
func (x *xargsRun) nextWord() (xargsItem, bool, error) {
	const (
		stSpace = iota
		stNorm
		stQuote
		stBackslash
	)
	state := stSpace
	var buf []byte
	var quote byte
	seen := false
	prev := -1
	for {
		ci, err := x.in.ReadByte()
		if err != nil {
			if err != io.EOF {
				return xargsItem{}, false, err
			}
			x.eof = true
			if state == stQuote {
				return xargsItem{}, false, x.unmatched(quote)
			}
			if len(buf) == 0 && !seen {
				return xargsItem{}, false, nil
			}
			if x.isEOFStr(buf) {
				return xargsItem{}, false, nil
			}
			return xargsItem{text: string(buf), isArg: true, endLine: true}, true, nil
		}
		c := ci
		p := prev
		prev = int(c)
		switch state {
		case stSpace:
			if c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' {
				continue
			}
			state = stNorm
			fallthrough
		case stNorm:
			if c == '\n' {
				if len(buf) == 0 && !seen {
					state = stSpace
					continue
				}
				if x.isEOFStr(buf) {
					x.eof = true
					return xargsItem{}, false, nil
				}
				endLine := p != ' ' && p != '\t'
				return xargsItem{text: string(buf), isArg: true, endLine: endLine}, true, nil
			}
			seen = true
			if !x.cfg.hasReplace && (c == ' ' || c == '\t') {
				if x.isEOFStr(buf) {
					x.eof = true
					return xargsItem{}, false, nil
				}
				return xargsItem{text: string(buf), isArg: true}, true, nil
			}
			switch c {
			case '\\':
				state = stBackslash
				continue
			case '\'', '"':
				state, quote = stQuote, c
				continue
			}
		case stQuote:
			if c == '\n' {
				return xargsItem{}, false, x.unmatched(quote)
			}
			if c == quote {
				state = stNorm
				continue
			}
		case stBackslash:
			state = stNorm
		}
		buf = append(buf, c)
		if len(buf)+x.initChars+1 > x.cfg.maxChars {
			x.flushPending()
			return xargsItem{}, false, &xargsFatal{"argument line too long", 1}
		}
	}
}

func (x *xargsRun) unmatched(q byte) error {
	kind := "single"
	if q == '"' {
		kind = "double"
	}
	x.flushPending()
	return &xargsFatal{fmt.Sprintf("unmatched %s quote; by default quotes are special to xargs unless you use the -0 option", kind), 1}
}

func (x *xargsRun) isEOFStr(buf []byte) bool {
	return x.cfg.hasEOF && string(buf) == x.cfg.eofStr
}

// exec runs the pending batch.
func (x *xargsRun) exec() error {
	argv := append(append([]string(nil), x.cmd...), x.args...)
	x.args = x.args[:0]
	x.chars = x.initChars
	return x.start(argv)
}

// failed reports an error that must stop xargs (a 255 exit, a missing
// command, cancellation).
func (x *xargsRun) failed() error {
	if err := x.ctx.Err(); err != nil {
		return &xargsFatal{"", 130}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.abort
}

// start runs argv, in the background when -P allows more than one.
func (x *xargsRun) start(argv []string) error {
	if err := x.failed(); err != nil {
		return err
	}
	x.ran = true
	if x.cfg.verbose {
		q := make([]string, len(argv))
		for i, a := range argv {
			q[i] = shellQuoteCoreutils(a)
		}
		line := strings.Join(q, " ")
		if x.cfg.prompt {
			fmt.Fprintf(x.err, "%s ?...", line)
			return &xargsFatal{"failed to open /dev/tty for reading: No such device or address", 1}
		}
		fmt.Fprintln(x.err, line)
	}
	x.slots <- struct{}{}
	x.wg.Add(1)
	run := func() {
		defer func() { <-x.slots; x.wg.Done() }()
		x.runOne(argv)
	}
	if x.cfg.procs > 1 {
		go run()
		return nil
	}
	run()
	return x.failed()
}

// runOne runs one command line and folds its status into the result the
// way GNU xargs does.
func (x *xargsRun) runOne(argv []string) {
	sub := x.env.Sub()
	sub.Stdin, sub.Stdout, sub.Stderr = x.stdin, x.out, x.err
	st, found := shellExec(x.ctx, x.env, sub, "xargs", argv)
	x.mu.Lock()
	defer x.mu.Unlock()
	switch {
	case !found:
		x.setAbort(&xargsFatal{fmt.Sprintf("%s: No such file or directory", argv[0]), 127})
	case st == 126 || st == 127:
		x.setAbort(&xargsFatal{"", st})
	case st == 255:
		x.setAbort(&xargsFatal{fmt.Sprintf("%s: exited with status 255; aborting", argv[0]), 124})
	case st > 128 && st < 255:
		x.setAbort(&xargsFatal{fmt.Sprintf("%s: terminated by signal %d", argv[0], st-128), 125})
	case st != 0:
		x.worst = 123
	}
}

func (x *xargsRun) setAbort(err error) {
	if x.abort == nil {
		x.abort = err
	}
}

func (x *xargsRun) wait() { x.wg.Wait() }
