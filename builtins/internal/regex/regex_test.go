package regex

import (
	"bytes"
	"fmt"
	"math/rand"
	"regexp"
	"strings"
	"testing"
	"time"
)

// findAll renders every match of re in s as "[match]" for compact tables.
func findAll(re *Regexp, s string) string {
	var b strings.Builder
	last := 0
	for _, m := range re.FindAllIndex([]byte(s), -1) {
		b.WriteString(s[last:m[0]] + "[" + s[m[0]:m[1]] + "]")
		last = m[1]
	}
	return b.String() + s[last:]
}

// TestAWKSyntax covers awk's escapes, which the host's awk (mawk) does
// not all share with gawk, so the wants follow the gawk manual.
func TestAWKSyntax(t *testing.T) {
	cases := []struct{ pat, in, want string }{
		{`a\/b`, "a/b", "[a/b]"},
		{`\"`, `say "hi"`, `say ["]hi["]`},
		{`a\tb`, "a\tb", "[a\tb]"},
		{`a\nb`, "a\nb", "[a\nb]"},
		{`\101`, "BAB", "B[A]B"},
		{`\x41+`, "AAB", "[AA]B"},
		{`\.`, "a.b", "a[.]b"},
		{`[\]]`, "a]b", "a[]]b"},
		{`[\\]`, `a\b`, `a[\]b`},
		{`[a\-c]`, "b-", "b[-]"},
		{`[\t ]+`, "a \t b", "a[ \t ]b"},
		{`\yfoo\y`, "foo food", "[foo] food"},
		{`\bx`, "a\bx", "a[\bx]"},
		{`\<f`, "ff f", "[f]f [f]"},
		{`o\>`, "foo of", "fo[o] of"},
		{`\Bo`, "foo", "f[o][o]"},
		{`*a`, "*a", "[*a]"},
		{`+`, "a+b", "a[+]b"},
		{`a{2}`, "aaa", "[aa]a"},
		{`a{`, "a{", "[a{]"},
		{`a{x}`, "a{x}", "[a{x}]"},
		{`^a|b$`, "ab", "[a][b]"},
		{`(a)(b)\1`, "ab1", "ab1"},
		{`[[:digit:]]+`, "a12b", "a[12]b"},
		{`\s+`, "a \t b", "a[ \t ]b"},
		{`.`, "\n", "[\n]"},
	}
	for _, c := range cases {
		re, err := Compile(c.pat, Flags{Syntax: AWK})
		if err != nil {
			t.Errorf("%q: %v", c.pat, err)
			continue
		}
		if got := findAll(re, c.in); got != c.want {
			t.Errorf("%q on %q: got %q, want %q", c.pat, c.in, got, c.want)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	cases := []struct {
		pat  string
		syn  Syntax
		want string
	}{
		{`a\{1`, BRE, "Unmatched \\{"},
		{`(a`, ERE, "Unmatched ( or \\("},
		{`a)`, ERE, "Unmatched ) or \\)"},
		{`*a`, ERE, "Invalid preceding regular expression"},
		{`a{1,2`, ERE, "Unmatched \\{"},
		{`a{2,1}`, ERE, "Invalid content of \\{\\}"},
		{`a{99999}`, ERE, "Regular expression too big"},
		{`[b-a]`, BRE, "Invalid range end"},
		{`\(a\)\2`, BRE, "Invalid back reference"},
		{`[[:word:]]`, BRE, "Invalid character class name"},
		{`(a`, AWK, "Unmatched ( or \\("},
		{`a\`, AWK, "Trailing backslash"},
		{`(`, PCRE, "missing closing parenthesis"},
	}
	for _, c := range cases {
		_, err := Compile(c.pat, Flags{Syntax: c.syn})
		if err == nil || err.Error() != c.want {
			t.Errorf("%q (%d): got %v, want %q", c.pat, c.syn, err, c.want)
		}
	}
}

func TestPCRE(t *testing.T) {
	cases := []struct{ pat, in, want string }{
		{`a+?`, "aaa", "[a][a][a]"},
		{`\d{2}`, "a123", "a[12]3"},
		{`(?<=a)b`, "ab cb", "a[b] cb"},
		{`b(?!c)`, "bc bd", "bc [b]d"},
		{`(\w)\1`, "hello", "he[ll]o"},
		{`a++b`, "aab", "[aab]"},
		{`[ab]*+b`, "aab", "aab"},
		{`(?>a+)b`, "aab", "[aab]"},
		{`a|ab`, "ab", "[a]b"},
		{`\bfoo\b`, "foo food", "[foo] food"},
		{`(?i)abc`, "xABC", "x[ABC]"},
		{`\Qa.b\E`, "a.b axb", "[a.b] axb"},
	}
	for _, c := range cases {
		re, err := Compile(c.pat, Flags{Syntax: PCRE})
		if err != nil {
			t.Errorf("%q: %v", c.pat, err)
			continue
		}
		if got := findAll(re, c.in); got != c.want {
			t.Errorf("%q on %q: got %q, want %q", c.pat, c.in, got, c.want)
		}
	}
}

func TestSubmatchAPI(t *testing.T) {
	re := MustCompile(`\([a-z]*\)=\([0-9]*\)`, Flags{Syntax: BRE})
	if re.NumSubexp() != 2 {
		t.Fatalf("NumSubexp = %d", re.NumSubexp())
	}
	got := re.FindStringSubmatchIndex("x key=12 y")
	if fmt.Sprint(got) != "[2 8 2 5 6 8]" {
		t.Errorf("FindStringSubmatchIndex = %v", got)
	}
	if fmt.Sprint(re.FindSubmatchIndex([]byte("no"))) != "[]" {
		t.Errorf("no match should be nil")
	}
	all := re.FindAllSubmatchIndex([]byte("a=1 b=2 c=3"), 2)
	if fmt.Sprint(all) != "[[0 3 0 1 2 3] [4 7 4 5 6 7]]" {
		t.Errorf("FindAllSubmatchIndex = %v", all)
	}
	// A back-reference runs on the backtracking engine: offsets must
	// still be bytes, also after multi-byte characters.
	br := MustCompile(`\(.\)\1`, Flags{Syntax: BRE})
	if got := br.FindSubmatchIndex([]byte("éaab")); fmt.Sprint(got) != "[2 4 2 3]" {
		t.Errorf("backref offsets = %v", got)
	}
	if !br.MatchString("xyy") || br.MatchString("xyz") {
		t.Errorf("backref MatchString wrong")
	}
	opt := MustCompile(`\(a\)\|b`, Flags{Syntax: BRE})
	if got := opt.FindSubmatchIndex([]byte("b")); fmt.Sprint(got) != "[0 1 -1 -1]" {
		t.Errorf("unset group = %v", got)
	}
}

func TestLiteral(t *testing.T) {
	cases := []struct {
		pat  string
		f    Flags
		lit  string
		isIt bool
	}{
		{"hello", Flags{Syntax: BRE}, "hello", true},
		{`a\.b`, Flags{Syntax: BRE}, "a.b", true},
		{`a+b`, Flags{Syntax: BRE}, "a+b", true},
		{`a+b`, Flags{Syntax: ERE}, "", false},
		{"hello", Flags{Syntax: BRE, IgnoreCase: true}, "", false},
		{"a.b", Flags{Syntax: Fixed}, "a.b", true},
		{`a\nb`, Flags{Syntax: BRE}, "a\nb", true},
		{"abc", Flags{Syntax: PCRE}, "abc", true},
		{"a.c", Flags{Syntax: PCRE}, "", false},
	}
	for _, c := range cases {
		re := MustCompile(c.pat, c.f)
		lit, ok := re.Literal()
		if lit != c.lit || ok != c.isIt {
			t.Errorf("%q: Literal() = %q, %v", c.pat, lit, ok)
		}
	}
}

// TestBytes documents matching on input that is not UTF-8: a valid
// sequence is one character, each invalid byte is one character, and
// fixed strings compare bytes.
func TestBytes(t *testing.T) {
	dot := MustCompile(`^.$`, Flags{Syntax: BRE})
	for _, in := range []string{"é", "\xff", "a"} {
		if !dot.MatchString(in) {
			t.Errorf("^.$ should match %q", in)
		}
	}
	if dot.MatchString("\xff\xfe") {
		t.Errorf("^.$ matched two invalid bytes")
	}
	lit := MustCompile("caf\xe9", Flags{Syntax: BRE})
	if !lit.MatchString("un caf\xe9") || lit.MatchString("un caf\xe8") {
		t.Errorf("invalid byte literal should match exactly")
	}
	cls := MustCompile("[^a]x", Flags{Syntax: BRE})
	if got := cls.FindIndex([]byte("a\xffx")); fmt.Sprint(got) != "[1 3]" {
		t.Errorf("[^a] on an invalid byte: %v", got)
	}
	raw := MustCompile("x\xff*y", Flags{Syntax: BRE})
	if !raw.MatchString("x\xff\xffy") || !raw.MatchString("xy") {
		t.Errorf("repeated invalid byte")
	}
}

func TestTimeout(t *testing.T) {
	re := MustCompile(`\(a*\)*\1[b-z]`, Flags{Syntax: BRE})
	if re.bt == nil {
		t.Fatal("back-reference should use the backtracking engine")
	}
	re.bt.MatchTimeout = 20 * time.Millisecond
	// Without the timeout this match runs for ages; a generous hang
	// detector (not a speed check) makes that a failure, not a stall.
	done := make(chan bool, 1)
	go func() { done <- re.MatchString(strings.Repeat("a", 40)) }()
	select {
	case matched := <-done:
		if matched {
			t.Errorf("unexpected match")
		}
	case <-time.After(60 * time.Second):
		t.Fatal("MatchTimeout did not stop the match")
	}
	if re.Err() != ErrTimeout {
		t.Errorf("Err() = %v, want ErrTimeout", re.Err())
	}
}

func TestCompileList(t *testing.T) {
	cases := []struct {
		pats []string
		o    ListOptions
		in   string
		want string // lines that match, joined by '|'
	}{
		{[]string{`\(a\)\1`, `\(b\)\1`}, ListOptions{Syntax: BRE}, "aa\nbb\nab", "aa|bb"},
		{[]string{"foo", "bar"}, ListOptions{Syntax: Fixed, Whole: WholeWord}, "foo\nfoobar\nbar x\nbarn", "foo|bar x"},
		{[]string{"a.c"}, ListOptions{Syntax: Fixed, IgnoreCase: true}, "A.C\nabc\nxa.cy", "A.C|xa.cy"},
		{[]string{"ab"}, ListOptions{Syntax: BRE, Whole: WholeLine}, "ab\nabc\n ab", "ab"},
		{nil, ListOptions{Syntax: BRE}, "a\n\nb", ""},
		{[]string{""}, ListOptions{Syntax: BRE}, "a\n\nb", "a||b"},
		{[]string{"^$"}, ListOptions{Syntax: BRE}, "a\n\nb\n", ""},
		{[]string{`\<b`}, ListOptions{Syntax: BRE}, "ab\na b\n", "a b"},
		{[]string{`x\>`}, ListOptions{Syntax: BRE}, "xa\nax y\n", "ax y"},
		{[]string{`[[:space:]]`}, ListOptions{Syntax: BRE}, "ab\ncd\na b\n", "a b"},
		{[]string{`a[^b]c`}, ListOptions{Syntax: BRE}, "a\nc\naxc\n", "axc"},
		{[]string{`a\W*c`}, ListOptions{Syntax: BRE}, "a\nc\na--c\n", "a--c"},
		{[]string{"k"}, ListOptions{Syntax: Fixed, IgnoreCase: true}, "K\nx\n", "K"},
		{[]string{`\(ab\)*c\1`}, ListOptions{Syntax: BRE, Whole: WholeWord}, "ababcab x\nabcabab\n", "ababcab x"},
	}
	for _, c := range cases {
		c.o.Lines = true
		re, err := CompileList(c.pats, c.o)
		if err != nil {
			t.Errorf("%q: %v", c.pats, err)
			continue
		}
		var got []string
		buf := []byte(c.in)
		for len(buf) > 0 {
			s, e, ok := re.FindLine(buf, '\n')
			if !ok {
				break
			}
			got = append(got, string(buf[s:e]))
			buf = buf[min(e+1, len(buf)):]
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("%q on %q: got %q, want %q", c.pats, c.in, strings.Join(got, "|"), c.want)
		}
	}
	if _, err := CompileList([]string{"a", "b"}, ListOptions{Syntax: PCRE}); err != ErrPCREList {
		t.Errorf("-P with two patterns: %v", err)
	}
	re, _ := CompileList([]string{"*a", "+b"}, ListOptions{Syntax: ERE})
	if fmt.Sprint(re.Warnings()) != "[* at start of expression + at start of expression]" {
		t.Errorf("warnings = %q", re.Warnings())
	}
}

// TestDFA checks the lazy DFA (through FindLine) against Go's regexp run
// line by line, on random text and expressions.
func TestDFA(t *testing.T) {
	pats := []string{
		`a[bc]*d`, `^x`, `y$`, `^$`, `\bab`, `ab\b`, `\Bb\B`, `[0-9][0-9]*`,
		`^a.*z$`, `(ab|ba)+c`, `x*`, `é.`, `[^a-c]{3}`, `^[\t ]*$`,
		`(?i)AbC`, `a.{2}b`, `(^|_)q`, `\w+_\w+`,
	}
	rng := rand.New(rand.NewSource(1))
	alphabet := []string{"a", "b", "c", "d", "x", "y", "z", " ", "_", "é", "\xff", "0", "7", "\n", "\n", "q"}
	for _, p := range pats {
		lines, err := CompileList([]string{p}, ListOptions{Syntax: PCRE})
		if err != nil {
			t.Fatal(err)
		}
		re := &Regexp{lines: true}
		if err := re.buildGoSource(`(?m)` + strings.ReplaceAll(strings.ReplaceAll(p, ".", `[^\n]`), `[^a-c]`, `[^a-c\n]`)); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 300; i++ {
			var b bytes.Buffer
			for n := rng.Intn(60); n > 0; n-- {
				b.WriteString(alphabet[rng.Intn(len(alphabet))])
			}
			buf := b.Bytes()
			want := -1
			for start := 0; start <= len(buf); {
				end := bytes.IndexByte(buf[start:], '\n')
				if end < 0 {
					end = len(buf)
				} else {
					end += start
				}
				if start < len(buf) && lines.goFirst.Match(buf[start:end]) {
					want = start
					break
				}
				start = end + 1
			}
			s, _, ok := re.FindLine(buf, '\n')
			if !ok {
				s = -1
			}
			if s != want {
				t.Fatalf("%q on %q: FindLine at %d, line by line %d", p, buf, s, want)
			}
		}
	}
}

// buildGoSource sets re up from Go syntax, for tests of the engines.
func (re *Regexp) buildGoSource(src string) error {
	g, err := regexp.Compile(src)
	if err != nil {
		return err
	}
	re.goFirst, re.goLong, re.goSrc = g, g, src
	return nil
}

// TestPrefilterLines checks FindLine and CountLines, which find a
// required literal first (its rarest byte) and verify the line with the
// lazy DFA, against Go's regexp run line by line.
func TestPrefilterLines(t *testing.T) {
	pats := []string{"ing", "ab", "ru.*ab", "a[bc]+d", "(ab|cd)x", "^ab", "ab$", "kaab", "a", "zz+y", "(foo|bar)", `x\b`, "gab|kun"}
	rng := rand.New(rand.NewSource(2))
	alphabet := []string{"a", "b", "c", "d", "i", "n", "g", "r", "u", "k", "x", "y", "z", "f", "o", " ", "\n", "\n"}
	for _, p := range pats {
		re, err := CompileList([]string{p}, ListOptions{Syntax: ERE, Lines: true})
		if err != nil {
			t.Fatal(err)
		}
		gore := regexp.MustCompile(p)
		for i := 0; i < 400; i++ {
			var b bytes.Buffer
			for n := rng.Intn(200); n > 0; n-- {
				b.WriteString(alphabet[rng.Intn(len(alphabet))])
			}
			buf := b.Bytes()
			var want []string
			for _, line := range strings.SplitAfter(string(buf), "\n") {
				line = strings.TrimSuffix(line, "\n")
				if gore.MatchString(line) {
					want = append(want, line)
				}
			}
			if len(buf) > 0 && buf[len(buf)-1] == '\n' && len(want) > 0 && gore.MatchString("") && want[len(want)-1] == "" {
				want = want[:len(want)-1] // the "line" after the last newline
			}
			var got []string
			for rest := buf; len(rest) > 0; {
				s, e, ok := re.FindLine(rest, '\n')
				if !ok {
					break
				}
				got = append(got, string(rest[s:e]))
				rest = rest[min(e+1, len(rest)):]
			}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Fatalf("%q on %q: FindLine %q, line by line %q", p, buf, got, want)
			}
			if n := re.CountLines(buf, '\n'); n != len(want) {
				t.Fatalf("%q on %q: CountLines %d, line by line %d", p, buf, n, len(want))
			}
		}
	}
}

// TestIndexRare checks the rare-byte literal search against bytes.Index,
// including inputs full of the byte it looks for (its cutover to
// bytes.Index).
func TestIndexRare(t *testing.T) {
	cases := []struct{ b, lit string }{
		{"xxkaab", "kaab"}, {strings.Repeat("k", 5000) + "kaab", "kaab"}, {strings.Repeat("kaa", 3000), "kaab"},
		{"singing", "ing"}, {"", "ab"}, {"a", "ab"}, {"ab", "ab"}, {"zzzz", "z"}, {"qz", "zq"},
		{strings.Repeat("g", 100) + "ing" + strings.Repeat("g", 100), "ing"},
	}
	for _, c := range cases {
		lit := []byte(c.lit)
		if got, want := indexRare([]byte(c.b), lit, rareByte(lit)), bytes.Index([]byte(c.b), lit); got != want {
			t.Errorf("indexRare(%.20q…, %q) = %d, want %d", c.b, c.lit, got, want)
		}
	}
	if j := rareByte([]byte("ing")); j != 2 {
		t.Errorf("rareByte(ing) = %d, want 2 (g)", j)
	}
}
