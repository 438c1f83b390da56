package awk

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// memFiles is a tiny in-memory filesystem for the OpenFile hook.
type memFiles map[string]*bytes.Buffer

type memFile struct {
	r    *bytes.Reader
	w    *bytes.Buffer
	name string
}

func (f *memFile) Read(b []byte) (int, error) {
	if f.r == nil {
		return 0, errors.New("not open for reading")
	}
	return f.r.Read(b)
}
func (f *memFile) Write(b []byte) (int, error) { return f.w.Write(b) }
func (f *memFile) Close() error                { return nil }

func (m memFiles) open(name string, flag int) (io.ReadWriteCloser, error) {
	if flag == os.O_RDONLY {
		b, ok := m[name]
		if !ok {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
		return &memFile{r: bytes.NewReader(b.Bytes()), name: name}, nil
	}
	b, ok := m[name]
	if !ok || flag&os.O_TRUNC != 0 {
		b = &bytes.Buffer{}
		m[name] = b
	}
	return &memFile{w: b, name: name}, nil
}

// fakeExec understands the few shell commands the tests use.
func fakeExec(files memFiles) func(cmd string, stdin io.Reader, stdout io.Writer) int {
	return func(cmd string, stdin io.Reader, stdout io.Writer) int {
		f := strings.Fields(cmd)
		switch {
		case len(f) == 0:
			return 0
		case f[0] == "echo":
			io.WriteString(stdout, strings.Join(f[1:], " ")+"\n")
		case f[0] == "cat" && len(f) == 1:
			io.Copy(stdout, stdin)
		case f[0] == "cat":
			if b, ok := files[f[1]]; ok {
				stdout.Write(b.Bytes())
				return 0
			}
			return 1
		case f[0] == "sort":
			b, _ := io.ReadAll(stdin)
			lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
			sort.Strings(lines)
			if len(f) > 1 && f[1] == "-r" {
				sort.Sort(sort.Reverse(sort.StringSlice(lines)))
			}
			io.WriteString(stdout, strings.Join(lines, "\n")+"\n")
		case f[0] == "exit":
			n, _ := strconv.Atoi(f[1])
			return n
		default:
			return 127
		}
		return 0
	}
}

type result struct {
	out, errOut string
	status      int
	err         error
}

// runProg parses and runs src with operands args.
func runProg(t *testing.T, src, stdin string, files map[string]string, args ...string) result {
	t.Helper()
	prog, err := Parse(Source{Name: "cmd. line", Text: src})
	if err != nil {
		return result{err: err, status: 1} // gawk's status for a bad program
	}
	mf := memFiles{}
	for k, v := range files {
		mf[k] = bytes.NewBufferString(v)
	}
	var out, errOut bytes.Buffer
	var vars []string
	var operands []string
	for i := 0; i < len(args); i++ {
		if args[i] == "-v" {
			k, v, _ := strings.Cut(args[i+1], "=")
			vars = append(vars, k, v)
			i++
			continue
		}
		operands = append(operands, args[i])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second) // a hang detector
	defer cancel()
	st, err := Run(prog, &Config{
		Stdin:    strings.NewReader(stdin),
		Output:   &out,
		Error:    &errOut,
		Args:     operands,
		Vars:     vars,
		Environ:  map[string]string{"HOME": "/home/sandbox", "USER": "sandbox"},
		OpenFile: mf.open,
		Exec:     fakeExec(mf),
		Now:      func() time.Time { return time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC) },
		Context:  ctx,
	})
	return result{out: out.String(), errOut: errOut.String(), status: st, err: err}
}

func TestLexer(t *testing.T) {
	tests := []struct {
		src  string
		want []token
	}{
		{"a / b / c", []token{tName, tDiv, tName, tDiv, tName, tEOF}},
		{"/a/ && /b/", []token{tRegex, tAnd, tRegex, tEOF}},
		{"x /= 2", []token{tName, tDivAssign, tNumber, tEOF}},
		{"(1) / 2", []token{tLparen, tNumber, tRparen, tDiv, tNumber, tEOF}},
		{"f(x)", []token{tFuncName, tLparen, tName, tRparen, tEOF}},
		{"f (x)", []token{tName, tLparen, tName, tRparen, tEOF}},
		{"length $0", []token{tBuiltin, tDollar, tNumber, tEOF}},
		{"a ** 2 **= 3", []token{tName, tPow, tNumber, tPowAssign, tNumber, tEOF}},
		{"x++ + ++y", []token{tName, tIncr, tAdd, tIncr, tName, tEOF}},
		{"a !~ b != c", []token{tName, tNotMatch, tName, tNotEquals, tName, tEOF}},
		{"print > \"f\" >> g", []token{tPrint, tGreater, tString, tAppend, tName, tEOF}},
		{"a \\\n b # comment\n", []token{tName, tName, tNewline, tEOF}},
		{"getline line < file", []token{tGetline, tName, tLess, tName, tEOF}},
		{"BEGIN func function", []token{tBegin, tFunction, tFunction, tEOF}},
		{"1e3 .5 0x1F 3.", []token{tNumber, tNumber, tNumber, tNumber, tEOF}},
	}
	for _, tt := range tests {
		toks, err := lex(tt.src, "test")
		if err != nil {
			t.Errorf("lex(%q): %v", tt.src, err)
			continue
		}
		var got []token
		for _, tk := range toks {
			got = append(got, tk.tok)
		}
		if !equalTokens(got, tt.want) {
			t.Errorf("lex(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
}

func equalTokens(a, b []token) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestLexerValues(t *testing.T) {
	tests := []struct {
		src, val string
		num      float64
	}{
		{`"a\tb\n"`, "a\tb\n", 0},
		{`"\x41\102\"\\"`, "AB\"\\", 0},
		{`"\.\q"`, `.q`, 0},
		{`/a\/b[/]c/`, `a/b[/]c`, 0},
		{`/[[:alpha:]/]+/`, `[[:alpha:]/]+`, 0},
		{`0x1F`, "0x1F", 31},
		{`1.5e2`, "1.5e2", 150},
	}
	for _, tt := range tests {
		toks, err := lex(tt.src, "test")
		if err != nil {
			t.Errorf("lex(%q): %v", tt.src, err)
			continue
		}
		if toks[0].val != tt.val || toks[0].num != tt.num {
			t.Errorf("lex(%q) = %q %v, want %q %v", tt.src, toks[0].val, toks[0].num, tt.val, tt.num)
		}
	}
}

func TestLexerErrors(t *testing.T) {
	for _, src := range []string{`"abc`, "/abc", "a & b", "a @ b", "\"a\nb\""} {
		if _, err := lex(src, "test"); err == nil {
			t.Errorf("lex(%q): no error", src)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []string{
		"BEGIN { print 1 +* 2 }",
		"BEGIN { print \"a\" ",
		"BEGIN { x = }",
		"{ print $1 ",
		"function f(a) { } BEGIN { f = 1 }",
		"function f(a, a) { }",
		"function f(f) { }",
		"BEGIN { return 1 }",
		"BEGIN { break }",
		"{ continue }",
		"BEGIN { next }",
		"END { next }",
		"BEGIN { getline < }",
		"BEGIN { a[1 }",
		"BEGIN { (1, 2) }",
		"function f() {} function f() {}",
		"BEGIN { substr(\"x\") }",
		"BEGIN { if (1) }",
		"BEGIN { 1 = 2 }",
		"/a(/",
		"BEGIN { switch (1) { case x: } }",
		// gawk folds constants while parsing: a constant zero divisor is
		// a compile-time error.
		"BEGIN { x = 1 / 0 }",
		"BEGIN { x = y % -0 }",
		"BEGIN { x = 1 / 0^2 }",
		"function f() { return 1 / !1 } BEGIN { }",
		"BEGIN { print length() length }; BEGIN { NR(1) }",
		"BEGIN { switch (1) { default: ; default: } }",
		"@include \"x\"",
	}
	for _, src := range tests {
		_, err := Parse(Source{Name: "cmd. line", Text: src})
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) = %v, want a SyntaxError", src, err)
			continue
		}
		if se.Line < 1 || se.Msg == "" || !strings.HasPrefix(se.Error(), "cmd. line:") {
			t.Errorf("Parse(%q): bad error %q", src, se.Error())
		}
	}
}

// TestParseErrorKinds checks how errors are reported: gawk quotes the
// line of a syntax error with a caret, prints others as "error: ...",
// and goes on parsing after some so that it reports them all.
func TestParseErrorKinds(t *testing.T) {
	_, err := Parse(Source{Name: "cmd. line", Text: "BEGIN { break; x = 1 / 0 }\nBEGIN { print 1 +* 2 }\nBEGIN { next }"})
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("got %v, want an ErrorList", err)
	}
	want := []string{
		"cmd. line:1: error: `break' is not allowed outside a loop or switch",
		"cmd. line:1: error: division by zero attempted",
		"cmd. line:2: syntax error",
	}
	if len(list) != len(want) {
		t.Fatalf("got %q, want %q", err, want)
	}
	for i, e := range list {
		if e.Error() != want[i] {
			t.Errorf("error %d: %q, want %q", i, e.Error(), want[i])
		}
	}
	if se := list[2]; se.NoCaret || se.Text != "BEGIN { print 1 +* 2 }" || se.Col != 17 {
		t.Errorf("syntax error %+v", se)
	}
	// A parenthesized or string zero is only found when the code runs.
	for _, src := range []string{"BEGIN { x = 1 / (0) }", `BEGIN { x = 1 / "0" }`, "BEGIN { x /= 0 }", "BEGIN { x = 1 / +0 }"} {
		if _, err := Parse(Source{Name: "cmd. line", Text: src}); err != nil {
			t.Errorf("Parse(%q): %v", src, err)
		}
	}
	// Undefined functions are an error only if called.
	if _, err := Parse(Source{Name: "cmd. line", Text: "function g() { f() } BEGIN { }"}); err != nil {
		t.Errorf("uncalled undefined function: %v", err)
	}
	prog, err := Parse(Source{Name: "cmd. line", Text: "function f(a) { } BEGIN { f(1, 2) }"})
	if err != nil || len(prog.Warnings) != 1 || !strings.Contains(prog.Warnings[0], "called with more arguments than declared") {
		t.Errorf("extra arguments: %v, warnings %q", err, prog.Warnings)
	}
}

func TestEscapeWarnings(t *testing.T) {
	prog, err := Parse(Source{Name: "cmd. line", Text: `BEGIN { print "a\.b\.c\q" }`})
	if err != nil {
		t.Fatal(err)
	}
	if len(prog.Warnings) != 2 || !strings.Contains(prog.Warnings[0], "escape sequence `\\.' treated as plain `.'") {
		t.Errorf("warnings %q", prog.Warnings)
	}
	// gawk warns about "\/" in strings too; only regex constants take it.
	prog, err = Parse(Source{Name: "cmd. line", Text: `BEGIN { print "a\/b" ~ /a\/b/ }`})
	if err != nil {
		t.Fatal(err)
	}
	if len(prog.Warnings) != 1 || !strings.Contains(prog.Warnings[0], "escape sequence `\\/' treated as plain `/'") {
		t.Errorf("warnings %q", prog.Warnings)
	}
	r := runProg(t, `BEGIN { print x }`, "", nil, "-v", `x=a\qb`)
	if r.out != "aqb\n" || !strings.Contains(r.errOut, "warning") {
		t.Errorf("got %q, stderr %q", r.out, r.errOut)
	}
}

func TestParseStructure(t *testing.T) {
	prog, err := Parse(Source{Name: "x", Text: `
function add(a, b) { return a + b }
BEGIN { x = 1 }
BEGIN { y = 2 }
/re/
$1 == "a", $1 == "b" { print > "out" }
END { print add(x, y) }
`})
	if err != nil {
		t.Fatal(err)
	}
	if len(prog.Begin) != 2 || len(prog.End) != 1 || len(prog.Items) != 2 || len(prog.Funcs) != 1 {
		t.Fatalf("got %d BEGIN, %d END, %d items, %d funcs", len(prog.Begin), len(prog.End), len(prog.Items), len(prog.Funcs))
	}
	if prog.Items[0].Body != nil {
		t.Errorf("pattern-only rule has a body")
	}
	if prog.Items[1].Pattern2 == nil {
		t.Errorf("range rule has no end pattern")
	}
	ps, ok := prog.Items[1].Body[0].(*PrintStmt)
	if !ok || ps.Redir != tGreater || ps.Dest == nil {
		t.Errorf("print redirection not parsed: %#v", prog.Items[1].Body[0])
	}
	// Parameters resolve to locals, everything else to globals.
	ret := prog.Funcs[0].Body[0].(*ReturnStmt).Value.(*BinaryExpr)
	if v := ret.L.(*VarExpr); v.Scope != scopeLocal || v.Index != 0 {
		t.Errorf("a resolved to %+v", v)
	}
	if _, ok := prog.globals["x"]; !ok {
		t.Errorf("x is not a global")
	}
}

func TestPrintParse(t *testing.T) {
	tests := []struct {
		src   string
		nargs int
		redir token
	}{
		{`print a, b > "f"`, 2, tGreater},
		{`print (a, b) > "f"`, 2, tGreater},
		{`print (a)(b)`, 1, 0},
		{`print (a > b)`, 1, 0},
		{`print a, b >> "f"`, 2, tAppend},
		{`print a | "cmd"`, 1, tPipe},
		{`printf("%s %s\n", a, b)`, 3, 0},
		{`print`, 0, 0},
		{`print > "f"`, 0, tGreater},
	}
	for _, tt := range tests {
		prog, err := Parse(Source{Name: "x", Text: "BEGIN { " + tt.src + " }"})
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		ps := prog.Begin[0][0].(*PrintStmt)
		if len(ps.Args) != tt.nargs || ps.Redir != tt.redir {
			t.Errorf("%s: %d args, redir %v; want %d, %v", tt.src, len(ps.Args), ps.Redir, tt.nargs, tt.redir)
		}
	}
}

func TestInterp(t *testing.T) {
	data := "alice 10 20\nbob 5 7\ncarol 30 1\n"
	tests := []struct {
		name, src, in, want string
		args                []string
	}{
		{"sum", `{ s += $2 } END { print s }`, data, "45\n", nil},
		{"nr", `END { print NR }`, data, "3\n", nil},
		{"fields", `{ print $3, $1 }`, data, "20 alice\n7 bob\n1 carol\n", nil},
		{"nf rebuild", `{ NF = 2; print }`, "a b c d\n", "a b\n", nil},
		{"nf grow", `{ NF = 4; $4 = "x"; print }`, "a b\n", "a b  x\n", nil},
		{"field assign", `BEGIN { OFS = "-" } { $2 = "X"; print; print NF }`, "a b c\n", "a-X-c\n3\n", nil},
		{"field beyond", `{ $5 = "e"; print; print NF }`, "a b\n", "a b   e\n5\n", nil},
		{"dollar zero", `{ $0 = "x y z"; print NF, $3 }`, "a\n", "3 z\n", nil},
		{"strnum compare", `{ print ($1 < $2) }`, "10 9\n", "0\n", nil},
		{"string compare", `BEGIN { print ("10" < "9") }`, "", "1\n", nil},
		{"mixed compare", `{ print ($1 < "9") }`, "10\n", "1\n", nil},
		{"uninit", `BEGIN { print x + 0, "[" x "]", (x == 0), (x == "") }`, "", "0 [] 1 1\n", nil},
		{"int output", `BEGIN { print 3.0, 1e6, 2^53, 0.1 + 0.2 }`, "", "3 1000000 9007199254740992 0.3\n", nil},
		{"convfmt", `BEGIN { CONVFMT = "%.2f"; x = 3.14159; y = x ""; print y, x }`, "", "3.14 3.14159\n", nil},
		{"ofmt", `BEGIN { OFMT = "%.2f"; print 3.14159, 2 }`, "", "3.14 2\n", nil},
		{"concat prec", `BEGIN { print 1 " " 2 + 3, 1 -1 }`, "", "1 5 0\n", nil},
		{"power", `BEGIN { print 2^3^2, -2^2, 2**-1, (2^0.5 > 1.41) }`, "", "512 -4 0.5 1\n", nil},
		{"modulo", `BEGIN { print 7 % 3, -7 % 3, 7.5 % 2 }`, "", "1 -1 1.5\n", nil},
		{"incr", `BEGIN { i = 5; print i++, i, ++i, i--, --i }`, "", "5 6 7 7 5\n", nil},
		{"assign ops", `BEGIN { x = 10; x += 5; x -= 3; x *= 2; x /= 4; x %= 4; x ^= 3; print x }`, "", "8\n", nil},
		{"ternary", `BEGIN { print 1 ? "a" : "b", 0 ? "a" : 0 ? "b" : "c" }`, "", "a c\n", nil},
		{"logic", `BEGIN { print 1 && 0, 1 || 0, !1, !"", !"0", !0 }`, "", "0 1 0 1 0 1\n", nil},
		{"short circuit", `BEGIN { 0 && x++; 1 || y++; print x + 0, y + 0 }`, "", "0 0\n", nil},
		{"in", `BEGIN { a["x"]; print ("x" in a), ("y" in a), length(a) }`, "", "1 0 1\n", nil},
		{"multi subscript", `BEGIN { a[1, 2] = 3; for (k in a) { split(k, p, SUBSEP); print p[1], p[2] }; print ((1, 2) in a) }`, "", "1 2\n1\n", nil},
		{"delete", `BEGIN { a[1]; a[2]; delete a[1]; print length(a); delete a; print length(a) }`, "", "1\n0\n", nil},
		{"for in order", `BEGIN { a["z"]; a["a"]; a["m"]; for (k in a) printf "%s", k; print "" }`, "", "zam\n", nil},
		{"while", `BEGIN { while (i < 3) print i++ }`, "", "0\n1\n2\n", nil},
		{"do", `BEGIN { do print i++; while (i < 2) }`, "", "0\n1\n", nil},
		{"for", `BEGIN { for (i = 0; i < 3; i++) { if (i == 1) continue; print i } }`, "", "0\n2\n", nil},
		{"break", `BEGIN { for (;;) if (++i == 4) break; print i }`, "", "4\n", nil},
		{"next", `NR == 2 { next } { print $1 }`, data, "alice\ncarol\n", nil},
		{"exit code", `{ exit 3 } END { print "end" }`, data, "end\n", nil},
		{"exit in end", `END { exit 2; print "no" }`, "", "", nil},
		{"range", `/bob/, /carol/ { print $1 }`, data, "bob\ncarol\n", nil},
		{"range same line", `/alice/, /alice/ { print $1 }`, data, "alice\n", nil},
		{"regex pattern", `/^c/`, data, "carol 30 1\n", nil},
		{"dynamic regex", `BEGIN { r = "^b" } $0 ~ r { print $1 }`, data, "bob\n", nil},
		{"match op", `BEGIN { print ("abc" ~ /b/), ("abc" !~ "^b") }`, "", "1 1\n", nil},
		{"function", `function f(a, b) { return a * b } BEGIN { print f(3, 4) }`, "", "12\n", nil},
		{"recursion", `function fib(n) { return n < 2 ? n : fib(n-1) + fib(n-2) } BEGIN { print fib(15) }`, "", "610\n", nil},
		{"array by ref", `function fill(a) { a["k"] = 1 } BEGIN { fill(x); print x["k"] }`, "", "1\n", nil},
		{"scalar by value", `function f(a) { a = 5 } BEGIN { b = 1; f(b); print b }`, "", "1\n", nil},
		{"local array", `function f(n,   t) { t[n] = n; return length(t) } BEGIN { print f(1), f(2) }`, "", "1 1\n", nil},
		{"array through two calls", `function g(a) { a[1] = "deep" } function f(a) { g(a) } BEGIN { f(x); print x[1] }`, "", "deep\n", nil},
		{"local passed down", `function g(a) { a["k"] = 7 } function f(   t) { g(t); return t["k"] } BEGIN { print f() }`, "", "7\n", nil},
		{"exit in function", `function f() { exit 5 } BEGIN { f(); print "no" }`, "", "", nil},
		{"next in function", `function f() { next } { f(); print "no" } END { print NR }`, data, "3\n", nil},
		{"length forms", `{ print length, length(), length($1) }`, "abc de\n", "6 6 3\n", nil},
		{"length array", `BEGIN { n = split("a b c", x); print length(x) }`, "", "3\n", nil},
		{"substr", `BEGIN { print substr("hello", 2, 3), substr("hello", 0, 2), substr("hello", -1), substr("hello", 1.5, 2.9), substr("hi", 3) "|" substr("hi", 1, 0) "|" }`, "", "ell he hello he ||\n", nil},
		{"index", `BEGIN { print index("hello", "l"), index("hello", "z") }`, "", "3 0\n", nil},
		{"split default", `BEGIN { n = split("  a  b  ", x); print n, x[1], x[2] }`, "", "2 a b\n", nil},
		{"split regex", `BEGIN { n = split("a1b22c", x, /[0-9]+/); print n, x[3] }`, "", "3 c\n", nil},
		{"split char", `BEGIN { n = split("a:b::c", x, ":"); print n, x[4] }`, "", "4 c\n", nil},
		{"split empty", `BEGIN { n = split("abc", x, ""); print n, x[2] }`, "", "3 b\n", nil},
		{"split seps", `BEGIN { split("a-b+c", x, /[-+]/, s); print s[1] s[2] }`, "", "-+\n", nil},
		{"sub", `{ sub(/o/, "0"); print }`, "foo boo\n", "f0o boo\n", nil},
		{"gsub count", `{ n = gsub(/o/, "0"); print n, $0 }`, "foo boo\n", "4 f00 b00\n", nil},
		{"gsub amp", `BEGIN { s = "abc"; gsub(/b/, "[&]", s); print s }`, "", "a[b]c\n", nil},
		{"gsub escaped amp", `BEGIN { s = "abc"; gsub(/b/, "\\&", s); print s }`, "", "a&c\n", nil},
		{"gsub backslash amp", `BEGIN { s = "abc"; gsub(/b/, "\\\\&", s); print s }`, "", "a\\bc\n", nil},
		{"gsub empty match", `BEGIN { s = "abc"; gsub(/x*/, "-", s); print s }`, "", "-a-b-c-\n", nil},
		{"gsub anchors", `BEGIN { s = "aaa"; gsub(/^a/, "b", s); print s }`, "", "baa\n", nil},
		{"gsub field", `{ gsub(/a/, "A", $2); print; print NF }`, "xa ya za\n", "xa yA za\n3\n", nil},
		{"gsub no match keeps record", `BEGIN { OFS = "-" } { $1 = $1; gsub(/zzz/, ""); print }`, "a b\n", "a-b\n", nil},
		{"match", `BEGIN { print match("foobar", /o+/), RSTART, RLENGTH }`, "", "2 2 2\n", nil},
		{"match fail", `BEGIN { print match("abc", /z/), RSTART, RLENGTH }`, "", "0 0 -1\n", nil},
		{"match array", `BEGIN { match("k=v", /(.)=(.)/, m); print m[0], m[1], m[2], m[2, "start"] }`, "", "k=v k v 3\n", nil},
		{"case", `BEGIN { print toupper("aBc1"), tolower("AbC1") }`, "", "ABC1 abc1\n", nil},
		{"math", `BEGIN { printf "%.4f %.4f %.4f %d %d\n", atan2(0, -1), exp(1), sqrt(2), int(-3.7), log(1) }`, "", "3.1416 2.7183 1.4142 -3 0\n", nil},
		{"srand", `BEGIN { print srand(3), srand(), (rand() < 1) }`, "", "1 3 1\n", nil},
		{"srand truncates", `BEGIN { print srand(2.7), srand(-1), srand("x"), srand() }`, "", "1 2 -1 0\n", nil},
		// The numbers gawk 5 gives: its BSD random() with a shuffle table.
		{"rand like gawk", `BEGIN { printf "%.17g %.17g\n", rand(), rand(); srand(5); printf "%.17g\n", rand(); srand(0); printf "%.17g\n", rand(); srand(-3); printf "%.17g\n", rand() }`, "",
			"0.92404581539912467 0.59390861929587824\n0.19779973608556267\n0.85556592365572337\n0.15035677330766584\n", nil},
		{"rand repeatable", `BEGIN { srand(7); a = rand(); srand(7); print (a == rand()) }`, "", "1\n", nil},
		{"sprintf", `BEGIN { s = sprintf("%03d|%-4s|%.2f|%c|%x", 7, "ab", 3.14159, 65, 255); print s }`, "", "007|ab  |3.14|A|ff\n", nil},
		{"printf star", `BEGIN { printf "%*d|%-*.*f|\n", 4, 7, 8, 2, 3.14159 }`, "", "   7|3.14    |\n", nil},
		{"printf positional", `BEGIN { printf "%2$s %1$s\n", "a", "b" }`, "", "b a\n", nil},
		{"printf i u", `BEGIN { printf "%i %u %5.3d\n", 42.9, 42, 7 }`, "", "42 42   007\n", nil},
		{"printf e g", `BEGIN { printf "%e %E %g %G\n", 1234.5, 0.00012, 1e-10, 123456789 }`, "", "1.234500e+03 1.200000E-04 1e-10 1.23457E+08\n", nil},
		{"printf big int", `BEGIN { printf "%d %d\n", 2^62, -2^70 }`, "", "4611686018427387904 -1180591620717411303424\n", nil},
		{"printf neg hex", `BEGIN { printf "%x %o\n", -1, 8 }`, "", "ffffffffffffffff 10\n", nil},
		{"printf inf", `BEGIN { x = -log(0); printf "%f %d %5.1e\n", x, -x, x }`, "", "inf -inf   inf\n", nil},
		{"print inf", `BEGIN { x = -log(0); print x, -x }`, "", "+inf -inf\n", nil},
		{"printf char of strnum", `{ printf "%c%c\n", $1, $2 }`, "65 hi\n", "Ah\n", nil},
		{"printf too few", `BEGIN { printf "%s %s\n", "a" }`, "", "", nil},
		{"escapes", `BEGIN { print "a\tb\x41\101\\" }`, "", "a\tbAA\\\n", nil},
		{"ors ofs", `BEGIN { OFS = "-"; ORS = "|" } { print $1, $2 }`, "a b\nc d\n", "a-b|c-d|", nil},
		{"fs char", `BEGIN { FS = ":" } { print $2 }`, "a:b:c\n", "b\n", nil},
		{"fs tab", `BEGIN { FS = "\t" } { print $2 }`, "a b\tc\n", "c\n", nil},
		{"fs regex", `BEGIN { FS = "[0-9]+" } { print $2 }`, "a12b3c\n", "b\n", nil},
		{"fs class plus", `BEGIN { FS = "[ ,]+" } { print $3, NF }`, "a, b ,c\n", "c 3\n", nil},
		{"fs literal", `BEGIN { FS = "::" } { print $2 }`, "a::b::c\n", "b\n", nil},
		{"fs pipe", `BEGIN { FS = "|" } { print $2 }`, "a|b|c\n", "b\n", nil},
		{"fs escaped pipe", `BEGIN { FS = "\\|" } { print $2 }`, "a|b|c\n", "b\n", nil},
		{"fs leading regex", `BEGIN { FS = "[ ]" } { print NF }`, " a b\n", "3\n", nil},
		{"fs empty", `BEGIN { FS = "" } { print NF, $2 }`, "abc\n", "3 b\n", nil},
		{"fs change next record", `{ FS = ":"; print $1 }`, "a:b c\nd:e f\n", "a:b\nd\n", nil},
		{"rs para", `BEGIN { RS = "" } { print NR ": " $1 "/" NF }`, "\n\na b\nc\n\n\nd\n\n", "1: a/3\n2: d/1\n", nil},
		{"rs para fs", `BEGIN { RS = ""; FS = ":" } { print $2 }`, "a:b\nc:d\n", "b\n", nil},
		{"rs char", `BEGIN { RS = ";" } { print NR, $0 }`, "a;b;c", "1 a\n2 b\n3 c\n", nil},
		{"rs regex", `BEGIN { RS = "[0-9]+" } { print $0 "|" RT }`, "a1b22c", "a|1\nb|22\nc|\n", nil},
		{"rs regex across reads", `BEGIN { RS = "\n+" } END { print NR }`, strings.Repeat("x\n\n\n", 30000), "30000\n", nil},
		{"no final newline", `{ print NR ":" $0 }`, "a\nb", "1:a\n2:b\n", nil},
		{"getline", `NR == 1 { getline; print "now", $0, NR }`, data, "now bob 5 7 2\n", nil},
		{"getline var", `NR == 1 { getline x; print x, $1, NR }`, data, "bob 5 7 alice 2\n", nil},
		{"getline file", `BEGIN { while ((getline l < "f") > 0) n++; print n, NR }`, "", "2 0\n", nil},
		{"getline file record", `BEGIN { getline < "f"; print $2, NF }`, "", "2 2\n", nil},
		{"getline missing", `BEGIN { print (getline l < "nope") }`, "", "-1\n", nil},
		{"getline cmd", `BEGIN { "echo a b" | getline; print $2, NR; "echo x" | getline v; print v }`, "", "b 0\nx\n", nil},
		{"getline cmd loop", `BEGIN { while (("cat f" | getline l) > 0) print "got", l }`, "", "got 1 2\ngot 3 4\n", nil},
		{"getline in end", `END { print getline, $0 }`, "a\n", "0 a\n", nil},
		{"print to file", `BEGIN { print "x" > "o"; print "y" > "o"; close("o"); while ((getline l < "o") > 0) print "r", l }`, "", "r x\nr y\n", nil},
		{"append file", `BEGIN { print "more" >> "f"; close("f"); while ((getline l < "f") > 0) print l }`, "", "1 2\n3 4\nmore\n", nil},
		{"print pipe", `BEGIN { print "b" | "sort"; print "a" | "sort"; close("sort"); print "done" }`, "", "a\nb\ndone\n", nil},
		{"close status", `BEGIN { print close("x"); print "a" | "exit 3"; print close("exit 3") }`, "", "-1\n3\n", nil},
		{"system", `BEGIN { print "before"; r = system("echo hi"); print r }`, "", "before\nhi\n0\n", nil},
		{"system status", `BEGIN { print system("exit 4") }`, "", "4\n", nil},
		{"stdout file", `BEGIN { print "x" > "/dev/stdout"; print "y" > "/dev/stderr" }`, "", "x\n", nil},
		{"argv", `BEGIN { print ARGC, ARGV[1], ARGV[2] }`, "", "3 a b\n", []string{"a", "b"}},
		{"assign operand", `{ print v, $0 }`, "", "1 1 2\n1 3 4\n2 1 2\n2 3 4\n", []string{"v=1", "f", "v=2", "f"}},
		{"assign operand escapes", `END { print v }`, "", "a\tb\n", []string{"v=a\\tb", "/dev/null"}},
		{"v option", `BEGIN { print x, x + 1 }`, "", "a\\b 1\n", []string{"-v", `x=a\\b`}},
		{"v strnum", `BEGIN { print (x < 9) }`, "", "0\n", []string{"-v", "x=10"}},
		{"filename fnr", `FNR == 1 { print FILENAME, NR }`, "", "f 1\ng 3\n", []string{"f", "g"}},
		{"stdin dash", `{ print FILENAME ":" $0 }`, "in\n", "-:in\n", []string{"-"}},
		{"stdin filename", `BEGIN { printf "[%s]", FILENAME } { printf "[%s]", FILENAME } END { print "[" FILENAME "]" }`, "in\n", "[][-][-]\n", nil},
		{"sub on a constant", `BEGIN { print sub(/a/, "b", "a"), gsub(/x/, "y", 1 + 1) }`, "", "1 0\n", nil},
		{"extra arguments evaluated", `function f(a) { return a } BEGIN { print f(1, x[1]), length(x) }`, "", "1 1\n", nil},
		{"missing file", `{ print }`, "", "1 2\n3 4\n", []string{"nope", "f"}},
		{"argv modified", `BEGIN { ARGV[1] = "g"; ARGC = 2 } { print }`, "", "x\n", []string{"f", "f"}},
		{"environ", `BEGIN { print ENVIRON["USER"] }`, "", "sandbox\n", nil},
		{"nextfile", `FNR == 2 { nextfile } { print FILENAME, $0 }`, "", "f 1 2\ng x\n", []string{"f", "g"}},
		{"beginfile endfile", `BEGINFILE { print "<" FILENAME } ENDFILE { print FNR ">" }`, "", "<f\n2>\n<g\n1>\n", []string{"f", "g"}},
		{"gensub", `BEGIN { print gensub(/(a)(b)/, "\\2\\1", "g", "abab"), gensub(/o/, "0", 2, "ooo") }`, "", "baba o0o\n", nil},
		{"gensub record", `{ print gensub(/b/, "B", "g") ; print }`, "abcb\n", "aBcB\nabcb\n", nil},
		{"asort", `BEGIN { split("10 9 b a 1", x); n = asort(x); for (i = 1; i <= n; i++) printf "%s ", x[i]; print "" }`, "", "1 9 10 a b \n", nil},
		{"asorti", `BEGIN { a["b"]; a["c"]; a["a"]; n = asorti(a, d); print n, d[1] d[2] d[3] }`, "", "3 abc\n", nil},
		{"ignorecase", `BEGIN { IGNORECASE = 1 } /ALICE/ { print $1 } { n += gsub(/O/, "0") } END { print n }`, data, "alice\n2\n", nil},
		{"systime", `BEGIN { print systime() }`, "", "1704164645\n", nil},
		{"strftime", `BEGIN { print strftime("%Y-%m-%d %H:%M:%S %j %a %b %e", 86400 * 40) }`, "", "1970-02-10 00:00:00 041 Tue Feb 10\n", nil},
		{"strftime default", `BEGIN { print strftime() }`, "", "Tue Jan  2 03:04:05 UTC 2024\n", nil},
		{"mktime", `BEGIN { print mktime("2024 01 02 03 04 05"), mktime("bad") }`, "", "1704164645 -1\n", nil},
		{"bit ops", `BEGIN { print and(12, 10), or(12, 10), xor(12, 10), lshift(1, 10), rshift(1024, 3) }`, "", "8 14 6 1024 128\n", nil},
		{"hex source", `BEGIN { print 0x10 + 1 }`, "", "17\n", nil},
		{"octal source", `BEGIN { print 017, 08, 0.5 }`, "", "15 8 0.5\n", nil},
		{"strnum hex is zero", `{ print $1 + 0 }`, "0x1A\n", "0\n", nil},
		{"numeric prefix", `BEGIN { print "3abc" + 1, " 12 " + 0, ".5e1x" * 2, "+-1" + 0 }`, "", "4 12 10 0\n", nil},
		{"getline updates nf", `BEGIN { "echo a b c" | getline; print NF }`, "", "3\n", nil},
		{"uninit arg becomes array", `function f(a) { split("x y", a) } BEGIN { f(arr); print length(arr) }`, "", "2\n", nil},
		{"delete in loop", `BEGIN { for (i = 0; i < 5; i++) a[i]; for (k in a) delete a[k]; print length(a) }`, "", "0\n", nil},
		{"dense array", `{ a[NR] = $1 } END { for (i = NR; i > 0; i--) printf "%s ", a[i]; print ""; a["x"] = 1; print length(a), a[2] }`, data, "carol bob alice \n4 bob\n", nil},
		{"regex literal value", `{ x = /o/; print x }`, "foo\nbar\n", "1\n0\n", nil},
		{"semicolon else", `BEGIN { if (0) print "a"; else print "b" }`, "", "b\n", nil},
		{"newline after else", "BEGIN { if (0)\n print \"a\"\nelse\n print \"b\" }", "", "b\n", nil},
		{"comment continuation", "BEGIN { x = 1 + \\\n 2 # three\n print x }", "", "3\n", nil},
		{"getline precedence", `BEGIN { "echo 5" | getline x; print x * 2 }`, "", "10\n", nil},
		{"in precedence", `BEGIN { a[1]; print 1 in a, !(2 in a) }`, "", "1 1\n", nil},
		{"unary minus string", `BEGIN { print -"3", +"4x", !"a" }`, "", "-3 4 0\n", nil},
		{"nested functions arrays", `function sum(a,   k, s) { for (k in a) s += a[k]; return s } { v[NR] = $2 } END { print sum(v) }`, data, "45\n", nil},
		{"compare uninit", `BEGIN { if (x < 1) print "lt"; if (x == "") print "empty" }`, "", "lt\nempty\n", nil},
		{"field strnum eq", `{ print ($1 == 1), ($1 == "1.0") }`, "1.0\n", "1 1\n", nil},
		{"numeric string from concat", `BEGIN { x = "1" "0"; print (x < 9) }`, "", "1\n", nil},
		{"long record", `{ print length($0) }`, strings.Repeat("x", 200000) + "\n", "200000\n", nil},
		{"many fields", `{ print NF, $NF }`, strings.Repeat("a ", 5000) + "z\n", "5001 z\n", nil},
	}
	files := map[string]string{"f": "1 2\n3 4\n", "g": "x\n"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runProg(t, tt.src, tt.in, files, tt.args...)
			if r.err != nil && tt.want != "" {
				t.Fatalf("error: %v", r.err)
			}
			if r.out != tt.want {
				t.Errorf("got %q, want %q (stderr %q)", r.out, tt.want, r.errOut)
			}
		})
	}
}

func TestStatus(t *testing.T) {
	tests := []struct {
		name, src, in string
		args          []string
		status        int
		wantErr       string // substring of the error, "" for none
		stderr        bool
	}{
		{"exit code", `BEGIN { exit 3 }`, "", nil, 3, "", false},
		{"exit keeps code in end", `{ exit 4 } END { exit }`, "a\n", nil, 4, "", false},
		{"division by zero", `BEGIN { y = 0; x = 1 / y }`, "", nil, 2, "division by zero attempted", false},
		{"modulo by zero", `BEGIN { x = 1 % (0) }`, "", nil, 2, "division by zero attempted in `%'", false},
		{"divide assign by zero", `BEGIN { x /= 0 }`, "", nil, 2, "division by zero attempted in `/='", false},
		{"modulo assign by zero", `BEGIN { x[1] %= 0 }`, "", nil, 2, "division by zero attempted in `%='", false},
		{"constant division by zero", `BEGIN { x = 1 / 0 }`, "", nil, 1, "division by zero attempted", false},
		{"syntax", `BEGIN { x = }`, "", nil, 1, "syntax error", false},
		{"undefined function", `BEGIN { printf "a" } END { f(1) }`, "", nil, 2, "function `f' not defined", false},
		{"printf without arguments", `BEGIN { printf }`, "", nil, 2, "printf: no arguments", false},
		{"split into scalar", `BEGIN { split("a b", 5) }`, "", nil, 2, "split: second argument is not an array", false},
		{"special as array", `BEGIN { NF[1] = 2 }`, "", nil, 2, "attempt to use scalar `NF' as an array", false},
		{"scalar parameter as array", `function f(a) { a[1] } BEGIN { f(1) }`, "", nil, 2, "scalar parameter `a'", false},
		{"scalar as array", `BEGIN { x = 1; x[1] = 2 }`, "", nil, 2, "scalar", false},
		{"array as scalar", `BEGIN { x[1] = 1; print x }`, "", nil, 2, "array", false},
		{"negative field", `{ print $(-1) }`, "a\n", nil, 2, "field -1", false},
		{"missing file", `{ print }`, "", []string{"nope"}, 2, "", true},
		{"too few printf", `BEGIN { printf "%d" }`, "", nil, 2, "not enough arguments", false},
		{"bad regex", `BEGIN { x = "a" ~ "(" }`, "", nil, 2, "regexp", false},
		{"output redirect failure", `BEGIN { print "x" > "" }`, "", nil, 2, "redirect", false},
		{"deep recursion", `function f(n) { return f(n + 1) } BEGIN { f(1) }`, "", nil, 2, "too deep", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runProg(t, tt.src, tt.in, map[string]string{}, tt.args...)
			if r.status != tt.status {
				t.Errorf("status %d, want %d (err %v)", r.status, tt.status, r.err)
			}
			if tt.wantErr == "" && r.err != nil {
				t.Errorf("unexpected error %v", r.err)
			}
			if tt.wantErr != "" && (r.err == nil || !strings.Contains(r.err.Error(), tt.wantErr)) {
				t.Errorf("error %v, want %q", r.err, tt.wantErr)
			}
			if (r.errOut != "") != tt.stderr {
				t.Errorf("stderr %q", r.errOut)
			}
		})
	}
}

func TestCancel(t *testing.T) {
	prog, err := Parse(Source{Name: "x", Text: `BEGIN { while (1) x++ }`})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	done := make(chan error, 1)
	go func() {
		_, err := Run(prog, &Config{Context: ctx})
		done <- err
	}()
	select {
	case err := <-done:
		var oe *OutputError
		if !errors.As(err, &oe) || !errors.Is(err, context.Canceled) {
			t.Errorf("got %v, want a cancellation", err)
		}
	case <-time.After(60 * time.Second): // a hang detector, not a speed check
		t.Fatal("infinite loop was not cancelled")
	}
}

// failWriter fails every write, like a closed pipe.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

func TestWriteError(t *testing.T) {
	prog, err := Parse(Source{Name: "x", Text: `BEGIN { while (1) print "y" }`})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(prog, &Config{Output: failWriter{}})
	if !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("got %v, want the write error", err)
	}
}

func TestValueConversions(t *testing.T) {
	nums := []struct {
		s string
		n float64
	}{
		{"12", 12}, {" 12 ", 12}, {"-3.5e2x", -350}, {".5", 0.5}, {"abc", 0},
		{"1e", 1}, {"+7", 7}, {"0x10", 0}, {"", 0}, {"123456789012345678901", 1.2345678901234568e20},
	}
	for _, tt := range nums {
		if got := strToNum(tt.s); got != tt.n {
			t.Errorf("strToNum(%q) = %v, want %v", tt.s, got, tt.n)
		}
	}
	looks := map[string]bool{"1": true, " 1 ": true, "1e3": true, "-.5": true, "+inf": true,
		"1a": false, "": false, " ": false, ".": false, "e5": false, "0x1": false}
	for s, want := range looks {
		if _, got := looksNumeric(s); got != want {
			t.Errorf("looksNumeric(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestUTF8(t *testing.T) {
	tests := []struct{ src, in, bytes, chars string }{
		{`{ print length($0), length($1) }`, "héllo wörld\n", "13 6\n", "11 5\n"},
		{`{ print substr($0, 2, 3) }`, "héllo\n", "\xc3\xa9l\n", "éll\n"},
		{`{ print index($0, "l") }`, "héllo\n", "4\n", "3\n"},
		{`{ print match($0, /l+/), RSTART, RLENGTH }`, "héllo\n", "4 4 2\n", "3 3 2\n"},
		{`{ print toupper($0) }`, "héllo\n", "HéLLO\n", "HÉLLO\n"},
		{`{ printf "[%3s][%-4s][%.2s]\n", "é", "né", "été" }`, "x\n", "[ é][né ][\xc3\xa9]\n", "[  é][né  ][ét]\n"},
		{`BEGIN { printf "%c%c\n", 233, "éa" }`, "", "\xe9\xc3\n", "éé\n"},
		{`BEGIN { n = split("aé", c, ""); print n, c[2] }`, "", "3 \xc3\n", "2 é\n"},
		{`{ print length($0) }`, "a\xffb\n", "3\n", "3\n"},
		{`{ print toupper($0) }`, "a\xffé\n", "A\xffé\n", "A\xffÉ\n"},
	}
	for _, tt := range tests {
		for _, utf := range []bool{false, true} {
			prog, err := Parse(Source{Name: "x", Text: tt.src})
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if _, err := Run(prog, &Config{Stdin: strings.NewReader(tt.in), Output: &out, UTF8: utf}); err != nil {
				t.Fatal(err)
			}
			want := tt.bytes
			if utf {
				want = tt.chars
			}
			if out.String() != want {
				t.Errorf("%s (utf8=%v): got %q, want %q", tt.src, utf, out.String(), want)
			}
		}
	}
}

func TestSortedIn(t *testing.T) {
	tests := []struct{ how, want string }{
		{"@ind_str_asc", "a:3 b:1 c:2 "},
		{"@ind_str_desc", "c:2 b:1 a:3 "},
		{"@val_num_asc", "b:1 c:2 a:3 "},
		{"@val_num_desc", "a:3 c:2 b:1 "},
		{"@unsorted", "b:1 a:3 c:2 "},
		{"cmp", "a:3 c:2 b:1 "},
	}
	for _, tt := range tests {
		src := `function cmp(i1, v1, i2, v2) { return v2 - v1 }
BEGIN { x["b"] = 1; x["a"] = 3; x["c"] = 2; PROCINFO["sorted_in"] = "` + tt.how + `"; for (k in x) printf "%s:%s ", k, x[k] }`
		if r := runProg(t, src, "", nil); r.out != tt.want || r.err != nil {
			t.Errorf("%s: got %q (%v), want %q", tt.how, r.out, r.err, tt.want)
		}
	}
	r := runProg(t, `BEGIN { split("10 9 100", a); PROCINFO["sorted_in"] = "@ind_num_desc"; for (k in a) printf "%s ", k }`, "", nil)
	if r.out != "3 2 1 " {
		t.Errorf("@ind_num_desc: %q", r.out)
	}
}

func TestGawkExtensions(t *testing.T) {
	tests := []struct{ name, src, in, want string }{
		{"switch", `{ switch ($1) { case 1: print "one"; break; case "b": print "bee"; case /^c/: print "cee"; break; default: print "other" } }`, "1\nb\nc\nz\n", "one\nbee\ncee\ncee\nother\n"},
		{"switch in loop", `BEGIN { for (i = 0; i < 3; i++) { switch (i) { case 1: continue; default: print i } } }`, "", "0\n2\n"},
		{"switch negative", `BEGIN { switch (-2) { case -2: print "neg" } }`, "", "neg\n"},
		{"strtonum", `BEGIN { print strtonum("0x1A"), strtonum("017"), strtonum("12.5e1"), strtonum(" -0x10") }`, "", "26 15 125 -16\n"},
		{"isarray typeof", `BEGIN { a[1]; x = 1; print isarray(a), isarray(x), typeof(a), typeof(x), typeof("s"), typeof(u) }`, "", "1 0 array number string untyped\n"},
		{"typeof strnum", `{ print typeof($1), typeof($2) }`, "12 ab\n", "strnum string\n"},
		{"fpat", `BEGIN { FPAT = "([^,]*)|(\"[^\"]+\")" } { print NF; for (i = 1; i <= NF; i++) print i ": " $i }`, "a,\"b,c\",,d\n", "4\n1: a\n2: \"b,c\"\n3: \n4: d\n"},
		{"fieldwidths", `BEGIN { FIELDWIDTHS = "2 3 1:2 *" } { print $1 "|" $2 "|" $3 "|" $4; print NF }`, "abcdefghijk\n", "ab|cde|gh|ijk\n4\n"},
		{"fs after fpat", `BEGIN { FPAT = "[0-9]+"; FS = "-" } { print $2 }`, "a-b\n", "b\n"},
	}
	for _, tt := range tests {
		if r := runProg(t, tt.src, tt.in, nil); r.out != tt.want || r.err != nil {
			t.Errorf("%s: got %q (%v), want %q", tt.name, r.out, r.err, tt.want)
		}
	}
}
