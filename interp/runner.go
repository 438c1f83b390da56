package interp

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/sandsh/sandsh/interp/internal/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Runner is one shell: its variables, functions, options, descriptors
// and jobs. A subshell is a copy of its parent's Runner.
type Runner struct {
	s *session

	// via lists the commands this shell runs inside (a nested shell's
	// "bash", and what ran it), and route how the next command is reached
	// when `command` or `exec` runs it: the audit log's route fields.
	via   []string
	route string

	scopes []*scope
	// varIdx has, per variable name, the scopes that hold it and the
	// innermost one's variable, so lookup costs one map access at any
	// call depth. Change scopes only through setScoped, unsetScoped,
	// pushScope, popScope (or reindexVars after rebuilding them).
	varIdx map[string]varSlot
	// efuncs caches the expansion callbacks (see ecfgFuncs).
	efuncs *expandFuncs
	// cfgFree holds expansion configs for reuse (see putCfg); a
	// subshell, which may run at the same time, starts with none.
	cfgFree []*expand.Config
	funcs   map[string]*syntax.Stmt
	// funcExported holds the functions marked with export -f: they go to
	// nested shells and host programs as BASH_FUNC_name%% variables.
	funcExported map[string]bool
	// funcSource is the file each function was defined in (BASH_SOURCE).
	funcSource map[string]string
	// funcLine is the line each function's definition starts on
	// (declare -F under extdebug).
	funcLine   map[string]uint
	mainSource string   // the script file, bottom of BASH_SOURCE
	scriptArgs []string // its arguments, bottom of BASH_ARGV
	aliases    map[string]string
	hash       *hashTable
	dir        string
	arg0       string
	params     []string
	opts       shellOpts
	fds        *fdTable
	traps      map[string]string
	jobs       *jobTable

	// parentTraps are the traps a subshell inherited: not run, but shown
	// by `trap`/`trap -p` until the subshell sets a trap of its own.
	parentTraps map[string]string

	lastStatus  int
	substStatus int // status of the last $( ) in the current command, or -1
	// arithNest counts subscripts and declare -i values being evaluated
	// inside one another (x='a[x]'; ((x)) reads a[x], whose subscript
	// reads x, ...): each starts a fresh evaluation, so the expander's
	// own depth bound does not see the chain.
	arithNest  int
	pipeStatus []int
	lastBgPID  int
	lastArg    string
	pid        int // $BASHPID
	shellPID   int // $$
	ppid       int
	dirStack   []string

	// interactive is bash's interactive mode (the REPL, a session's
	// lines, bash -i): an error ends the current line, not the shell.
	// prompt marks lines read at a prompt (the REPL and sessions, not
	// bash -i -c): Ctrl-C ends the line and jobs outlive it.
	interactive, prompt bool
	startup             *Invocation // startup files still to read (readStartupFiles)
	// live counts this shell's goroutines: the session's, or its kept
	// jobs' (session.bgLive) inside a kept job.
	live       *atomic.Int64
	exiting    bool
	exitCode   int
	breakN     int
	contN      int
	returning  bool
	noErrExit  int  // > 0 inside if/while conditions, && || lists
	negErrExit bool // inside `! cmd`: set -e is off, but `set -e` there turns it back on
	callDepth  int
	substDepth int
	loopDepth  int
	nest       int                // statements being run inside one another
	inTrap     []string           // the traps running, innermost last
	curCmd     syntax.Node        // the command running, for $BASH_COMMAND
	curRedirs  []*syntax.Redirect // and its redirections
	frames     []frame

	subshellLevel  int
	scriptFile     bool // running a script file (FUNCNAME ends in "main")
	cmdString      bool // running -c text
	killedBy       int  // virtual signal that ended this shell
	source         string
	line           uint
	secondsBase    time.Time
	getoptsChar    int
	getoptsLastInd int
	procWaits      []func()
	// ownFDs lists the descriptors the running statement's own
	// redirections and process substitutions opened: a host program
	// inherits those even when they are in-memory readers, which it
	// drains (see hostFDs).
	ownFDs []int
	// asyncSimple: the next statement is a background job's simple
	// command, whose own failure runs no ERR trap.
	asyncSimple bool
	// proc is this shell's or job's entry in the process table (nil in
	// other subshells); execProc: the next simple command is the job's
	// whole command, which bash would exec, so ps shows its words.
	proc     *procEntry
	execProc bool
	// execing: the command running is the job's whole command, which a
	// nested shell runs as the job's own process (bash execs it).
	execing bool
	// sigs receives what other processes of the run send this shell or
	// job (nil in a subshell that is not a process of its own);
	// ignoredOnEntry are the signals ignored when the shell started,
	// which it can neither trap nor reset.
	sigs           *signalBox
	ignoredOnEntry uint64
	pgid           int // the process group: ps, and kill -- -PGID
	umaskBits      uint32
	abortLine      bool // an error ends the current command line only (bash's DISCARD)
}

// frame is one function call or sourced file on the call stack.
type frame struct {
	funcName string
	source   string   // BASH_SOURCE: where the function was defined, or the sourced file
	callLine uint     // BASH_LINENO: the line it was called from
	args     []string // BASH_ARGV: its arguments
}

func newRunner(s *session) *Runner {
	r := &Runner{
		s:       s,
		funcs:   map[string]*syntax.Stmt{},
		aliases: map[string]string{},
		traps:   map[string]string{},
		jobs:    newJobTable(),
		opts:    defaultOpts(),
		live:    &s.live,

		umaskBits: 0o022,
	}
	return r
}

// subshell copies the shell for ( ), pipelines, $( ) and jobs.
func (r *Runner) subshell() *Runner {
	c := *r
	c.scopes = make([]*scope, len(r.scopes))
	for i, sc := range r.scopes {
		vars := make(map[string]*variable, len(sc.vars))
		for n, v := range sc.vars {
			vars[n] = v.clone()
		}
		nsc := *sc
		nsc.vars = vars
		c.scopes[i] = &nsc
	}
	c.reindexVars() // the copies are new variables
	c.funcs = maps.Clone(r.funcs)
	c.funcExported = maps.Clone(r.funcExported)
	c.funcSource = maps.Clone(r.funcSource)
	c.funcLine = maps.Clone(r.funcLine)
	c.hash = r.hash.clone()
	c.aliases = maps.Clone(r.aliases)
	c.params = slices.Clone(r.params)
	c.fds = r.fds.clone()
	c.traps = map[string]string{}
	if r.parentTraps == nil && len(r.traps) > 0 {
		c.parentTraps = maps.Clone(r.traps)
	}
	for sig, cmd := range r.traps {
		switch {
		case cmd == "": // ignored signals stay ignored in subshells
			c.traps[sig] = ""
		case sig == "ERR" && r.opts.errtrace,
			(sig == "DEBUG" || sig == "RETURN") && r.opts.functrace:
			c.traps[sig] = cmd
		}
	}
	c.jobs = r.jobs.copyForSubshell()
	c.frames = slices.Clone(r.frames)
	c.inTrap = slices.Clone(r.inTrap)
	c.dirStack = slices.Clone(r.dirStack)
	c.pid = r.s.newPID()
	c.subshellLevel++
	c.procWaits, c.ownFDs = nil, nil
	c.cfgFree = nil
	c.proc, c.execProc, c.execing, c.sigs = nil, false, false, nil
	c.pipeStatus = slices.Clone(r.pipeStatus)
	return &c
}

// status of a finished subshell as its parent sees it.
func (r *Runner) exitStatus() int {
	if r.exiting {
		return r.exitCode & 0xff
	}
	return r.lastStatus & 0xff
}

// stop reports whether the current list of statements must stop running.
func (r *Runner) stop(ctx context.Context) bool {
	if r.exiting || r.breakN > 0 || r.contN > 0 || r.returning || r.abortLine {
		return true
	}
	if ctx.Err() != nil {
		if r.prompt && r.s.fatalErr() == nil {
			// Ctrl-C in the REPL ends the line, not the session.
			r.abortLine, r.lastStatus = true, 130
			return true
		}
		r.exiting = true
		r.exitCode = 130
		if r.s.fatalErr() != nil {
			r.exitCode = 1
		}
		return true
	}
	return false
}

func (r *Runner) stmts(ctx context.Context, stmts []*syntax.Stmt) {
	for _, st := range stmts {
		if r.stop(ctx) {
			return
		}
		r.stmt(ctx, st)
	}
}

func (r *Runner) stmt(ctx context.Context, st *syntax.Stmt) {
	// Statements nest through blocks, functions, eval, source and nested
	// shells; past maxNest the Go stack would be at risk (limits such as
	// --max-call-depth may be off).
	if r.nest++; r.nest > maxNest {
		r.nest--
		r.limitHit("nesting", fmt.Sprint(maxNest))
		r.exiting, r.exitCode = true, 1
		return
	}
	defer func() {
		r.nest--
		if r.sigs != nil && r.sigs.pending.Load() != 0 {
			// Signals other processes sent are taken as each command
			// ends, like bash's pending traps.
			r.takeSignals(ctx)
		}
	}()
	if r.opts.noexec && !r.interactive {
		return // set -n: read commands, run none (interactive shells ignore it)
	}
	if st.Background || st.Coprocess {
		r.background(ctx, st)
		return
	}
	r.line = st.Pos().Line()
	if isBareExec(st) {
		// `exec >file` changes the shell's own descriptors for good.
		if _, ok := r.redirects(ctx, st.Redirs, redirPermanent); ok {
			r.lastStatus = 0
		} else {
			r.lastStatus = 1
		}
		return
	}
	asyncSimple := r.asyncSimple
	r.asyncSimple = false
	savedNeg := r.negErrExit
	if st.Negated {
		r.negErrExit = true
	}
	savedWaits, savedOwn := r.procWaits, r.ownFDs
	r.procWaits, r.ownFDs = nil, nil
	var restore func()
	var ok bool
	if ce, simple := st.Cmd.(*syntax.CallExpr); simple && len(st.Redirs) > 0 {
		// A simple command redirects after expanding its words, as in
		// bash: set -x traces it, and a failed expansion creates no file.
		restore, ok = r.callRedirected(ctx, ce, st.Redirs)
	} else {
		mode := redirShell
		if _, sub := st.Cmd.(*syntax.Subshell); sub {
			mode = redirChild // bash redirects in the child it forks
		}
		restore, ok = r.redirects(ctx, st.Redirs, mode)
		if ok {
			r.cmd(ctx, st.Cmd)
		} else {
			r.lastStatus = 1
			if st.Cmd == nil {
				r.lastArg = ""
			}
		}
	}
	// A failed redirection fails the command itself, whatever its kind:
	// set -e and the ERR trap see it even on { } or a loop.
	redirFailed := !ok
	restore()
	r.finishProcSubst()
	r.procWaits, r.ownFDs = savedWaits, savedOwn
	if _, isPipe := st.Cmd.(*syntax.BinaryCmd); !isPipe || !isPipeline(st.Cmd) {
		if failureCounts(st.Cmd) {
			// Every command sets PIPESTATUS: reuse a one-element slice,
			// which no one else holds (subshells and readers copy it).
			if len(r.pipeStatus) == 1 {
				r.pipeStatus[0] = r.lastStatus
			} else {
				r.pipeStatus = []int{r.lastStatus}
			}
		}
	}
	if st.Negated {
		r.negErrExit = savedNeg
		if r.lastStatus == 0 {
			r.lastStatus = 1
		} else {
			r.lastStatus = 0
		}
		return
	}
	if r.lastStatus != 0 && r.noErrExit == 0 && !r.negErrExit && !r.exiting && !r.returning && !asyncSimple && (redirFailed || failureCounts(st.Cmd)) {
		r.onFailure(ctx)
	}
}

// maxNest bounds how deeply statements may run inside one another, each
// level costing a few stack frames.
const maxNest = 20_000

// isBareExec reports whether st is `exec` with only redirections.
func isBareExec(st *syntax.Stmt) bool {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 || len(ce.Args) != 1 || len(ce.Args[0].Parts) != 1 {
		return false
	}
	lit, ok := ce.Args[0].Parts[0].(*syntax.Lit)
	return ok && lit.Value == "exec"
}

func isPipeline(cmd syntax.Command) bool {
	b, ok := cmd.(*syntax.BinaryCmd)
	return ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll)
}

// failureCounts reports whether a failing command of this kind triggers
// set -e and the ERR trap itself; compound commands only pass on what
// their last inner command already reported.
func failureCounts(cmd syntax.Command) bool {
	switch cmd := cmd.(type) {
	case nil, *syntax.CallExpr, *syntax.Subshell, *syntax.ArithmCmd, *syntax.TestClause,
		*syntax.LetClause, *syntax.DeclClause, *syntax.TimeClause:
		return true
	case *syntax.BinaryCmd:
		return cmd.Op == syntax.Pipe || cmd.Op == syntax.PipeAll
	}
	return false
}

// onFailure runs the ERR trap and applies set -e.
func (r *Runner) onFailure(ctx context.Context) {
	status := r.lastStatus
	inFunc := r.funcTop() > 0
	if cmd, ok := r.traps["ERR"]; ok && cmd != "" && !r.trapRunning("ERR") && (!inFunc || r.opts.errtrace) {
		r.runTrap(ctx, "ERR", cmd)
		r.lastStatus = status
	}
	if r.opts.errexit {
		r.exiting = true
		r.exitCode = status
	}
}

func (r *Runner) cmd(ctx context.Context, cmd syntax.Command) {
	switch cmd := cmd.(type) {
	case *syntax.CallExpr:
		r.call(ctx, cmd)
	case *syntax.Block:
		r.stmts(ctx, cmd.Stmts)
	case *syntax.Subshell:
		c := r.subshell()
		// Like bash, ( ) and pipeline parts are outside any loop: a
		// break or continue there is an error, not a jump.
		c.loopDepth = 0
		c.stmts(ctx, cmd.Stmts)
		c.runExitTrap(ctx)
		c.fds.closeAll()
		r.lastStatus = c.exitStatus()
		r.reportKilled(c)
		r.propagateFatal(c)
	case *syntax.BinaryCmd:
		switch cmd.Op {
		case syntax.AndStmt, syntax.OrStmt:
			// `a && b || c ...` nests to the left: walk the chain in a
			// loop, so a long one cannot overflow the Go stack.
			chain := []*syntax.BinaryCmd{cmd}
			for {
				x := chain[len(chain)-1].X
				b, ok := x.Cmd.(*syntax.BinaryCmd)
				if !ok || (b.Op != syntax.AndStmt && b.Op != syntax.OrStmt) ||
					x.Negated || x.Background || x.Coprocess || len(x.Redirs) > 0 {
					break
				}
				chain = append(chain, b)
			}
			r.noErrExit++
			r.stmt(ctx, chain[len(chain)-1].X)
			for i := len(chain) - 1; i >= 0; i-- {
				if i == 0 {
					r.noErrExit--
				}
				if r.stop(ctx) {
					if i > 0 {
						r.noErrExit--
					}
					return
				}
				if (r.lastStatus == 0) == (chain[i].Op == syntax.AndStmt) {
					r.stmt(ctx, chain[i].Y)
				}
			}
		case syntax.Pipe, syntax.PipeAll:
			r.pipeline(ctx, cmd)
		}
	case *syntax.IfClause:
		r.ifClause(ctx, cmd)
	case *syntax.WhileClause:
		r.whileClause(ctx, cmd)
	case *syntax.ForClause:
		r.forClause(ctx, cmd)
	case *syntax.CaseClause:
		r.caseClause(ctx, cmd)
	case *syntax.FuncDecl:
		if cmd.Name == nil {
			// The parser takes "() cmd" for a zsh anonymous function;
			// bash: syntax error near unexpected token `)'.
			r.errf("syntax error near unexpected token `)'")
			r.lastStatus = 2
			if !r.interactive {
				r.exiting, r.exitCode = true, 2
			}
			return
		}
		name := cmd.Name.Value
		if strings.ContainsAny(name, "$`'\"\\") {
			// a name the parser kept as written, like $x-y() { ...; }
			r.errf("`%s': not a valid identifier", name)
			r.lastStatus = 1
			return
		}
		if r.opts.posix && specialBuiltins[name] {
			r.errf("`%s': is a special builtin", name)
			r.lastStatus = 2
			if !r.interactive {
				r.exiting, r.exitCode = true, 2
			}
			return
		}
		r.funcs[name] = cmd.Body
		r.setFuncSource(name, r.source, cmd.Pos().Line())
		r.lastStatus = 0
	case *syntax.ArithmCmd:
		r.setCurCmd(cmd)
		if !r.debugTrap(ctx) {
			return
		}
		if r.opts.xtrace {
			r.traceLine(ctx, "(( "+arithText(r.printNode(cmd))+" ))")
		}
		n, err := r.arithSource(ctx, cmd.X, cmd.Source)
		if err != nil {
			if errors.As(err, new(*expand.ArithmError)) && r.s.fatalErr() == nil {
				// Unlike $(( )), a failed (( )) is a command that
				// returns 1: bash goes on with the rest of the line.
				r.errf("((: %v", err)
				r.lastStatus = 1
				return
			}
			r.expandError(err)
			return
		}
		r.lastStatus = oneIfZero(n)
	case *syntax.TestClause:
		r.setCurCmd(cmd)
		if !r.debugTrap(ctx) {
			return
		}
		if r.opts.xtrace {
			r.traceLine(ctx, r.printNode(cmd))
		}
		ok, err := r.testExpr(ctx, cmd.X)
		if errors.Is(err, errBadRegex) {
			r.lastStatus = 2
			return
		}
		if err != nil {
			if errors.As(err, new(*expand.ArithmError)) && r.s.fatalErr() == nil {
				// bash reports a bad -eq operand and goes on: the
				// test returns 1.
				r.errf("[[: %v", err)
				r.lastStatus = 1
				return
			}
			r.expandError(err)
			return
		}
		r.lastStatus = oneIfFalse(ok)
	case *syntax.DeclClause:
		r.setCurCmd(cmd)
		if !r.debugTrap(ctx) {
			return
		}
		r.declClause(ctx, cmd)
	case *syntax.LetClause:
		r.setCurCmd(cmd)
		if !r.debugTrap(ctx) {
			return
		}
		r.letClause(ctx, cmd)
	case *syntax.TimeClause:
		start := r.s.sys.Now()
		if cmd.Stmt != nil {
			r.stmt(ctx, cmd.Stmt)
		}
		el := r.s.sys.Now().Sub(start)
		switch tf := r.getVar("TIMEFORMAT"); {
		case cmd.PosixFormat:
			fmt.Fprintf(r.fds.writer(2), "real %.2f\nuser 0.00\nsys 0.00\n", el.Seconds())
		case tf.IsSet():
			if f := timeFormat(tf.String(), el); f != "" {
				fmt.Fprintln(r.fds.writer(2), f)
			}
		default:
			fmt.Fprintf(r.fds.writer(2), "\nreal\t%dm%.3fs\nuser\t0m0.000s\nsys\t0m0.000s\n", int(el.Minutes()), el.Seconds()-60*float64(int(el.Minutes())))
		}
	case *syntax.CoprocClause:
		r.errf("coproc: not supported in sandsh")
		r.lastStatus = 2
	case nil:
		// Redirections alone (`>file`, `2>&1`): they were applied and
		// undone by stmt; the command itself succeeds and, having no
		// words, leaves $_ empty, as in bash.
		r.lastStatus = 0
		r.lastArg = ""
	default:
		r.errf("unsupported command node %T", cmd)
		r.lastStatus = 2
	}
}

// timeFormat expands bash's TIMEFORMAT: %[p][l]R, U, S, P and %%.
// In-process commands have no CPU accounting, so user and system are 0.
func timeFormat(f string, real time.Duration) string {
	var sb strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 >= len(f) {
			sb.WriteByte(f[i])
			continue
		}
		i++
		prec, long := 3, false
		if f[i] >= '0' && f[i] <= '9' {
			prec = min(int(f[i]-'0'), 3)
			i++
		}
		if i < len(f) && f[i] == 'l' {
			long = true
			i++
		}
		if i >= len(f) {
			break
		}
		var secs float64
		switch f[i] {
		case '%':
			sb.WriteByte('%')
			continue
		case 'R':
			secs = real.Seconds()
		case 'U', 'S':
		case 'P':
			sb.WriteString(strconv.FormatFloat(0, 'f', prec, 64))
			continue
		default:
			sb.WriteByte('%')
			sb.WriteByte(f[i])
			continue
		}
		if long {
			m := int(secs / 60)
			fmt.Fprintf(&sb, "%dm%.*fs", m, prec, secs-float64(m*60))
		} else {
			sb.WriteString(strconv.FormatFloat(secs, 'f', prec, 64))
		}
	}
	return sb.String()
}

func oneIfZero(n int) int {
	if n == 0 {
		return 1
	}
	return 0
}

func oneIfFalse(b bool) int {
	if b {
		return 0
	}
	return 1
}

// propagateFatal makes a limit hit inside a subshell end the parent too.
func (r *Runner) propagateFatal(c *Runner) {
	if r.s.fatalErr() != nil {
		r.exiting = true
		r.exitCode = c.exitStatus()
	}
}

func (r *Runner) ifClause(ctx context.Context, ic *syntax.IfClause) {
	r.noErrExit++
	r.stmts(ctx, ic.Cond)
	r.noErrExit--
	if r.stop(ctx) {
		return
	}
	if r.lastStatus == 0 {
		r.stmts(ctx, ic.Then)
		return
	}
	// $? in an elif or else branch is still the failed condition's.
	switch {
	case ic.Else == nil:
		r.lastStatus = 0
	case ic.Else.ThenPos.IsValid() || len(ic.Else.Cond) > 0:
		r.ifClause(ctx, ic.Else)
	default:
		r.stmts(ctx, ic.Else.Then)
	}
}

// loopStep counts one loop iteration against the limit and handles
// break/continue. It reports whether the loop must end.
func (r *Runner) loopIter(iters *int64) bool {
	*iters++
	if max := r.s.limits.MaxLoopIters; max > 0 && *iters > max {
		r.limitHit("max-loop-iterations", fmt.Sprint(max))
		return true
	}
	return false
}

// afterBody handles break and continue after one loop body ran; it
// reports whether the loop ends.
func (r *Runner) afterBody() bool {
	if r.breakN > 0 {
		r.breakN--
		return true
	}
	if r.contN > 0 {
		r.contN--
		if r.contN > 0 {
			return true
		}
	}
	return false
}

func (r *Runner) whileClause(ctx context.Context, wc *syntax.WhileClause) {
	var iters int64
	status := 0
	r.loopDepth++
	defer func() { r.loopDepth-- }()
	for {
		if r.loopIter(&iters) {
			return
		}
		r.noErrExit++
		r.stmts(ctx, wc.Cond)
		r.noErrExit--
		if r.stop(ctx) {
			if r.afterBody() || r.stop(ctx) {
				return
			}
			continue
		}
		if (r.lastStatus == 0) == wc.Until {
			break
		}
		r.stmts(ctx, wc.Do)
		status = r.lastStatus
		if r.afterBody() {
			r.lastStatus = status
			return
		}
		if r.stop(ctx) {
			return
		}
	}
	r.lastStatus = status
}

func (r *Runner) forClause(ctx context.Context, fc *syntax.ForClause) {
	var iters int64
	r.loopDepth++
	defer func() { r.loopDepth-- }()
	switch loop := fc.Loop.(type) {
	case *syntax.WordIter:
		// The parser accepts any word here; bash refuses a bad name at
		// run time, before expanding the list, and runs no iteration.
		if !syntax.ValidName(loop.Name.Value) {
			r.errf("`%s': not a valid identifier", loop.Name.Value)
			r.lastStatus = 1
			return
		}
		var items []string
		if loop.InPos.IsValid() {
			var err error
			items, err = r.loopFields(ctx, fc.Pos().Line(), loop.Items...)
			if err != nil {
				r.expandError(err)
				return
			}
		} else {
			items = slices.Clone(r.params)
		}
		name := loop.Name.Value
		if fc.Select {
			r.selectLoop(ctx, name, items, fc.Do)
			return
		}
		r.lastStatus = 0
		for _, item := range items {
			if r.loopIter(&iters) {
				return
			}
			r.line = fc.Pos().Line()
			r.setCurCmd(fc)
			if !r.debugTrap(ctx) {
				return
			}
			if err := r.setString(name, item, false); err != nil {
				r.errf("%v", err)
				r.lastStatus = 1
				return
			}
			r.trace(ctx, "for", name, "in", item)
			r.stmts(ctx, fc.Do)
			if r.afterBody() || r.stop(ctx) {
				return
			}
		}
	case *syntax.CStyleLoop:
		// bash runs the DEBUG trap before the init, each test and each step.
		debug := func() bool {
			r.line = fc.Pos().Line()
			r.setCurCmd(fc)
			return r.debugTrap(ctx)
		}
		if !debug() {
			return
		}
		if loop.Init != nil {
			if _, err := r.arith(ctx, loop.Init); err != nil {
				r.expandError(err)
				return
			}
		}
		status := 0
		for {
			if r.loopIter(&iters) {
				return
			}
			if !debug() {
				return
			}
			if loop.Cond != nil {
				n, err := r.arith(ctx, loop.Cond)
				if err != nil {
					r.expandError(err)
					return
				}
				if n == 0 {
					break
				}
			}
			r.stmts(ctx, fc.Do)
			status = r.lastStatus
			if r.afterBody() || r.stop(ctx) {
				return
			}
			if !debug() {
				return
			}
			if loop.Post != nil {
				if _, err := r.arith(ctx, loop.Post); err != nil {
					r.expandError(err)
					return
				}
			}
		}
		r.lastStatus = status
	}
}

// selectLoop implements `select`, reading choices from stdin.
func (r *Runner) selectLoop(ctx context.Context, name string, items []string, body []*syntax.Stmt) {
	var iters int64
	for {
		if r.loopIter(&iters) {
			return
		}
		for i, it := range items {
			fmt.Fprintf(r.fds.writer(2), "%d) %s\n", i+1, it)
		}
		fmt.Fprint(r.fds.writer(2), r.getVar("PS3").String())
		if r.getVar("PS3").String() == "" {
			fmt.Fprint(r.fds.writer(2), "#? ")
		}
		src := r.readSource(0)
		line, err := readLine(src, '\n', -1, false)
		src.done()
		if err != nil && line == "" {
			r.lastStatus = 1
			return
		}
		line = strings.TrimSpace(line)
		r.setString("REPLY", line, false)
		val := ""
		var n int
		if _, e := fmt.Sscan(line, &n); e == nil && n >= 1 && n <= len(items) {
			val = items[n-1]
		}
		r.setString(name, val, false)
		r.stmts(ctx, body)
		if r.afterBody() || r.stop(ctx) {
			return
		}
	}
}

func (r *Runner) caseClause(ctx context.Context, cc *syntax.CaseClause) {
	r.setCurCmd(cc)
	if !r.debugTrap(ctx) {
		return
	}
	word, err := r.literal(ctx, cc.Word)
	if err != nil {
		r.expandError(err)
		return
	}
	r.lastStatus = 0
	fallthroughNext := false
	for _, item := range cc.Items {
		matched := fallthroughNext
		if !matched {
			for _, pw := range item.Patterns {
				pat, err := r.pattern(ctx, pw)
				if err != nil {
					r.expandError(err)
					return
				}
				if r.matchPattern(pat, word) {
					matched = true
					break
				}
			}
		}
		if !matched {
			continue
		}
		r.stmts(ctx, item.Stmts)
		if r.stop(ctx) {
			return
		}
		switch item.Op {
		case syntax.Fallthrough:
			fallthroughNext = true
		case syntax.Resume, syntax.ResumeKorn:
			fallthroughNext = false
		default:
			return
		}
	}
}

// goSafe runs fn on a new goroutine that counts against the job limit
// and turns a panic into an internal error instead of a crash.
func (r *Runner) goSafe(fn func()) (started bool) {
	live := r.live
	live.Add(1)
	if max := r.s.limits.MaxJobs; max > 0 && r.s.goroutines() > int64(max) {
		live.Add(-1)
		r.limitHit("max-jobs", fmt.Sprint(max))
		return false
	}
	go func() {
		defer live.Add(-1)
		defer r.recoverPanic()
		fn()
	}()
	return true
}

// recoverPanic turns a panic into a fatal internal error of the run.
func (r *Runner) recoverPanic() {
	if v := recover(); v != nil {
		r.s.fail(&InternalError{Value: v, Stack: string(debug.Stack())})
	}
}

// Prefix is what error messages start with: $0, like bash.
func (r *Runner) prefix() string {
	if r.prompt {
		return "sandsh"
	}
	return r.arg0
}

// errf prints a shell error message after bash's prologue
// ("script.sh: line N: msg").
func (r *Runner) errf(format string, a ...any) {
	fmt.Fprintf(r.fds.writer(2), "%s: %s\n", r.errPrologue(), fmt.Sprintf(format, a...))
}

// cmdErrPrefix starts a message about the command the shell runs (not
// found, refused, an unbound variable in it): bash's errPrologue, with
// the line in -c text and standard input too ("bash: line 2: x: command
// not found").
func (r *Runner) cmdErrPrefix() string {
	return r.errPrologue()
}

// errPrologue is what bash puts before its own error messages (its
// error_prolog): the file the running code came from (BASH_SOURCE[0]:
// the script, a sourced file, the file a function was defined in,
// "environment" for a function from -c text), else $0, and the line.
func (r *Runner) errPrologue() string {
	if r.interactive || r.line == 0 {
		return r.prefix()
	}
	return fmt.Sprintf("%s: line %d", r.errSource(), r.line)
}

// errSource is the file errPrologue names.
func (r *Runner) errSource() string {
	if r.interactive {
		return r.prefix()
	}
	src := ""
	if n := len(r.frames); n > 0 {
		src = r.frames[n-1].source
	} else if r.scriptFile {
		src = r.mainSource
	}
	if src == "" {
		src = r.prefix()
	}
	return src
}

// position is the file the running command came from and its line, for
// the operator's question about it: the script file, a sourced file or
// the file a function was defined in; "-c" for command text, "-" for a
// script read from standard input; "" on the interactive shell.
func (r *Runner) position() (string, int) {
	if r.prompt {
		return "", int(r.line)
	}
	src := ""
	if n := len(r.frames); n > 0 {
		src = r.frames[n-1].source
	}
	if src == "" || src == "environment" || !r.scriptFile && (src == r.mainSource || src == "main") {
		switch {
		case r.scriptFile:
			src = r.mainSource
		case r.cmdString:
			src = "-c"
		default:
			src = "-"
		}
	}
	return src, int(r.line)
}

// builtinErr prints "sandsh: line N: name: msg".
func (r *Runner) builtinErr(name, format string, a ...any) {
	r.errf("%s: %s", name, fmt.Sprintf(format, a...))
}

// expandError reports a failed expansion. Like bash's non-interactive
// mode it ends the shell (status 1, or 127 for unset parameters).
func (r *Runner) expandError(err error) {
	if r.s.fatalErr() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		// A glob walk the run's end interrupted: the run's end says why.
		r.exiting, r.exitCode = true, 1
		return
	}
	var ue expand.UnsetParameterError
	status := 1
	msg := err.Error()
	switch {
	case errors.As(err, &ue):
		// bash exits 127 from the main shell of -c text (its
		// FORCE_EOF), otherwise 1; under set -e it is an ERREXIT: 1.
		if r.subshellLevel == 0 && r.cmdString && !r.opts.errexit && !r.interactive {
			status = 127
		}
		if p := r.cmdErrPrefix(); p != "" {
			fmt.Fprintf(r.fds.writer(2), "%s: %s\n", p, msg)
		} else {
			fmt.Fprintf(r.fds.writer(2), "%s: %s\n", r.prefix(), msg)
		}
	case errors.As(err, new(*readonlyError)), errors.As(err, new(*expand.ArithmError)),
		errors.Is(err, expand.ErrNoMatch), errors.As(err, new(*expand.BadSubstError)):
		// bash abandons the rest of the command line and goes on (with
		// set -e, the script ends).
		r.errf("%s", msg)
		if !r.opts.errexit || r.interactive {
			r.lastStatus, r.abortLine = 1, true
			return
		}
	default:
		r.errf("%s", msg)
		if !r.interactive && r.subshellLevel == 0 && !r.opts.errexit {
			// bash's DISCARD: the rest of the line is abandoned, functions
			// and loops included, and the script (or -c text) goes on.
			r.lastStatus, r.abortLine = status, true
			return
		}
	}
	r.lastStatus = status
	if !r.interactive {
		r.exiting, r.exitCode = true, status
	} else {
		r.exiting, r.exitCode = false, status
		r.abortLine = true
	}
}

// printNode renders a syntax node back to shell source, for set -x.
func (r *Runner) printNode(n syntax.Node) string {
	var sb strings.Builder
	syntax.NewPrinter().Print(&sb, n)
	return sb.String()
}
