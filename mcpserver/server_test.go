package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/pflag"

	"github.com/sandsh/sandsh/jail"
	"github.com/sandsh/sandsh/worker"
)

// TestMain lets this test binary serve as sandsh's worker (and a jail's
// init): the sessions re-execute it (/proc/self/exe).
func TestMain(m *testing.M) {
	if jail.IsInit() {
		os.Exit(jail.InitMain())
	}
	if worker.IsWorker() {
		os.Exit(worker.Main(nil))
	}
	os.Exit(m.Run())
}

// testOptions parses the run flags the test servers start with (the
// few the tests use, with sandsh's defaults).
func testOptions(t *testing.T, args ...string) *worker.Options {
	t.Helper()
	o := worker.DefaultOptions()
	o.StateLock, o.AskTimeout = "wait", worker.DefaultAskTimeout
	o.IO = worker.IO{Getenv: func(string) string { return "" }, Getwd: os.Getwd}
	fl := pflag.NewFlagSet("sandsh", pflag.ContinueOnError)
	fl.StringVar(&o.FS, "fs", o.FS, "")
	fl.StringVar(&o.Base, "base", "", "")
	fl.DurationVar(&o.Timeout, "timeout", o.Timeout, "")
	fl.Int64Var(&o.MaxCommands, "max-commands", o.MaxCommands, "")
	fl.Int64Var(&o.MaxLoopIters, "max-loop-iterations", o.MaxLoopIters, "")
	fl.StringVar(&o.MaxFileSize, "max-file-size", o.MaxFileSize, "")
	fl.StringVar(&o.MaxFSBytes, "max-fs-bytes", o.MaxFSBytes, "")
	fl.StringVar(&o.MaxMemory, "max-memory", o.MaxMemory, "")
	fl.StringVar(&o.MaxVarBytes, "max-var-bytes", o.MaxVarBytes, "")
	fl.StringArrayVar(&o.Policy, "policy", nil, "")
	if err := fl.Parse(args); err != nil {
		t.Fatal(err)
	}
	return &o
}

// startMCP runs the server in-process and connects the SDK's client to
// it through in-memory transports.
func startMCP(t *testing.T, mo Options, args ...string) (*mcp.ClientSession, *Server) {
	t.Helper()
	return connect(t, inMemory, mo, nil, "", args...)
}

func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (map[string]any, *mcp.CallToolResult) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return resultObject(t, res), res
}

// resultObject is a tool result's JSON object: its one text content
// (nil for an error result).
func resultObject(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	if res.IsError {
		return nil
	}
	if res.StructuredContent != nil || len(res.Content) != 1 {
		t.Fatalf("want one text content and no structured content: %+v", res)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(errorText(res)), &out); err != nil {
		t.Fatalf("result is not a JSON object: %v: %s", err, errorText(res))
	}
	return out
}

func errorText(res *mcp.CallToolResult) string {
	var sb strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			sb.WriteString(tc.Text)
		}
	}
	return sb.String()
}

func TestMCPSession(t *testing.T) {
	cs, _ := startMCP(t, Options{MaxSessions: 4, IdleTimeout: time.Hour})
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if len(tool.Description) < 40 {
			t.Errorf("tool %s: description too thin for a model: %q", tool.Name, tool.Description)
		}
	}
	if strings.Join(names, ",") != "close_session,list_dir,read_file,reset_session,run,write_file" {
		t.Errorf("tools: %v", names)
	}

	out, res := call(t, cs, "run", map[string]any{"session": "s1", "script": `x=41; f() { echo "f $1"; }; mkdir -p d; cd d; echo data > file; read line; echo "got $line $1"`,
		"stdin": "input line\n", "args": []string{"A"}})
	if res.IsError || out["status"] != 0.0 || out["stdout"] != "got input line A\n" {
		t.Fatalf("first run: %v %s", out, errorText(res))
	}
	if ch, _ := out["changes"].([]any); len(ch) != 2 {
		t.Errorf("changes: %v", out["changes"])
	}
	out, res = call(t, cs, "run", map[string]any{"session": "s1", "script": `echo "$((x+1)) $(f y) $PWD $(cat file)"`})
	if res.IsError || out["stdout"] != "42 f y /workspace/d data\n" {
		t.Fatalf("session lost: %v %s", out, errorText(res))
	}
	// The file tools see the same session, relative to its directory.
	out, res = call(t, cs, "write_file", map[string]any{"session": "s1", "path": "new.sh", "content": "echo from file\n", "mode": "755"})
	if res.IsError || out["path"] != "/workspace/d/new.sh" {
		t.Fatalf("write_file: %v %s", out, errorText(res))
	}
	out, res = call(t, cs, "run", map[string]any{"session": "s1", "script": `./new.sh; ls -l new.sh | cut -c1-10`})
	if res.IsError || out["stdout"] != "from file\n-rwxr-xr-x\n" {
		t.Fatalf("run written file: %v %s", out, errorText(res))
	}
	out, res = call(t, cs, "read_file", map[string]any{"session": "s1", "path": "/workspace/d/file"})
	if res.IsError || out["content"] != "data\n" || out["encoding"] != "text" {
		t.Errorf("read_file: %v %s", out, errorText(res))
	}
	out, res = call(t, cs, "list_dir", map[string]any{"session": "s1", "path": "."})
	if res.IsError || len(out["entries"].([]any)) != 2 {
		t.Errorf("list_dir: %v %s", out, errorText(res))
	}
	// Without a session every call starts afresh.
	out, _ = call(t, cs, "run", map[string]any{"script": `echo "${x-unset}"; ls /workspace`})
	if out["stdout"] != "unset\n" {
		t.Errorf("fresh sandbox: %v", out)
	}
}

func TestMCPLimitsAndErrors(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		cs, srv := connect(t, tr, Options{MaxSessions: 2, IdleTimeout: time.Hour}, nil, "", "--max-commands", "1000", "--timeout", "2s")
		// A script that hits a limit: the run ends, the session does not.
		call(t, cs, "run", map[string]any{"session": "a", "script": "keep=1"})
		out, res := call(t, cs, "run", map[string]any{"session": "a", "script": "keep=2; while :; do :; done"})
		if res.IsError || out["status"] != 125.0 || out["limit"] != "max-commands" {
			t.Fatalf("limit: %v %s", out, errorText(res))
		}
		// A live session keeps what the call did before the limit, as an
		// interactive shell does.
		out, _ = call(t, cs, "run", map[string]any{"session": "a", "script": "echo $keep"})
		if out["stdout"] != "2\n" {
			t.Errorf("the session after a limit: %v", out)
		}
		out, _ = call(t, cs, "run", map[string]any{"script": "sleep 10"})
		if out["status"] != 124.0 || out["limit"] != "timeout" {
			t.Errorf("timeout: %v", out)
		}
		// Bad arguments: the SDK refuses them against the schema.
		_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"script": 42}})
		res2, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"script": 42}})
		if err == nil && (res2 == nil || !res2.IsError) {
			t.Error("run with a number for script accepted")
		}
		_, res = call(t, cs, "run", map[string]any{"session": "bad name!", "script": "echo"})
		if !res.IsError || !strings.Contains(errorText(res), "session name") {
			t.Errorf("bad session name: %s", errorText(res))
		}
		_, res = call(t, cs, "read_file", map[string]any{"path": "/nonexistent"})
		if !res.IsError {
			t.Error("reading a missing file succeeded")
		}
		_, res = call(t, cs, "write_file", map[string]any{"session": "a", "path": "/etc/passwd", "content": "x"})
		if !res.IsError {
			t.Error("wrote a root-owned file")
		}
		// The cap on sessions.
		call(t, cs, "run", map[string]any{"session": "b", "script": ":"})
		_, res = call(t, cs, "run", map[string]any{"session": "c", "script": ":"})
		if !res.IsError || !strings.Contains(errorText(res), "too many sessions") {
			t.Errorf("session cap: %s", errorText(res))
		}
		// An expired session says so once, then starts afresh.
		srv.expire(time.Now().Add(2 * time.Hour))
		_, res = call(t, cs, "run", map[string]any{"session": "a", "script": "echo ${keep-none}"})
		if !res.IsError || !strings.Contains(errorText(res), "expired") {
			t.Errorf("expired session: %s", errorText(res))
		}
		out, res = call(t, cs, "run", map[string]any{"session": "a", "script": "echo ${keep-none}"})
		if res.IsError || out["stdout"] != "none\n" {
			t.Errorf("restarted session: %v %s", out, errorText(res))
		}
	})
}

// TestReachSummary: what the MCP descriptions tell a model lies beyond
// the sandbox follows the run flags, never a fixed promise.
func TestReachSummary(t *testing.T) {
	for _, tc := range []struct {
		o    worker.Options
		want string
	}{
		{worker.Options{}, "no host programs, no network"},
		{worker.Options{AllowRun: []string{"python3", "git"}}, "host programs only python3, git (in an OS jail), no network"},
		{worker.Options{AllowNet: []string{"example.com"}}, "no host programs, network only to example.com"},
		{worker.Options{Policy: []string{"p.yaml"}}, "host programs only where the operator's policy says jail, no network"},
	} {
		if got := reachSummary(&tc.o); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.o, got, tc.want)
		}
	}
}

// TestMCPCloseReset: a closed session frees its place under
// --max-sessions at once; a reset one starts afresh under its name.
func TestMCPCloseReset(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		cs, _ := connect(t, tr, Options{MaxSessions: 2, IdleTimeout: time.Hour}, nil, "")
		for _, name := range []string{"a", "b"} {
			if _, res := call(t, cs, "run", map[string]any{"session": name, "script": "v=" + name + "; echo keep > f"}); res.IsError {
				t.Fatal(errorText(res))
			}
		}
		_, res := call(t, cs, "run", map[string]any{"session": "c", "script": ":"})
		if !res.IsError || !strings.Contains(errorText(res), "too many sessions") {
			t.Fatalf("session cap: %s", errorText(res))
		}
		out, res := call(t, cs, "close_session", map[string]any{"session": "a"})
		if res.IsError || out["existed"] != true || out["session"] != "a" {
			t.Fatalf("close: %v %s", out, errorText(res))
		}
		out, res = call(t, cs, "run", map[string]any{"session": "c", "script": "echo ${v-none}; ls"})
		if res.IsError || out["stdout"] != "none\n" {
			t.Fatalf("the closed session's place was not free: %v %s", out, errorText(res))
		}
		// a is gone: its name starts a new, empty session (no "expired" notice).
		call(t, cs, "close_session", map[string]any{"session": "c"})
		out, res = call(t, cs, "run", map[string]any{"session": "a", "script": "echo ${v-none}; ls"})
		if res.IsError || out["stdout"] != "none\n" {
			t.Fatalf("closed session came back: %v %s", out, errorText(res))
		}
		out, res = call(t, cs, "reset_session", map[string]any{"session": "b"})
		if res.IsError || out["existed"] != true {
			t.Fatalf("reset: %v %s", out, errorText(res))
		}
		out, res = call(t, cs, "run", map[string]any{"session": "b", "script": "echo ${v-none}; ls; echo $PWD"})
		if res.IsError || out["stdout"] != "none\n/workspace\n" {
			t.Fatalf("reset session kept its state: %v %s", out, errorText(res))
		}
		// b kept its place: a and b are the two sessions.
		_, res = call(t, cs, "run", map[string]any{"session": "d", "script": ":"})
		if !res.IsError || !strings.Contains(errorText(res), "too many sessions") {
			t.Errorf("reset freed a place: %s", errorText(res))
		}
		out, res = call(t, cs, "close_session", map[string]any{"session": "nosuch"})
		if res.IsError || out["existed"] != false {
			t.Errorf("close of an unknown session: %v %s", out, errorText(res))
		}
		_, res = call(t, cs, "close_session", map[string]any{"session": "../x"})
		if !res.IsError || !strings.Contains(errorText(res), "session name") {
			t.Errorf("bad name: %s", errorText(res))
		}
	})
}

// TestMCPOutputTrim: a client bounds what a run's result carries; it
// keeps the head and the tail, says it cut, does not kill the run, and
// carries stdout once.
func TestMCPOutputTrim(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		cs, _ := connect(t, tr, Options{MaxSessions: 2, IdleTimeout: time.Hour}, nil, "")
		out, res := call(t, cs, "run", map[string]any{"script": "seq 1 100000; echo done >&2; exit 3", "max_output": 40})
		if res.IsError {
			t.Fatal(errorText(res))
		}
		so, _ := out["stdout"].(string)
		if out["status"] != 3.0 || out["stdout_truncated"] != true || out["stderr_truncated"] != false || out["stderr"] != "done\n" {
			t.Fatalf("trimmed run: %v", out)
		}
		if !strings.HasPrefix(so, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n[... sandsh: ") || !strings.HasSuffix(so, "\n99998\n99999\n100000\n") ||
			!strings.Contains(so, "\n10\n[... sandsh: ") || len(so) > 40+60 {
			t.Errorf("head and tail: %q", so)
		}
		// Not cut: every byte, no marker, no flag.
		out, _ = call(t, cs, "run", map[string]any{"script": "seq 1 10", "max_output": 21})
		if out["stdout"] != "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n" || out["stdout_truncated"] != false {
			t.Errorf("short output: %v", out)
		}
		// More than the server allows is the server's limit (1 MiB), and the
		// result carries stdout once: about 1 MiB, not 2.
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run",
			Arguments: map[string]any{"script": "yes 0123456789abcde | head -c 3000000", "max_output": 1 << 30}})
		if err != nil {
			t.Fatal(err)
		}
		out = resultObject(t, res)
		wire, _ := json.Marshal(res)
		if so, _ := out["stdout"].(string); len(so) < 1<<20 || len(so) > 1<<20+100 || out["stdout_truncated"] != true || out["status"] != 0.0 {
			t.Errorf("server's limit: %d bytes, %v", len(so), out["stdout_truncated"])
		}
		// (JSON in a JSON string: each newline costs 3 bytes.)
		if len(wire) > 1<<20*5/4 {
			t.Errorf("1 MiB of stdout took %d bytes on the wire", len(wire))
		}
		// A multi-byte character is never split by the cut.
		out, _ = call(t, cs, "run", map[string]any{"script": "for i in {1..50}; do printf 'é€'; done", "max_output": 11})
		if so, _ := out["stdout"].(string); !utf8.ValidString(so) || strings.Contains(so, "\uFFFD") || out["stdout_truncated"] != true {
			t.Errorf("cut inside a character: %q", so)
		}
		_, res = call(t, cs, "run", map[string]any{"script": "echo", "max_output": -1})
		if !res.IsError {
			t.Error("negative max_output accepted")
		}
	})
}

// TestMCPNoHostPath: no message from the server names a host path: not
// its session store, nor the host's working directory, nor the overlay
// base. (The timeout message named the state file before.)
func TestMCPNoHostPath(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		base := t.TempDir()
		if err := os.WriteFile(filepath.Join(base, "secret"), []byte("x"), 0o000); err != nil {
			t.Fatal(err)
		}
		cs, _ := connect(t, tr, Options{MaxSessions: 1, IdleTimeout: time.Hour}, nil, "", "--timeout", "1s", "--max-commands", "5000",
			"--fs", "overlay", "--base", base, "--max-file-size", "1000")
		wd, _ := os.Getwd()
		var texts []string
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"run", map[string]any{"session": "s", "script": "echo hi > f"}},
			{"run", map[string]any{"session": "s", "script": "sleep 5"}},
			{"run", map[string]any{"session": "s", "script": "while :; do :; done"}},
			{"run", map[string]any{"session": "s", "script": "cat secret; cd /nonexistent; head -c 2000 /dev/zero > big"}},
			{"run", map[string]any{"session": "t", "script": ":"}},
			{"read_file", map[string]any{"session": "s", "path": "secret"}},
			{"read_file", map[string]any{"session": "s", "path": "nosuch"}},
			{"write_file", map[string]any{"session": "s", "path": "big", "content": strings.Repeat("x", 2000)}},
			{"write_file", map[string]any{"session": "s", "path": "/nodir/x", "content": "x"}},
			{"list_dir", map[string]any{"session": "s", "path": "nosuch"}},
			{"list_dir", map[string]any{"session": "s", "path": "."}},
			{"reset_session", map[string]any{"session": "s"}},
			{"close_session", map[string]any{"session": "s"}},
		} {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
			if err != nil {
				texts = append(texts, err.Error())
				continue
			}
			texts = append(texts, errorText(res))
		}
		all := strings.Join(texts, "\n")
		if !strings.Contains(all, "limit exceeded: timeout") || !strings.Contains(all, "Permission denied") {
			t.Fatalf("the calls did not fail as planned:\n%s", all)
		}
		for _, p := range []string{wd, base, os.TempDir()} {
			if strings.Contains(all, p) {
				t.Errorf("a message names the host path %s:\n%s", p, all)
			}
		}
	})
}

// stdioServer serves MCP on pipes in-process (ServeStdio, as sandsh
// mcp does) and returns the server's input, a reader of its output
// lines, and a wait function that gives how ServeStdio ended.
func stdioServer(t *testing.T, mo Options, args ...string) (io.WriteCloser, *bufio.Reader, func() error) {
	t.Helper()
	srv, err := New(testOptions(t, args...), &mo)
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- srv.ServeStdio(context.Background(), inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close(); srv.Close() })
	return inW, bufio.NewReaderSize(outR, 1<<20), func() error { return <-done }
}

// TestMCPBadFrames: a line that is not JSON, a truncated object, a
// batch, a value that is not a message and a frame over --max-message
// each get an error reply, and the server goes on (it exited 1 on the
// first of them before).
func TestMCPBadFrames(t *testing.T) {
	in, out, wait := stdioServer(t, Options{MaxSessions: 2, IdleTimeout: time.Hour, MaxMessage: "64KiB"}, "--timeout", "10s")
	type reply struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(in, line+"\n"); err != nil {
			t.Fatalf("write: %v", err)
		}
	}
	recv := func() reply {
		t.Helper()
		line, err := out.ReadString('\n')
		if err != nil {
			t.Fatalf("the server ended: %v", err)
		}
		var r reply
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("reply %q: %v", line, err)
		}
		return r
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if r := recv(); r.Error != nil || string(r.ID) != "1" {
		t.Fatalf("initialize: %+v", r)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, c := range []struct {
		line string
		code int
		id   string
	}{
		{"this is not JSON", -32700, "null"},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ru`, -32700, "null"},
		{"\x00\xff", -32700, "null"},
		{`[{"jsonrpc":"2.0","id":3,"method":"ping"}]`, -32600, "null"},
		{`{"id":4,"hello":"world"}`, -32600, "4"},
		{`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"run","arguments":{"script":"` + strings.Repeat("x", 200<<10) + `"}}}`, -32600, "5"},
	} {
		send(c.line)
		r := recv()
		if r.Error == nil || r.Error.Code != c.code || string(r.ID) != c.id {
			t.Errorf("%.40q: reply %+v, want code %d id %s", c.line, r, c.code, c.id)
		}
	}
	send(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"run","arguments":{"script":"echo still here"}}}`)
	r := recv()
	if r.Error != nil || string(r.ID) != "6" || !strings.Contains(string(r.Result), `still here\\n`) {
		t.Fatalf("a good call after bad frames: %+v %s", r, r.Result)
	}
	in.Close()
	if err := wait(); err != nil {
		t.Errorf("the server ended with %v", err)
	}
}

// TestMCPFileToolsWalls: the file tools go through the walls a run
// does: the policy's paths lists (read_file, write_file and list_dir
// reached every path before) and the filesystem limits.
func TestMCPFileToolsWalls(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		pol := filepath.Join(t.TempDir(), "p.yaml")
		if err := os.WriteFile(pol, []byte("default: allow\npaths:\n  read: [/workspace/pub]\n  write: [/workspace/pub]\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cs, _ := connect(t, tr, Options{MaxSessions: 4, IdleTimeout: time.Hour}, nil, "", "--policy", pol,
			"--max-file-size", "1000", "--max-fs-bytes", "4KiB")
		out, res := call(t, cs, "run", map[string]any{"session": "s", "script": "mkdir /workspace/pub && ln -s /etc /workspace/pub/e && cat /etc/passwd"})
		if res.IsError || out["status"] == 0.0 || !strings.Contains(out["stderr"].(string), "Permission denied") {
			t.Fatalf("the run was not refused: %v %s", out, errorText(res))
		}
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"write_file", map[string]any{"session": "s", "path": "/workspace/evil.txt", "content": "x"}},
			{"write_file", map[string]any{"session": "s", "path": "evil.txt", "content": "x"}},
			{"write_file", map[string]any{"session": "s", "path": "/workspace/pub/e/evil", "content": "x"}},
			{"write_file", map[string]any{"session": "s", "path": "/tmp/evil", "content": "x"}},
			{"read_file", map[string]any{"session": "s", "path": "/etc/passwd"}},
			{"read_file", map[string]any{"session": "s", "path": "/workspace/pub/e/passwd"}},
			{"read_file", map[string]any{"path": "/etc/hostname"}},
			{"list_dir", map[string]any{"session": "s", "path": "/"}},
			{"list_dir", map[string]any{"session": "s", "path": "/workspace/pub/e"}},
			{"list_dir", map[string]any{"path": "."}},
		} {
			_, res := call(t, cs, c.tool, c.args)
			if !res.IsError || !strings.Contains(strings.ToLower(errorText(res)), "permission denied") {
				t.Errorf("%s %v: not refused: %s", c.tool, c.args, errorText(res))
			}
		}
		out, res = call(t, cs, "run", map[string]any{"session": "s", "script": "ls /workspace/pub; cat /workspace/evil.txt"})
		if out["stdout"] != "e\n" {
			t.Errorf("a refused write left a file: %v %s", out, errorText(res))
		}
		// Inside the lists the tools work.
		if _, res := call(t, cs, "write_file", map[string]any{"session": "s", "path": "/workspace/pub/ok", "content": "fine"}); res.IsError {
			t.Fatal(errorText(res))
		}
		if out, res := call(t, cs, "read_file", map[string]any{"session": "s", "path": "/workspace/pub/ok"}); res.IsError || out["content"] != "fine" {
			t.Errorf("read inside: %v %s", out, errorText(res))
		}
		if out, res := call(t, cs, "list_dir", map[string]any{"session": "s", "path": "/workspace/pub"}); res.IsError || len(out["entries"].([]any)) != 2 {
			t.Errorf("list inside: %v %s", out, errorText(res))
		}
		// The limits: one file, and the filesystem.
		if _, res := call(t, cs, "write_file", map[string]any{"session": "s", "path": "/workspace/pub/big", "content": strings.Repeat("x", 1001)}); !res.IsError {
			t.Error("a file over --max-file-size written")
		}
		written := 0
		for ; written < 10; written++ {
			_, res := call(t, cs, "write_file", map[string]any{"session": "s", "path": fmt.Sprintf("/workspace/pub/f%d", written), "content": strings.Repeat("y", 1000)})
			if res.IsError {
				break
			}
		}
		if written < 1 || written == 10 {
			t.Errorf("%d files of 1000 bytes written under --max-fs-bytes 4KiB", written)
		}
	})
}

// TestMCPToolHints: annotations tell a client which tools only read;
// write_file makes parent directories unless told not to, and refuses
// to write where the write would be thrown away.
func TestMCPToolHints(t *testing.T) {
	cs, _ := startMCP(t, Options{MaxSessions: 2, IdleTimeout: time.Hour})
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		a := tool.Annotations
		if a == nil {
			t.Errorf("%s: no annotations", tool.Name)
			continue
		}
		readOnly := tool.Name == "read_file" || tool.Name == "list_dir"
		if a.ReadOnlyHint != readOnly || (a.DestructiveHint != nil && *a.DestructiveHint) == readOnly ||
			a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: annotations %+v", tool.Name, a)
		}
	}
	out, res := call(t, cs, "write_file", map[string]any{"session": "s", "path": "a/b/c.txt", "content": "deep"})
	if res.IsError || out["path"] != "/workspace/a/b/c.txt" {
		t.Fatalf("write with parents: %v %s", out, errorText(res))
	}
	out, _ = call(t, cs, "run", map[string]any{"session": "s", "script": "cat a/b/c.txt; stat -c %a a a/b"})
	if out["stdout"] != "deep755\n755\n" {
		t.Errorf("parents: %v", out)
	}
	_, res = call(t, cs, "write_file", map[string]any{"session": "s", "path": "x/y.txt", "content": "no", "parents": false})
	if !res.IsError || !strings.Contains(errorText(res), "no such file") {
		t.Errorf("parents false: %s", errorText(res))
	}
	_, res = call(t, cs, "write_file", map[string]any{"path": "f", "content": "lost"})
	if !res.IsError || !strings.Contains(errorText(res), "needs a session") {
		t.Errorf("write without a session: %s", errorText(res))
	}
}

// TestMCPSessionRecovery: a limit that kills a session's worker restarts
// it from the last finished call, and the result says so in one line.
func TestMCPSessionRecovery(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		cs, _ := connect(t, tr, Options{MaxSessions: 2, IdleTimeout: time.Hour}, nil, "", "--max-memory", "256MiB", "--max-var-bytes", "4GiB")
		call(t, cs, "run", map[string]any{"session": "m", "script": "kept=yes; echo f > file"})
		out, res := call(t, cs, "run", map[string]any{"session": "m", "script": "lost=1; x=abc; while :; do x=$x$x; done"})
		if res.IsError || out["status"] != 125.0 || out["limit"] != "max-memory" || !strings.Contains(fmt.Sprint(out["restarted"]), "session restarted after max-memory") {
			t.Fatalf("memory bomb: %v %s", out, errorText(res))
		}
		out, _ = call(t, cs, "run", map[string]any{"session": "m", "script": "echo $kept ${lost-gone}; cat file"})
		if out["stdout"] != "yes gone\nf\n" || out["restarted"] != nil {
			t.Errorf("after the restart: %v", out)
		}
	})
}

// TestMCPCallTimeoutCwd: a call may shorten the server's time limit,
// never lengthen it, and may start in another directory.
func TestMCPCallTimeoutCwd(t *testing.T) {
	cs, _ := startMCP(t, Options{MaxSessions: 2, IdleTimeout: time.Hour}, "--timeout", "3s")
	start := time.Now()
	out, res := call(t, cs, "run", map[string]any{"session": "c", "script": "sleep 10", "timeout": 0.5})
	if res.IsError || out["status"] != 124.0 || out["limit"] != "timeout" || time.Since(start) > 2500*time.Millisecond {
		t.Errorf("a shorter timeout: %v %s after %v", out, errorText(res), time.Since(start))
	}
	start = time.Now()
	out, _ = call(t, cs, "run", map[string]any{"session": "c", "script": "sleep 10", "timeout": 100})
	if out["status"] != 124.0 || time.Since(start) > 8*time.Second {
		t.Errorf("a longer timeout than the server's: %v after %v", out, time.Since(start))
	}
	out, res = call(t, cs, "run", map[string]any{"session": "c", "script": "pwd", "cwd": "/tmp"})
	if res.IsError || out["stdout"] != "/tmp\n" {
		t.Errorf("cwd: %v %s", out, errorText(res))
	}
	out, _ = call(t, cs, "run", map[string]any{"session": "c", "script": "pwd"})
	if out["stdout"] != "/tmp\n" {
		t.Errorf("the session stays in cwd: %v", out)
	}
	out, _ = call(t, cs, "run", map[string]any{"session": "c", "script": "pwd", "cwd": "/nonexistent"})
	if out["status"] == 0.0 || !strings.Contains(fmt.Sprint(out["stderr"]), "/nonexistent") {
		t.Errorf("a missing cwd: %v", out)
	}
	_, res = call(t, cs, "run", map[string]any{"script": "pwd", "timeout": -1})
	if !res.IsError {
		t.Error("a negative timeout accepted")
	}
}

// TestMCPElicitationInSession: in a named session the policy's ask goes
// to the client of the running call, and allow-session holds for later
// calls of the same session's worker.
func TestMCPElicitationInSession(t *testing.T) {
	pol := filepath.Join(t.TempDir(), "p.yaml")
	if err := os.WriteFile(pol, []byte("default: allow\nrules:\n  - {name: ask-tr, command: tr, action: ask}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// With --pool the session's worker was started before the session
	// (and its client) existed: its asks still reach this client.
	for _, pool := range []int{0, 1} {
		t.Run(fmt.Sprintf("pool %d", pool), func(t *testing.T) {
			asked := 0
			handler := func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				asked++
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "allow-session"}}, nil
			}
			cs := startMCPClientWith(t, Options{MaxSessions: 4, IdleTimeout: time.Hour, Pool: pool},
				&mcp.ClientOptions{ElicitationHandler: handler}, "2025-11-25", "--policy", pol)
			for i := 0; i < 2; i++ {
				out, res := call(t, cs, "run", map[string]any{"session": "e", "script": "echo a | tr a b"})
				if res.IsError || out["stdout"] != "b\n" {
					t.Fatalf("call %d: %v %s", i, out, errorText(res))
				}
			}
			if asked != 1 {
				t.Errorf("asked %d times", asked)
			}
			out, res := call(t, cs, "run", map[string]any{"script": "echo a | tr a x"})
			if res.IsError || out["stdout"] != "x\n" || asked != 2 {
				t.Errorf("a call without a session: %v %s, asked %d times", out, errorText(res), asked)
			}
		})
	}
}

// TestMCPBackgroundJob: a job started with & in a session's run keeps
// running after the call; a later call sees it with jobs, gets what it
// wrote meanwhile, and waits for it; close_session stops the jobs.
func TestMCPBackgroundJob(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		cs, _ := connect(t, tr, Options{MaxSessions: 2, IdleTimeout: time.Hour, Pool: 1}, nil, "")
		out, res := call(t, cs, "run", map[string]any{"session": "j", "script": "(sleep 0.3; echo from-job; exit 4) & echo started"})
		if res.IsError || out["stdout"] != "started\n" {
			t.Fatalf("start: %v %s", out, errorText(res))
		}
		out, _ = call(t, cs, "run", map[string]any{"session": "j", "script": "jobs"})
		if s, _ := out["stdout"].(string); !strings.Contains(s, "Running") {
			t.Errorf("jobs: %v", out)
		}
		time.Sleep(600 * time.Millisecond)
		out, _ = call(t, cs, "run", map[string]any{"session": "j", "script": `wait %1; echo "status $?"`})
		if out["stdout"] != "from-job\nstatus 4\n" {
			t.Errorf("wait: %v", out)
		}
		call(t, cs, "run", map[string]any{"session": "j", "script": "sleep 100 &"})
		start := time.Now()
		if out, res := call(t, cs, "close_session", map[string]any{"session": "j"}); res.IsError || out["existed"] != true {
			t.Errorf("close: %v %s", out, errorText(res))
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("close_session waited %v for a job", d)
		}
	})
}

// TestMCPStateDir: with --state-dir a named session outlives its
// server: saved when the server closes or the session expires, it
// starts from its file in the next server (another replica, sharing the
// directory); close_session and reset_session remove the file.
func TestMCPStateDir(t *testing.T) {
	dir := t.TempDir()
	mo := Options{MaxSessions: 4, IdleTimeout: time.Hour, StateDir: dir}
	start := func() (*mcp.ClientSession, *Server) {
		cs, srv := connect(t, inMemory, mo, nil, "")
		return cs, srv
	}
	cs, srv := start()
	call(t, cs, "run", map[string]any{"session": "m", "script": `x=5; f() { echo "f$1"; }; mkdir d; cd d; echo hi > file`})
	call(t, cs, "run", map[string]any{"session": "e", "script": `kept=yes`})
	call(t, cs, "run", map[string]any{"session": "gone", "script": `y=1`})
	srv.expire(time.Now().Add(2 * time.Hour)) // all three expire, saved
	_, res := call(t, cs, "run", map[string]any{"session": "e", "script": "echo ${kept-lost}"})
	if out := resultObject(t, res); res.IsError || out["stdout"] != "yes\n" {
		t.Fatalf("after expiry: %v %s", out, errorText(res))
	}
	call(t, cs, "run", map[string]any{"session": "m", "script": "x=6"})
	srv.Close() // saves m and e
	for _, name := range []string{"m.st", "e.st", "gone.st"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	cs2, _ := start()
	out, res := call(t, cs2, "run", map[string]any{"session": "m", "script": `echo "$x $(f y) $PWD $(cat file)"`})
	if res.IsError || out["stdout"] != "6 fy /workspace/d hi\n" {
		t.Fatalf("the next server: %v %s", out, errorText(res))
	}
	out, res = call(t, cs2, "close_session", map[string]any{"session": "gone"})
	if res.IsError || out["existed"] != true {
		t.Errorf("closing a saved session: %v %s", out, errorText(res))
	}
	call(t, cs2, "reset_session", map[string]any{"session": "m"})
	if _, err := os.Stat(filepath.Join(dir, "gone.st")); !os.IsNotExist(err) {
		t.Errorf("close_session left the file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "m.st")); !os.IsNotExist(err) {
		t.Errorf("reset_session left the file: %v", err)
	}
	out, _ = call(t, cs2, "run", map[string]any{"session": "gone", "script": "echo ${y-none}"})
	if out["stdout"] != "none\n" {
		t.Errorf("a closed session came back: %v", out)
	}
	if _, err := New(testOptions(t), &Options{MaxSessions: 1, IdleTimeout: time.Hour, StateDir: filepath.Join(dir, "nosuch")}); err == nil {
		t.Error("a missing --state-dir accepted")
	}
}
