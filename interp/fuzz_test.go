package interp_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/restrict"
	"github.com/sandsh/sandsh/vfs"
)

// The fuzz targets run arbitrary script text in a fresh in-memory sandbox
// with tight limits. Whatever the text, the run must end in a status or a
// clean error: no panic (not even one that guard turns into a "bad
// substitution"), no internal error, and no run that outlives its time
// limit by much. `go test` runs the seed corpus in testdata/fuzz/; CI adds
// a short `go test -fuzz` run (.ci/run).

// fuzzLimits are tight so that one input runs in milliseconds.
func fuzzLimits() interp.Limits {
	return interp.Limits{
		Timeout:       200 * time.Millisecond,
		MaxCommands:   5000,
		MaxLoopIters:  1000,
		MaxCallDepth:  50,
		MaxSubstDepth: 16,
		MaxJobs:       32,
		MaxOutput:     64 << 10,
		MaxVarBytes:   64 << 10,
		MaxCapture:    64 << 10,
		MaxScript:     64 << 10,
		MaxHeredoc:    64 << 10,
		MaxFields:     10_000,
	}
}

// fuzzSlack is how long past its timeout a run may take to stop: the
// check is for hangs, not for scheduling noise (CI runs this under -race).
const fuzzSlack = 5 * time.Second

var (
	panicMu   sync.Mutex
	panicSeen []string
)

func init() {
	interp.SetPanicHook(func(v any) {
		panicMu.Lock()
		panicSeen = append(panicSeen, fmt.Sprintf("%v\n%s", v, debug.Stack()))
		panicMu.Unlock()
	})
}

func takePanics() []string {
	panicMu.Lock()
	defer panicMu.Unlock()
	p := panicSeen
	panicSeen = nil
	return p
}

// hostileRun is the outcome of one run in the sandbox.
type hostileRun struct {
	status         int
	err            error
	stdout, stderr string
	elapsed        time.Duration
}

// runHostile runs script on a fresh in-memory sandbox (restricted
// gateway, no host file or program) with lim, params as $1..., and
// stdin as standard input.
func runHostile(t testing.TB, script []byte, lim interp.Limits, stdin string, params ...string) hostileRun {
	t.Helper()
	fsys := vfs.NewMem()
	if err := vfs.Populate(fsys, vfs.WorkDir); err != nil {
		t.Fatal(err)
	}
	out := &capBuf{max: 1 << 20}
	errb := &capBuf{max: 1 << 20}
	gw := restrict.New(builtins.NewRegistry(), restrict.Restricted(true))
	r, err := interp.New(interp.WithFS(fsys), interp.WithGateway(gw),
		interp.WithStdio(strings.NewReader(stdin), out, errb),
		interp.WithEnv([]string{"HOME=" + vfs.HomeDir, "PATH=/usr/bin:/bin", "LC_ALL=C"}),
		interp.WithDir(vfs.WorkDir), interp.WithParams("fuzz", params...), interp.WithLimits(lim))
	if err != nil {
		t.Fatal(err)
	}
	takePanics()
	start := time.Now()
	status, err := r.RunReader(context.Background(), bytes.NewReader(script), "fuzz")
	res := hostileRun{status: status, err: err, elapsed: time.Since(start)}
	res.stdout, res.stderr = out.String(), errb.String()
	return res
}

// checkSane fails t when a run panicked, hit an internal error or hung.
func checkSane(t testing.TB, script []byte, res hostileRun, timeout time.Duration) {
	t.Helper()
	if p := takePanics(); len(p) > 0 {
		t.Fatalf("recovered panic in expansion\nscript: %q\npanic: %s", script, p[0])
	}
	var ie *interp.InternalError
	if errors.As(res.err, &ie) {
		t.Fatalf("internal error\nscript: %q\nerr: %v\n%s", script, ie, ie.Stack)
	}
	if timeout > 0 && res.elapsed > timeout+fuzzSlack {
		t.Fatalf("run took %v (timeout %v)\nscript: %q", res.elapsed, timeout, script)
	}
	if res.status < 0 || res.status > 255 {
		t.Fatalf("status %d out of range\nscript: %q", res.status, script)
	}
}

// capBuf is a goroutine-safe buffer that keeps at most max bytes.
type capBuf struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (b *capBuf) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (b *capBuf) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// FuzzRun parses and runs arbitrary script bytes.
func FuzzRun(f *testing.F) {
	// The differential cases are seeds too, one script each.
	for _, c := range loadDiffCasesFrom(f) {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, script []byte) {
		lim := fuzzLimits()
		res := runHostile(t, script, lim, "line one\nline two\n")
		checkSane(t, script, res, lim.Timeout)
	})
}

// FuzzExpand expands one word against hostile values: $1 and $2 are the
// fuzzed values (any bytes, NUL and invalid UTF-8 included) and the word
// is fuzzed syntax, printed in several contexts.
func FuzzExpand(f *testing.F) {
	for _, w := range []string{
		`${1@Q}`, `${1@E}`, `${1@P}`, `${1@A}`, `${1@a}`, `${1@U}${1@u}${1@L}`,
		`${1:0:99999999999}`, `${1: -99999999999}`, `${1:1:-99999999999}`, `${1:-9223372036854775808}`,
		`${1//?/$1$1}`, `${1/#/x}`, `${1%%*}`, `${1##*}`, `${1^^}`, `${1,,[a-z]}`, `${1~~}`,
		`${!1}`, `${!1@}`, `${!2*}`, `${#1}`, `${1[@]}`, `"${@:2}"`, `"${@: -1}"`, `${*:0:1}`,
		`$(( $1 ))`, `$(( $2 ? $1 : 1 ))`, `$(( 2**63 ))`, `$(( -9223372036854775808 / -1 ))`, `$((1/0))`,
		`{1..5}{a..c}`, `{1..100000000}`, `{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}`,
		`$'\x00\xff'`, `$'\u00e9\U0010ffff\c@'`, `~root/$1`, `[$1]*`, `@($1|x)`, `"$1"'$2'$1`,
	} {
		f.Add(w, "a b\x00c\xff", "x[1]")
	}
	f.Fuzz(func(t *testing.T, word, v1, v2 string) {
		script := []byte("shopt -s extglob\nx=" + word + "\nprintf '<%s>' " + word + " \"" + word + "\"\n" +
			"a=(" + word + ")\ncase $x in " + word + ") :;; esac\n[[ $x == " + word + " ]]\n")
		lim := fuzzLimits()
		res := runHostile(t, script, lim, "", v1, v2)
		checkSane(t, script, res, lim.Timeout)
	})
}

// loadDiffCasesFrom reads the differential scripts for use as seeds.
func loadDiffCasesFrom(tb testing.TB) []string {
	files, err := filepath.Glob("testdata/diff/*.sh")
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		for _, c := range strings.Split(string(data), "\n### ") {
			if _, body, ok := strings.Cut(c, "\n"); ok && strings.TrimSpace(body) != "" {
				out = append(out, body)
			}
		}
	}
	return out
}
