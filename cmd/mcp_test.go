package cmd

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sandsh/sandsh/internal/suite"
)

// The MCP server's own tests are in package mcpserver; these drive the
// built sandsh binary's `mcp` command.

// resultObject is a tool result's JSON object: its one text content
// (nil for an error result).
func resultObject(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	var out map[string]any
	if res.IsError {
		return nil
	}
	if len(res.Content) != 1 {
		t.Fatalf("want one text content: %+v", res)
	}
	if err := json.Unmarshal([]byte(errorText(res)), &out); err != nil {
		t.Fatalf("result is not a JSON object: %v: %s", err, errorText(res))
	}
	return out
}

func errorText(res *mcp.CallToolResult) string {
	if res == nil || len(res.Content) == 0 {
		return ""
	}
	tc, _ := res.Content[0].(*mcp.TextContent)
	if tc == nil {
		return ""
	}
	return tc.Text
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
		return resultObject(t, res), res
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

// TestMCPServerMemory: the server process stays near --max-memory while
// a session grows by 40 writes of 900 KB (each call decoded and encoded
// the whole session in the server, which grew to about 430 MB).
func TestMCPServerMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		suite.Skip(t, "linux", "the worker runs on Linux only")
	}
	// The built binary, not this (possibly -race) test binary: the race
	// detector's shadow memory would be measured too.
	bin := filepath.Join(t.TempDir(), "sandsh")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/sandsh/sandsh").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.Command(bin, "mcp", "--max-memory", "128MiB", "--timeout", "60s")
	cmd.Dir = t.TempDir()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	chunk := make([]byte, 900<<10*3/4)
	for i := 0; i < 40; i++ {
		for j := range chunk {
			chunk[j] = byte(j*7 + i*131 + j*j>>5)
		}
		content := base64.StdEncoding.EncodeToString(chunk)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "write_file",
			Arguments: map[string]any{"session": "big", "path": fmt.Sprintf("f%02d", i), "content": content}})
		if err != nil || res.IsError {
			t.Fatalf("write %d: %v %s", i, err, errorText(res))
		}
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_dir", Arguments: map[string]any{"session": "big", "path": "."}})
	if err != nil || res.IsError {
		t.Fatalf("list_dir: %v", err)
	}
	if out := resultObject(t, res); len(out["entries"].([]any)) != 40 {
		t.Fatalf("the session holds: %v", out)
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	var hwm int64
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			fmt.Sscanf(strings.TrimSpace(v), "%d", &hwm)
		}
	}
	t.Logf("server peak RSS %d MiB for a 36 MB session under --max-memory 128MiB", hwm>>10)
	if hwm<<10 > 150<<20 {
		t.Errorf("the server's peak RSS was %d MiB", hwm>>10)
	}
}

// TestMCPHTTPSigterm: `sandsh mcp --http` (this test binary as sandsh)
// on SIGTERM lets a call in flight finish within --shutdown-grace,
// cancels one that outlasts it, and exits 0.
func TestMCPHTTPSigterm(t *testing.T) {
	if runtime.GOOS != "linux" {
		suite.Skip(t, "linux", "the worker runs on Linux only")
	}
	const token = "sigterm-test-token-0123456789"
	cmd := exec.Command(os.Args[0], "mcp", "--http", "127.0.0.1:0", "--shutdown-grace", "2s", "--timeout", "60s")
	cmd.Env = append(os.Environ(), "SANDSH_TEST_MAIN=1", "SANDSH_MCP_TOKEN="+token)
	cmd.Dir = t.TempDir()
	errp, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(errp).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "sandsh: mcp: serving ")
	if err != nil || !ok {
		t.Fatalf("the server's first line: %q %v", line, err)
	}
	hc := &http.Client{Transport: bearerTransport(token)}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		out map[string]any
		err error
	}
	run := func(session, script string) chan result {
		c := make(chan result, 1)
		go func() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"session": session, "script": script}})
			if err != nil {
				c <- result{err: err}
				return
			}
			var out map[string]any
			json.Unmarshal([]byte(errorText(res)), &out)
			c <- result{out: out}
		}()
		return c
	}
	quick, long := run("q", "sleep 1; echo finished"), run("l", "sleep 60; echo never")
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if r := <-quick; r.err != nil || r.out["stdout"] != "finished\n" {
		t.Errorf("the call that fits the grace period: %v %v", r.out, r.err)
	}
	if r := <-long; r.err == nil && (r.out["status"] != 130.0 || r.out["stdout"] != "") {
		t.Errorf("the call that outlasts it: %v", r.out)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit: %v", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the shutdown took %v", d)
	}
}

type bearerTransport string

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}
