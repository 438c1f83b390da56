package interp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/interp/internal/expand"
	"github.com/sandsh/sandsh/interp/internal/parseguard"
)

// maxNesting bounds how deeply script text may nest brackets before it is
// parsed: the parser recurses once per level, and a Go stack overflow is
// a fatal error that recover cannot catch.
const maxNesting = 2000

// checkNesting rejects text that nests (, {, [ or $(( deeper than
// maxNesting, counting conservatively (quotes are ignored).
func checkNesting(src []byte) error {
	depth, maxDepth := 0, 0
	for _, c := range src {
		switch c {
		case '(', '{', '[':
			depth++
			if depth > maxDepth {
				maxDepth = depth
			}
		case ')', '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	if maxDepth > maxNesting {
		return fmt.Errorf("script nests deeper than %d levels", maxNesting)
	}
	return nil
}

// binaryScript reports whether a script file looks binary the way bash
// decides it: a NUL byte on its first line, within the first 80 bytes.
func binaryScript(data []byte) bool {
	for _, c := range data[:min(len(data), 80)] {
		switch c {
		case '\n':
			return false
		case 0:
			return true
		}
	}
	return false
}

// ParseScript parses script text with the runner's own guards, for code
// that parses a script without running it (sandsh check): text nesting
// deeper than the runner allows is refused before the parser sees it
// ("script nests deeper than 2000 levels"), the parser's stack depth is
// bounded, and the parse stops when ctx (if not nil) is cancelled. Every
// refusal is a *SyntaxError, like a syntax error the parser finds.
func ParseScript(ctx context.Context, src []byte, name string, opts ...syntax.ParserOption) (*syntax.File, error) {
	if err := checkNesting(src); err != nil {
		return nil, &SyntaxError{Err: err}
	}
	opts = append([]syntax.ParserOption{syntax.Variant(syntax.LangBash), syntax.ArithCheck(arithParses)}, opts...)
	f, err := syntax.NewParser(opts...).Parse(parseguard.New(ctx, bytes.NewReader(src)), name)
	if err == nil {
		err = parseguard.Check(f, len(src))
	}
	if err != nil {
		if ctx != nil && ctx.Err() != nil {
			return nil, err
		}
		var pe syntax.ParseError
		if errors.As(err, &pe) {
			return nil, err
		}
		return nil, &SyntaxError{Err: err}
	}
	return f, nil
}

// checkScriptSize enforces the limit on script text.
func (r *Runner) checkScriptSize(n int) error {
	if max := r.s.limits.MaxScript; max > 0 && int64(n) > max {
		err := &LimitError{Limit: "max-script-bytes", Value: FormatBytes(max)}
		r.s.fail(err)
		return err
	}
	return nil
}

// parse parses script text in one go (eval, traps, aliases).
func (r *Runner) parse(src, name string) (*syntax.File, error) {
	return r.parseCtx(nil, src, name)
}

// parseCtx is parse that stops when ctx (if not nil) is cancelled.
func (r *Runner) parseCtx(ctx context.Context, src, name string) (*syntax.File, error) {
	return r.parseAt(ctx, src, name, 1)
}

// parseAt is parseCtx numbering the first line of src line, for code
// that counts $LINENO from the command that runs it (trap handlers).
func (r *Runner) parseAt(ctx context.Context, src, name string, line uint) (*syntax.File, error) {
	if err := r.checkScriptSize(len(src)); err != nil {
		return nil, err
	}
	if err := checkNesting([]byte(src)); err != nil {
		return nil, err
	}
	f, err := r.newParser(line).Parse(parseguard.String(ctx, src), name)
	if err == nil {
		err = parseguard.Check(f, len(src))
	}
	if err != nil {
		if ctx != nil && ctx.Err() != nil {
			return nil, err
		}
		if errors.Is(err, parseguard.ErrTooDeep) {
			err = fmt.Errorf("%s: %w", name, err)
		}
		return nil, &SyntaxError{Err: err}
	}
	return f, nil
}

// newParser is the parser of the runner's script text, as bash parses it
// with the shell options in force now: extglob, and aliases (looked up as
// each command word is read, so an alias defined by a line applies from
// the next).
func (r *Runner) newParser(line uint) *syntax.Parser {
	return syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.StartLine(max(line, 1)),
		syntax.ExtGlobOption(r.opts.extglob), syntax.Aliases(r.aliasText, guardAlias), syntax.ArithCheck(arithParses))
}

// arithParses is the parser's check of the text of a $(( )) or (( )):
// false when bash's own parser would stop on it (a[1]]) though Go's
// does not, so the text is evaluated as a word, and the error is bash's.
// Text with expansions or quotes is left to Go's parser: bash checks it
// only after expanding it.
func arithParses(src string) bool {
	return strings.ContainsAny(src, "$`'\"\\") || expand.CheckArithSyntax(src) == nil
}

// guardAlias bounds the parser's depth in an alias's text as in the
// script's own.
func guardAlias(rd io.Reader) io.Reader { return parseguard.New(nil, rd) }

// aliasText is the text of the alias named name while expand_aliases is on.
func (r *Runner) aliasText(name string) (string, bool) {
	if !r.opts.expandAliases {
		return "", false
	}
	v, ok := r.aliases[name]
	return v, ok
}

// parseAndRun reads a script and runs it one top-level statement at a
// time, so statements before a syntax error still run, as in bash.
func (r *Runner) parseAndRun(ctx context.Context, src io.Reader, name string) error {
	max := r.s.limits.MaxScript
	var data []byte
	var err error
	if max > 0 {
		data, err = io.ReadAll(io.LimitReader(src, max+1))
	} else {
		data, err = io.ReadAll(src)
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	if err := r.checkScriptSize(len(data)); err != nil {
		return err
	}
	// The startup files run once the script is read: a command of
	// theirs that reads standard input must not take the script's text.
	r.readStartupFiles(ctx)
	if r.exiting || r.stop(ctx) {
		return nil
	}
	if r.scriptFile && binaryScript(data) {
		fmt.Fprintf(r.fds.writer(2), "%s: %s: cannot execute binary file\n", r.prefix(), name)
		r.exiting, r.exitCode = true, 126
		return nil
	}
	if err := checkNesting(data); err != nil {
		fmt.Fprintf(r.fds.writer(2), "%s: %v\n", r.prefix(), err)
		return &SyntaxError{Err: err}
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		// The line-by-line parser runs a line when it sees its newline.
		data = append(data, '\n')
	}
	// The whole script is checked before any of it runs; one that does
	// not parse is checked statement by statement below instead.
	checkEach := false
	if r.s.scrCheck != nil {
		whole, err := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.ExtGlobOption(r.opts.extglob)).Parse(parseguard.String(ctx, string(data)), name)
		if err == nil {
			err = parseguard.Check(whole, len(data))
		}
		if err != nil {
			checkEach = true
		} else if !r.scriptAllowed(whole) {
			r.exiting, r.exitCode = true, 126
			return nil
		}
	}
	// bash's words: "script.sh: line 2: ...", "bash: -c: line 1: ...".
	where := name
	switch {
	case r.cmdString:
		where = r.prefix() + ": -c"
	case !r.scriptFile && (name == r.prefix() || name == "-" || name == ""):
		where = "" // standard input
	}
	perr := r.runByLine(ctx, data, name, 1, checkEach, where)
	if perr != nil && ctx.Err() != nil {
		return nil // cancelled or timed out: finish reports it
	}
	if perr != nil && !r.exiting {
		if perr == parseguard.ErrTooDeep {
			perr = fmt.Errorf("%s: %w", name, perr)
		}
		r.reportSyntax(perr, data, 1, where)
		return &SyntaxError{Err: perr}
	}
	return nil
}

// runByLine parses data one line at a time (a line with its
// here-documents, or a compound command over several) and runs each
// before parsing the next, as bash does for scripts, `source` and
// `eval`: the lines before a syntax error run, and a line is parsed with
// extglob as the lines before it left it. line numbers the first line.
// checkEach applies the caller's ScriptCheck to each statement. It
// returns the syntax error that stopped it, if any.
// A syntax error that bash recovers from (an array literal's element that
// is not a word) is reported after where, as reportSyntax does, and the
// text goes on from the line after it with status 1.
func (r *Runner) runByLine(ctx context.Context, data []byte, name string, line uint, checkEach bool, where string) error {
	for {
		err := r.runLines(ctx, data, name, line, checkEach)
		var pe syntax.ParseError
		if err == nil || !errors.As(err, &pe) || !pe.Discard || r.exiting || r.stop(ctx) {
			return err
		}
		// bash's DISCARD: the rest of the line goes, compound commands
		// begun on it included, and the reading goes on after it.
		r.reportSyntax(err, data, line, where)
		r.lastStatus = 1
		for n := pe.TokenPos.Line(); line <= n && len(data) > 0; line++ {
			_, data, _ = bytes.Cut(data, []byte("\n"))
		}
		if len(data) == 0 {
			return nil
		}
	}
}

// runLines is runByLine up to the first syntax error.
func (r *Runner) runLines(ctx context.Context, data []byte, name string, line uint, checkEach bool) error {
	if len(data) > 0 && data[len(data)-1] != '\n' {
		// The line-by-line parser runs a line when it sees its newline.
		data = append(data[:len(data):len(data)], '\n')
	}
	p := r.newParser(line)
	var tooDeep, perr error
	run := func(stmts []*syntax.Stmt) bool {
		if p.Incomplete() {
			return true
		}
		for _, st := range stmts {
			if r.stop(ctx) {
				break
			}
			if err := parseguard.Check(st, int(st.End().Offset()-st.Pos().Offset())); err != nil {
				tooDeep = fmt.Errorf("%s:%d: %w", name, st.Pos().Line(), err)
				return false
			}
			if checkEach && !r.scriptAllowed(&syntax.File{Name: name, Stmts: []*syntax.Stmt{st}}) {
				r.exiting, r.exitCode = true, 126
				return false
			}
			r.stmt(ctx, st)
		}
		// Like bash, the next line is parsed with extglob as it is now.
		syntax.ExtGlobOption(r.opts.extglob)(p)
		// An error that abandons the command line stops here.
		r.abortLine = false
		return !r.stop(ctx)
	}
	// The loop never breaks: mvdan's iterator panics ("range function
	// continued iteration") when its caller stops while the parser still
	// has an error to report, as on "0&0\xff". To stop, the input ends.
	in := parseguard.New(ctx, bytes.NewReader(data))
	for stmts, err := range p.InteractiveSeq(in) {
		switch {
		case in.Stopped():
		case err != nil:
			perr = err
			in.Stop()
		case !run(stmts):
			in.Stop()
		}
	}
	if tooDeep != nil {
		perr = tooDeep
	}
	var pe syntax.ParseError
	if errors.As(perr, &pe) && pe.Filename == "" {
		pe.Filename = name
		perr = pe
	}
	return perr
}

// scriptAllowed applies the caller's ScriptCheck to parsed code.
func (r *Runner) scriptAllowed(f *syntax.File) bool {
	if r.s.scrCheck == nil {
		return true
	}
	why, ok := r.s.scrCheck(f)
	if !ok {
		fmt.Fprintf(r.fds.writer(2), "sandsh: %s\n", why)
	}
	return ok
}

// evalString runs text as shell code in this shell (eval, source).
func (r *Runner) evalString(ctx context.Context, src, name string) {
	r.evalStringAt(ctx, src, name, 1)
}

// evalStringAt is evalString with the text's first line numbered line:
// like bash, $LINENO in eval'd text counts from the eval's line.
func (r *Runner) evalStringAt(ctx context.Context, src, name string, line uint) {
	var f *syntax.File
	var err error
	if r.opts.expandAliases {
		// An alias defined by one line of the text applies from the next,
		// so the text is never parsed in one go.
		if err = r.checkScriptSize(len(src)); err == nil {
			err = checkNesting([]byte(src))
		}
	} else {
		f, err = r.parseAt(ctx, src, name, max(line, 1))
	}
	var pe syntax.ParseError
	if (err == nil && f == nil) || (err != nil && errors.As(err, &pe) && !r.stop(ctx)) {
		// Text that does not parse as a whole runs line by line, as
		// bash's parse_and_execute does: the lines before the error
		// run, and a `shopt -s extglob` applies to the lines after it.
		r.lastStatus = 0
		// bash's words, after "script.sh: eval" or the sourced file's
		// name.
		where := name
		if name == "eval" {
			where = r.errSource() + ": eval"
		}
		err = r.runByLine(ctx, []byte(src), name, max(line, 1), r.s.scrCheck != nil, where)
		if err == nil || r.exiting {
			return
		}
		if !r.stop(ctx) && r.s.fatalErr() == nil {
			if _, ok := bashSyntaxLines(err, nil, 0); ok {
				r.reportSyntax(err, []byte(src), max(line, 1), where)
				r.lastStatus = 2
				return
			}
		}
	}
	if err != nil {
		if r.stop(ctx) {
			return // cancelled or timed out while parsing
		}
		if r.s.fatalErr() == nil {
			r.errf("%v", err)
		}
		r.lastStatus = 2
		if !r.interactive && r.s.fatalErr() != nil {
			r.exiting, r.exitCode = true, 1
		}
		return
	}
	if !r.scriptAllowed(f) {
		r.lastStatus = 126
		return
	}
	r.lastStatus = 0
	for _, st := range f.Stmts {
		if r.stop(ctx) {
			break
		}
		r.stmt(ctx, st)
		// Like bash's parse_and_execute, an error that abandons a command
		// goes on with the next command of the string or file.
		r.abortLine = false
	}
}

// sourceFile runs a file from the sandbox in this shell.
func (r *Runner) sourceFile(ctx context.Context, name string, args []string) int {
	path := name
	if !strings.Contains(name, "/") && r.opts.sourcepath {
		if p, ok := r.searchPath(name, false); ok {
			path = p
		}
	}
	data, err := r.readScript(r.abs(path))
	if err != nil {
		r.errf("%s: %s", name, builtins.ErrText(err))
		return 1
	}
	if !r.enterCall("source") {
		return 1
	}
	defer func() { r.callDepth-- }()
	oldParams := r.params
	if len(args) > 0 {
		r.params = args
	}
	oldSource := r.source
	r.frames = append(r.frames, frame{funcName: "source", source: name, callLine: r.line, args: args})
	r.source = name
	r.evalString(ctx, string(data), name)
	if r.returning {
		r.returning = false
	}
	r.runReturnTrap(ctx)
	r.source = oldSource
	r.frames = r.frames[:len(r.frames)-1]
	if len(args) > 0 {
		r.params = oldParams
	}
	if r.returning {
		r.returning = false
	}
	return r.lastStatus
}

// readScript reads a script file from the sandbox, bounded by the
// script size limit.
func (r *Runner) readScript(path string) ([]byte, error) {
	f, err := r.devFS().Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, errIsDir
	}
	max := r.s.limits.MaxScript
	var data []byte
	if max > 0 {
		data, err = io.ReadAll(io.LimitReader(f, max+1))
	} else {
		data, err = io.ReadAll(f)
	}
	if err != nil {
		return nil, err
	}
	if err := r.checkScriptSize(len(data)); err != nil {
		return nil, err
	}
	return data, nil
}

var errIsDir = errors.New("is a directory")

// searchPath looks name up in $PATH on the sandbox filesystem.
func (r *Runner) searchPath(name string, wantExec bool) (string, bool) {
	for _, dir := range strings.Split(r.getVar("PATH").String(), ":") {
		if dir == "" {
			dir = "."
		}
		p := r.abs(dir + "/" + name)
		fi, err := r.s.fs.Stat(p)
		if err != nil || fi.IsDir() {
			continue
		}
		if wantExec && !r.access(fi, 1) {
			continue
		}
		return p, true
	}
	return "", false
}

// nestedShell runs `bash ...` / `sh ...` in-process: a fresh shell that
// shares this run's sandbox, gateway and limits.
func (r *Runner) nestedShell(ctx context.Context, env *builtins.Env, args []string) int {
	c := newRunner(r.s)
	c.live = r.live // inside a kept job, the nested shell is the job's
	c.via = append(append(make([]string, 0, len(env.Via)+1), env.Via...), path.Base(args[0]))
	c.dir = env.Dir
	c.pgid = r.pgid
	if r.execing && r.proc != nil && r.proc.job != nil {
		// The whole command of a job: bash execs it, so the shell is
		// the job's process ($!), signals to it reach this shell's
		// traps, and what the job ignored it ignores for good.
		r.execing = false
		c.pid, c.ppid, c.proc, c.sigs = r.pid, r.ppid, r.proc, r.sigs
	} else {
		c.pid = r.s.newPID()
		c.ppid = r.pid
		defer c.registerShell(slices.Clone(args))()
	}
	ignored := r.ignoredSignals()
	if c.proc.job != nil && c.proc.job.ignoreInt {
		ignored |= sigBit(2) | sigBit(3)
	}
	c.ignoreOnEntry(ignored)
	c.shellPID = c.pid
	c.callDepth = r.callDepth
	c.substDepth = r.substDepth
	c.nest = r.nest
	c.fds = &fdTable{fds: map[int]*openFile{}}
	c.fds.fds[0] = newOpenFile(env.Stdin, nil, nil, "/dev/stdin")
	c.fds.fds[1] = newOpenFile(nil, env.Stdout, nil, "/dev/stdout")
	c.fds.fds[2] = newOpenFile(nil, env.Stderr, nil, "/dev/stderr")
	// Descriptors above 2 are inherited too (bash passes them on).
	for n, of := range r.fds.fds {
		if n > 2 {
			c.fds.fds[n] = of.retain()
		}
	}
	defer c.fds.closeAll()
	name := args[0]
	c.arg0 = name
	if !c.enterCall("shell") {
		r.exiting, r.exitCode = true, 1
		return 1
	}
	// Parse bash's own options.
	rest := args[1:]
	var command *string
	var inv Invocation
	readStdin := false
	for len(rest) > 0 {
		a := rest[0]
		if a == "--" {
			rest = rest[1:]
			break
		}
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			break
		}
		rest = rest[1:]
		switch a {
		case "--norc":
			inv.NoRC = true
			continue
		case "--noprofile":
			inv.NoProfile = true
			continue
		case "--login":
			inv.Login = true
			continue
		case "--rcfile", "--init-file":
			if len(rest) == 0 {
				fmt.Fprintf(env.Stderr, "%s: %s: option requires an argument\n", name, a[2:])
				return 2
			}
			inv.RCFile, rest = rest[0], rest[1:]
			continue
		case "--posix", "--noediting", "-r", "--restricted":
			continue
		case "--version":
			fmt.Fprintf(env.Stdout, "GNU bash, version %s (x86_64-pc-linux-gnu) [sandsh]\n", bashVersion)
			return 0
		}
		on := a[0] == '-'
		for i := 1; i < len(a); i++ {
			switch ch := a[i]; ch {
			case 'c':
				if len(rest) == 0 {
					fmt.Fprintf(env.Stderr, "%s: -c: option requires an argument\n", name)
					return 2
				}
				s := rest[0]
				rest = rest[1:]
				command = &s
			case 's':
				readStdin = true
			case 'o':
				if len(rest) == 0 {
					return 2
				}
				if !c.setOptByName(rest[0], on) {
					fmt.Fprintf(env.Stderr, "%s: %s: invalid option name\n", name, rest[0])
					return 2
				}
				rest = rest[1:]
			case 'O':
				if len(rest) > 0 {
					if !ValidShopt(rest[0]) {
						fmt.Fprintf(env.Stderr, "%s: line 0: %s: invalid shell option name\n", name, rest[0])
						return 2
					}
					inv.Shopts = append(inv.Shopts, Shopt{rest[0], on})
					rest = rest[1:]
				}
			case 'i':
				inv.Interactive = on
			case 'l':
				inv.Login = on
			case 'r':
			default:
				if !c.setOptByLetter(ch, on) {
					fmt.Fprintf(env.Stderr, "%s: -%c: invalid option\n", name, ch)
					return 2
				}
			}
		}
	}
	c.startAs(inv)
	c.initVars(env.Environ)
	if v, _ := c.lookup("SHLVL"); v != nil {
		var n int
		fmt.Sscan(v.Str, &n)
		v.Str = fmt.Sprint(n + 1)
	}
	c.applyShopts(inv.Shopts) // checked above
	var src io.Reader
	srcName := name
	c.cmdString = false // a script file or stdin, unless -c below
	switch {
	case command != nil:
		src = strings.NewReader(*command)
		c.cmdString = true
		if len(rest) > 0 {
			c.arg0, rest = rest[0], rest[1:]
		}
		c.params = rest
	case len(rest) > 0 && !readStdin:
		path := rest[0]
		data, err := c.readScript(c.abs(path))
		if err != nil {
			if errors.Is(err, errIsDir) {
				fmt.Fprintf(env.Stderr, "%s: %s: Is a directory\n", name, path)
				return 126
			}
			if r.s.fatalErr() != nil {
				return 1
			}
			fmt.Fprintf(env.Stderr, "%s: %s: %s\n", name, path, builtins.ErrText(err))
			if errors.Is(err, fs.ErrPermission) {
				return 126 // bash: a script it may not read cannot run
			}
			return 127
		}
		src = bytes.NewReader(data)
		c.arg0, c.params, srcName = path, rest[1:], path
		c.source = path
		c.mainSource, c.scriptArgs = path, c.params
		c.scriptFile = true
	default:
		src = env.Stdin
		c.params = rest
	}
	if c.mainSource == "" {
		c.mainSource, c.source, c.scriptArgs = srcName, srcName, c.params
	}
	c.startupFiles(ctx, env, name)
	err := c.parseAndRun(ctx, src, srcName)
	c.runExitTrap(ctx)
	status := c.exitStatus()
	if err != nil && isSyntax(err) {
		status = 2
	}
	if r.s.fatalErr() != nil {
		r.exiting, r.exitCode = true, 1
	}
	return status
}

// startupFiles does what a non-interactive bash does as it starts, before
// its script: the options named in SHELLOPTS and BASHOPTS (when they are
// in its environment, i.e. exported by the parent) are turned on, and bash
// (not sh) runs the file named by $BASH_ENV after parameter, command and
// arithmetic expansion; a missing file is silently skipped.
func (r *Runner) startupFiles(ctx context.Context, env *builtins.Env, name string) {
	if v, ok := env.LookupEnv("SHELLOPTS"); ok {
		for _, o := range strings.Split(v, ":") {
			if o != "" && !r.setOptByName(o, true) {
				fmt.Fprintf(env.Stderr, "%s: %s: invalid option name\n", name, o)
			}
		}
	}
	if v, ok := env.LookupEnv("BASHOPTS"); ok {
		for _, o := range strings.Split(v, ":") {
			if f := shoptOptions[o]; f != nil {
				*f(&r.opts) = true
			}
		}
	}
	benv, ok := env.LookupEnv("BASH_ENV")
	if !ok || benv == "" || path.Base(name) == "sh" || r.interactive {
		return
	}
	w, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Document(strings.NewReader(benv))
	if err != nil {
		return
	}
	p, err := r.literal(ctx, w)
	if err != nil || p == "" {
		return
	}
	r.runStartupFile(ctx, p)
}
