package interp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/sandsh/sandsh/internal/termsafe"
	"github.com/sandsh/sandsh/interp/internal/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/sandsh/sandsh/builtins"
)

// call runs a simple command: assignments, expansion, then a function, a
// shell builtin or the gateway.
func (r *Runner) call(ctx context.Context, ce *syntax.CallExpr) {
	r.callRedirected(ctx, ce, nil)
}

// callRedirected is call for a command with redirections, which apply
// once its words are expanded and its assignments done. It returns what undoes them and whether they worked.
func (r *Runner) callRedirected(ctx context.Context, ce *syntax.CallExpr, redirs []*syntax.Redirect) (undo func(), redirOK bool) {
	undo, redirOK = func() {}, true
	mode := redirShell // bash forks only for a host program
	redirect := func() bool {
		if len(redirs) > 0 {
			undo, redirOK = r.redirects(ctx, redirs, mode)
			if !redirOK {
				r.lastStatus = 1
			}
		}
		return redirOK
	}
	if max := r.s.limits.MaxCommands; max > 0 && r.s.commands.Add(1) > max {
		r.limitHit("max-commands", fmt.Sprint(max))
		r.exiting, r.exitCode = true, 1
		return
	}
	r.setCurCmd(ce)
	if len(r.inTrap) == 0 {
		r.curRedirs = redirs
	}
	if !r.debugTrap(ctx) {
		return
	}
	r.substStatus = -1
	fields, err := r.argFields(ctx, ce.Args...)
	if err != nil {
		r.expandError(err)
		return
	}
	if r.execProc {
		r.execProc = false
		if len(fields) > 0 && r.funcs[fields[0]] == nil && !slices.Contains(builtinNames, fields[0]) {
			r.proc.setArgv(slices.Clone(fields))
			r.execing = true
		}
	}
	if len(fields) == 0 {
		for _, as := range ce.Assigns {
			if _, err := r.assign(ctx, as); err != nil {
				r.assignError(err)
				// An assignment statement that fails abandons the rest
				// of the command line, like bash.
				r.abortLine = !r.exiting
				return
			}
		}
		if len(ce.Assigns) > 0 {
			r.traceAssigns(ctx, ce.Assigns)
		}
		r.lastStatus = max(r.substStatus, 0)
		redirect()
		r.lastArg = "" // a command of no words leaves $_ empty, as in bash
		return
	}
	// Prefix assignments apply to this command only; for external
	// commands they become part of its environment.
	var restore, unbind []func()
	var extraEnv []string
	_, isFunc := r.funcs[fields[0]]
	isBuiltin := isShellBuiltin(fields[0])
	special := r.opts.posix && specialBuiltins[fields[0]]
	if isFunc && !special || isBuiltin && builtinEnvs[fields[0]] {
		if len(ce.Assigns) > 0 {
			r.callWithTempScope(ctx, ce, fields, isFunc && !special, special, redirect)
			return
		}
	}
	// POSIX mode: assignments before a special builtin stay, exported
	// (bash 5.2 merges the temporary environment, attributes and all).
	keep := special
	for _, as := range ce.Assigns {
		as, ok := r.prefixAssign(as)
		if !ok {
			continue
		}
		if isFunc || isBuiltin {
			name := as.Name.Value
			old, sc := r.lookup(name)
			var saved *variable
			if old != nil {
				saved = old.clone()
			}
			if _, err := r.assign(ctx, as); err != nil {
				if _, ok := err.(*readonlyError); !ok || r.s.fatalErr() != nil {
					r.assignError(err)
					return
				}
				// bash reports a readonly prefix assignment and runs
				// the command anyway.
				r.errf("%v", err)
				if r.posixAssignFatal(err, true) {
					return
				}
				continue
			}
			if v, _ := r.lookup(name); v != nil {
				v.Exported = true
			}
			if keep {
				continue
			}
			restore = append(restore, func() {
				if saved == nil {
					if v, i := r.lookup(name); v != nil && i >= 0 {
						r.unsetScoped(i, name)
					}
					return
				}
				r.setScoped(sc, name, saved)
			})
			continue
		}
		if old, _ := r.lookup(r.resolveRef(as.Name.Value)); old != nil && old.ReadOnly {
			// bash reports a readonly prefix assignment, leaves it out
			// of the environment and runs the command anyway.
			err := &readonlyError{as.Name.Value}
			r.errf("%v", err)
			if r.posixAssignFatal(err, true) {
				return
			}
			continue
		}
		val, err := r.assignValue(ctx, as.Value)
		if err != nil {
			r.expandError(err)
			return
		}
		if as.Append {
			// A+=a cmd: the environment gets the appended value.
			if old, _ := r.lookup(r.resolveRef(as.Name.Value)); old != nil && old.Kind != expand.NameRef {
				val = old.String() + val
			}
		}
		extraEnv = append(extraEnv, as.Name.Value+"="+val)
		// The later prefix values see this one (A=1 B=$A cmd gives B=1),
		// so bind it in the shell until the environment is built.
		name := as.Name.Value
		old, sc := r.lookup(name)
		if old != nil && (old.ReadOnly || old.Kind == expand.NameRef) {
			continue
		}
		if sc < 0 {
			sc = 0
		}
		r.setScoped(sc, name, &variable{Variable: expand.Variable{Set: true, Kind: expand.String, Str: val}})
		unbind = append(unbind, func() {
			if old == nil {
				r.unsetScoped(sc, name)
			} else {
				r.setScoped(sc, name, old)
			}
		})
	}
	for i := len(unbind) - 1; i >= 0; i-- {
		unbind[i]()
	}
	defer func() {
		for i := len(restore) - 1; i >= 0; i-- {
			restore[i]()
		}
	}()
	if len(ce.Assigns) > 0 {
		r.traceAssigns(ctx, ce.Assigns)
	}
	r.trace(ctx, fields...)
	if !isFunc && !isBuiltin {
		mode = redirChild
	}
	if !redirect() {
		return
	}
	r.runCommand(ctx, fields, extraEnv, false)
	r.lastArg = fields[len(fields)-1]
	return
}

// prefixAssign vets an assignment before a command: bash reports
// a[i]=v there (and runs the command), and takes a=(x y) as the string
// "(x y)".
func (r *Runner) prefixAssign(as *syntax.Assign) (*syntax.Assign, bool) {
	if as.Index != nil {
		text := r.printNode(&syntax.Assign{Name: as.Name, Index: as.Index})
		r.errf("`%s': not a valid identifier", strings.TrimSuffix(text, "="))
		return nil, false
	}
	if as.Array != nil {
		text := strings.TrimPrefix(r.printNode(&syntax.Assign{Name: as.Name, Array: as.Array}), as.Name.Value+"=")
		c := *as
		c.Array = nil
		c.Value = &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: text}}}
		return &c, true
	}
	return as, true
}

// builtinEnvs are the builtins that run commands of their own with the
// prefix assignments as a scope (bash's VC_BLTNENV): `unset` and `local`
// inside see them as a layer of their own.
var builtinEnvs = map[string]bool{"eval": true, "source": true, ".": true, "unset": true, "mapfile": true, "readarray": true}

// callWithTempScope runs a function or an eval/source/unset with its
// prefix assignments bound in a scope of their own, exported, above the
// caller's variables, as bash does: a function takes the scope over as
// its local one, so `unset x` in it uncovers the caller's x, and
// `local x` adopts the binding.
func (r *Runner) callWithTempScope(ctx context.Context, ce *syntax.CallExpr, fields []string, isFunc, special bool, redirect func() bool) {
	tmp := &scope{vars: map[string]*variable{}, temp: true, depth: r.depth()}
	base := len(r.scopes)
	r.pushScope(tmp)
	pop := func() {
		if len(r.scopes) <= base || r.scopes[base] != tmp {
			return // the function took it over and is done with it
		}
		for len(r.scopes) > base {
			r.popScope()
		}
		if !special {
			return
		}
		// POSIX mode: what is left of the bindings of a special builtin
		// is assigned in the caller's context afterwards, like bash.
		for _, name := range slices.Sorted(maps.Keys(tmp.vars)) {
			v := tmp.vars[name]
			if !v.tempvar || !v.Set || v.Kind != expand.String {
				continue
			}
			if err := r.setString(name, v.Str, false); err == nil {
				if nv, _ := r.lookup(name); nv != nil {
					nv.Exported = true
				}
			}
		}
	}
	defer pop()
	for _, as := range ce.Assigns {
		as, ok := r.prefixAssign(as)
		if !ok {
			continue
		}
		name := as.Name.Value
		if t := r.resolveRef(name); t != name && syntax.ValidName(t) {
			name = t // x=v through a nameref binds its target, like bash
		}
		old, _ := r.lookup(name)
		if old != nil && old.ReadOnly {
			// bash reports a readonly prefix assignment and runs the
			// command anyway.
			r.errf("%v", &readonlyError{name})
			if r.posixAssignFatal(&readonlyError{name}, true) {
				return
			}
			continue
		}
		// The value is expanded before the binding exists, so X="$X-2" f
		// reads the caller's X, as in bash.
		val, err := r.assignValue(ctx, as.Value)
		if err != nil {
			r.assignError(expansionError{err})
			return
		}
		nv := &variable{tempvar: true}
		if as.Append && old != nil && old.Kind != expand.NameRef {
			nv = old.clone()
			nv.Local, nv.ReadOnly, nv.tempvar = false, false, true
		}
		nv.Exported = true
		r.setScoped(base, name, nv)
		if err := r.setString(name, val, as.Append); err != nil {
			r.assignError(err)
			return
		}
	}
	r.traceAssigns(ctx, ce.Assigns)
	r.trace(ctx, fields...)
	if !redirect() {
		return
	}
	tmp.pendingFunc = isFunc
	r.runCommand(ctx, fields, nil, false)
	tmp.pendingFunc = false
	r.lastArg = fields[len(fields)-1]
}

// setCurCmd records the command about to run for $BASH_COMMAND; inside a
// trap it keeps naming the command that set the trap off, like bash.
func (r *Runner) setCurCmd(n syntax.Node) {
	if len(r.inTrap) == 0 {
		r.curCmd, r.curRedirs = n, nil
	}
}

// bashCommand renders $BASH_COMMAND, only when it is read.
func (r *Runner) bashCommand() string {
	switch n := r.curCmd.(type) {
	case nil:
		return ""
	case *syntax.ForClause:
		if wi, ok := n.Loop.(*syntax.WordIter); ok {
			s := "for " + wi.Name.Value
			if wi.InPos.IsValid() {
				s += " in"
				for _, w := range wi.Items {
					s += " " + r.printNode(w)
				}
			}
			return s
		}
		if cl, ok := n.Loop.(*syntax.CStyleLoop); ok {
			return "(( " + r.printNode(cl) + " ))"
		}
	case *syntax.CaseClause:
		return "case " + r.printNode(n.Word) + " in " // bash leaves a space
	case *syntax.ArithmCmd:
		return "(( " + arithText(r.printNode(n)) + " ))"
	}
	if len(r.curRedirs) > 0 {
		// bash shows a simple command with its redirections, printed as
		// print_cmd.c prints them (echo x 2>&1 > /dev/null).
		return r.printNode(r.curCmd) + " " + bashRedirText(r.curRedirs)
	}
	return r.printNode(r.curCmd)
}

// arithText is the expression of a printed "((expr))", as bash shows it
// between "(( " and " ))".
func arithText(printed string) string {
	s := strings.TrimSpace(printed)
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(s, "(("), "))"))
}

// debugTrap runs the DEBUG trap, as bash does before each simple command,
// [[ ]], (( )), for and case (and each part of an arithmetic for). It is
// not inherited by functions without functrace and does not run inside
// itself. It reports false when the trap ended the shell (exit, set -e).
func (r *Runner) debugTrap(ctx context.Context) bool {
	if len(r.traps) == 0 {
		return true // runs before every command: no look-up without traps
	}
	cmd, ok := r.traps["DEBUG"]
	if !ok || cmd == "" || r.trapRunning("DEBUG") {
		return true
	}
	r.runTrap(ctx, "DEBUG", cmd)
	return !r.exiting
}

func (r *Runner) assignError(err error) {
	if r.s.fatalErr() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		r.exiting, r.exitCode = true, 1
		return
	}
	var ee expansionError
	if errors.As(err, &ee) {
		r.expandError(ee.err)
		return
	}
	if errors.As(err, new(expand.UnsetParameterError)) {
		r.expandError(err) // set -u ends the shell
		return
	}
	r.errf("%v", err)
	r.lastStatus = 1
	if r.posixAssignFatal(err, false) || r.intAttrFatal(err) {
		return
	}
	if errors.As(err, new(*expand.ArithmError)) {
		// bash abandons the rest of the command line and goes on.
		r.abortLine = true
	}
}

// posixAssignFatal ends a non-interactive shell in POSIX mode after an
// assignment to a readonly variable, as bash does (exiting 127 from the
// main shell of -c text, as for an unset variable).
func (r *Runner) posixAssignFatal(err error, prefix bool) bool {
	if !r.opts.posix || r.interactive || !errors.As(err, new(*readonlyError)) {
		return false
	}
	status := 1
	if r.subshellLevel == 0 && r.cmdString && !prefix {
		status = 127
	}
	r.lastStatus = status
	r.exiting, r.exitCode = true, status
	return true
}

// expansionError marks a failed expansion in an assignment's value: like
// one in a command's words, it ends the line (or the shell), where other
// assignment errors only fail the command.
type expansionError struct{ err error }

func (e expansionError) Error() string { return e.err.Error() }
func (e expansionError) Unwrap() error { return e.err }

// runCommand runs fields[0] as a function, builtin or external command.
// skipFuncs is set by `command` and `builtin`.
func (r *Runner) runCommand(ctx context.Context, fields, extraEnv []string, skipFuncs bool) {
	name := fields[0]
	route := r.route
	r.route = "" // a command the builtin runs in turn (eval, source) has its own
	if !skipFuncs && !(r.opts.posix && specialBuiltins[name]) {
		if body, ok := r.funcs[name]; ok {
			r.callFunc(ctx, name, body, fields)
			return
		}
	}
	if fn := shellBuiltin(name); fn != nil {
		if route == "" {
			route = "name"
		}
		r.runBuiltin(ctx, fn, fields, route)
		return
	}
	r.external(ctx, fields, extraEnv, route)
}

// runBuiltin runs a shell builtin after the caller's builtin check.
func (r *Runner) runBuiltin(ctx context.Context, fn builtinFunc, args []string, route string) {
	done, ok := r.builtinAllowed(ctx, args, route)
	if !ok {
		return
	}
	report, fail := writeChecked(args)
	var finish func()
	if report {
		finish = r.watchOutput(args[0], fail)
	}
	r.lastStatus = fn(r, ctx, args)
	if finish != nil {
		finish()
	}
	if done != nil {
		done(r.lastStatus)
	}
}

// watchOutput puts a recorder of write errors in front of standard output;
// the func it returns takes it away and reports an error as bash does:
// "NAME: write error: ...", and status 1 if fail.
func (r *Runner) watchOutput(name string, fail bool) func() {
	out := r.fds.get(1)
	if out == nil || out.w == nil {
		return func() {}
	}
	rec := &errRecorder{w: out.w}
	watched := newOpenFile(out.r, rec, nil, out.name)
	watched.file = out.file
	r.fds.fds[1] = watched
	return func() {
		if r.fds.fds[1] == watched {
			r.fds.fds[1] = out
		}
		if err := rec.first(); err != nil && r.s.fatalErr() == nil && !builtins.IsBrokenPipe(err) {
			r.builtinErr(name, "write error: %s", builtins.ErrText(err))
			if fail && r.lastStatus == 0 {
				r.lastStatus = 1
			}
		}
	}
}

// errRecorder passes writes on and keeps the first error.
type errRecorder struct {
	w   io.Writer
	mu  sync.Mutex
	err error
}

func (e *errRecorder) Write(b []byte) (int, error) {
	n, err := e.w.Write(b)
	if err != nil {
		e.mu.Lock()
		if e.err == nil {
			e.err = err
		}
		e.mu.Unlock()
	}
	return n, err
}

func (e *errRecorder) first() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}

// writeChecked says what bash does when a builtin cannot write its output
// (> /dev/full): report "NAME: write error: ..." and, for most, fail with
// status 1 (its sh_chkwrite); a few only report it (the flush as they
// end); the rest say nothing. echo and printf check their own writes,
// declare and its kin theirs (declClause).
func writeChecked(args []string) (report, fail bool) {
	rest := args[1:]
	switch args[0] {
	case "bind", "cd", "dirs", "enable", "hash", "pwd", "set", "shopt", "times", "trap", "type", "umask":
		return true, true
	case "pushd", "popd":
		return true, false
	case "alias":
		// Named aliases are printed without a check.
		return len(rest) == 0, len(rest) == 0
	case "help":
		return len(rest) > 0, len(rest) > 0
	case "ulimit":
		return slices.Contains(rest, "-a"), slices.Contains(rest, "-a")
	}
	return false, false
}

// builtinAllowed asks the caller's builtin check (a policy) whether the
// builtin in args may run; a refusal fails it with status 126. done, when
// not nil, wants the builtin's status.
func (r *Runner) builtinAllowed(ctx context.Context, args []string, route string) (done func(int), ok bool) {
	if r.s.biCheck == nil {
		return nil, true
	}
	script, line := r.position()
	why, ok, done := r.s.biCheck(ctx, BuiltinCall{Args: args, Route: route, Via: r.via, Script: script, Line: line})
	if !ok {
		prefix := r.cmdErrPrefix()
		if prefix == "" {
			prefix = "sandsh"
		}
		termsafe.Fprintf(r.fds.writer(2), "%s: %s: %s\n", prefix, args[0], why)
		r.lastStatus = 126
	}
	return done, ok
}

// external hands a command to the gateway.
func (r *Runner) external(ctx context.Context, fields, extraEnv []string, route string) {
	hashed := r.hashCommand(fields[0], extraEnv)
	env := r.cmdEnv(extraEnv)
	env.Procs = processes{r: r, ctx: ctx}
	switch {
	case route != "":
	case strings.Contains(fields[0], "/"):
		route = "path"
	default:
		route = "name"
	}
	env.Route, env.Via = route, r.via
	env.Script, env.Line = r.position()
	env.ErrPrefix = r.cmdErrPrefix()
	if hr, ok := r.s.gw.(hashedRunner); ok && hashed != "" {
		r.lastStatus = hr.RunHashed(ctx, env, hashed, fields)
	} else {
		r.lastStatus = r.s.gw.Run(ctx, env, fields)
	}
	r.execing = false
	if ctx.Err() != nil && r.s.fatalErr() != nil {
		r.exiting, r.exitCode = true, 1
	}
}

// cmdEnv is the Env an in-process or host command runs with.
func (r *Runner) cmdEnv(extraEnv []string) *builtins.Env {
	environ := r.environ()
	if len(extraEnv) > 0 {
		environ = append(environ, extraEnv...)
	}
	env := r.baseEnv()
	env.Environ = environ
	gw := r.s.gw
	env.Exec = func(ctx context.Context, sub *builtins.Env, args []string) int {
		return gw.Run(ctx, sub, args)
	}
	env.Shell = r.nestedShell
	return env
}

// baseEnv is what every Env the runner hands out has: streams, files,
// identity and limits, but neither environment nor a way to run commands.
func (r *Runner) baseEnv() *builtins.Env {
	env := &builtins.Env{
		Stdin:  r.fds.reader(0),
		Stdout: r.fds.writer(1),
		Stderr: r.fds.writer(2),
		FS:     r.devFS(),
		Dir:    r.dir,
		Sys:    r.s.sys,

		SearchPath: r.getVar("PATH").String(),
	}
	if of := r.fds.get(0); of == nil {
		env.Stdin = strings.NewReader("")
	}
	gw := r.s.gw
	env.LookPath = func(name string) (string, bool) { return gw.LookPath(env, name) }
	env.LookPathAll = func(name string) []string { return gw.LookPathAll(env, name) }
	env.Restricted = gw.Restricted()
	if !env.Restricted {
		env.FDs = r.hostFDs()
	}
	env.MaxLine = r.s.limits.MaxVarBytes
	if env.MaxLine == 0 {
		env.MaxLine = -1 // --max-var-bytes 0: no bound on a line either
	}
	env.MaxInput = int(r.s.limits.MaxCapture)
	if env.MaxInput == 0 {
		env.MaxInput = -1 // --max-capture 0: no bound on a whole input
	}
	env.Alive = r.alive
	return env
}

// hostFDs lists the descriptors above 2 a host program inherits. Like
// bash's children it gets every writable one and every one open on a host
// file; a reader in memory (a here-document, a pipe) only when the
// command's own redirection or process substitution opened it and nothing
// else shares it, since the gateway has to drain it into a host pipe: a
// descriptor the loop around the command reads from (`done 3< <(cmd)`)
// stays the shell's.
func (r *Runner) hostFDs() map[int]builtins.FD {
	var m map[int]builtins.FD
	for n, of := range r.fds.fds {
		if n <= 2 {
			continue
		}
		fd := builtins.FD{W: of.w}
		if of.r != nil {
			if _, isFile := of.r.(*os.File); isFile || slices.Contains(r.ownFDs, n) && !r.fds.shared(n) {
				fd.R = of.r
			}
		}
		if fd.R == nil && fd.W == nil {
			continue
		}
		if m == nil {
			m = map[int]builtins.FD{}
		}
		m[n] = fd
	}
	return m
}

// callFunc runs a shell function with its own positional parameters and
// local scope.
func (r *Runner) callFunc(ctx context.Context, name string, body *syntax.Stmt, args []string) {
	if !r.enterCall("function") {
		return
	}
	defer func() { r.callDepth-- }()
	if nest := r.funcNest(); nest != "" {
		var n int
		if _, err := fmt.Sscan(nest, &n); err == nil && n > 0 && len(r.frames) >= n {
			r.errf("%s: maximum function nesting level exceeded (%d)", name, n)
			r.lastStatus = 1
			r.exiting, r.exitCode = !r.interactive, 1
			return
		}
	}
	oldParams := r.params
	r.params = args[1:]
	if n := len(r.scopes); r.scopes[n-1].pendingFunc {
		// x=v f: the prefix bindings, already in place, are f's own
		// scope; while still temp it has the caller's depth.
		sc := r.scopes[n-1]
		d := r.depth()
		sc.pendingFunc, sc.temp, sc.funcName, sc.depth = false, false, name, d+1
	} else {
		r.pushScope(&scope{vars: map[string]*variable{}, funcName: name, depth: r.depth() + 1})
	}
	r.frames = append(r.frames, frame{funcName: name, source: r.funcSource[name], callLine: r.line, args: r.params})
	callLine := r.line
	// Like bash, a function that is not traced (functrace) runs without
	// the DEBUG and RETURN traps; one it sets itself stays set after it.
	var hidden map[string]string
	if !r.opts.functrace {
		for _, sig := range [...]string{"DEBUG", "RETURN"} {
			if cmd, ok := r.traps[sig]; ok {
				if hidden == nil {
					hidden = map[string]string{}
				}
				hidden[sig] = cmd
				delete(r.traps, sig)
			}
		}
	}
	// A traced function runs the DEBUG trap once as it starts.
	r.line = body.Pos().Line()
	if r.debugTrap(ctx) {
		r.stmt(ctx, body)
	}
	if r.exiting && !r.interactive {
		// bash runs the EXIT trap where the shell exits, with the
		// function stack still in place (${FUNCNAME[@]}, $BASH_LINENO).
		r.runExitTrap(ctx)
	}
	if r.returning {
		r.returning = false
	}
	r.runReturnTrap(ctx)
	for sig, cmd := range hidden {
		if _, set := r.traps[sig]; !set {
			r.traps[sig] = cmd
		}
	}
	r.frames = r.frames[:len(r.frames)-1]
	r.popScope()
	r.params = oldParams
	// The caller's $LINENO (and its ERR trap) see the line of the call.
	r.line = callLine
}

// funcNest is $FUNCNEST, looked up in the global scope only so that a
// deep recursion does not search every scope on every call.
func (r *Runner) funcNest() string {
	if v := r.scopes[0].vars["FUNCNEST"]; v != nil && v.Set {
		return v.Str
	}
	return ""
}

// enterCall counts one level of call depth; at the limit it fails the run.
func (r *Runner) enterCall(what string) bool {
	r.callDepth++
	if max := r.s.limits.MaxCallDepth; max > 0 && r.callDepth > max {
		r.callDepth--
		r.limitHit("max-call-depth", fmt.Sprint(max))
		r.exiting, r.exitCode = true, 1
		return false
	}
	return true
}

// assign performs one assignment word: x=v, x+=v, a=(..), a[i]=v, and
// returns the expanded value of a scalar one (declare's $_ shows it).
func (r *Runner) assign(ctx context.Context, as *syntax.Assign) (string, error) {
	name := as.Name.Value
	if as.Array != nil && as.Index != nil {
		text := r.printNode(&syntax.Assign{Name: as.Name, Index: as.Index})
		return "", &listToMemberError{strings.TrimSuffix(text, "=")}
	}
	if as.Array != nil {
		return "", r.assignArray(ctx, name, as.Array, as.Append, nil)
	}
	val, err := r.assignValue(ctx, as.Value)
	if err != nil {
		return "", expansionError{err}
	}
	if as.Index != nil {
		if expand.EmptyIndex(as.Index) {
			return val, fmt.Errorf("%s[]: bad array subscript", name)
		}
		target, err := r.writeRef(name)
		if target == "" {
			return val, err
		}
		if strings.IndexByte(target, '[') > 0 {
			return val, &notIdentError{target}
		}
		v, err := r.varForWrite(target)
		if err != nil {
			return val, err
		}
		if v.Kind == expand.Associative {
			key, err := r.assocKey(ctx, as.Index)
			if err != nil {
				return val, err
			}
			if v.Map == nil {
				v.Map = expand.NewAssoc(expand.AssocBuckets)
			}
			if as.Append {
				cur, _ := v.Map.Get(key)
				val = cur + val
			}
			t, err := r.transform(v, val)
			if err != nil {
				return val, err
			}
			v.Map.Set(key, t)
			v.Set = true
			return val, nil
		}
		i, err := r.arith(ctx, as.Index)
		if err != nil {
			return val, err
		}
		return val, r.setIndexed(target, v, i, val, as.Append)
	}
	return val, r.setString(name, val, as.Append)
}

// listToMemberError is bash's runtime error for a[i]=(...).
type listToMemberError struct{ elem string }

func (e *listToMemberError) Error() string {
	return e.elem + ": cannot assign list to array member"
}

// assocKey expands an associative array subscript.
func (r *Runner) assocKey(ctx context.Context, idx syntax.ArithmExpr) (key string, err error) {
	defer guard(&err)
	cfg := r.ecfg(ctx)
	defer r.putCfg(cfg)
	key, err = cfg.AssocKey(idx)
	if err == nil && r.s.fatalErr() != nil {
		err = r.s.fatalErr()
	}
	return key, err
}

// assignArray assigns a=(...) or a+=(...); kind forces the array kind
// (from declare -a/-A) when the variable does not have one yet.
func (r *Runner) assignArray(ctx context.Context, name string, arr *syntax.ArrayExpr, appendVal bool, kind *expand.ValueKind) error {
	name, v, err := r.lookupForWrite(name)
	if name == "" {
		return err
	}
	if strings.IndexByte(name, '[') > 0 {
		return &notIdentError{name}
	}
	v, err = r.varForWriteOf(name, v)
	if err != nil {
		return err
	}
	if kind != nil && (v.Kind == expand.Unknown || v.Kind == expand.String) {
		v.Kind = *kind
	}
	if v.Kind == expand.Associative {
		// bash builds a replacement table off to the side (with the old
		// one's size), so a=([x]=${a[k]}) still reads the old a; an append
		// writes the live table.
		m := v.Map
		if !appendVal || m == nil {
			m = expand.NewAssoc(v.Map.Buckets())
		}
		if len(arr.Elems) > 0 && arr.Elems[0].Index == nil {
			// bash 5.1+: a=(k1 v1 k2 v2), each word one string, a
			// missing last value empty.
			words := make([]string, 0, len(arr.Elems)+1)
			for _, el := range arr.Elems {
				w, err := r.assocElemText(ctx, el)
				if err != nil {
					return err
				}
				words = append(words, w)
			}
			if len(words)%2 == 1 {
				words = append(words, "")
			}
			for i := 0; i < len(words); i += 2 {
				t, err := r.transform(v, words[i+1])
				if err != nil {
					return err
				}
				m.Set(words[i], t)
			}
			v.Map, v.Set = m, true
			return nil
		}
		for _, el := range arr.Elems {
			if el.Index == nil {
				val, err := r.assocValue(ctx, el.Value)
				if err != nil {
					return err
				}
				r.errf("%s: '%s': must use subscript when assigning associative array", name, val)
				continue
			}
			key, err := r.assocKey(ctx, el.Index)
			if err != nil {
				return err
			}
			val, err := r.assocValue(ctx, el.Value)
			if err != nil {
				return err
			}
			if el.Append {
				// [k]+=v appends to the live table's value, even when
				// the literal replaces the table (bash 5.2).
				cur, _ := v.Map.Get(key)
				val = cur + val
			}
			t, err := r.transform(v, val)
			if err != nil {
				return err
			}
			m.Set(key, t)
		}
		v.Map, v.Set = m, true
		return nil
	}
	// bash expands every value first, then clears the array (unless
	// appending) and assigns element by element, evaluating each [index]
	// only then: it sees the elements assigned before it, and
	// a=("${a[1]}" "${a[0]}") still reads the old a.
	type elem struct {
		index  syntax.ArithmExpr
		vals   []string
		append bool
	}
	elems := make([]elem, 0, len(arr.Elems))
	nfields := 0
	for _, el := range arr.Elems {
		if w := bracedElem(el); w != nil {
			vals, err := r.fields(ctx, w)
			if err != nil {
				return err
			}
			elems = append(elems, elem{vals: vals})
			nfields += len(vals)
		} else if el.Index != nil {
			// [i]=word is expanded like an assignment's value (a ~
			// after a : too).
			val, err := r.assignValue(ctx, el.Value)
			if err != nil {
				return err
			}
			elems = append(elems, elem{index: el.Index, vals: []string{val}, append: el.Append})
			nfields++
		} else {
			vals, err := r.fields(ctx, el.Value)
			if err != nil {
				return err
			}
			elems = append(elems, elem{vals: vals})
			nfields += len(vals)
		}
		// The elements count against the field limit together, like a
		// command's words.
		if r.tooManyFields(nfields) {
			return r.s.fatalErr()
		}
	}
	next := 0
	switch {
	case appendVal && v.Kind == expand.Indexed:
		next = indexedMax(v.List, v.Indexes) + 1
	case appendVal && v.Kind == expand.String && v.Set:
		v.List, v.Indexes = []string{v.Str}, nil
		next = 1
	default:
		v.List, v.Indexes = []string{}, nil
	}
	v.Kind, v.Str, v.Set = expand.Indexed, "", true
	for _, el := range elems {
		if el.index != nil {
			i, err := r.arith(ctx, el.index)
			if err != nil {
				return err
			}
			if i < 0 && i+indexedMax(v.List, v.Indexes)+1 < 0 {
				// bash reports the element and goes on with the rest.
				op := "]="
				if el.append {
					op = "]+="
				}
				r.errf("[%d%s%s: bad array subscript", i, op, el.vals[0])
				continue
			}
			if err := r.setIndexed(name, v, i, el.vals[0], el.append); err != nil {
				return err
			}
			next = i + 1
			if i < 0 {
				next = indexedMax(v.List, v.Indexes) + 1
			}
			continue
		}
		for _, val := range el.vals {
			t, err := r.transform(v, val)
			if err != nil {
				return err
			}
			v.List, v.Indexes = indexedSet(v.List, v.Indexes, next, t)
			next++
		}
	}
	if v.List == nil {
		v.List = []string{}
	}
	return nil
}

// bracedElem is the word [i]=value of an indexed array's literal when
// brace expansion changes it, else nil: bash brace-expands the element's
// whole text, and the words that makes are plain values, as in
// a=([k]=-{a,b}-), whose elements are "[k]=-a-" and "[k]=-b-".
func bracedElem(el *syntax.ArrayElem) *syntax.Word {
	if el.Index == nil {
		return nil
	}
	op := "]="
	if el.Append {
		op = "]+="
	}
	parts := arithParts([]syntax.WordPart{&syntax.Lit{Value: "["}}, el.Index)
	parts = append(parts, &syntax.Lit{Value: op})
	if el.Value != nil {
		parts = append(parts, el.Value.Parts...)
	}
	w := &syntax.Word{Parts: parts}
	cp := *w
	if !syntax.SplitBraces(&cp) || !slices.ContainsFunc(cp.Parts, func(p syntax.WordPart) bool {
		_, ok := p.(*syntax.BraceExp)
		return ok
	}) {
		return nil
	}
	return w
}

// arithParts appends the text of the parsed subscript x as word parts,
// its operands' expansions kept (the spacing of the source is not).
func arithParts(parts []syntax.WordPart, x syntax.ArithmExpr) []syntax.WordPart {
	switch x := x.(type) {
	case *syntax.Word:
		return append(parts, x.Parts...)
	case *syntax.BinaryArithm:
		parts = arithParts(parts, x.X)
		parts = append(parts, &syntax.Lit{Value: x.Op.String()})
		parts = arithParts(parts, x.Y)
		return parts
	case *syntax.UnaryArithm:
		if x.Post {
			return append(arithParts(parts, x.X), &syntax.Lit{Value: x.Op.String()})
		}
		return arithParts(append(parts, &syntax.Lit{Value: x.Op.String()}), x.X)
	case *syntax.ParenArithm:
		parts = append(parts, &syntax.Lit{Value: "("})
		return append(arithParts(parts, x.X), &syntax.Lit{Value: ")"})
	}
	return parts
}

// assocValue expands the value of [k]=v in an associative array literal:
// bash 5.2 does no tilde expansion there.
func (r *Runner) assocValue(ctx context.Context, w *syntax.Word) (string, error) {
	return r.expandWord(ctx, w, expand.NoTilde)
}

// assocElemText is an element of a=(k1 v1 ...) as one string; a [k]=v
// among them is taken as its text, as bash does.
func (r *Runner) assocElemText(ctx context.Context, el *syntax.ArrayElem) (string, error) {
	val, err := r.assocValue(ctx, el.Value)
	if err != nil || el.Index == nil {
		return val, err
	}
	key, err := r.assocKey(ctx, el.Index)
	op := "]="
	if el.Append {
		op = "]+="
	}
	return "[" + key + op + val, err
}
