package builtins

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/sandsh/sandsh/internal/suite"
	"github.com/sandsh/sandsh/vfs"
)

// hangTimeout is how long a test waits for a command that must stop on
// its own (cancelled, or its reader gone) before calling it hung. It is a
// hang detector, not a speed check (benchmarks measure speed), so it is
// generous enough for a loaded machine under the race detector.
const hangTimeout = 60 * time.Second

// runOrHang runs f, which must return on its own, and fails the test if
// it is still running after hangTimeout.
func runOrHang(t testing.TB, what string, f func() int) int {
	t.Helper()
	done := make(chan int, 1)
	go func() { done <- f() }()
	select {
	case st := <-done:
		return st
	case <-time.After(hangTimeout):
		t.Fatalf("%s: still running after %v", what, hangTimeout)
		return -1
	}
}

// result is what one command run produced.
type result struct {
	Stdout, Stderr string
	Status         int
}

// testEnv makes an Env on a fresh memory filesystem holding files
// (relative names are under vfs.WorkDir; a name ending in "/" is a dir).
func testEnv(t testing.TB, files map[string]string) *Env {
	t.Helper()
	fsys := vfs.NewMem()
	if err := fsys.MkdirAll(vfs.WorkDir, 0o755); err != nil {
		t.Fatal(err)
	}
	fsys.MkdirAll(vfs.TmpDir, 0o1777)
	for name, data := range files {
		p := vfs.Clean(vfs.WorkDir, name)
		if strings.HasSuffix(name, "/") {
			if err := fsys.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		fsys.MkdirAll(filepath.Dir(p), 0o755)
		if err := afero.WriteFile(fsys, p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	reg := NewRegistry()
	env := &Env{
		Stdin:   strings.NewReader(""),
		FS:      fsys,
		Dir:     vfs.WorkDir,
		Environ: []string{"HOME=" + vfs.HomeDir, "PATH=/usr/bin:/bin", "LC_ALL=C", "USER=sandbox"},
		Sys: &System{User: "sandbox", UID: 1000, GID: 1000, Hostname: "sandbox", NumCPU: 2,
			Now: func() time.Time { return time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC) }},
	}
	env.Exec = func(ctx context.Context, sub *Env, args []string) int {
		c, ok := reg.Lookup(filepath.Base(args[0]))
		if !ok {
			fmt.Fprintf(sub.Stderr, "sandsh: %s: command not found\n", args[0])
			return 127
		}
		return c.Call(ctx, sub, args)
	}
	return env
}

// run runs one in-process command line on env with stdin.
func run(t testing.TB, env *Env, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	sub := env.Sub()
	sub.Stdin, sub.Stdout, sub.Stderr = strings.NewReader(stdin), &out, &errb
	ctx, cancel := context.WithTimeout(context.Background(), hangTimeout)
	defer cancel()
	st := sub.Run(ctx, args)
	return result{out.String(), errb.String(), st}
}

// readFile returns a file's content from env's filesystem.
func readFile(t testing.TB, env *Env, name string) string {
	t.Helper()
	b, err := afero.ReadFile(env.FS, env.Abs(name))
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return string(b)
}

// diffCase is one differential case: the same command line is run by the
// host's GNU tool in a temp dir and in-process on the memory filesystem.
type diffCase struct {
	Name  string
	Files map[string]string
	Stdin string
	Args  []string
	// SkipStdout, when set, says why stdout cannot be GNU's (a clock,
	// the host's identity); only status and stderr-emptiness are then
	// compared.
	SkipStdout string
	// Virtual is sandsh's stdout for output that describes the machine
	// (CPU count, niceness, stack-derived ARG_MAX, hardware name): sandsh
	// shows a fixed virtual machine, and the host tool shows whoever ran
	// the tests (nice -n 19, taskset -c 0, ulimit -s). sandsh's stdout
	// must equal Virtual, what GNU prints on the reference machine (2
	// CPUs, niceness 0, an 8 MiB stack, x86_64), and the host's stdout
	// must have its shape (the same words and separators, any values).
	Virtual string
}

// outputShape is s with every run of letters, digits and '_' replaced by
// one "w": what is left is the layout a caller's state cannot change.
func outputShape(s string) string {
	return wordRun.ReplaceAllString(s, "w")
}

var wordRun = regexp.MustCompile(`[A-Za-z0-9_]+`)

// runDiff runs each case both ways and compares stdout, exit status and
// whether stderr is empty.
func runDiff(t *testing.T, cases []diffCase) {
	t.Helper()
	suite.DefaultSignals(t)
	for _, c := range cases {
		name := c.Name
		if name == "" {
			name = strings.Join(c.Args, " ")
		}
		t.Run(name, func(t *testing.T) {
			if _, err := exec.LookPath(c.Args[0]); err != nil {
				suite.Skip(t, c.Args[0], "the differential test runs the host's GNU %s", c.Args[0])
			}
			dir := t.TempDir()
			for fname, data := range c.Files {
				p := filepath.Join(dir, fname)
				if strings.HasSuffix(fname, "/") {
					os.MkdirAll(p, 0o755)
					continue
				}
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(c.Args[0], c.Args[1:]...)
			cmd.Dir = dir
			cmd.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin", "HOME=" + dir, "TZ=UTC"}
			cmd.Stdin = strings.NewReader(c.Stdin)
			var hout, herr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &hout, &herr
			err := cmd.Run()
			hstatus := 0
			if ee, ok := err.(*exec.ExitError); ok {
				hstatus = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			env := testEnv(t, c.Files)
			env.Environ = append(env.Environ, "TZ=UTC")
			got := run(t, env, c.Stdin, c.Args...)
			if c.Virtual != "" {
				if got.Stdout != c.Virtual {
					t.Errorf("stdout %q, want the virtual machine's %q", got.Stdout, c.Virtual)
				}
				if outputShape(hout.String()) != outputShape(c.Virtual) {
					t.Errorf("stdout shape differs from the host's\nhost:\n%s\nsandsh:\n%s", hout.String(), got.Stdout)
				}
			} else if c.SkipStdout == "" && got.Stdout != hout.String() {
				t.Errorf("stdout differs\nhost:\n%s\nsandsh:\n%s", hout.String(), got.Stdout)
			}
			if got.Status != hstatus {
				t.Errorf("status: host %d, sandsh %d (stderr %q / %q)", hstatus, got.Status, herr.String(), got.Stderr)
			}
			if (got.Stderr == "") != (herr.Len() == 0) {
				t.Errorf("stderr emptiness differs: host %q, sandsh %q", herr.String(), got.Stderr)
			}
		})
	}
}
