package mcpserver

// The streamable HTTP transport (sandsh mcp --http): many clients at once
// on one Server, behind a bearer token. This file (with token.go) is the
// only code of sandsh besides netgate/ that touches the network, and it
// only listens: a script reaches the network through netgate alone.

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sandsh/sandsh/worker"
)

// HTTPOptions configure ServeHTTP.
type HTTPOptions struct {
	// Addr is where to listen (host:port); a port 0 picks one.
	Addr string
	// Token is the bearer token every request to /mcp must carry; ""
	// serves without one, which only a loopback address may.
	Token string
	// MaxClients bounds the MCP client sessions held at once (each
	// request without a session counts as one while it runs).
	MaxClients int
	// Grace is how long a shutdown waits for the calls in flight before
	// it cancels them.
	Grace time.Duration
	// Ready, when set, is called with the address the server listens on.
	Ready func(addr string)
}

// callHeader carries, from the HTTP layer to a tool handler, the id
// under which the HTTP request's context is kept (the SDK hands a
// handler the request's headers, not its context). The server sets it
// on every request, over whatever a client sent.
const callHeader = "X-Sandsh-Call"

// MCPPath is where the MCP endpoint is served; /healthz is the health
// endpoint.
const MCPPath = "/mcp"

// ServeHTTP serves MCP over streamable HTTP on ho.Addr until ctx ends,
// then shuts down: it stops accepting, lets the calls in flight finish
// for ho.Grace, cancels the rest, and returns nil.
func (s *Server) ServeHTTP(ctx context.Context, ho HTTPOptions) error {
	if ho.MaxClients < 1 {
		return worker.Usagef("--max-clients: want at least 1")
	}
	if ho.Token != "" && len(ho.Token) < minToken {
		return worker.Usagef("the token is too short: want at least %d characters", minToken)
	}
	ln, err := net.Listen("tcp", ho.Addr)
	if err != nil {
		return worker.Usagef("--http %s: %v", ho.Addr, err)
	}
	// The address the socket got, not the name asked for: a host name
	// may resolve beyond loopback.
	if ho.Token == "" && !isLoopback(ln.Addr()) {
		ln.Close()
		return worker.Usagef("--http %s: listening beyond loopback needs a token (--token-file FILE or SANDSH_MCP_TOKEN)", ho.Addr)
	}
	hs := &http.Server{Handler: s.httpHandler(ho), ReadHeaderTimeout: 10 * time.Second}
	if ho.Ready != nil {
		ho.Ready(ln.Addr().String())
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serving HTTP: %w", err)
	case <-ctx.Done():
	}
	// Stop accepting; a client's listening stream (GET) has no end of
	// its own, so it ends now; calls get the grace period.
	s.endStreams()
	grace, cancel := context.WithTimeout(context.Background(), ho.Grace)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- hs.Shutdown(grace) }()
	if err := <-shut; err != nil {
		// The grace period is over: cancel the calls still running (their
		// workers are ended, each session goes on from its last finished
		// call), give their handlers a moment to answer, then close.
		s.cancelCalls()
		last, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if hs.Shutdown(last) != nil {
			hs.Close()
		}
	}
	return nil
}

// httpHandler is /mcp behind the token and the client cap, and
// /healthz.
func (s *Server) httpHandler(ho HTTPOptions) http.Handler {
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.server }, &mcp.StreamableHTTPOptions{
		SessionTimeout:      s.mo.IdleTimeout,
		MaxRequestBodyBytes: int64(s.mo.maxMessage),
	})
	want := sha256.Sum256([]byte(ho.Token))
	var admitMu sync.Mutex
	admitting := 0
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		// Liveness and readiness: the process serves. It says nothing
		// else (no version, no sessions), and needs no token.
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		select {
		case <-s.stop:
			http.Error(w, "closing", http.StatusServiceUnavailable)
		default:
			fmt.Fprintln(w, "ok")
		}
	})
	mux.HandleFunc(MCPPath, func(w http.ResponseWriter, r *http.Request) {
		if ho.Token != "" {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			have := sha256.Sum256([]byte(got))
			if !ok || subtle.ConstantTimeCompare(have[:], want[:]) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="sandsh"`)
				http.Error(w, "sandsh: a valid bearer token is required", http.StatusUnauthorized)
				return
			}
		}
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" {
			// A new client session, or a request without one: under the
			// cap, counted both as admitted and, once the SDK holds it,
			// as a session (never more than the cap, at times fewer).
			admitMu.Lock()
			n := admitting
			for ss := range s.server.Sessions() {
				// A client's session; not a request without one, which
				// the SDK serves in a session of its own and then closes.
				if ss.ID() != "" && ss.InitializeParams() != nil {
					n++
				}
			}
			if n >= ho.MaxClients {
				admitMu.Unlock()
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusServiceUnavailable)
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"sandsh: too many client sessions (%d, the server's limit)"}}`+"\n", ho.MaxClients)
				return
			}
			admitting++
			admitMu.Unlock()
			// Admitted until the SDK answers: by then it holds the
			// session (counted above), and a client that goes on to its
			// next request must not find this one still counted.
			var once sync.Once
			admitted := func() {
				once.Do(func() {
					admitMu.Lock()
					admitting--
					admitMu.Unlock()
				})
			}
			defer admitted()
			w = &answerHook{ResponseWriter: w, before: admitted}
		}
		if r.Method == http.MethodGet {
			// A client's listening stream ends when the shutdown begins.
			ctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			defer context.AfterFunc(s.streams, cancel)()
			r = r.WithContext(ctx)
		}
		id := rand.Text()
		r.Header.Set(callHeader, id)
		s.httpCalls.Store(id, r.Context())
		defer s.httpCalls.Delete(id)
		sdk.ServeHTTP(w, r)
	})
	return mux
}

// isLoopback reports whether a listener's address is a loopback one.
func isLoopback(a net.Addr) bool {
	ta, ok := a.(*net.TCPAddr)
	return ok && ta.IP.IsLoopback()
}

// callContext is the context a tool's work runs under: not the SDK's
// (a stdio client's cancellation does not end a run: --timeout does),
// but ended when the server's shutdown grace is over, and, over HTTP,
// when the client's request ends (it disconnected: nobody will read the
// result).
func (s *Server) callContext(ctx context.Context, req *mcp.CallToolRequest) (context.Context, func()) {
	c, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stops := []func() bool{context.AfterFunc(s.calls, cancel)}
	if req != nil && req.Extra != nil && req.Extra.Header != nil {
		if id := req.Extra.Header.Get(callHeader); id != "" {
			if rc, ok := s.httpCalls.Load(id); ok {
				stops = append(stops, context.AfterFunc(rc.(context.Context), cancel))
			} else {
				cancel() // the request ended before its call started
			}
		}
	}
	return c, func() {
		for _, stop := range stops {
			stop()
		}
		cancel()
	}
}

// errCancelled is a call's error when its client went away or the
// server shut down before it could start.
var errCancelled = errors.New("the call was cancelled: the client disconnected or the server is shutting down")

// answerHook runs its hook just before the first byte of the answer goes
// out.
type answerHook struct {
	http.ResponseWriter
	before func()
}

func (h *answerHook) WriteHeader(code int) {
	h.before()
	h.ResponseWriter.WriteHeader(code)
}

func (h *answerHook) Write(b []byte) (int, error) {
	h.before()
	return h.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's flusher.
func (h *answerHook) Unwrap() http.ResponseWriter { return h.ResponseWriter }
