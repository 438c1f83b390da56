package builtins

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// fakeNet answers like a small server and records the requests: /hello,
// /echo (method, headers it was sent, body), /404, /redirect (to /hello,
// a hop when followed), /deny (a refusal), /big (too big).
type fakeNet struct{ reqs []*NetRequest }

func (f *fakeNet) Do(ctx context.Context, req *NetRequest) (*NetResponse, error) {
	f.reqs = append(f.reqs, req)
	path := req.URL[strings.Index(req.URL[len("http://"):], "/")+len("http://"):]
	ok := func(body string) *NetResponse {
		return &NetResponse{Status: 200, Proto: "HTTP/1.1", StatusText: "OK", URL: req.URL, Body: []byte(body),
			Header: [][2]string{{"Content-Type", "text/plain"}}, Hops: []NetHop{{Method: req.Method, URL: req.URL, Status: 200}}}
	}
	switch {
	case path == "/hello":
		return ok("hello\n"), nil
	case strings.HasPrefix(path, "/echo"):
		var b strings.Builder
		fmt.Fprintf(&b, "%s %s\n", req.Method, path)
		for _, h := range req.Header {
			fmt.Fprintf(&b, "%s: %s\n", h[0], h[1])
		}
		fmt.Fprintf(&b, "body=%s\n", req.Body)
		return ok(b.String()), nil
	case path == "/404":
		return &NetResponse{Status: 404, Proto: "HTTP/1.1", StatusText: "Not Found", URL: req.URL, Body: []byte("nope\n")}, nil
	case path == "/redirect" && req.FollowRedirects:
		r := ok("hello\n")
		r.Hops = append([]NetHop{{Method: "GET", URL: req.URL, Status: 302}}, r.Hops...)
		return r, nil
	case path == "/redirect":
		return &NetResponse{Status: 302, Proto: "HTTP/1.1", StatusText: "Found", URL: req.URL,
			Header: [][2]string{{"Location", "/hello"}}}, nil
	case path == "/deny":
		return nil, &NetError{Kind: NetRestricted, Host: "h", Msg: "h: restricted: not in the allow list"}
	case path == "/big":
		return nil, &NetError{Kind: NetTooBig, Msg: "restricted: response larger than 10 bytes"}
	}
	return nil, &NetError{Kind: NetConnect, Host: "h", Msg: "Failed to connect to h port 80: Connection refused"}
}

func TestCurl(t *testing.T) {
	for _, c := range []struct {
		name   string
		args   []string
		stdin  string
		status int
		stdout string
		stderr string // a substring; "" means stderr must be empty
		file   [2]string
	}{
		{"get", []string{"curl", "-s", "h/hello"}, "", 0, "hello\n", "", [2]string{}},
		{"write-out", []string{"curl", "-s", "-o", "out", "-w", "%{http_code}\\n", "http://h/hello"}, "", 0, "200\n", "", [2]string{}},
		{"output file", []string{"curl", "-sSo", "out.txt", "http://h/hello"}, "", 0, "", "", [2]string{"out.txt", "hello\n"}},
		{"remote name", []string{"curl", "-sO", "http://h/hello"}, "", 0, "", "", [2]string{"hello", "hello\n"}},
		{"remote name missing", []string{"curl", "-O", "http://h/"}, "", 23, "", "Remote file name has no length", [2]string{}},
		{"post data", []string{"curl", "-s", "-d", "a=1", "-d", "b=2", "http://h/echo"}, "", 0,
			"POST /echo\nUser-Agent: curl/8.5.0\nAccept: */*\nContent-Type: application/x-www-form-urlencoded\nbody=a=1&b=2\n", "", [2]string{}},
		{"data from a file", []string{"curl", "-s", "--data-binary", "@body.json", "-H", "Content-Type: application/json", "-X", "PUT", "http://h/echo"}, "", 0,
			"PUT /echo\nUser-Agent: curl/8.5.0\nAccept: */*\nContent-Type: application/json\nbody={\"a\":\n1}\n", "", [2]string{}},
		{"-d @file drops newlines", []string{"curl", "-s", "-d", "@body.json", "http://h/echo"}, "", 0,
			"POST /echo\nUser-Agent: curl/8.5.0\nAccept: */*\nContent-Type: application/x-www-form-urlencoded\nbody={\"a\":1}\n", "", [2]string{}},
		{"data from stdin", []string{"curl", "-s", "--data-binary", "@-", "http://h/echo"}, "in put", 0,
			"POST /echo\nUser-Agent: curl/8.5.0\nAccept: */*\nContent-Type: application/x-www-form-urlencoded\nbody=in put\n", "", [2]string{}},
		{"missing data file", []string{"curl", "-s", "-d", "@nope", "http://h/echo"}, "", 26, "", "nope", [2]string{}},
		{"user and headers", []string{"curl", "-s", "-u", "me:pw", "-A", "agent/1", "-H", "Accept:", "-H", "X-A: b", "http://h/echo"}, "", 0,
			"GET /echo\nUser-Agent: agent/1\nAuthorization: Basic bWU6cHc=\nX-A: b\nbody=\n", "", [2]string{}},
		{"get with data", []string{"curl", "-s", "-G", "-d", "q=x y", "--data-urlencode", "r=x y", "http://h/echo"}, "", 0,
			"GET /echo?q=x y&r=x+y\nUser-Agent: curl/8.5.0\nAccept: */*\nbody=\n", "", [2]string{}},
		{"fail", []string{"curl", "-sf", "http://h/404"}, "", 22, "", "", [2]string{}},
		{"fail shows error with -S", []string{"curl", "-sSf", "http://h/404"}, "", 22, "", "curl: (22) The requested URL returned error: 404", [2]string{}},
		{"no fail", []string{"curl", "-s", "-w", " %{http_code}", "http://h/404"}, "", 0, "nope\n 404", "", [2]string{}},
		{"include", []string{"curl", "-si", "http://h/hello"}, "", 0, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nhello\n", "", [2]string{}},
		{"head", []string{"curl", "-sI", "http://h/hello"}, "", 0, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n", "", [2]string{}},
		{"redirect not followed", []string{"curl", "-s", "-w", "%{http_code}", "http://h/redirect"}, "", 0, "302", "", [2]string{}},
		{"redirect followed", []string{"curl", "-sL", "-w", "%{http_code} %{num_redirects}", "http://h/redirect"}, "", 0, "hello\n200 1", "", [2]string{}},
		{"refusal shows under -s", []string{"curl", "-s", "http://h/deny"}, "", 7, "", "curl: (7) h: restricted: not in the allow list", [2]string{}},
		{"refusal code", []string{"curl", "-s", "-w", "%{http_code}", "http://h/deny"}, "", 7, "000", "restricted", [2]string{}},
		{"too big", []string{"curl", "-s", "http://h/big"}, "", 63, "", "restricted: response larger", [2]string{}},
		{"connect error hidden by -s", []string{"curl", "-s", "http://h/other"}, "", 7, "", "", [2]string{}},
		{"connect error", []string{"curl", "http://h/other"}, "", 7, "", "curl: (7) Failed to connect", [2]string{}},
		{"no url", []string{"curl", "-s"}, "", 2, "", "no URL specified", [2]string{}},
		{"bad option", []string{"curl", "--frobnicate", "h"}, "", 2, "", "curl:", [2]string{}},
		{"bad max-time", []string{"curl", "-m", "x", "h"}, "", 2, "", "max-time", [2]string{}},
		{"two urls", []string{"curl", "-s", "h/hello", "h/hello"}, "", 0, "hello\nhello\n", "", [2]string{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := testEnv(t, map[string]string{"body.json": "{\"a\":\n1}"})
			env.Net = &fakeNet{}
			r := run(t, env, c.stdin, c.args...)
			if r.Status != c.status || r.Stdout != c.stdout || (c.stderr == "") != (r.Stderr == "") || !strings.Contains(r.Stderr, c.stderr) {
				t.Errorf("%v:\n got %d %q %q\nwant %d %q %q", c.args, r.Status, r.Stdout, r.Stderr, c.status, c.stdout, c.stderr)
			}
			if c.file[0] != "" {
				if got := readFile(t, env, c.file[0]); got != c.file[1] {
					t.Errorf("%s = %q, want %q", c.file[0], got, c.file[1])
				}
			}
		})
	}
}

// TestNoNetwork: without an allowance (Env.Net nil) curl and wget refuse
// every request, naming the host, and reach nothing.
func TestNoNetwork(t *testing.T) {
	for _, c := range []struct {
		args   []string
		status int
	}{
		{[]string{"curl", "-s", "https://example.com/x"}, 7},
		{[]string{"curl", "-fsSL", "http://10.0.0.1/"}, 7},
		{[]string{"wget", "-q", "-O", "-", "example.com"}, 4},
		{[]string{"wget", "http://169.254.169.254/latest"}, 4},
	} {
		env := testEnv(t, nil)
		r := run(t, env, "", c.args...)
		host := strings.Split(strings.TrimPrefix(strings.TrimPrefix(c.args[len(c.args)-1], "https://"), "http://"), "/")[0]
		if r.Status != c.status || !strings.Contains(r.Stderr, "restricted") || !strings.Contains(r.Stderr, host) || r.Stdout != "" {
			t.Errorf("%v: %+v", c.args, r)
		}
	}
}

func TestWget(t *testing.T) {
	for _, c := range []struct {
		name   string
		args   []string
		status int
		stdout string
		stderr string
		file   [2]string
	}{
		{"to stdout", []string{"wget", "-qO-", "h/hello"}, 0, "hello\n", "", [2]string{}},
		{"to stdout, long", []string{"wget", "-q", "--output-document=-", "http://h/hello"}, 0, "hello\n", "", [2]string{}},
		{"to file", []string{"wget", "-q", "-O", "x.txt", "http://h/hello"}, 0, "", "", [2]string{"x.txt", "hello\n"}},
		{"remote name", []string{"wget", "-q", "http://h/echo"}, 0, "", "", [2]string{"echo", "GET /echo\nUser-Agent: Wget/1.21.4\nAccept: */*\nbody=\n"}},
		{"remote name taken", []string{"wget", "-q", "http://h/hello"}, 0, "", "", [2]string{"hello.1", "hello\n"}},
		{"progress on stderr", []string{"wget", "-O", "-", "http://h/hello"}, 0, "hello\n", "HTTP request sent, awaiting response... 200 OK", [2]string{}},
		{"post", []string{"wget", "-qO-", "--post-data", "a=1", "--header", "X-T: 1", "http://h/echo"}, 0,
			"POST /echo\nUser-Agent: Wget/1.21.4\nAccept: */*\nX-T: 1\nContent-Type: application/x-www-form-urlencoded\nbody=a=1\n", "", [2]string{}},
		{"post file", []string{"wget", "-qO-", "--post-file", "hello", "http://h/echo"}, 0,
			"POST /echo\nUser-Agent: Wget/1.21.4\nAccept: */*\nContent-Type: application/x-www-form-urlencoded\nbody=exists\n", "", [2]string{}},
		{"server response", []string{"wget", "-q", "-S", "-O", "-", "http://h/hello"}, 0, "hello\n", "  HTTP/1.1 200 OK\n  Content-Type: text/plain\n", [2]string{}},
		{"server error", []string{"wget", "-q", "-O", "-", "http://h/404"}, 8, "", "", [2]string{}},
		{"refused under -q", []string{"wget", "-q", "http://h/deny"}, 4, "", "wget: h: restricted", [2]string{}},
		{"no url", []string{"wget"}, 1, "", "missing URL", [2]string{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := testEnv(t, map[string]string{"hello": "exists"})
			env.Net = &fakeNet{}
			r := run(t, env, "", c.args...)
			if r.Status != c.status || r.Stdout != c.stdout || (c.stderr == "") != (r.Stderr == "") || !strings.Contains(r.Stderr, c.stderr) {
				t.Errorf("%v:\n got %d %q %q\nwant %d %q %q", c.args, r.Status, r.Stdout, r.Stderr, c.status, c.stdout, c.stderr)
			}
			if c.file[0] != "" {
				if got := readFile(t, env, c.file[0]); got != c.file[1] {
					t.Errorf("%s = %q, want %q", c.file[0], got, c.file[1])
				}
			}
		})
	}
}
