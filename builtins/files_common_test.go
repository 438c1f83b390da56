package builtins

import (
	"strings"
	"testing"
	"time"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
	"github.com/sandsh/sandsh/internal/suite"
)

// filesCase is a unit test case for the files group: files to create,
// an optional setup, the command line, and what it must print and leave.
type filesCase struct {
	name   string
	files  map[string]string
	setup  func(t *testing.T, env *Env)
	stdin  string
	args   []string
	out    string // exact stdout, unless outSub is set
	outSub []string
	errSub string // "" means stderr must be empty
	status int
	check  func(t *testing.T, env *Env)
}

func filesRunCases(t *testing.T, cases []filesCase) {
	t.Helper()
	for _, c := range cases {
		name := c.name
		if name == "" {
			name = strings.Join(c.args, " ")
		}
		t.Run(name, func(t *testing.T) {
			env := testEnv(t, c.files)
			if c.setup != nil {
				c.setup(t, env)
			}
			r := run(t, env, c.stdin, c.args...)
			if c.outSub != nil {
				for _, s := range c.outSub {
					if !strings.Contains(r.Stdout, s) {
						t.Errorf("stdout %q lacks %q", r.Stdout, s)
					}
				}
			} else if r.Stdout != c.out {
				t.Errorf("stdout:\n got %q\nwant %q", r.Stdout, c.out)
			}
			if c.errSub == "" && r.Stderr != "" {
				t.Errorf("unexpected stderr %q", r.Stderr)
			}
			if c.errSub != "" && !strings.Contains(r.Stderr, c.errSub) {
				t.Errorf("stderr %q lacks %q", r.Stderr, c.errSub)
			}
			if r.Status != c.status {
				t.Errorf("status %d, want %d (stderr %q)", r.Status, c.status, r.Stderr)
			}
			if c.check != nil {
				c.check(t, env)
			}
		})
	}
}

// filesSetTime sets a file's mtime (and atime) for tests.
func filesSetTime(t *testing.T, env *Env, name string, when time.Time) {
	t.Helper()
	if err := env.FS.Chtimes(env.Abs(name), when, when); err != nil {
		t.Fatal(err)
	}
}

// filesSymlink makes a symlink or skips the test on a filesystem
// without them.
func filesSymlink(t *testing.T, env *Env, target, name string) {
	t.Helper()
	if err := env.FS.SymlinkIfPossible(target, env.Abs(name)); err != nil {
		if filesNoSymlinks(err) {
			suite.Skip(t, "symlinks", "the host filesystem has none")
		}
		t.Fatal(err)
	}
}

// filesContent checks a file's content after a run.
func filesContent(name, want string) func(*testing.T, *Env) {
	return func(t *testing.T, env *Env) {
		t.Helper()
		if got := readFile(t, env, name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
}

// filesAll runs several checks.
func filesAll(checks ...func(*testing.T, *Env)) func(*testing.T, *Env) {
	return func(t *testing.T, env *Env) {
		for _, c := range checks {
			c(t, env)
		}
	}
}

func filesMode(t *testing.T, env *Env, name string) string {
	t.Helper()
	fi, err := filesLstat(env, name)
	if err != nil {
		t.Fatalf("lstat %s: %v", name, err)
	}
	return fileutil.ModeString(fi.Mode())
}

func filesExists(env *Env, name string) bool {
	_, err := filesLstat(env, name)
	return err == nil
}

func TestFilesHelpers(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a b", "'a b'"}, {"it's", `"it's"`}, {"a'$b", `'a'\''$b'`}, {"ab", "'ab'"}, {"a\nb", `'a'$'\n''b'`},
		{"\xc3\xa9", `''$'\303\251'`},
	}
	for _, tt := range tests {
		if got := fileutil.Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
	for in, want := range map[string]string{"ab": "ab", "a:b": "'a:b'", "a b": "'a b'", "#a": "'#a'", "a#": "a#"} {
		if got := fileutil.QuoteIf(in); got != want {
			t.Errorf("QuoteIf(%q) = %s, want %s", in, got, want)
		}
	}
	for n, want := range map[int64]string{0: "0", 1023: "1023", 1024: "1.0K", 1025: "1.1K", 10239: "10K",
		588895: "576K", 1048575: "1.0M", 1 << 30: "1.0G", 5000: "4.9K"} {
		if got := fileutil.Human(n, false); got != want {
			t.Errorf("Human(%d) = %s, want %s", n, got, want)
		}
	}
	for in, want := range map[string]int64{"10": 10, "1K": 1024, "1KB": 1000, "2MiB": 2 << 20, "1b": 512, "G": 1 << 30} {
		if got, err := fileutil.ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	modes := []struct {
		spec     string
		old      uint32
		dir      bool
		want     uint32
		wantFail bool
	}{
		{"755", 0o644, false, 0o755, false}, {"u+x", 0o644, false, 0o744, false}, {"go-w", 0o666, false, 0o644, false},
		{"a=r", 0o777, false, 0o444, false}, {"+X", 0o644, true, 0o755, false}, {"+X", 0o644, false, 0o644, false},
		{"+X", 0o744, false, 0o755, false}, {"g=u", 0o740, false, 0o770, false}, {"u+s,+t", 0o755, false, 0o5755, false},
		{"=", 0o755, false, 0o000, false}, {"o=rwx,g-r", 0o640, false, 0o607, false}, {"-w", 0o666, false, 0o466, false},
		{"8", 0, false, 0, true}, {"u+q", 0, false, 0, true}, {"", 0, false, 0, true}, {"77777", 0, false, 0, true},
		{"755", 0o2644, true, 0o2755, false}, {"00755", 0o2644, true, 0o755, false},
	}
	for _, m := range modes {
		pm, err := fileutil.ParseMode(m.spec)
		if (err != nil) != m.wantFail {
			t.Errorf("ParseMode(%q) err = %v", m.spec, err)
			continue
		}
		if err == nil {
			if got := pm.Apply(m.old, m.dir, 0o022); got != m.want {
				t.Errorf("%q on %04o = %04o, want %04o", m.spec, m.old, got, m.want)
			}
		}
	}
	globs := []struct {
		p, s string
		want bool
	}{
		{"*.go", "a.go", true}, {"*.go", ".go", true}, {"a?c", "abc", true}, {"[!a]*", "abc", false}, {"[^a]*", "bc", true},
		{"[a-c]x", "bx", true}, {"[[:digit:]]*", "1a", true}, {`\*`, "*", true}, {"*/x", "a/b/x", true}, {"[", "[", true},
		{"a*b*c", "aXbYbZc", true}, {"a*b", "acbd", false}, {"[]]", "]", true},
	}
	for _, g := range globs {
		if got := fileutil.Match(g.p, g.s, false); got != g.want {
			t.Errorf("Match(%q, %q) = %v", g.p, g.s, got)
		}
	}

}
