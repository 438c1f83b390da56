package regex

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/sandsh/sandsh/internal/suite"
)

// gnuCase is one expression checked against GNU grep -o or GNU sed
// (LC_ALL=C). want is grep's output (matches one per line, then "~" and
// its warnings) or sed's output; "!" starts an error. Sed tools: "S" and
// "SE" run 's/RE/[&]/g'; "SgN" and "SEgN" print N groups with
// 's/RE/<&|\1|...>/g'; "SM" and "SEM" run 'N;s/RE/[&]/Mg' on two lines.
// TestGNUTableOracle re-checks every want against the host tools.
type gnuCase struct {
	tool, pat, in, want string
}

var gnuTable = []gnuCase{
	{"G", "abc", "xabcx abc", "abc\nabc\n"},
	{"G", "a.c", "abc axc a\\nc", "abc\naxc\n"},
	{"G", "a*", "baaac", "aaa\n"},
	{"G", "ba*", "baaac b", "baaa\nb\n"},
	{"G", "*a", "x*a", "*a\n"},
	{"G", "^*a", "*a", "*a\n"},
	{"G", "\\(*a\\)", "*a", "*a\n"},
	{"G", "a\\|*b", "*b a", "*b\na\n"},
	{"G", "^a", "aa", "a\n"},
	{"G", "a$", "aa", "a\n"},
	{"G", "^^a", "^a", "^a\n"},
	{"G", "a$$", "a$", "a$\n"},
	{"G", "a$b", "a$b", "a$b\n"},
	{"G", "a^b", "a^b", "a^b\n"},
	{"G", "x*^a", "x*^a", "^a\n"},
	{"G", "\\(^a\\)", "a ba", "a\n"},
	{"G", "x\\|^a", "a", "a\n"},
	{"G", "a\\{2\\}", "aaaaa", "aa\naa\n"},
	{"G", "a\\{2,\\}", "aaaaa a aa", "aaaaa\naa\n"},
	{"G", "a\\{,2\\}", "aaaaa", "aa\naa\na\n"},
	{"G", "a\\{1,2\\}", "aaaaa", "aa\naa\na\n"},
	{"G", "a\\{2,1\\}", "a", "!Invalid content of \\{\\}"},
	{"G", "a\\{1", "a", "!Unmatched \\{"},
	{"G", "a\\{x\\}", "a", "!Invalid content of \\{\\}"},
	{"G", "a\\{1,x\\}", "a", "!Invalid content of \\{\\}"},
	{"G", "\\{1\\}a", "{1}a", "{1}a\n"},
	{"G", "\\+a", "+a", "+a\n"},
	{"G", "a\\+", "aaa", "aaa\n"},
	{"G", "a\\?b", "ab b", "ab\nb\n"},
	{"G", "ab\\?", "ab a", "ab\na\n"},
	{"G", "\\(ab\\)*", "ababx", "abab\n"},
	{"G", "\\(a\\|b\\)*c", "abbac", "abbac\n"},
	{"G", "\\(a\\)\\1", "aa ab", "aa\n"},
	{"G", "\\(a*\\)b\\1", "aabaa aab", "aabaa\nb\n"},
	{"G", "\\([a-z]\\)\\1", "hello book", "ll\noo\n"},
	{"G", "\\(a\\)\\2", "a", "!Invalid back reference"},
	{"G", "\\1", "a", "!Invalid back reference"},
	{"G", "\\(a", "a", "!Unmatched ( or \\("},
	{"G", "a\\)", "a", "!Unmatched ) or \\)"},
	{"G", "\\)", "a", "!Unmatched ) or \\)"},
	{"G", "[abc]", "xaybzc", "a\nb\nc\n"},
	{"G", "[^abc]", "xaybzc", "x\ny\nz\n"},
	{"G", "[a-c]*", "abcabd", "abcab\n"},
	{"G", "[]a]*", "]a]x", "]a]\n"},
	{"G", "[^]a]", "]ab", "b\n"},
	{"G", "[a-]*", "a-a-b", "a-a-\n"},
	{"G", "[a\\]]", "a]", "a]\n"},
	{"G", "[\\]", "a\\b", "\\\n"},
	{"G", "[[:alpha:]]*", "ab12cd", "ab\ncd\n"},
	{"G", "[[:digit:]]\\+", "ab12cd345", "12\n345\n"},
	{"G", "[[:space:]]", "a b\tc", " \n\t\n"},
	{"G", "[[:upper:][:digit:]]*", "AB12cd", "AB12\n"},
	{"G", "[[:punct:]]", "a.b,c!", ".\n,\n!\n"},
	{"G", "[[:xdigit:]]*", "0xDEADbeefg", "0\nDEADbeef\n"},
	{"G", "[[:alnum:]_]*", "foo_bar9-x", "foo_bar9\nx\n"},
	{"G", "[[:blank:]]", "a b\tc", " \n\t\n"},
	{"G", "[[:cntrl:]]", "ab", ""},
	{"G", "[[:print:]]*", "ab c", "ab c\n"},
	{"G", "[[:graph:]]*", "ab c", "ab\nc\n"},
	{"G", "[[:lower:]]*", "abCd", "ab\nd\n"},
	{"G", "[[:foo:]]", "x", "!Invalid character class name"},
	{"G", "[[:alpha:]", "a", "!Unmatched [, [^, [:, [., or [="},
	{"G", "[[:alpha", "a", "!Unmatched [, [^, [:, [., or [="},
	{"G", "[:space:]", "a b", "!character class syntax is [[:space:]], not [:space:]"},
	{"G", "[:a]", "a:", "a\n:\n"},
	{"G", "[a:]", "a:", "a\n:\n"},
	{"G", "[^", "a", "!Invalid regular expression"},
	{"G", "a[", "a", "!Invalid regular expression"},
	{"G", "[a", "a", "!Unmatched [, [^, [:, [., or [="},
	{"G", "[]", "a", "!Unmatched [, [^, [:, [., or [="},
	{"G", "[^]", "a", "!Unmatched [, [^, [:, [., or [="},
	{"G", "[]]", "]", "]\n"},
	{"G", "[[]", "[", "[\n"},
	{"G", "[[a]", "a[", "a\n[\n"},
	{"G", "[z-a]", "x", "!Invalid range end"},
	{"G", "[[.a.]]", "ba", "a\n"},
	{"G", "[[=a=]]", "ba", "a\n"},
	{"G", "[[.-.]]", "b-", "-\n"},
	{"G", "[[.space.]]", "x", "!Invalid collation character"},
	{"G", "[[:alpha:]-z]", "a", "!Invalid range end"},
	{"G", "[a-[:alpha:]]", "a", "!Invalid range end"},
	{"G", "[%--]*", "%+,-", "%+,-\n"},
	{"G", "[--@]*", "-./@", "-./@\n"},
	{"G", "\\w*", "foo_bar9-x", "foo_bar9\nx\n"},
	{"G", "\\W", "foo bar-x", " \n-\n"},
	{"G", "\\s", "a b", " \n"},
	{"G", "\\S*", "ab cd", "ab\ncd\n"},
	{"G", "\\bfoo\\b", "foo foobar barfoo foo", "foo\nfoo\n"},
	{"G", "\\Boo\\B", "foo fooo", "oo\n"},
	{"G", "\\<foo", "foo xfoo foo", "foo\nfoo\n"},
	{"G", "foo\\>", "foo foox foo", "foo\nfoo\n"},
	{"G", "\\<.", "ab cd", "a\nc\n"},
	{"G", ".\\>", "ab cd", "b\nd\n"},
	{"G", "\\<[a-z]*\\>", "ab cd9 ef", "ab\nef\n"},
	{"G", "\\`a", "aa", "a\n"},
	{"G", "a\\'", "aa", "a\n"},
	{"G", "a\\tb", "atb", "atb\n"},
	{"G", "a\\nb", "anb", "anb\n"},
	{"G", "\\d", "d1", "d\n"},
	{"G", "\\.", "a.b", ".\n"},
	{"G", "a\\", "a", "!Trailing backslash"},
	{"G", "\\/", "a/b", "/\n"},
	{"G", "\\%", "%", "%\n"},
	{"G", "a.b", "a\xffb", "a\xffb\n"},
	{"G", "x\\|y\\|z", "xyzw", "x\ny\nz\n"},
	{"G", "ab\\|abc", "abcd", "abc\n"},
	{"G", "\\(a\\|ab\\)\\(c\\|bcd\\)", "abcd", "abcd\n"},
	{"G", "\\(a*\\)*", "b", ""},
	{"G", "\\(a*\\)\\+b", "aab", "aab\n"},
	{"G", "a**", "aaa", "aaa\n"},
	{"G", "a\\{1,2\\}\\{2\\}", "aaaaa", "aaaa\n"},
	{"G", "", "abc", ""},
	{"G", "a\\{1,2\\}\\?", "aaa", "aa\na\n"},
	{"G", "[a-z]\\{3\\}", "abcdefg", "abc\ndef\n"},
	{"G", "a\\{0\\}b", "ab", "b\n"},
	{"E", "a+", "baaa", "aaa\n"},
	{"E", "a?b", "ab b", "ab\nb\n"},
	{"E", "(ab)+", "ababx", "abab\n"},
	{"E", "a|b", "abc", "a\nb\n"},
	{"E", "(a|b)*c", "abbac", "abbac\n"},
	{"E", "a{2}", "aaaaa", "aa\naa\n"},
	{"E", "a{2,}", "aaaaa", "aaaaa\n"},
	{"E", "a{,2}", "aaaaa", "aa\naa\na\n"},
	{"E", "a{1", "a{1", "a{1\n"},
	{"E", "{", "{", ""},
	{"E", "a{1,2", "a{1,2", "a{1,2\n"},
	{"E", "a{1a}", "a{1a}", "a{1a}\n"},
	{"E", "a{2,1}", "a", "!Invalid content of \\{\\}"},
	{"E", "a{x}", "a{x}", "a{x}\n"},
	{"E", "*a", "x*a", "a\n~* at start of expression"},
	{"E", "(*a)", "x*a", "a\n~* at start of expression"},
	{"E", "+a", "x+a", "a\n~+ at start of expression"},
	{"E", "a|*b", "*b", "b\n~* at start of expression"},
	{"E", "^*", "*", "~* at start of expression"},
	{"E", "a**", "aaa", "aaa\n"},
	{"E", "a+?", "aaa", "aaa\n"},
	{"E", "a{2}{3}", "aaaaaaa", "aaaaaa\n"},
	{"E", "()", "x", ""},
	{"E", "a|", "x", ""},
	{"E", "(|a)b", "ab b", "ab\nb\n"},
	{"E", "(a", "a", "!Unmatched ( or \\("},
	{"E", "a)", "a)", "a)\n"},
	{"E", ")", ")", ")\n"},
	{"E", "a^", "a^", ""},
	{"E", "$a", "$a", ""},
	{"E", "(^a)", "a ba", "a\n"},
	{"E", "x*^a", "x*^a", ""},
	{"E", "(a)\\1", "aa ab", "aa\n"},
	{"E", "(a)(b)\\2\\1", "abba", "abba\n"},
	{"E", "\\(a\\)", "(a)", "(a)\n"},
	{"E", "\\{", "{", "{\n"},
	{"E", "[[:alpha:]]+", "ab12cd", "ab\ncd\n"},
	{"E", "\\<foo\\>", "foo foox", "foo\n"},
	{"E", ".*", "abc", "abc\n"},
	{"E", "(a*)(b*)", "aabb", "aabb\n"},
	{"E", "(a|ab)(c|bcd)(d*)", "abcd", "abcd\n"},
	{"E", "x{0}y", "xy", "y\n"},
	{"E", "a{1,2}b{1,2}", "aabbb", "aabb\n"},
	{"E", "(foo|foobar)baz", "foobarbaz", "foobarbaz\n"},
	{"F", "a.c", "abc a.c", "a.c\n"},
	{"F", "*", "a*b*", "*\n*\n"},
	{"F", "[", "a[b", "[\n"},
	{"F", "\\", "a\\b", "\\\n"},
	{"F", "a\\|b", "a\\|b ab", "a\\|b\n"},
	{"Gi", "abc", "ABC aBc xyz", "ABC\naBc\n"},
	{"Gi", "[a-c]*", "ABCabcD", "ABCabc\n"},
	{"Gi", "[[:upper:]]", "aBc", "a\nB\nc\n"},
	{"Gi", "[[:lower:]]", "aBc", "a\nB\nc\n"},
	{"Ei", "(foo|BAR)+", "FOObarxFoo", "FOObar\nFoo\n"},
	{"Gi", "\\(a\\)\\1", "aA Aa", "aA\nAa\n"},
	{"Fi", "HeLLo", "hello HELLO hElLo", "hello\nHELLO\nhElLo\n"},
	{"Gw", "foo", "foo foobar foo_x xfoo foo-bar", "foo\nfoo\n"},
	{"Gw", "foo", "foofoo foo", "foo\n"},
	{"Gw", "a.c", "abc abcd xabc abc", "abc\nabc\n"},
	{"Gw", "foo.*", "foo bar_", "foo bar_\n"},
	{"Gw", "a.*b", "a b bc", "a b\n"},
	{"Gw", "@foo", "a@foo @foo", "@foo\n"},
	{"Gw", "foo@", "foo@a foo@", "foo@\n"},
	{"Ew", "foo|foobar", "foobar foo", "foobar\nfoo\n"},
	{"Ew", "[0-9]+", "12a 34 b56 78", "34\n78\n"},
	{"Ew", "(a)\\1", "aa aab aa", "aa\naa\n"},
	{"Gw", "\\(a\\)\\1", "aa aab aa", "aa\naa\n"},
	{"Gw", "x*", "a", ""},
	{"Fw", "foo", "foo foobar", "foo\n"},
	{"Gx", "abc", "abc", "abc\n"},
	{"Gx", "abc", "abcd", ""},
	{"Gx", "a\\|ab", "ab", "ab\n"},
	{"Ex", "a|ab", "ab", "ab\n"},
	{"Ex", "(a)\\1", "aa", "aa\n"},
	{"Gx", "a*", "aaa", "aaa\n"},
	{"P", "a+?", "aaa", "a\na\na\n"},
	{"P", "\\d+", "ab123c45", "123\n45\n"},
	{"P", "(?<=a)b", "ab cb", "b\n"},
	{"P", "(a)\\1", "aa ab", "aa\n"},
	{"P", "a(?=b)", "ab ac", "a\n"},
	{"P", "\\bfoo\\b", "foo foobar", "foo\n"},
	{"P", "(?i)abc", "ABC", "ABC\n"},
	{"P", "a|ab", "ab", "a\n"},
	{"P", "[[:alpha:]]+", "ab1cd", "ab\ncd\n"},
	{"P", "\\w+", "foo bar", "foo\nbar\n"},
	{"P", "(", "a", "!missing closing parenthesis"},
	{"P", "a++b", "aab", "aab\n"},
	{"P", "(?>a+)b", "aab", "aab\n"},
	{"Pw", "foo", "foo foobar", "foo\n"},
	{"S", "a*", "baaac", "[]b[aaa]c[]"},
	{"S", "b*", "abc", "[]a[b]c[]"},
	{"S", "x*", "abc", "[]a[]b[]c[]"},
	{"S", "\\(a\\)\\1", "aab", "[aa]b"},
	{"S", "[\\n]", "a\\nb", "a\\nb"},
	{"S", "[\\t]", "a\tb", "a[\t]b"},
	{"S", "\\t", "a\tb", "a[\t]b"},
	{"S", "a\\{,2\\}", "aaaaa", "[aa][aa][a]"},
	{"S", "*a", "*a", "[*a]"},
	{"S", "x*^a", "x*^a", "x*[^a]"},
	{"S", "\\(*a\\)", "*a", "[*a]"},
	{"S", "a\\|*b", "*b", "[*b]"},
	{"S", "\\x2e", "a.b", "[a][.][b]"},
	{"S", "a\\x2eb", "axb", "[axb]"},
	{"S", "\\o056", "a.b", "[a][.][b]"},
	{"S", "\\d046", "a.b", "[a][.][b]"},
	{"S", "\\cA", "a", "a"},
	{"S", "[\\\\]", "a\\b", "a[\\]b"},
	{"S", "[\\]]", "a\\]b", "a[\\]]b"},
	{"S", "[:a:]", "a", "!character class syntax is [[:space:]], not [:space:]"},
	{"S", "\\+a", "+a", "[+a]"},
	{"S", "\\(a\\|b\\)*", "ab", "[ab]"},
	{"S", "a\\)", "a", "!Unmatched ) or \\)"},
	{"SE", "a{,2}", "aaaaa", "[aa][aa][a]"},
	{"SE", "x*^a", "x*^a", "x*^a"},
	{"SE", "a$b", "a$b", "a$b"},
	{"SE", "a|*b", "*b", "!Invalid preceding regular expression"},
	{"SE", "(*a)", "*a", "!Invalid preceding regular expression"},
	{"SE", "a{1,2}{2}", "aaaaa", "[aaaa]a"},
	{"SE", "^*a", "*a", "!Invalid preceding regular expression"},
	{"SE", "a+?", "aaa", "[aaa]"},
	{"SE", "x{1}{", "x{", "!Unmatched \\{"},
	{"SE", "a{1", "a{1", "!Unmatched \\{"},
	{"SE", "a{", "a{", "!Unmatched \\{"},
	{"SE", "a)", "a)", "!Unmatched ) or \\)"},
	{"SE", "()b", "ab", "a[b]"},
	{"SE", "a**", "aaa", "[aaa]"},
	{"SE", "\\(", "(", "[(]"},
	{"SE", "*a", "*a", "!Invalid preceding regular expression"},
	{"SE", "(a|ab)(c|bcd)(d*)", "abcd", "[abcd]"},
	{"SE", "(a)\\1", "aa", "[aa]"},
	{"SE", "\\<b", "ab b", "ab [b]"},
	{"SE", "b\\>", "ab ba", "a[b] ba"},
	{"SE", "\\bb", "ab b", "ab [b]"},
	{"SE", "\\Bb", "ab b", "a[b] b"},
	{"SE", "\\`a", "aa", "[a]a"},
	{"SE", "a\\'", "aa", "a[a]"},
	{"SE", "[[:space:]]+", "a  b", "a[  ]b"},
	{"SE", "\\s+", "a  b", "a[  ]b"},
	{"SE", "\\w+", "a  b", "[a]  [b]"},
	{"Sg1", "\\(a*\\)b", "aab b", "<aab|aa> <b|>"},
	{"Sg2", "\\(a\\)\\(b\\)\\?", "a ab", "<a|a|> <ab|a|b>"},
	{"Sg1", "\\(a\\|ab\\)c", "abc", "<abc|ab>"},
	{"Sg2", "\\([a-z]*\\)-\\([0-9]*\\)", "foo-12 bar-", "<foo-12|foo|12> <bar-|bar|>"},
	{"Sg1", "\\(x\\)*", "xxx", "<xxx|x>"},
	{"Sg2", "\\(a*\\)\\(a\\|b\\)*", "aab", "<aab|aa|b>"},
	{"Sg1", "\\(.\\)\\1", "hello book", "he<ll|l>o b<oo|o>k"},
	{"SEg3", "(a|ab)(c|bcd)(d*)", "abcd", "<abcd|a|bcd|>"},
	{"SEg2", "(a+)(b+)?", "aab a", "<aab|aa|b> <a|a|>"},
	{"SEg1", "((a)|b)+", "ab", "<ab|b>"},
	{"SEg2", "((a)|b)+", "ab", "<ab|b|a>"},
	{"SEg1", "(foo|bar)*baz", "foobarbaz", "<foobarbaz|bar>"},
	{"SEg2", "(.*)=(.*)", "key=val=x", "<key=val=x|key=val|x>"},
	{"SEg1", "()", "ab", "<|>a<|>b<|>"},
	{"SEg1", "(a?)", "ba", "<|>b<a|a>"},
	{"SEg2", "(a)?(b)?", "b", "<b||b>"},
	{"SM", "^b", "a\nb", "a\n[b]"},
	{"SM", "a$", "a\nb", "[a]\nb"},
	{"SM", "a.b", "a\nb", "a\nb"},
	{"SM", "[^x]*", "a\nb", "[a]\n[b]"},
	{"SM", "a\\sb", "a\nb", "[a\nb]"},
	{"SM", "\\`a", "a\nb", "[a]\nb"},
	{"SM", "b\\'", "a\nb", "a\n[b]"},
	{"SM", "^", "a\nb", "[]a\n[]b"},
	{"SM", "$", "a\nb", "a[]\nb[]"},
	{"SEM", "^(a|b)$", "a\nb", "[a]\n[b]"},
	{"SEM", "a|^b", "a\nb", "[a]\n[b]"},
	{"G", "\\(a\\)\\|\\1", "a", "!Invalid back reference"},
	{"G", "\\(a\\)\\|b\\1", "a", "!Invalid back reference"},
	{"G", "\\(\\(a\\)\\|\\2\\)", "a", "!Invalid back reference"},
	{"G", "\\(a\\)\\(b\\|\\1\\)", "aa", "aa\n"},
	{"E", "(a)|\\1", "a", "!Invalid back reference"},
	{"E", "(a)(b|\\1)", "aa", "aa\n"},
	{"S", "\\(a\\)\\|\\1", "a", "!Invalid back reference"},
	{"SM", "\\W", "a\nb", "a[\n]b"},
	{"SEM", "\\W+", "a.\n.b", "a[.\n.]b"},
	{"SM", "[^a]", "a\nb", "a\n[b]"},
	{"SM", "\\S\\+", "ab\ncd", "[ab]\n[cd]"},
	{"SEg1", "(a*){1,2}", "a xaab aa", "<a|a> <|>x<aa|aa>b<|> <aa|aa>"},
	{"SEg1", "(a*){1,2}a", "aa a", "<aa|a> <a|>"},
	{"SEg1", "\\W*(a*){1,2}[^a]+", "ab.ax ", "<ab.|a><ax |a>"},
	{"Sg1", "\\(a*\\)\\{1,2\\}\\W*", "xcbb1\\t.1a", "<|>x<|>c<|>b<|>b<|>1<\\|>t<.|>1<a|a>"},
	{"SEg1", "(a*)?b", "b ab", "<b|> <ab|a>"},
	{"SEg2", "((a)|b)*", "ab aab", "<ab|b|a> <aab|b|a>"},
	{"Sg1", "\\(a\\)\\?[a-c]\\+", "ac_", "<ac|a>_"},
	{"SEg2", "(a*)* *(ab|c)?[a-c]*", "c\\tcb1A1", "<c||c>\\<||>t<cb||c>1<||>A<||>1<||>"},
	{"Sg2", "\\(a\\)\\?\\n\\?\\(a*\\)[^a]*", " axb", "< ||><axb|a|>"},
	{"Sg1", "\\(a*\\)\\?a\\?", "a1_", "<a|a>1<|>_<|>"},
}

// gnuTool maps a table tool name to the host command line.
func gnuTool(tool, pat string) []string {
	flags := map[string][]string{
		"G": {}, "E": {"-E"}, "F": {"-F"}, "P": {"-P"}, "Gi": {"-i"}, "Ei": {"-Ei"},
		"Gw": {"-w"}, "Ew": {"-Ew"}, "Gx": {"-x"}, "Ex": {"-Ex"}, "Fi": {"-Fi"},
		"Fw": {"-Fw"}, "Pw": {"-Pw"}, "S": {}, "SE": {"-E"},
	}[tool]
	if strings.HasPrefix(tool, "S") {
		sed := []string{"sed"}
		if strings.HasPrefix(tool, "SE") {
			sed = append(sed, "-E")
		}
		switch {
		case strings.HasSuffix(tool, "M"):
			return append(sed, "N;s/"+pat+"/[&]/Mg")
		case strings.Contains(tool, "g"):
			rhs := "<&"
			for i := 1; i <= int(tool[len(tool)-1]-'0'); i++ {
				rhs += "|\\" + string(rune('0'+i))
			}
			return append(sed, "s/"+pat+"/"+rhs+">/g")
		}
		return append(sed, "s/"+pat+"/[&]/g")
	}
	return append(append([]string{"grep", "-o"}, flags...), "-e", pat)
}

func listOptions(tool string) ListOptions {
	o := ListOptions{Syntax: BRE, Lines: true}
	switch tool[0] {
	case 'E':
		o.Syntax = ERE
	case 'F':
		o.Syntax = Fixed
	case 'P':
		o.Syntax = PCRE
	}
	switch tool[len(tool)-1] {
	case 'i':
		o.IgnoreCase = true
	case 'w':
		o.Whole = WholeWord
	case 'x':
		o.Whole = WholeLine
	}
	return o
}

// ours computes what the GNU tool would print for c.
func ours(c gnuCase) string {
	line := []byte(c.in)
	if strings.HasPrefix(c.tool, "S") {
		f := Flags{Syntax: BRE, Multiline: strings.HasSuffix(c.tool, "M")}
		if strings.HasPrefix(c.tool, "SE") {
			f.Syntax = ERE
		}
		re, err := Compile(c.pat, f)
		if err != nil {
			return "!" + err.Error()
		}
		groups := 0
		if strings.Contains(c.tool, "g") {
			groups = int(c.tool[len(c.tool)-1] - '0')
		}
		var out bytes.Buffer
		last := 0
		for _, m := range re.FindAllSubmatchIndex(line, -1) {
			out.Write(line[last:m[0]])
			if groups == 0 {
				out.WriteString("[" + string(line[m[0]:m[1]]) + "]")
			} else {
				out.WriteString("<" + string(line[m[0]:m[1]]))
				for g := 1; g <= groups; g++ {
					out.WriteString("|")
					if m[2*g] >= 0 {
						out.Write(line[m[2*g]:m[2*g+1]])
					}
				}
				out.WriteString(">")
			}
			last = m[1]
		}
		out.Write(line[last:])
		return out.String()
	}
	re, err := CompileList([]string{c.pat}, listOptions(c.tool))
	if err != nil {
		return "!" + err.Error()
	}
	var out strings.Builder
	for _, m := range re.FindAllIndex(line, -1) {
		if m[1] > m[0] {
			out.WriteString(string(line[m[0]:m[1]]) + "\n")
		}
	}
	if w := re.Warnings(); len(w) > 0 {
		out.WriteString("~" + strings.Join(w, "\n"))
	}
	return out.String()
}

func TestGNUTable(t *testing.T) {
	for _, c := range gnuTable {
		if got := ours(c); got != c.want {
			t.Errorf("%s %q on %q:\n got %q\nwant %q", c.tool, c.pat, c.in, got, c.want)
		}
	}
}

// TestGNUTableOracle checks the table itself against the host's GNU tools.
func TestGNUTableOracle(t *testing.T) {
	for _, tool := range []string{"grep", "sed"} {
		if _, err := exec.LookPath(tool); err != nil {
			suite.Skip(t, tool, "GNU %s is the oracle", tool)
		}
	}
	for _, c := range gnuTable {
		args := gnuTool(c.tool, c.pat)
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin"}
		cmd.Stdin = strings.NewReader(c.in + "\n")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		got := stdout.String()
		msg := strings.TrimSpace(stderr.String())
		switch {
		case err != nil && (args[0] == "sed" || cmd.ProcessState.ExitCode() == 2):
			if i := strings.LastIndex(msg, ": "); i >= 0 && args[0] == "sed" {
				msg = msg[i+2:]
			}
			got = "!" + strings.TrimPrefix(msg, "grep: ")
		case args[0] == "sed":
			got = strings.TrimSuffix(got, "\n")
		case msg != "":
			got += "~" + strings.ReplaceAll(msg, "grep: warning: ", "")
		}
		if got != c.want {
			t.Errorf("%v on %q: host says %q, table %q", args, c.in, got, c.want)
		}
	}
}
