package interp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/syntax"

	"github.com/sandsh/sandsh/builtins"
)

// abs resolves a path against the current directory.
func (r *Runner) abs(p string) string {
	if p == "" {
		return r.dir
	}
	if p[0] != '/' {
		p = r.dir + "/" + p
	}
	return cleanPath(p)
}

func cleanPath(p string) string {
	if !strings.Contains(p, "/.") && !strings.Contains(p, "//") && (len(p) == 1 || p[len(p)-1] != '/') {
		return p
	}
	var out []string
	for _, part := range strings.Split(p, "/") {
		switch part {
		case "", ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, part)
		}
	}
	return "/" + strings.Join(out, "/")
}

// redirMode says how long redirections last.
type redirMode int

const (
	// redirChild: for one command bash runs in a child process (a host
	// program, ( )): undone entirely.
	redirChild redirMode = iota
	// redirShell: for one command the shell runs itself (a builtin, a
	// function, { }, a loop): undone as bash undoes them, which leaves
	// the source of a move (N>&M-) closed when N was closed before.
	redirShell
	// redirPermanent: exec with no command.
	redirPermanent
)

// redirects applies redirections to the runner's descriptors. Unless
// permanent, the returned func restores them.
func (r *Runner) redirects(ctx context.Context, rds []*syntax.Redirect, mode redirMode) (func(), bool) {
	if len(rds) == 0 {
		return func() {}, true
	}
	permanent := mode == redirPermanent
	// The descriptors replaced and what they held, in a list: a command
	// has a redirection or two, which maps would cost allocations for.
	// lost: bash does not restore it.
	type savedFD struct {
		n    int
		of   *openFile
		lost bool
	}
	var saved []savedFD
	save := func(n int) {
		for _, sv := range saved {
			if sv.n == n {
				if of := r.fds.fds[n]; of != nil {
					of.release()
				}
				delete(r.fds.fds, n)
				return
			}
		}
		saved = append(saved, savedFD{n: n, of: r.fds.fds[n]})
		delete(r.fds.fds, n)
		if !permanent {
			r.ownFDs = append(r.ownFDs, n)
		}
	}
	// lose marks the source of a move into a descriptor that was closed:
	// bash records no undo for it (its "fail to restore closed fd" bug),
	// so after a command the shell runs itself it stays closed.
	lose := func(n int) {
		for i := range saved {
			if saved[i].n == n && mode == redirShell {
				saved[i].lost = true
			}
		}
	}
	restore := func() {
		for _, sv := range saved {
			n, old := sv.n, sv.of
			if permanent {
				if old != nil {
					old.release()
				}
				continue
			}
			if cur := r.fds.fds[n]; cur != nil {
				cur.release()
			}
			if sv.lost {
				if old != nil {
					old.release()
				}
				delete(r.fds.fds, n)
				continue
			}
			if old != nil {
				r.fds.fds[n] = old
			} else {
				delete(r.fds.fds, n)
			}
		}
	}
	for _, rd := range rds {
		if err := r.redirect(ctx, rd, save, lose); err != nil {
			if r.s.fatalErr() == nil {
				r.errf("%v", err)
			}
			restore()
			if permanent {
				return func() {}, false
			}
			return func() {}, false
		}
	}
	if permanent {
		restore()
		return func() {}, true
	}
	return restore, true
}

// redirError is a failed redirection, printed as "target: reason".
type redirError struct {
	target string
	err    error
}

func (e *redirError) Error() string { return e.target + ": " + builtins.ErrText(e.err) }

func (r *Runner) redirect(ctx context.Context, rd *syntax.Redirect, save, lose func(int)) error {
	// The descriptor: explicit N, {var} allocation, or the default.
	fd := 1
	switch rd.Op {
	case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		fd = 0
	}
	varName := ""
	if rd.N != nil {
		if strings.HasPrefix(rd.N.Value, "{") {
			varName = strings.Trim(rd.N.Value, "{}")
			fd = -1
		} else {
			n, err := strconv.Atoi(rd.N.Value)
			if err != nil || n > maxFD {
				return fmt.Errorf("%s: Bad file descriptor", rd.N.Value)
			}
			fd = n
		}
	}
	install := func(of *openFile) error {
		if fd == -1 {
			fd = r.fds.freeFrom(10)
			if fd < 0 {
				of.release()
				return errors.New("too many open files")
			}
			if err := r.setString(varName, strconv.Itoa(fd), false); err != nil {
				of.release()
				return err
			}
			// {var} descriptors outlive the command, like bash.
			r.fds.fds[fd] = of
			return nil
		}
		save(fd)
		r.fds.fds[fd] = of
		return nil
	}
	switch rd.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		var body string
		var err error
		if lit, ok := quotedHdoc(rd); ok {
			body = lit // <<'EOF': the lines as they are, backslashes too
		} else if body, err = r.document(ctx, rd.Hdoc); err != nil {
			return err
		}
		if rd.Op == syntax.DashHdoc {
			body = stripTabs(body)
		}
		if err := r.checkHeredoc(len(body)); err != nil {
			return err
		}
		return install(newOpenFile(strings.NewReader(body), nil, nil, "here-document"))
	case syntax.WordHdoc:
		s, err := r.literal(ctx, rd.Word)
		if err != nil {
			return err
		}
		if err := r.checkHeredoc(len(s)); err != nil {
			return err
		}
		return install(newOpenFile(strings.NewReader(s+"\n"), nil, nil, "here-string"))
	case syntax.DplIn, syntax.DplOut:
		var word string
		var err error
		fileFields := 1 // how many fields a file name would expand to
		if rd.Op == syntax.DplOut && (rd.N == nil || rd.N.Value == "1") {
			// Maybe a file: split (and glob) the word only once.
			var fields []string
			fields, err = r.fields(ctx, rd.Word)
			fileFields = len(fields)
			word = strings.Join(fields, " ")
		} else {
			word, err = r.literal(ctx, rd.Word)
		}
		if err != nil {
			return err
		}
		if word == "-" {
			if fd == -1 {
				// {var}>&- closes the descriptor whose number is in $var.
				n, err := strconv.Atoi(r.getVar(varName).String())
				if err != nil {
					return fmt.Errorf("%s: ambiguous redirect", varName)
				}
				fd = n
			}
			save(fd)
			return nil
		}
		move := strings.HasSuffix(word, "-")
		src, err := strconv.Atoi(strings.TrimSuffix(word, "-"))
		if err != nil {
			if word == "" {
				return fmt.Errorf("%s: ambiguous redirect", r.printNode(rd.Word))
			}
			if rd.Op == syntax.DplOut && (rd.N == nil || rd.N.Value == "1") {
				// >&file and 1>&file are &>file, as in bash
				if fileFields != 1 {
					return fmt.Errorf("%s: ambiguous redirect", r.printNode(rd.Word))
				}
				return r.openRedirect(ctx, &syntax.Redirect{Op: syntax.RdrAll, Word: rd.Word}, word, save, install)
			}
			return fmt.Errorf("%s: ambiguous redirect", word)
		}
		of := r.fds.get(src)
		if of == nil {
			return fmt.Errorf("%d: Bad file descriptor", src)
		}
		if fd == src {
			return nil
		}
		wasOpen := fd == -1 || r.fds.get(fd) != nil
		of.retain()
		if err := install(of); err != nil {
			return err
		}
		if move {
			save(src)
			if !wasOpen {
				lose(src)
			}
		}
		return nil
	}
	fields, err := r.fields(ctx, rd.Word)
	if err != nil {
		return err
	}
	if len(fields) != 1 {
		return fmt.Errorf("%s: ambiguous redirect", r.printNode(rd.Word))
	}
	return r.openRedirect(ctx, rd, fields[0], save, install)
}

// dirReader is a directory open for reading: every read fails with EISDIR.
type dirReader struct{}

func (dirReader) Read([]byte) (int, error) { return 0, syscall.EISDIR }

// quotedHdoc returns the body of a here-document whose delimiter is
// quoted (<<'EOF', <<"EOF", <<\EOF): the parser keeps it as one literal,
// which no expansion may touch.
func quotedHdoc(rd *syntax.Redirect) (string, bool) {
	quoted := false
	for _, wp := range rd.Word.Parts {
		if lit, ok := wp.(*syntax.Lit); !ok || strings.ContainsRune(lit.Value, '\\') {
			quoted = true
		}
	}
	if !quoted {
		return "", false
	}
	if rd.Hdoc == nil {
		return "", true
	}
	var sb strings.Builder
	for _, wp := range rd.Hdoc.Parts {
		lit, ok := wp.(*syntax.Lit)
		if !ok {
			return "", false
		}
		sb.WriteString(lit.Value)
	}
	return sb.String(), true
}

// stripTabs removes the leading tabs of every line, for <<-.
func stripTabs(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, "\t")
	}
	return strings.Join(lines, "")
}

func (r *Runner) checkHeredoc(n int) error {
	if max := r.s.limits.MaxHeredoc; max > 0 && int64(n) > max {
		return r.limitErr("max-heredoc", FormatBytes(max))
	}
	return nil
}

// openRedirect opens a file for <, >, >>, >|, <>, &> or &>>.
func (r *Runner) openRedirect(ctx context.Context, rd *syntax.Redirect, name string, save func(int), install func(*openFile) error) error {
	if name == "" {
		return &redirError{target: "", err: syscall.ENOENT}
	}
	var flag int
	switch rd.Op {
	case syntax.RdrIn:
		flag = os.O_RDONLY
	case syntax.RdrInOut:
		flag = os.O_RDWR | os.O_CREATE
	case syntax.RdrOut, syntax.RdrAll:
		flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if r.opts.noclobber {
			if fi, err := r.devFS().Stat(r.abs(name)); err == nil && fi.Mode().IsRegular() {
				return fmt.Errorf("%s: cannot overwrite existing file", name)
			}
		}
	case syntax.RdrClob:
		flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	case syntax.AppOut, syntax.AppAll:
		flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	default:
		return fmt.Errorf("unsupported redirection %s", rd.Op)
	}
	path := r.abs(name)
	f, err := r.devFS().OpenFile(path, flag, 0o644)
	if err != nil {
		return &redirError{target: name, err: err}
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		if flag != os.O_RDONLY {
			return &redirError{target: name, err: syscall.EISDIR}
		}
		// Like bash, < opens a directory; reading it fails.
		return install(newOpenFile(dirReader{}, nil, nil, name))
	}
	var rdr io.Reader
	var wr io.Writer
	if flag&(os.O_WRONLY) == 0 {
		rdr = f
	}
	if flag&(os.O_WRONLY|os.O_RDWR) != 0 {
		wr = f
	}
	of := newOpenFile(rdr, wr, f, name)
	of.file = f
	if rd.Op == syntax.RdrAll || rd.Op == syntax.AppAll {
		if rd.N == nil {
			of.retain()
			save(1)
			r.fds.fds[1] = of
			save(2)
			r.fds.fds[2] = of
			return nil
		}
	}
	return install(of)
}

// cmdSubst runs $(...) in a subshell, capturing its stdout into w.
func (r *Runner) cmdSubst(ctx context.Context, w io.Writer, cs *syntax.CmdSubst) error {
	if max := r.s.limits.MaxSubstDepth; max > 0 && r.substDepth >= max {
		return r.limitErr("max-subst-depth", fmt.Sprint(max))
	}
	c := r.subshell()
	c.substDepth++
	c.opts.errexit = r.opts.errexit && r.opts.inheritErrexit
	capture := &captureWriter{w: w, max: r.s.limits.MaxCapture, s: r.s}
	c.fds.set(1, newOpenFile(nil, capture, nil, "command substitution"))
	// $(< file) reads the file without running a command.
	if len(cs.Stmts) == 1 && isCatRedirect(cs.Stmts[0]) {
		st := cs.Stmts[0]
		restore, ok := c.redirects(ctx, st.Redirs, redirChild)
		if ok {
			// A directory reads as nothing, silently, as in bash.
			if _, err := io.Copy(capture, c.fds.reader(0)); err != nil && !errors.Is(err, syscall.EISDIR) && r.s.fatalErr() == nil {
				c.errf("%v", err)
			}
			c.lastStatus = 0
		} else {
			c.lastStatus = 1
		}
		restore()
	} else if cs.Deferred != "" {
		c.runDeferred(ctx, cs)
		c.runExitTrap(ctx)
	} else {
		c.stmts(ctx, cs.Stmts)
		c.runExitTrap(ctx)
	}
	c.fds.closeAll()
	r.substStatus = c.exitStatus()
	if err := r.s.fatalErr(); err != nil {
		return err
	}
	return nil
}

// runDeferred runs the text of a backquoted substitution that did not
// parse with the script, line by line as bash parses it then: the lines
// before the error run, and the error is the substitution's
// ("script.sh: command substitution: line 2: ..."), status 2.
func (r *Runner) runDeferred(ctx context.Context, cs *syntax.CmdSubst) {
	where := r.errSource() + ": command substitution"
	line := cs.Pos().Line()
	err := r.runByLine(ctx, []byte(cs.Deferred), "command substitution", line, r.s.scrCheck != nil, where)
	if err == nil || r.exiting || r.stop(ctx) {
		return
	}
	r.reportSyntax(err, []byte(cs.Deferred), line, where)
	r.lastStatus = 2
	r.exiting, r.exitCode = true, 2
}

func isCatRedirect(st *syntax.Stmt) bool {
	return st.Cmd == nil && len(st.Redirs) == 1 && st.Redirs[0].Op == syntax.RdrIn && st.Redirs[0].N == nil
}

// captureWriter bounds what one command substitution may capture.
type captureWriter struct {
	w   io.Writer
	n   int64
	max int64
	s   *session
}

func (c *captureWriter) Write(b []byte) (int, error) {
	c.n += int64(len(b))
	if c.max > 0 && c.n > c.max {
		c.s.fail(&LimitError{Limit: "max-capture", Value: FormatBytes(c.max)})
		return 0, errOutputLimit
	}
	return c.w.Write(b)
}

// procSubst starts <(cmd) or >(cmd) on an in-memory pipe and returns the
// /dev/fd path that names it.
func (r *Runner) procSubst(ctx context.Context, ps *syntax.ProcSubst) (string, error) {
	if max := r.s.limits.MaxSubstDepth; max > 0 && r.substDepth >= max {
		return "", r.limitErr("max-subst-depth", fmt.Sprint(max))
	}
	pr, pw := newPipe(ctx)
	c := r.subshell()
	c.substDepth++
	fd := r.fds.freeFrom(63)
	if fd < 0 {
		return "", errors.New("too many open files")
	}
	done := make(chan struct{})
	r.ownFDs = append(r.ownFDs, fd)
	if ps.Op == syntax.CmdIn {
		c.fds.set(1, newOpenFile(nil, pw, pw, "pipe"))
		r.fds.fds[fd] = newOpenFile(pr, nil, pr, "pipe")
	} else {
		c.fds.set(0, newOpenFile(pr, nil, pr, "pipe"))
		r.fds.fds[fd] = newOpenFile(nil, pw, pw, "pipe")
	}
	if !r.goSafe(func() {
		defer close(done)
		c.stmts(ctx, ps.Stmts)
		c.runExitTrap(ctx)
		c.fds.closeAll()
	}) {
		close(done)
		c.fds.closeAll()
	}
	r.procWaits = append(r.procWaits, func() {
		if of := r.fds.fds[fd]; of != nil {
			delete(r.fds.fds, fd)
			of.release()
		}
		if ps.Op == syntax.CmdOut {
			<-done
		}
	})
	return "/dev/fd/" + strconv.Itoa(fd), nil
}

// finishProcSubst closes the descriptors of process substitutions once
// the command that used them is done.
func (r *Runner) finishProcSubst() {
	waits := r.procWaits
	r.procWaits = nil
	for _, w := range waits {
		w()
	}
}

// pipelineStages flattens a | b | c into its statements.
func pipelineStages(bc *syntax.BinaryCmd) ([]*syntax.Stmt, []bool) {
	var stages []*syntax.Stmt
	var all []bool
	var walk func(st *syntax.Stmt, stderrToo bool)
	walk = func(st *syntax.Stmt, stderrToo bool) {
		if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) &&
			!st.Negated && !st.Background && len(st.Redirs) == 0 {
			walk(b.X, b.Op == syntax.PipeAll)
			walk(b.Y, stderrToo)
			return
		}
		stages = append(stages, st)
		all = append(all, stderrToo)
	}
	walk(bc.X, bc.Op == syntax.PipeAll)
	walk(bc.Y, false)
	return stages, all
}

// pipeline runs every stage concurrently in subshells connected by
// in-memory pipes; with lastpipe the last stage runs in this shell.
func (r *Runner) pipeline(ctx context.Context, bc *syntax.BinaryCmd) {
	stages, stderrToo := pipelineStages(bc)
	n := len(stages)
	statuses := make([]int, n)
	done := make([]chan struct{}, n)
	lastInShell := r.opts.lastpipe && !r.interactive
	var in *openFile
	for i, st := range stages {
		var out *openFile
		var next *openFile
		if i < n-1 {
			pr, pw := newPipe(ctx)
			out = newOpenFile(nil, pw, pw, "pipe")
			next = newOpenFile(pr, nil, pr, "pipe")
		}
		if i == n-1 && lastInShell {
			restore := func() {}
			if in != nil {
				old := r.fds.fds[0]
				r.fds.fds[0] = in
				restore = func() {
					r.fds.fds[0].release()
					r.fds.fds[0] = old
				}
			}
			r.noErrExit++
			r.stmt(ctx, st)
			r.noErrExit--
			restore()
			statuses[i] = r.lastStatus
			break
		}
		if _, simple := st.Cmd.(*syntax.CallExpr); simple {
			// bash runs the DEBUG trap in the shell itself before it
			// starts each simple command of a pipeline.
			r.line = st.Pos().Line()
			r.setCurCmd(st.Cmd)
			if !r.debugTrap(ctx) {
				if next != nil {
					next.release()
				}
				if in != nil {
					in.release()
				}
				break
			}
		}
		c := r.subshell()
		c.loopDepth = 0
		if in != nil {
			c.fds.set(0, in)
		}
		if out != nil {
			if stderrToo[i] {
				c.fds.set(2, out.retain())
			}
			c.fds.set(1, out)
		}
		done[i] = make(chan struct{})
		idx := i
		ch := done[i]
		if !r.goSafe(func() {
			defer close(ch)
			defer c.fds.closeAll()
			if sub, ok := st.Cmd.(*syntax.Subshell); ok && len(st.Redirs) == 0 && !st.Negated {
				// A stage's process is the ( ) itself, as in bash: one
				// level of $BASH_SUBSHELL, no ERR trap for the ( ) in it.
				c.stmts(ctx, sub.Stmts)
			} else {
				c.stmt(ctx, st)
			}
			c.runExitTrap(ctx)
			statuses[idx] = c.exitStatus()
		}) {
			close(ch)
			c.fds.closeAll()
			statuses[idx] = 1
			if next != nil {
				next.release()
			}
			// The job limit ended the run: start no more stages.
			break
		}
		in = next
	}
	for _, ch := range done {
		if ch != nil {
			<-ch
		}
	}
	if _, sub := stages[n-1].Cmd.(*syntax.Subshell); sub && statuses[n-1] != 0 && r.noErrExit == 0 &&
		!(r.negErrExit && r.opts.errexit) && !r.exiting {
		// bash waits for a ( ) at the end of a pipeline as for a subshell
		// command of its own, and runs the ERR trap (and set -e) when it
		// fails, before the pipeline's own: the trap runs twice. Under
		// `! pipeline` only set -e turns this off.
		r.lastStatus = statuses[n-1]
		r.onFailure(ctx)
	}
	r.pipeStatus = statuses
	r.lastStatus = statuses[n-1]
	if r.opts.pipefail {
		for i := n - 1; i >= 0; i-- {
			if statuses[i] != 0 {
				r.lastStatus = statuses[i]
				break
			}
		}
	}
	if r.s.fatalErr() != nil {
		r.exiting, r.exitCode = true, 1
	}
}
