package cmd

// `sandsh mcp`: a Model Context Protocol server on stdio, built on the
// official Go SDK. Every run is a `sandsh --json` run with the flags the
// server was started with: in its own supervised, confined worker, as
// the CLI's runs are. A named session keeps its state (files and shell)
// in a state file in a private temporary directory between calls, exactly
// as --state does; the file tools load that state in the server process,
// where no script runs.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/sandsh/sandsh/hostfile"
	"github.com/sandsh/sandsh/sandbox"
	"github.com/sandsh/sandsh/statefile"
	"github.com/sandsh/sandsh/vfs"
	"github.com/sandsh/sandsh/worker"
)

// mcpOptions are the flags of `sandsh mcp` besides the run flags.
type mcpOptions struct {
	MaxSessions int
	IdleTimeout time.Duration
}

func newMCPCmd(opts *Options) *cobra.Command {
	mo := &mcpOptions{}
	c := &cobra.Command{
		Use:   "mcp [flags]",
		Short: "Serve the sandbox over the Model Context Protocol on stdio",
		Long: `sandsh mcp is an MCP server on standard input and output. Its tools run
scripts (optionally in named sessions that keep files and shell state),
and read, write and list files. Every run has the flags, policy and limits
the server was started with, e.g. sandsh mcp --timeout 10s --fs overlay --base .`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			markChanged(c, opts)
			return statusErr(runMCP(opts, mo))
		},
	}
	c.Flags().IntVar(&mo.MaxSessions, "max-sessions", 16, "limit on named sessions alive at once")
	c.Flags().DurationVar(&mo.IdleTimeout, "session-idle", 30*time.Minute, "end a session unused for this long")
	return c
}

func runMCP(o *Options, mo *mcpOptions) int {
	srv, err := newMCPServer(o, mo)
	if err != nil {
		return worker.ReportSetupError(o.IO.Err, err)
	}
	defer srv.close()
	t := &mcp.IOTransport{Reader: io.NopCloser(o.IO.In), Writer: nopWriteCloser{o.IO.Out}}
	if err := srv.server.Run(context.Background(), t); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, mcp.ErrConnectionClosed) {
		fmt.Fprintf(o.IO.Err, "sandsh: mcp: %v\n", err)
		return 1
	}
	return 0
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// mcpServer holds the server's sessions.
type mcpServer struct {
	server *mcp.Server
	base   Options
	mo     mcpOptions
	dir    string // private directory of the session state files

	mu       sync.Mutex
	sessions map[string]*mcpSession
	expired  map[string]time.Time // recently expired names, to say so once
	stop     chan struct{}
}

type mcpSession struct {
	mu       sync.Mutex // one call at a time per session
	state    string     // state file
	lastUsed time.Time
	gone     bool
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

func newMCPServer(o *Options, mo *mcpOptions) (*mcpServer, error) {
	if mo.MaxSessions < 1 || mo.MaxSessions > 10000 {
		return nil, worker.Usagef("--max-sessions: want 1 to 10000")
	}
	if mo.IdleTimeout <= 0 {
		return nil, worker.Usagef("--session-idle must be positive")
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
	dir, err := os.MkdirTemp("", "sandsh-mcp-*")
	if err != nil {
		return nil, err
	}
	s := &mcpServer{base: *o, mo: *mo, dir: dir, sessions: map[string]*mcpSession{},
		expired: map[string]time.Time{}, stop: make(chan struct{})}
	s.server = mcp.NewServer(&mcp.Implementation{Name: "sandsh", Version: Version}, &mcp.ServerOptions{
		Instructions: "sandsh is a bash 5.2 sandbox: scripts run with real bash semantics on an in-memory " +
			"filesystem with in-process coreutils (" + reachSummary(o) + "), under time and resource limits. " +
			"Use a session name to keep files, variables, functions and the working directory between calls.",
	})
	s.addTools()
	go s.reap()
	return s, nil
}

func (s *mcpServer) close() {
	close(s.stop)
	os.RemoveAll(s.dir)
}

// reap ends sessions idle for longer than the timeout.
func (s *mcpServer) reap() {
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

func (s *mcpServer) expire(now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, ss := range s.sessions {
		if ss.mu.TryLock() {
			if now.Sub(ss.lastUsed) > s.mo.IdleTimeout {
				ss.gone = true
				os.Remove(ss.state)
				delete(s.sessions, name)
				s.expired[name] = now
			}
			ss.mu.Unlock()
		}
	}
	for name, when := range s.expired {
		if now.Sub(when) > 24*time.Hour || len(s.expired) > 10000 {
			delete(s.expired, name)
		}
	}
}

// session finds or starts a named session and locks it; "" is a fresh
// sandbox for this call only (nil).
func (s *mcpServer) session(name string) (*mcpSession, error) {
	if name == "" {
		return nil, nil
	}
	if !validSessionName(name) {
		return nil, fmt.Errorf("session name %q: use 1 to 64 letters, digits, '.', '_' or '-'", name)
	}
	s.mu.Lock()
	ss := s.sessions[name]
	if ss == nil {
		if _, ok := s.expired[name]; ok {
			delete(s.expired, name)
			s.mu.Unlock()
			return nil, fmt.Errorf("session %q expired after %v without use and its files and state are gone; "+
				"call again with the same name to start it afresh", name, s.mo.IdleTimeout)
		}
		if len(s.sessions) >= s.mo.MaxSessions {
			s.mu.Unlock()
			return nil, fmt.Errorf("too many sessions (%d, the server's limit); reuse one of them or wait until one expires", s.mo.MaxSessions)
		}
		ss = &mcpSession{state: filepath.Join(s.dir, name+".state")}
		s.sessions[name] = ss
	}
	s.mu.Unlock()
	ss.mu.Lock()
	if ss.gone {
		ss.mu.Unlock()
		return s.session(name)
	}
	ss.lastUsed = time.Now()
	return ss, nil
}

func (ss *mcpSession) release() {
	if ss != nil {
		ss.lastUsed = time.Now()
		ss.mu.Unlock()
	}
}

type runArgs struct {
	Script  string   `json:"script" jsonschema:"the bash script to run (bash 5.2 syntax)"`
	Session string   `json:"session,omitempty" jsonschema:"name of a session to run in: its files, variables, functions, aliases, options and working directory persist to the next call with the same name; omit for a fresh sandbox"`
	Stdin   string   `json:"stdin,omitempty" jsonschema:"text given to the script on its standard input"`
	Args    []string `json:"args,omitempty" jsonschema:"positional parameters $1, $2, ..."`
}

type fileArgs struct {
	Path    string `json:"path" jsonschema:"a path in the sandbox; relative paths start at the session's working directory (/workspace in a new sandbox)"`
	Session string `json:"session,omitempty" jsonschema:"name of the session whose files to use; omit for a fresh sandbox"`
}

type writeArgs struct {
	Path    string `json:"path" jsonschema:"a path in the sandbox; relative paths start at the session's working directory (/workspace in a new sandbox)"`
	Content string `json:"content" jsonschema:"the new contents of the file (text)"`
	Session string `json:"session,omitempty" jsonschema:"name of the session to write into; omit for a fresh sandbox, which is then thrown away"`
	Mode    string `json:"mode,omitempty" jsonschema:"permission bits in octal for a new file, e.g. 755 for a script (default 644)"`
}

type readResult struct {
	Path     string `json:"path"`
	Size     int    `json:"size"`
	Content  string `json:"content"`
	Encoding string `json:"encoding" jsonschema:"text, or base64 when the file is not valid UTF-8"`
}

type writeResult struct {
	Path  string `json:"path"`
	Bytes int    `json:"bytes"`
}

type dirEntry struct {
	Name   string `json:"name"`
	Type   string `json:"type" jsonschema:"file, dir, symlink or other"`
	Size   int64  `json:"size"`
	Mode   string `json:"mode"`
	Target string `json:"target,omitempty"`
}

type listResult struct {
	Path    string     `json:"path"`
	Entries []dirEntry `json:"entries"`
}

// mcpReadMax bounds what read_file returns.
const mcpReadMax = 1 << 20

func (s *mcpServer) addTools() {
	mcp.AddTool(s.server, &mcp.Tool{
		Name: "run",
		Description: "Run a bash script in the sandbox and return its exit status, stdout, stderr, duration, the files it " +
			"changed, and which limit ended it (null if none). Real bash 5.2 semantics; commands such as ls, cat, grep, " +
			"sed, awk, sort, jq, find, tar, curl run in-process; " + reachSummary(&s.base) + ". Pass a session name to keep files and shell state between calls. Output past 1 MiB is cut " +
			"(stdout_truncated/stderr_truncated). Exit status 124 means the time limit ended the run, 125 another limit.",
	}, s.runTool)
	mcp.AddTool(s.server, &mcp.Tool{
		Name: "read_file",
		Description: "Read a file from the sandbox (at most 1 MiB; use the run tool with head, tail or sed for parts " +
			"of bigger files). Text comes back as is, other bytes base64-encoded.",
	}, s.readTool)
	mcp.AddTool(s.server, &mcp.Tool{
		Name:        "write_file",
		Description: "Create or replace a file in the sandbox with the given text. Parent directories must exist (create them with the run tool: mkdir -p).",
	}, s.writeTool)
	mcp.AddTool(s.server, &mcp.Tool{
		Name:        "list_dir",
		Description: "List a directory of the sandbox: the name, type, size, mode (and symlink target) of each entry, sorted by name.",
	}, s.listTool)
}

func (s *mcpServer) runTool(ctx context.Context, req *mcp.CallToolRequest, in runArgs) (*mcp.CallToolResult, worker.JSONResult, error) {
	if in.Script == "" {
		return nil, worker.JSONResult{}, errors.New("script is empty")
	}
	if len(in.Args) > 10000 {
		return nil, worker.JSONResult{}, errors.New("too many args")
	}
	ss, err := s.session(in.Session)
	if err != nil {
		return nil, worker.JSONResult{}, err
	}
	defer ss.release()
	o := s.base
	o.ResetNet() // each run has its own network gate, so its own request count
	script := in.Script
	o.Command = &script
	o.Args = append([]string{"sandsh"}, in.Args...)
	o.JSON = true
	if ss != nil {
		o.State = ss.state
	}
	if o.AskCommand == "" {
		o.AskFunc = elicitAsker(ctx, req)
	}
	var out, errb strings.Builder
	o.IO = IO{In: strings.NewReader(in.Stdin), Out: &out, Err: &errb, Getenv: s.base.IO.Getenv, Getwd: s.base.IO.Getwd}
	runMain(&o)
	var res worker.JSONResult
	if err := json.Unmarshal([]byte(out.String()), &res); err != nil {
		return nil, worker.JSONResult{}, fmt.Errorf("the run failed: %s", strings.TrimSpace(errb.String()))
	}
	return nil, res, nil
}

// elicitAsker answers the policy's asks by asking the MCP client
// (elicitation/create: one property, decision, allow, deny or
// allow-session) when it declared the elicitation capability; otherwise
// the refusal says the client cannot be asked (--yes is the operator's,
// not the agent's).
func elicitAsker(ctx context.Context, req *mcp.CallToolRequest) sandbox.Asker {
	var session *mcp.ServerSession
	if req != nil {
		session = req.Session
	}
	why := "the MCP client cannot be asked: it did not declare the elicitation capability"
	if p := sessionParams(session); p != nil && p.Capabilities != nil && p.Capabilities.Elicitation != nil {
		why = ""
		if p.ProtocolVersion >= mcpMultiRoundTrip {
			// From this version a server may not send elicitation/create
			// while it serves a call; the call would have to return
			// input requests and be retried, and a running script
			// cannot be paused across calls yet.
			why = "the MCP client cannot be asked: protocol " + p.ProtocolVersion + " takes input requests only as multi round-trip results, which sandsh does not send yet"
		}
	}
	if why != "" {
		return func(context.Context, sandbox.AskQuestion) sandbox.AskAnswer {
			return sandbox.AskAnswer{By: "mcp", Why: why}
		}
	}
	schema := map[string]any{"type": "object", "required": []string{"decision"}, "properties": map[string]any{
		"decision": map[string]any{"type": "string", "enum": []string{"allow", "deny", "allow-session"},
			"description": "allow runs the command; allow-session also every later one this rule asks about in this run"}}}
	return func(_ context.Context, q sandbox.AskQuestion) sandbox.AskAnswer {
		msg := fmt.Sprintf("sandsh: the policy's rule %q asks before running %q", q.Rule, q.Command)
		if q.Reason != "" {
			msg += " (" + q.Reason + ")"
		}
		res, err := session.Elicit(ctx, &mcp.ElicitParams{Message: msg, RequestedSchema: schema})
		if err != nil {
			return sandbox.AskAnswer{By: "mcp-elicitation", Why: "the MCP client's answer failed: " + err.Error()}
		}
		if res.Action != "accept" {
			return sandbox.AskAnswer{By: "mcp-elicitation", Answer: res.Action, Why: "the MCP client said " + res.Action}
		}
		d, _ := res.Content["decision"].(string)
		switch d {
		case "allow":
			return sandbox.AskAnswer{Allow: true, By: "mcp-elicitation", Answer: d}
		case "allow-session":
			return sandbox.AskAnswer{Allow: true, Session: true, By: "mcp-elicitation", Answer: d}
		}
		return sandbox.AskAnswer{By: "mcp-elicitation", Answer: d, Why: "the MCP client said " + strconv.Quote(d)}
	}
}

// mcpMultiRoundTrip is the protocol version from which a server may not
// send elicitation/create during a tool call (SEP-2322).
const mcpMultiRoundTrip = "2026-07-28"

func sessionParams(s *mcp.ServerSession) *mcp.InitializeParams {
	if s == nil {
		return nil
	}
	return s.InitializeParams()
}

// withSandbox loads a session's sandbox in this process (no script runs)
// for the file tools; save writes its state back.
func (s *mcpServer) withSandbox(name string, save bool, f func(*sandbox.Sandbox) error) error {
	ss, err := s.session(name)
	if err != nil {
		return err
	}
	defer ss.release()
	o := s.base
	cfg, err := o.SandboxConfig()
	if err != nil {
		return err
	}
	if ss != nil {
		data, err := hostfile.ReadFile(ss.state, worker.StateFileMax(cfg.Limits))
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return err
		default:
			st, err := statefile.Read(strings.NewReader(string(data)), worker.StateFileMax(cfg.Limits))
			if err != nil {
				return err
			}
			cfg.State = st
		}
	}
	sb, err := sandbox.New(cfg)
	if err != nil {
		return err
	}
	defer sb.Close()
	if err := f(sb); err != nil {
		return err
	}
	if save && ss != nil {
		st, err := sb.State(context.Background())
		if err != nil {
			return err
		}
		return worker.WriteAtomic(ss.state, 0o600, func(w io.Writer) error { return statefile.Write(w, st) })
	}
	return nil
}

func (s *mcpServer) readTool(_ context.Context, _ *mcp.CallToolRequest, in fileArgs) (*mcp.CallToolResult, readResult, error) {
	var res readResult
	err := s.withSandbox(in.Session, false, func(sb *sandbox.Sandbox) error {
		fi, err := sb.FS().Stat(abs(sb, in.Path))
		if err != nil {
			return err
		}
		if fi.IsDir() {
			return fmt.Errorf("%s: is a directory (use list_dir)", in.Path)
		}
		if fi.Size() > mcpReadMax {
			return fmt.Errorf("%s: %d bytes, more than read_file returns (%d); read parts with the run tool (head -c, tail, sed -n)", in.Path, fi.Size(), mcpReadMax)
		}
		data, err := sb.ReadFile(in.Path)
		if err != nil {
			return err
		}
		res = readResult{Path: abs(sb, in.Path), Size: len(data), Content: string(data), Encoding: "text"}
		if !utf8.Valid(data) {
			res.Content, res.Encoding = base64.StdEncoding.EncodeToString(data), "base64"
		}
		return nil
	})
	return nil, res, err
}

func (s *mcpServer) writeTool(_ context.Context, _ *mcp.CallToolRequest, in writeArgs) (*mcp.CallToolResult, writeResult, error) {
	mode := fs.FileMode(0o644)
	if in.Mode != "" {
		n, err := strconv.ParseUint(in.Mode, 8, 32)
		if err != nil || n > 0o7777 {
			return nil, writeResult{}, fmt.Errorf("mode %q: want octal permission bits such as 644", in.Mode)
		}
		mode = fs.FileMode(n & 0o777)
	}
	var res writeResult
	err := s.withSandbox(in.Session, true, func(sb *sandbox.Sandbox) error {
		if err := sb.WriteFile(in.Path, []byte(in.Content), mode); err != nil {
			return err
		}
		res = writeResult{Path: abs(sb, in.Path), Bytes: len(in.Content)}
		return nil
	})
	return nil, res, err
}

func (s *mcpServer) listTool(_ context.Context, _ *mcp.CallToolRequest, in fileArgs) (*mcp.CallToolResult, listResult, error) {
	var res listResult
	if in.Path == "" {
		in.Path = "."
	}
	err := s.withSandbox(in.Session, false, func(sb *sandbox.Sandbox) error {
		list, err := sb.ReadDir(in.Path)
		if err != nil {
			return err
		}
		res = listResult{Path: abs(sb, in.Path), Entries: []dirEntry{}}
		for _, fi := range list {
			e := dirEntry{Name: fi.Name(), Size: fi.Size(), Mode: fmt.Sprintf("%04o", uint32(fi.Mode().Perm())), Type: "other"}
			switch {
			case fi.IsDir():
				e.Type = "dir"
			case fi.Mode()&fs.ModeSymlink != 0:
				e.Type = "symlink"
				e.Target, _ = sb.FS().ReadlinkIfPossible(abs(sb, in.Path) + "/" + fi.Name())
			case fi.Mode().IsRegular():
				e.Type = "file"
			}
			res.Entries = append(res.Entries, e)
		}
		sort.Slice(res.Entries, func(i, j int) bool { return res.Entries[i].Name < res.Entries[j].Name })
		return nil
	})
	return nil, res, err
}

func abs(sb *sandbox.Sandbox, p string) string { return vfs.Clean(sb.Dir(), p) }

// reachSummary tells an agent what lies beyond the sandbox for it: the
// host programs and network hosts the operator allowed, or none, so the
// tool descriptions never promise less or more than the run flags give.
func reachSummary(o *Options) string {
	progs := "no host programs"
	if len(o.AllowRun) > 0 {
		progs = "host programs only " + strings.Join(o.AllowRun, ", ") + " (in an OS jail)"
	} else if len(o.Policy) > 0 {
		progs = "host programs only where the operator's policy says jail"
	}
	network := "no network"
	if len(o.AllowNet) > 0 {
		network = "network only to " + strings.Join(o.AllowNet, ", ")
	}
	return progs + ", " + network
}
