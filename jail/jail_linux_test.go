package jail

import (
	"context"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/sandsh/sandsh/internal/suite"
	"github.com/sandsh/sandsh/restrict"
	"github.com/sandsh/sandsh/vfs"
)

// TestMain lets this test binary be the jail init, as sandsh is.
func TestMain(m *testing.M) {
	if IsInit() {
		os.Exit(InitMain())
	}
	os.Exit(m.Run())
}

// testBackends are the backends this host can build; bwrap runs
// whatever version is installed (its version check has its own tests),
// so that its jail is built and attacked where the CLI refuses an old
// one.
func testBackends(t *testing.T) []string {
	t.Helper()
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		suite.Skip(t, "python3", "/usr/bin/python3 is the jailed program of these tests")
	}
	if out, err := exec.Command("unshare", "--user", "--map-root-user", "true").CombinedOutput(); err != nil {
		suite.Skip(t, "userns", "user namespaces build the jail: %v %s", err, out)
	}
	b := []string{BackendNS}
	if bwrapPath() != "" {
		b = append(b, BackendBwrap)
	} else {
		t.Log("no bwrap: the bwrap backend is not built")
	}
	return b
}

// runIn runs python3 code in a jail of backend b with limits l and
// returns its output and status.
func runIn(t *testing.T, b string, l Limits, code string) (string, int) {
	t.Helper()
	c := &Config{Backend: b, Limits: l, bwrapAnyVersion: true, Allowed: func(argv []string) bool { return argv[0] == "python3" }}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	out := make(chan string, 1)
	go func() { b, _ := io.ReadAll(r); r.Close(); out <- string(b) }()
	req := &restrict.JailRequest{Name: "python3", Argv: []string{"python3", "-c", code}, Dir: "/workspace", Work: "/workspace",
		Env: []string{"HOME=/home/sandbox"}, Tree: &vfs.Snapshot{Entries: []vfs.SnapEntry{{Path: "/", Type: "dir", Mode: 0o755}}}}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := c.Run(ctx, req, null, w, w)
	w.Close()
	o := <-out
	if err != nil || res.Refused != "" {
		t.Fatalf("%s: %v %+v\n%s", b, err, res, o)
	}
	return o, res.Status
}

// TestBoundedFiles: a jailed program cannot make more files than
// --max-files in the working tree, /tmp, $HOME or /dev/shm, on either
// backend (bwrap's own --size bounded bytes only: 150,000 files went in
// against --max-files 100000, issue 23.9); it runs as uid 1000 on both.
func TestBoundedFiles(t *testing.T) {
	for _, b := range testBackends(t) {
		t.Run(b, func(t *testing.T) {
			out, status := runIn(t, b, Limits{MaxFiles: 500, MaxFSBytes: 64 << 20}, `
import os
print("uid", os.getuid())
for d in ["/workspace", "/tmp", os.environ["HOME"], "/dev/shm"]:
    n = 0
    try:
        for i in range(5000):
            open("%s/f%d" % (d, i), "w").close(); n += 1
    except OSError as e:
        print(d, "stopped", n <= 4100, e.errno)
        continue
    print(d, "MADE", n)`)
			// The tree holds more files than the sandbox takes back.
			want := "uid 1000\n/workspace stopped True 28\n/tmp stopped True 28\n/home/sandbox stopped True 28\n/dev/shm stopped True 28\n" +
				"sandsh: python3: jail: the working tree cannot come back: /workspace: more than 500 files\n"
			if status != 1 || out != want {
				t.Errorf("status %d, output:\n%s\nwant:\n%s", status, out, want)
			}
		})
	}
}

// TestBwrapJail: the bwrap backend's jail holds the same walls (the
// CLI's tests run it only with a bwrap new enough): no host file, no
// other program, no write outside the tree.
func TestBwrapJail(t *testing.T) {
	for _, b := range testBackends(t) {
		t.Run(b, func(t *testing.T) {
			out, status := runIn(t, b, Limits{MaxFiles: 1000, MaxFSBytes: 64 << 20}, `
import os, subprocess
for p in ["/root", "/home", "/etc/shadow"]:
    try:
        print(p, len(os.listdir(p)) if os.path.isdir(p) else len(open(p).read()))
    except OSError as e: print(p, "denied")
for p in ["/usr/x", "/x", "/etc/x"]:
    try:
        open(p, "w"); print(p, "WROTE")
    except OSError as e: print(p, "denied")
try:
    subprocess.run(["/bin/sh", "-c", "true"]); print("RAN sh")
except OSError as e: print("sh refused", e.errno)
open("/workspace/ok", "w").write("x"); print("tree ok")`)
			want := "sandsh: python3: jail: refused to execute \"/bin/sh\" (not an allowed program)\n" +
				"/root denied\n/home denied\n/etc/shadow 0\n/usr/x denied\n/x denied\n/etc/x denied\nsh refused 13\ntree ok\n"
			// /etc/shadow is hidden: empty (/dev/null bound over it), or
			// unreadable where the device is not usable there (bwrap).
			out = strings.Replace(out, "/etc/shadow denied\n", "/etc/shadow 0\n", 1)
			if status != 0 || out != want {
				t.Errorf("status %d, output:\n%s\nwant:\n%s", status, out, want)
			}
		})
	}
}
