package interp_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/internal/suite"
	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/restrict"
	"github.com/sandsh/sandsh/vfs"
)

// diffCase is one script run under bash and under sandsh.
type diffCase struct {
	file, name, script string
	// asFile runs the script as a file, script.sh (bash script.sh), and
	// compares standard error too: a case named "... [script]".
	asFile bool
	// exactStderr compares standard error byte for byte: every [script]
	// case, and -c cases marked [stderr].
	exactStderr bool
}

// loadDiffCases reads testdata/diff/*.sh: each case starts with a line
// "### name".
func loadDiffCases(t *testing.T) []diffCase {
	t.Helper()
	files, err := filepath.Glob("testdata/diff/*.sh")
	if err != nil {
		t.Fatal(err)
	}
	var cases []diffCase
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var cur *diffCase
		for _, line := range strings.SplitAfter(string(data), "\n") {
			if strings.HasPrefix(line, "### ") {
				if cur != nil {
					cases = append(cases, *cur)
				}
				cur = &diffCase{file: filepath.Base(f), name: strings.TrimSpace(line[4:])}
				cur.asFile = strings.HasSuffix(cur.name, "[script]")
				cur.exactStderr = cur.asFile || strings.HasSuffix(cur.name, "[stderr]")
				continue
			}
			if cur != nil {
				cur.script += line
			}
		}
		if cur != nil {
			cases = append(cases, *cur)
		}
	}
	return cases
}

type outcome struct {
	stdout, stderr string
	status         int
}

// diffEnv is the environment both shells start with.
func diffEnv(home string) []string {
	return []string{"HOME=" + home, "PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C", "TZ=UTC", "USER=sandbox", "TERM=dumb"}
}

func runBash(t *testing.T, script string, asFile bool) outcome {
	dir := t.TempDir()
	cmd := exec.Command("bash", "-c", script, "bash")
	if asFile {
		if err := os.WriteFile(filepath.Join(dir, "script.sh"), []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd = exec.Command("bash", "script.sh")
	}
	cmd.Dir = dir
	cmd.Env = diffEnv(dir)
	cmd.Stdin = strings.NewReader("line one\nline two\n")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	status := 0
	if ee, ok := err.(*exec.ExitError); ok {
		status = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return outcome{out.String(), errb.String(), status}
}

func runSandsh(t *testing.T, script string, asFile bool) outcome {
	fsys := vfs.NewMem()
	if err := vfs.Populate(fsys, vfs.WorkDir); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	gw := restrict.New(builtins.NewRegistry(), restrict.Restricted(true))
	if err := vfs.InstallCommands(fsys, gw.ProgramNames()); err != nil {
		t.Fatal(err)
	}
	lim := interp.DefaultLimits()
	lim.Timeout = 20 * time.Second
	name, mode := "bash", interp.CommandString(true)
	if asFile {
		name, mode = "script.sh", interp.ScriptFile(true)
	}
	r, err := interp.New(interp.WithFS(fsys), interp.WithGateway(gw),
		interp.WithStdio(strings.NewReader("line one\nline two\n"), &out, &errb),
		interp.WithEnv(diffEnv(vfs.HomeDir)), interp.WithDir(vfs.WorkDir),
		interp.WithParams(name), interp.WithLimits(lim), mode)
	if err != nil {
		t.Fatal(err)
	}
	status, err := r.RunReader(context.Background(), strings.NewReader(script), name)
	if err != nil {
		t.Fatalf("run error: %v\nstderr: %s", err, errb.String())
	}
	return outcome{out.String(), errb.String(), status}
}

// TestBashDifferential runs every script under bash and under sandsh and
// compares stdout, exit status and whether stderr is empty (its text
// too for [script] and [stderr] cases).
func TestBashDifferential(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		suite.Skip(t, "bash", "bash is the oracle")
	}
	cases := loadDiffCases(t)
	if len(cases) == 0 {
		t.Fatal("no differential cases found")
	}
	suite.DefaultSignals(t) // bash lists a signal ignored on entry in trap -p
	for _, c := range cases {
		t.Run(c.file+"/"+c.name, func(t *testing.T) {
			t.Parallel()
			want := runBash(t, c.script, c.asFile)
			got := runSandsh(t, c.script, c.asFile)
			if got.stdout != want.stdout {
				t.Errorf("stdout differs\nscript:\n%s\nbash:\n%q\nsandsh:\n%q\nsandsh stderr: %q", c.script, want.stdout, got.stdout, got.stderr)
			}
			if got.status != want.status {
				t.Errorf("status: bash %d, sandsh %d\nscript:\n%s\nbash stderr: %q\nsandsh stderr: %q", want.status, got.status, c.script, want.stderr, got.stderr)
			}
			if c.exactStderr {
				// The restricted sandbox says why a host program is
				// missing, on purpose (README); the rest is bash's text.
				stderr := strings.ReplaceAll(got.stderr, " (restricted mode runs no host programs)", "")
				stderr = strings.ReplaceAll(stderr, " (restricted mode shows no host programs)", "")
				if stderr != want.stderr {
					t.Errorf("stderr differs\nscript:\n%s\nbash:\n%s\nsandsh:\n%s", c.script, want.stderr, got.stderr)
				}
			}
			if (got.stderr == "") != (want.stderr == "") {
				t.Errorf("stderr emptiness differs\nscript:\n%s\nbash: %q\nsandsh: %q", c.script, want.stderr, got.stderr)
			}
		})
	}
}
