package mcpserver

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// transport is how a test's client reaches the server: every surface
// goes through the same walls, so the attack tests run through each.
type transport string

const (
	inMemory transport = "in-memory" // as stdio: one client, in-process
	overHTTP transport = "http"      // streamable HTTP on loopback, with a token
)

// testToken is the bearer token of the test servers on HTTP.
const testToken = "test-token-0123456789abcdef"

// eachTransport runs f once per transport, as subtests.
func eachTransport(t *testing.T, f func(t *testing.T, tr transport)) {
	for _, tr := range []transport{inMemory, overHTTP} {
		t.Run(string(tr), func(t *testing.T) { f(t, tr) })
	}
}

// connect starts a server and connects the SDK's client to it through
// tr, with the client's options and protocol version ("" for the
// latest).
func connect(t *testing.T, tr transport, mo Options, copts *mcp.ClientOptions, version string, args ...string) (*mcp.ClientSession, *Server) {
	t.Helper()
	srv, err := New(testOptions(t, args...), &mo)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var ct mcp.Transport
	var stop func()
	switch tr {
	case inMemory:
		st, c := mcp.NewInMemoryTransports()
		ss, err := srv.server.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		ct, stop = c, func() { ss.Close() }
	case overHTTP:
		url, served := serveHTTP(t, ctx, srv, HTTPOptions{Token: testToken})
		ct = &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: bearerClient(testToken)}
		stop = func() { cancel(); <-served }
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, copts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		stop()
		cancel()
		srv.Close()
	})
	return cs, srv
}

// serveHTTP serves srv on a loopback port until ctx ends; it returns
// the MCP endpoint's URL and a channel that gets ServeHTTP's error.
func serveHTTP(t *testing.T, ctx context.Context, srv *Server, ho HTTPOptions) (string, chan error) {
	t.Helper()
	if ho.Addr == "" {
		ho.Addr = "127.0.0.1:0"
	}
	if ho.MaxClients == 0 {
		ho.MaxClients = 16
	}
	if ho.Grace == 0 {
		ho.Grace = time.Second
	}
	addr := make(chan string, 1)
	ho.Ready = func(a string) { addr <- a }
	served := make(chan error, 1)
	go func() { served <- srv.ServeHTTP(ctx, ho) }()
	select {
	case a := <-addr:
		return "http://" + a + MCPPath, served
	case err := <-served:
		t.Fatalf("ServeHTTP: %v", err)
	}
	return "", nil
}

// bearerClient sends the token with every request.
func bearerClient(token string) *http.Client {
	return &http.Client{Transport: bearer{token}}
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}
