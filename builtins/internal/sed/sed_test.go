package sed

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"syscall"
	"testing"
	"time"
)

// memFiles is an in-memory file store for the engine's IO.
type memFiles map[string]string

type memWriter struct {
	files memFiles
	name  string
	buf   bytes.Buffer
}

func (w *memWriter) Write(p []byte) (int, error) { return w.buf.Write(p) }
func (w *memWriter) Close() error                { w.files[w.name] = w.buf.String(); return nil }

type memEdit struct {
	memWriter
}

func (e *memEdit) Commit(backup string) error {
	if backup != "" {
		e.files[backup] = e.files[e.name]
	}
	return e.Close()
}
func (e *memEdit) Abort() {}

// testIO returns an IO over files, with stdin, capturing stdout and
// stderr. The e command "runs" by echoing its command line in brackets.
func testIO(files memFiles, stdin string, stdout, stderr *bytes.Buffer) *IO {
	return &IO{
		Stdin:  strings.NewReader(stdin),
		Stdout: stdout,
		Stderr: stderr,
		Open: func(name string) (io.ReadCloser, error) {
			if name == "dir" {
				return nil, &fs.PathError{Op: "read", Path: name, Err: syscall.EISDIR}
			}
			data, ok := files[name]
			if !ok {
				return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
			}
			return io.NopCloser(strings.NewReader(data)), nil
		},
		Create: func(name string) (io.WriteCloser, error) {
			if strings.HasPrefix(name, "/ro/") {
				return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
			}
			files[name] = ""
			return &memWriter{files: files, name: name}, nil
		},
		Edit: func(name string) (InPlaceFile, error) {
			if name == "dir" {
				return nil, ErrNotRegular
			}
			return &memEdit{memWriter{files: files, name: name}}, nil
		},
		Exec: func(ctx context.Context, cmdline string, stdout io.Writer) int {
			fmt.Fprintf(stdout, "[%s]\n", cmdline)
			return 0
		},
		ErrText: func(err error) string {
			switch {
			case errors.Is(err, fs.ErrNotExist):
				return "No such file or directory"
			case errors.Is(err, fs.ErrPermission):
				return "Permission denied"
			}
			return err.Error()
		},
	}
}

type runCase struct {
	name    string
	scripts []string
	opt     Options
	stdin   string
	files   []string
	want    string
	status  int
	stderr  string // substring expected on stderr ("" means none)
	after   memFiles
}

func runOne(t *testing.T, c runCase, files memFiles) (string, string, int) {
	t.Helper()
	var scripts []Script
	for _, s := range c.scripts {
		scripts = append(scripts, Script{Text: []byte(s)})
	}
	opt := c.opt
	if opt.LineWrap == 0 {
		opt.LineWrap = 70
	}
	prog, err := Compile(scripts, opt)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("compile: %v", err)
		}
		return "", e.Msg, e.Status
	}
	var out, errb bytes.Buffer
	st, err := prog.Run(context.Background(), c.files, testIO(files, c.stdin, &out, &errb))
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return out.String(), errb.String(), st
}

func TestRun(t *testing.T) {
	lines := "1\n2\n3\n4\n5\n"
	cases := []runCase{
		{name: "print", scripts: []string{"p"}, stdin: "a\nb\n", want: "a\na\nb\nb\n"},
		{name: "missing final newline kept", scripts: []string{"p"}, stdin: "a\nb", want: "a\na\nb\nb"},
		{name: "append after last line without newline", scripts: []string{"$a x"}, stdin: "a", want: "a\nx\n"},
		{name: "quiet", scripts: []string{"2p"}, opt: Options{Quiet: true}, stdin: lines, want: "2\n"},
		{name: "#n", scripts: []string{"#n\n2p"}, stdin: lines, want: "2\n"},
		{name: "#n only in first piece", scripts: []string{"2p", "#n"}, stdin: "1\n2\n", want: "1\n2\n2\n"},
		{name: "range regex", scripts: []string{"/2/,/4/d"}, stdin: lines, want: "1\n5\n"},
		{name: "zero address", scripts: []string{"0,/1/d"}, stdin: lines, want: "2\n3\n4\n5\n"},
		{name: "one address 1", scripts: []string{"1,/1/d"}, stdin: lines, want: ""},
		{name: "step", scripts: []string{"0~2d"}, stdin: lines, want: "1\n3\n5\n"},
		{name: "plus", scripts: []string{"/2/,+1d"}, stdin: lines, want: "1\n4\n5\n"},
		{name: "multiple", scripts: []string{"2,~4d"}, stdin: lines, want: "1\n5\n"},
		{name: "backwards range", scripts: []string{"4,2d"}, stdin: lines, want: "1\n2\n3\n5\n"},
		{name: "range closed by skip", scripts: []string{"2,3{n;n;d}"}, stdin: lines, want: "1\n2\n3\n5\n"},
		{name: "tac", scripts: []string{"1!G;h;$!d"}, stdin: lines, want: "5\n4\n3\n2\n1\n"},
		{name: "N at end prints", scripts: []string{"N;s/\\n/+/"}, stdin: "1\n2\n3\n", want: "1+2\n3\n"},
		{name: "N at end POSIX", scripts: []string{"N;s/\\n/+/"}, opt: Options{Posix: PosixCorrect}, stdin: "1\n2\n3\n", want: "1+2\n"},
		{name: "D restarts", scripts: []string{"$!N;P;D"}, stdin: lines, want: lines},
		{name: "append flushed by N", scripts: []string{"1a foo", "$!N;P;D"}, stdin: "1\n2\n", want: "foo\n1\n2\n"},
		{name: "insert text", scripts: []string{"2i\\\n  x\\\ny"}, stdin: "1\n2\n", want: "1\n  x\ny\n2\n"},
		{name: "one-liner strips blanks", scripts: []string{"1a   x  "}, stdin: "1\n", want: "1\nx  \n"},
		{name: "text continued by next -e", scripts: []string{"1a\\", "  two"}, stdin: "1\n", want: "1\n  two\n"},
		{name: "change range", scripts: []string{"2,3c\\\nC"}, stdin: lines, want: "1\nC\n4\n5\n"},
		{name: "change negated", scripts: []string{"2!c\\\nC"}, stdin: "1\n2\n3\n", want: "C\n2\nC\n"},
		{name: "subst global", scripts: []string{"s/a/b/g"}, stdin: "aaa\n", want: "bbb\n"},
		{name: "subst nth", scripts: []string{"s/a/b/2"}, stdin: "aaa\n", want: "aba\n"},
		{name: "subst nth global", scripts: []string{"s/a/b/2g"}, stdin: "aaaa\n", want: "abbb\n"},
		{name: "empty matches", scripts: []string{"s/a*/x/g"}, stdin: "baaac\n", want: "xbxcx\n"},
		{name: "case conversion", scripts: []string{`s/\(\w*\) \(\w*\)/\U\1\E \u\2/`}, stdin: "hello world\n", want: "HELLO World\n"},
		{name: "u before empty group", scripts: []string{`s/\(x*\)\(b\)/\u\1\2/`}, stdin: "abc\n", want: "aBc\n"},
		{name: "newline in replacement", scripts: []string{`s/ /\n/`}, stdin: "a b\n", want: "a\nb\n"},
		{name: "ampersand", scripts: []string{`s/b/[&\&]/`}, stdin: "abc\n", want: "a[b&]c\n"},
		{name: "empty regex reuses last", scripts: []string{"/b/s//X/"}, stdin: "abc\n", want: "aXc\n"},
		{name: "t loop", scripts: []string{":a;s/^.\\{1,3\\}$/ &/;ta"}, stdin: "ab\n", want: "  ab\n"},
		{name: "T", scripts: []string{"s/a/A/;T;s/$/!/"}, stdin: "a\nb\n", want: "A!\nb\n"},
		{name: "y", scripts: []string{"y/abc/xyz/"}, stdin: "aabbcc\n", want: "xxyyzz\n"},
		{name: "l", scripts: []string{"l 6"}, opt: Options{Quiet: true}, stdin: "a\tb\x01cdef\n", want: "a\\tb\\\n\\001c\\\ndef$\n"},
		{name: "=", scripts: []string{"$="}, opt: Options{Quiet: true}, stdin: lines, want: "5\n"},
		{name: "q exit", scripts: []string{"2q3"}, stdin: lines, want: "1\n2\n", status: 3},
		{name: "Q exit", scripts: []string{"2Q3"}, stdin: lines, want: "1\n", status: 3},
		{name: "q dumps append", scripts: []string{"1a x", "1q"}, stdin: lines, want: "1\nx\n"},
		{name: "r", scripts: []string{"1r ins"}, stdin: "1\n2\n", want: "1\nI\n2\n"},
		{name: "r missing", scripts: []string{"1r none"}, stdin: "1\n", want: "1\n"},
		// Like GNU, the last line of an R file keeps its missing newline.
		{name: "R", scripts: []string{"R ins2"}, stdin: "1\n2\n3\n", want: "1\nA\n2\nB3\n"},
		{name: "w", scripts: []string{"/2/w out"}, stdin: lines, want: lines, after: memFiles{"out": "2\n"}},
		{name: "s///w", scripts: []string{"s/2/X/w out"}, stdin: lines, want: "1\nX\n3\n4\n5\n", after: memFiles{"out": "X\n"}},
		{name: "w /dev/stdout", scripts: []string{"w /dev/stdout"}, stdin: "a\n", want: "a\na\n"},
		{name: "e with text", scripts: []string{"1e echo hi"}, stdin: "1\n", want: "[echo hi]\n1\n"},
		{name: "e without text", scripts: []string{"e"}, stdin: "ls\n", want: "[ls]\n"},
		{name: "s///e", scripts: []string{"s/^/cmd /e"}, stdin: "x\n", want: "[cmd x]\n"},
		{name: "F", scripts: []string{"F"}, files: []string{"ins"}, want: "ins\nI\n"},
		{name: "separate", scripts: []string{"$!d"}, opt: Options{Separate: true}, files: []string{"f1", "f2"}, want: "b\nd\n"},
		{name: "joined", scripts: []string{"$!d"}, files: []string{"f1", "f2"}, want: "d\n"},
		{name: "missing input", scripts: []string{"p"}, opt: Options{Quiet: true}, files: []string{"none", "f1"},
			want: "a\nb\n", status: 2, stderr: "sed: can't read none: No such file or directory\n"},
		{name: "directory input", scripts: []string{"p"}, files: []string{"dir"}, status: 4, stderr: "read error on dir"},
		{name: "null data", scripts: []string{"s/^/>/"}, opt: Options{NullData: true}, stdin: "a\x00b\x00", want: ">a\x00>b\x00"},
		{name: "in place", scripts: []string{"s/a/A/"}, opt: Options{InPlace: true, Separate: true, InPlaceSuffix: ".bak"},
			files: []string{"f1"}, after: memFiles{"f1": "A\nb\n", "f1.bak": "a\nb\n"}},
		{name: "in place star", scripts: []string{"1d"}, opt: Options{InPlace: true, Separate: true, InPlaceSuffix: "old_*"},
			files: []string{"f2"}, after: memFiles{"f2": "d\n", "old_f2": "c\nd\n"}},
		{name: "in place directory", scripts: []string{"p"}, opt: Options{InPlace: true, Separate: true}, files: []string{"dir"},
			status: 4, stderr: "couldn't edit dir: not a regular file"},
		{name: "in place without files", scripts: []string{"p"}, opt: Options{InPlace: true, Separate: true}, status: 4, stderr: "no input files"},
		{name: "w file cannot be created", scripts: []string{"w /ro/x"}, stdin: "a\n", status: 4, stderr: "couldn't open file /ro/x: Permission denied"},
		{name: "no previous regex", scripts: []string{"//p"}, stdin: "a\n", status: 1, stderr: "-e expression #1, char 0: no previous regular expression"},
		{name: "UTF-8 y", scripts: []string{"y/éa/Eà/"}, opt: Options{UTF8: true}, stdin: "éta\n", want: "Età\n"},
		{name: "UTF-8 case", scripts: []string{`s/.*/\U&/`}, opt: Options{UTF8: true}, stdin: "été\n", want: "ÉTÉ\n"},
		{name: "C locale case leaves bytes", scripts: []string{`s/.*/\U&/`}, stdin: "\xe9t\xe9\n", want: "\xe9T\xe9\n"},
		{name: "UTF-8 l", scripts: []string{"l"}, opt: Options{UTF8: true, Quiet: true}, stdin: "é\xff\n", want: "\\303\\251\\377$\n"},
		{name: "C locale l", scripts: []string{"l"}, opt: Options{Quiet: true}, stdin: "é\n", want: "\\303\\251$\n"},
		{name: "long line", scripts: []string{"s/$/!/"}, stdin: strings.Repeat("x", 200000) + "\n", want: strings.Repeat("x", 200000) + "!\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := memFiles{"ins": "I\n", "ins2": "A\nB", "f1": "a\nb\n", "f2": "c\nd\n"}
			out, errs, st := runOne(t, c, files)
			if out != c.want || st != c.status {
				t.Errorf("got %q status %d, want %q status %d (stderr %q)", out, st, c.want, c.status, errs)
			}
			if c.stderr == "" && errs != "" || !strings.Contains(errs, c.stderr) {
				t.Errorf("stderr %q, want %q", errs, c.stderr)
			}
			for name, want := range c.after {
				if files[name] != want {
					t.Errorf("file %s = %q, want %q", name, files[name], want)
				}
			}
		})
	}
}

func TestCompileErrors(t *testing.T) {
	cases := []struct {
		scripts []string
		file    string
		want    string
		status  int
	}{
		{scripts: []string{"s/a"}, want: "-e expression #1, char 3: unterminated `s' command"},
		{scripts: []string{"p", "s/a/b/q"}, want: "-e expression #2, char 7: unknown option to `s'"},
		{scripts: []string{"k"}, want: "-e expression #1, char 1: unknown command: `k'"},
		{scripts: []string{"{p"}, want: "-e expression #1, char 0: unmatched `{'"},
		{scripts: []string{"p;}"}, want: "-e expression #1, char 3: unexpected `}'"},
		{scripts: []string{"0p"}, want: "-e expression #1, char 2: invalid usage of line address 0"},
		{scripts: []string{"1,p"}, want: "-e expression #1, char 3: unexpected `,'"},
		{scripts: []string{"+1p"}, want: "-e expression #1, char 2: invalid usage of +N or ~N as first address"},
		{scripts: []string{"y/ab/c/"}, want: "-e expression #1, char 7: strings for `y' command are different lengths"},
		{scripts: []string{"a"}, want: "-e expression #1, char 1: expected \\ after `a', `c' or `i'"},
		{scripts: []string{":"}, want: "-e expression #1, char 1: \":\" lacks a label"},
		{scripts: []string{"1,2q"}, want: "-e expression #1, char 4: command only uses one address"},
		{scripts: []string{"pq"}, want: "-e expression #1, char 2: extra characters after command"},
		{scripts: []string{"s/x/\\1/"}, want: "-e expression #1, char 7: invalid reference \\1 on `s' command's RHS"},
		{scripts: []string{"s/a/b/gg"}, want: "-e expression #1, char 8: multiple `g' options to `s' command"},
		{scripts: []string{"s/a/b/0"}, want: "-e expression #1, char 7: number option to `s' command may not be zero"},
		{scripts: []string{"w"}, want: "-e expression #1, char 1: missing filename in r/R/w/W commands"},
		{scripts: []string{"s//x/M"}, want: "-e expression #1, char 6: cannot specify modifiers on empty regexp"},
		{scripts: []string{"v 9.1"}, want: "-e expression #1, char 5: expected newer version of sed"},
		{scripts: []string{"b x"}, want: "can't find label for jump to `x'", status: 4},
		{file: "p\nk\n", want: "file f.sed line 2: unknown command: `k'"},
	}
	for _, c := range cases {
		var scripts []Script
		for _, s := range c.scripts {
			scripts = append(scripts, Script{Text: []byte(s)})
		}
		if c.file != "" {
			scripts = append(scripts, Script{Text: []byte(c.file), File: "f.sed"})
		}
		_, err := Compile(scripts, Options{})
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: got %v, want an error", c.scripts, err)
			continue
		}
		want := c.status
		if want == 0 {
			want = 1
		}
		if e.Msg != c.want || e.Status != want {
			t.Errorf("%q: got %q (%d), want %q (%d)", c.scripts, e.Msg, e.Status, c.want, want)
		}
	}
}

func TestCompileStructure(t *testing.T) {
	prog, err := Compile([]Script{{Text: []byte("/x/{\n:top\ns/a/b/w out\nt top\n}\nb\nw out\nR in")}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ops := ""
	for _, c := range prog.cmds {
		ops += string(c.op)
	}
	if ops != "{:st}bwR" {
		t.Fatalf("ops %q", ops)
	}
	if prog.cmds[0].jump != 4 || prog.cmds[3].jump != 1 || prog.cmds[5].jump != len(prog.cmds) {
		t.Errorf("jumps: { -> %d, t -> %d, b -> %d", prog.cmds[0].jump, prog.cmds[3].jump, prog.cmds[5].jump)
	}
	if len(prog.outNames) != 1 || prog.cmds[2].sub.out != 0 || prog.cmds[6].file != 0 {
		t.Errorf("w files not shared: %q", prog.outNames)
	}
	if len(prog.inNames) != 1 || prog.inNames[0] != "in" {
		t.Errorf("R files: %q", prog.inNames)
	}
}

func TestNormalizeText(t *testing.T) {
	p := &parser{posix: PosixExtended}
	cases := []struct {
		in   string
		kind textKind
		want string
	}{
		{`a\tb\nc`, textBuffer, "a\tb\nc"},
		{`\q\\`, textBuffer, `q\`},
		{`\q\\`, textRegex, `\q\\`},
		{`\x41\d066\o103`, textRegex, "ABC"},
		{`\x26\x5c`, textReplacement, `\&\\`},
		{`\x26`, textRegex, `&`},
		{`\xg`, textBuffer, "xg"},
		{`\cA\ca`, textBuffer, "\x01\x01"},
		{`\c`, textReplacement, `\`},
		{`[\n]`, textRegex, "[\n]"},
	}
	for _, c := range cases {
		if got := string(normalizeText(p, []byte(c.in), c.kind)); got != c.want {
			t.Errorf("normalize(%q, %d) = %q, want %q", c.in, c.kind, got, c.want)
		}
	}
	// In POSIX mode escapes inside brackets are left alone.
	p.posix = PosixBasic
	if got := string(normalizeText(p, []byte(`[\t]\t`), textRegex)); got != "[\\t]\t" {
		t.Errorf("posix bracket: %q", got)
	}
}

func TestParseReplacement(t *testing.T) {
	parts, maxRef := parseReplacement([]byte(`a&b\2\Lc\u\1\E\qz\`), false)
	got := ""
	for _, p := range parts {
		got += fmt.Sprintf("[%s|%d|%d]", p.lit, p.group, p.typ)
	}
	want := "[a|0|0][b|2|0][|-1|0][c|-1|2][|1|6][|-1|2][q|-1|0][z\\|-1|0]"
	if got != want || maxRef != 2 {
		t.Errorf("got %s max %d, want %s max 2", got, maxRef, want)
	}
}

func TestVersionAfter(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{{"4.2", "4.9", false}, {"4.10", "4.9", true}, {"5", "4.9", true}, {"4.9", "4.9", false}, {"4.9.1", "4.9", true}} {
		if got := versionAfter(c.a, c.b); got != c.want {
			t.Errorf("versionAfter(%s, %s) = %v", c.a, c.b, got)
		}
	}
}

// endless is an input that never ends.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = "y\n"[i%2]
	}
	return len(p) &^ 1, nil
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	w.n++
	return 0, syscall.EPIPE
}

func TestStopsPromptly(t *testing.T) {
	compile := func(s string) *Program {
		prog, err := Compile([]Script{{Text: []byte(s)}}, Options{LineWrap: 70})
		if err != nil {
			t.Fatal(err)
		}
		return prog
	}
	sio := func(out io.Writer) *IO {
		io := testIO(memFiles{}, "", &bytes.Buffer{}, &bytes.Buffer{})
		io.Stdin, io.Stdout = endless{}, out
		return io
	}
	// yes | sed 1q
	var out bytes.Buffer
	st, err := compile("1q").Run(context.Background(), nil, sio(&out))
	if st != 0 || err != nil || out.String() != "y\n" {
		t.Errorf("1q: %d %v %q", st, err, out.String())
	}
	// yes | sed p | (reader gone)
	w := &failWriter{}
	_, err = compile("p").Run(context.Background(), nil, sio(w))
	if !errors.Is(err, syscall.EPIPE) {
		t.Errorf("broken pipe: %v", err)
	}
	// An endless loop and an endless input stop when cancelled. Only a
	// generous hang detector bounds the wait: no timed assertions.
	for _, s := range []string{":a;ba", "d"} {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		done := make(chan error, 1)
		go func() {
			_, err := compile(s).Run(ctx, nil, sio(io.Discard))
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("%s cancelled: %v", s, err)
			}
		case <-time.After(60 * time.Second):
			t.Errorf("%s: still running 60s after being cancelled", s)
		}
		cancel()
	}
}

func TestQuitLeavesSeekableStdin(t *testing.T) {
	prog, err := Compile([]Script{{Text: []byte("2q")}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	stdin := strings.NewReader("1\n2\n3\n4\n")
	sio := testIO(memFiles{}, "", &out, &bytes.Buffer{})
	sio.Stdin = stdin
	if _, err := prog.Run(context.Background(), nil, sio); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(stdin)
	if out.String() != "1\n2\n" || string(rest) != "3\n4\n" {
		t.Errorf("output %q, left %q", out.String(), rest)
	}
}

func BenchmarkRun(b *testing.B) {
	var data bytes.Buffer
	for i := range 200000 {
		fmt.Fprintf(&data, "line %d of the quick brown fox\n", i)
	}
	for _, script := range []string{"p", "s/o/0/g", `s/\([a-z]*\) \([0-9]*\)/\2 \1/`, "/99/d", "$!N;P;D"} {
		prog, err := Compile([]Script{{Text: []byte(script)}}, Options{LineWrap: 70})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(script, func(b *testing.B) {
			b.SetBytes(int64(data.Len()))
			for range b.N {
				sio := testIO(memFiles{}, "", &bytes.Buffer{}, &bytes.Buffer{})
				sio.Stdin, sio.Stdout = bytes.NewReader(data.Bytes()), io.Discard
				if _, err := prog.Run(context.Background(), nil, sio); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
