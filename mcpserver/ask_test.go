package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPElicitation: under sandsh mcp a policy's ask becomes an
// elicitation/create request to a client that declared the capability;
// its decision allows, denies or allows for the session. A client
// without the capability is not asked, and the refusal says so.
func TestMCPElicitation(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		pol := filepath.Join(t.TempDir(), "p.yaml")
		if err := os.WriteFile(pol, []byte("default: allow\nrules:\n  - {name: ask-tr, command: tr, action: ask, reason: tr needs a look}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var asked []string
		decision := "allow"
		handler := func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, req.Params.Message)
			if decision == "decline" {
				return &mcp.ElicitResult{Action: "decline"}, nil
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": decision}}, nil
		}
		// A client on a protocol version that takes elicitation/create during
		// a call (before 2026-07-28).
		cs := startMCPClientOn(t, tr, &mcp.ClientOptions{ElicitationHandler: handler}, "2025-11-25", "--policy", pol)
		run := func(script string) map[string]any {
			out, res := call(t, cs, "run", map[string]any{"script": script})
			if res.IsError {
				t.Fatalf("%s: %s", script, errorText(res))
			}
			return out
		}
		out := run(`echo a | tr a b`)
		if out["stdout"] != "b\n" || len(asked) != 1 || !strings.Contains(asked[0], `rule "ask-tr" asks before running "tr a b" (tr needs a look)`) {
			t.Fatalf("allow: %v, asked %q", out, asked)
		}
		decision = "deny"
		out = run(`echo a | tr a b; echo "st=$?"`)
		if out["stdout"] != "st=126\n" || !strings.Contains(out["stderr"].(string), "the MCP client said \"deny\"") {
			t.Fatalf("deny: %v", out)
		}
		decision = "decline"
		out = run(`tr a b </dev/null; echo "st=$?"`)
		if out["stdout"] != "st=126\n" || !strings.Contains(out["stderr"].(string), "the MCP client said decline") {
			t.Fatalf("decline: %v", out)
		}
		decision, asked = "allow-session", nil
		out = run(`tr a b </dev/null; tr c d </dev/null; echo "st=$?"`)
		if out["stdout"] != "st=0\n" || len(asked) != 1 {
			t.Fatalf("allow-session: %v, asked %d times", out, len(asked))
		}

		// A client without the capability is never asked; nor (yet) one on a
		// protocol that takes input requests only as multi round-trip results.
		for _, c := range []struct {
			opts    *mcp.ClientOptions
			version string
			why     string
		}{
			{nil, "2025-11-25", "it did not declare the elicitation capability"},
			{&mcp.ClientOptions{ElicitationHandler: handler}, "", "multi round-trip"},
		} {
			if c.version == "" && tr == overHTTP {
				// Over HTTP the SDK's client falls back to 2025-11-25 (the
				// server keeps sessions), where a call may ask.
				continue
			}
			asked = nil
			plain := startMCPClientOn(t, tr, c.opts, c.version, "--policy", pol)
			out, res := call(t, plain, "run", map[string]any{"script": `tr a b </dev/null; echo "st=$?"`})
			if res.IsError || out["stdout"] != "st=126\n" || !strings.Contains(out["stderr"].(string), "the MCP client cannot be asked: ") ||
				!strings.Contains(out["stderr"].(string), c.why) || strings.Contains(out["stderr"].(string), "--yes") || len(asked) != 0 {
				t.Fatalf("not asked: %v %s", out, errorText(res))
			}
		}
	})
}

// startMCPClient is startMCP with the client's options and protocol
// version ("" for the latest).
func startMCPClient(t *testing.T, opts *mcp.ClientOptions, version string, args ...string) *mcp.ClientSession {
	t.Helper()
	return startMCPClientOn(t, inMemory, opts, version, args...)
}

// startMCPClientWith is startMCPClient with the server's options.
func startMCPClientWith(t *testing.T, mo Options, opts *mcp.ClientOptions, version string, args ...string) *mcp.ClientSession {
	t.Helper()
	cs, _ := connect(t, inMemory, mo, opts, version, args...)
	return cs
}

// startMCPClientOn is startMCPClient through tr.
func startMCPClientOn(t *testing.T, tr transport, opts *mcp.ClientOptions, version string, args ...string) *mcp.ClientSession {
	t.Helper()
	cs, _ := connect(t, tr, Options{MaxSessions: 4, IdleTimeout: time.Hour}, opts, version, args...)
	return cs
}
