package netgate

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path"
	"strings"
	"testing"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/policy"
)

// normalisingServer routes like the servers a path prefix must hold
// against: it decodes the path, takes a backslash for a slash, drops
// path parameters and resolves dot segments before it routes. /secret
// answers SECRET, anything under /v1/ answers "v1 PATH".
func normalisingServer(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := strings.ReplaceAll(r.URL.Path, `\`, "/")
		segs := strings.Split(p, "/")
		for i, s := range segs {
			segs[i], _, _ = strings.Cut(s, ";")
		}
		p = path.Clean("/" + strings.Join(segs, "/"))
		switch {
		case p == "/secret":
			io.WriteString(w, "SECRET\n")
		case strings.HasPrefix(p, "/v1/"):
			io.WriteString(w, "v1 "+p+"\n")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, strings.TrimPrefix(srv.URL, "http://")
}

// TestPrefixDotSegments: an allow entry's path prefix cannot be left by
// dot segments, encoded or not, nor by encoded slashes: each such URL is
// refused, or sent cleaned and so stays inside the prefix.
func TestPrefixDotSegments(t *testing.T) {
	srv, _ := normalisingServer(t)
	g := gate(t, Config{}, srv.URL+"/v1/")
	// Through the gate and through the broker (the supervised worker).
	for _, attack := range []string{
		"/v1/../secret", "/v1/./../secret", "/v1/x/../../secret", "/v1//../secret", "/v1/../secret/",
		"/v1/%2e%2e/secret", "/v1/%2E%2E/secret", "/v1/.%2e/secret", "/v1/%2e./secret", "/v1/%2E./secret",
		"/v1/..%2fsecret", "/v1/..%2Fsecret", "/v1/%2e%2e%2fsecret", "/v1/%2E%2E%2Fsecret",
		"/v1/..%5csecret", "/v1/..%5Csecret", `/v1/..\secret`, "/v1/..;/secret", "/v1/%2e%2e;x/secret",
		"/v1/%252e%252e/secret", "/v1/x/..%2f..%2fsecret", "/v1/%2e/../../secret",
	} {
		resp, ne := do(g, "GET", srv.URL+attack, false)
		if ne == nil && (strings.Contains(string(resp.Body), "SECRET") || !strings.HasPrefix(string(resp.Body), "v1 /v1/")) {
			t.Errorf("%s: reached %q", attack, resp.Body)
		}
		if ne != nil && ne.Kind != builtins.NetRestricted && ne.Kind != builtins.NetURL {
			t.Errorf("%s: refused as %s: %v", attack, ne.Kind, ne)
		}
	}
	// What stays inside the prefix still works, cleaned.
	for _, c := range [][2]string{
		{"/v1/a/../b", "v1 /v1/b\n"}, {"/v1/./a", "v1 /v1/a\n"}, {"/v1/a%2Eb", "v1 /v1/a.b\n"}, {"/v%31/a", "v1 /v1/a\n"},
	} {
		resp, ne := do(g, "GET", srv.URL+c[0], false)
		if ne != nil || string(resp.Body) != c[1] {
			t.Errorf("%s: %+v %v, want %q", c[0], resp, ne, c[1])
		}
	}
	// A redirect back out of the prefix is checked in the same form.
	resp, ne := do(g, "GET", srv.URL+"/v1/../secret", true)
	if ne == nil && strings.Contains(string(resp.Body), "SECRET") {
		t.Errorf("followed: reached %q", resp.Body)
	}
}

func TestCleanURLPath(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""}, {"/", "/"}, {"/a/b", "/a/b"}, {"/a/b/", "/a/b/"}, {"/a/../b", "/b"}, {"/a/./b/.", "/a/b/"},
		{"/a/..", "/"}, {"/../..", "/"}, {"//a//b", "/a/b"}, {"/a%2eb", "/a.b"}, {"/%7euser", "/~user"},
		{"/a%3fb", "/a%3Fb"}, {"/a;b/c", "/a;b/c"}, {"/a/...", "/a/..."},
	} {
		got, err := policy.CleanURLPath(c.in)
		if err != nil || got != c.want {
			t.Errorf("CleanURLPath(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"/a/%2e%2e/b", "/a/%2E", "/a/.%2E", "/a%2fb", "/a%2Fb", "/a%5cb", `/a\b`, "/a/..;/b", "/a/.;x", "/a%00", "/a%", "/a%zz"} {
		if got, err := policy.CleanURLPath(bad); err == nil {
			t.Errorf("CleanURLPath(%q) = %q, want a refusal", bad, got)
		}
	}
}
