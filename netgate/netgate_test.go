package netgate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/policy"
)

// testServer answers /hello, /echo (method, a header and the body),
// /status/N, /redirect?to=URL and /big (2 KiB).
func testServer(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/hello", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello\n") })
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "%s %s x=%s body=%s", r.Method, r.URL.RequestURI(), r.Header.Get("X-Test"), b)
	})
	mux.HandleFunc("/status/404", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "nope", 404) })
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(strings.Repeat("x", 2048))) })
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, strings.TrimPrefix(srv.URL, "http://")
}

func gate(t *testing.T, cfg Config, allow ...string) *Gate {
	t.Helper()
	for _, a := range allow {
		na, err := policy.ParseNetAllow(a)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Allow = append(cfg.Allow, na)
	}
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	return g
}

func do(g builtins.Net, method, u string, follow bool) (*builtins.NetResponse, *builtins.NetError) {
	resp, err := g.Do(context.Background(), &builtins.NetRequest{Method: method, URL: u, FollowRedirects: follow,
		Header: [][2]string{{"X-Test", "t1"}}, Body: map[bool][]byte{true: []byte("data")}[method == "POST"]})
	if err != nil {
		var ne *builtins.NetError
		if !errors.As(err, &ne) {
			return nil, &builtins.NetError{Kind: "not a NetError", Msg: err.Error()}
		}
		return nil, ne
	}
	return resp, nil
}

func TestGateAllows(t *testing.T) {
	// The host's proxy variables must not matter: the gate reaches the
	// server directly or not at all.
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:1")
	t.Setenv("http_proxy", "http://127.0.0.1:1")
	srv, hp := testServer(t)
	g := gate(t, Config{}, hp)
	resp, ne := do(g, "GET", srv.URL+"/hello", false)
	if ne != nil || resp.Status != 200 || string(resp.Body) != "hello\n" {
		t.Fatalf("GET: %+v %v", resp, ne)
	}
	if len(resp.Hops) != 1 || resp.Hops[0].Bytes != 6 || resp.Hops[0].Status != 200 {
		t.Errorf("hops: %+v", resp.Hops)
	}
	resp, ne = do(g, "POST", srv.URL+"/echo?q=1", false)
	if ne != nil || string(resp.Body) != "POST /echo?q=1 x=t1 body=data" {
		t.Fatalf("POST: %+v %v", resp, ne)
	}
	// A redirect inside the allow list is followed with -L, and not
	// without it.
	to := url.QueryEscape(srv.URL + "/hello")
	resp, ne = do(g, "GET", srv.URL+"/redirect?to="+to, true)
	if ne != nil || string(resp.Body) != "hello\n" || len(resp.Hops) != 2 || resp.Hops[0].Status != 302 {
		t.Fatalf("redirect: %+v %v", resp, ne)
	}
	resp, ne = do(g, "GET", srv.URL+"/redirect?to="+to, false)
	if ne != nil || resp.Status != 302 || len(resp.Hops) != 1 {
		t.Fatalf("redirect not followed: %+v %v", resp, ne)
	}
}

func TestGateRefuses(t *testing.T) {
	srv, hp := testServer(t)
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]
	// localhost is allowed by name, and resolves to 127.0.0.1: the
	// connect-time check refuses it, because no entry names the literal
	// loopback address.
	g := gate(t, Config{MaxBytes: 1024}, hp, "localhost:"+port, "10.0.0.0")
	for _, c := range []struct {
		name, url string
		follow    bool
		kind      builtins.NetErrorKind
		msg       string
	}{
		{"private address", "http://10.1.2.3/", false, builtins.NetRestricted, "10.1.2.3: restricted"},
		{"metadata", "http://169.254.169.254/latest/meta-data/", false, builtins.NetRestricted, "169.254.169.254: restricted"},
		{"name resolving to loopback", "http://localhost:" + port + "/hello", false, builtins.NetRestricted, "localhost: restricted: resolves to 127.0.0.1, a loopback address"},
		{"other port", "http://127.0.0.1:1/", false, builtins.NetRestricted, "127.0.0.1: restricted"},
		{"redirect to a denied host", srv.URL + "/redirect?to=" + url.QueryEscape("http://10.9.9.9/"), true, builtins.NetRestricted, "redirect to 10.9.9.9: restricted"},
		{"redirect to metadata", srv.URL + "/redirect?to=" + url.QueryEscape("http://169.254.169.254/"), true, builtins.NetRestricted, "169.254.169.254: restricted"},
		{"redirect to a name resolving to loopback", srv.URL + "/redirect?to=" + url.QueryEscape("http://localhost:"+port+"/hello"), true, builtins.NetRestricted, "localhost: restricted: resolves"},
		{"too big", srv.URL + "/big", false, builtins.NetTooBig, "larger than 1024 bytes"},
		{"scheme", "ftp://" + hp + "/", false, builtins.NetURL, "not supported"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, ne := do(g, "GET", c.url, c.follow)
			if ne == nil {
				t.Fatalf("not refused: %+v", resp)
			}
			if ne.Kind != c.kind || !strings.Contains(ne.Msg, c.msg) {
				t.Errorf("got %s %q, want %s containing %q", ne.Kind, ne.Msg, c.kind, c.msg)
			}
		})
	}
}

func TestGateLimits(t *testing.T) {
	srv, hp := testServer(t)
	g := gate(t, Config{MaxRequests: 2}, hp)
	for i := 0; i < 2; i++ {
		if _, ne := do(g, "GET", srv.URL+"/hello", false); ne != nil {
			t.Fatal(ne)
		}
	}
	if _, ne := do(g, "GET", srv.URL+"/hello", false); ne == nil || ne.Kind != builtins.NetTooMany {
		t.Fatalf("third request: %v", ne)
	}
	// Each redirect hop is a request.
	g = gate(t, Config{MaxRequests: 1}, hp)
	to := url.QueryEscape(srv.URL + "/hello")
	if _, ne := do(g, "GET", srv.URL+"/redirect?to="+to, true); ne == nil || ne.Kind != builtins.NetTooMany {
		t.Fatalf("redirect past the limit: %v", ne)
	}
}

func TestAllowEntries(t *testing.T) {
	for _, c := range []struct {
		entry              string
		scheme, host, path string
		port               int
		want               bool
	}{
		{"example.com", "https", "example.com", "/", 443, true},
		{"example.com", "http", "example.com", "/", 80, true},
		{"example.com", "http", "example.com", "/", 8080, false},
		{"example.com", "http", "www.example.com", "/", 80, false},
		{"*.example.com", "http", "www.example.com", "/", 80, true},
		{"*.example.com", "http", "example.com", "/", 80, false},
		{"*.example.com", "http", "evilexample.com", "/", 80, false},
		{"example.com:8080", "http", "example.com", "/", 8080, true},
		{"https://example.com/v1", "https", "example.com", "/v1/x", 443, true},
		{"https://example.com/v1", "https", "example.com", "/v1", 443, true},
		{"https://example.com/v1", "https", "example.com", "/v10", 443, false},
		{"https://example.com/v1", "http", "example.com", "/v1", 80, false},
		{"https://example.com/v1/", "https", "example.com", "/v1/a", 443, true},
		{"[::1]:80", "http", "::1", "/", 80, true},
		{"127.0.0.1:8080", "http", "127.0.0.1", "/", 8080, true},
	} {
		a, err := policy.ParseNetAllow(c.entry)
		if err != nil {
			t.Fatalf("%s: %v", c.entry, err)
		}
		if got := a.Allows(c.scheme, c.host, c.port, c.path); got != c.want {
			t.Errorf("%s allows %s://%s:%d%s = %v, want %v", c.entry, c.scheme, c.host, c.port, c.path, got, c.want)
		}
	}
	for _, bad := range []string{"", "ftp://x", "http://u:p@x/", "x/y", "x:0", "x:70000", "[::1", "exa mple.com", "héllo.com", "fe80::1%eth0"} {
		if _, err := policy.ParseNetAllow(bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}

func TestSpecial(t *testing.T) {
	for _, c := range []struct {
		ip, kind string
	}{
		{"127.0.0.1", "loopback"}, {"127.9.9.9", "loopback"}, {"::1", "loopback"}, {"::ffff:127.0.0.1", "loopback"},
		{"10.1.2.3", "private"}, {"172.16.0.1", "private"}, {"172.31.255.255", "private"}, {"192.168.1.1", "private"},
		{"fc00::1", "private"}, {"fd12::1", "private"}, {"169.254.169.254", "link-local"}, {"fe80::1", "link-local"},
		{"224.0.0.1", "multicast"}, {"ff02::1", "multicast"}, {"0.0.0.0", "unspecified"}, {"::", "unspecified"},
		{"100.64.0.1", "shared (CGNAT)"}, {"255.255.255.255", "broadcast"}, {"64:ff9b::a00:1", "NAT64"},
		{"8.8.8.8", ""}, {"2606:4700::1111", ""}, {"172.32.0.1", ""}, {"100.128.0.1", ""},
	} {
		if got := Special(netip.MustParseAddr(c.ip)); got != c.kind {
			t.Errorf("Special(%s) = %q, want %q", c.ip, got, c.kind)
		}
	}
}

// TestBroker runs requests through Serve and Remote, as the worker and
// the parent do over their pipes.
func TestBroker(t *testing.T) {
	srv, hp := testServer(t)
	g := gate(t, Config{MaxBytes: 1024}, hp)
	reqR, reqW := io.Pipe()
	respR, respW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { Serve(ctx, g, reqR, respW); close(done) }()
	rm := NewRemote(respR, reqW, 1024)
	resp, ne := do(rm, "POST", srv.URL+"/echo", false)
	if ne != nil || string(resp.Body) != "POST /echo x=t1 body=data" {
		t.Fatalf("%+v %v", resp, ne)
	}
	if _, ne := do(rm, "GET", "http://10.0.0.1/", false); ne == nil || ne.Kind != builtins.NetRestricted || ne.Host != "10.0.0.1" {
		t.Fatalf("refusal through the broker: %+v", ne)
	}
	if _, ne := do(rm, "GET", srv.URL+"/big", false); ne == nil || ne.Kind != builtins.NetTooBig {
		t.Fatalf("too big through the broker: %+v", ne)
	}
	_, err := rm.Do(ctx, &builtins.NetRequest{Method: "POST", URL: srv.URL + "/echo", Body: make([]byte, 2048)})
	if ne := builtins.AsNetError(err); ne.Kind != builtins.NetTooBig {
		t.Fatalf("big body: %v", err)
	}
	// A worker that sends garbage or a huge frame header does not stop
	// the broker.
	reqW.Write([]byte{0, 0, 0, 3, 'x', 'y', 'z'})
	if resp, ne := do(rm, "GET", srv.URL+"/hello", false); ne != nil || string(resp.Body) != "hello\n" {
		t.Fatalf("after garbage: %+v %v", resp, ne)
	}
	cancel()
	reqW.Close()
	<-done
	if _, ne := do(rm, "GET", srv.URL+"/hello", false); ne == nil {
		t.Fatal("a request after the broker ended got an answer")
	}
}

// TestGateNeverProxies: the host's proxy variables never route a request
// through the host's proxy, also for a destination Go's environment proxy
// would route (a name that is not loopback; Go never proxies loopback, so
// TestGateAllows alone cannot tell). The proxy is reachable, as an allow
// entry names its address; the request must instead fail at the fake
// resolver, the only way to the name.
func TestGateNeverProxies(t *testing.T) {
	var hits atomic.Int64
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, "proxied\n")
	}))
	t.Cleanup(proxy.Close)
	for _, v := range []string{"HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"} {
		t.Setenv(v, proxy.URL)
	}
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")
	noDNS := &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
		return nil, errors.New("no DNS in this test")
	}}
	g := gate(t, Config{Resolver: noDNS}, "example.test", strings.TrimPrefix(proxy.URL, "http://"))
	resp, ne := do(g, "GET", "http://example.test/hello", false)
	if hits.Load() != 0 {
		t.Fatalf("the request went through the host's proxy (%d hits): %+v", hits.Load(), resp)
	}
	if ne == nil || ne.Kind != builtins.NetResolve {
		t.Fatalf("got %+v %v, want the resolver's failure: the gate must dial example.test itself", resp, ne)
	}
}

// TestCredentials: the gate's header replaces the script's on a request
// the credential covers, and a redirect away from it does not carry it.
func TestCredentials(t *testing.T) {
	srv, hp := testServer(t)
	cred := func(prefix string) Credential {
		c, err := policy.ParseNetAllow(srv.URL + prefix)
		if err != nil {
			t.Fatal(err)
		}
		return Credential{Cover: c, Header: "X-Test", Value: "SECRET"}
	}
	g := gate(t, Config{Credentials: []Credential{cred("/echo")}}, hp)
	resp, ne := do(g, "GET", srv.URL+"/echo", false)
	if ne != nil || string(resp.Body) != "GET /echo x=SECRET body=" {
		t.Fatalf("covered: %v %q", ne, resp.Body)
	}
	g = gate(t, Config{Credentials: []Credential{cred("/redirect")}}, hp)
	resp, ne = do(g, "GET", srv.URL+"/redirect?to=/echo", true)
	if ne != nil || string(resp.Body) != "GET /echo x= body=" {
		t.Fatalf("redirect away from the credential: %v %q", ne, resp.Body)
	}
	// Methods and a deny entry, with their reasons.
	a, _ := policy.NetEntry{URL: srv.URL + "/echo", Methods: []string{"GET"}, Reason: "read only"}.Parse()
	d, _ := policy.NetEntry{URL: srv.URL + "/hello", Reason: "not this"}.Parse()
	hello, _ := policy.ParseNetAllow(srv.URL + "/hello")
	g = gate(t, Config{Allow: []policy.NetAllow{a, hello}, Deny: []policy.NetAllow{d}})
	if _, ne := do(g, "POST", srv.URL+"/echo", false); ne == nil || !strings.Contains(ne.Msg, "method POST is not allowed") || !strings.HasSuffix(ne.Msg, ": read only") {
		t.Errorf("POST: %v", ne)
	}
	if _, ne := do(g, "GET", srv.URL+"/hello", false); ne == nil || !strings.HasSuffix(ne.Msg, "denied by the policy ("+srv.URL+"/hello): not this") {
		t.Errorf("deny: %v", ne)
	}
}

// TestBrokerFrameBound: a frame from the worker over the bound (about
// --max-net-bytes as base64 plus a slack) is dropped unread, even when it
// holds a well-formed request: the parent never decodes, nor answers,
// more than the bound, whatever the worker claims.
func TestBrokerFrameBound(t *testing.T) {
	srv, hp := testServer(t)
	g := gate(t, Config{MaxBytes: 1024}, hp)
	reqR, reqW := io.Pipe()
	respR, respW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go Serve(ctx, g, reqR, respW)
	send := func(id uint64, body []byte) {
		go writeFrame(reqW, brokerRequest{ID: id, Req: &builtins.NetRequest{Method: "POST", URL: srv.URL + "/echo", Body: body}})
	}
	send(7, make([]byte, maxFrameSlack+4096)) // over the bound
	time.Sleep(50 * time.Millisecond)
	send(8, []byte("a"))
	seen := map[uint64]bool{}
	frames := make(chan uint64)
	go func() {
		for {
			data, err := readFrame(respR, 1<<30)
			if err != nil {
				close(frames)
				return
			}
			var resp brokerResponse
			json.Unmarshal(data, &resp)
			frames <- resp.ID
		}
	}()
	deadline := time.After(2 * time.Second)
	for !seen[8] || len(seen) < 2 {
		select {
		case id := <-frames:
			seen[id] = true
		case <-deadline:
			if !seen[8] {
				t.Fatal("the broker stopped answering after an oversized frame")
			}
			if seen[7] {
				t.Fatal("the broker read and answered a frame over its bound")
			}
			return
		}
		if seen[7] {
			t.Fatal("the broker read and answered a frame over its bound")
		}
	}
}
