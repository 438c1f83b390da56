package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sandsh/sandsh/internal/suite"
	"github.com/sandsh/sandsh/jail"
)

// jailBackends are the jail backends this host has; each jailed test runs
// once on each. Without user namespaces or python3 the tests skip.
func jailBackends(t *testing.T) []string {
	t.Helper()
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		suite.Skip(t, "python3", "/usr/bin/python3 is the jailed program of the attacks")
	}
	if out, err := exec.Command("unshare", "--user", "--map-root-user", "true").CombinedOutput(); err != nil {
		suite.Skip(t, "userns", "user namespaces build the jail: %v %s", err, out)
	}
	b := []string{"ns"}
	if err := jail.BwrapUsable(); err == nil {
		b = append(b, "bwrap")
	} else {
		suite.MissingBwrap(t, errors.Is(err, jail.ErrBwrapOld), "%s: %v", "the second jail backend's run of the attacks", err)
	}
	return b
}

// TestJailAttacks runs hostile programs inside the jail, one per escape
// the jail must stop, and proves each failed or was killed: by what the
// program itself saw, and by checking the host afterwards.
func TestJailAttacks(t *testing.T) {
	backends := jailBackends(t)
	host := t.TempDir()
	canary := filepath.Join(host, "canary.txt")
	if err := os.WriteFile(canary, []byte("host canary\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SANDSH_HOST_CANARY", "host-secret-canary")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	accepted := make(chan struct{}, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- struct{}{}
			c.Close()
		}
	}()
	// A host process the jail must neither see nor signal.
	victim := exec.Command("sleep", "300")
	if err := victim.Start(); err != nil {
		t.Fatal(err)
	}
	defer victim.Process.Kill()
	vpid := victim.Process.Pid

	py := func(code string) string { return "python3 -c '" + code + "'" }
	for _, tc := range []struct {
		name   string
		script string
		flags  []string
		stdout string // regexp the output must match
		status int    // -1: any
		marker string // no host process may have this in its command line afterwards
	}{
		{name: "read a host canary", script: py(fmt.Sprintf(`
try:
    open(%q).read(); print("READ")
except OSError as e: print("denied", e.errno)`, canary)), stdout: `^denied 2\n$`},
		{name: "read /etc/shadow", script: py(`print("empty" if open("/etc/shadow").read() == "" else "READ")`) + ` 2>/dev/null || echo unreadable`,
			stdout: `^(empty|unreadable)\n$`},
		{name: "write outside the working tree", script: py(`
import errno
for p in ["/usr/x", "/etc/x", "/x", "/proc/x", "/home/x", "/.sandsh-jail/x"]:
    try:
        open(p, "w").write("x"); print("WROTE", p)
    except OSError as e: print("denied", p)
open("/tmp/jail-private", "w").write("x"); print("tmp ok")`) + `; ls /tmp`,
			stdout: `^(denied \S+\n){6}tmp ok\n$`},
		{name: "connect to a host listener", script: py(fmt.Sprintf(`
import socket
s = socket.socket()
s.settimeout(2)
try:
    s.connect(("127.0.0.1", %d)); print("CONNECTED")
except OSError as e: print("refused", type(e).__name__)
try:
    socket.create_connection(("1.1.1.1", 53), timeout=2); print("CONNECTED")
except OSError as e: print("no route")`, port)), stdout: `^refused ConnectionRefusedError\nno route\n$`},
		{name: "see or signal host processes", script: py(fmt.Sprintf(`
import os
pids = [p for p in os.listdir("/proc") if p.isdigit()]
print("pids", pids)
try:
    os.kill(%d, 9); print("KILLED")
except OSError as e: print("kill refused", type(e).__name__)`, vpid)), stdout: `^pids \['1'(, '2')?\]\nkill refused ProcessLookupError\n$`},
		{name: "read the host environment", script: py(`
import os
print(sorted(k for k in os.environ if "CANARY" in k or k.startswith("SANDSH")), os.environ.get("MINE"))`),
			flags: []string{"--env", "MINE=exported"}, stdout: `^\[\] exported\n$`},
		{name: "exceed memory", script: py(`
try:
    b = bytearray(512 << 20); print("ALLOCATED")
except MemoryError: print("MemoryError")`), flags: []string{"--max-memory", "256MiB"}, stdout: `^MemoryError\n$`},
		{name: "fork bomb", script: py(`
import os, sys, time
n = 0
while n < 100000:
    try:
        pid = os.fork()
    except OSError as e:
        print("fork refused", n < 300); sys.stdout.flush(); break
    if pid == 0:
        time.sleep(300); os._exit(0)
    n += 1`) + ` jail-bomb-marker`, stdout: `^fork refused True\n$`, marker: "jail-bomb-marker"},
		{name: "child left running", script: py(`
import subprocess, sys
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(301)", "jail-child-marker"]); print("started")`) + `; echo back`, stdout: `^started\nback\n$`, marker: "jail-child-marker"},
		{name: "run another host program", script: py(`
import subprocess
for argv in (["sleep", "0"], ["/bin/sh", "-c", "true"], ["/lib64/ld-linux-x86-64.so.2", "/bin/true"]):
    try:
        subprocess.run(argv); print("RAN", argv[0])
    except OSError as e: print("refused", e.errno)`) + ` 2>/dev/null`, stdout: `^(refused 13\n){2}refused (13|2)\n$`},
		{name: "ptrace", script: py(`
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
r = libc.ptrace(16, 1, 0, 0)
print("attach", r, os.strerror(ctypes.get_errno()))
r = libc.ptrace(0, 0, 0, 0)
print("traceme", r, os.strerror(ctypes.get_errno()))`), stdout: `^attach -1 Operation not permitted\ntraceme -1 Operation not permitted\n$`},
		{name: "mount", script: py(`
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
os.mkdir("m")
r = libc.mount(b"tmpfs", b"m", b"tmpfs", 0, None)
print("mount", r, os.strerror(ctypes.get_errno()))
r = libc.umount2(b"/proc", 2)
print("umount", r, os.strerror(ctypes.get_errno()))`), stdout: `^mount -1 Operation not permitted\numount -1 Operation not permitted\n$`},
		{name: "unshare", script: py(`
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
for flag in [0x10000000, 0x20000, 0x40000000, 0x20000000]:
    r = libc.unshare(flag)
    print("unshare", hex(flag), r, os.strerror(ctypes.get_errno()))`) + `; unshare -U true 2>/dev/null || echo "unshare(1) failed"`,
			stdout: `^(unshare 0x\w+ -1 Operation not permitted\n){4}unshare\(1\) failed\n$`},
		{name: "timeout kills it", script: py(`while True: pass`) + ` jail-spin-marker; echo not reached`,
			flags: []string{"--timeout", "2s"}, status: 124, marker: "jail-spin-marker"},
	} {
		for _, b := range backends {
			t.Run(b+"/"+tc.name, func(t *testing.T) {
				args := append([]string{"--allow-run", "python3,unshare", "--jail-backend", b}, tc.flags...)
				args = append(args, "-c", tc.script)
				start := time.Now()
				status, out, errs := runSandsh(t, "", args...)
				checkClean(t, errs)
				want := tc.status
				if tc.status == 0 {
					want = 0
				}
				if want >= 0 && status != want {
					t.Errorf("status %d, want %d\nstdout: %s\nstderr: %s", status, want, out, errs)
				}
				if tc.stdout != "" && !regexp.MustCompile(tc.stdout).MatchString(out) {
					t.Errorf("stdout %q does not match %q\nstderr: %s", out, tc.stdout, errs)
				}
				if time.Since(start) > 20*time.Second {
					t.Errorf("took %v", time.Since(start))
				}
				if tc.marker != "" {
					if pids := hostProcesses(tc.marker); len(pids) > 0 {
						t.Errorf("processes left running on the host: %v", pids)
					}
				}
			})
		}
	}
	select {
	case <-accepted:
		t.Errorf("the host listener on 127.0.0.1:%d got a connection from the jail", port)
	default:
	}
	if err := syscall.Kill(vpid, 0); err != nil {
		t.Errorf("the host process %d died: %v", vpid, err)
	}
	if _, err := os.Stat("/tmp/jail-private"); err == nil {
		t.Errorf("a write to the jail's /tmp reached the host's /tmp")
	}
	if data, err := os.ReadFile(canary); err != nil || string(data) != "host canary\n" {
		t.Errorf("host canary changed: %q %v", data, err)
	}
}

// hostProcesses lists the host processes whose command line holds s
// (after a moment: a killed pid namespace is reaped asynchronously).
func hostProcesses(s string) []string {
	var found []string
	for range 20 {
		found = found[:0]
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			if _, err := fmt.Sscan(e.Name(), new(int)); err != nil {
				continue
			}
			cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
			if err == nil && strings.Contains(strings.ReplaceAll(string(cmdline), "\x00", " "), s) {
				found = append(found, e.Name())
			}
		}
		if len(found) == 0 {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return found
}

// TestJailRefusesWithoutNamespaces: on a host where no jail can be
// built (user namespaces exhausted: max_user_namespaces 0 inside a user
// namespace of the test's own), the allowed program does not run and
// the message says why.
func TestJailRefusesWithoutNamespaces(t *testing.T) {
	jailBackends(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []string{"auto", "ns", "bwrap"} {
		t.Run(b, func(t *testing.T) {
			c := exec.Command("unshare", "--user", "--map-root-user", "sh", "-c",
				`echo 0 > /proc/sys/user/max_user_namespaces && exec "$@"`, "sh",
				exe, "--jail-backend", b, "--allow-run", "python3", "-c", "python3 -c 'print(\"RAN\")'; echo status $?")
			c.Env = append(os.Environ(), "SANDSH_TEST_MAIN=1")
			var stderr bytes.Buffer
			c.Stderr = &stderr
			out, err := c.Output()
			if err != nil {
				t.Fatalf("%v\nstderr: %s", err, stderr.String())
			}
			if strings.Contains(string(out), "RAN") || !strings.Contains(string(out), "status 126") {
				t.Errorf("stdout %q: want the program refused with status 126\nstderr: %s", out, stderr.String())
			}
			if !regexp.MustCompile(`^sandsh: line 1: python3: jail: cannot build the jail, so python3 does not run: `).MatchString(stderr.String()) {
				t.Errorf("stderr %q: want the documented refusal", stderr.String())
			}
		})
	}
}

// TestJailBesideANobodyKiller: a job on the same machine that kills
// every process of the user nobody must not break a jailed run (the
// jails of a root sandsh ran as nobody). The killer here kills
// nobody's processes among this test's descendants, so that it cannot
// break another job's on a shared machine; it kills as fast as the
// jails start. As another user the jail is that user's own, out of
// reach of the same killer, so the test needs root to mean anything.
func TestJailBesideANobodyKiller(t *testing.T) {
	backends := jailBackends(t)
	if os.Getuid() != 0 {
		suite.Skip(t, "root", "the jails of a sandsh that is not root run as its own user; the killer is a root's job")
	}
	stop := make(chan struct{})
	killed := make(chan int, 1)
	go func() {
		n := 0
		defer func() { killed <- n }()
		for {
			select {
			case <-stop:
				return
			default:
			}
			n += killNobodyDescendants(os.Getpid())
			time.Sleep(2 * time.Millisecond)
		}
	}()
	for _, b := range backends {
		t.Run(b, func(t *testing.T) {
			status, out, errs := runSandsh(t, "", "--allow-run", "python3", "--jail-backend", b, "-c",
				`python3 -c 'import os, time; time.sleep(1); print("survived", os.getuid())'`)
			if status != 0 || out != "survived 1000\n" {
				t.Errorf("status %d, stdout %q, want the jailed program to survive\nstderr: %s", status, out, errs)
			}
		})
	}
	close(stop)
	if n := <-killed; n > 0 {
		t.Errorf("the killer found %d processes of nobody among the jails", n)
	}
}

// killNobodyDescendants kills with SIGKILL every process of the user
// nobody (65534) that descends from ancestor, and says how many.
func killNobodyDescendants(ancestor int) int {
	ents, _ := os.ReadDir("/proc")
	parent := map[int]int{}
	var nobody []int
	for _, e := range ents {
		var pid int
		if _, err := fmt.Sscan(e.Name(), &pid); err != nil {
			continue
		}
		status, err := os.ReadFile("/proc/" + e.Name() + "/status")
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(status), "\n") {
			f := strings.Fields(line)
			switch {
			case len(f) >= 2 && f[0] == "PPid:":
				var pp int
				fmt.Sscan(f[1], &pp)
				parent[pid] = pp
			case len(f) >= 2 && f[0] == "Uid:" && f[1] == "65534":
				nobody = append(nobody, pid)
			}
		}
	}
	n := 0
	for _, pid := range nobody {
		for p, hops := parent[pid], 0; p > 1 && hops < 64; p, hops = parent[p], hops+1 {
			if p == ancestor {
				if syscall.Kill(pid, syscall.SIGKILL) == nil {
					n++
				}
				break
			}
		}
	}
	return n
}

// TestJailOldBwrap: a bubblewrap older than 0.12.0 is refused with the
// reason, and `sandsh version` says so. A fake bwrap printing an old
// version is bound over /usr/bin/bwrap in a mount namespace of the
// test's own (sandsh looks for bwrap in the system directories only,
// never on $PATH).
func TestJailOldBwrap(t *testing.T) {
	jailBackends(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	fake := filepath.Join(t.TempDir(), "bwrap")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho 'bubblewrap 0.8.0'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, string) {
		c := exec.Command("unshare", append([]string{"--user", "--map-root-user", "--mount", "sh", "-c",
			`found=; for d in /usr/local/bin /usr/bin /bin; do if [ -e $d/bwrap ]; then mount --bind "$0" $d/bwrap || exit; found=1; fi; done; ` +
				`[ -n "$found" ] || { mount -t tmpfs tmpfs /usr/local/bin && cp "$0" /usr/local/bin/bwrap; } || exit; exec "$@"`, fake, exe}, args...)...)
		c.Env = append(os.Environ(), "SANDSH_TEST_MAIN=1")
		var stdout, stderr bytes.Buffer
		c.Stdout, c.Stderr = &stdout, &stderr
		c.Run()
		return stdout.String(), stderr.String()
	}
	out, errs := run("--jail-backend", "bwrap", "--allow-run", "python3", "-c", "python3 -c 'print(\"RAN\")'; echo status $?")
	if strings.Contains(out, "RAN") || !strings.Contains(out, "status 126") {
		t.Errorf("stdout %q: want the program refused\nstderr: %s", out, errs)
	}
	want := `^sandsh: line 1: python3: jail: cannot build the jail, so python3 does not run: bwrap: /usr/(local/)?bin/bwrap is bubblewrap 0\.8\.0, older than 0\.12\.0, the oldest the bwrap backend accepts\n$`
	if !regexp.MustCompile(want).MatchString(errs) {
		t.Errorf("stderr %q, want %s", errs, want)
	}
	if out, errs := run("version"); !regexp.MustCompile(`(?m)^jail backend bwrap: unavailable \(/usr/(local/)?bin/bwrap is bubblewrap 0\.8\.0, older than 0\.12\.0`).MatchString(out) {
		t.Errorf("sandsh version: %q %s", out, errs)
	}
}

// TestJailDeepTree: a jailed program leaving 1,000 nested directories
// with 255-byte names must not blow up the unconfined parent (its
// read-back took it to 720 MB): the read-back refuses the first path
// the sandbox cannot hold, in one line with the path shortened, and the
// parent stays small (its peak RSS, measured by the kernel).
func TestJailDeepTree(t *testing.T) {
	for _, b := range jailBackends(t) {
		t.Run(b, func(t *testing.T) {
			exe, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			c := exec.Command(exe, "--jail-backend", b, "--allow-run", "python3", "-c", `python3 -c '
import os
n = "d" * 255
for i in range(1000):
    os.mkdir(n); os.chdir(n)
print("made")'; echo "status $?"`)
			c.Env = append(os.Environ(), "SANDSH_TEST_MAIN=1")
			var stdout, stderr bytes.Buffer
			c.Stdout, c.Stderr = &stdout, &stderr
			if err := c.Run(); err != nil {
				t.Fatalf("%v\nstderr: %s", err, stderr.String())
			}
			if stdout.String() != "made\nstatus 1\n" {
				t.Errorf("stdout %q, want the program's changes refused (status 1)", stdout.String())
			}
			want := `^sandsh: python3: jail: the working tree cannot come back: /d{39}…\(\d+ bytes\)…d{40}: path longer than 4095 bytes\n$`
			if !regexp.MustCompile(want).MatchString(stderr.String()) {
				t.Errorf("stderr %.400q, want %s", stderr.String(), want)
			}
			// The parent and the children it waited for (the worker;
			// the jail is a child of the parent) at their peak.
			rss := c.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10
			t.Logf("peak RSS %d MB", rss>>20)
			if rss > 200<<20 {
				t.Errorf("peak RSS %d MB, want under 200", rss>>20)
			}
		})
	}
}
