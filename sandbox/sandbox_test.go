package sandbox_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sandsh/sandsh/policy"
	"github.com/sandsh/sandsh/sandbox"
	"github.com/sandsh/sandsh/statefile"
)

func newSB(t *testing.T, cfg sandbox.Config) *sandbox.Sandbox {
	t.Helper()
	sb, err := sandbox.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	return sb
}

func run(t *testing.T, sb *sandbox.Sandbox, src string) *sandbox.Result {
	t.Helper()
	res, err := sb.Run(context.Background(), sandbox.Script{Source: src})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestSession checks that a second run sees what the first left.
func TestSession(t *testing.T) {
	sb := newSB(t, sandbox.Config{})
	res := run(t, sb, `x=1; declare -A m=([a]=b); f() { echo "f $*"; }; alias hi='echo hi'; shopt -s expand_aliases; set -o pipefail
mkdir sub; cd sub; echo data > file; exit 3`)
	if res.Status != 3 || res.Err != nil {
		t.Fatalf("first run: %+v", res)
	}
	res = run(t, sb, `echo "$x ${m[a]} $(f a b) $(pwd) $(cat file) $?"; hi; set -o | grep pipefail`)
	want := "1 b f a b /workspace/sub data 0\nhi\npipefail       \ton\n"
	if string(res.Stdout) != want || res.Status != 0 {
		t.Errorf("second run: %q %q %d", res.Stdout, res.Stderr, res.Status)
	}
}

func TestLimitResult(t *testing.T) {
	lim := sandbox.DefaultLimits()
	lim.MaxCommands = 100
	lim.Timeout = 200 * time.Millisecond
	sb := newSB(t, sandbox.Config{Limits: lim})
	res := run(t, sb, `while :; do :; done`)
	if res.Limit != "max-commands" || res.Status != sandbox.ExitLimit {
		t.Errorf("commands: %+v", res)
	}
	res = run(t, sb, `sleep 5`)
	if res.Limit != "timeout" || res.Status != sandbox.ExitTimeout {
		t.Errorf("timeout: %+v", res)
	}
	// The session survives a limit.
	res = run(t, sb, `echo ok`)
	if string(res.Stdout) != "ok\n" || res.Limit != "" {
		t.Errorf("after limits: %+v", res)
	}
	// The caller's context ends a run too.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	r2, err := sb.Run(ctx, sandbox.Script{Source: "sleep 5"})
	if err != nil || r2.Err == nil || r2.Duration > 3*time.Second {
		t.Errorf("cancelled: %+v %v", r2, err)
	}
}

// TestGlobWalkTimeout: in the library (no worker, no parent to kill
// it), a glob walk ends at the run's timeout, and globstar does not
// enter symlinks to directories (issues 21.8, 19.14).
func TestGlobWalkTimeout(t *testing.T) {
	lim := sandbox.DefaultLimits()
	lim.Timeout = 2 * time.Second
	sb := newSB(t, sandbox.Config{Limits: lim})
	res := run(t, sb, `mkdir q; cd q; ln -s . a; ln -s . b; shopt -s globstar; echo **`)
	if string(res.Stdout) != "a b\n" || res.Status != 0 {
		t.Errorf("links to .: %q %q %d", res.Stdout, res.Stderr, res.Status)
	}
	start := time.Now()
	res = run(t, sb, `cd /workspace; mkdir -p {a..h}/{a..h}/{a..h}/{a,b,c}; shopt -s globstar; echo **/**/**/**/**/**/**/zz`)
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the walk ran %v past a 2s timeout", took)
	}
	if res.Limit != "timeout" || res.Status != sandbox.ExitTimeout || len(res.Stderr) != 0 {
		t.Errorf("huge walk: %+v %q", res, res.Stderr)
	}
}

func TestFilesAndVars(t *testing.T) {
	sb := newSB(t, sandbox.Config{})
	if err := sb.WriteFile("in.txt", []byte("b\na\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := sb.SetVar("greeting", "hello world"); err != nil {
		t.Fatal(err)
	}
	if err := sb.SetArray("list", []string{"x", "y z"}); err != nil {
		t.Fatal(err)
	}
	if err := sb.SetAssoc("cfg", map[string]string{"mode": "fast"}); err != nil {
		t.Fatal(err)
	}
	res := run(t, sb, `sort in.txt > out.txt; echo "$greeting ${list[1]} ${cfg[mode]}"; n=${#list[@]}; arr=(1 2 3)`)
	if string(res.Stdout) != "hello world y z fast\n" {
		t.Errorf("stdout %q stderr %q", res.Stdout, res.Stderr)
	}
	data, err := sb.ReadFile("/workspace/out.txt")
	if err != nil || string(data) != "a\nb\n" {
		t.Errorf("out.txt: %q %v", data, err)
	}
	list, err := sb.ReadDir(".")
	if err != nil || len(list) != 2 || list[0].Name() != "in.txt" || list[1].Name() != "out.txt" {
		t.Errorf("ReadDir: %v %v", list, err)
	}
	if v, ok := sb.Var("n"); !ok || v != "2" {
		t.Errorf("n = %v", v)
	}
	if v, ok := sb.Var("arr"); !ok || fmt.Sprint(v) != "[1 2 3]" {
		t.Errorf("arr = %v", v)
	}
	if _, err := sb.ReadFile("/etc/shadow"); err == nil {
		t.Error("read a file that does not exist")
	}
	if err := sb.WriteFile("/etc/passwd", []byte("x"), 0o644); err == nil {
		t.Error("wrote a root-owned file as the sandbox user")
	}
}

// TestStateRoundTrip saves a session through the state file format and
// starts a new sandbox from it.
func TestStateRoundTrip(t *testing.T) {
	ctx := context.Background()
	sb := newSB(t, sandbox.Config{})
	run(t, sb, `a=(1 2); f() { echo "f:$1"; }; mkdir -p d; cd d; echo keep > k; ln -s k l`)
	st, err := sb.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := statefile.Write(&buf, st); err != nil {
		t.Fatal(err)
	}
	back, err := statefile.Read(&buf, 0)
	if err != nil {
		t.Fatal(err)
	}
	sb2 := newSB(t, sandbox.Config{State: back})
	res := run(t, sb2, `echo "${a[1]} $(f x) $PWD $(cat l)"`)
	if string(res.Stdout) != "2 f:x /workspace/d keep\n" {
		t.Errorf("restored: %q %q", res.Stdout, res.Stderr)
	}
	// A state over the limits is refused whole.
	lim := sandbox.DefaultLimits()
	lim.MaxFiles = 3
	if _, err := sandbox.New(sandbox.Config{State: back, Limits: lim}); err == nil {
		t.Error("state over max-files accepted")
	}
}

// TestConcurrent runs many sandboxes at once (go test -race).
func TestConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sb, err := sandbox.New(sandbox.Config{})
			if err != nil {
				errs <- err
				return
			}
			defer sb.Close()
			for k := range 3 {
				res, err := sb.Run(context.Background(), sandbox.Script{Source: fmt.Sprintf(`n=$((${n:-0}+%d)); echo $n > f; seq 1 50 | sort -rn | head -1 >> f; cat f | wc -l`, i)})
				if err != nil || res.Status != 0 || strings.TrimSpace(string(res.Stdout)) != "2" {
					errs <- fmt.Errorf("sandbox %d run %d: %v %+v %s", i, k, err, res, res.Stderr)
					return
				}
			}
			if v, _ := sb.Var("n"); v != fmt.Sprint(3*i) {
				errs <- fmt.Errorf("sandbox %d: n=%v: sandboxes share state", i, v)
			}
		}()
	}
	// Concurrent calls on one sandbox wait for each other.
	sb := newSB(t, sandbox.Config{})
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sb.Run(context.Background(), sandbox.Script{Source: "c=$((${c:-0}+1)); echo x >> log"})
			sb.ReadFile("log")
			sb.SetVar("other", "1")
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if v, _ := sb.Var("c"); v != "4" {
		t.Errorf("c = %v", v)
	}
}

func TestClosedAndConfigErrors(t *testing.T) {
	sb, err := sandbox.New(sandbox.Config{})
	if err != nil {
		t.Fatal(err)
	}
	sb.Close()
	if _, err := sb.Run(context.Background(), sandbox.Script{Source: "echo"}); !errors.Is(err, sandbox.ErrClosed) {
		t.Errorf("run after close: %v", err)
	}
	var ce *sandbox.ConfigError
	for _, cfg := range []sandbox.Config{{FS: "nfs"}, {FS: "overlay"}, {Env: []string{"NOEQUALS"}}, {ShellOptions: []string{"nosuch"}}} {
		if _, err := sandbox.New(cfg); !errors.As(err, &ce) {
			t.Errorf("%+v: %v", cfg, err)
		}
	}
}

func TestRestrictedGateway(t *testing.T) {
	sb := newSB(t, sandbox.Config{})
	res := run(t, sb, `/usr/bin/id; python3 -c 1; echo $?`)
	if !strings.HasSuffix(string(res.Stdout), "127\n") || !strings.Contains(string(res.Stderr), "restricted") {
		t.Errorf("%q %q", res.Stdout, res.Stderr)
	}
}

// TestEnvOverState: the caller's environment wins over a saved state and
// stays exported.
func TestEnvOverState(t *testing.T) {
	ctx := context.Background()
	sb := newSB(t, sandbox.Config{})
	run(t, sb, `MODE=old; export KEEP=1`)
	st, err := sb.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sb2 := newSB(t, sandbox.Config{State: st, Env: []string{"MODE=new"}})
	res := run(t, sb2, `echo "$MODE $KEEP"; env | grep -E '^(MODE|KEEP)=' | sort`)
	if string(res.Stdout) != "new 1\nKEEP=1\nMODE=new\n" {
		t.Errorf("%q", res.Stdout)
	}
	ctx2, cancel := context.WithCancel(ctx)
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	r, err := sb2.Run(ctx2, sandbox.Script{Source: "sleep 5"})
	if err != nil || r.Status != 130 {
		t.Errorf("cancelled run: %+v %v", r, err)
	}
}

// TestOverlayStateInProportion: an overlay's state holds what the runs
// changed, not the base, and loads again over the same base; over a
// base that changed under it, it is refused.
func TestOverlayStateInProportion(t *testing.T) {
	ctx := context.Background()
	base := t.TempDir()
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 20; i++ {
		data := make([]byte, 1<<20)
		rng.Read(data)
		if err := os.WriteFile(filepath.Join(base, fmt.Sprintf("f%d", i)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	save := func(sb *sandbox.Sandbox) []byte {
		st, err := sb.State(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := statefile.Write(&buf, st); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	load := func(data []byte) (*sandbox.Sandbox, error) {
		st, err := statefile.Read(bytes.NewReader(data), 0)
		if err != nil {
			t.Fatal(err)
		}
		return sandbox.New(sandbox.Config{FS: "overlay", Base: base, State: st})
	}
	sb := newSB(t, sandbox.Config{FS: "overlay", Base: base})
	run(t, sb, `echo x > new; rm f3; x=1`)
	data := save(sb)
	if len(data) > 16<<10 {
		t.Errorf("the state of a 2-byte change over a 20 MB base is %d bytes", len(data))
	}
	sb2, err := load(data)
	if err != nil {
		t.Fatal(err)
	}
	defer sb2.Close()
	if res := run(t, sb2, `cat new; ls f3 2>&1; echo $x; wc -c < f4`); string(res.Stdout) != "x\nls: cannot access 'f3': No such file or directory\n1\n1048576\n" {
		t.Errorf("loaded: %q", res.Stdout)
	}
	// Saved again after another run: still the changes only.
	run(t, sb2, `echo y >> new`)
	if data2 := save(sb2); len(data2) > 16<<10 {
		t.Errorf("second state: %d bytes", len(data2))
	}
	os.WriteFile(filepath.Join(base, "f3"), []byte("back"), 0o644)
	_, err = load(data)
	var se *sandbox.StateError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "/workspace/f3") {
		t.Errorf("base changed under the state: %v", err)
	}
	// Nor does it load on a memory filesystem.
	st, _ := statefile.Read(bytes.NewReader(data), 0)
	if _, err := sandbox.New(sandbox.Config{State: st}); !errors.As(err, &se) {
		t.Errorf("overlay state on mem: %v", err)
	}
}

// TestFileMethodsPolicyPaths: the file methods go through the policy's
// paths lists as the script does (they used the raw filesystem, so
// `sandsh mcp`'s file tools reached every path).
func TestFileMethodsPolicyPaths(t *testing.T) {
	pol, err := policy.Parse("p.yaml", []byte("default: allow\npaths:\n  read: [/workspace/pub]\n  write: [/workspace/pub]\n"))
	if err != nil {
		t.Fatal(err)
	}
	sb := newSB(t, sandbox.Config{Policy: pol})
	run(t, sb, "mkdir /workspace/pub && ln -s /etc /workspace/pub/e")
	for name, err := range map[string]error{
		"write /workspace/evil":    sb.WriteFile("/workspace/evil", []byte("x"), 0o644),
		"write pub/e/x (via /etc)": sb.WriteFile("pub/e/x", []byte("x"), 0o644),
		"mkdir /tmp/d":             sb.MkdirAll("/tmp/d", 0o755),
		"read /etc/passwd":         func() error { _, err := sb.ReadFile("/etc/passwd"); return err }(),
		"read pub/e/passwd":        func() error { _, err := sb.ReadFile("pub/e/passwd"); return err }(),
		"list /":                   func() error { _, err := sb.ReadDir("/"); return err }(),
	} {
		if !errors.Is(err, fs.ErrPermission) {
			t.Errorf("%s: %v, want permission denied", name, err)
		}
	}
	if err := sb.WriteFile("pub/ok", []byte("fine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := sb.ReadFile("/workspace/pub/ok"); err != nil || string(data) != "fine" {
		t.Errorf("read inside: %q %v", data, err)
	}
	if list, err := sb.ReadDir("pub"); err != nil || len(list) != 2 {
		t.Errorf("list inside: %v %v", list, err)
	}
	if fi, err := sb.Stat("/etc/passwd"); err != nil || fi.Size() == 0 {
		t.Errorf("stat (metadata needs no access): %v %v", fi, err)
	}
	if target, err := sb.Readlink("pub/e"); err != nil || target != "/etc" {
		t.Errorf("readlink: %q %v", target, err)
	}
}
