package cmd

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/pflag"

	"github.com/sandsh/sandsh/internal/suite"
)

// mcpTestOptions parses the run flags the test servers start with.
func mcpTestOptions(t *testing.T, args ...string) *Options {
	t.Helper()
	o := &Options{IO: IO{Getenv: func(string) string { return "" }, Getwd: os.Getwd}}
	fl := pflag.NewFlagSet("sandsh", pflag.ContinueOnError)
	addRunFlags(fl, o)
	if err := fl.Parse(args); err != nil {
		t.Fatal(err)
	}
	return o
}

// startMCP runs the server in-process and connects the SDK's client to
// it through in-memory transports.
func startMCP(t *testing.T, mo mcpOptions, args ...string) (*mcp.ClientSession, *mcpServer) {
	t.Helper()
	o := mcpTestOptions(t, args...)
	srv, err := newMCPServer(o, &mo)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Close()
		cancel()
		srv.close()
	})
	return cs, srv
}

func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (map[string]any, *mcp.CallToolResult) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var out map[string]any
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &out)
	}
	return out, res
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
	cs, _ := startMCP(t, mcpOptions{MaxSessions: 4, IdleTimeout: time.Hour})
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
	if strings.Join(names, ",") != "list_dir,read_file,run,write_file" {
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
	cs, srv := startMCP(t, mcpOptions{MaxSessions: 2, IdleTimeout: time.Hour}, "--max-commands", "1000", "--timeout", "2s")
	// A script that hits a limit: the run ends, the session does not.
	call(t, cs, "run", map[string]any{"session": "a", "script": "keep=1"})
	out, res := call(t, cs, "run", map[string]any{"session": "a", "script": "keep=2; while :; do :; done"})
	if res.IsError || out["status"] != 125.0 || out["limit"] != "max-commands" {
		t.Fatalf("limit: %v %s", out, errorText(res))
	}
	out, _ = call(t, cs, "run", map[string]any{"session": "a", "script": "echo $keep"})
	if out["stdout"] != "1\n" {
		t.Errorf("a failed run changed the session: %v", out)
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
	_, res = call(t, cs, "write_file", map[string]any{"path": "/etc/passwd", "content": "x"})
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
}

// TestMCPStdio drives the built sandsh binary over a real stdio pipe.
func TestMCPStdio(t *testing.T) {
	if runtime.GOOS != "linux" {
		suite.Skip(t, "linux", "the worker runs on Linux only")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "sandsh")
	build := exec.Command("go", "build", "-o", bin, "github.com/sandsh/sandsh")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "mcp", "--timeout", "5s", "--max-loop-iterations", "500")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	run := func(args map[string]any) (map[string]any, *mcp.CallToolResult) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &out)
		return out, res
	}
	out, res := run(map[string]any{"session": "p", "script": "n=5; echo start"})
	if res.IsError || out["stdout"] != "start\n" {
		t.Fatalf("%v %s", out, errorText(res))
	}
	out, _ = run(map[string]any{"session": "p", "script": "echo $((n*2))"})
	if out["stdout"] != "10\n" {
		t.Errorf("session over stdio: %v", out)
	}
	out, _ = run(map[string]any{"script": "for ((;;)); do :; done"})
	if out["status"] != 125.0 || out["limit"] != "max-loop-iterations" {
		t.Errorf("limit over stdio: %v", out)
	}
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "nosuch", Arguments: map[string]any{}})
	if err == nil {
		t.Error("unknown tool accepted")
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_dir", Arguments: map[string]any{"path": []int{1}}})
	if err == nil && !res.IsError {
		t.Error("malformed list_dir accepted")
	}
}

// TestReachSummary: what the MCP descriptions tell a model lies beyond
// the sandbox follows the run flags, never a fixed promise.
func TestReachSummary(t *testing.T) {
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{}, "no host programs, no network"},
		{Options{AllowRun: []string{"python3", "git"}}, "host programs only python3, git (in an OS jail), no network"},
		{Options{AllowNet: []string{"example.com"}}, "no host programs, network only to example.com"},
		{Options{Policy: []string{"p.yaml"}}, "host programs only where the operator's policy says jail, no network"},
	} {
		if got := reachSummary(&tc.o); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.o, got, tc.want)
		}
	}
}
