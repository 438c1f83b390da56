//go:build linux

package restrict

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sandsh/sandsh/internal/suite"
)

// The second walls: even if a bug let a script's command reach the host
// from inside the worker, Landlock and seccomp refuse it. Each test
// starts this test binary as a worker that confines itself and then
// tries host opens and execs directly (testWorker, "confine").

func requireLandlock(t *testing.T) {
	if Probe().LandlockABI == 0 {
		suite.Skip(t, "landlock", "the kernel has no Landlock")
	}
}

func requireSeccomp(t *testing.T) {
	if !Probe().Seccomp {
		suite.Skip(t, "seccomp", "the kernel has no seccomp filters")
	}
}

func wantLines(t *testing.T, out string, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if !strings.Contains(out, l+"\n") {
			t.Errorf("missing %q in worker output:\n%s", l, out)
		}
	}
}

// TestConfineMem: --fs mem reaches no host path, and no host program
// starts: seccomp's EPERM comes first, by the gateway's host-exec path
// too.
func TestConfineMem(t *testing.T) {
	requireLandlock(t)
	requireSeccomp(t)
	res, out := runTestWorker(t, "confine", "mem", WorkerSpec{})
	if res.Death != Exited || res.Status != 0 {
		t.Fatalf("worker: %+v\n%s", res, out)
	}
	wantLines(t, out,
		"open /etc/passwd: permission denied",
		"exec /bin/true: operation not permitted",
		"gateway host: 126 sandsh: true: Permission denied")
	// Every thread, those that existed before Confine included, ends
	// behind all three walls (Landlock goes up in one broadcast once
	// seccomp's TSYNC has set no_new_privs everywhere).
	for i := range 4 {
		wantLines(t, out, fmt.Sprintf("thread %d: NoNewPrivs 1 Seccomp 2 open permission denied", i))
	}
	if !strings.Contains(out, "all threads: ") || !strings.Contains(out, " confined\n") {
		t.Errorf("not every thread is confined:\n%s", out)
	}
}

// TestConfineSeccompOnly: the seccomp filter alone refuses exec (EPERM),
// whatever Landlock does.
func TestConfineSeccompOnly(t *testing.T) {
	requireSeccomp(t)
	res, out := runTestWorker(t, "seccomp-only", "", WorkerSpec{})
	if res.Death != Exited || res.Status != 0 {
		t.Fatalf("worker: %+v\n%s", res, out)
	}
	wantLines(t, out,
		"seccomp true",
		"open /etc/passwd: ok",
		"exec /bin/true: operation not permitted",
		"gateway host: 126 sandsh: true: Permission denied")
}

// TestConfineOverlay: the --base directory is readable, not writable;
// nothing else is reachable.
func TestConfineOverlay(t *testing.T) {
	requireLandlock(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "in.txt"), []byte("in"), 0o644)
	res, out := runTestWorker(t, "confine", "ro:"+dir, WorkerSpec{})
	if res.Death != Exited || res.Status != 0 {
		t.Fatalf("worker: %+v\n%s", res, out)
	}
	wantLines(t, out,
		"open /etc/passwd: permission denied",
		"read in.txt: ok",
		"write new.txt: permission denied")
	if _, err := os.Stat(filepath.Join(dir, "new.txt")); err == nil {
		t.Error("the worker wrote into the read-only base directory")
	}
}

// TestConfineRoot: the --root directory is readable and writable
// (renames across directories too) but nothing in it can be executed.
func TestConfineRoot(t *testing.T) {
	requireLandlock(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "in.txt"), []byte("in"), 0o644)
	os.WriteFile(filepath.Join(dir, "prog.sh"), []byte("#!/bin/sh\ntrue\n"), 0o755)
	res, out := runTestWorker(t, "confine", "rw:"+dir, WorkerSpec{})
	if res.Death != Exited || res.Status != 0 {
		t.Fatalf("worker: %+v\n%s", res, out)
	}
	wantLines(t, out,
		"open /etc/passwd: permission denied",
		"read in.txt: ok",
		"write new.txt: ok",
		"rename across dirs: ok")
	if !strings.Contains(out, "exec prog.sh: operation not permitted") && !strings.Contains(out, "exec prog.sh: permission denied") {
		t.Errorf("exec in --root was not refused:\n%s", out)
	}
}

// TestConfineUnrestricted: plain `--fs disk` runs host programs, so the
// worker confines nothing there.
func TestConfineUnrestricted(t *testing.T) {
	if _, err := os.Stat("/bin/true"); err != nil {
		suite.Skip(t, "/bin/true", "the unrestricted worker runs it")
	}
	res, out := runTestWorker(t, "confine", "unrestricted", WorkerSpec{})
	if res.Death != Exited || res.Status != 0 {
		t.Fatalf("worker: %+v\n%s", res, out)
	}
	wantLines(t, out, "open /etc/passwd: ok", "exec /bin/true: ok", "gateway host: 0 ")
}

// TestSeccompProgram: the filter checks the architecture before reading
// the syscall number, and ends by allowing.
func TestSeccompProgram(t *testing.T) {
	p, err := seccompProgram()
	if err != nil {
		suite.Skip(t, "seccomp", "no seccomp program for this architecture: %v", err)
	}
	if p[0].K != 4 || p[1].K != auditArch[runtime.GOARCH] {
		t.Errorf("the filter does not check the architecture first: %+v", p[:2])
	}
	if last := p[len(p)-1]; last.K != 0x7fff0000 {
		t.Errorf("the filter does not end with ALLOW: %+v", last)
	}
}

// TestConfineRlimits: the rlimits stop what no other wall sees. Address
// space reserved and never touched (RLIMIT_AS; the supervisor watches
// RSS and the watchdog the Go heap, and neither grows), a file past
// --max-file-size written straight to the host (RLIMIT_FSIZE: EFBIG, the
// vfs layer bypassed) and descriptors opened without end (RLIMIT_NOFILE:
// EMFILE before 1024, though Go raises its soft limit to the hard one).
// A race build sets no RLIMIT_AS (its shadow memory would not fit) and
// must say so; .ci/run runs this test again in a normal build.
func TestConfineRlimits(t *testing.T) {
	skipUnlessLinux(t)
	dir := t.TempDir()
	res, out := runTestWorker(t, "rlimits", dir, WorkerSpec{})
	if res.Death != Exited || res.Status != 0 {
		t.Fatalf("worker: %+v\n%s", res, out)
	}
	if raceEnabled {
		wantLines(t, out, "mmap 3GiB: ok")
		if !strings.Contains(out, "RLIMIT_AS not set (race detector build)") {
			t.Errorf("a race build must report the missing RLIMIT_AS:\n%s", out)
		}
	} else {
		wantLines(t, out, "mmap 3GiB: cannot allocate memory")
	}
	wantLines(t, out, "write 2MiB: file too large", "dup: too many open files", "fds below 1024: true")
	if fi, err := os.Stat(filepath.Join(dir, "big")); err != nil || fi.Size() > 1<<20 {
		t.Errorf("the file past --max-file-size: %v, %v", fi, err)
	}
}
