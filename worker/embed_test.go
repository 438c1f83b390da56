package worker

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEmbedAttacks: what a hostile script tries against a program that
// embeds sandsh through a Session, with the working directory at a path
// that does not exist on the host. Each attack stops cleanly with the
// limit's status and the session goes on.
func TestEmbedAttacks(t *testing.T) {
	t.Parallel()
	host := t.TempDir()
	canary := filepath.Join(host, "canary")
	if err := os.WriteFile(canary, []byte("host secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startTest(t, attackOptions)
	attackSession(t, s, host, canary)
}

// attackOptions are the options of the attacked sessions: the working
// directory at a path that does not exist on the host, and limits that
// leave the memory bomb to the memory wall.
func attackOptions(o *Options) {
	o.Cwd, o.MaxMemory, o.MaxVarBytes, o.MaxCallDepth = "/sandsh-nowhere/cwd", "256MiB", "4GiB", 0
}

// attackSession runs the attacks of TestEmbedAttacks in s, whose
// options are attackOptions; host holds canary, a host file.
func attackSession(t *testing.T, s *Session, host, canary string) {
	t.Helper()
	run(t, s, Call{Script: `kept=yes`})
	for _, tc := range []struct {
		name, script string
		status       int
		limit        string
	}{
		{"memory bomb", `x=abc; while :; do x=$x$x; done`, ExitLimit, "max-memory"},
		// The runner's nesting guard, or past it the Go stack guard.
		{"stack overflow", `f(){ f; }; f`, ExitLimit, "nesting|nesting too deep"},
		{"host file", `cat ` + canary + `; ls ` + host, 1, ""},
		{"host program", `/usr/bin/python3 -c "print(open('` + canary + `').read())"`, 127, ""},
		{"write outside", `echo x > ` + host + `/planted`, 1, ""},
	} {
		res := run(t, s, Call{Script: tc.script})
		limitOK := res.Limit == tc.limit
		for _, l := range strings.Split(tc.limit, "|") {
			limitOK = limitOK || res.Limit == l
		}
		if res.Status != tc.status && !(tc.status == 1 && res.Status != 0) || !limitOK {
			t.Errorf("%s: status %d limit %q, want %d %q; stderr %q", tc.name, res.Status, res.Limit, tc.status, tc.limit, res.Stderr)
		}
		for _, out := range [][]byte{res.Stdout, res.Stderr} {
			if strings.Contains(string(out), "host secret") || strings.Contains(string(out), "goroutine") {
				t.Errorf("%s: leaked %q", tc.name, out)
			}
		}
		if r := run(t, s, Call{Script: `echo $kept`}); string(r.Stdout) != "yes\n" {
			t.Errorf("%s: the session did not go on: %q %q", tc.name, r.Stdout, r.Restarted)
		}
	}
	if _, err := os.Stat(filepath.Join(host, "planted")); err == nil {
		t.Error("a script wrote a host file")
	}
	if data, err := s.ReadFile(context.Background(), canary, 0); err == nil {
		t.Errorf("ReadFile reached the host: %q", data)
	}
}
