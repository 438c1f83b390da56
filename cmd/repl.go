package cmd

// The interactive shell (REPL): what `sandsh` runs when standard input is
// a terminal. The terminal, the history file and Ctrl-C stay here, in the
// parent process; the lines run in a supervised, confined worker
// (repl_worker.go), or in this process with --no-worker (debugging).
//
// Design: golang.org/x/term's Terminal edits the line in raw mode; while a
// command runs the terminal is back in cooked mode, so Ctrl-C raises
// SIGINT, which cancels that command's context and nothing else. Where
// x/term falls short the REPL works around it here:
//
//   - Ctrl-C and Ctrl-D at the prompt both come back from ReadLine as
//     io.EOF, and the Terminal is left with stale state (the discarded
//     line, the already-handled key still queued). keyReader hands x/term
//     each Ctrl-C/Ctrl-D as the last byte of a read and remembers it, so
//     the REPL can tell the keys apart, and the REPL then starts a fresh
//     Terminal (same history, nothing lost from what was typed after).
//   - x/term records every physical line in its history; replHistory
//     ignores that and records whole commands (a multi-line `for` loop is
//     one entry), optionally appended to --history-file.
//   - A trailing `\` is a complete line to the parser at EOF, so the REPL
//     asks for a continuation line itself.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/term"
	"mvdan.cc/sh/v3/syntax"

	"github.com/sandsh/sandsh/internal/termsafe"
	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/vfs"
	"github.com/sandsh/sandsh/worker"
)

// repl is one interactive session.
type repl struct {
	o          *Options
	r          *interp.Runner   // the in-process shell (--no-worker), or nil
	remote     *worker.Session  // the worker running the lines, or nil
	in         *os.File         // the terminal (standard input)
	stdin      *worker.TTYInput // the commands' standard input; nil in unrestricted mode
	fd         int              // in's descriptor, for raw mode and the window size
	tw         io.Writer        // where the line editor writes: the terminal
	errw       io.Writer        // the shell's standard error
	keys       *keyReader
	t          *term.Terminal
	editor     atomic.Pointer[term.Terminal] // t, for the SIGWINCH handler
	width      atomic.Int32                  // terminal columns
	hist       *replHistory
	search     historySearch // where Ctrl-R left off
	useColor   bool
	restricted bool
	home       string // shown as ~ in the prompt and completed from ~/
	prompt     string // the prompt being shown
	status     int    // $? as the session sees it (exit status on Ctrl-D)

	mu      sync.Mutex
	raw     *term.State        // the terminal's cooked state while in raw mode
	cancel  context.CancelFunc // cancels the running line; nil at the prompt
	intr    bool               // the running line was interrupted (Ctrl-C)
	killSig int                // SIGTERM/SIGHUP arrived while a line ran
	hold    *worker.TermHold   // the terminal while the policy asks
}

// lineEvent is how a ReadLine ended.
type lineEvent int

const (
	evLine      lineEvent = iota // a line was entered
	evInterrupt                  // Ctrl-C at the prompt
	evEOF                        // Ctrl-D on an empty line
	evClosed                     // the terminal is gone (or a read error)
)

// runREPL runs the interactive shell on a terminal: line editing and
// history, multi-line input with PS2, tab completion of commands and
// sandbox paths, Ctrl-C to interrupt, Ctrl-D to leave.
func runREPL(o *Options) int {
	stdio := o.IO
	in, ok := stdio.In.(*os.File)
	if !ok || !term.IsTerminal(int(in.Fd())) {
		fmt.Fprintln(stdio.Err, "sandsh: interactive mode needs a terminal")
		return ExitUsage
	}
	restricted := !(o.FS == "disk" && o.Root == "" && !o.Restricted)
	rp := &repl{
		o:          o,
		in:         in,
		fd:         int(in.Fd()),
		errw:       stdio.Err,
		keys:       &keyReader{r: in},
		hist:       &replHistory{},
		restricted: restricted,
	}
	var desc string
	// The supervisor asks the policy's questions on the terminal, never
	// the worker, and holds the sandbox's output back meanwhile.
	hold := worker.HoldTerminal(in, stdio.Out, stdio.Err)
	defer hold.Close()
	rp.hold = hold
	// sandsh's own lines come after what the line wrote.
	rp.errw = hold.SyncWriter(stdio.Err)
	if o.Ask == nil {
		o.Ask = hold.Asker()
	}
	if o.NoWorker {
		// Commands read the terminal through ttyInput, so Ctrl-C can end
		// a read. Host programs (unrestricted mode) need the terminal
		// itself: os/exec passes only an *os.File through unchanged.
		var tty *worker.TTYInput
		var stdin io.Reader = in
		if restricted {
			tty = worker.NewTTYInput(in)
			defer tty.Close()
			stdin = tty
		}
		out, errw := io.Writer(stdio.Out), io.Writer(stdio.Err)
		if restricted {
			out, errw = hold.Writers()
		}
		sess, err := worker.NewSandbox(o, out, errw, stdin, "sandsh", nil, interp.Interactive(true))
		if err != nil {
			return worker.ReportSetupError(stdio.Err, err)
		}
		rp.r, rp.stdin, desc = sess.Runner(), tty, sess.Description()
	} else {
		out, errw := io.Writer(stdio.Out), io.Writer(stdio.Err)
		if restricted {
			// Host programs of the unrestricted mode need the terminal
			// itself (and can write to it anyway).
			var err error
			if out, errw, err = hold.WorkerFiles(); err != nil {
				return worker.ReportSetupError(stdio.Err, err)
			}
		}
		remote, err := worker.StartSession(o, worker.SessionConfig{Stdin: in, Stdout: out, Stderr: errw, Interactive: true})
		if err != nil {
			var ee *worker.ExitError
			if errors.As(err, &ee) {
				return ee.Status // the worker said why
			}
			return worker.ReportSetupError(stdio.Err, err)
		}
		rp.remote, desc = remote, remote.Desc()
	}
	// Like bash, the prompt and the line being edited go to standard
	// error, so `sandsh > file` keeps them on the terminal.
	rp.tw = stdio.Err
	if !isTerminalWriter(stdio.Err) && isTerminalWriter(stdio.Out) {
		rp.tw = stdio.Out
	}
	rp.useColor = isTerminalWriter(rp.tw) && stdio.Getenv != nil &&
		stdio.Getenv("NO_COLOR") == "" && stdio.Getenv("TERM") != "dumb"
	rp.home = replHome(o, rp.dir(), stdio.Getenv)
	rp.width.Store(80)
	rp.newTerminal()
	if o.History != "" {
		if err := rp.hist.open(o.History); err != nil {
			fmt.Fprintf(rp.errw, "sandsh: history file: %v\n", err)
		}
		defer rp.hist.close()
	}
	stop := rp.handleSignals()
	defer stop()
	fmt.Fprintf(rp.tw, "sandsh %s: interactive shell (%s). Ctrl-D exits.\n", Version, desc)
	return rp.loop()
}

// isTerminalWriter reports whether w is a terminal.
func isTerminalWriter(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// replHome is the home directory as the sandbox sees it (the same choice
// worker.NewSandbox makes), or "" when unknown.
func replHome(o *Options, cwd string, getenv func(string) string) string {
	switch {
	case o.FS != "disk":
		return vfs.HomeDir
	case o.Root != "":
		return cwd
	case getenv != nil:
		return getenv("HOME")
	}
	return ""
}

// newTerminal starts a fresh line editor on the terminal, keeping the
// history.
func (rp *repl) newTerminal() {
	t := term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{rp.keys, rp.tw}, "")
	t.History = rp.hist
	t.AutoCompleteCallback = rp.complete
	rp.t = t
	rp.editor.Store(t)
	rp.resize()
}

// resize tells the line editor the terminal's size.
func (rp *repl) resize() {
	w, h, err := term.GetSize(rp.fd)
	if err != nil || w <= 0 || h <= 0 {
		return
	}
	rp.width.Store(int32(w))
	if t := rp.editor.Load(); t != nil {
		t.SetSize(w, h)
	}
}

// loop reads, parses and runs lines until the shell exits; it returns
// the session's exit status.
func (rp *repl) loop() int {
	var buf strings.Builder
	for {
		line, ev := rp.readLine(rp.promptText(buf.Len() > 0))
		atEOF := false
		switch ev {
		case evInterrupt:
			buf.Reset()
			rp.setStatus(worker.StatusInterrupted)
			continue
		case evEOF:
			if buf.Len() == 0 {
				fmt.Fprintln(rp.tw, "exit")
				return rp.finish(false)
			}
			// Ctrl-D in the middle of a command ends it: like bash, an
			// unfinished one is an error, and the session goes on.
			atEOF = true
		case evClosed:
			return rp.finish(false)
		}
		if !atEOF {
			buf.WriteString(line)
			buf.WriteByte('\n')
			if continuesLine(line) {
				continue
			}
		}
		src := buf.String()
		f, perr := worker.ParseLine(src)
		if perr != nil && syntax.IsIncomplete(perr) && !atEOF {
			continue
		}
		buf.Reset()
		if perr == nil && len(f.Stmts) == 0 {
			continue // an empty line or a comment: $? stays
		}
		rp.hist.push(historyEntry(src, f))
		if perr != nil {
			rp.syntaxError(perr, atEOF)
			continue
		}
		if rp.historyBuiltin(f) {
			continue
		}
		if done, status := rp.runLine(src, f.Stmts); done {
			return status
		}
	}
}

// readLine shows the prompt and reads one line in raw mode.
func (rp *repl) readLine(prompt string) (string, lineEvent) {
	rp.hold.Sync() // the prompt comes after the last line's output
	rp.prompt = prompt
	rp.t.SetPrompt(prompt)
	rp.resize()
	rp.mu.Lock()
	state, err := term.MakeRaw(rp.fd)
	if err != nil {
		rp.mu.Unlock()
		fmt.Fprintf(rp.errw, "sandsh: terminal: %v\n", err)
		return "", evClosed
	}
	rp.raw = state
	rp.mu.Unlock()
	defer func() {
		rp.mu.Lock()
		term.Restore(rp.fd, state)
		rp.raw = nil
		rp.mu.Unlock()
	}()
	rp.keys.reset()
	line, err := rp.t.ReadLine()
	if err == nil || errors.Is(err, term.ErrPasteIndicator) {
		return line, evLine
	}
	if err != io.EOF || rp.keys.err != nil {
		return "", evClosed
	}
	// io.EOF without a read error: Ctrl-C, or Ctrl-D on an empty line.
	// Either leaves the Terminal with stale state: start a new one.
	key := rp.keys.last
	rp.newTerminal()
	switch key {
	case keyCtrlC:
		io.WriteString(rp.tw, "^C\r\n")
		return "", evInterrupt
	case keyCtrlD:
		io.WriteString(rp.tw, "\r\n")
		return "", evEOF
	}
	return "", evClosed
}

// continuesLine reports whether line ends in an unquoted backslash, which
// asks for a continuation line (the parser takes a backslash before the
// end of input as complete).
func continuesLine(line string) bool {
	n := len(line) - len(strings.TrimRight(line, `\`))
	return n%2 == 1 && !strings.HasPrefix(strings.TrimSpace(line), "#")
}

// syntaxError reports a parse error; like bash, $? becomes 2 and the
// session goes on. eof is set when Ctrl-D ended an unfinished command.
func (rp *repl) syntaxError(err error, eof bool) {
	rp.setStatus(ExitSyntax)
	if eof && syntax.IsIncomplete(err) {
		fmt.Fprintf(rp.errw, "sandsh: %v\nsandsh: syntax error: unexpected end of file\n", err)
		return
	}
	fmt.Fprintf(rp.errw, "sandsh: %v\n", err)
}

// runLine runs one parsed line. done reports that the session is over,
// with its exit status. (A limit, --timeout included, ends only the line:
// the runner reports it and gives each line a fresh budget.)
func (rp *repl) runLine(src string, stmts []*syntax.Stmt) (done bool, status int) {
	// The shell's history builtin lists the REPL's history (in a
	// pipeline, in $( )), this line last.
	if rp.remote != nil {
		rp.remote.SetHistory(slices.Clone(rp.hist.list()), rp.hist.base)
		return rp.runRemote(src)
	}
	if f, err := rp.r.ParseLine(src); err == nil {
		stmts = f.Stmts // with the session's aliases and extglob
	}
	rp.r.SetHistory(slices.Clone(rp.hist.list()), rp.hist.base)
	status, interrupted, killSig, panicked := rp.interruptible(func(ctx context.Context) int {
		return rp.r.RunLine(ctx, stmts)
	})
	switch {
	case panicked:
		return true, ExitInternal
	case killSig != 0:
		rp.finish(true)
		return true, 128 + killSig
	case interrupted:
		// The terminal echoed ^C; end that line like bash does.
		fmt.Fprintln(rp.tw)
		rp.status = worker.StatusInterrupted
		rp.r.Reset()
		return false, 0
	case rp.r.Exited():
		return true, rp.finish(true)
	}
	rp.status = status
	rp.r.Reset()
	return false, 0
}

// finish runs the EXIT trap and returns the session's exit status:
// exit's status when the shell is exiting, else $?.
func (rp *repl) finish(exiting bool) int {
	if rp.remote != nil {
		status, _ := rp.remote.Finish(rp.status)
		return rp.endRemote(status)
	}
	status, _, _, panicked := rp.interruptible(func(ctx context.Context) int {
		return rp.r.Finish(ctx)
	})
	if panicked {
		return ExitInternal
	}
	if exiting || rp.r.Exited() { // `exit` in the EXIT trap counts too
		return status
	}
	return rp.status
}

// interruptible runs fn with a context that Ctrl-C (SIGINT) cancels, and
// turns a panic into an internal error.
func (rp *repl) interruptible(fn func(context.Context) int) (status int, interrupted bool, killSig int, panicked bool) {
	ctx, cancel := context.WithCancel(context.Background())
	rp.mu.Lock()
	rp.cancel, rp.intr = cancel, false
	rp.mu.Unlock()
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(rp.errw, "sandsh: %v (this is a bug in sandsh)\n", &interp.InternalError{Value: v})
			panicked = true
		}
		rp.mu.Lock()
		rp.cancel = nil
		interrupted, killSig = rp.intr, rp.killSig
		rp.mu.Unlock()
		cancel()
		if interrupted || killSig != 0 {
			rp.stdin.Rearm()
		}
	}()
	return fn(ctx), false, 0, false
}

// onInterrupt handles SIGINT: it cancels the running line, if any. At the
// prompt the terminal is in raw mode, so Ctrl-C arrives as a key instead.
func (rp *repl) onInterrupt() {
	rp.hold.Interrupt() // an open question: the answer is no
	if rp.remote != nil {
		rp.remote.Interrupt()
		return
	}
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if rp.cancel != nil {
		rp.intr = true
		rp.cancel()
		rp.stdin.Interrupt()
	}
}

// onTerminate handles SIGTERM and SIGHUP: a running line is cancelled and
// the session ends after its EXIT trap; at the prompt the terminal is
// restored and sandsh exits at once.
func (rp *repl) onTerminate(sig int) {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if rp.remote != nil && rp.remote.Terminate(syscall.Signal(sig)) {
		return // the worker ends the line, runs the EXIT trap and says so
	}
	if rp.remote == nil && rp.cancel != nil {
		rp.killSig = sig
		rp.cancel()
		rp.stdin.Interrupt()
		return
	}
	if rp.raw != nil {
		term.Restore(rp.fd, rp.raw)
	}
	if rp.remote != nil {
		// The session as of its last line (--state): its copy is in
		// this process, the worker is not needed.
		if err := rp.remote.SaveState(context.Background()); err != nil {
			fmt.Fprintf(rp.errw, "sandsh: --state %s: cannot save: %v\n", rp.o.State, err)
		}
	}
	os.Exit(128 + sig) // history entries are already written
}

// promptText is PS1 or PS2: the directory and whether the session is
// restricted, coloured only on a terminal and never with NO_COLOR.
func (rp *repl) promptText(continuation bool) string {
	if continuation {
		return "> "
	}
	return renderPrompt(rp.dir(), rp.home, rp.restricted, rp.useColor)
}

// dir is the shell's working directory.
func (rp *repl) dir() string {
	if rp.remote != nil {
		return rp.remote.Dir()
	}
	return rp.r.Dir()
}

// setStatus sets $? between lines (the worker gets it with the next
// request).
func (rp *repl) setStatus(n int) {
	rp.status = n
	if rp.r != nil {
		rp.r.SetStatus(n)
	}
}

// commandCompletions and pathCompletions ask the shell for completions.
func (rp *repl) commandCompletions(prefix string) []string {
	if rp.remote != nil {
		return rp.remote.Complete("commands", prefix, false)
	}
	return rp.r.CommandCompletions(prefix)
}

func (rp *repl) pathCompletions(word string, dirsOnly bool) []string {
	if rp.remote != nil {
		return rp.remote.Complete("paths", word, dirsOnly)
	}
	return rp.r.CompletePath(word, dirsOnly)
}

// endRemote saves the session as of its last finished line (--state)
// and ends the worker.
func (rp *repl) endRemote(status int) int {
	if err := rp.remote.SaveState(context.Background()); err != nil {
		fmt.Fprintf(rp.errw, "sandsh: --state %s: cannot save: %v\n", rp.o.State, err)
		status = ExitState
	}
	rp.remote.Close()
	return status
}

// runRemote runs a line in the worker; see runLine.
func (rp *repl) runRemote(src string) (done bool, status int) {
	if !rp.remote.Alive(rp.errw) {
		return true, ExitInternal
	}
	rep, ok := rp.remote.RunLine(rp.errw, src, rp.status)
	switch {
	case !ok && rep.Status < 0:
		return true, ExitInternal // no worker could be started again
	case !ok:
		rp.status = rep.Status
		return false, 0
	case rep.KillSig != 0:
		return true, rp.endRemote(128 + rep.KillSig)
	case rep.Exited:
		return true, rp.endRemote(rep.Status)
	case rep.Interrupted:
		// The terminal echoed ^C; end that line like bash does.
		rp.hold.Sync()
		fmt.Fprintln(rp.tw)
	}
	rp.status = rep.Status
	return false, 0
}

func renderPrompt(dir, home string, restricted, useColor bool) string {
	if home != "" && home != "/" && (dir == home || strings.HasPrefix(dir, home+"/")) {
		dir = "~" + dir[len(home):]
	}
	// The directory's name comes from the sandbox: escape sequences in
	// it must not rewrite the prompt (issue 23.10).
	dir = termsafe.String(dir)
	tag := "[restricted]"
	if !restricted {
		tag = "[unrestricted]"
	}
	if !useColor {
		return tag + " " + dir + " $ "
	}
	return tagColor(restricted).Sprint(tag) + " " + dirColor.Sprint(dir) + " $ "
}

// historyBuiltin runs `history`, `history N` and `history -c` typed as a
// whole line: the runner's own history builtin has no access to the
// REPL's history. (In a pipeline or with redirections the runner's
// builtin runs.)
func (rp *repl) historyBuiltin(f *syntax.File) bool {
	if len(f.Stmts) != 1 {
		return false
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 || len(call.Assigns) > 0 || len(call.Args) > 2 {
		return false
	}
	var args []string
	for _, w := range call.Args {
		lit := w.Lit()
		if lit == "" {
			return false
		}
		args = append(args, lit)
	}
	if args[0] != "history" {
		return false
	}
	entries := rp.hist.list()
	first := 0
	if len(args) == 2 {
		if args[1] == "-c" {
			rp.hist.clear()
			rp.status = 0
			return true
		}
		n, err := strconv.Atoi(args[1])
		if err != nil || n < 0 {
			fmt.Fprintf(rp.errw, "sandsh: history: %s: numeric argument required\n", args[1])
			rp.status = 1
			return true
		}
		first = max(0, len(entries)-n)
	}
	var sb strings.Builder
	for i := first; i < len(entries); i++ {
		fmt.Fprintf(&sb, "%5d  %s\n", rp.hist.base+i+1, entries[i])
	}
	io.WriteString(rp.o.IO.Out, sb.String())
	rp.status = 0
	return true
}
