package mcpserver

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/sandbox"
	"github.com/sandsh/sandsh/vfs"
	"github.com/sandsh/sandsh/worker"
)

type runArgs struct {
	Script    string   `json:"script" jsonschema:"the bash script to run (bash 5.2 syntax)"`
	Session   string   `json:"session,omitempty" jsonschema:"name of a session to run in: its files, variables, functions, aliases, options, working directory and background jobs persist to the next call with the same name; omit for a fresh sandbox"`
	Stdin     string   `json:"stdin,omitempty" jsonschema:"text given to the script on its standard input"`
	Args      []string `json:"args,omitempty" jsonschema:"positional parameters $1, $2, ..."`
	MaxOutput *int64   `json:"max_output,omitempty" jsonschema:"most bytes of each of stdout and stderr to return (the first half and the last half, with a marker line where bytes were cut); at most the server's limit, which is also the default; the run itself is not cut short"`
	Timeout   *float64 `json:"timeout,omitempty" jsonschema:"seconds this run may take; at most the server's time limit, which is also the default"`
	Cwd       string   `json:"cwd,omitempty" jsonschema:"directory in the sandbox to run in, as after cd (a session stays there)"`
}

type sessionArgs struct {
	Session string `json:"session" jsonschema:"name of the session"`
}

type sessionResult struct {
	Session string `json:"session"`
	Existed bool   `json:"existed" jsonschema:"whether the session existed (held files or state) before this call"`
}

// mcpText is a tool's result: its JSON object as the one text content.
// No structuredContent: the SDK would copy the object into a text
// block as well, so a run's output would travel twice, and every client
// reads text.
func mcpText(v any) (*mcp.CallToolResult, any, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.TrimSuffix(b.String(), "\n")}}}, nil, nil
}

type fileArgs struct {
	Path    string `json:"path" jsonschema:"a path in the sandbox; relative paths start at the session's working directory (/workspace in a new sandbox)"`
	Session string `json:"session,omitempty" jsonschema:"name of the session whose files to use; omit for a fresh sandbox"`
}

type writeArgs struct {
	Path    string `json:"path" jsonschema:"a path in the sandbox; relative paths start at the session's working directory (/workspace in a new sandbox)"`
	Content string `json:"content" jsonschema:"the new contents of the file (text)"`
	Session string `json:"session,omitempty" jsonschema:"name of the session to write into (required: a write to a fresh sandbox would be thrown away)"`
	Mode    string `json:"mode,omitempty" jsonschema:"permission bits in octal for a new file, e.g. 755 for a script (default 644)"`
	Parents *bool  `json:"parents,omitempty" jsonschema:"create missing parent directories, as mkdir -p (default true)"`
}

type readResult struct {
	Path     string `json:"path"`
	Size     int    `json:"size"`
	Content  string `json:"content"`
	Encoding string `json:"encoding"` // text, or base64 when the file is not valid UTF-8
}

type writeResult struct {
	Path  string `json:"path"`
	Bytes int    `json:"bytes"`
}

type dirEntry struct {
	Name   string `json:"name"`
	Type   string `json:"type"` // file, dir, symlink or other
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

func (s *Server) addTools() {
	// A run reaches outside the sandbox only through what the operator
	// allowed: the network gate and the jail's host programs.
	openWorld := len(s.base.AllowNet) > 0 || len(s.base.AllowRun) > 0 || len(s.base.Policy) > 0
	mcp.AddTool(s.server, &mcp.Tool{
		Name:        "run",
		Annotations: &mcp.ToolAnnotations{Title: "Run a bash script", DestructiveHint: ptr(true), OpenWorldHint: ptr(openWorld)},
		Description: "Run a bash script in the sandbox. The result is one JSON object: status (exit status), limit (the limit " +
			"that ended the run, or null), stdout, stderr, stdout_truncated, stderr_truncated, duration_ms, changes (the files " +
			"added, modified and deleted) and, in a session, state_saved. Real bash 5.2 semantics; commands such as ls, cat, grep, " +
			"sed, awk, sort, jq, find, tar, curl run in-process; " + reachSummary(&s.base) + ". Pass a session name to keep files " +
			"and shell state between calls. Each of stdout and stderr keeps at most " + interp.FormatBytes(int64(s.mo.maxResult)) +
			" (less with max_output): its first and last halves, with a marker line where the middle was cut. Exit status 124 " +
			"means the time limit ended the run, 125 another limit.",
	}, hidden(s, s.runTool))
	mcp.AddTool(s.server, &mcp.Tool{
		Name:        "read_file",
		Annotations: &mcp.ToolAnnotations{Title: "Read a file", ReadOnlyHint: true, OpenWorldHint: ptr(false)},
		Description: "Read a file from the sandbox (at most 1 MiB; use the run tool with head, tail or sed for parts " +
			"of bigger files). The result is a JSON object: path, size, content, encoding (text, or base64 when the file " +
			"is not valid UTF-8).",
	}, hidden(s, s.readTool))
	mcp.AddTool(s.server, &mcp.Tool{
		Name:        "write_file",
		Annotations: &mcp.ToolAnnotations{Title: "Write a file", DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
		Description: "Create or replace a file in a named session with the given text; missing parent directories are " +
			"created (parents: false to refuse instead). The result is a JSON object: path, bytes.",
	}, hidden(s, s.writeTool))
	mcp.AddTool(s.server, &mcp.Tool{
		Name:        "list_dir",
		Annotations: &mcp.ToolAnnotations{Title: "List a directory", ReadOnlyHint: true, OpenWorldHint: ptr(false)},
		Description: "List a directory of the sandbox. The result is a JSON object: path, and entries, each with name, " +
			"type (file, dir, symlink or other), size, mode (and target for a symlink), sorted by name.",
	}, hidden(s, s.listTool))
	mcp.AddTool(s.server, &mcp.Tool{
		Name:        "close_session",
		Annotations: &mcp.ToolAnnotations{Title: "Close a session", DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
		Description: "End a named session: its files and shell state are gone, and its place under the server's limit " +
			"on sessions is free at once. A later call with the same name starts a new, empty session. Waits for a call " +
			"running in the session to end. The result is a JSON object: session, existed.",
	}, hidden(s, s.closeTool))
	mcp.AddTool(s.server, &mcp.Tool{
		Name:        "reset_session",
		Annotations: &mcp.ToolAnnotations{Title: "Reset a session", DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
		Description: "Empty a named session: its files and shell state go back to those of a new sandbox, and the " +
			"session keeps its name and place. Waits for a call running in the session to end. The result is a JSON " +
			"object: session, existed.",
	}, hidden(s, s.resetTool))
}

// runResult is a run tool's result: the fields of `sandsh --json`, and
// the line that says the session's worker was restarted.
type runResult struct {
	worker.JSONResult
	Restarted string `json:"restarted,omitempty"`
}

func (s *Server) runTool(ctx context.Context, req *mcp.CallToolRequest, in runArgs) (*mcp.CallToolResult, any, error) {
	if in.Script == "" {
		return nil, nil, errors.New("script is empty")
	}
	if len(in.Args) > 10000 {
		return nil, nil, errors.New("too many args")
	}
	keep := s.mo.maxResult
	if in.MaxOutput != nil {
		if *in.MaxOutput < 1 {
			return nil, nil, errors.New("max_output: want at least 1 byte")
		}
		keep = int(min(*in.MaxOutput, int64(keep)))
	}
	var timeout time.Duration
	if in.Timeout != nil {
		if *in.Timeout <= 0 || *in.Timeout > 1e6 {
			return nil, nil, errors.New("timeout: want a positive number of seconds")
		}
		timeout = time.Duration(*in.Timeout * float64(time.Second))
		if s.base.Timeout > 0 && timeout > s.base.Timeout {
			timeout = s.base.Timeout // the server's limit holds
		}
	}
	var ask sandbox.Asker
	if s.base.AskCommand == "" {
		ask = elicitAsker(ctx, req)
	}
	cctx, done := s.callContext(ctx, req)
	defer done()
	live, release, err := s.session(cctx, in.Session, ask)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	call := worker.Call{Script: in.Script, Args: in.Args, Stdin: []byte(in.Stdin),
		Cwd: in.Cwd, Timeout: timeout, MaxOutput: keep, Changes: true}
	var outW, errW *streamWriter
	if st := newStreamer(ctx, req); st != nil {
		outW, errW = st.writer("stdout", keep), st.writer("stderr", keep)
		errW.hide = s.hide
		call.Stdout, call.Stderr = outW, errW
	}
	res, err := live.Run(cctx, call)
	if err != nil {
		return nil, nil, fmt.Errorf("the run failed: %v", err)
	}
	if outW != nil {
		outW.flush()
		errW.flush()
		res.Stdout, res.StdoutTruncated, res.StdoutBytes = outW.keep.Kept()
		res.Stderr, res.StderrTruncated, res.StderrBytes = errW.keep.Kept()
	}
	out := runResult{JSONResult: worker.JSONResult{Status: res.Status, DurationMS: float64(res.Duration.Microseconds()) / 1000,
		Stdout: cutText(res.Stdout, res.StdoutTruncated, keep, res.StdoutBytes), StdoutTruncated: res.StdoutTruncated,
		Stderr: s.hide(cutText(res.Stderr, res.StderrTruncated, keep, res.StderrBytes)), StderrTruncated: res.StderrTruncated,
		Changes: res.Changes}, Restarted: s.hide(res.Restarted)}
	if res.Limit != "" {
		out.Limit = &res.Limit
	}
	if out.Changes == nil {
		out.Changes = []vfs.Change{}
	}
	return mcpText(out)
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
		version := p.ProtocolVersion
		if req.Extra != nil && req.Extra.Header != nil && req.Extra.Header.Get("Mcp-Protocol-Version") > version {
			// Over HTTP a request of the sessionless protocol carries its
			// version in a header, not in an initialize.
			version = req.Extra.Header.Get("Mcp-Protocol-Version")
		}
		if version >= mcpMultiRoundTrip {
			// From this version a server may not send elicitation/create
			// while it serves a call; the call would have to return
			// input requests and be retried, and a running script
			// cannot be paused across calls yet.
			why = "the MCP client cannot be asked: protocol " + version + " takes input requests only as multi round-trip results, which sandsh does not send yet"
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

// cutText is kept output as text: when the middle was dropped (the first
// keep/2 bytes and the rest of the last are kept), a marker line says
// where and how much; a character split by the cut is dropped, and
// other invalid UTF-8 becomes U+FFFD.
func cutText(b []byte, cut bool, keep int, total int64) string {
	if !cut || len(b) < keep/2 {
		return strings.ToValidUTF8(string(b), "\uFFFD")
	}
	head, tail := trimRuneEnd(b[:keep/2]), trimRuneStart(b[keep/2:])
	marker := fmt.Sprintf("[... sandsh: %d bytes cut here ...]\n", total-int64(len(head))-int64(len(tail)))
	if len(head) > 0 && head[len(head)-1] != '\n' {
		marker = "\n" + marker
	}
	return strings.ToValidUTF8(string(head), "\uFFFD") + marker + strings.ToValidUTF8(string(tail), "\uFFFD")
}

// trimRuneEnd cuts a character split at the end of b.
func trimRuneEnd(b []byte) []byte {
	for k := 0; k < utf8.UTFMax && len(b) > 0 && !utf8.Valid(b); k++ {
		if r, _ := utf8.DecodeLastRune(b); r != utf8.RuneError {
			break
		}
		b = b[:len(b)-1]
	}
	return b
}

// trimRuneStart drops the continuation bytes of a character split at
// the start of b.
func trimRuneStart(b []byte) []byte {
	for k := 0; k < utf8.UTFMax-1 && len(b) > 0 && !utf8.RuneStart(b[0]); k++ {
		b = b[1:]
	}
	return b
}

func (s *Server) closeTool(_ context.Context, _ *mcp.CallToolRequest, in sessionArgs) (*mcp.CallToolResult, any, error) {
	existed, err := s.endSession(in.Session, true)
	if err != nil {
		return nil, nil, err
	}
	return mcpText(sessionResult{Session: in.Session, Existed: existed})
}

func (s *Server) resetTool(_ context.Context, _ *mcp.CallToolRequest, in sessionArgs) (*mcp.CallToolResult, any, error) {
	existed, err := s.endSession(in.Session, false)
	if err != nil {
		return nil, nil, err
	}
	return mcpText(sessionResult{Session: in.Session, Existed: existed})
}

func (s *Server) readTool(ctx context.Context, req *mcp.CallToolRequest, in fileArgs) (*mcp.CallToolResult, any, error) {
	ctx, done := s.callContext(ctx, req)
	defer done()
	live, release, err := s.session(ctx, in.Session, nil)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	data, err := live.ReadFile(ctx, in.Path, mcpReadMax)
	if err != nil {
		if strings.Contains(err.Error(), "file bigger than") {
			return nil, nil, fmt.Errorf("%v: read_file returns at most 1 MiB; read parts with the run tool (head -c, tail, sed -n)", err)
		}
		return nil, nil, err
	}
	res := readResult{Path: vfs.Clean(live.Dir(), in.Path), Size: len(data), Content: string(data), Encoding: "text"}
	if !utf8.Valid(data) {
		res.Content, res.Encoding = base64.StdEncoding.EncodeToString(data), "base64"
	}
	return mcpText(res)
}

func (s *Server) writeTool(ctx context.Context, req *mcp.CallToolRequest, in writeArgs) (*mcp.CallToolResult, any, error) {
	mode := fs.FileMode(0o644)
	if in.Mode != "" {
		n, err := strconv.ParseUint(in.Mode, 8, 32)
		if err != nil || n > 0o7777 {
			return nil, nil, fmt.Errorf("mode %q: want octal permission bits such as 644", in.Mode)
		}
		mode = fs.FileMode(n & 0o777)
	}
	if in.Session == "" {
		return nil, nil, errors.New("write_file needs a session: a write to a fresh sandbox would be thrown away at once")
	}
	ctx, done := s.callContext(ctx, req)
	defer done()
	live, release, err := s.session(ctx, in.Session, nil)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	name := vfs.Clean(live.Dir(), in.Path)
	if in.Parents == nil || *in.Parents {
		if err := live.MkdirAll(ctx, path.Dir(name), 0o755); err != nil {
			return nil, nil, err
		}
	}
	if err := live.WriteFile(ctx, name, []byte(in.Content), mode); err != nil {
		return nil, nil, err
	}
	return mcpText(writeResult{Path: name, Bytes: len(in.Content)})
}

func (s *Server) listTool(ctx context.Context, req *mcp.CallToolRequest, in fileArgs) (*mcp.CallToolResult, any, error) {
	if in.Path == "" {
		in.Path = "."
	}
	ctx, done := s.callContext(ctx, req)
	defer done()
	live, release, err := s.session(ctx, in.Session, nil)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	list, err := live.ReadDir(ctx, in.Path)
	if err != nil {
		return nil, nil, err
	}
	res := listResult{Path: vfs.Clean(live.Dir(), in.Path), Entries: []dirEntry{}}
	for _, fi := range list {
		e := dirEntry{Name: fi.Name, Size: fi.Size, Mode: fmt.Sprintf("%04o", uint32(fi.Mode.Perm())), Type: "other", Target: fi.Target}
		switch {
		case fi.Mode.IsDir():
			e.Type = "dir"
		case fi.Mode&fs.ModeSymlink != 0:
			e.Type = "symlink"
		case fi.Mode.IsRegular():
			e.Type = "file"
		}
		res.Entries = append(res.Entries, e)
	}
	sort.Slice(res.Entries, func(i, j int) bool { return res.Entries[i].Name < res.Entries[j].Name })
	return mcpText(res)
}

func ptr[T any](v T) *T { return &v }

// reachSummary tells an agent what lies beyond the sandbox for it: the
// host programs and network hosts the operator allowed, or none, so the
// tool descriptions never promise less or more than the run flags give.
func reachSummary(o *worker.Options) string {
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
