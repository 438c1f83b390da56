package worker

import (
	"context"
	"os"
	"reflect"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sandsh/sandsh/jail"
	"github.com/sandsh/sandsh/vfs"
)

// TestMain lets this test binary serve as sandsh's worker: the sessions
// below re-execute it (/proc/self/exe) with restrict.WorkerEnv set.
func TestMain(m *testing.M) {
	if jail.IsInit() {
		os.Exit(jail.InitMain())
	}
	if IsWorker() {
		os.Exit(Main(&Hooks{Line: testLine}))
	}
	os.Exit(m.Run())
}

// testLine runs in a confined session worker before each call: a script
// that is one of these comments stands in for a bug in sandsh, which no
// limit inside the worker can stop.
func testLine(src string) {
	switch strings.TrimSpace(src) {
	case "#hang": // ignores every limit and cancellation
		for {
			time.Sleep(time.Hour)
		}
	case "#alloc": // allocates without a check
		var keep [][]byte
		for {
			b := make([]byte, 1<<20)
			for i := range b {
				b[i] = 1
			}
			keep = append(keep, b)
		}
	case "#panic": // a panic in a goroutine nobody recovers
		go func() { panic("test boom") }()
		time.Sleep(10 * time.Second)
	case "#stack": // a Go stack overflow
		debug.SetMaxStack(1 << 20)
		var f func(int) int
		f = func(n int) int { return f(n+1) + 1 }
		f(0)
	case "#open": // a host open, as a bug in the vfs layer would do
		f, err := os.Open("/etc/passwd")
		if err == nil {
			f.Close()
			panic("opened a host file")
		}
	}
}

func testOptions(t *testing.T, mod func(o *Options)) *Options {
	t.Helper()
	o := DefaultOptions()
	o.IO = IO{Getenv: func(string) string { return "" }, Getwd: os.Getwd}
	if mod != nil {
		mod(&o)
	}
	return &o
}

func startTest(t *testing.T, mod func(o *Options)) *Session {
	t.Helper()
	s, err := StartSession(testOptions(t, mod), SessionConfig{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func run(t *testing.T, s *Session, c Call) *Result {
	t.Helper()
	res, err := s.Run(context.Background(), c)
	if err != nil {
		t.Fatalf("%q: %v", c.Script, err)
	}
	return res
}

// TestSessionCalls: a session keeps its shell and files from one call to
// the next, and a call has its own stdin, arguments, directory, output,
// variables and changes.
func TestSessionCalls(t *testing.T) {
	t.Parallel()
	s := startTest(t, nil)
	res := run(t, s, Call{Script: `x=kept; f(){ echo "fn $1"; }; mkdir -p d; echo one > a; echo err >&2; exit 3`})
	if res.Status != 3 || string(res.Stderr) != "err\n" || !res.Finished {
		t.Fatalf("first call: %+v", res)
	}
	res = run(t, s, Call{Script: `read -r l; echo "$x $0 $1 $l"; f 2; cat a`, Name: "me", Args: []string{"arg"}, Stdin: []byte("in\n")})
	if got, want := string(res.Stdout), "kept me arg in\nfn 2\none\n"; got != want || res.Status != 0 {
		t.Fatalf("second call: status %d stdout %q, want %q", res.Status, got, want)
	}
	res = run(t, s, Call{Script: `pwd; echo two >> ../a; rm -f ../gone; echo new > n; y=($x more)`, Cwd: "d", Changes: true, Vars: []string{"y", "nothere"}})
	if string(res.Stdout) != "/workspace/d\n" {
		t.Errorf("cwd: %q", res.Stdout)
	}
	want := []vfs.Change{{Path: "/workspace/a", Change: "modified"}, {Path: "/workspace/d/n", Change: "added"}}
	if !reflect.DeepEqual(res.Changes, want) {
		t.Errorf("changes %v, want %v", res.Changes, want)
	}
	if !reflect.DeepEqual(res.Vars["y"], []string{"kept", "more"}) || res.Vars["nothere"] != nil {
		t.Errorf("vars %#v", res.Vars)
	}
	res = run(t, s, Call{Script: `cd /workspace; rm -r d; chmod 600 a; touch a`, Changes: true})
	want = []vfs.Change{{Path: "/workspace/a", Change: "modified"}, {Path: "/workspace/d", Change: "deleted"}, {Path: "/workspace/d/n", Change: "deleted"}}
	if !reflect.DeepEqual(res.Changes, want) {
		t.Errorf("changes %v, want %v", res.Changes, want)
	}
	res = run(t, s, Call{Script: `touch /workspace/a; pwd`, Changes: true})
	if len(res.Changes) != 0 || string(res.Stdout) != "/workspace\n" {
		t.Errorf("touch only: changes %v, pwd %q", res.Changes, res.Stdout)
	}
}

// TestSessionOutput: the output kept is the head and the tail, with a
// flag; the run is not ended for it. Output can also stream to writers.
func TestSessionOutput(t *testing.T) {
	t.Parallel()
	s := startTest(t, nil)
	res := run(t, s, Call{Script: `echo start; for i in $(seq 1000); do echo line; done; echo end`, MaxOutput: 100})
	out := string(res.Stdout)
	if !res.StdoutTruncated || len(out) != 100 || !strings.HasPrefix(out, "start\n") || !strings.HasSuffix(out, "line\nend\n") || res.Status != 0 {
		t.Errorf("truncated %v, %d bytes: %q", res.StdoutTruncated, len(out), out)
	}
	var mu sync.Mutex
	var chunks []string
	w := writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		chunks = append(chunks, string(p))
		mu.Unlock()
		return len(p), nil
	})
	res = run(t, s, Call{Script: `echo a; sleep 0.1; echo b`, Stdout: w})
	if res.Stdout != nil || strings.Join(chunks, "") != "a\nb\n" || len(chunks) < 2 {
		t.Errorf("streamed %q (result %q)", chunks, res.Stdout)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestSessionFiles: files go in and out through the worker, under the
// sandbox's paths and limits.
func TestSessionFiles(t *testing.T) {
	t.Parallel()
	s := startTest(t, func(o *Options) { o.MaxFileSize = "1KiB" })
	ctx := context.Background()
	if err := s.WriteFile(ctx, "w.txt", []byte("hello\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	res := run(t, s, Call{Script: `cat w.txt; test -x w.txt && echo exec; mkdir sub; ln -s w.txt link`})
	if string(res.Stdout) != "hello\nexec\n" {
		t.Errorf("the script saw %q", res.Stdout)
	}
	data, err := s.ReadFile(ctx, "/workspace/w.txt", 0)
	if err != nil || string(data) != "hello\n" {
		t.Errorf("read %q, %v", data, err)
	}
	list, err := s.ReadDir(ctx, ".")
	if err != nil || len(list) != 3 || list[0].Name != "link" || list[0].Target != "w.txt" || !list[1].Mode.IsDir() || list[2].Size != 6 {
		t.Errorf("list %+v, %v", list, err)
	}
	if err := s.WriteFile(ctx, "big", make([]byte, 2048), 0o644); err == nil {
		t.Error("a file over --max-file-size was written")
	}
	if _, err := s.ReadFile(ctx, "/etc/../nothere", 0); err == nil {
		t.Error("read a file that does not exist")
	}
	if _, err := s.ReadFile(ctx, "sub", 0); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("read a directory: %v", err)
	}
}

// TestSessionRecovery: a worker killed in a call (each way it can die)
// is restarted from the last checkpoint: the caller gets one line, the
// limit's status, and the session as it was before that call.
func TestSessionRecovery(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, script, limit string
		status              int
		mod                 func(o *Options)
	}{
		{"max-memory", "#alloc", "max-memory", ExitLimit, func(o *Options) { o.MaxMemory = "256MiB" }},
		{"timeout", "#hang", "timeout", ExitTimeout, func(o *Options) { o.Timeout = time.Second }},
		{"crash", "#panic", "", ExitInternal, nil},
		{"Go stack", "#stack", "nesting too deep", ExitLimit, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := startTest(t, tc.mod)
			run(t, s, Call{Script: `x=kept; mkdir /tmp/d; cd /tmp/d; echo data > file; f(){ echo fn; }`})
			run(t, s, Call{Script: `y=too; echo more > more`})
			res := run(t, s, Call{Script: tc.script})
			if res.Status != tc.status || res.Limit != tc.limit {
				t.Errorf("status %d limit %q, want %d %q", res.Status, res.Limit, tc.status, tc.limit)
			}
			want := "sandsh: session restarted after " + tc.limit + "; changes since the last finished call were lost"
			if tc.limit == "" {
				want = "sandsh: session restarted after internal error: worker crashed: test boom (this is a bug in sandsh); changes since the last finished call were lost"
			}
			if res.Restarted != want {
				t.Errorf("restarted %q, want %q", res.Restarted, want)
			}
			res = run(t, s, Call{Script: `echo $x $y; f; pwd; cat file; ls`})
			if got := string(res.Stdout); got != "kept too\nfn\n/tmp/d\ndata\nfile\nmore\n" || res.Restarted != "" {
				t.Errorf("after the restart: %q %q", got, res.Stderr)
			}
		})
	}
}

// TestSessionLimitsInside: a limit the worker stops itself ends only the
// call: no restart, and the session goes on.
func TestSessionLimitsInside(t *testing.T) {
	t.Parallel()
	s := startTest(t, func(o *Options) { o.MaxOutput = "1KiB" })
	run(t, s, Call{Script: `x=kept`})
	res := run(t, s, Call{Script: `yes`})
	if res.Status != ExitLimit || res.Limit != "max-output" || res.Restarted != "" || !strings.Contains(string(res.Stderr), "max-output") {
		t.Errorf("max-output: %+v", res)
	}
	res = run(t, s, Call{Script: `while :; do :; done`, Timeout: 200 * time.Millisecond})
	if res.Status != ExitTimeout || res.Limit != "timeout" || res.Restarted != "" {
		t.Errorf("a call's own timeout: %+v", res)
	}
	res = run(t, s, Call{Script: `echo $x`})
	if string(res.Stdout) != "kept\n" {
		t.Errorf("after the limits: %q", res.Stdout)
	}
}

// TestSessionWalls: a session worker is confined like `sandsh run`'s.
func TestSessionWalls(t *testing.T) {
	t.Parallel()
	checkWalls(t, startTest(t, nil))
}

// checkWalls checks that s's worker is confined: a host open by the
// worker process itself (Landlock) and a host program are refused.
func checkWalls(t *testing.T, s *Session) {
	t.Helper()
	res := run(t, s, Call{Script: "#open"})
	if res.Status != 0 || res.Restarted != "" {
		t.Errorf("a host open in the session worker was not refused: %+v", res)
	}
	res = run(t, s, Call{Script: `/usr/bin/python3 -c 1`})
	if res.Status != 127 || !strings.Contains(string(res.Stderr), "restricted") {
		t.Errorf("host program: %+v %q", res, res.Stderr)
	}
}

// TestSessionResetClose: Reset starts afresh; Close ends the worker and
// refuses later calls; sessions are independent and safe for concurrent
// use.
func TestSessionResetClose(t *testing.T) {
	t.Parallel()
	s := startTest(t, nil)
	run(t, s, Call{Script: `x=1; echo f > f`})
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	res := run(t, s, Call{Script: `echo "[$x]"; ls`})
	if string(res.Stdout) != "[]\n" {
		t.Errorf("after Reset: %q", res.Stdout)
	}
	other := startTest(t, nil)
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(2)
		go func() { defer wg.Done(); s.Run(context.Background(), Call{Script: `n=$((n+1))`}) }()
		go func() { defer wg.Done(); other.Run(context.Background(), Call{Script: `n=$((n+10))`}) }()
	}
	wg.Wait()
	if r := run(t, s, Call{Script: `echo $n`}); string(r.Stdout) != "4\n" {
		t.Errorf("s: %q", r.Stdout)
	}
	if r := run(t, other, Call{Script: `echo $n`}); string(r.Stdout) != "40\n" {
		t.Errorf("other: %q", r.Stdout)
	}
	s.Close()
	if _, err := s.Run(context.Background(), Call{Script: "true"}); err != ErrSessionClosed {
		t.Errorf("after Close: %v", err)
	}
}

// TestSessionState: a session with Options.State starts from the state
// file, keeps it across a restart, and SaveState writes the session as of
// its last finished call; a damaged file is refused with ExitState.
func TestSessionState(t *testing.T) {
	t.Parallel()
	for _, fsName := range []string{"mem", "disk"} {
		t.Run(fsName, func(t *testing.T) {
			t.Parallel()
			state := t.TempDir() + "/s.st"
			root := t.TempDir()
			mod := func(o *Options) {
				o.State = state
				if fsName == "disk" {
					o.FS, o.Root = "disk", root
				}
			}
			s := startTest(t, mod)
			run(t, s, Call{Script: `x=saved; f(){ echo fn; }; echo data > f`})
			if err := s.SaveState(context.Background()); err != nil {
				t.Fatal(err)
			}
			s.Close()
			s = startTest(t, mod)
			run(t, s, Call{Script: `y=later`})
			if res := run(t, s, Call{Script: "#panic"}); res.Restarted == "" {
				t.Errorf("no restart: %+v", res)
			}
			res := run(t, s, Call{Script: `echo $x $y; f; cat f`})
			if got := string(res.Stdout); got != "saved later\nfn\ndata\n" {
				t.Errorf("from the state, after a restart: %q %q", got, res.Stderr)
			}
		})
	}
	bad := t.TempDir() + "/bad.st"
	os.WriteFile(bad, []byte("not a state"), 0o600)
	_, err := StartSession(testOptions(t, func(o *Options) { o.State = bad }), SessionConfig{})
	var errw strings.Builder
	if err == nil || ReportSetupError(&errw, err) != ExitState || !strings.Contains(errw.String(), "--state "+bad) {
		t.Errorf("a damaged state: %v (%q)", err, errw.String())
	}
}

// TestSessionFilePolicy: the file operations of a session meet the same
// walls as a script: the policy's paths and the permissions.
func TestSessionFilePolicy(t *testing.T) {
	t.Parallel()
	s := startTest(t, func(o *Options) {
		o.Policy = []string{"p.yaml"}
		o.PolicyData = [][]byte{[]byte("paths:\n  read: [/workspace]\n  write: [/workspace/out]\n")}
	})
	ctx := context.Background()
	if err := s.WriteFile(ctx, "/workspace/out/ok", []byte("x"), 0o644); err == nil {
		t.Error("wrote into a directory that does not exist")
	}
	run(t, s, Call{Script: `mkdir -p /workspace/out 2>/dev/null; true`})
	for _, tc := range []struct {
		what string
		err  error
	}{
		{"write outside the policy's write paths", s.WriteFile(ctx, "/workspace/planted", []byte("x"), 0o644)},
		{"write /tmp", s.WriteFile(ctx, "/tmp/planted", []byte("x"), 0o644)},
		{"read outside the read paths", func() error { _, err := s.ReadFile(ctx, "/etc/hostname", 0); return err }()},
		{"list outside the read paths", func() error { _, err := s.ReadDir(ctx, "/etc"); return err }()},
	} {
		if tc.err == nil {
			t.Errorf("%s: allowed", tc.what)
		}
	}
	res := run(t, s, Call{Script: `ls /workspace; cat /etc/hostname`})
	if strings.Contains(string(res.Stdout), "planted") || res.Status == 0 {
		t.Errorf("the script: %q %q", res.Stdout, res.Stderr)
	}
}

// TestSessionOverlay: on an overlay the session's copy is an overlay of
// the same base: changes to base files, new files and deletions survive
// a restart, and the base is never written.
func TestSessionOverlay(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	os.WriteFile(base+"/keep", []byte("base\n"), 0o644)
	os.WriteFile(base+"/edit", []byte("old\n"), 0o644)
	os.WriteFile(base+"/gone", []byte("x\n"), 0o644)
	s := startTest(t, func(o *Options) { o.FS, o.Base = "overlay", base })
	res := run(t, s, Call{Script: `echo new >> edit; rm gone; echo added > added`, Changes: true})
	want := []vfs.Change{{Path: "/workspace/added", Change: "added"}, {Path: "/workspace/edit", Change: "modified"}, {Path: "/workspace/gone", Change: "deleted"}}
	if !reflect.DeepEqual(res.Changes, want) {
		t.Errorf("changes %v, want %v", res.Changes, want)
	}
	if res := run(t, s, Call{Script: "#panic"}); res.Restarted == "" {
		t.Errorf("no restart: %+v", res)
	}
	res = run(t, s, Call{Script: `cat keep edit added; ls`})
	if got := string(res.Stdout); got != "base\nold\nnew\nadded\nadded\nedit\nkeep\n" {
		t.Errorf("after the restart: %q %q", got, res.Stderr)
	}
	if data, _ := os.ReadFile(base + "/edit"); string(data) != "old\n" {
		t.Errorf("the base was written: %q", data)
	}
	if _, err := os.Stat(base + "/gone"); err != nil {
		t.Errorf("the base lost a file: %v", err)
	}
}

// TestSessionCancel: cancelling a call's context ends it at once, even
// one that ignores every limit, and the session goes on.
func TestSessionCancel(t *testing.T) {
	t.Parallel()
	s := startTest(t, nil)
	run(t, s, Call{Script: `x=kept`})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	res, err := s.Run(ctx, Call{Script: "#hang"})
	if err != nil || res.Status != StatusInterrupted || !strings.Contains(res.Restarted, "the call was cancelled") {
		t.Errorf("cancelled: %+v %v", res, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	if r := run(t, s, Call{Script: `echo $x`}); string(r.Stdout) != "kept\n" {
		t.Errorf("after: %q", r.Stdout)
	}
	// A deadline is the call's timeout.
	ctx, cancel = context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	res, err = s.Run(ctx, Call{Script: "#hang"})
	if err != nil || res.Status != ExitTimeout || res.Limit != "timeout" {
		t.Errorf("deadline: %+v %v", res, err)
	}
	res, err = s.Run(context.Background(), Call{Script: "while :; do :; done", Timeout: 200 * time.Millisecond})
	if err != nil || res.Status != ExitTimeout || res.Restarted != "" {
		t.Errorf("a call's timeout: %+v %v", res, err)
	}
}
