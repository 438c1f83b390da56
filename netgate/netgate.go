// Package netgate is sandsh's one door to the network: the only package
// that opens sockets (boundary_test.go enforces it). curl and wget in the
// sandbox hand it whole HTTP requests (builtins.Net); it performs those
// the operator's allow list covers and refuses everything else.
//
// Walls, in the order a request meets them:
//
//  1. the URL: http or https, and a host (and port, and path prefix when
//     the entry has one) that an allow entry covers;
//  2. every address the host resolves to is checked when the socket
//     connects (net.Dialer.ControlContext), so a name that resolves to a
//     public address for the check and to 127.0.0.1 for the connection
//     gains nothing: loopback, private, link-local (169.254.169.254),
//     multicast, unspecified, CGNAT and other special addresses are
//     refused unless the URL names that literal address and an allow
//     entry names it too;
//  3. redirects are re-checked like the first request (CheckRedirect);
//  4. the host's proxy variables are ignored (Transport.Proxy is nil);
//  5. every response body is bounded (MaxBytes), every request in time
//     (Timeout) and the run's requests in number (MaxRequests).
//
// In a supervised run the gate lives in the parent sandsh and the
// confined worker reaches it over a pipe (Serve, Remote): the process
// running the script never holds a socket.
package netgate

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/policy"
)

// Defaults of the limits (the flags' defaults).
const (
	DefaultMaxRequests = 1000
	DefaultMaxBytes    = 64 << 20
	DefaultTimeout     = 30 * time.Second
	// maxRedirects bounds a redirect chain whatever curl --max-redirs says.
	maxRedirects = 20
	// maxInFlight bounds concurrent requests (background jobs).
	maxInFlight = 16
	// maxHeaderBytes bounds a response's header block.
	maxHeaderBytes = 1 << 20
)

// Config is what a Gate allows.
type Config struct {
	Allow []policy.NetAllow
	// Deny refuses what an entry covers, before Allow is looked at.
	Deny []policy.NetAllow
	// Credentials are headers added to the requests they cover, after
	// the checks, in place of the script's header of the same name.
	Credentials []Credential
	// MaxRequests bounds the requests of the run, redirects included (0:
	// no bound); MaxBytes one response body (0: no bound); Timeout one
	// request, redirects included (0: no bound but the run's).
	MaxRequests int64
	MaxBytes    int64
	Timeout     time.Duration
	// Resolver, when set, replaces the system resolver (tests).
	Resolver *net.Resolver
	// RootCAs, when set, replaces the host's CA roots (tests).
	RootCAs *x509.CertPool
}

// Credential is one header the gate adds: Value never leaves the gate
// (not in a response, a refusal or the audit log).
type Credential struct {
	Cover  policy.NetAllow
	Header string
	Value  string
}

// Gate performs the requests its Config allows. Safe for concurrent use.
type Gate struct {
	cfg       Config
	transport *http.Transport
	requests  atomic.Int64
	inFlight  chan struct{}
}

// New returns a gate. The host's CA roots are read here, by the process
// that may read host files (the parent sandsh), not by the confined
// worker.
func New(cfg Config) (*Gate, error) {
	roots := cfg.RootCAs
	if roots == nil {
		var err error
		if roots, err = x509.SystemCertPool(); err != nil {
			return nil, fmt.Errorf("netgate: the host's CA roots: %w", err)
		}
	}
	g := &Gate{cfg: cfg, inFlight: make(chan struct{}, maxInFlight)}
	dialer := &net.Dialer{Timeout: 30 * time.Second, Resolver: cfg.Resolver, ControlContext: g.control}
	g.transport = &http.Transport{
		Proxy:                  nil, // the host's *_proxy variables are not the sandbox's
		DialContext:            g.dialer(dialer),
		TLSClientConfig:        &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
		ForceAttemptHTTP2:      true,
		DisableCompression:     true, // curl's bytes as the server sent them, no inflation
		MaxResponseHeaderBytes: maxHeaderBytes,
		TLSHandshakeTimeout:    15 * time.Second,
		IdleConnTimeout:        30 * time.Second,
		MaxIdleConns:           8,
	}
	return g, nil
}

// Close drops the idle connections.
func (g *Gate) Close() { g.transport.CloseIdleConnections() }

// literalKey carries, through the dial, the literal address the URL named
// (if any): the one special address the connection may reach.
type literalKey struct{}

// dialer wraps the net.Dialer: it names the host in refusals and tells
// the connect-time check which literal address the request named.
func (g *Gate) dialer(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		if a, err := netip.ParseAddr(host); err == nil {
			ctx = context.WithValue(ctx, literalKey{}, a.Unmap())
		}
		c, err := d.DialContext(ctx, network, addr)
		var re *refusal
		if errors.As(err, &re) {
			re.host = host
			return nil, re
		}
		return c, err
	}
}

// refusal is an address the connect-time check refused.
type refusal struct {
	host string // the name or address the URL gave
	addr netip.Addr
	kind string
}

func (r *refusal) Error() string {
	if r.host != "" && r.host != r.addr.String() {
		return fmt.Sprintf("%s: restricted: resolves to %s, a %s address (only an --allow-net entry naming that literal address reaches it)", r.host, r.addr, r.kind)
	}
	return fmt.Sprintf("%s: restricted: a %s address (only an --allow-net entry naming that literal address reaches it)", r.addr, r.kind)
}

// control runs for every address the dialer tries, after resolution and
// before connect: the check cannot be raced by a second DNS answer.
func (g *Gate) control(ctx context.Context, network, address string, _ syscall.RawConn) error {
	if network != "tcp4" && network != "tcp6" {
		return &refusal{kind: "non-TCP (" + network + ")"}
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &refusal{kind: "unparsable"}
	}
	ip := ap.Addr().Unmap()
	kind := Special(ip)
	if kind == "" {
		return nil
	}
	if lit, ok := ctx.Value(literalKey{}).(netip.Addr); ok && lit == ip && g.namesLiteral(ip) {
		return nil
	}
	return &refusal{addr: ip, kind: kind}
}

// namesLiteral reports whether an allow entry names ip itself.
func (g *Gate) namesLiteral(ip netip.Addr) bool {
	for _, a := range g.cfg.Allow {
		if a.Addr.IsValid() && a.Addr == ip {
			return true
		}
	}
	return false
}

var specialPrefixes = []struct {
	p    netip.Prefix
	kind string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "this-network"},
	{netip.MustParsePrefix("100.64.0.0/10"), "shared (CGNAT)"},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},
	// IPv6 forms that carry an IPv4 address a gateway may forward to.
	{netip.MustParsePrefix("64:ff9b::/96"), "NAT64"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "NAT64"},
	{netip.MustParsePrefix("2002::/16"), "6to4"},
	{netip.MustParsePrefix("2001::/32"), "Teredo"},
	{netip.MustParsePrefix("::/96"), "IPv4-compatible"},
}

// Special names the kind of a loopback, private, link-local, multicast,
// unspecified or otherwise non-public address, or returns "" for a public
// one.
func Special(ip netip.Addr) string {
	ip = ip.Unmap()
	switch {
	case !ip.IsValid():
		return "invalid"
	case ip.IsUnspecified():
		return "unspecified"
	case ip.IsLoopback():
		return "loopback"
	case ip.IsPrivate():
		return "private"
	case ip.IsLinkLocalUnicast():
		return "link-local"
	case ip.IsMulticast(), ip.IsLinkLocalMulticast(), ip.IsInterfaceLocalMulticast():
		return "multicast"
	case ip.Is4() && ip == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return "broadcast"
	}
	for _, s := range specialPrefixes {
		if s.p.Contains(ip) {
			return s.kind
		}
	}
	return ""
}

// target is a URL's parts as the allow list compares them.
type target struct {
	scheme, host, path string
	port               int
}

func parseTarget(u *url.URL) (target, *builtins.NetError) {
	t := target{scheme: strings.ToLower(u.Scheme)}
	if t.scheme != "http" && t.scheme != "https" {
		return t, &builtins.NetError{Kind: builtins.NetURL, Msg: fmt.Sprintf("Protocol %q not supported", u.Scheme)}
	}
	t.host = strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if t.host == "" {
		return t, &builtins.NetError{Kind: builtins.NetURL, Msg: "URL rejected: No host part in the URL"}
	}
	if a, err := netip.ParseAddr(t.host); err == nil {
		t.host = a.Unmap().String()
	}
	t.port = policy.DefaultPort(t.scheme)
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return t, &builtins.NetError{Kind: builtins.NetURL, Msg: fmt.Sprintf("URL rejected: Port number %q not valid", p)}
		}
		t.port = n
	}
	t.path = u.EscapedPath()
	return t, nil
}

// cleanPath puts u's path in the one form the allow list compares and
// the server receives (policy.CleanURLPath), or refuses it. Checking one
// form and sending another would let /v1/../secret pass a /v1/ prefix.
func cleanPath(u *url.URL) *builtins.NetError {
	if u.Opaque != "" {
		return &builtins.NetError{Kind: builtins.NetURL, Msg: "URL rejected: Malformed input to a URL function"}
	}
	clean, err := policy.CleanURLPath(u.EscapedPath())
	if err != nil {
		host := strings.ToLower(u.Hostname())
		return &builtins.NetError{Kind: builtins.NetRestricted, Host: host, URL: redacted(u),
			Msg: fmt.Sprintf("%s: restricted: %v", host, err)}
	}
	plain, err := url.PathUnescape(clean)
	if err != nil {
		return &builtins.NetError{Kind: builtins.NetURL, Msg: "URL rejected: Malformed input to a URL function"}
	}
	u.Path, u.RawPath = plain, clean
	return nil
}

// check cleans u's path and refuses a URL a deny entry covers or no allow
// entry covers with this method and a body of n bytes.
func (g *Gate) check(u *url.URL, method string, n int64) *builtins.NetError {
	if ne := cleanPath(u); ne != nil {
		return ne
	}
	t, ne := parseTarget(u)
	if ne != nil {
		return ne
	}
	for _, d := range g.cfg.Deny {
		if d.Allows(t.scheme, t.host, t.port, t.path) {
			why := fmt.Sprintf("%s: restricted: %s://%s%s is denied by the policy (%s)", t.host, t.scheme,
				net.JoinHostPort(t.host, strconv.Itoa(t.port)), t.path, d.Entry)
			if d.Reason != "" {
				why += ": " + d.Reason
			}
			return &builtins.NetError{Kind: builtins.NetRestricted, Host: t.host, URL: redacted(u), Msg: why}
		}
	}
	refusal := ""
	for _, a := range g.cfg.Allow {
		if a.Allows(t.scheme, t.host, t.port, t.path) {
			why, ok := a.AllowsRequest(method, n)
			if ok {
				return nil
			}
			if refusal == "" {
				refusal = why
			}
		}
	}
	if refusal != "" {
		return &builtins.NetError{Kind: builtins.NetRestricted, Host: t.host, URL: redacted(u),
			Msg: fmt.Sprintf("%s: restricted: %s", t.host, refusal)}
	}
	hp := net.JoinHostPort(t.host, strconv.Itoa(t.port))
	return &builtins.NetError{Kind: builtins.NetRestricted, Host: t.host, URL: redacted(u),
		Msg: fmt.Sprintf("%s: restricted: %s://%s%s is not in the allow list (--allow-net)", t.host, t.scheme, hp, t.path)}
}

// credentials sets the headers of the credentials that cover u, over the
// script's own, and first takes away every header it set on an earlier
// hop (sent; a redirect copies the first request's headers): a redirect
// elsewhere never carries one. It returns every header it has set.
func (g *Gate) credentials(u *url.URL, h http.Header, sent []string) []string {
	if len(g.cfg.Credentials) == 0 {
		return nil
	}
	for _, name := range sent {
		h.Del(name)
	}
	t, ne := parseTarget(u)
	if ne != nil {
		return sent
	}
	for _, c := range g.cfg.Credentials {
		if c.Cover.Allows(t.scheme, t.host, t.port, t.path) {
			h.Set(c.Header, c.Value)
			if !slices.Contains(sent, c.Header) {
				sent = append(sent, c.Header)
			}
		}
	}
	return sent
}

// count charges one request against MaxRequests.
func (g *Gate) count() *builtins.NetError {
	n := g.requests.Add(1)
	if g.cfg.MaxRequests > 0 && n > g.cfg.MaxRequests {
		return &builtins.NetError{Kind: builtins.NetTooMany,
			Msg: fmt.Sprintf("restricted: more than %d requests (the --max-net-requests limit)", g.cfg.MaxRequests)}
	}
	return nil
}

// redacted is a URL for messages and the audit log: no password.
func redacted(u *url.URL) string { return u.Redacted() }

// Do performs one request (and its redirects, when asked).
func (g *Gate) Do(ctx context.Context, req *builtins.NetRequest) (*builtins.NetResponse, error) {
	u, err := url.Parse(req.URL)
	if err != nil {
		return nil, &builtins.NetError{Kind: builtins.NetURL, Msg: "URL rejected: Malformed input to a URL function"}
	}
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	if ne := g.check(u, method, int64(len(req.Body))); ne != nil {
		return nil, ne
	}
	if ne := g.count(); ne != nil {
		return nil, ne
	}
	select {
	case g.inFlight <- struct{}{}:
		defer func() { <-g.inFlight }()
	case <-ctx.Done():
		return nil, builtins.AsNetError(ctx.Err())
	}
	timeout := g.cfg.Timeout
	if req.Timeout > 0 && (timeout == 0 || req.Timeout < timeout) {
		timeout = req.Timeout
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	var body io.Reader
	if req.Body != nil {
		body = bytes.NewReader(req.Body)
	}
	hr, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return nil, &builtins.NetError{Kind: builtins.NetURL, Msg: err.Error()}
	}
	for _, h := range req.Header {
		if strings.EqualFold(h[0], "Host") {
			hr.Host = h[1]
			continue
		}
		hr.Header.Add(h[0], h[1])
	}
	sent := g.credentials(hr.URL, hr.Header, nil)
	var hops []builtins.NetHop
	maxRedirs := req.MaxRedirects
	if maxRedirs <= 0 || maxRedirs > maxRedirects {
		maxRedirs = maxRedirects
	}
	client := &http.Client{
		Transport: g.transport,
		CheckRedirect: func(next *http.Request, via []*http.Request) error {
			prev := via[len(via)-1]
			st := 0
			if next.Response != nil {
				st = next.Response.StatusCode
			}
			hops = append(hops, builtins.NetHop{Method: prev.Method, URL: redacted(prev.URL), Status: st})
			if !req.FollowRedirects {
				return http.ErrUseLastResponse
			}
			if len(via) > maxRedirs {
				return &builtins.NetError{Kind: builtins.NetRedirects, Msg: fmt.Sprintf("Maximum (%d) redirects followed", maxRedirs)}
			}
			if ne := g.check(next.URL, next.Method, max(next.ContentLength, 0)); ne != nil {
				ne.Msg = "redirect to " + ne.Msg
				return ne
			}
			sent = g.credentials(next.URL, next.Header, sent)
			if ne := g.count(); ne != nil {
				return ne
			}
			return nil
		},
	}
	resp, err := client.Do(hr)
	if err != nil {
		ne := classify(err, u)
		var fromRedirect *builtins.NetError
		if !errors.As(err, &fromRedirect) {
			// The request was made and failed (refused at connect time,
			// unreachable): it is a hop too. A redirect CheckRedirect
			// refused was never requested.
			hops = append(hops, failedHop(err, method, u))
		}
		ne.Hops = hops
		return nil, ne
	}
	defer resp.Body.Close()
	if hops != nil && !req.FollowRedirects {
		hops = hops[:len(hops)-1] // not followed: the final response is that hop
	}
	out := &builtins.NetResponse{Status: resp.StatusCode, Proto: resp.Proto, URL: redacted(resp.Request.URL),
		StatusText: strings.TrimSpace(strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode)))}
	for k, vs := range resp.Header {
		for _, v := range vs {
			out.Header = append(out.Header, [2]string{k, v})
		}
	}
	sortHeader(out.Header)
	hop := builtins.NetHop{Method: resp.Request.Method, URL: out.URL, Status: resp.StatusCode}
	if g.cfg.MaxBytes > 0 && resp.ContentLength > g.cfg.MaxBytes {
		hops = append(hops, hop)
		return nil, tooBig(g.cfg.MaxBytes, hops)
	}
	r := io.Reader(resp.Body)
	if g.cfg.MaxBytes > 0 {
		r = io.LimitReader(resp.Body, g.cfg.MaxBytes+1)
	}
	data, err := io.ReadAll(r)
	hop.Bytes = int64(len(data))
	hops = append(hops, hop)
	if err != nil {
		ne := classify(err, u)
		ne.Hops = hops
		return nil, ne
	}
	if g.cfg.MaxBytes > 0 && int64(len(data)) > g.cfg.MaxBytes {
		return nil, tooBig(g.cfg.MaxBytes, hops)
	}
	out.Body, out.Hops = data, hops
	return out, nil
}

func tooBig(max int64, hops []builtins.NetHop) *builtins.NetError {
	return &builtins.NetError{Kind: builtins.NetTooBig, Hops: hops,
		Msg: fmt.Sprintf("restricted: response larger than %d bytes (the --max-net-bytes limit)", max)}
}

// failedHop is the request that failed: a url.Error names it.
func failedHop(err error, method string, u *url.URL) builtins.NetHop {
	var ue *url.Error
	if errors.As(err, &ue) {
		if pu, perr := url.Parse(ue.URL); perr == nil {
			return builtins.NetHop{Method: strings.ToUpper(ue.Op), URL: redacted(pu)}
		}
	}
	return builtins.NetHop{Method: method, URL: redacted(u)}
}

// classify turns a client error into a NetError curl and wget can map.
func classify(err error, u *url.URL) *builtins.NetError {
	var ne *builtins.NetError
	if errors.As(err, &ne) {
		return ne
	}
	var re *refusal
	if errors.As(err, &re) {
		host := re.host
		if host == "" {
			host = re.addr.String()
		}
		return &builtins.NetError{Kind: builtins.NetRestricted, Host: host, Msg: re.Error()}
	}
	host := u.Hostname()
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	var hostErr x509.HostnameError
	var uaErr x509.UnknownAuthorityError
	var ciErr x509.CertificateInvalidError
	var rhErr tls.RecordHeaderError
	var netErr net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &netErr) && netErr.Timeout():
		return &builtins.NetError{Kind: builtins.NetTimeout, Host: host, Msg: "Operation timed out"}
	case errors.Is(err, context.Canceled):
		return &builtins.NetError{Kind: builtins.NetOther, Host: host, Msg: "Operation cancelled"}
	case errors.As(err, &dnsErr):
		return &builtins.NetError{Kind: builtins.NetResolve, Host: host, Msg: "Could not resolve host: " + host}
	case errors.As(err, &certErr), errors.As(err, &hostErr), errors.As(err, &uaErr), errors.As(err, &ciErr), errors.As(err, &rhErr):
		return &builtins.NetError{Kind: builtins.NetTLS, Host: host, Msg: "SSL certificate problem: " + innermost(err)}
	case errors.Is(err, syscall.ECONNREFUSED):
		return &builtins.NetError{Kind: builtins.NetConnect, Host: host,
			Msg: fmt.Sprintf("Failed to connect to %s port %s: Connection refused", host, portOf(u))}
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Op == "dial" {
		return &builtins.NetError{Kind: builtins.NetConnect, Host: host,
			Msg: fmt.Sprintf("Failed to connect to %s port %s: %s", host, portOf(u), innermost(err))}
	}
	return &builtins.NetError{Kind: builtins.NetOther, Host: host, Msg: innermost(err)}
}

func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	return strconv.Itoa(policy.DefaultPort(u.Scheme))
}

// innermost is the deepest error's text, without Go's "Get \"url\": dial
// tcp …:" prefixes.
func innermost(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}

func sortHeader(h [][2]string) {
	// The order must not depend on map iteration.
	slices.SortStableFunc(h, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
}
