package restrict

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/vfs"
)

// TestRefusalRoutes: whatever route a missing command takes in restricted
// mode (a name, a path, or a command that runs commands), the refusal is
// the gateway's own: the same words and status 127 as a direct call, and
// the words say restricted mode hides host programs (issue 11, class 5).
func TestRefusalRoutes(t *testing.T) {
	g := New(builtins.NewRegistry(), Restricted(true))
	fsys := vfs.NewMem()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"python3"}, "sandsh: python3: command not found (restricted mode runs no host programs)\n"},
		{[]string{"env", "python3"}, "sandsh: python3: command not found (restricted mode runs no host programs)\n"},
		{[]string{"env", "-i", "A=1", "python3", "-V"}, "sandsh: python3: command not found (restricted mode runs no host programs)\n"},
		{[]string{"timeout", "1", "python3"}, "sandsh: python3: command not found (restricted mode runs no host programs)\n"},
		{[]string{"xargs", "python3"}, "sandsh: python3: command not found (restricted mode runs no host programs)\n"},
		{[]string{"nice", "python3"}, "sandsh: python3: command not found (restricted mode runs no host programs)\n"},
		{[]string{"nohup", "python3"}, "sandsh: python3: command not found (restricted mode runs no host programs)\n"},
		{[]string{"/opt/tools/deploy"}, "sandsh: /opt/tools/deploy: No such file or directory (restricted mode shows no host programs)\n"},
		{[]string{"/usr/local/bin/node"}, "sandsh: /usr/local/bin/node: No such file or directory (restricted mode shows no host programs)\n"},
		{[]string{"env", "/usr/local/bin/node"}, "sandsh: /usr/local/bin/node: No such file or directory (restricted mode shows no host programs)\n"},
		{[]string{"timeout", "5", "/opt/tools/deploy", "x"}, "sandsh: /opt/tools/deploy: No such file or directory (restricted mode shows no host programs)\n"},
	} {
		var stderr bytes.Buffer
		env := &builtins.Env{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &stderr,
			FS: fsys, Dir: "/", Environ: []string{"PATH=/usr/bin:/bin"}, Restricted: true}
		env.Exec = func(ctx context.Context, sub *builtins.Env, args []string) int { return g.Run(ctx, sub, args) }
		env.LookPath = func(name string) (string, bool) { return g.LookPath(env, name) }
		if st := g.Run(context.Background(), env, c.args); st != StatusNotFound {
			t.Errorf("%q: status %d, want %d", c.args, st, StatusNotFound)
		}
		if stderr.String() != c.want {
			t.Errorf("%q: stderr %q, want %q", c.args, stderr.String(), c.want)
		}
	}
}

// TestRestrictedHostGuard: the gateway's host-exec path refuses in
// restricted mode even when a caller reaches it with a real host program
// (defence in depth: a bug in the lookup must not become an exec). The
// program would leave a marker file had it run.
func TestRestrictedHostGuard(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "prog")
	marker := filepath.Join(dir, "ran")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\n: > "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	g := New(builtins.NewRegistry(), Restricted(true))
	var stderr bytes.Buffer
	env := &builtins.Env{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &stderr,
		FS: vfs.NewMem(), Dir: dir, Environ: []string{"PATH=/usr/bin:/bin"}, Restricted: true}
	if st := g.host(context.Background(), env, prog, []string{prog}); st != StatusNotFound {
		t.Errorf("status %d, want %d (stderr %q)", st, StatusNotFound, stderr.String())
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a restricted gateway started a host program")
	}
	if !strings.Contains(stderr.String(), "restricted mode") {
		t.Errorf("stderr %q does not say restricted mode refused it", stderr.String())
	}
}
