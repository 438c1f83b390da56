package builtins

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sandsh/sandsh/internal/suite"
)

// Input shared by the sed differential cases.
var (
	sedWords  = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n"
	sedSpaced = "  lead\ttab\ntrail   \n\n\n  both  \nfoo bar foo baz foo\n\nlast line\n"
	sedProse  = "The quick brown fox\njumps over the lazy dog.\n\nPara two AAA\nmore BBB text\nCCC here\n\n\nscarlet ruby puce\n1234567 and 89\n"
	sedDups   = "a\na\nb\nc\nc\nc\nd\na\n"
	sedFiles  = map[string]string{
		"w.txt":      sedWords,
		"s.txt":      sedSpaced,
		"p.txt":      sedProse,
		"d.txt":      sedDups,
		"nonl.txt":   "alpha\nbeta",
		"ins.txt":    "INSERTED 1\nINSERTED 2\n",
		"ins2.txt":   "R1\nR2\nR3",
		"empty":      "",
		"f1":         "a\nb\n",
		"f2":         "c\nd\n",
		"script.sed": "# a comment\n/two/,/four/{\n  s/o/0/g\n  p\n}\n$a\\\nEND\n",
		"quiet.sed":  "#n\n/e/p\n",
		"bad.sed":    "p\ns/x/\n",
		"ctl.txt":    "tab\there\x01\x7f\\back \xe9t\xc3\xa9\n" + strings.Repeat("x", 150) + "\n",
		"nul.txt":    "one\x00two\x00three\nstill three\x00",
		"dir/":       "",
	}
)

// sedCase is a differential case on the shared files, with the words as
// standard input.
func sedCase(args ...string) diffCase {
	return diffCase{Args: append([]string{"sed"}, args...), Files: sedFiles, Stdin: sedWords}
}

// sedIn is sedCase with other standard input.
func sedIn(stdin string, args ...string) diffCase {
	c := sedCase(args...)
	c.Stdin = stdin
	return c
}

func TestSedDiffBasics(t *testing.T) {
	runDiff(t, []diffCase{
		sedCase("p"), sedCase("-n", "p"), sedCase("-n", "3p"), sedCase("-n", "$p"), sedCase("3d"),
		sedCase("$d"), sedCase("2,4d"), sedCase("-n", "2,4p"), sedCase("-n", "/t/p"), sedCase("/e/d"),
		sedCase("-n", "/^t/,/^f/p"), sedCase("-n", "0,/o/p"), sedCase("-n", "1,/o/p"), sedCase("-n", "2,+2p"),
		sedCase("-n", "5,~4p"), sedCase("-n", "4,~4p"), sedCase("-n", "1~3p"), sedCase("-n", "0~4p"), sedCase("-n", "2~0p"),
		sedCase("-n", "4,2p"), sedCase("-n", "$!p"), sedCase("-n", "2,4!p"), sedCase("-n", "/two/,+1!p"),
		sedCase("-n", "\\,e,p"), sedCase("-n", "\\%^t%p"), sedCase("-n", "/T/Ip"), sedCase("="), sedCase("-n", "$="),
		sedCase("-n", "/e/="), sedCase("q"), sedCase("3q"), sedCase("3q5"), sedCase("3Q"), sedCase("3Q7"), sedCase("-n", "3q"),
		sedCase("-n", "l"), sedCase("-n", "n;p"), sedCase("n;d"), sedCase("$!N;s/\\n/ /"), sedCase("N;N;s/\\n/+/g"),
		sedCase("N"), sedCase("-n", "$!{h;d};x;G;p"), sedCase("1!G;h;$!d"), sedCase("-n", "1!G;h;$p"), sedCase("G"),
		sedCase("G;G"), sedCase("x"), sedCase("h;x;x"), sedCase("z;s/^$/empty/"), sedCase("-n", "F"),
		sedCase("-s", "-n", "$p", "f1", "f2"), sedCase("-n", "$p", "f1", "f2"), sedCase("-n", "1p", "f1", "f2"),
		sedCase("-s", "1d", "f1", "f2"), sedCase("F", "f1", "-", "f2"), sedCase("=", "f1", "f2"), sedCase("-s", "=", "f1", "f2"),
		sedCase("-s", "1,/c/d", "f1", "f2"), sedCase("/a/,/zz/d", "f1", "f2"), sedCase("-s", "/a/,/zz/d", "f1", "f2"),
		sedCase("-n", "$p", "f1", "empty"), sedCase("-n", "$p", "f1", "empty", "empty"), sedCase("$d", "f1", "nosuch"),
		sedCase("p", "nosuch", "f1"), sedCase("p", "dir"), sedCase("-n", "$=", "w.txt", "s.txt", "p.txt"),
		sedCase("-s", "-n", "$=", "w.txt", "s.txt", "p.txt"), sedCase("-s", "1h;2G", "f1", "f2"), sedCase("1h;3G", "f1", "f2"),
		sedCase("-n", "2{p;n;n;n};4p"), sedCase("-n", "n;1,3p"), sedCase("-n", "2,4{p;n;n;n}"), sedCase("2,4{n;n;d}"),
		sedCase("-n", "/two/,4{=;p}"), sedCase("-n", "/five/,3p"), sedCase("-n", "/o/,/o/p"), sedCase("-n", "0,/one/p"),
		sedCase("-n", "1,/one/p"), sedCase("-n", "2,+0p"), sedCase("-n", "2,~0p"), sedCase("-n", "/e/,+1p"), sedCase("-n", "/e/,~3p"),
		sedCase("-n", "$,/x/p"), sedCase("-n", "3,$p"), sedCase("-n", "3,${p}"), sedCase("--expression=3p", "-n"),
		sedCase("-ne", "3p", "-e", "5p"), sedIn("aa\n", "-e", "s/(a)/[\\1]/", "-E"), sedIn("aa\n", "s/(a)/[\\1]/", "-E"),
		sedIn("a+\n", "-e", "s/a+/X/", "-E", "-e", "s/X+/Y/"), sedIn("a+\n", "-E", "-e", "s/a+/X/"), sedCase("--quiet", "-e", "$p"), sedCase("--silent", "7p"),
	})
}

func TestSedDiffSubst(t *testing.T) {
	runDiff(t, []diffCase{
		sedCase("s/o/0/"), sedCase("s/o/0/g"), sedCase("s/e/E/2"), sedCase("s/e/E/2g"), sedCase("s/[aeiou]/#/3"),
		sedCase("s/e/E/gp"), sedCase("-n", "s/e/E/p"), sedCase("-n", "s/e/E/gpw /dev/stdout"), sedCase("s/O/0/I"),
		sedCase("s/O/0/ig"), sedCase("s/\\(.\\)\\(.\\)/\\2\\1/"), sedCase("-E", "s/(.)(.)/\\2\\1/"), sedCase("-r", "s/(t|f)(.)/[\\2\\1]/g"),
		sedCase("s/.*/[&]/"), sedCase("s/.*/[\\&]/"), sedCase("s/e/\\n/"), sedCase("s/e/\\t/g"), sedCase("s/e/a\\\nb/"),
		sedCase("s/x*/-/g"), sedIn("baaac\nbaaa\n", "s/a*/x/g"), sedIn("abc\n", "s/b*/X/2"), sedIn("hello world\n", "s/o/0/3"),
		sedCase("s/\\w\\+/\\u&/g"), sedCase("s/.*/\\U&/"), sedCase("s/\\(.\\)\\(.*\\)/\\2\\U\\1/"), sedCase("s/o/\\Ubar\\Ebaz/"),
		sedCase("s/\\(t\\)\\(w\\)/\\u\\L\\1\\2X/"), sedIn("foo bar\n", "s/\\(x*\\)\\(b\\)/\\u\\1\\2/"), sedIn("HELLO World\n", "s/\\w\\+/\\L\\u&/g"),
		sedIn("hello world\n", "s/\\w\\+/\\U\\l&/g"), sedIn("ab\n", "s/\\(a\\)\\(b\\)/\\U\\1\\E\\2/"), sedCase("s/[[:alpha:]]\\{3\\}/<&>/"),
		sedCase("-E", "s/[[:alpha:]]{4,}/<&>/"), sedCase("s/e\\+/E/"), sedCase("s/x\\?e/E/g"), sedCase("s/t\\|f/_/g"),
		sedCase("-E", "s/t|f/_/g"), sedCase("-E", "s/(e)\\1/X/"), sedIn("aa bb cd\n", "s/\\(.\\)\\1/<&>/g"),
		sedCase("s/\\<t/T/g"), sedCase("s/e\\>/E/g"), sedCase("s/\\bf/F/"), sedCase("s/\\Bo/O/g"), sedCase("s/^/> /"),
		sedCase("s/$/ </"), sedCase("s/\\`t/T/"), sedIn("a.b axb\n", "s.a\\.b.X.g"), sedIn("a|b\n", "s|a\\|b|X|g"),
		sedIn("a/b\n", "s/[/]/x/"), sedIn("a]/b\n", "s/[]/]/x/g"), sedIn("path/to/file\n", "s,/,\\\\,g"), sedIn("a&b\n", "s&\\&&x&"),
		sedCase("s/o//g"), sedCase("s/^..//"), sedCase("s/..$//"), sedIn("aaa\n", "s/^a/x/g"), sedIn("aaa\n", "s/a$/x/g"),
		sedIn("x\n", "s/x/\\x41\\x26\\d066\\o103/"), sedIn("a*b\n", "s/\\x2a/S/"), sedIn("aaa.b\n", "s/a\\x2e/X/"),
		sedIn("a\tb\n", "s/[\\t]/T/"), sedIn("anb\n", "s/[\\n]/T/"), sedIn("a\\b\n", "s/\\\\/|/"), sedIn("x\n", "s/x/\\cA\\ca/"),
		sedCase("s/e/E/;s//F/"), sedCase("/t/s//T/g"), sedCase("-n", "/o/{s//0/gp}"), sedIn("foo\nbar\n", "N;s/o.b/X/"),
		sedIn("foo\nbar\n", "N;s/o$/X/M"), sedIn("foo\nbar\n", "N;s/^b/X/M"), sedIn("foo\nbar\n", "N;s/o$/X/"),
		sedIn("foo\nbar\n", "N;s/[^a]*/X/"), sedIn("a b\n", "s/ /\\\n/"), sedCase("s/e/&&/3"), sedCase("s/\\(o\\)\\|\\(e\\)/[\\1\\2]/g"),
		sedIn("abcabc\n", "s/b/X/2;s/c/Y/"), sedCase("s/e/E/w out"), sedCase("s/e/E/w /dev/stdout"),
		sedIn("one two  three\n", "s/ \\+/\\n/g"), sedIn("x\n", "s/x/a\\\\b/"), sedIn("x\n", "s/x/[\\/]/"),
		sedIn("1234567 and 89\n", ":a;s/\\B[0-9]\\{3\\}\\>/,&/;ta"), sedCase("s/.*/\"&\"/;s/\"/'/2"),
		sedIn("\xe9t\xe9\n", "s/t/T/"), sedCase("s/[^aeiou]//g"),
		sedIn("x y\n", "s/\\s/_/;s/\\S/#/g"), sedIn("foo_1 bar-2\n", "s/\\W/|/g;s/\\w/w/"),
	})
}

func TestSedDiffCommands(t *testing.T) {
	runDiff(t, []diffCase{
		sedCase("2i\\\ninserted"), sedCase("2a\\\nappended"), sedCase("2c\\\nchanged"), sedCase("2,4c\\\nchanged"),
		sedCase("2,4!c\\\nX"), sedCase("$!c\\\nX"), sedCase("/e/c\\\nX"), sedCase("2a  one-liner  "), sedCase("2i\\  kept"),
		sedCase("a\\"), sedCase("$a\\\nfirst\\\nsecond"), sedCase("1i\\\n   lead\\\n\\ttab"), sedCase("a foo\\nbar\\tz"),
		sedCase("a\\foo"), sedCase("a\\\\foo"), sedCase("1{a foo\n}"), sedCase("a foo; p"), sedCase("a\np"),
		sedCase("-e", "a\\", "-e", "  two"), sedCase("-e", "a one\\", "-e", "two"), sedCase("-e", "1i\\", "-e", "x\\", "-e", "y"),
		sedCase("3{x;p;x}"), sedCase("y/abcdefghijklmnopqrstuvwxyz/ABCDEFGHIJKLMNOPQRSTUVWXYZ/"), sedCase("y/eo/oe/"),
		sedIn("a\\c\n", "y/a\\\\c/xyz/"), sedIn("a\tc\n", "y/\\t/T/"), sedIn("abc\n", "y/abc/\\n\\t\\\\/"), sedCase("N;y/\\n/|/"),
		sedIn("a/b\n", "y,/,|,"), sedCase("-n", "/two/{n;p}"), sedCase("-n", "/four/{g;1!p};h"), sedCase("2r ins.txt"),
		sedCase("$r ins.txt"), sedCase("r ins2.txt"), sedCase("r nosuch"), sedCase("R ins2.txt"), sedCase("1R ins.txt"),
		sedCase("R nosuch"), sedCase("2{R ins.txt\nR ins.txt\n}"), sedCase("-n", "w /dev/stdout"), sedCase("W /dev/stdout"),
		sedCase("N;W /dev/stdout"), sedCase("N;P;D"), sedCase("$!N;P;D"), sedCase("N;D"), sedCase("-e", "1a foo", "-e", "$!N;P;D"),
		sedCase("-e", "1a foo", "-e", "N;P;D"), sedCase("-n", "N;l"), sedCase("l 5"), sedCase("-n", "l 1"), sedCase("-n", "l 0"),
		sedCase("-l", "8", "-n", "l"), sedCase("-n", "l", "ctl.txt"), sedCase("-n", "l 20", "ctl.txt"), sedCase("-n", "$!{p;b};s/$/!/p"),
		sedCase(":a;N;$!ba;s/\\n/,/g"), sedCase("-n", ":a;/e/{s/e/E/;ta};p"), sedCase("s/e/E/;T;s/$/ (had e)/"), sedCase("s/e/E/;t;s/$/ (no e)/"),
		sedCase("s/e/E/;tx;s/$/ -/;:x"), sedCase("bend;s/^/X/;:end"), sedCase("b;p"), sedCase("2{b};s/^/-/"), sedCase("-n", "/t/{/o/p}"),
		sedCase("-n", "/t/!{/o/p}"), sedCase("2!{s/^/x/}"), sedCase("1~2{N;s/\\n/ /}"), sedCase("$!{N};P;D"),
		sedCase("#n\n3p"), sedCase("-n", "#n\np"), sedCase("#nfoo\n3p"), sedCase("  #n\n3p"), sedCase("-f", "script.sed"),
		sedCase("-f", "quiet.sed"), sedCase("-f", "script.sed", "-e", "1d"), sedCase("-e", "1d", "-f", "script.sed"),
		sedCase("-s", "F", "f1", "f2"), sedCase("2q", "f1", "f2"), sedCase("-n", "/b/{p;q}", "f1", "f2"), sedCase("-e", "1a foo", "-e", "1q"),
		sedCase("-e", "1r ins.txt", "-e", "1q"), sedCase("-e", "2i foo", "-e", "2Q"), sedCase("v 4.2"), sedCase("v"),
		sedCase("--posix", "-n", "2p"), sedCase("--posix", "s/o/\\n/"), sedCase("-z", "s/^./X/"), sedCase("-z", "s/\\n/,/g"),
		sedCase("-z", "-n", "l;=", "nul.txt"), sedCase("-z", "N;s/\\x00/|/", "nul.txt"), sedCase("-z", "$!d", "nul.txt"),
		sedCase("-z", "i\\\nfoo", "nul.txt"), sedCase("-s", "-n", "$=", "nul.txt", "nonl.txt"), sedCase("p", "nonl.txt"),
		sedCase("-n", "p", "nonl.txt"), sedCase("$a end", "nonl.txt"), sedCase("$i ins", "nonl.txt"), sedCase("x", "nonl.txt"),
		sedCase("G", "nonl.txt"), sedCase("N;P;D", "nonl.txt"), sedCase("$!N;s/\\n/-/", "nonl.txt"), sedCase("p", "nonl.txt", "f1"),
		sedCase("r nonl.txt", "f1"), sedCase("R nonl.txt", "f1"), sedCase("-u", "p"), sedCase("--unbuffered", "-n", "2,3p"),
		{Args: []string{"sed", "--debug", "-n", "$p"}, Stdin: sedWords, SkipStdout: "--debug is accepted and ignored: GNU's program and cycle trace is not reproduced (README known gaps)"}, sedCase("-n", "/e/{p;p}"), sedCase("{;p;}"), sedCase("{p};{p}"), sedCase("1{2p}"),
		sedCase("y/abc/xyz/;s/x/X/"), sedCase(":a\n$q;N;4,$D;ba"), sedCase("$!d"), sedCase("-n", "$p;2p"),
		sedCase("e"), sedCase("--sandbox", "p"), sedCase("-s", "$r ins.txt", "f1", "f2"), sedCase("-n", "/a/,/c/{//!p}", "f1", "f2"),
	})
}

// The classic one-liners of the sed1line collection.
func TestSedDiffOneLiners(t *testing.T) {
	p := "p.txt"
	s := "s.txt"
	runDiff(t, []diffCase{
		sedCase("G", p), sedCase("/^$/d;G", p), sedCase("G;G", p), sedCase("n;d", p), sedCase("/regex/{x;p;x;}", p),
		sedCase("/the/{x;p;x;G;}", p), sedCase("=", p), sedCase("-n", "$=", p), sedCase("s/^[ \\t]*//", s), sedCase("s/[ \\t]*$//", s),
		sedCase("s/^[ \\t]*//;s/[ \\t]*$//", s), sedCase("s/^/     /", s), sedCase("-e", ":a", "-e", "s/^.\\{1,30\\}$/ &/;ta", p),
		sedCase("-e", ":a", "-e", "s/^.\\{1,30\\}$/ & /;ta", p), sedCase("s/foo/bar/4", s), sedCase("s/\\(.*\\)foo/\\1bar/", s),
		sedCase("/baz/s/foo/bar/g", s), sedCase("/baz/!s/foo/bar/g", s), sedCase("s/scarlet\\|ruby\\|puce/red/g", p),
		sedCase("1!G;h;$!d", p), sedCase("-n", "1!G;h;$p", p), sedCase("/\\n/!G;s/\\(.\\)\\(.*\\n\\)/&\\2\\1/;//D;s/.//", p),
		sedCase("$!N;s/\\n/ /", p), sedCase("-e", ":a", "-e", "/\\\\$/N; s/\\\\\\n//; ta", s), sedCase("-e", ":a", "-e", "$!N;s/\\n=/ /;ta", "-e", "P;D", p),
		sedCase("-e", ":a", "-e", "s/\\(.*[0-9]\\)\\([0-9]\\{3\\}\\)/\\1,\\2/;ta", p), sedCase("0~3G", p), sedCase("10q", p), sedCase("q", p),
		sedCase("-e", ":a", "-e", "$q;N;11,$D;ba", "w.txt"), sedCase("$!N;$!D", p), sedCase("$!d", p), sedCase("-n", "$p", p),
		sedCase("-e", "$!{h;d;}", "-e", "x", p), sedCase("-n", "/regexp/{g;1!p;};h", p), sedCase("-n", "/fox/{n;p;}", p),
		sedCase("-e", "/./{H;$!d;}", "-e", "x;/AAA/!d;", p), sedCase("-e", "/./{H;$!d;}", "-e", "x;/AAA/b", "-e", "/BBB/b", "-e", "d", p),
		sedCase("-n", "/^.\\{20\\}/p", p), sedCase("-n", "/^.\\{20\\}/!p", p), sedCase("/^.\\{20\\}/d", p), sedCase("-n", "/quick/,/two/p", p),
		sedCase("-n", "3,5p", p), sedCase("-n", "4q;2,3p", p), sedCase("/AAA/,/CCC/d", p), sedCase("$!N; /^\\(.*\\)\\n\\1$/!P; D", "d.txt"),
		sedCase("$!N; s/^\\(.*\\)\\n\\1$/\\1/; t; D", "d.txt"), sedCase("-n", "G; s/\\n/&&/; /^\\([ -~]*\\n\\).*\\n\\1/d; s/\\n//; h; P", "d.txt"),
		sedCase("1,3d", p), sedCase("/^$/N;/\\n$/D", p), sedCase("/^$/N;/\\n$/N;//D", p), sedCase("/./,$!d", s),
		sedCase("-e", ":a", "-e", "/^\\n*$/{$d;N;ba", "-e", "}", s), sedCase("-n", "/^$/{p;h;};/./{x;/./p;}", s), sedCase("$!N;/^\\(.*\\)\\n\\1$/!P;D", "d.txt"),
		sedCase("1~3d", p), sedCase("-n", "2~3p", p), sedCase("/\\n/!G;s/\\(.\\)\\(.*\\n\\)/&\\2\\1/;//D;s/.//", "w.txt"),
		sedCase("-e", ":a", "-e", "$!N;s/\\n//;ta", "w.txt"), sedCase("N;s/\\n/\\t/", "w.txt"), sedCase("-n", "$!{h;d};x;G;p", "w.txt"),
		sedCase("s/\\(^\\|[^0-9.]\\)\\([0-9]\\+\\)\\([0-9]\\{3\\}\\)/\\1\\2,\\3/g", p), sedCase("/./=", p), sedCase("-n", "/AAA/{=;p}", p),
		sedCase("y/AEIOU/aeiou/", p), sedCase("-e", "/AAA/,/CCC/{", "-e", "s/^/> /", "-e", "}", p), sedCase("s/\\([a-z]*\\) \\([a-z]*\\)/\\2 \\1/", p),
	})
}

func TestSedDiffErrors(t *testing.T) {
	runDiff(t, []diffCase{
		sedCase("s/a"), sedCase("s/a/b"), sedCase("s/a/b/x"), sedCase("s/a/b/gg"), sedCase("s/a/b/pp"), sedCase("s/a/b/0"),
		sedCase("s/a/b/2/3"), sedCase("k"), sedCase("}"), sedCase("{p"), sedCase("p;}"), sedCase("b nolabel"), sedCase("0p"),
		sedCase("1,p"), sedCase("+1p"), sedCase("~1p"), sedCase("1!!p"), sedCase("y/abc/de/"), sedCase("y/abc/def"), sedCase("a"),
		sedCase(":"), sedCase("1:a"), sedCase("1,2q"), sedCase("1,2="), sedCase("pq"), sedCase("s/\\(/x/"), sedCase("s/x/\\1/"),
		sedCase("-E", "s/(x)/\\2/"), sedCase("/x"), sedCase("\\%x"), sedCase("r"), sedCase("w"), sedCase("1#c"), sedCase("1}"),
		sedCase("s//x/"), sedCase("//p"), sedCase("s//x/I"), sedCase("-k", "p"), sedCase(), sedCase("-n"), sedCase("-e"),
		sedCase("-f", "nosuch.sed"), sedCase("-f", "bad.sed"), sedCase("-e", "p", "-e", "s/x/"), sedCase("p", "nosuch"),
		sedCase("-i"), sedCase("-i", "p"), sedCase("w /nonexistent/dir/file"), sedCase("--posix", "s/x/y/I"), sedCase("--posix", "2,3a x"),
		sedCase("--posix", "F"), sedCase("--sandbox", "r x"), sedCase("--sandbox", "s/x/y/e"), sedCase("v 9.0"), sedCase("s/x/\\c/"),
		sedCase("y/a/\\cA/"), sedCase("2,+3,4p"), sedCase("l x"), sedCase("q q"), sedCase("dp"), sedCase("e;p", "empty"),
		sedCase("-s", "-n", "$p", "f1", "nosuch", "f2"), sedCase("R dir"), sedCase("r dir"), sedCase("-i", "p", "dir"),
		sedCase("--nosuchopt"), sedCase("-l"),
		{Args: []string{"sed", "--help"}, SkipStdout: "the usage text is sandsh's own, not a copy of GNU's (README known gaps)"}, {Args: []string{"sed", "--version"}, SkipStdout: "sandsh names itself and its version"},
	})
}

// TestSedDiffInPlace compares files edited with -i by GNU sed and by
// sandsh, which runDiff cannot see.
func TestSedDiffInPlace(t *testing.T) {
	if _, err := exec.LookPath("sed"); err != nil {
		suite.Skip(t, "sed", "GNU sed is the oracle")
	}
	cases := []struct {
		args  []string
		check []string // files to compare afterwards
	}{
		{[]string{"-i", "s/o/0/g", "w.txt"}, []string{"w.txt"}},
		{[]string{"-i.bak", "2d", "f1", "f2"}, []string{"f1", "f2", "f1.bak", "f2.bak"}},
		{[]string{"-i", "$a end", "f1", "nonl.txt"}, []string{"f1", "nonl.txt"}},
		{[]string{"-n", "-i", "$p", "f1", "f2"}, []string{"f1", "f2"}},
		{[]string{"-i", "3q", "w.txt"}, []string{"w.txt"}},
		{[]string{"-i", "F;=", "f1", "f2"}, []string{"f1", "f2"}},
		{[]string{"-i", "-e", "1h;2G", "f1", "f2"}, []string{"f1", "f2"}},
		{[]string{"-i", "s/e/E/w /dev/stdout", "w.txt"}, []string{"w.txt"}},
		{[]string{"-i", "s/a/A/", "f1", "nosuch", "f2"}, []string{"f1", "f2"}},
		{[]string{"--in-place=.orig", "-e", "1i top", "f2"}, []string{"f2", "f2.orig"}},
		{[]string{"-ibak_*", "p", "f1"}, []string{"f1", "bak_f1"}},
		{[]string{"-s", "-i", "w out", "f1", "f2"}, []string{"f1", "f2", "out"}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range sedFiles {
				p := filepath.Join(dir, name)
				if strings.HasSuffix(name, "/") {
					os.MkdirAll(p, 0o755)
					continue
				}
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command("sed", c.args...)
			cmd.Dir = dir
			cmd.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin"}
			hostOut, _ := cmd.Output()
			hostStatus := cmd.ProcessState.ExitCode()

			env := testEnv(t, sedFiles)
			got := run(t, env, "", append([]string{"sed"}, c.args...)...)
			if got.Stdout != string(hostOut) || got.Status != hostStatus {
				t.Errorf("stdout/status: host %q %d, sandsh %q %d (%s)", hostOut, hostStatus, got.Stdout, got.Status, got.Stderr)
			}
			for _, f := range c.check {
				want, err := os.ReadFile(filepath.Join(dir, f))
				if err != nil {
					t.Fatalf("host left no %s: %v", f, err)
				}
				if g := readFile(t, env, f); g != string(want) {
					t.Errorf("%s: host %q, sandsh %q", f, want, g)
				}
			}
			if n := sedCountTemp(t, env); n != 0 {
				t.Errorf("%d temporary files left", n)
			}
		})
	}
}

// TestSedDiffErrorText compares the exact error messages (up to the usage
// text) with GNU sed's, which runDiff does not look at.
func TestSedDiffErrorText(t *testing.T) {
	if _, err := exec.LookPath("sed"); err != nil {
		suite.Skip(t, "sed", "GNU sed is the oracle")
	}
	cases := [][]string{
		{"s/a"}, {"s/a/b"}, {"s/a/b/x"}, {"s/a/b/gg"}, {"s/a/b/pp"}, {"s/a/b/0"}, {"s/a/b/2/3"}, {"k"}, {"}"}, {"{p"}, {"p;}"},
		{"b nolabel"}, {"0p"}, {"1,p"}, {"+1p"}, {"~1p"}, {"1!!p"}, {"y/abc/de/"}, {"y/abc/def"}, {"a"}, {":"}, {"1:a"}, {"1,2q"},
		{"pq"}, {"s/\\(/x/"}, {"s/x/\\1/"}, {"-E", "s/(x)/\\2/"}, {"/x"}, {"\\%x"}, {"r"}, {"w"}, {"1#c"}, {"1}"}, {"s//x/"},
		{"//p"}, {"s//x/I"}, {"-f", "bad.sed"}, {"-e", "p", "-e", "s/x/"}, {"p", "nosuch"}, {"-i", "p"}, {"--posix", "s/x/y/I"},
		{"--posix", "2,3a x"}, {"--posix", "F"}, {"--sandbox", "r x"}, {"--sandbox", "s/x/y/e"}, {"v 9.0"}, {"s/x/\\c/"}, {"y/a/\\cA/"},
		{"2,+3,4p"}, {"l x"}, {"q q"}, {"dp"}, {"R dir"}, {"r dir"}, {"-i", "p", "dir"}, {"--nosuchopt"}, {"-l"}, {"-k"},
		{"s/[/x/"}, {"s/a\\{1/x/"}, {"s/*\\{2,1\\}/x/"}, {"-E", "s/a{1/x/"}, {"-E", "s/(/x/"}, {"-E", "s/)/x/"}, {"s/\\)/x/"},
		{"s/[[:foo:]]/x/"}, {"s/[b-a]/x/"}, {"y/a/"}, {"y"}, {"s"}, {"1,2,3p"}, {"/a/I,/b/Mp"}, {"3,+x"}, {"{"}, {"{{p}"},
		{"-e", "{", "-e", "p"}, {"-n", "-e", "1{", "-e", "p", "-e", "}"}, {"s/x/y/w"}, {"bx;:x;:x"}, {"1~2~3p"}, {"$$p"},
		{"e", "nosuch"}, {"-f", "nosuch.sed"}, {"-z", "s/a/b/M"}, {"s/a/\\"}, {"a\\"}, {"c"}, {"i"}, {"=x"}, {"}}"}, {"1,2{}"},
		{"s/\\(a\\)\\|b/\\2/"}, {"s/x/y/;s//z/gp"}, {"\\nanp"}, {"/x/!"}, {"-f", "nr.sed"}, {"-e", "p", "-f", "nr.sed", "-e", "p"},
	}
	files := map[string]string{"bad.sed": "p\ns/x/\n", "nr.sed": "s//x/\n", "dir/": "", "x": "x\n"}
	cut := func(s string) string {
		if i := strings.Index(s, "Usage:"); i >= 0 {
			return s[:i]
		}
		return s
	}
	for _, c := range cases {
		t.Run(strings.Join(c, " "), func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range files {
				p := filepath.Join(dir, name)
				if strings.HasSuffix(name, "/") {
					os.MkdirAll(p, 0o755)
					continue
				}
				os.WriteFile(p, []byte(data), 0o644)
			}
			cmd := exec.Command("sed", c...)
			cmd.Dir = dir
			cmd.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin"}
			cmd.Stdin = strings.NewReader("one\ntwo\n")
			var o, e strings.Builder
			cmd.Stdout, cmd.Stderr = &o, &e
			cmd.Run()
			got := run(t, testEnv(t, files), "one\ntwo\n", append([]string{"sed"}, c...)...)
			if cut(e.String()) != cut(got.Stderr) || o.String() != got.Stdout || cmd.ProcessState.ExitCode() != got.Status {
				t.Errorf("host %q %q %d\nours %q %q %d", cut(e.String()), o.String(), cmd.ProcessState.ExitCode(),
					cut(got.Stderr), got.Stdout, got.Status)
			}
		})
	}
}

// sedCountTemp counts sed's temporary files left in the work directory.
func sedCountTemp(t *testing.T, env *Env) int {
	t.Helper()
	f, err := env.FS.Open(env.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, name := range names {
		if strings.HasPrefix(name, "sed") && len(name) == len("sed000000") {
			n++
		}
	}
	return n
}
