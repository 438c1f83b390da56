//go:build linux

package restrict

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/internal/suite"
)

// testWorkerEnv selects what this test binary does when the tests below
// start it as a worker.
const testWorkerEnv = "SANDSH_RESTRICT_TEST_WORKER"

func TestMain(m *testing.M) {
	if action := os.Getenv(testWorkerEnv); action != "" {
		os.Exit(testWorker(action))
	}
	os.Exit(m.Run())
}

// testWorker is the worker side of the tests: it reads its argument from
// the payload fd and reports on the stdout fd.
func testWorker(action string) int {
	out := os.NewFile(WorkerStdoutFD, "stdout")
	pay := os.NewFile(WorkerPayloadFD, "payload")
	argb, _ := io.ReadAll(pay)
	arg := string(argb)
	say := func(format string, a ...any) { fmt.Fprintf(out, format+"\n", a...) }
	probe := func() {
		// a direct host open, as a bug in the vfs layer would do
		if fd, err := syscall.Open("/etc/passwd", syscall.O_RDONLY, 0); err != nil {
			say("open /etc/passwd: %v", err)
		} else {
			syscall.Close(fd)
			say("open /etc/passwd: ok")
		}
		// a host program, started directly
		say("exec /bin/true: %v", errText(run("/bin/true")))
		// the gateway's host-exec path, as a bug in restricted mode
		// would reach it
		var stderr bytes.Buffer
		g := New(builtins.NewRegistry(), Restricted(false))
		env := &builtins.Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr, Dir: "/"}
		st := g.host(context.Background(), env, "/bin/true", []string{"true"})
		say("gateway host: %d %s", st, strings.TrimSpace(stderr.String()))
	}
	switch action {
	case "exit":
		var n int
		fmt.Sscan(arg, &n)
		say("env %s", strings.Join(os.Environ(), " "))
		return n
	case "sleep":
		time.Sleep(time.Hour)
	case "alloc":
		var keep [][]byte
		for {
			b := make([]byte, 8<<20)
			for i := range b {
				b[i] = 1
			}
			keep = append(keep, b)
		}
	case "stack":
		debug.SetMaxStack(8 << 20)
		var f func(n int) int
		f = func(n int) int { var pad [256]byte; pad[n%256] = 1; return f(n+1) + int(pad[0]) }
		f(0)
	case "panic":
		go func() { panic("test boom") }()
		time.Sleep(time.Hour)
	case "ready-sleep":
		say("ready")
		time.Sleep(time.Hour)
	case "ready-exit":
		say("ready")
		time.Sleep(300 * time.Millisecond)
		return 0
	case "self-int":
		// dies by SIGINT before the supervisor could see it arrive
		syscall.Kill(os.Getpid(), syscall.SIGINT)
		time.Sleep(time.Hour)
	case "watchdog":
		// the heap watchdog alone (no supervisor limit) ends a run
		// that keeps what it allocates
		StartHeapWatchdog(64<<20, 10*time.Millisecond, time.Second,
			func() { say("limit"); os.Exit(3) },
			func(orphaned bool) { say("exit %v", orphaned); os.Exit(4) })
		var keep [][]byte
		for range 1 << 12 {
			b := make([]byte, 1<<20)
			for i := range b {
				b[i] = 1
			}
			keep = append(keep, b)
			time.Sleep(time.Millisecond)
		}
		say("survived %d MiB", len(keep))
	case "rlimits":
		// What only the rlimits stop, tried directly as a bug in the
		// vfs layer or a command would: address space reserved without
		// touching it (no RSS, no Go heap: the supervisor and the heap
		// watchdog see nothing), a file past --max-file-size written
		// straight to the host, and descriptors opened without end.
		rep, err := Confine(ConfineSpec{Restricted: true, MaxMemory: 64 << 20, MaxFileSize: 1 << 20, ReadWrite: []string{arg}})
		if err != nil {
			say("confine: %v", err)
			return 1
		}
		say("rlimits %s fallbacks %s", strings.Join(rep.Rlimits, " "), strings.Join(rep.Fallbacks, "; "))
		m, err := unix.Mmap(-1, 0, 3<<30, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
		if err == nil {
			unix.Munmap(m)
		}
		say("mmap 3GiB: %v", errText(err))
		f, err := os.Create(filepath.Join(arg, "big"))
		if err == nil {
			_, err = f.Write(make([]byte, 2<<20))
			f.Close()
		}
		say("write 2MiB: %v", errText(err))
		n := 0
		for ; n < 1<<14; n++ {
			if _, err = unix.Dup(0); err != nil {
				break
			}
		}
		say("dup: %v", errText(err))
		say("fds below 1024: %v", n < 1024)
	case "confine":
		spec := ConfineSpec{Restricted: true, MaxMemory: 256 << 20}
		if kind, dir, ok := strings.Cut(arg, ":"); ok {
			switch kind {
			case "ro":
				spec.ReadOnly = []string{dir}
			case "rw":
				spec.ReadWrite = []string{dir}
			}
		} else if arg == "unrestricted" {
			spec.Restricted = false
		}
		// Threads that exist before Confine (each locked to its
		// goroutine) must end up behind every wall too.
		threads := startThreads(4)
		tasks := openTaskStatuses()
		rep, err := Confine(spec)
		if err != nil {
			say("confine: %v", err)
			return 1
		}
		say("landlock %d seccomp %v", rep.LandlockABI, rep.Seccomp)
		probe()
		if spec.Restricted {
			for i, line := range threads.check() {
				say("thread %d: %s", i, line)
			}
			say("all threads: %s", tasks.check())
		}
		if kind, dir, ok := strings.Cut(arg, ":"); ok {
			_, err := os.ReadFile(filepath.Join(dir, "in.txt"))
			say("read in.txt: %v", errText(err))
			err = os.WriteFile(filepath.Join(dir, "new.txt"), []byte("x"), 0o644)
			say("write new.txt: %v", errText(err))
			if kind == "rw" {
				os.MkdirAll(filepath.Join(dir, "a"), 0o755)
				os.MkdirAll(filepath.Join(dir, "b"), 0o755)
				os.WriteFile(filepath.Join(dir, "a", "f"), []byte("x"), 0o644)
				err = os.Rename(filepath.Join(dir, "a", "f"), filepath.Join(dir, "b", "f"))
				say("rename across dirs: %v", errText(err))
				err = run(filepath.Join(dir, "prog.sh"))
				say("exec prog.sh: %v", errText(err))
			}
		}
	case "seccomp-only":
		// Only the seccomp wall: no_new_privs and the filter.
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			say("prctl: %v", err)
			return 1
		}
		var rep Report
		if err := confineSeccomp(&rep); err != nil {
			say("seccomp: %v", err)
			return 1
		}
		say("seccomp %v", rep.Seccomp)
		probe()
	}
	return 0
}

// run runs a host program with in-memory streams (nil streams would
// open /dev/null, which Landlock refuses first).
func run(path string) error {
	cmd := exec.Command(path)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(""), io.Discard, io.Discard
	return cmd.Run()
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

// runTestWorker starts this test binary as a worker doing action.
func runTestWorker(t *testing.T, action, arg string, spec WorkerSpec) (WorkerResult, string) {
	t.Helper()
	suite.DefaultSignals(t) // a worker that inherits SIGINT ignored cannot die of it
	return startTestWorker(t, action, arg, spec)
}

// startTestWorker is runTestWorker with the caller's signal dispositions
// left as they are.
func startTestWorker(t *testing.T, action, arg string, spec WorkerSpec) (WorkerResult, string) {
	t.Helper()
	var out bytes.Buffer
	exe, _ := os.Executable()
	spec.Exe = exe
	spec.Arg0 = "restrict.test"
	spec.Env = []string{WorkerEnv + "=1", testWorkerEnv + "=" + action, "GOTRACEBACK=none"}
	spec.Payload = []byte(arg)
	if spec.Stdout == nil {
		spec.Stdout = &out
	}
	spec.Stderr = io.Discard
	start := time.Now()
	res, err := RunWorker(spec)
	if err != nil {
		t.Fatalf("RunWorker: %v", err)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("%s took %v", action, d)
	}
	return res, out.String()
}

func skipUnlessLinux(t *testing.T) {
	if runtime.GOOS != "linux" {
		suite.Skip(t, "linux", "the worker's confinement is Linux-only")
	}
}

// TestWorkerExitAndEnv: a worker's own exit status passes through, and
// its environment is exactly what the parent gave it.
func TestWorkerExitAndEnv(t *testing.T) {
	t.Setenv("SANDSH_HOST_SECRET", "leak")
	res, out := runTestWorker(t, "exit", "7", WorkerSpec{})
	if res.Death != Exited || res.Status != 7 {
		t.Fatalf("got %+v, want exit 7", res)
	}
	if strings.Contains(out, "SANDSH_HOST_SECRET") || strings.Contains(out, "PATH=") {
		t.Errorf("the worker inherited the host environment: %s", out)
	}
}

func TestWorkerTimeout(t *testing.T) {
	start := time.Now()
	res, _ := runTestWorker(t, "sleep", "", WorkerSpec{Timeout: 100 * time.Millisecond, Grace: 100 * time.Millisecond})
	if res.Death != DiedTimeout {
		t.Fatalf("got %+v, want DiedTimeout", res)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("timeout took %v", d)
	}
}

func TestWorkerMemory(t *testing.T) {
	skipUnlessLinux(t)
	res, _ := runTestWorker(t, "alloc", "", WorkerSpec{MaxMemory: 64 << 20, Timeout: 20 * time.Second})
	if res.Death != DiedMemory {
		t.Fatalf("got %+v, want DiedMemory", res)
	}
	if res.PeakRSS <= 64<<20 {
		t.Errorf("peak RSS %d, want above the limit", res.PeakRSS)
	}
	// The supervisor's poll must be what stopped it, near the limit: a
	// worker left to run on dies of RLIMIT_AS ("out of memory", also
	// DiedMemory) only gigabytes later, which on an idle machine is
	// quick enough to pass the checks above.
	if res.PeakRSS > 1<<30 || strings.Contains(res.CrashText, "out of memory") {
		t.Errorf("peak RSS %d, crash %q: the worker ran far past --max-memory before it died", res.PeakRSS, res.CrashText)
	}
}

func TestWorkerStackOverflow(t *testing.T) {
	res, _ := runTestWorker(t, "stack", "", WorkerSpec{Timeout: 20 * time.Second})
	if res.Death != DiedStack {
		t.Fatalf("got %+v, want DiedStack", res)
	}
}

func TestWorkerPanic(t *testing.T) {
	res, _ := runTestWorker(t, "panic", "", WorkerSpec{Timeout: 20 * time.Second})
	if res.Death != DiedCrash || res.Detail != "test boom" {
		t.Fatalf("got %+v, want DiedCrash with detail %q", res, "test boom")
	}
}

// signalOnWrite sends sig to this process when the worker first writes.
type signalOnWrite struct {
	sig  syscall.Signal
	sent bool
}

func (s *signalOnWrite) Write(p []byte) (int, error) {
	if !s.sent {
		s.sent = true
		syscall.Kill(os.Getpid(), s.sig)
	}
	return len(p), nil
}

// TestWorkerForwardsSignals: a signal sent to sandsh reaches the worker
// and ends the run as it would end bash (status 128+n, no message); the
// Go runtime's SIGQUIT goroutine dump reaches no one.
func TestWorkerForwardsSignals(t *testing.T) {
	skipUnlessLinux(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT} {
		res, _ := runTestWorker(t, "ready-sleep", "", WorkerSpec{
			Timeout: 20 * time.Second, ForwardSignals: true, Stdout: &signalOnWrite{sig: sig}})
		if res.Death != DiedSignal || res.Signal != sig {
			t.Errorf("%v: got %+v, want DiedSignal", sig, res)
		}
	}
}

// TestWorkerKeepsIgnoredSignals: sandsh run under nohup (SIGHUP ignored)
// survives a hangup: the supervisor neither catches nor forwards a signal
// its caller ignores (Notify used to undo the ignoring and pass SIGHUP on,
// which ended the run with 129).
func TestWorkerKeepsIgnoredSignals(t *testing.T) {
	skipUnlessLinux(t)
	signal.Ignore(syscall.SIGHUP)
	t.Cleanup(func() { signal.Reset(syscall.SIGHUP) })
	res, out := startTestWorker(t, "ready-exit", "", WorkerSpec{
		Timeout: 20 * time.Second, ForwardSignals: true, Stdout: &signalOnWrite{sig: syscall.SIGHUP}})
	if res.Death != Exited || res.Status != 0 {
		t.Fatalf("got %+v (output %q), want a normal exit: the ignored SIGHUP reached the worker", res, out)
	}
}

// TestWorkerSignalDeath: a worker killed by SIGINT (Ctrl-C reaches the
// whole process group) is a signal death even if the supervisor did not
// forward anything, never an internal error.
func TestWorkerSignalDeath(t *testing.T) {
	skipUnlessLinux(t)
	res, _ := runTestWorker(t, "self-int", "", WorkerSpec{Timeout: 20 * time.Second})
	if res.Death != DiedSignal || res.Signal != syscall.SIGINT {
		t.Fatalf("got %+v, want DiedSignal SIGINT", res)
	}
}

// TestHeapWatchdog: inside the worker, the watchdog fails the run near
// the memory limit before the supervisor has to kill it.
func TestHeapWatchdog(t *testing.T) {
	res, out := runTestWorker(t, "watchdog", "", WorkerSpec{Timeout: 20 * time.Second})
	if res.Death != Exited || res.Status != 3 || out != "limit\n" {
		t.Fatalf("got %+v, output %q; want exit 3 after \"limit\"", res, out)
	}
}

// TestCommandPanic: an in-process command that panics is recovered by
// the gateway: status 70 and one line naming it, no stack trace.
func TestCommandPanic(t *testing.T) {
	var stderr bytes.Buffer
	var reported any
	g := New(builtins.NewRegistry(), OnPanic(func(cmd string, v any, stack []byte) { reported = v }))
	env := &builtins.Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr, Dir: "/"}
	boom := &builtins.Command{Name: "boom", Run: func(context.Context, *builtins.Env, []string) int {
		var m map[string]int
		m["x"] = 1 // a nil map write: a runtime panic, as a bug would be
		return 0
	}}
	if st := g.call(context.Background(), boom, env, []string{"boom"}); st != StatusCommandPanic {
		t.Errorf("status %d, want %d", st, StatusCommandPanic)
	}
	if got, want := stderr.String(), "sandsh: boom: internal error: assignment to entry in nil map\n"; got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
	if reported == nil {
		t.Error("OnPanic was not called")
	}
}

func TestCrashLine(t *testing.T) {
	for text, want := range map[string]string{
		"runtime: goroutine stack exceeds 8388608-byte limit\nfatal error: stack overflow\n": "stack overflow",
		"panic: boom [recovered]\n\ngoroutine 1 [running]:\n":                                "boom",
		"some output\n": "",
	} {
		if got := crashLine(text); got != want {
			t.Errorf("crashLine(%q) = %q, want %q", text, got, want)
		}
	}
}
