package builtins

import (
	"context"
	"strings"
	"testing"
)

// shellCase is one table-driven case for the shell-helper commands.
type shellCase struct {
	name   string
	args   []string
	stdin  string
	files  map[string]string
	env    []string // appended to the environment
	out    string   // expected stdout, unless outHas is set
	outHas string   // stdout must contain this
	status int
	errHas string // stderr must contain this; "" means stderr must be empty
	setup  func(*Env)
}

// shellRunCases runs each case on a fresh testEnv.
func shellRunCases(t *testing.T, cases []shellCase) {
	t.Helper()
	for _, c := range cases {
		name := c.name
		if name == "" {
			name = strings.Join(c.args, " ")
		}
		t.Run(name, func(t *testing.T) {
			env := testEnv(t, c.files)
			env.Environ = append(env.Environ, c.env...)
			if c.setup != nil {
				c.setup(env)
			}
			r := run(t, env, c.stdin, c.args...)
			if c.outHas != "" {
				if !strings.Contains(r.Stdout, c.outHas) {
					t.Errorf("stdout %q does not contain %q", r.Stdout, c.outHas)
				}
			} else if r.Stdout != c.out {
				t.Errorf("stdout = %q, want %q", r.Stdout, c.out)
			}
			if r.Status != c.status {
				t.Errorf("status = %d, want %d (stderr %q)", r.Status, c.status, r.Stderr)
			}
			switch {
			case c.errHas == "" && r.Stderr != "":
				t.Errorf("unexpected stderr %q", r.Stderr)
			case c.errHas != "" && !strings.Contains(r.Stderr, c.errHas):
				t.Errorf("stderr %q does not contain %q", r.Stderr, c.errHas)
			}
		})
	}
}

// shellLookPath makes the test gateway report registry commands as
// /usr/bin/NAME, like the real gateway.
func shellLookPath(env *Env) {
	reg := NewRegistry()
	env.LookPath = func(name string) (string, bool) {
		if _, ok := reg.Lookup(name); ok {
			return "/usr/bin/" + name, true
		}
		return "", false
	}
}

func TestEnvCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"env"}, out: "HOME=/home/sandbox\nPATH=/usr/bin:/bin\nLC_ALL=C\nUSER=sandbox\n"},
		{args: []string{"env", "-i", "A=1", "B=2"}, out: "A=1\nB=2\n"},
		{args: []string{"env", "-u", "HOME", "-u", "PATH", "-u", "LC_ALL"}, out: "USER=sandbox\n"},
		{args: []string{"env", "-0", "-i", "A=1"}, out: "A=1\x00"},
		{args: []string{"env", "USER=other", "printenv", "USER"}, out: "other\n"},
		{args: []string{"env", "-i", "printenv", "HOME"}, status: 1},
		{name: "chdir", args: []string{"env", "-C", "sub", "test", "-f", "x"}, files: map[string]string{"sub/x": ""}},
		{name: "chdir missing", args: []string{"env", "-C", "nope", "true"}, status: 125, errHas: "cannot change directory to 'nope'"},
		{name: "not found via LookPath", args: []string{"env", "nosuchcmd"}, status: 127,
			errHas: "env: 'nosuchcmd': No such file or directory", setup: shellLookPath},
		{args: []string{"env", "-S", "printf %s-%s\\n a b"}, out: "a-b\n"},
		{args: []string{"env", "-S", "'unterminated"}, status: 125, errHas: "no terminating quote"},
		{args: []string{"env", "-0", "true"}, status: 125, errHas: "cannot specify --null"},
		{args: []string{"env", "--help"}, outHas: "Usage: env"},
		{args: []string{"env", "echo", "--help"}, outHas: "Usage: echo"},
		{args: []string{"env", "-v", "true"}, errHas: "argv[0] = 'true'"},
		{args: []string{"env", "false"}, status: 1},
	})
}

func TestEnvSubEnvironmentIsolated(t *testing.T) {
	env := testEnv(t, nil)
	var seen []string
	orig := env.Exec
	env.Exec = func(ctx context.Context, sub *Env, args []string) int {
		if args[0] != "cmd" {
			return orig(ctx, sub, args)
		}
		seen = sub.Environ
		sub.Environ = append(sub.Environ, "LEAK=1")
		return 0
	}
	run(t, env, "", "env", "A=1", "cmd")
	if len(seen) == 0 || seen[len(seen)-1] != "A=1" {
		t.Fatalf("command saw environ %q", seen)
	}
	if _, ok := env.LookupEnv("A"); ok {
		t.Fatal("env changed its caller's environment")
	}
}
