package restrict

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/internal/suite"
)

// TestHostProgramEnvironment: an unrestricted host program gets exactly
// the script's exported variables; a command environment with none must
// not fall back to sandsh's own (os/exec's rule for a nil Env).
func TestHostProgramEnvironment(t *testing.T) {
	envProg, err := exec.LookPath("env")
	if err != nil {
		suite.Skip(t, "env", "the host's env shows the environment")
	}
	t.Setenv("SANDSH_HOST_ONLY", "leaked")
	g := New(builtins.NewRegistry(), Restricted(false))
	for _, environ := range [][]string{nil, {"A=1"}} {
		var out bytes.Buffer
		env := &builtins.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: os.Stderr, Dir: t.TempDir(), Environ: environ}
		if st := g.host(context.Background(), env, envProg, []string{"env"}); st != 0 {
			t.Fatalf("env: status %d", st)
		}
		if got, want := out.String(), strings.Join(append(environ, ""), "\n"); got != want {
			t.Errorf("environ %q: program saw %q, want %q", environ, got, want)
		}
	}
}
