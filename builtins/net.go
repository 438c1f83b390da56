package builtins

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/spf13/afero"
)

// Net is the sandbox's one way to the network: curl and wget hand it a
// whole request and get a whole, bounded response. The implementation
// (package netgate, or the worker's pipe to the parent, which runs
// netgate) decides which hosts may be reached; commands never dial.
// Env.Net is nil when the run has no network allowance.
type Net interface {
	Do(ctx context.Context, req *NetRequest) (*NetResponse, error)
}

// NetRequest is one HTTP request as curl or wget build it.
type NetRequest struct {
	Method string      `json:"method"`
	URL    string      `json:"url"`
	Header [][2]string `json:"header,omitempty"`
	Body   []byte      `json:"body,omitempty"`
	// FollowRedirects follows up to MaxRedirects redirects, each checked
	// against the allow list like the first request.
	FollowRedirects bool `json:"follow,omitempty"`
	MaxRedirects    int  `json:"maxRedirects,omitempty"`
	// Timeout bounds this request (curl --max-time); the gate's own
	// per-request bound applies as well. 0: only the gate's.
	Timeout time.Duration `json:"timeout,omitempty"`
}

// NetResponse is the final response of a request (after redirects).
type NetResponse struct {
	Status int    `json:"status"`
	Proto  string `json:"proto"` // "HTTP/1.1"
	// StatusText is the reason phrase ("OK", "Not Found").
	StatusText string      `json:"statusText"`
	Header     [][2]string `json:"header,omitempty"`
	Body       []byte      `json:"body,omitempty"`
	URL        string      `json:"url"` // the final URL
	// Hops lists every request made, redirects included, for the audit
	// log and curl -w %{num_redirects}.
	Hops []NetHop `json:"hops,omitempty"`
}

// NetHop is one request of a redirect chain.
type NetHop struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	Status int    `json:"status"`
	Bytes  int64  `json:"bytes"`
}

// NetError is a request that did not get a response. Kind says why, in
// terms curl and wget map to their exit statuses.
type NetError struct {
	Kind NetErrorKind `json:"kind"`
	// Host names the host (or address) refused or unreachable.
	Host string `json:"host,omitempty"`
	// URL is the URL refused by the allow list (a redirect's target).
	URL string `json:"url,omitempty"`
	Msg string `json:"msg"`
	// Hops are the requests made before the failure (a redirect to a
	// refused host follows an allowed request).
	Hops []NetHop `json:"hops,omitempty"`
}

// NetErrorKind classifies a NetError.
type NetErrorKind string

// The kinds of NetError.
const (
	NetRestricted NetErrorKind = "restricted" // the allow list or address rules refuse it
	NetURL        NetErrorKind = "url"        // malformed or unsupported URL
	NetResolve    NetErrorKind = "resolve"    // the host name does not resolve
	NetConnect    NetErrorKind = "connect"    // connection refused or reset
	NetTimeout    NetErrorKind = "timeout"    // the request's time ran out
	NetTooBig     NetErrorKind = "too-big"    // the response is over --max-net-bytes
	NetTooMany    NetErrorKind = "too-many"   // over --max-net-requests
	NetRedirects  NetErrorKind = "redirects"  // more redirects than allowed
	NetTLS        NetErrorKind = "tls"        // certificate or handshake failure
	NetOther      NetErrorKind = "other"      // anything else
)

func (e *NetError) Error() string { return e.Msg }

// AsNetError returns err as a *NetError, wrapping other errors (a context
// cancelled while waiting) in one.
func AsNetError(err error) *NetError {
	var ne *NetError
	if errors.As(err, &ne) {
		return ne
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &NetError{Kind: NetTimeout, Msg: "operation timed out"}
	}
	return &NetError{Kind: NetOther, Msg: fmt.Sprint(err)}
}

// ErrNoNet is the refusal of a request to rawURL when the run has no
// network allowance; it names the --allow-net value that would let the
// request through.
func ErrNoNet(rawURL string) *NetError {
	host := netHost(rawURL)
	return &NetError{Kind: NetRestricted, Host: host,
		Msg: fmt.Sprintf("%s: restricted: this sandbox has no network (sandsh --allow-net %s allows it)", host, netAllowValue(rawURL))}
}

// netAllowValue is the --allow-net value that lets a request to rawURL
// through: the host, with its port when that is not the scheme's
// default (an entry without a port allows only 80 for http and 443 for
// https).
func netAllowValue(rawURL string) string {
	u, err := url.Parse(netURL(rawURL))
	if err != nil || u.Hostname() == "" {
		return netHost(rawURL)
	}
	switch p := u.Port(); {
	case p == "", u.Scheme == "http" && p == "80", u.Scheme == "https" && p == "443":
		if strings.Contains(u.Hostname(), ":") {
			return "[" + u.Hostname() + "]"
		}
		return u.Hostname()
	}
	return u.Host
}

// netURL gives a URL without a scheme curl's and wget's default, http.
func netURL(s string) string {
	if strings.Contains(s, "://") {
		return s
	}
	return "http://" + s
}

// netHost is the host a URL names, for refusals when there is no
// network at all.
func netHost(s string) string {
	if u, err := url.Parse(netURL(s)); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return s
}

// netDo sends req through env.Net, or refuses it when the run has no
// network.
func netDo(ctx context.Context, env *Env, req *NetRequest) (*NetResponse, *NetError) {
	if env.Net == nil {
		return nil, ErrNoNet(req.URL)
	}
	resp, err := env.Net.Do(ctx, req)
	if err != nil {
		return nil, AsNetError(err)
	}
	return resp, nil
}

// netReadData reads a request body a script names: "-" is standard
// input, anything else a sandbox file. It is bounded like a line (a body
// a script could not hold in a variable is not one it sends).
func netReadData(env *Env, name string) ([]byte, error) {
	var r io.Reader
	if name == "-" {
		r = env.Stdin
	} else {
		f, err := env.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	max := env.LineMax()
	data, err := io.ReadAll(io.LimitReader(r, int64(max)+1))
	if err != nil {
		return nil, err
	}
	if len(data) > max {
		return nil, fmt.Errorf("larger than %d bytes (the --max-var-bytes limit)", max)
	}
	return data, nil
}

// netWriteFile writes a downloaded body to a sandbox file.
func netWriteFile(env *Env, name string, data []byte) error {
	return afero.WriteFile(env.FS, env.Abs(name), data, 0o644)
}

// netRemoteName is the file name curl -O and wget take from a URL: its
// last path segment, unescaped.
func netRemoteName(raw string) string {
	u, err := url.Parse(netURL(raw))
	if err != nil {
		return ""
	}
	name := path.Base(u.Path)
	if name == "/" || name == "." {
		return ""
	}
	return name
}

// netHeaderValue returns the first value of a response header.
func netHeaderValue(h [][2]string, name string) string {
	for _, kv := range h {
		if strings.EqualFold(kv[0], name) {
			return kv[1]
		}
	}
	return ""
}
