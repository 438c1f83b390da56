package builtins

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sandsh/sandsh/internal/suite"
	"github.com/sandsh/sandsh/vfs"
)

// testFiles is the tree both bash and Test see.
var testFiles = map[string]string{"f": "data", "empty": "", "d/": "", "d/g": "x"}

// testBashCases are evaluated by bash's test builtin and by Test.
var testBashCases = [][]string{
	{}, {""}, {"a"}, {"-n"}, {"-z"}, {"!"}, {"("}, {")"}, {"-a"}, {"-o"},
	{"-n", ""}, {"-n", "a"}, {"-z", ""}, {"-z", "a"}, {"!", ""}, {"!", "a"},
	{"-q", "a"}, {"a", "b"}, {"-", "a"}, {"-t", "1"}, {"-t", "x"},
	{"a", "=", "a"}, {"a", "=", "b"}, {"a", "==", "a"}, {"a", "!=", "b"},
	{"a", "<", "b"}, {"b", "<", "a"}, {"a", ">", "b"}, {"B", ">", "a"},
	{"1", "-eq", "1"}, {"1", "-eq", " 1 "}, {"01", "-eq", "1"}, {"-1", "-lt", "0"},
	{"2", "-gt", "10"}, {"2", "-ge", "2"}, {"3", "-le", "2"}, {"3", "-ne", "3"},
	{"a", "-eq", "1"}, {"1", "-eq", "b"}, {"1.5", "-eq", "1"}, {"", "-eq", "0"},
	{"99999999999999999999", "-gt", "1"}, {"0x10", "-eq", "16"}, {"+5", "-eq", "5"},
	{"a", "-a", "b"}, {"a", "-a", ""}, {"", "-o", "b"}, {"", "-o", ""},
	{"!", "-n", "a"}, {"!", "-z", "a"}, {"!", "a", "="}, {"(", "a", ")"}, {"(", "", ")"},
	{"a", "-x", "b"}, {"a", "b", "c"}, {"-n", "a", "b"},
	{"!", "a", "=", "a"}, {"!", "a", "=", "b"}, {"(", "-n", "a", ")"}, {"(", "-z", "a", ")"},
	{"a", "=", "a", "-a", "b", "=", "b"}, {"a", "=", "a", "-a", "b", "=", "c"},
	{"a", "=", "b", "-o", "b", "=", "b"}, {"a", "=", "b", "-o", "b", "=", "c"},
	{"!", "a", "=", "b", "-a", "c"}, {"(", "a", "=", "b", ")", "-o", "x"},
	{"(", "a", "=", "b", "-o", "x", ")", "-a", "y"}, {"(", "a", "=", "a"},
	{"(", "a", "b", "c", ")"}, {"!", "!", "!", "a"}, {"!", "!", "a", "-a", "b"},
	{"-n", "a", "-a", "-z", ""}, {"-z", "a", "-o", "-n", "b", "-a", "-z", "c"},
	{"a", "-a"}, {"a", "-o", "-o"}, {"-e", "f", "-a"}, {"a", "b", "c", "d", "e"},
	{"-q", "x", "-a", "y"}, {"x", "-a", "-q"}, {"=", "=", "="}, {"-a", "-a", "-a"},
	{"-e", "f"}, {"-e", "nope"}, {"-a", "f"}, {"-e", ""}, {"-f", "f"}, {"-f", "d"},
	{"-d", "d"}, {"-d", "f"}, {"-s", "f"}, {"-s", "empty"}, {"-s", "nope"},
	{"-r", "f"}, {"-w", "f"}, {"-r", "nope"}, {"-x", "d"}, {"-x", "nope"},
	{"-L", "f"}, {"-h", "nope"}, {"-p", "f"}, {"-S", "f"}, {"-b", "f"}, {"-c", "f"},
	{"-c", "/dev/null"}, {"-e", "/dev/null"}, {"-f", "/dev/null"},
	{"-u", "f"}, {"-g", "f"}, {"-k", "f"}, {"-O", "nope"}, {"-G", "nope"},
	{"-e", "d/g"}, {"-f", "d/../f"}, {"-d", "d/"}, {"-f", "f/"},
	{"f", "-ef", "f"}, {"f", "-ef", "d/../f"}, {"f", "-ef", "empty"}, {"nope", "-ef", "nope"},
	{"f", "-nt", "nope"}, {"nope", "-nt", "f"}, {"f", "-ot", "nope"}, {"nope", "-ot", "f"},
	{"nope", "-nt", "nope"}, {"-z", "-a", "-n"}, {"-v", "PATH"}, {"-v", "NO_SUCH_VAR"},
	{"-o", "noclobber"}, {"-R", "x"},
}

// TestTestBashDiff compares Test with bash's test builtin, both as test
// and as [.
func TestTestBashDiff(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		suite.Skip(t, "bash", "bash's test is the oracle")
	}
	dir := t.TempDir()
	for name, data := range testFiles {
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			os.MkdirAll(p, 0o755)
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(data), 0o644)
	}
	for _, c := range testBashCases {
		for _, bracket := range []bool{false, true} {
			script, args := `test "$@"`, c
			if bracket {
				script, args = `[ "$@"`, append(append([]string(nil), c...), "]")
			}
			t.Run(script+" "+strings.Join(c, " "), func(t *testing.T) {
				cmd := exec.Command("bash", append([]string{"-c", script, "_"}, args...)...)
				cmd.Dir = dir
				cmd.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin"}
				var herr bytes.Buffer
				cmd.Stderr = &herr
				hstatus := 0
				if err := cmd.Run(); err != nil {
					ee, ok := err.(*exec.ExitError)
					if !ok {
						t.Fatal(err)
					}
					hstatus = ee.ExitCode()
				}
				env := testEnv(t, testFiles)
				var errb bytes.Buffer
				env.Stderr = &errb
				st := Test(env, args, bracket)
				if st != hstatus {
					t.Errorf("status: bash %d, sandsh %d (stderr %q / %q)", hstatus, st, herr.String(), errb.String())
				}
				if (errb.Len() == 0) != (herr.Len() == 0) {
					t.Errorf("stderr emptiness differs: bash %q, sandsh %q", herr.String(), errb.String())
				}
			})
		}
	}
}

func TestTestUnit(t *testing.T) {
	files := map[string]string{"f": "x", "ro": "x", "d/": ""}
	cases := []struct {
		args    []string
		bracket bool
		setup   func(env *Env)
		uid     int
		status  int
		stderr  string
	}{
		{args: []string{"a", "="}, bracket: true, status: 2, stderr: "[: missing `]'\n"},
		{args: []string{"]"}, bracket: true, status: 1},
		{args: []string{"a", "-eq", "1"}, status: 2, stderr: "test: a: integer expression expected\n"},
		{args: []string{"a", "b", "c", "d"}, status: 2, stderr: "test: too many arguments\n"},
		{args: []string{"-r", "ro"}, setup: func(env *Env) { env.FS.Chmod(env.Abs("ro"), 0o000) }, status: 1},
		{args: []string{"-r", "ro"}, setup: func(env *Env) { env.FS.Chmod(env.Abs("ro"), 0o000) }, uid: -1, status: 0},
		{args: []string{"-w", "ro"}, setup: func(env *Env) { env.FS.Chmod(env.Abs("ro"), 0o444) }, status: 1},
		{args: []string{"-x", "f"}, status: 1},
		{args: []string{"-x", "f"}, setup: func(env *Env) { env.FS.Chmod(env.Abs("f"), 0o744) }, status: 0},
		{args: []string{"-x", "f"}, setup: func(env *Env) { env.FS.Chmod(env.Abs("f"), 0o701) }, uid: -1, status: 0},
		{args: []string{"-x", "d"}, status: 0},
		{args: []string{"-O", "f"}, status: 0},
		{args: []string{"-O", "f"}, uid: 1234, status: 1},
		{args: []string{"-r", "f"}, uid: 1234, setup: func(env *Env) { env.FS.Chmod(env.Abs("f"), 0o640) }, status: 1},
		{args: []string{"-r", "f"}, uid: 1234, setup: func(env *Env) { env.FS.Chmod(env.Abs("f"), 0o604) }, status: 0},
		{args: []string{"-t", "0"}, status: 1},
		{args: []string{"-u", "f"}, setup: func(env *Env) { env.FS.Chmod(env.Abs("f"), 0o644|os.ModeSetuid) }, status: 0},
		{args: []string{"-k", "d"}, setup: func(env *Env) { env.FS.Chmod(env.Abs("d"), 0o755|os.ModeSticky) }, status: 0},
		{args: []string{"-L", "l"}, setup: func(env *Env) {
			if err := env.FS.SymlinkIfPossible("f", env.Abs("l")); err != nil {
				env.FS.Mkdir(env.Abs("l-unsupported"), 0o755)
			}
		}, status: -1},
	}
	for _, c := range cases {
		env := testEnv(t, files)
		var errb bytes.Buffer
		env.Stderr = &errb
		if c.setup != nil {
			c.setup(env)
		}
		switch {
		case c.uid == -1:
			env.Sys.UID = 0
		case c.uid != 0:
			env.Sys.UID = c.uid
			env.Sys.GID = c.uid
		}
		want := c.status
		if want == -1 { // symlink case: true iff the FS supports symlinks
			want = 1
			if _, err := vfs.Lstat(env.FS, env.Abs("l")); err == nil {
				want = 0
			}
		}
		st := Test(env, c.args, c.bracket)
		if st != want || (c.stderr != "" && errb.String() != c.stderr) {
			t.Errorf("Test(%q, %v) = %d, stderr %q; want %d, %q", c.args, c.bracket, st, errb.String(), want, c.stderr)
		}
	}
}

func TestTestCommand(t *testing.T) {
	files := map[string]string{"f": "x", "d/": ""}
	shellRunCases(t, []shellCase{
		{args: []string{"test", "-f", "f"}, files: files},
		{args: []string{"[", "-d", "d", "]"}, files: files},
		{args: []string{"[", "-d", "f", "]"}, files: files, status: 1},
		{args: []string{"[", "x"}, status: 2, errHas: "[: missing `]'"},
		{args: []string{"test", "1", "-gt", "x"}, status: 2, errHas: "test: x: integer expression expected"},
		{args: []string{"[", "--help"}, outHas: "Usage: test"},
		{args: []string{"test", "--help"}},
		{args: []string{"[", "--help", "]"}},
	})
}
