//go:build unix

package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/sandsh/sandsh/internal/suite"
	"github.com/sandsh/sandsh/restrict"
	"github.com/sandsh/sandsh/worker"
)

// The REPL tests run sandsh on a pseudo-terminal, as a user would: the
// test binary re-executes itself as sandsh (TestREPLHelperProcess), so no
// separate build is needed and the REPL runs under -race too.

const replHelperEnv = "SANDSH_REPL_TEST_HELPER"

// replTimeout bounds every wait for output (generous for -race on a busy
// machine; a passing test never waits this long).
const replTimeout = 10 * time.Second

// TestREPLHelperProcess is not a test: it is sandsh, started by the tests
// below with the arguments after "--".
func TestREPLHelperProcess(t *testing.T) {
	if os.Getenv(replHelperEnv) != "1" {
		return
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	os.Exit(Main(args))
}

// ptyREPL is sandsh running on a pseudo-terminal.
type ptyREPL struct {
	t      *testing.T
	cmd    *exec.Cmd
	pty    *os.File
	mu     sync.Mutex
	out    []byte // everything sandsh wrote
	seen   int    // out[:seen] was matched by expect
	more   chan struct{}
	exited chan struct{}
	status int
}

// startREPL starts sandsh with args on a new pseudo-terminal; env adds to
// (or, for NO_COLOR and TERM, sets) the host environment.
func startREPL(t *testing.T, env []string, args ...string) *ptyREPL {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestREPLHelperProcess$", "--"}, args...)...)
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "NO_COLOR=") && !strings.HasPrefix(e, "TERM=") && !strings.HasPrefix(e, "HOME=") && !strings.HasPrefix(e, "GORACE=") {
			cmd.Env = append(cmd.Env, e)
		}
	}
	// Under -race, a process sleeps a second at exit unless told not to.
	gorace := strings.TrimSpace(os.Getenv("GORACE") + " atexit_sleep_ms=0")
	cmd.Env = append(cmd.Env, replHelperEnv+"=1", "HOME="+t.TempDir(), "GORACE="+gorace)
	cmd.Env = append(cmd.Env, env...)
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		t.Fatalf("start sandsh on a pty: %v", err)
	}
	p := &ptyREPL{t: t, cmd: cmd, pty: f, more: make(chan struct{}, 1), exited: make(chan struct{})}
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		buf := make([]byte, 4096)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				p.mu.Lock()
				p.out = append(p.out, buf[:n]...)
				p.mu.Unlock()
				select {
				case p.more <- struct{}{}:
				default:
				}
			}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		err := cmd.Wait()
		var ee *exec.ExitError
		switch {
		case err == nil:
		case errors.As(err, &ee):
			p.status = ee.ExitCode()
		default:
			p.status = -1
		}
		close(p.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			cmd.Process.Kill()
			<-p.exited
		}
		f.Close()
		<-readDone
		if out := p.output(); strings.Contains(out, "DATA RACE") || strings.Contains(out, "panic:") {
			t.Errorf("sandsh reported a race or a panic:\n%s", out)
		}
	})
	return p
}

// output is everything sandsh wrote so far.
func (p *ptyREPL) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return string(p.out)
}

// expect waits until want appears in the output after the last match and
// returns the output up to and including it.
func (p *ptyREPL) expect(want string) string {
	p.t.Helper()
	return p.expectFunc(fmt.Sprintf("%q", want), func(s string) int {
		if i := strings.Index(s, want); i >= 0 {
			return i + len(want)
		}
		return -1
	})
}

// expectRe is expect for a regular expression.
func (p *ptyREPL) expectRe(re string) string {
	p.t.Helper()
	rx := regexp.MustCompile(re)
	return p.expectFunc("/"+re+"/", func(s string) int {
		if loc := rx.FindStringIndex(s); loc != nil {
			return loc[1]
		}
		return -1
	})
}

func (p *ptyREPL) expectFunc(what string, match func(string) int) string {
	p.t.Helper()
	deadline := time.NewTimer(replTimeout)
	defer deadline.Stop()
	for {
		p.mu.Lock()
		rest := string(p.out[p.seen:])
		if end := match(rest); end >= 0 {
			p.seen += end
			p.mu.Unlock()
			return rest[:end]
		}
		p.mu.Unlock()
		select {
		case <-p.more:
		case <-p.exited:
			// The process is gone: one last look at what it wrote.
			time.Sleep(50 * time.Millisecond)
			p.mu.Lock()
			rest = string(p.out[p.seen:])
			end := match(rest)
			if end >= 0 {
				p.seen += end
			}
			p.mu.Unlock()
			if end >= 0 {
				return rest[:end]
			}
			p.t.Fatalf("sandsh exited (status %d) before writing %s; after the last match it wrote:\n%q", p.status, what, rest)
		case <-deadline.C:
			p.t.Fatalf("no %s after %v; after the last match sandsh wrote:\n%q", what, replTimeout, p.output()[p.seen:])
		}
	}
}

// send types s.
func (p *ptyREPL) send(s string) {
	p.t.Helper()
	if _, err := io.WriteString(p.pty, s); err != nil {
		p.t.Fatalf("write to the pty: %v", err)
	}
}

// run types a command line and presses Enter.
func (p *ptyREPL) run(line string) { p.t.Helper(); p.send(line + "\r") }

// prompt waits for the plain (NO_COLOR) prompt in directory dir.
func (p *ptyREPL) prompt(dir string) string {
	p.t.Helper()
	return p.expect("[restricted] " + dir + " $ ")
}

// wait waits for sandsh to exit and returns its status.
func (p *ptyREPL) wait() int {
	p.t.Helper()
	select {
	case <-p.exited:
		return p.status
	case <-time.After(replTimeout):
		p.t.Fatalf("sandsh did not exit; it wrote:\n%q", p.output()[p.seen:])
	}
	return 0
}

var noColor = []string{"NO_COLOR=1", "TERM=xterm"}

func TestREPLPromptAndState(t *testing.T) {
	t.Parallel()
	p := startREPL(t, noColor)
	banner := p.prompt("/workspace")
	if strings.Contains(banner, "\x1b[") {
		t.Errorf("NO_COLOR: escape sequences in the banner and prompt: %q", banner)
	}
	// State persists from line to line: directory, variables, functions,
	// files.
	p.run("cd /tmp; v=hello; greet() { echo \"$1-$v\"; }; echo data > f.txt")
	p.prompt("/tmp")
	p.run("greet world")
	p.expect("world-hello\r\n")
	p.prompt("/tmp")
	p.run("echo $(pwd)/$(cat f.txt)")
	p.expect("/tmp/data\r\n")
	p.prompt("/tmp")
	p.run("cd")
	p.prompt("~")
	p.run("cd /home/sandbox/..")
	p.prompt("/home")
	if out := p.output(); strings.Contains(out, "\x1b[3") {
		t.Errorf("NO_COLOR: colour codes in the output: %q", out)
	}
	p.send("\x04")
	p.expect("exit")
	if st := p.wait(); st != 0 {
		t.Errorf("exit status %d, want 0", st)
	}
}

func TestREPLUnrestricted(t *testing.T) {
	t.Parallel()
	dd, err := exec.LookPath("dd")
	if err != nil {
		suite.Skip(t, "dd", "the host's dd feeds the pty")
	}
	dir := t.TempDir()
	p := startREPL(t, noColor, "--fs", "disk", "--cwd", dir)
	p.expect("[unrestricted] " + dir + " $ ")
	// A host program gets the terminal itself as standard input, and
	// the line ends when the program does.
	p.run(dd + " if=/dev/null of=/dev/null 2>/dev/null; echo host$((1+1))")
	p.expect("host2\r\n")
	p.expect("[unrestricted] " + dir + " $ ")
	p.send("\x04")
	if st := p.wait(); st != 0 {
		t.Errorf("exit status %d, want 0", st)
	}
}

func TestREPLColor(t *testing.T) {
	t.Parallel()
	p := startREPL(t, []string{"TERM=xterm-256color"})
	p.expectRe(`\x1b\[[0-9;]*m\[restricted\]\x1b\[0m \x1b\[[0-9;]*m/workspace\x1b\[[0-9;]*m \$ `)
	p.run("cd /tmp")
	p.expectRe(`\x1b\[[0-9;]*m/tmp\x1b\[[0-9;]*m \$ `)
	p.send("\x04")
	p.wait()

	// TERM=dumb: no colour either.
	d := startREPL(t, []string{"TERM=dumb"})
	if out := d.prompt("/workspace"); strings.Contains(out, "\x1b[") {
		t.Errorf("TERM=dumb: escape sequences in the prompt: %q", out)
	}
	d.send("\x04")
	d.wait()
}

func TestREPLMultiline(t *testing.T) {
	t.Parallel()
	p := startREPL(t, noColor)
	p.prompt("/workspace")
	p.run("for i in 1 2 3")
	p.expect("> ")
	p.run("do echo n$((i*10))")
	p.expect("> ")
	p.run("done")
	p.expect("n10\r\nn20\r\nn30\r\n")
	p.prompt("/workspace")
	// An open quote and a trailing backslash continue the line too.
	p.run("echo 'a")
	p.expect("> ")
	p.run("b' \\")
	p.expect("> ")
	p.run("c$((1+1))")
	p.expect("a\r\nb c2\r\n")
	p.prompt("/workspace")
	// Ctrl-D inside an unfinished command is an error for that command
	// only.
	p.run("if true; then")
	p.expect("> ")
	p.send("\x04")
	p.expect("unexpected end of file")
	p.prompt("/workspace")
	p.run("echo ok$((2+2))")
	p.expect("ok4\r\n")
	p.prompt("/workspace")
	p.run("exit")
	p.wait()
}

func TestREPLErrorsEndOnlyTheLine(t *testing.T) {
	t.Parallel()
	p := startREPL(t, noColor)
	p.prompt("/workspace")
	p.run("fi")
	p.expect("`fi` can only be used to end an `if`")
	p.prompt("/workspace")
	p.run("echo still$((1+2))")
	p.expect("still3\r\n")
	p.prompt("/workspace")
	p.run("echo before$((1+1)); echo ${unset_var:?}; echo notreached$((1+1))")
	p.expect("before2\r\n")
	p.expect("unset_var")
	p.prompt("/workspace")
	p.run("echo after$((3+3))")
	p.expect("after6\r\n")
	if strings.Contains(p.output(), "notreached2") {
		t.Errorf("the line went on after ${unset_var:?}")
	}
	p.prompt("/workspace")
	p.send("\x04")
	p.wait()

	// A limit, --timeout included, ends the line; the next line gets a
	// fresh budget.
	q := startREPL(t, noColor, "--max-loop-iterations", "100", "--timeout", "300ms")
	q.prompt("/workspace")
	q.run("while :; do :; done")
	q.expect("limit exceeded: max-loop-iterations 100")
	q.prompt("/workspace")
	q.run("sleep 5")
	q.expect("limit exceeded: timeout 300ms")
	q.prompt("/workspace")
	q.run("for i in 1 2 3; do :; done; echo fine$((1+1))")
	q.expect("fine2\r\n")
	q.prompt("/workspace")
	q.send("\x04")
	q.wait()
}

func TestREPLCtrlCInterruptsCommand(t *testing.T) {
	t.Parallel()
	p := startREPL(t, noColor)
	p.prompt("/workspace")
	for _, cmd := range []string{"sleep 100", "while :; do :; done", "yes > /dev/null", "read line", "cat"} {
		t.Logf("interrupting %s", cmd)
		// Print a marker first: once it shows, the command runs and the
		// terminal is in cooked mode, where Ctrl-C raises SIGINT.
		p.run("echo go$((1+1)); " + cmd)
		p.expect("go2\r\n")
		start := time.Now()
		p.send("\x03")
		p.prompt("/workspace")
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s: Ctrl-C took %v", cmd, d)
		}
		p.run("echo alive$((1+1))")
		p.expect("alive2\r\n")
		p.prompt("/workspace")
	}
	// Ctrl-C leaves $? at 130 for the session: Ctrl-D exits with it.
	p.run("echo go$((1+1)); sleep 100")
	p.expect("go2\r\n")
	p.send("\x03")
	p.prompt("/workspace")
	p.send("\x04")
	if st := p.wait(); st != 130 {
		t.Errorf("exit status after Ctrl-C and Ctrl-D: %d, want 130", st)
	}
}

func TestREPLCtrlCAtPrompt(t *testing.T) {
	t.Parallel()
	p := startREPL(t, noColor)
	p.prompt("/workspace")
	p.send("echo discarded$((1+1))")
	p.expect("discarded")
	p.send("\x03")
	p.expect("^C\r\n")
	p.prompt("/workspace")
	// At PS2, Ctrl-C drops the whole unfinished command.
	p.run("for i in 1 2")
	p.expect("> ")
	p.send("\x03")
	p.expect("^C\r\n")
	p.prompt("/workspace")
	p.run("echo kept$((2+1))")
	p.expect("kept3\r\n")
	p.prompt("/workspace")
	if out := p.output(); strings.Contains(out, "discarded2") || strings.Contains(out, "\r\n1\r\n") {
		t.Errorf("a line discarded by Ctrl-C ran: %q", out)
	}
	p.run("exit 0")
	if st := p.wait(); st != 0 {
		t.Errorf("exit status %d, want 0", st)
	}
}

func TestREPLTabCompletion(t *testing.T) {
	t.Parallel()
	p := startREPL(t, noColor)
	p.prompt("/workspace")
	p.run("zzuniquefn() { echo fn-ran$((1+1)); }; mkdir -p /tmp/compdir/sub; echo content > /tmp/compdir/sub/my\\ file.txt; touch /tmp/compdir/a1 /tmp/compdir/a2")
	p.prompt("/workspace")
	// A function.
	p.send("zzuniq\t\r")
	p.expect("fn-ran2\r\n")
	p.prompt("/workspace")
	// An in-process command.
	p.send("basena\t/x/y$((1+1))\r")
	p.expect("\r\ny2\r\n")
	p.prompt("/workspace")
	// A path, component by component, with a space to escape.
	p.send("cat /tmp/compd\tsu\tmy\t\r")
	p.expect("\r\ncontent\r\n")
	p.prompt("/workspace")
	// Several candidates: Tab lists them.
	p.send("ls /tmp/compdir/a\t")
	p.expect("a1  a2")
	p.send("\x03")
	p.prompt("/workspace")
	// Directories only after cd.
	p.send("cd /tmp/compdir/\t\r")
	p.prompt("/tmp/compdir/sub")
	p.send("\x04")
	p.wait()
}

func TestREPLExitStatus(t *testing.T) {
	t.Parallel()
	// Ctrl-D exits with the last command's status.
	p := startREPL(t, noColor)
	p.prompt("/workspace")
	p.run("(exit 7)")
	p.prompt("/workspace")
	p.send("\x04")
	p.expect("exit")
	if st := p.wait(); st != 7 {
		t.Errorf("Ctrl-D after (exit 7): status %d, want 7", st)
	}

	// exit 3 runs the EXIT trap and exits with 3.
	q := startREPL(t, noColor)
	q.prompt("/workspace")
	q.run("trap 'echo trap-ran$((1+1))' EXIT")
	q.prompt("/workspace")
	q.run("exit 3")
	q.expect("trap-ran2")
	if st := q.wait(); st != 3 {
		t.Errorf("exit 3: status %d, want 3", st)
	}
}

func TestREPLHistory(t *testing.T) {
	t.Parallel()
	// Without --history-file nothing is written to the host.
	home := t.TempDir()
	p := startREPL(t, append([]string{"HOME=" + home}, noColor...))
	p.prompt("/workspace")
	p.run("echo one$((0+1))")
	p.expect("one1\r\n")
	p.prompt("/workspace")
	// Up arrow brings the last command back.
	p.send("\x1b[A\r")
	p.expect("one1\r\n")
	p.prompt("/workspace")
	p.send("\x04")
	p.wait()
	if ents, _ := os.ReadDir(home); len(ents) > 0 {
		t.Errorf("without --history-file, files appeared in $HOME: %v", ents)
	}

	// With --history-file, whole commands are appended, and the next
	// session starts with them.
	hist := filepath.Join(t.TempDir(), "hist")
	q := startREPL(t, noColor, "--history-file", hist)
	q.prompt("/workspace")
	q.run("echo first$((1+1))")
	q.prompt("/workspace")
	q.run("for i in 1 2")
	q.expect("> ")
	q.run("do echo it$((i*5)); done")
	q.expect("it5\r\nit10\r\n")
	q.prompt("/workspace")
	q.send("\x04")
	q.wait()
	data, err := os.ReadFile(hist)
	if err != nil {
		t.Fatal(err)
	}
	want := "echo first$((1+1))\nfor i in 1 2; do echo it$((i * 5)); done\n"
	if string(data) != want {
		t.Errorf("history file:\n%q\nwant\n%q", data, want)
	}
	if fi, err := os.Stat(hist); err == nil && fi.Mode().Perm() != 0o600 {
		t.Errorf("history file mode %v, want 0600", fi.Mode().Perm())
	}
	r := startREPL(t, noColor, "--history-file", hist)
	r.prompt("/workspace")
	r.send("\x1b[A\x1b[A\r") // two entries back: echo first
	r.expect("\r\nfirst2\r\n")
	r.prompt("/workspace")
	r.run("history")
	r.expect("    1  echo first$((1+1))\r\n    2  for i in 1 2; do echo it$((i * 5)); done\r\n    3  echo first$((1+1))\r\n    4  history\r\n")
	r.prompt("/workspace")
	r.send("\x04")
	r.wait()
}

// TestREPLHistoryInPipes: the shell's history builtin lists the REPL's
// history in a pipeline and in $( ), with the worker and without; the
// line itself is the last entry, as in bash.
func TestREPLHistoryInPipes(t *testing.T) {
	for _, extra := range [][]string{nil, {"--no-worker"}} {
		r := startREPL(t, noColor, extra...)
		r.prompt("/workspace")
		r.run("echo needle1")
		r.expect("needle1\r\n")
		r.prompt("/workspace")
		r.run("history | grep -c needle")
		r.expect("\r\n2\r\n")
		r.prompt("/workspace")
		r.run(`x=$(history 2); echo "[${x}]"`)
		r.expect("[    2  history | grep -c needle\r\n    3  x=$(history 2); echo \"[${x}]\"]\r\n")
		r.prompt("/workspace")
		r.send("\x04")
		r.wait()
	}
}

// TestREPLDeleteWord: Ctrl-W deletes the word before the cursor.
func TestREPLDeleteWord(t *testing.T) {
	r := startREPL(t, noColor)
	r.prompt("/workspace")
	r.send("echo keep drop\x17gone\r")
	r.expect("\r\nkeep gone\r\n")
	r.prompt("/workspace")
	r.send("\x04")
	r.wait()
}

// TestREPLSearchAndWordMotion: Ctrl-R puts the most recent command
// holding the typed text on the line (again: one further back), and
// Alt-B / Alt-F (ESC b, ESC f) move by words.
func TestREPLSearchAndWordMotion(t *testing.T) {
	r := startREPL(t, noColor)
	for _, c := range []string{"echo one-a", "echo one-b", "echo other"} {
		r.prompt("/workspace")
		r.run(c)
	}
	r.prompt("/workspace")
	r.send("one-\x12\r")
	r.expect("\r\none-b\r\n")
	r.prompt("/workspace")
	r.send("one-\x12\x12\r")
	r.expect("\r\none-a\r\n")
	r.prompt("/workspace")
	// Alt-F goes to the next word's start (x/term's Alt-Right).
	r.send("echo ab cd\x1bb\x1bb\x1bfZ\x1bb\x1bbY\r")
	r.expect("\r\nYab Zcd\r\n")
	r.prompt("/workspace")
	r.send("\x04")
	r.wait()
}

// TestREPLHistoryRefusesLinksAndFIFOs: --history-file never writes
// through a symlink planted at the path, and a FIFO there does not hang
// the shell (issue 23.6): each is refused in one line and the session
// goes on without a history file.
func TestREPLHistoryRefusesLinksAndFIFOs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("keep\n"), 0o600)
	link := filepath.Join(dir, "hist-link")
	os.Symlink(victim, link)
	fifo := filepath.Join(dir, "hist-fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{link, "hist-link: is a symbolic link (refused: sandsh does not write through links)"},
		{fifo, "hist-fifo: not a regular file (a FIFO)"},
	} {
		p := startREPL(t, noColor, "--history-file", c.path)
		p.expect(c.want)
		p.prompt("/workspace")
		p.run("echo went$((1+1))")
		p.expect("went2\r\n")
		p.prompt("/workspace")
		p.send("\x04")
		p.wait()
	}
	if data, _ := os.ReadFile(victim); string(data) != "keep\n" {
		t.Errorf("the symlink's target was written: %q", data)
	}
}

func TestScanWord(t *testing.T) {
	for _, tc := range []struct {
		head   string
		value  string
		start  int
		quote  byte
		cmdPos bool
		cmd    string
	}{
		{"", "", 0, 0, true, ""},
		{"ec", "ec", 0, 0, true, ""},
		{"echo a", "a", 5, 0, false, "echo"},
		{"echo a; ca", "ca", 8, 0, true, ""},
		{"x=1 FOO=bar ca", "ca", 12, 0, true, ""},
		{"if tr", "tr", 3, 0, true, ""},
		{"cat my\\ fi", "my fi", 4, 0, false, "cat"},
		{"cat 'my fi", "my fi", 4, '\'', false, "cat"},
		{`cat "a\"b`, `a"b`, 4, '"', false, "cat"},
		{"ls | gr", "gr", 5, 0, true, ""},
		{"echo $(ca", "ca", 7, 0, true, ""},
		{"echo x >/tm", "/tm", 8, 0, false, "echo"},
		{"echo x 2>&1 | he", "he", 14, 0, true, ""},
		{"cd ", "", 3, 0, false, "cd"},
	} {
		w := scanWord(tc.head)
		if w.value != tc.value || w.start != tc.start || w.quote != tc.quote || w.cmdPos != tc.cmdPos || w.cmd != tc.cmd {
			t.Errorf("scanWord(%q) = %+v, want value %q start %d quote %q cmdPos %v cmd %q",
				tc.head, w, tc.value, tc.start, tc.quote, tc.cmdPos, tc.cmd)
		}
	}
}

func TestQuoteWord(t *testing.T) {
	for _, tc := range []struct {
		s     string
		quote byte
		done  bool
		want  string
	}{
		{"file.txt", 0, true, "file.txt "},
		{"dir/", 0, false, "dir/"},
		{"my file$", 0, true, `my\ file\$ `},
		{"my file", '\'', true, "'my file' "},
		{"it's", '\'', false, `"it's`},
		{`a"b`, '"', true, `"a\"b" `},
		{"#x", 0, false, `\#x`},
	} {
		if got := quoteWord(tc.s, tc.quote, tc.done); got != tc.want {
			t.Errorf("quoteWord(%q, %q, %v) = %q, want %q", tc.s, tc.quote, tc.done, got, tc.want)
		}
	}
}

func TestKeyReader(t *testing.T) {
	k := &keyReader{r: strings.NewReader("ab\x03cd\x04e")}
	var got []string
	buf := make([]byte, 16)
	for {
		n, err := k.Read(buf)
		if n > 0 {
			got = append(got, string(buf[:n]))
		}
		if err != nil {
			break
		}
	}
	if want := []string{"ab\x03", "cd\x04", "e"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("reads %q, want %q", got, want)
	}
}

func TestHistoryEntry(t *testing.T) {
	src := "for i in 1 2\ndo\n  echo $i # note\ndone\n"
	f, err := worker.ParseLine(src)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := historyEntry(src, f), "for i in 1 2; do echo $i; done"; got != want {
		t.Errorf("historyEntry = %q, want %q", got, want)
	}
	var h replHistory
	for _, e := range []string{"a", "a", " ", "b"} {
		h.push(e)
	}
	if got := strings.Join(h.list(), ","); got != "a,b" {
		t.Errorf("history %q, want a,b", got)
	}
	if h.Len() != 2 || h.At(0) != "b" || h.At(1) != "a" {
		t.Errorf("At(0), At(1) = %q, %q", h.At(0), h.At(1))
	}
}

// The interactive shell has the worker's walls (issue 11, class 3): a
// line that overflows the Go stack, allocates without bound, ignores
// Ctrl-C or runs past --timeout ends with one line, and the session goes
// on with its variables, functions, directory and files. No Go trace
// reaches the terminal.
func TestREPLWorkerContainment(t *testing.T) {
	t.Parallel()
	setup := func(p *ptyREPL) {
		p.t.Helper()
		p.run("x=kept$((1+1)); f(){ echo fn$((2+1)); }; mkdir -p /tmp/d; cd /tmp/d; echo data$((3+1)) > file")
		p.prompt("/tmp/d")
	}
	check := func(p *ptyREPL) {
		p.t.Helper()
		p.run("echo $x; f; cat file; pwd")
		p.expect("kept2\r\nfn3\r\ndata4\r\n/tmp/d\r\n")
		p.prompt("/tmp/d")
	}
	noTrace := func(p *ptyREPL) {
		p.t.Helper()
		for _, bad := range []string{"goroutine ", "runtime.", "fatal error", "panic:", "hook: "} {
			if strings.Contains(p.output(), bad) {
				p.t.Errorf("%q reached the terminal:\n%s", bad, p.output())
			}
		}
	}
	t.Run("in a worker", func(t *testing.T) {
		t.Parallel()
		p := startREPL(t, noColor, "--env", "SANDSH_TEST_HOOK=environ")
		p.expect("hook: environ " + restrict.WorkerEnv + "=1")
		p.prompt("/workspace")
		p.run("exit 3")
		if st := p.wait(); st != 3 {
			t.Errorf("exit status %d, want 3", st)
		}
	})
	t.Run("--no-worker stays in-process", func(t *testing.T) {
		t.Parallel()
		p := startREPL(t, noColor, "--no-worker", "--env", "SANDSH_TEST_HOOK=environ")
		p.prompt("/workspace")
		setup(p)
		check(p)
		p.run("exit 4")
		if st := p.wait(); st != 4 {
			t.Errorf("exit status %d, want 4", st)
		}
		if strings.Contains(p.output(), "hook: ") {
			t.Errorf("--no-worker started a worker:\n%s", p.output())
		}
	})
	t.Run("Go stack overflow", func(t *testing.T) {
		t.Parallel()
		p := startREPL(t, noColor, "--max-call-depth", "0", "--env", "SANDSH_TEST_HOOK=stack:1MiB")
		p.prompt("/workspace")
		setup(p)
		p.run("g(){ g; }; g")
		p.expect("sandsh: limit exceeded: nesting too deep (Go stack); the session goes on")
		p.prompt("/tmp/d")
		p.run("echo $?")
		p.expect("125\r\n")
		p.prompt("/tmp/d")
		check(p)
		noTrace(p)
	})
	t.Run("--root totals survive a restart", func(t *testing.T) {
		t.Parallel()
		root := t.TempDir()
		p := startREPL(t, noColor, "--fs", "disk", "--root", root, "--max-files", "3",
			"--max-call-depth", "0", "--env", "SANDSH_TEST_HOOK=stack:1MiB")
		p.expect("[restricted] / $ ")
		p.run("touch a b")
		p.expect("[restricted] / $ ")
		p.run("g(){ g; }; g")
		p.expect("nesting too deep (Go stack); the session goes on")
		p.expect("[restricted] / $ ")
		p.run("touch c d; ls | wc -l")
		p.expect("No space left on device")
		p.expect("3\r\n")
		p.expect("[restricted] / $ ")
		noTrace(p)
	})
	t.Run("memory", func(t *testing.T) {
		t.Parallel()
		p := startREPL(t, noColor, "--max-memory", "300MiB", "--max-var-bytes", "4GiB", "--max-capture", "4GiB")
		p.prompt("/workspace")
		setup(p)
		p.run("y=$(head -c 1000000 /dev/zero | tr '\\0' a); while :; do y=$y$y; done")
		p.expect("limit exceeded: max-memory 300MiB")
		p.prompt("/tmp/d")
		check(p)
		noTrace(p)
	})
	t.Run("a line that ignores Ctrl-C", func(t *testing.T) {
		t.Parallel()
		p := startREPL(t, noColor, "--env", "SANDSH_TEST_HOOK=repl-hang")
		p.prompt("/workspace")
		setup(p)
		p.run("sleep 1000 &")
		p.prompt("/tmp/d")
		p.run("hang")
		time.Sleep(200 * time.Millisecond)
		start := time.Now()
		p.send("\x03")
		p.expect("the line did not stop on Ctrl-C; the session goes on from its state before that line (1 background job was lost)")
		p.prompt("/tmp/d")
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("the prompt came back after %v", d)
		}
		p.run("echo $?")
		p.expect("130\r\n")
		p.prompt("/tmp/d")
		check(p)
		noTrace(p)
	})
	t.Run("a command that loops", func(t *testing.T) {
		t.Parallel()
		// Each step doubles the work between two checks of the clock
		// (issue 11, class 1): whether the command stops in time or the
		// worker has to be killed, the session goes on.
		p := startREPL(t, noColor, "--timeout", "2s")
		p.prompt("/workspace")
		setup(p)
		p.run("sed ':a;s/x*/&&x/;ba' <<< x")
		p.expectRe(`limit exceeded: (timeout 2s|max-memory)`)
		p.prompt("/tmp/d")
		check(p)
		noTrace(p)
	})
	t.Run("timeout", func(t *testing.T) {
		t.Parallel()
		p := startREPL(t, noColor, "--timeout", "1s", "--env", "SANDSH_TEST_HOOK=repl-hang")
		p.prompt("/workspace")
		setup(p)
		p.run("hang")
		p.expect("sandsh: limit exceeded: timeout 1s; the session goes on")
		p.prompt("/tmp/d")
		check(p)
		// The runner's own timeout still ends an ordinary line.
		p.run("while :; do :; done")
		p.expect("limit exceeded: timeout 1s")
		p.prompt("/tmp/d")
		check(p)
		noTrace(p)
	})
}

// TestREPLPolicyAsk: on the interactive shell a policy's ask rule asks on
// the terminal, y/N with no as the default; both with the worker and
// in-process.
func TestREPLPolicyAsk(t *testing.T) {
	t.Parallel()
	pol := filepath.Join(t.TempDir(), "p.yaml")
	if err := os.WriteFile(pol, []byte("default: allow\nrules:\n  - name: ask-tr\n    command: tr\n    action: ask\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, extra := range [][]string{nil, {"--no-worker"}} {
		p := startREPL(t, noColor, append([]string{"--policy", pol}, extra...)...)
		p.prompt("/workspace")
		p.run("tr a b <<< a")
		p.expect(`sandsh: policy: run "tr a b"? (rule "ask-tr") [y/N] `)
		p.send("y\r")
		p.expect("b\r\n")
		p.prompt("/workspace")
		p.run("tr a c <<< a; echo st=$?")
		p.expect("[y/N] ")
		p.send("\r")
		p.expect(`sandsh: tr: denied by policy (rule "ask-tr"; the operator said no)`)
		p.expect("st=126\r\n")
		p.prompt("/workspace")
		// an explicit N, and a ask reached through another route (xargs)
		p.run("echo a | xargs tr a d; echo st=$?")
		p.expect(`sandsh: policy: run "tr a d a"? (rule "ask-tr") [y/N] `)
		p.send("N\r")
		p.expect(`sandsh: tr: denied by policy (rule "ask-tr"; the operator said no)`)
		p.expect("st=126\r\n")
		p.prompt("/workspace")
		p.send("\x04")
		p.expect("exit")
		if st := p.wait(); st != 0 {
			t.Errorf("exit status %d", st)
		}
	}
}

// TestREPLState: --state loads the session when the shell starts and
// saves it when the shell ends: files, variables, functions, directory.
func TestREPLState(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "s.st")
	p := startREPL(t, noColor, "--state", state)
	p.prompt("/workspace")
	p.run("x=kept$((1+1)); f(){ echo fn$((2+1)); }; mkdir -p /tmp/d; cd /tmp/d; echo data$((3+1)) > file")
	p.prompt("/tmp/d")
	p.send("\x04")
	p.expect("exit")
	if st := p.wait(); st != 0 {
		t.Fatalf("status %d", st)
	}
	q := startREPL(t, noColor, "--state", state)
	q.prompt("/tmp/d")
	q.run("echo $x; f; cat file")
	q.expect("kept2\r\nfn3\r\ndata4\r\n")
	q.prompt("/tmp/d")
	q.run("y=also; cd /")
	q.prompt("/")
	q.run("exit 5")
	if st := q.wait(); st != 5 {
		t.Errorf("exit 5: status %d", st)
	}
	r := startREPL(t, noColor, "--state", state)
	r.prompt("/")
	r.run("echo $x $y; z=hangup")
	r.expect("kept2 also\r\n")
	r.prompt("/")
	// A hangup at the prompt saves the session too.
	r.cmd.Process.Signal(syscall.SIGHUP)
	if st := r.wait(); st != 128+int(syscall.SIGHUP) {
		t.Errorf("SIGHUP: status %d", st)
	}
	u := startREPL(t, noColor, "--state", state)
	u.prompt("/")
	u.run("echo $z")
	u.expect("hangup\r\n")
	u.prompt("/")
	u.send("\x04")
	u.wait()
}

// TestPromptEscapesNames: a directory named with escape sequences cannot
// rewrite the prompt (issue 23.10): its control characters are shown as
// \xHH, in the prompt and through a real terminal.
func TestPromptEscapesNames(t *testing.T) {
	evil := "/workspace/\x1b[2K\r[unrestricted] ~ #\x9b\xff"
	for _, color := range []bool{false, true} {
		got := renderPrompt(evil, "/home/sandbox", true, color)
		if strings.ContainsAny(got, "\r\x9b") || strings.Contains(got, "\x1b[2K") || !strings.Contains(got, `\x1b[2K\x0d[unrestricted] ~ #\x9b\xff`) {
			t.Errorf("color=%v: %q", color, got)
		}
	}
	t.Parallel()
	p := startREPL(t, noColor)
	p.prompt("/workspace")
	p.run(`d=$'\e[2K\r[unrestricted] ~ #'; mkdir "$d"; cd "$d"`)
	p.expect(`[restricted] /workspace/\x1b[2K\x0d[unrestricted] ~ # $ `)
	p.send("\x04")
	p.wait()
}

// TestREPLAskCannotBeForged: a background job cannot print a forged
// question over the real one (issue 23.1). The supervisor asks, and
// while it waits for the answer nothing the sandbox writes reaches the
// terminal: the real question is the last thing on the screen, and the
// job's bytes appear only after the answer.
func TestREPLAskCannotBeForged(t *testing.T) {
	t.Parallel()
	pol := filepath.Join(t.TempDir(), "p.yaml")
	if err := os.WriteFile(pol, []byte("default: allow\nrules:\n  - {name: ask-rm, command: rm, action: ask}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const cwd = "/nowhere-on-the-host-23/w"
	for _, extra := range [][]string{nil, {"--no-worker"}} {
		p := startREPL(t, noColor, append([]string{"--policy", pol, "--cwd", cwd}, extra...)...)
		p.prompt(cwd)
		p.run("mkdir important; echo data > important/f")
		p.prompt(cwd)
		p.run(`( sleep 1; printf '\r\e[2K\e[1A\e[2K\rsandsh: policy: run "rm scratch.tmp"? FAKE [y/N] ' >&2 ) & rm -rf important`)
		p.expect(`sandsh: policy: run "rm -rf important"? (rule "ask-rm") [y/N] `)
		// The job prints its fake question one second in: give it three.
		time.Sleep(3 * time.Second)
		if rest := p.output()[p.seen:]; rest != "" {
			t.Errorf("%v: while the question was open the terminal got %q", extra, rest)
		}
		mark := len(p.output())
		p.send("n\r")
		p.prompt(cwd)
		// Held, not lost: the job's bytes come after the answer.
		after := p.output()[mark:]
		if !strings.Contains(after, `rm: denied by policy (rule "ask-rm"; the operator said no)`) || !strings.Contains(after, "FAKE [y/N] ") {
			t.Errorf("%v: after the answer: %q", extra, after)
		}
		p.run("wait; ls important")
		p.expect("f\r\n")
		p.prompt(cwd)
		p.send("\x04")
		p.wait()
	}
}

// TestREPLStateLock: an interactive session holds the --state file's
// lock for its whole life, as a run does (issue 23.7): a run or a second
// session on the same file fails at once with --state-lock fail (75), or
// waits (the default) and then starts from what the first one saved.
func TestREPLStateLock(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "s.st")
	p := startREPL(t, noColor, "--state", state)
	p.prompt("/workspace")
	p.run("echo first > log")
	p.prompt("/workspace")
	run := startREPL(t, noColor, "--state", state, "--state-lock", "fail", "-c", "echo ran")
	run.expect("sandsh: --state " + state + ": in use by another run (--state-lock fail)")
	if st := run.wait(); st != 75 {
		t.Errorf("a run beside the session: status %d, want 75", st)
	}
	second := startREPL(t, noColor, "--state", state, "--state-lock", "fail")
	second.expect("in use by another run (--state-lock fail)")
	if st := second.wait(); st != 75 {
		t.Errorf("a second session: status %d, want 75", st)
	}
	if strings.Contains(run.output()+second.output(), "ran") {
		t.Errorf("something ran beside the session")
	}
	// The default waits for the first session, then sees its work.
	waiting := startREPL(t, noColor, "--state", state)
	time.Sleep(500 * time.Millisecond)
	if out := waiting.output(); strings.Contains(out, "$ ") {
		t.Fatalf("the second session started while the first held the state: %q", out)
	}
	p.run("echo second >> log")
	p.prompt("/workspace")
	p.send("\x04")
	p.wait()
	waiting.prompt("/workspace")
	waiting.run("cat log")
	waiting.expect("first\r\nsecond\r\n")
	waiting.prompt("/workspace")
	waiting.send("\x04")
	waiting.wait()
}
