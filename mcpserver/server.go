package mcpserver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sandsh/sandsh/hostfile"
	"github.com/sandsh/sandsh/rpcframe"
	"github.com/sandsh/sandsh/sandbox"
	"github.com/sandsh/sandsh/vfs"
	"github.com/sandsh/sandsh/worker"
)

// Options configure a Server besides the run options (the flags of
// `sandsh mcp` besides the run flags).
type Options struct {
	MaxSessions int
	IdleTimeout time.Duration
	MaxResult   string // most bytes of each of stdout and stderr one run's result carries
	maxResult   int
	MaxMessage  string // largest JSON-RPC message read
	maxMessage  int
	// Version is the server's version told to clients.
	Version string
	// StartWorker starts the worker of a new session (named, or one
	// call's own) with the server's options; nil is worker.StartSession.
	// A warm pool hands out an already started worker here.
	StartWorker func(o *worker.Options, cfg worker.SessionConfig) (*worker.Session, error)
	// StateDir, when set, keeps named sessions across servers: a
	// session named NAME starts from STATEDIR/NAME.st when that file
	// exists, and is saved there when it expires or the server closes;
	// close_session and reset_session remove the file.
	StateDir string
	// Pool, when StartWorker is nil, is how many workers the server
	// keeps started and confined for new sessions (worker.Pool); 0
	// starts each session's worker when the session starts.
	Pool int
}

// ServeStdio serves one MCP client on in and out (newline-delimited
// JSON-RPC) until in ends. One bad line costs one error reply, not the
// server (rpcframe).
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	g := rpcframe.New(in, out, s.mo.maxMessage)
	t := &mcp.IOTransport{Reader: io.NopCloser(g), Writer: nopWriteCloser{g.Writer()}, MaxLineLength: s.mo.maxMessage + 2}
	if err := s.server.Run(ctx, t); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, mcp.ErrConnectionClosed) {
		return err
	}
	return nil
}

// MCP is the SDK's server, for a transport of the caller's.
func (s *Server) MCP() *mcp.Server { return s.server }

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// Server holds the server's sessions.
type Server struct {
	server *mcp.Server
	base   worker.Options
	mo     Options

	mu       sync.Mutex
	sessions map[string]*namedSession
	expired  map[string]time.Time // recently expired names, to say so once
	stop     chan struct{}

	// calls ends when the shutdown's grace period is over (the calls
	// still running are cancelled); streams when the shutdown begins
	// (HTTP clients' listening streams end). httpCalls maps a
	// callHeader id to its HTTP request's context (http.go).
	calls, streams          context.Context
	cancelCalls, endStreams func()
	httpCalls               sync.Map
	oneOff                  chan struct{} // a place per running call without a session

	// Host paths that never reach a client (hide).
	hostBase, sandboxBase, hostRoot, hostCwd string

	pool *worker.Pool // --pool's warm workers, or nil
}

// namedSession is a named session: its live worker, started by its first
// call.
type namedSession struct {
	mu       sync.Mutex // one call at a time, and the session's life
	live     *worker.Session
	asker    *worker.AskSwitch
	lastUsed time.Time
	gone     bool
}

// newCallAsker answers a session worker's policy asks with the asker of
// the call running in the session (its client, through elicitation),
// ask to begin with: the worker lives across calls, the client's
// request does not.
func newCallAsker(ask sandbox.Asker) *worker.AskSwitch {
	a := &worker.AskSwitch{Nobody: sandbox.AskAnswer{By: "mcp", Why: "no call of the MCP client is running to ask"}}
	a.Set(ask)
	return a
}

// validSessionName reports whether name is 1 to 64 letters, digits, '.',
// '_' or '-'. (A loop, not a regexp: a package-level regexp is compiled
// at the start of every sandsh process, the worker's too.)
func validSessionName(name string) bool {
	if len(name) < 1 || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func New(o *worker.Options, mo *Options) (*Server, error) {
	if mo.MaxSessions < 1 || mo.MaxSessions > 10000 {
		return nil, worker.Usagef("--max-sessions: want 1 to 10000")
	}
	if mo.IdleTimeout <= 0 {
		return nil, worker.Usagef("--session-idle must be positive")
	}
	if mo.MaxMessage == "" {
		mo.MaxMessage = "16MiB"
	}
	if n, err := worker.ParseBytes(mo.MaxMessage); err != nil || n < 1024 || n > 1<<30 {
		return nil, worker.Usagef("--max-message %s: want a size from 1KiB to 1GiB", mo.MaxMessage)
	} else {
		mo.maxMessage = int(n)
	}
	if mo.MaxResult == "" {
		mo.MaxResult = "1MiB"
	}
	if n, err := worker.ParseBytes(mo.MaxResult); err != nil || n > 256<<20 {
		return nil, worker.Usagef("--max-result-output %s: want a size up to 256MiB", mo.MaxResult)
	} else {
		mo.maxResult = int(n)
	}
	// Refuse bad run flags now rather than on every call: build one
	// sandbox and throw it away.
	cfg, err := o.SandboxConfig()
	if err != nil {
		return nil, err
	}
	sb, err := sandbox.New(cfg)
	if err != nil {
		var ce *sandbox.ConfigError
		if errors.As(err, &ce) {
			return nil, worker.Usagef("%s", ce.Msg)
		}
		return nil, err
	}
	sb.Close()
	if o.SessionFlags() || o.Command != nil {
		return nil, worker.Usagef("sandsh mcp takes the run flags (filesystem, limits, environment), not --state, --var, --json, --import, --export or --changes")
	}
	if mo.StateDir != "" {
		f, err := hostfile.Open(mo.StateDir)
		if err == nil {
			f.Close()
		}
		if !hostfile.IsDir(err) {
			if err == nil {
				return nil, worker.Usagef("--state-dir %s: not a directory", mo.StateDir)
			}
			return nil, worker.Usagef("--state-dir %s: %s", mo.StateDir, hostfile.Describe(err))
		}
		if mo.StateDir, err = filepath.Abs(mo.StateDir); err != nil {
			return nil, worker.Usagef("--state-dir: %v", err)
		}
	}
	s := &Server{base: *o, mo: *mo, sessions: map[string]*namedSession{},
		expired: map[string]time.Time{}, stop: make(chan struct{})}
	s.oneOff = make(chan struct{}, mo.MaxSessions)
	s.calls, s.cancelCalls = context.WithCancel(context.Background())
	s.streams, s.endStreams = context.WithCancel(context.Background())
	if o.FS == "overlay" {
		s.hostBase, _ = filepath.Abs(o.Base)
		s.sandboxBase = vfs.Clean("/", cmp.Or(o.Cwd, vfs.WorkDir))
	}
	if o.FS == "disk" && o.Root != "" {
		s.hostRoot, _ = filepath.Abs(o.Root)
	}
	if wd, err := o.IO.Getwd(); err == nil && (o.FS != "disk" || o.Root != "") && len(wd) > 1 {
		// (On the plain host disk the sandbox shows host paths anyway.)
		s.hostCwd = wd
	}
	s.server = mcp.NewServer(&mcp.Implementation{Name: "sandsh", Version: mo.Version}, &mcp.ServerOptions{
		Instructions: "sandsh is a bash 5.2 sandbox: scripts run with real bash semantics on an in-memory " +
			"filesystem with in-process coreutils (" + reachSummary(o) + "), under time and resource limits. " +
			"Use a session name to keep files, variables, functions and the working directory between calls.",
	})
	if mo.Pool != 0 && mo.StartWorker == nil {
		po := s.sessionOptions(nil)
		if s.pool, err = worker.NewPool(&po, mo.Pool); err != nil {
			return nil, err
		}
		s.mo.StartWorker = s.pool.Start
	}
	s.addTools()
	go s.reap()
	return s, nil
}

// Close ends every session's worker.
func (s *Server) Close() {
	s.mu.Lock()
	select {
	case <-s.stop:
		s.mu.Unlock()
		return // closed already
	default:
	}
	close(s.stop)
	s.mu.Unlock()
	s.mu.Lock()
	all := s.sessions
	s.sessions = map[string]*namedSession{}
	s.mu.Unlock()
	for name, ss := range all {
		ss.mu.Lock()
		s.save(name, ss)
		ss.end()
		ss.mu.Unlock()
	}
	if s.pool != nil {
		s.pool.Close()
	}
}

// reap ends sessions idle for longer than the timeout.
func (s *Server) reap() {
	t := time.NewTicker(min(s.mo.IdleTimeout/4+time.Millisecond, time.Minute))
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.expire(time.Now())
		}
	}
}

// expire ends the sessions unused for --session-idle: their workers
// stop and their places are free.
func (s *Server) expire(now time.Time) {
	idle := map[string]*namedSession{}
	s.mu.Lock()
	for name, ss := range s.sessions {
		if ss.mu.TryLock() {
			if now.Sub(ss.lastUsed) > s.mo.IdleTimeout {
				delete(s.sessions, name)
				if s.mo.StateDir == "" {
					s.expired[name] = now // (with --state-dir it is saved, not gone)
				}
				idle[name] = ss // still locked
			} else {
				ss.mu.Unlock()
			}
		}
	}
	for name, when := range s.expired {
		if now.Sub(when) > 24*time.Hour || len(s.expired) > 10000 {
			delete(s.expired, name)
		}
	}
	s.mu.Unlock()
	for name, ss := range idle {
		s.save(name, ss)
		ss.end()
		ss.mu.Unlock()
	}
}

// statePath is where --state-dir keeps the named session's state (a
// valid name has no '/').
func (s *Server) statePath(name string) string {
	if s.mo.StateDir == "" {
		return ""
	}
	return filepath.Join(s.mo.StateDir, name+".st")
}

// save writes a named session, as of its last finished call, to its
// state file under --state-dir; ss.mu is held.
func (s *Server) save(name string, ss *namedSession) {
	if s.mo.StateDir == "" || ss.live == nil || ss.gone {
		return
	}
	if err := ss.live.SaveState(context.Background()); err != nil {
		s.warn("session %q: saving its state: %v", name, err)
	}
}

// forget removes a named session's state file (close_session,
// reset_session).
func (s *Server) forget(name string) (bool, error) {
	if s.mo.StateDir == "" {
		return false, nil
	}
	removed, err := hostfile.Remove(s.statePath(name))
	if err != nil {
		return false, fmt.Errorf("session %q: removing its saved state: %s", name, s.hide(hostfile.Describe(err)))
	}
	return removed, nil
}

// warn tells the operator (the server's stderr) what no client asked
// about.
func (s *Server) warn(format string, a ...any) {
	if s.base.IO.Err != nil {
		fmt.Fprintf(s.base.IO.Err, "sandsh: mcp: "+format+"\n", a...)
	}
}

// end stops the session's worker; ss.mu is held.
func (ss *namedSession) end() {
	ss.gone = true
	if ss.live != nil {
		ss.live.Close()
		ss.live = nil
	}
}

// sessionOptions are the options of a session's worker; its policy
// asks go to ask (unless --ask-command answers them).
func (s *Server) sessionOptions(ask *worker.AskSwitch) worker.Options {
	o := s.base
	o.ResetNet() // each session has its own network gate, so its own request count
	if o.AskCommand == "" && ask != nil {
		o.AskFunc = ask.Ask
	}
	o.IO = worker.IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard, Getenv: s.base.IO.Getenv, Getwd: s.base.IO.Getwd}
	return o
}

// startLive starts a live session's worker under the server's flags;
// its policy asks go to ask (unless --ask-command answers them).
func (s *Server) startLive(ask *worker.AskSwitch) (*worker.Session, error) {
	o := s.sessionOptions(ask)
	start := s.mo.StartWorker
	if start == nil {
		start = worker.StartSession
	}
	live, err := start(&o, worker.SessionConfig{})
	if err != nil {
		return nil, fmt.Errorf("cannot start the session's worker: %v", err)
	}
	return live, nil
}

// startNamed starts a named session's worker: with --state-dir from
// its state file when there is one (so not a pooled worker, which
// started empty).
func (s *Server) startNamed(name string, ask *worker.AskSwitch) (*worker.Session, error) {
	if s.mo.StateDir == "" {
		return s.startLive(ask)
	}
	o := s.sessionOptions(ask)
	o.State = s.statePath(name)
	live, err := worker.StartSession(&o, worker.SessionConfig{})
	if err != nil {
		return nil, fmt.Errorf("cannot start the session's worker: %s", s.hide(err.Error()))
	}
	return live, nil
}

// session finds or starts a named session and locks it; release unlocks
// it. Without a name the session is a fresh one for this call only,
// which release ends. Named sessions are the server's, shared by all
// its clients (who hold the one token): over HTTP a client may pick up
// a session another connection started.
//
// ask, when set, answers the policy's asks during this call.
func (s *Server) session(ctx context.Context, name string, ask sandbox.Asker) (live *worker.Session, release func(), err error) {
	if name == "" {
		// Calls without a session wait for a place under
		// --max-sessions: many clients at once start no more workers
		// than the sessions may hold.
		select {
		case s.oneOff <- struct{}{}:
		case <-ctx.Done():
			return nil, nil, errCancelled
		}
		live, err := s.startLive(newCallAsker(ask))
		if err != nil {
			<-s.oneOff
			return nil, nil, err
		}
		// The worker ends after the result has gone out (its place is
		// held until then): a call does not wait for its worker's exit.
		return live, func() {
			go func() {
				live.Close()
				<-s.oneOff
			}()
		}, nil
	}
	if !validSessionName(name) {
		return nil, nil, fmt.Errorf("session name %q: use 1 to 64 letters, digits, '.', '_' or '-'", name)
	}
	s.mu.Lock()
	ss := s.sessions[name]
	if ss == nil {
		if _, ok := s.expired[name]; ok {
			delete(s.expired, name)
			s.mu.Unlock()
			return nil, nil, fmt.Errorf("session %q expired after %v without use and its files and state are gone; "+
				"call again with the same name to start it afresh", name, s.mo.IdleTimeout)
		}
		if len(s.sessions) >= s.mo.MaxSessions {
			s.mu.Unlock()
			return nil, nil, fmt.Errorf("too many sessions (%d, the server's limit); close one (close_session), reuse one, or wait until one expires", s.mo.MaxSessions)
		}
		ss = &namedSession{}
		s.sessions[name] = ss
	}
	s.mu.Unlock()
	ss.mu.Lock()
	if ss.gone {
		ss.mu.Unlock()
		return s.session(ctx, name, ask)
	}
	if ss.live == nil {
		ss.asker = newCallAsker(nil)
		if ss.live, err = s.startNamed(name, ss.asker); err != nil {
			ss.gone = true
			s.mu.Lock()
			if s.sessions[name] == ss {
				delete(s.sessions, name)
			}
			s.mu.Unlock()
			ss.mu.Unlock()
			return nil, nil, err
		}
	}
	ss.lastUsed = time.Now()
	ss.asker.Set(ask)
	return ss.live, func() {
		ss.asker.Set(nil)
		ss.lastUsed = time.Now()
		ss.mu.Unlock()
	}, nil
}

// endSession closes (ends) or resets (empties) a named session, after
// the call running in it, if any, ends. A closed session's worker stops
// and its place under --max-sessions is free at once.
func (s *Server) endSession(name string, end bool) (existed bool, err error) {
	if !validSessionName(name) {
		return false, fmt.Errorf("session name %q: use 1 to 64 letters, digits, '.', '_' or '-'", name)
	}
	s.mu.Lock()
	ss := s.sessions[name]
	if end {
		delete(s.expired, name) // closed on purpose: no "expired" notice
		if ss != nil {
			delete(s.sessions, name)
		}
	}
	s.mu.Unlock()
	if ss == nil {
		return s.forget(name) // (saved by an earlier server, with --state-dir)
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.gone {
		return false, nil
	}
	if _, err := s.forget(name); err != nil {
		return true, err
	}
	if end {
		ss.end()
		return true, nil
	}
	if ss.live != nil {
		if err := ss.live.Reset(); err != nil {
			ss.end()
			s.mu.Lock()
			if s.sessions[name] == ss {
				delete(s.sessions, name)
			}
			s.mu.Unlock()
			return true, fmt.Errorf("session %q: reset: %v; the session is closed", name, err)
		}
	}
	return true, nil
}

// hide takes the server's host paths out of a message for the client:
// the overlay base and disk root (which the sandbox
// shows at its working directory and at /), and the host's working
// directory.
func (s *Server) hide(msg string) string {
	if s.hostBase != "" {
		msg = strings.ReplaceAll(msg, s.hostBase, s.sandboxBase)
	}
	if s.hostRoot != "" {
		msg = strings.ReplaceAll(msg, s.hostRoot+"/", "/")
		msg = strings.ReplaceAll(msg, s.hostRoot, "/")
	}
	if s.hostCwd != "" {
		msg = strings.ReplaceAll(msg, s.hostCwd, "(host directory)")
	}
	return msg
}

// hidden is a tool handler whose errors pass through hide.
func hidden[In any](s *Server, h mcp.ToolHandlerFor[In, any]) mcp.ToolHandlerFor[In, any] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		res, out, err := h(ctx, req, in)
		if err != nil {
			return nil, nil, errors.New(s.hide(err.Error()))
		}
		return res, out, nil
	}
}
