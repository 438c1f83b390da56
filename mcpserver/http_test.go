package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// startHTTP serves a new server on loopback with ho and returns it and
// its MCP endpoint's URL.
func startHTTP(t *testing.T, mo Options, ho HTTPOptions, args ...string) (*Server, string) {
	t.Helper()
	srv, err := New(testOptions(t, args...), &mo)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	url, served := serveHTTP(t, ctx, srv, ho)
	t.Cleanup(func() {
		cancel()
		<-served
		srv.Close()
	})
	return srv, url
}

// dial connects the SDK's client to url with hc.
func dial(t *testing.T, url string, hc *http.Client, copts *mcp.ClientOptions) (*mcp.ClientSession, error) {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, copts).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

// post sends one raw JSON-RPC body to url with the headers given.
func post(t *testing.T, url, body string, header map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<16))
	return res.StatusCode, string(b)
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// TestHTTPToken: a call with the token works; without it, with a wrong
// one, with another scheme, or with the token in the query string, the
// server answers 401 before the MCP layer sees the request. /healthz
// needs no token and says nothing but ok.
func TestHTTPToken(t *testing.T) {
	_, url := startHTTP(t, Options{MaxSessions: 2, IdleTimeout: time.Hour}, HTTPOptions{Token: testToken})
	cs, err := dial(t, url, bearerClient(testToken), nil)
	if err != nil {
		t.Fatal(err)
	}
	if out, res := call(t, cs, "run", map[string]any{"script": "echo hi"}); res.IsError || out["stdout"] != "hi\n" {
		t.Fatalf("with the token: %v %s", out, errorText(res))
	}
	if _, err := dial(t, url, http.DefaultClient, nil); err == nil || !strings.Contains(err.Error(), "Unauthorized") {
		t.Errorf("the SDK's client without a token: %v", err)
	}
	for name, h := range map[string]map[string]string{
		"none":          nil,
		"wrong":         {"Authorization": "Bearer " + testToken + "x"},
		"prefix":        {"Authorization": "Bearer " + testToken[:len(testToken)-1]},
		"empty":         {"Authorization": "Bearer "},
		"basic scheme":  {"Authorization": "Basic " + testToken},
		"bare token":    {"Authorization": testToken},
		"other header":  {"X-Api-Key": testToken},
		"session alone": {"Mcp-Session-Id": cs.ID()},
	} {
		if code, body := post(t, url, initBody, h); code != http.StatusUnauthorized || strings.Contains(body, "jsonrpc") {
			t.Errorf("%s: status %d %q", name, code, body)
		}
	}
	for _, q := range []string{"?access_token=", "?token=", "?auth="} {
		if code, _ := post(t, url+q+testToken, initBody, nil); code != http.StatusUnauthorized {
			t.Errorf("token in the query string %s: status %d", q, code)
		}
	}
	// DNS rebinding: a page's script that reaches the loopback server
	// under another name is refused even with the token (the SDK's
	// localhost protection, kept on).
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(initBody))
	req.Host = "evil.example:80"
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusForbidden {
		t.Errorf("another Host: %v %v", res, err)
	} else {
		res.Body.Close()
	}
	res, err := http.Get(strings.TrimSuffix(url, MCPPath) + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(body) != "ok\n" || res.Header.Get("Server") != "" {
		t.Errorf("/healthz: %d %q %v", res.StatusCode, body, res.Header)
	}
}

// TestHTTPRefusesOpenBind: without a token the server listens on
// loopback only; a wildcard or outside address is refused before it
// listens, with a usage error (status 64 from the CLI).
func TestHTTPRefusesOpenBind(t *testing.T) {
	srv, err := New(testOptions(t), &Options{MaxSessions: 1, IdleTimeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		err := srv.ServeHTTP(context.Background(), HTTPOptions{Addr: addr, MaxClients: 1,
			Ready: func(string) { t.Errorf("%s: listening without a token", addr) }})
		if err == nil || !strings.Contains(err.Error(), "beyond loopback needs a token") {
			t.Errorf("%s: %v", addr, err)
		}
	}
	// A short token is no wall either.
	if err := srv.ServeHTTP(context.Background(), HTTPOptions{Addr: "127.0.0.1:0", Token: "short", MaxClients: 1}); err == nil || !strings.Contains(err.Error(), "too short") {
		t.Errorf("short token: %v", err)
	}
	// With a token the wildcard address is served.
	ctx, cancel := context.WithCancel(context.Background())
	_, served := serveHTTP(t, ctx, srv, HTTPOptions{Addr: "0.0.0.0:0", Token: testToken})
	cancel()
	if err := <-served; err != nil {
		t.Errorf("with a token: %v", err)
	}
}

// TestHTTPTwoClients: two clients at once, each in its own session,
// each keeping its own state while the other runs.
func TestHTTPTwoClients(t *testing.T) {
	_, url := startHTTP(t, Options{MaxSessions: 4, IdleTimeout: time.Hour}, HTTPOptions{Token: testToken})
	var wg sync.WaitGroup
	for _, name := range []string{"alice", "bob"} {
		cs, err := dial(t, url, bearerClient(testToken), nil)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 5; i++ {
				out, res := call(t, cs, "run", map[string]any{"session": name, "script": `n=$((${n-0}+1)); echo "$n" >> log; echo "` + name + ` $n $(wc -l < log)"`})
				if want := fmt.Sprintf("%s %d %d\n", name, i+1, i+1); res.IsError || out["stdout"] != want {
					t.Errorf("%s call %d: %v %s, want %q", name, i, out, errorText(res), want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestHTTPStreaming: during a run the output reaches the client before
// the result: as progress notifications when the call carries a
// progress token, else as log notifications to a client that set a log
// level; the result still holds the whole output.
func TestHTTPStreaming(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		type event struct{ kind, stream, data string }
		events := make(chan event, 100)
		copts := &mcp.ClientOptions{
			ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
				var m struct{ Stream, Data string }
				if err := json.Unmarshal([]byte(r.Params.Message), &m); err != nil {
					t.Errorf("progress message %q: %v", r.Params.Message, err)
				}
				events <- event{"progress", m.Stream, m.Data}
			},
			LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
				s, _ := r.Params.Data.(string)
				events <- event{"log", r.Params.Logger, s}
			},
		}
		cs, _ := connect(t, tr, Options{MaxSessions: 2, IdleTimeout: time.Hour}, copts, "")
		script := `echo first; echo oops >&2; sleep 1; echo second`
		for _, kind := range []string{"progress", "log"} {
			params := &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"session": "s", "script": script}}
			if kind == "progress" {
				params.Meta = mcp.Meta{"progressToken": "tok-1"}
			} else {
				// The level: a session's (protocol 2025-11-25, which the
				// SDK's client speaks over HTTP), or the request's own
				// (2026-07-28, in memory).
				if err := cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
					t.Fatal(err)
				}
				params.Meta = mcp.Meta{mcp.MetaKeyLogLevel: "info"}
			}
			done := make(chan *mcp.CallToolResult, 1)
			go func() {
				res, err := cs.CallTool(context.Background(), params)
				if err != nil {
					t.Error(err)
				}
				done <- res
			}()
			var got []event
		wait:
			for {
				select {
				case e := <-events:
					got = append(got, e)
				case res := <-done:
					out := resultObject(t, res)
					if out["stdout"] != "first\nsecond\n" || out["stderr"] != "oops\n" {
						t.Errorf("%s: result %v", kind, out)
					}
					break wait
				}
			}
			// The first line came before the result, in its own chunk
			// (the script then slept); the client may handle the last
			// chunk's notification after the result.
			if len(got) < 2 || got[0] != (event{kind, "stdout", "first\n"}) {
				t.Errorf("%s: before the result: %+v", kind, got)
			}
			for late := time.After(2 * time.Second); len(got) < 3; {
				select {
				case e := <-events:
					got = append(got, e)
				case <-late:
					t.Fatalf("%s: the notifications: %+v", kind, got)
				}
			}
			var stdout, stderr strings.Builder
			for _, e := range got {
				if e.kind != kind {
					t.Errorf("%s: a %s notification", kind, e.kind)
				}
				map[string]*strings.Builder{"stdout": &stdout, "stderr": &stderr}[e.stream].WriteString(e.data)
			}
			if stdout.String() != "first\nsecond\n" || stderr.String() != "oops\n" {
				t.Errorf("%s: streamed: %+v", kind, got)
			}
		}
	})
}

// TestHTTPBodyLimit: a request body over --max-message gets 413, and
// the server goes on.
func TestHTTPBodyLimit(t *testing.T) {
	_, url := startHTTP(t, Options{MaxSessions: 2, IdleTimeout: time.Hour, MaxMessage: "64KiB"}, HTTPOptions{Token: testToken})
	auth := map[string]string{"Authorization": "Bearer " + testToken}
	big := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"` + strings.Repeat("x", 70<<10) + `","version":"1"}}}`
	if code, body := post(t, url, big, auth); code != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized body: %d %q", code, body)
	}
	cs, err := dial(t, url, bearerClient(testToken), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"script": strings.Repeat("#", 70<<10)}})
	if err == nil || !strings.Contains(err.Error(), "Too Large") {
		t.Errorf("an oversized call through the SDK's client: %v", err)
	}
	// (The SDK's client closes its session on the error.)
	if cs, err = dial(t, url, bearerClient(testToken), nil); err != nil {
		t.Fatal(err)
	}
	if out, res := call(t, cs, "run", map[string]any{"script": "echo still here"}); res.IsError || out["stdout"] != "still here\n" {
		t.Errorf("after: %v %s", out, errorText(res))
	}
}

// TestHTTPMaxClients: the client sessions held at once are capped; a
// closed one frees its place.
func TestHTTPMaxClients(t *testing.T) {
	_, url := startHTTP(t, Options{MaxSessions: 2, IdleTimeout: time.Hour}, HTTPOptions{Token: testToken, MaxClients: 2})
	var held []*mcp.ClientSession
	for i := 0; i < 2; i++ {
		cs, err := dial(t, url, bearerClient(testToken), nil)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, cs)
	}
	if _, err := dial(t, url, bearerClient(testToken), nil); err == nil || !strings.Contains(err.Error(), "Service Unavailable") {
		t.Errorf("a third client: %v", err)
	}
	if code, body := post(t, url, initBody, map[string]string{"Authorization": "Bearer " + testToken}); code != http.StatusServiceUnavailable ||
		!strings.Contains(body, "too many client sessions (2, the server's limit)") {
		t.Errorf("a third client: %d %q", code, body)
	}
	held[0].Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		cs, err := dial(t, url, bearerClient(testToken), nil)
		if err == nil {
			if out, res := call(t, cs, "run", map[string]any{"script": "echo in"}); out["stdout"] != "in\n" {
				t.Errorf("the freed place: %v %s", out, errorText(res))
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a closed client's place was not freed: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestHTTPDisconnect: a client that goes away in the middle of a call
// cancels it: the session's worker is ended (the session goes on from
// its last finished call) instead of running the script to its end.
func TestHTTPDisconnect(t *testing.T) {
	_, url := startHTTP(t, Options{MaxSessions: 2, IdleTimeout: time.Hour}, HTTPOptions{Token: testToken}, "--timeout", "60s")
	cs, err := dial(t, url, bearerClient(testToken), nil)
	if err != nil {
		t.Fatal(err)
	}
	call(t, cs, "run", map[string]any{"session": "d", "script": "kept=yes"})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(300 * time.Millisecond); cancel() }()
	start := time.Now()
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"session": "d", "script": "lost=1; sleep 30"}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled call: %v", err)
	}
	// The next call in the session waits for the session: it would wait
	// for the sleep if the call went on.
	other, err := dial(t, url, bearerClient(testToken), nil)
	if err != nil {
		t.Fatal(err)
	}
	out, res := call(t, other, "run", map[string]any{"session": "d", "script": "echo ${kept-} ${lost-gone}"})
	if res.IsError || out["stdout"] != "yes gone\n" || time.Since(start) > 15*time.Second {
		t.Errorf("after the disconnect: %v %s after %v", out, errorText(res), time.Since(start))
	}
}

// TestTokenFile: the token file is read safely: a file others may read
// or write, an empty one, a FIFO or a directory is refused; the token
// is its first line.
func TestTokenFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tok, err := LoadToken(write("good", testToken+"\ncomment\n", 0o600), nil)
	if err != nil || tok != testToken {
		t.Errorf("good: %q %v", tok, err)
	}
	if tok, err := LoadToken(write("group", testToken, 0o640), nil); err != nil || tok != testToken {
		t.Errorf("group-readable: %q %v", tok, err)
	}
	for name, c := range map[string]struct {
		path, want string
	}{
		"world-readable": {write("world", testToken, 0o644), "others may read or write it"},
		"world-writable": {write("ww", testToken, 0o602), "others may read or write it"},
		"empty":          {write("empty", "\n", 0o600), "empty"},
		"short":          {write("short", "abc", 0o600), "too short"},
		"directory":      {dir, "directory"},
		"missing":        {filepath.Join(dir, "nosuch"), "no such file"},
	} {
		if _, err := LoadToken(c.path, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
	env := func(v string) func(string) string {
		return func(name string) string {
			if name == TokenEnv {
				return v
			}
			return ""
		}
	}
	if tok, _ := LoadToken("", env(" "+testToken+"\n")); tok != testToken {
		t.Errorf("from the environment: %q", tok)
	}
}
