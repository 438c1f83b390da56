package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sandsh/sandsh/internal/suite"
	"github.com/sandsh/sandsh/jail"
	"github.com/sandsh/sandsh/restrict"
	"github.com/sandsh/sandsh/worker"
)

// TestMain lets this test binary serve as sandsh's worker: the runs below
// re-execute it (/proc/self/exe) with restrict.WorkerEnv set.
func TestMain(m *testing.M) {
	if jail.IsInit() {
		os.Exit(jail.InitMain())
	}
	if os.Getenv("SANDSH_TEST_MAIN") == "1" {
		os.Exit(Main(os.Args[1:])) // this binary as the sandsh command (jail_test.go)
	}
	if worker.IsWorker() {
		os.Exit(worker.Main(&worker.Hooks{Confined: testHook}))
	}
	os.Exit(m.Run())
}

// testHook runs in a confined worker, before the script, when the run
// has --env SANDSH_TEST_HOOK=ACTION: what a bug in sandsh could do.
func testHook(o *Options, h *worker.Hooks) {
	var action string
	for _, e := range o.Env {
		if v, ok := strings.CutPrefix(e, "SANDSH_TEST_HOOK="); ok {
			action = v
		}
	}
	say := func(format string, a ...any) { fmt.Fprintf(o.IO.Err, "hook: "+format+"\n", a...) }
	switch {
	case action == "":
	case action == "panic":
		// a panic in a goroutine nobody recovers kills the process
		go func() { panic("test boom") }()
		time.Sleep(10 * time.Second)
	case action == "stack:1MiB":
		debug.SetMaxStack(1 << 20)
	case action == "repl-hang":
		// A line "hang" ignores Ctrl-C and every limit, as a command
		// with an unchecked loop would.
		h.Line = func(src string) {
			if strings.TrimSpace(src) == "hang" {
				for {
					time.Sleep(time.Hour)
				}
			}
		}
	case action == "environ":
		say("environ %s", strings.Join(os.Environ(), " "))
	case strings.HasPrefix(action, "open:"):
		f, err := os.Open(strings.TrimPrefix(action, "open:"))
		if err == nil {
			f.Close()
		}
		say("open: %v", errText(err))
	case strings.HasPrefix(action, "exec:"):
		c := exec.Command(strings.TrimPrefix(action, "exec:"))
		c.Stdin, c.Stdout, c.Stderr = strings.NewReader(""), io.Discard, io.Discard
		say("exec: %v", errText(c.Run()))
	}
}

func errText(err error) string {
	if err == nil {
		return "ok"
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	return err.Error()
}

// runSandsh runs sandsh (through the worker unless --no-worker is given)
// and returns its status, stdout and stderr.
func runSandsh(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	status := Run(args, IO{In: strings.NewReader(stdin), Out: &out, Err: &errb,
		Getenv: func(string) string { return "" }, Getwd: os.Getwd})
	return status, out.String(), errb.String()
}

// checkClean fails if stderr shows anything but clean one-line errors.
func checkClean(t *testing.T, stderr string) {
	t.Helper()
	for _, bad := range []string{"goroutine ", "panic:", "fatal error", "runtime.", ".go:"} {
		if strings.Contains(stderr, bad) {
			t.Errorf("stderr shows a Go crash (%q):\n%s", bad, stderr)
		}
	}
}

// TestWorkerLimits: runaway and hostile scripts end fast with a clean
// limit error (or a clean syntax error), never a crash.
func TestWorkerLimits(t *testing.T) {
	deepParens := "eval \"" + strings.Repeat("(", 1<<20) + "\""
	deepArith := "echo $" + strings.Repeat("((", 1<<16) + "1" + strings.Repeat("))", 1<<16)
	for _, tc := range []struct {
		name     string
		args     []string
		status   []int  // any of these
		stderr   string // regexp
		stdinSrc string
	}{
		{"fork bomb", []string{"-c", "b(){ b|b& }; b; wait"}, []int{0, 125}, `^((sandsh|environment): line \d+: limit exceeded: [a-z-]+ \d+\n)?$`, ""},
		{"foreground fork bomb", []string{"-c", "b(){ b|b; }; b"}, []int{125}, `limit exceeded: max-(call-depth|jobs)`, ""},
		{"yes captured", []string{"--max-capture", "1MiB", "-c", "x=$(yes); echo ${#x}"}, []int{125}, `sandsh: limit exceeded: max-capture 1MiB\n$`, ""},
		{"string doubling", []string{"--max-memory", "256MiB", "--max-var-bytes", "4GiB", "-c", "x=abc; while :; do x=$x$x; done"}, []int{125}, `^sandsh: limit exceeded: max-memory 256MiB\n$`, ""},
		{"function recursion", []string{"-c", "f(){ f; }; f"}, []int{125}, `^environment: line 1: limit exceeded: max-call-depth 1000\n$`, ""},
		{"source recursion", []string{"-c", "echo '. ./r.sh' > r.sh; . ./r.sh"}, []int{125}, `^\./r\.sh: line 1: limit exceeded: max-call-depth 1000\n$`, ""},
		// Past the nesting guards (--max-call-depth 0), recursion ends
		// in a Go stack overflow: fatal in Go, a clean limit here. The
		// hook shrinks the worker's Go stack limit (1/8 of --max-memory,
		// at least 8MiB) so this takes milliseconds, even with -race.
		{"Go stack overflow", []string{"--env", "SANDSH_TEST_HOOK=stack:1MiB", "--max-call-depth", "0", "-c", "f(){ f; }; f"}, []int{125}, `^sandsh: limit exceeded: nesting too deep \(Go stack\)\n$`, ""},
		{"eval of 2^20 parens", []string{"run", "-"}, []int{2, 125}, `^sandsh: [^\n]*\n$`, deepParens},
		{"deep arithmetic", []string{"run", "-"}, []int{2, 125}, `^sandsh: [^\n]*\n$`, deepArith},
		{"timeout", []string{"--timeout", "300ms", "-c", "while :; do :; done"}, []int{124}, `^sandsh: limit exceeded: timeout 300ms\n$`, ""},
		{"host binary by path", []string{"-c", "/usr/bin/python3 -c 1"}, []int{127}, `restricted`, ""},
		{"host binary by name", []string{"-c", "command perl -e 1"}, []int{127}, `restricted`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			status, _, stderr := runSandsh(t, tc.stdinSrc, tc.args...)
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("took %v", d)
			}
			ok := false
			for _, s := range tc.status {
				ok = ok || s == status
			}
			if !ok {
				t.Errorf("status %d, want one of %v; stderr:\n%s", status, tc.status, stderr)
			}
			if !regexp.MustCompile(tc.stderr).MatchString(stderr) {
				t.Errorf("stderr %q does not match %q", stderr, tc.stderr)
			}
			checkClean(t, stderr)
		})
	}
}

// TestWorkerCrash: a panic in a goroutine nobody recovered kills the
// worker; sandsh reports one line and status 70.
func TestWorkerCrash(t *testing.T) {
	status, _, stderr := runSandsh(t, "", "--env", "SANDSH_TEST_HOOK=panic", "-c", "echo never")
	if status != ExitInternal {
		t.Errorf("status %d, want %d", status, ExitInternal)
	}
	if want := "sandsh: internal error: worker crashed: test boom (this is a bug in sandsh)\n"; stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
}

// TestWorkerLandlock: in --fs mem, a direct host open inside the worker
// (what a bug in the vfs layer would do) fails.
func TestWorkerLandlock(t *testing.T) {
	if runtime.GOOS != "linux" || restrict.Probe().LandlockABI == 0 {
		suite.Skip(t, "landlock", "the kernel has no Landlock")
	}
	_, _, stderr := runSandsh(t, "", "--env", "SANDSH_TEST_HOOK=open:/etc/passwd", "-c", "true")
	if !strings.Contains(stderr, "hook: open: permission denied\n") {
		t.Errorf("a host open in the worker was not refused:\n%s", stderr)
	}
	// overlay: the base directory is readable, the rest of the host is not
	dir := t.TempDir()
	os.WriteFile(dir+"/f", []byte("x"), 0o644)
	_, _, stderr = runSandsh(t, "", "--fs", "overlay", "--base", dir, "--env", "SANDSH_TEST_HOOK=open:"+dir+"/f", "-c", "true")
	if !strings.Contains(stderr, "hook: open: ok\n") {
		t.Errorf("the overlay base was not readable in the worker:\n%s", stderr)
	}
	_, _, stderr = runSandsh(t, "", "--fs", "overlay", "--base", dir, "--env", "SANDSH_TEST_HOOK=open:/etc/passwd", "-c", "true")
	if !strings.Contains(stderr, "hook: open: permission denied\n") {
		t.Errorf("a host open outside --base was not refused:\n%s", stderr)
	}
}

// TestWorkerSeccomp: a host exec inside a restricted worker fails with
// EPERM (seccomp), whatever path reached it.
func TestWorkerSeccomp(t *testing.T) {
	if runtime.GOOS != "linux" || !restrict.Probe().Seccomp {
		suite.Skip(t, "seccomp", "the kernel has no seccomp filters")
	}
	for _, fs := range [][]string{{"--fs", "mem"}, {"--fs", "disk", "-r"}} {
		args := append(append([]string{}, fs...), "--env", "SANDSH_TEST_HOOK=exec:/bin/true", "-c", "true")
		_, _, stderr := runSandsh(t, "", args...)
		if !strings.Contains(stderr, "hook: exec: operation not permitted\n") {
			t.Errorf("%v: a host exec in the worker was not refused with EPERM:\n%s", fs, stderr)
		}
	}
}

// TestWorkerEnviron: the worker's process environment is minimal; the
// host's never reaches it.
func TestWorkerEnviron(t *testing.T) {
	t.Setenv("SANDSH_HOST_SECRET", "leak")
	_, _, stderr := runSandsh(t, "", "--env", "SANDSH_TEST_HOOK=environ", "-c", "true")
	if !strings.Contains(stderr, "hook: environ ") || strings.Contains(stderr, "SANDSH_HOST_SECRET") || strings.Contains(stderr, "PATH=") {
		t.Errorf("worker environment: %s", stderr)
	}
}

// TestWorkerBehavesLikeInProcess: what a script sees is the same with
// and without the worker.
func TestWorkerBehavesLikeInProcess(t *testing.T) {
	script := `echo "$0 $1 $#"; TZ=Asia/Tokyo date -d @0 +%H; echo err >&2; read -r l; echo "in:$l"; exit 3`
	for _, extra := range [][]string{nil, {"--no-worker"}} {
		args := append(append([]string{}, extra...), "-c", script, "name", "a")
		status, stdout, stderr := runSandsh(t, "line\n", args...)
		if status != 3 || stdout != "name a 1\n09\nin:line\n" || stderr != "err\n" {
			t.Errorf("%v: status %d stdout %q stderr %q", extra, status, stdout, stderr)
		}
	}
	// a script file read by the parent, its arguments, and syntax errors
	dir := t.TempDir()
	os.WriteFile(dir+"/s.sh", []byte("echo file $1\nif\n"), 0o644)
	status, stdout, stderr := runSandsh(t, "", dir+"/s.sh", "x")
	if status != 2 || stdout != "file x\n" || !strings.Contains(stderr, "s.sh:") {
		t.Errorf("script file: status %d stdout %q stderr %q", status, stdout, stderr)
	}
	status, _, stderr = runSandsh(t, "", dir+"/missing.sh")
	if status != ExitNotFound || !strings.Contains(stderr, "No such file") {
		t.Errorf("missing script: status %d stderr %q", status, stderr)
	}
	status, _, stderr = runSandsh(t, "", "--max-memory", "lots", "-c", "true")
	if status != ExitUsage || !strings.Contains(stderr, "--max-memory") {
		t.Errorf("bad --max-memory: status %d stderr %q", status, stderr)
	}
}

// brokenPipe accepts a few bytes, then fails like a closed pipe.
type brokenPipe struct{ n int }

func (b *brokenPipe) Write(p []byte) (int, error) {
	if b.n > 16 {
		return 0, syscall.EPIPE
	}
	b.n += len(p)
	return len(p), nil
}

// TestWorkerBrokenPipe: `sandsh -c 'while :; do echo y; done' | head -1`
// ends when head does, as bash does on SIGPIPE.
func TestWorkerBrokenPipe(t *testing.T) {
	start := time.Now()
	status := Run([]string{"--timeout", "20s", "-c", "while :; do echo y; done"}, IO{In: strings.NewReader(""),
		Out: &brokenPipe{}, Err: io.Discard, Getenv: func(string) string { return "" }, Getwd: os.Getwd})
	if status != 128+int(syscall.SIGPIPE) {
		t.Errorf("status %d, want %d", status, 128+int(syscall.SIGPIPE))
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
}
