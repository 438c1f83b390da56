package cmd

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/sandsh/sandsh/internal/suite"
)

// The test frameworks real bash projects use run inside the sandbox with
// the same results as under bash: bats (testdata/frameworks/bats) and
// shunit2 (testdata/frameworks/shunit2). The framework's own files are
// copied into a temporary directory next to the suite, which sandsh sees
// read-only through --fs overlay, restricted: every command the
// frameworks run (mktemp, cat, sed, grep, sort, find, rm, ...) is the
// in-process one. .ci/run installs both frameworks when missing.

// batsRoot finds bats-core 1.13 (npm's bats package): $SANDSH_BATS, or
// where .ci/run installs it.
func batsRoot() string {
	cands := []string{os.Getenv("SANDSH_BATS")}
	if home, err := os.UserHomeDir(); err == nil {
		cands = append(cands, filepath.Join(home, ".cache", "sandsh", "node_modules", "bats"))
	}
	for _, c := range cands {
		if c == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(c, "libexec", "bats-core", "bats")); err == nil {
			return c
		}
	}
	return ""
}

// shunit2File finds shunit2: $SANDSH_SHUNIT2 or Debian's package.
func shunit2File() string {
	for _, c := range []string{os.Getenv("SANDSH_SHUNIT2"), "/usr/share/shunit2/shunit2"} {
		if c == "" {
			continue
		}
		if _, err := os.Stat(c); err == nil {
			return c
		}
	}
	return ""
}

// copyTree copies a directory of regular files, keeping their modes.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, fi.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// buildSandsh builds the sandsh binary once per test.
func buildSandsh(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "sandsh")
	build := exec.Command("go", "build", "-o", bin, "github.com/sandsh/sandsh")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

type run struct {
	out    string
	status int
}

// runIn runs a command in dir with a small fixed environment: bash gets
// what a clean CI shell has; sandsh builds its own anyway.
func runIn(t *testing.T, dir string, args ...string) run {
	t.Helper()
	home := filepath.Join(dir, ".home")
	tmp := filepath.Join(dir, ".tmp")
	for _, d := range []string{home, tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	c := exec.Command(args[0], args[1:]...)
	c.Dir = dir
	c.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "TMPDIR=" + tmp, "LANG=C.UTF-8", "TERM=dumb"}
	var out bytes.Buffer
	c.Stdout = &out
	c.Stderr = &out
	err := c.Run()
	status := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		status = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return run{out.String(), status}
}

// junitVolatile matches what legitimately differs between two runs of a
// junit report: durations, the start time and the host name (the sandbox
// reports its virtual one).
var junitVolatile = regexp.MustCompile(`(time|timestamp|hostname)="[^"]*"`)

func compareRuns(t *testing.T, what string, bash, sandsh run, normalize func(string) string) {
	t.Helper()
	b, s := bash.out, sandsh.out
	if normalize != nil {
		b, s = normalize(b), normalize(s)
	}
	if b != s || bash.status != sandsh.status {
		t.Errorf("%s: bash and sandsh differ\nbash (status %d):\n%s\nsandsh (status %d):\n%s", what, bash.status, b, sandsh.status, s)
	}
}

func TestBatsInSandbox(t *testing.T) {
	if runtime.GOOS != "linux" {
		suite.Skip(t, "linux", "the worker runs on Linux only")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		suite.Skip(t, "bash", "bash runs the framework as the oracle")
	}
	root := batsRoot()
	if root == "" {
		suite.Skip(t, "bats", "bats 1.13 not installed: run .ci/run, or `npm install --prefix ~/.cache/sandsh bats@1.13.0`, or set SANDSH_BATS")
	}
	dir := t.TempDir()
	copyTree(t, root, filepath.Join(dir, "bats"))
	copyTree(t, filepath.Join("..", "testdata", "frameworks", "bats"), dir)
	sandsh := buildSandsh(t)
	for _, tc := range []struct {
		name      string
		args      string
		normalize func(string) string
	}{
		{"tap", "--tap suite.bats", nil},
		{"default formatter without a terminal", "suite.bats", nil},
		{"junit", "--formatter junit suite.bats", func(s string) string { return junitVolatile.ReplaceAllString(s, `$1="-"`) }},
		{"count", "--count suite.bats", nil},
		{"filter", "--tap --filter 'run captures' suite.bats", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			script := "bats/bin/bats " + tc.args
			want := runIn(t, dir, "bash", "-c", script)
			got := runIn(t, dir, sandsh, "--fs", "overlay", "--base", dir, "--timeout", "120s", "-c", script)
			compareRuns(t, "bats "+tc.args, want, got, tc.normalize)
			if tc.name == "tap" && !strings.Contains(got.out, "ok 10 loops and arithmetic") {
				t.Errorf("the suite did not run to its end:\n%s", got.out)
			}
		})
	}
}

func TestShunit2InSandbox(t *testing.T) {
	if runtime.GOOS != "linux" {
		suite.Skip(t, "linux", "the worker runs on Linux only")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		suite.Skip(t, "bash", "bash runs the framework as the oracle")
	}
	lib := shunit2File()
	if lib == "" {
		suite.Skip(t, "shunit2", "shunit2 not installed: run .ci/run, or `apt-get install shunit2`, or set SANDSH_SHUNIT2")
	}
	dir := t.TempDir()
	data, err := os.ReadFile(lib)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "shunit2"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	copyTree(t, filepath.Join("..", "testdata", "frameworks", "shunit2"), dir)
	sandsh := buildSandsh(t)
	script := "SHUNIT2=./shunit2 bash test_suite.sh"
	want := runIn(t, dir, "bash", "-c", script)
	got := runIn(t, dir, sandsh, "--fs", "overlay", "--base", dir, "--timeout", "120s", "-c", script)
	compareRuns(t, "shunit2", want, got, nil)
	if !strings.Contains(got.out, "Ran") {
		t.Errorf("shunit2 did not report a run:\n%s", got.out)
	}
}

// batsLibs finds bats-support 0.3.0 and bats-assert 2.2.4 (npm) beside
// bats: the helper libraries bats projects load.
func batsLibs(root string) string {
	mods := filepath.Dir(root)
	for _, lib := range []string{"bats-support", "bats-assert"} {
		if _, err := os.Stat(filepath.Join(mods, lib, "load.bash")); err != nil {
			return ""
		}
	}
	return mods
}

// TestBatsAssertInSandbox runs bats-assert's and bats-support's every
// assertion, passing and failing (testdata/frameworks/bats-assert), under
// bats in bash and in the sandbox: the TAP output, with each failure's
// message as bats-support lays it out, and the pass counts must match.
func TestBatsAssertInSandbox(t *testing.T) {
	if runtime.GOOS != "linux" {
		suite.Skip(t, "linux", "the worker runs on Linux only")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		suite.Skip(t, "bash", "bash runs the framework as the oracle")
	}
	root := batsRoot()
	mods := ""
	if root != "" {
		mods = batsLibs(root)
	}
	if mods == "" {
		suite.Skip(t, "bats-assert", "bats 1.13, bats-support 0.3.0 and bats-assert 2.2.4 not installed: run .ci/run, or `npm install --prefix ~/.cache/sandsh bats@1.13.0 bats-support@0.3.0 bats-assert@2.2.4`")
	}
	dir := t.TempDir()
	for _, m := range []string{"bats", "bats-support", "bats-assert"} {
		copyTree(t, filepath.Join(mods, m), filepath.Join(dir, "node_modules", m))
	}
	copyTree(t, filepath.Join("..", "testdata", "frameworks", "bats-assert"), dir)
	sandsh := buildSandsh(t)
	// A message naming a library file shows the directory the suite runs
	// in: the host's, or the sandbox's /workspace.
	where := func(s string) string { return strings.ReplaceAll(s, dir+"/", "/workspace/") }
	for _, args := range []string{"--tap assert.bats", "assert.bats"} {
		t.Run(args, func(t *testing.T) {
			script := "node_modules/bats/bin/bats " + args
			want := runIn(t, dir, "bash", "-c", script)
			got := runIn(t, dir, sandsh, "--fs", "overlay", "--base", dir, "--timeout", "120s", "-c", script)
			compareRuns(t, "bats "+args, want, got, where)
			if args == "--tap assert.bats" {
				passed := strings.Count("\n"+got.out, "\nok ")
				failed := strings.Count("\n"+got.out, "\nnot ok ")
				t.Logf("bats-assert suite: bash %d passed, %d failed; sandsh %d passed, %d failed",
					strings.Count("\n"+want.out, "\nok "), strings.Count("\n"+want.out, "\nnot ok "), passed, failed)
				if passed+failed != 25 {
					t.Errorf("the suite did not run its 25 tests:\n%s", got.out)
				}
			}
		})
	}
}
