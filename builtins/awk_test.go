package builtins

import (
	"context"
	"io"
	"strings"
	"testing"
)

// awkShellEnv is a test env whose gateway understands "sh -c CMD" for
// simple CMDs by running the words of CMD as an in-process command, so
// system(), print | cmd and cmd | getline can be tested without a shell.
func awkShellEnv(t *testing.T, files map[string]string) *Env {
	env := testEnv(t, files)
	inner := env.Exec
	env.Exec = func(ctx context.Context, sub *Env, args []string) int {
		if len(args) == 3 && args[0] == "sh" && args[1] == "-c" {
			return inner(ctx, sub, strings.Fields(args[2]))
		}
		return inner(ctx, sub, args)
	}
	return env
}

func TestAwkCommand(t *testing.T) {
	files := map[string]string{
		"data.txt":  "alice 10\nbob 5\ncarol 30\n",
		"colon.txt": "a:b:c\nd:e:f\n",
		"tab.txt":   "a b\tc\n",
		"prog.awk":  "{ s += $2 }\nEND { print \"sum\", s }\n",
		"lib.awk":   "function double(x) { return 2 * x }\n",
		"main.awk":  "{ print double($2) }\n",
		"dir/":      "",
	}
	tests := []struct {
		name   string
		stdin  string
		args   []string
		out    string
		status int
		errSub string // substring expected on stderr ("" means empty stderr)
	}{
		{"program and file", "", []string{"awk", "{ print $1 }", "data.txt"}, "alice\nbob\ncarol\n", 0, ""},
		{"stdin", "x y\n", []string{"awk", "{ print $2 }"}, "y\n", 0, ""},
		{"dash is stdin", "x y\n", []string{"awk", "{ print $1 }", "-"}, "x\n", 0, ""},
		{"gawk name", "", []string{"gawk", "BEGIN { print \"hi\" }"}, "hi\n", 0, ""},
		{"mawk name", "", []string{"mawk", "BEGIN { print ARGV[0] }"}, "mawk\n", 0, ""},
		{"nawk name", "", []string{"nawk", "BEGIN { print 1 }"}, "1\n", 0, ""},
		{"-F char", "", []string{"awk", "-F:", "{ print $2 }", "colon.txt"}, "b\ne\n", 0, ""},
		{"-F separate", "", []string{"awk", "-F", ":", "{ print $3 }", "colon.txt"}, "c\nf\n", 0, ""},
		{"-F tab escape", "", []string{"awk", "-F", `\t`, "{ print $2 }", "tab.txt"}, "c\n", 0, ""},
		// As in gawk, -Ft is a tab only with --traditional.
		{"-Ft", "", []string{"awk", "-Ft", "{ print $2 }", "tab.txt"}, "\n", 0, ""},
		{"-Ft letter", "a1tb\n", []string{"awk", "-Ft", "{ print $2 }"}, "b\n", 0, ""},
		{"-Ft traditional", "", []string{"awk", "--traditional", "-Ft", "{ print $2 }", "tab.txt"}, "c\n", 0, ""},
		{"-Ft -W compat", "", []string{"awk", "-Ft", "-W", "compat", "{ print $2 }", "tab.txt"}, "c\n", 0, ""},
		{"-Ft posix", "", []string{"awk", "--traditional", "--posix", "-Ft", "{ print $2 }", "tab.txt"}, "\n", 0, ""},
		{"-F regex", "", []string{"awk", "-F", "[:e]", "{ print $2 }", "colon.txt"}, "b\n\n", 0, ""},
		{"--field-separator", "", []string{"awk", "--field-separator=:", "{ print $1 }", "colon.txt"}, "a\nd\n", 0, ""},
		{"-v", "", []string{"awk", "-v", "n=3", "-v", "s=a\\tb", "BEGIN { print n * 2, s }"}, "6 a\tb\n", 0, ""},
		{"-v attached", "", []string{"awk", "-vn=4", "BEGIN { print n }"}, "4\n", 0, ""},
		{"--assign", "", []string{"awk", "--assign", "x=y", "BEGIN { print x }"}, "y\n", 0, ""},
		{"-v bad", "", []string{"awk", "-v", "1x=3", "BEGIN { }"}, "", 2, "var=value"},
		{"-f", "", []string{"awk", "-f", "prog.awk", "data.txt"}, "sum 45\n", 0, ""},
		{"-f twice", "", []string{"awk", "-f", "lib.awk", "-f", "main.awk", "data.txt"}, "20\n10\n60\n", 0, ""},
		{"-f missing", "", []string{"awk", "-f", "nope.awk"}, "", 2, "nope.awk"},
		{"-e", "", []string{"awk", "-e", "BEGIN { print 7 }"}, "7\n", 0, ""},
		{"--", "", []string{"awk", "--", "BEGIN { print ARGV[1] }", "-x"}, "-x\n", 0, ""},
		{"options stop at program", "", []string{"awk", "BEGIN { print ARGV[1] }", "-F"}, "-F\n", 0, ""},
		{"--help operand is data", "", []string{"awk", "BEGIN { print ARGV[1] }", "--help"}, "--help\n", 0, ""},
		{"assignment operand", "", []string{"awk", "{ print v $1 }", "v=1", "data.txt"}, "1alice\n1bob\n1carol\n", 0, ""},
		{"version", "", []string{"awk", "--version"}, "GNU Awk 5.2.1 (sandsh awk)\n", 0, ""},
		{"no program", "", []string{"awk"}, "", 2, "Usage"},
		{"bad option", "", []string{"awk", "-q", "1"}, "", 2, "invalid option"},
		// gawk's status for a program that does not parse is 1.
		{"syntax error", "", []string{"awk", "BEGIN { print 1 +* 2 }"}, "", 1, "awk: cmd. line:1: BEGIN { print 1 +* 2 }\nawk: cmd. line:1:                  ^ syntax error\n"},
		{"syntax error in file", "", []string{"awk", "-f", "bad.awk"}, "", 1, "awk: bad.awk:2:   x = = 1\nawk: bad.awk:2:       ^ syntax error\n"},
		{"several errors", "", []string{"awk", "BEGIN { break; x = 1 / 0 } { print 1 +* 2 }"}, "", 1,
			"awk: cmd. line:1: error: `break' is not allowed outside a loop or switch\nawk: cmd. line:1: error: division by zero attempted\nawk: cmd. line:1: BEGIN { break; x = 1 / 0 } { print 1 +* 2 }\n"},
		{"runtime error", "", []string{"awk", "BEGIN { y = 0; x = 1 / y }"}, "", 2, "awk: cmd. line:1: fatal: division by zero attempted"},
		{"missing file", "", []string{"awk", "{ print }", "nope", "data.txt"}, "alice 10\nbob 5\ncarol 30\n", 2, "nope"},
		{"directory operand", "", []string{"awk", "{ print }", "dir", "data.txt"}, "alice 10\nbob 5\ncarol 30\n", 0, "is a directory"},
		{"exit status", "", []string{"awk", "BEGIN { exit 7 }"}, "", 7, ""},
		{"environ", "", []string{"awk", "BEGIN { print ENVIRON[\"USER\"], ENVIRON[\"HOME\"] }"}, "sandbox /home/sandbox\n", 0, ""},
		{"systime from env clock", "", []string{"awk", "BEGIN { print systime(), strftime(\"%Y-%m-%d\", systime()) }"}, "1704164645 2024-01-02\n", 0, ""},
		{"escape warning", "", []string{"awk", `BEGIN { print "a\.b" }`}, "a.b\n", 0, "warning: escape sequence"},
		{"dev null", "", []string{"awk", `BEGIN { print "x" > "/dev/null"; while ((getline l < "/dev/null") > 0) n++; print n + 0 }`}, "0\n", 0, ""},
		{"dev stderr", "", []string{"awk", `BEGIN { print "oops" > "/dev/stderr" }`}, "", 0, "oops"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := testEnv(t, files)
			if tt.name == "syntax error in file" {
				env = testEnv(t, map[string]string{"bad.awk": "BEGIN {\n  x = = 1\n}\n"})
			}
			got := run(t, env, tt.stdin, tt.args...)
			if got.Stdout != tt.out {
				t.Errorf("stdout %q, want %q", got.Stdout, tt.out)
			}
			if got.Status != tt.status {
				t.Errorf("status %d, want %d (stderr %q)", got.Status, tt.status, got.Stderr)
			}
			if tt.errSub == "" && got.Stderr != "" {
				t.Errorf("unexpected stderr %q", got.Stderr)
			}
			if tt.errSub != "" && !strings.Contains(got.Stderr, tt.errSub) {
				t.Errorf("stderr %q, want it to contain %q", got.Stderr, tt.errSub)
			}
		})
	}
}

func TestAwkFiles(t *testing.T) {
	env := testEnv(t, map[string]string{"in.txt": "b 2\na 1\n", "sub/": ""})
	got := run(t, env, "", "awk", `{ print $2 > "sub/out.txt"; print $1 >> "log.txt" } END { close("sub/out.txt"); while ((getline l < "sub/out.txt") > 0) print "read", l }`, "in.txt")
	if got.Status != 0 || got.Stdout != "read 2\nread 1\n" {
		t.Fatalf("got %+v", got)
	}
	if s := readFile(t, env, "sub/out.txt"); s != "2\n1\n" {
		t.Errorf("out.txt = %q", s)
	}
	run(t, env, "", "awk", `BEGIN { print "c" >> "log.txt" }`)
	if s := readFile(t, env, "log.txt"); s != "b\na\nc\n" {
		t.Errorf("log.txt = %q", s)
	}
	got = run(t, env, "", "awk", `BEGIN { print "x" > "nodir/f" }`)
	if got.Status != 2 || !strings.Contains(got.Stderr, "cannot redirect to `nodir/f': No such file or directory") {
		t.Errorf("redirect into a missing directory: %+v", got)
	}
}

func TestAwkCommands(t *testing.T) {
	env := awkShellEnv(t, map[string]string{"f.txt": "3\n1\n2\n"})
	tests := []struct {
		name, prog, out string
	}{
		{"system", `BEGIN { print "a"; r = system("echo b"); print "c", r }`, "a\nb\nc 0\n"},
		{"system status", `BEGIN { print system("false"), system("true") }`, "1 0\n"},
		{"print to pipe", `BEGIN { print "y" | "sort"; print "x" | "sort"; close("sort"); print "z" }`, "x\ny\nz\n"},
		{"pipe closed at exit", `BEGIN { print "q" | "cat" }`, "q\n"},
		{"cmd getline", `BEGIN { while (("cat f.txt" | getline l) > 0) s += l; print s }`, "6\n"},
		{"cmd getline record", `BEGIN { "echo a b c" | getline; print NF, $2 }`, "3 b\n"},
		{"close cmd status", `BEGIN { "cat f.txt" | getline x; print x, close("cat f.txt") }`, "3 0\n"},
		{"unknown command", `BEGIN { print system("nosuchcmd") }`, "127\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := run(t, env, "", "awk", tt.prog)
			if got.Stdout != tt.out || got.Status != 0 {
				t.Errorf("got %q (status %d, stderr %q), want %q", got.Stdout, got.Status, got.Stderr, tt.out)
			}
		})
	}
}

// awkBrokenPipe is a writer whose reader went away.
type awkBrokenPipe struct{}

func (awkBrokenPipe) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

func TestAwkBrokenPipe(t *testing.T) {
	env := testEnv(t, nil)
	sub := env.Sub()
	var errb strings.Builder
	sub.Stdout, sub.Stderr, sub.Stdin = awkBrokenPipe{}, &errb, strings.NewReader("")
	st := sub.Run(context.Background(), []string{"awk", "BEGIN { while (1) print \"y\" }"})
	if st != StatusBrokenPipe || errb.Len() != 0 {
		t.Errorf("status %d stderr %q, want a silent %d", st, errb.String(), StatusBrokenPipe)
	}
}

func TestAwkLocale(t *testing.T) {
	env := testEnv(t, nil)
	if got := run(t, env, "héllo\n", "awk", "{ print length() }"); got.Stdout != "6\n" {
		t.Errorf("C locale: %q", got.Stdout)
	}
	env.Environ = []string{"LANG=C.UTF-8"}
	if got := run(t, env, "héllo\n", "awk", "{ print length(), toupper($0) }"); got.Stdout != "5 HÉLLO\n" {
		t.Errorf("UTF-8 locale: %q", got.Stdout)
	}
}

func TestAwkHelp(t *testing.T) {
	got := run(t, testEnv(t, nil), "", "awk", "--help")
	if got.Status != 0 || !strings.HasPrefix(got.Stdout, "Usage: awk") {
		t.Errorf("--help: %+v", got)
	}
}
