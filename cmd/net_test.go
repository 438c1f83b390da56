package cmd

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestREPLNetwork: the interactive shell's worker reaches an allowed host
// through the parent's gate, refuses others, and the request limit holds
// for the session, not per line.
func TestREPLNetwork(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, "pong\n")
	}))
	defer srv.Close()
	hp := strings.TrimPrefix(srv.URL, "http://")
	p := startREPL(t, noColor, "--allow-net", hp, "--max-net-requests", "2")
	p.prompt("/workspace")
	p.run("curl -s http://" + hp + "/ping; echo st=$?")
	p.expect("pong\r\nst=0\r\n")
	p.prompt("/workspace")
	p.run("curl -s http://10.0.0.7/; echo st=$?")
	p.expect("10.0.0.7: restricted")
	p.expect("st=7\r\n")
	p.prompt("/workspace")
	p.run("wget -qO- http://" + hp + "/ping; echo st=$?")
	p.expect("pong\r\nst=0\r\n")
	p.prompt("/workspace")
	p.run("curl -s http://" + hp + "/ping; echo st=$?")
	p.expect("more than 2 requests")
	p.expect("st=7\r\n")
	p.prompt("/workspace")
	p.send("\x04")
	p.expect("exit")
	p.wait()
	if n := hits.Load(); n != 2 {
		t.Errorf("the server had %d requests, want 2", n)
	}
}
