package builtins

import (
	"strings"
	"testing"
)

// textFiles is the fixture most text-group differential cases read.
var textFiles = map[string]string{
	"words":   "banana\napple\nCherry\napple\n\ndate\nBanana\n  eggplant\nfig\n",
	"nums":    "10\n9\n-3\n2.5\n+4\n0\n-0\n1e3\n007\n.5\nabc\n 12\n1,000\n",
	"human":   "1K\n2M\n512\n1G\n-1k\n3k\n0.5M\n10\n1T\n",
	"months":  "mar\nJan\n feb\nDEC\nfoo\njune\nApr\n",
	"vers":    "file-1.10.tar.gz\nfile-1.9.tar.gz\nfile-1.9a\nv2.0\nv2.0-rc1\nv10\n.hidden\n..\n.\n",
	"table":   "bob 25 nyc\nalice 30 sf\ncarol 25 la\ndave 4 nyc\neve 30 sf\n",
	"csv":     "id,name,score\n3,carol,77\n1,alice,90\n2,bob,85\n10,zed,85\n",
	"colon":   "root:x:0:0:root:/root:/bin/bash\nbin:x:1:1::/bin:/sbin/nologin\nuser:x:1000:1000:User,,,:/home/user:/bin/sh\nnoshell\n",
	"dups":    "a\na\nb\nA\na\nc\nc\nc\n\n\nd\n",
	"fields":  "x 1 a\ny 1 a\nz 2 a\nw 2 b\n  v 2 b\n",
	"noeol":   "one\ntwo\nthree",
	"empty":   "",
	"sorted1": "apple 1\nbanana 2\ncherry 3\ndate 4\n",
	"sorted2": "banana yellow\ncherry red\ncherry dark\nelder black\n",
	"unsort":  "zeta 1\nalpha 2\nmid 3\n",
	"c1":      "a\nb\nd\ne\n",
	"c2":      "b\nc\nd\nf\n",
	"cu":      "b\na\nc\n",
	"tabbed":  "a\tb\tc\n\tindented\nno tabs\nx\t\ty\n",
	"spaced":  "        eight\n    four\na       b       c\n  two  spaces  \n",
	"prose":   "The quick brown fox jumps over the lazy dog. It was a sunny day! Everyone\nwas happy.\n\n  Indented paragraph with some more words to wrap around the\n  limit, and a few (parenthetical) remarks.\n",
	"long":    "aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk\nshort\n\t tab and space\n",
	"binary":  "a\x00b\xff\x80c\nsecond\x01\n",
	"nl":      "line one\n\nline three\n\\:\\:\\:\nhead\n\\:\\:\nbody a\n\nbody b\n\\:\nfoot\n",
	"ragged":  "a b c\ndd e\nfff g h i\n\nj\n",
	"list":    "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n",
	"dir/":    "",
}

func textCase(stdin string, args ...string) diffCase {
	return diffCase{Files: textFiles, Stdin: stdin, Args: args}
}

func TestDiffTextSort(t *testing.T) {
	runDiff(t, []diffCase{
		textCase("", "sort", "words"),
		textCase("", "sort", "-r", "words"),
		textCase("", "sort", "-f", "words"),
		textCase("", "sort", "-fu", "words"),
		textCase("", "sort", "-u", "words"),
		textCase("", "sort", "-b", "words"),
		textCase("", "sort", "-d", "words"),
		textCase("", "sort", "-i", "binary"),
		textCase("", "sort", "-n", "nums"),
		textCase("", "sort", "-nr", "nums"),
		textCase("", "sort", "-nu", "nums"),
		textCase("", "sort", "-g", "nums"),
		textCase("", "sort", "-gr", "nums"),
		textCase("", "sort", "-h", "human"),
		textCase("", "sort", "-hr", "human"),
		textCase("", "sort", "-M", "months"),
		textCase("", "sort", "-Mr", "months"),
		textCase("", "sort", "-V", "vers"),
		textCase("", "sort", "--sort=version", "vers"),
		textCase("", "sort", "-k2", "table"),
		textCase("", "sort", "-k2,2", "table"),
		textCase("", "sort", "-k2,2n", "table"),
		textCase("", "sort", "-k2,2nr", "table"),
		textCase("", "sort", "-k2,2n", "-k1,1r", "table"),
		textCase("", "sort", "-k3,3", "-k2,2n", "table"),
		textCase("", "sort", "-s", "-k2,2n", "table"),
		textCase("", "sort", "-u", "-k2,2", "table"),
		textCase("", "sort", "-k1.2,1.3", "table"),
		textCase("", "sort", "-k2.1b,2.1", "fields"),
		textCase("", "sort", "-b", "-k2", "fields"),
		textCase("", "sort", "-t,", "-k3,3n", "csv"),
		textCase("", "sort", "-t,", "-k3nr", "-k1,1n", "csv"),
		textCase("", "sort", "-t:", "-k3,3n", "colon"),
		textCase("", "sort", "-t", ":", "-k7", "colon"),
		textCase("", "sort", "--field-separator=,", "--key=2", "csv"),
		textCase("", "sort", "-n", "-k2", "fields"),
		textCase("", "sort", "-m", "c1", "c2"),
		textCase("", "sort", "-mu", "c1", "c2"),
		textCase("", "sort", "-m", "-r", "cu", "c1"),
		textCase("", "sort", "-c", "c1"),
		textCase("", "sort", "-c", "cu"),
		textCase("", "sort", "-C", "cu"),
		textCase("", "sort", "-cu", "dups"),
		textCase("", "sort", "--check=quiet", "words"),
		textCase("", "sort", "-o", "words", "words"),
		textCase("", "sort", "-z", "binary"),
		textCase("b\x00a\x00c", "sort", "-z"),
		textCase("", "sort", "noeol", "c1"),
		textCase("", "sort", "empty"),
		textCase("b\na\n", "sort", "-", "c1"),
		textCase("", "sort", "-S", "10M", "--parallel=2", "words"),
		textCase("", "sort", "nofile"),
		textCase("", "sort", "dir"),
		textCase("", "sort", "-k0", "words"),
		textCase("", "sort", "-k1.0", "words"),
		textCase("", "sort", "-k2x", "words"),
		textCase("", "sort", "-t", "ab", "words"),
		textCase("", "sort", "-gn", "words"),
		textCase("", "sort", "-c", "c1", "c2"),
		textCase("", "sort", "--sort=bogus", "words"),
		textCase("", "sort", "--bogus"),
		textCase("", "sort", "-k3,2", "table"),
		textCase("", "sort", "-k1,1", "-k2,2n", "-s", "fields"),
	})
}

func TestDiffTextSortRandomGroups(t *testing.T) {
	// -R output order is random, but equal keys must stay adjacent, so
	// piping through uniq -c gives stable counts once re-sorted.
	env := testEnv(t, textFiles)
	got := run(t, env, "", "sort", "-R", "dups")
	if got.Status != 0 {
		t.Fatalf("sort -R: %v", got)
	}
	lines := strings.Split(strings.TrimSuffix(got.Stdout, "\n"), "\n")
	seen := map[string]bool{}
	for i, l := range lines {
		if i > 0 && lines[i-1] != l && seen[l] {
			t.Fatalf("sort -R split a group of %q: %q", l, lines)
		}
		seen[l] = true
	}
	if len(lines) != strings.Count(textFiles["dups"], "\n") {
		t.Fatalf("sort -R lost lines: %q", lines)
	}
}

func TestDiffTextUniq(t *testing.T) {
	runDiff(t, []diffCase{
		textCase("", "uniq", "dups"),
		textCase("", "uniq", "-c", "dups"),
		textCase("", "uniq", "-d", "dups"),
		textCase("", "uniq", "-u", "dups"),
		textCase("", "uniq", "-D", "dups"),
		textCase("", "uniq", "-i", "dups"),
		textCase("", "uniq", "-ic", "dups"),
		textCase("", "uniq", "--all-repeated=separate", "dups"),
		textCase("", "uniq", "--all-repeated=prepend", "dups"),
		textCase("", "uniq", "--group", "dups"),
		textCase("", "uniq", "--group=both", "dups"),
		textCase("", "uniq", "-f1", "fields"),
		textCase("", "uniq", "-f1", "-c", "fields"),
		textCase("", "uniq", "-f2", "fields"),
		textCase("", "uniq", "-s2", "fields"),
		textCase("", "uniq", "-w1", "fields"),
		textCase("", "uniq", "-s1", "-w1", "fields"),
		textCase("a\x00a\x00b\x00", "uniq", "-z"),
		textCase("x\nx", "uniq", "-c"),
		textCase("", "uniq", "dups", "out"),
		textCase("", "uniq", "-c", "-D", "dups"),
		textCase("", "uniq", "-f", "x", "dups"),
		textCase("", "uniq", "a", "b", "c"),
		textCase("", "uniq", "nofile"),
		textCase("", "uniq", "--group", "-c", "dups"),
	})
}

func TestDiffTextCut(t *testing.T) {
	runDiff(t, []diffCase{
		textCase("", "cut", "-d:", "-f1", "colon"),
		textCase("", "cut", "-d:", "-f1,7", "colon"),
		textCase("", "cut", "-d:", "-f3-", "colon"),
		textCase("", "cut", "-d:", "-f-2", "colon"),
		textCase("", "cut", "-d:", "-f2-4", "-s", "colon"),
		textCase("", "cut", "-d:", "--complement", "-f2", "colon"),
		textCase("", "cut", "-d:", "-f1,3", "--output-delimiter=|", "colon"),
		textCase("", "cut", "-f2", "tabbed"),
		textCase("", "cut", "-f1,3", "-s", "tabbed"),
		textCase("", "cut", "-c1-3", "words"),
		textCase("", "cut", "-c2", "words"),
		textCase("", "cut", "-b-2,4-", "words"),
		textCase("", "cut", "-b1,3", "--output-delimiter=:", "words"),
		textCase("", "cut", "-c3-", "--complement", "words"),
		textCase("", "cut", "-b1-2,2-3", "words"),
		textCase("", "cut", "-d,", "-f2", "csv"),
		textCase("", "cut", "-d", " ", "-f2", "table"),
		textCase("", "cut", "-f1", "noeol"),
		textCase("", "cut", "-c1", "binary"),
		textCase("a:b\x00c:d\x00", "cut", "-z", "-d:", "-f2"),
		textCase("", "cut", "words"),
		textCase("", "cut", "-f0", "words"),
		textCase("", "cut", "-c3-1", "words"),
		textCase("", "cut", "-b1", "-f1", "words"),
		textCase("", "cut", "-d::", "-f1", "words"),
		textCase("", "cut", "-c1", "-d:", "words"),
		textCase("", "cut", "-f1", "nofile", "words"),
		textCase("", "cut", "-fx", "words"),
	})
}

func TestDiffTextTr(t *testing.T) {
	in := "Hello, World! 123 aaa   bbb\n\ttab\n"
	runDiff(t, []diffCase{
		textCase(in, "tr", "a-z", "A-Z"),
		textCase(in, "tr", "[:lower:]", "[:upper:]"),
		textCase(in, "tr", "[:upper:]", "[:lower:]"),
		textCase(in, "tr", "-d", "[:digit:]"),
		textCase(in, "tr", "-d", "[:space:]"),
		textCase(in, "tr", "-s", " "),
		textCase(in, "tr", "-s", "a-z"),
		textCase(in, "tr", "-cd", "[:alpha:]\\n"),
		textCase(in, "tr", "-c", "[:alnum:]", "_"),
		textCase(in, "tr", "-cs", "[:alnum:]", "\\n"),
		textCase(in, "tr", "-ds", "l", "a"),
		textCase(in, "tr", "abc", "x"),
		textCase(in, "tr", "-t", "abc", "x"),
		textCase(in, "tr", "a-c", "[x*]"),
		textCase(in, "tr", "a-f", "[x*2]y[z*]"),
		textCase(in, "tr", "\\n\\t", "NT"),
		textCase(in, "tr", "\\101-\\132", "\\141-\\172"),
		textCase(in, "tr", "[=a=]", "@"),
		textCase(in, "tr", "lo", "01"),
		textCase(in, "tr", "-s", "lo", "xy"),
		textCase(in, "tr", "[:punct:]", "."),
		textCase("a\x00b\xffc\n", "tr", "\\000\\377", "XY"),
		textCase("a-b-c\n", "tr", "-", "+"),
		textCase("a-b\n", "tr", "a-", "xy"),
		textCase(in, "tr", "z-a", "x"),
		textCase(in, "tr", "[:foo:]", "x"),
		textCase(in, "tr", "a"),
		textCase(in, "tr"),
		textCase(in, "tr", "-d", "a", "b"),
		textCase(in, "tr", "abc", ""),
		textCase(in, "tr", "a-z", "[:upper:]x"),
		textCase(in, "tr", "-c", "[:lower:]", "xy"),
		textCase(in, "tr", "a", "[=b=]"),
		textCase(in, "tr", "[a*2]", "y"),
		textCase(in, "tr", "a\\", "x"),
	})
}

func TestDiffTextPaste(t *testing.T) {
	runDiff(t, []diffCase{
		textCase("", "paste", "c1", "c2"),
		textCase("", "paste", "c1", "noeol", "c2"),
		textCase("", "paste", "-d,", "c1", "c2"),
		textCase("", "paste", "-d,;", "c1", "c2", "cu"),
		textCase("", "paste", "-d", "\\t\\n", "c1", "c2", "cu"),
		textCase("", "paste", "-d", "\\0", "c1", "c2"),
		textCase("", "paste", "-d", "", "c1", "c2"),
		textCase("", "paste", "-s", "c1", "c2"),
		textCase("", "paste", "-s", "-d,", "c1", "noeol"),
		textCase("", "paste", "-s", "empty", "c1"),
		textCase("", "paste", "c1", "empty"),
		textCase("1\n2\n3\n4\n5\n", "paste", "-", "-"),
		textCase("1\n2\n3\n4\n5\n", "paste", "-d:", "-", "-", "-"),
		textCase("1\n2\n", "paste", "c1", "-"),
		textCase("a\x00b\x00", "paste", "-z", "-", "-"),
		textCase("", "paste", "-d", "a\\", "c1"),
		textCase("", "paste", "c1", "nofile"),
	})
}

func TestDiffTextJoin(t *testing.T) {
	runDiff(t, []diffCase{
		textCase("", "join", "sorted1", "sorted2"),
		textCase("", "join", "-a1", "sorted1", "sorted2"),
		textCase("", "join", "-a2", "sorted1", "sorted2"),
		textCase("", "join", "-a1", "-a2", "sorted1", "sorted2"),
		textCase("", "join", "-v1", "sorted1", "sorted2"),
		textCase("", "join", "-v2", "sorted1", "sorted2"),
		textCase("", "join", "-o", "1.2,2.2,0", "sorted1", "sorted2"),
		textCase("", "join", "-o", "auto", "-a1", "-e", "NA", "sorted1", "sorted2"),
		textCase("", "join", "-e", "X", "-o", "0,1.2,2.2,2.3", "-a1", "-a2", "sorted1", "sorted2"),
		textCase("", "join", "-t,", "-1", "1", "-2", "1", "csv", "csv"),
		textCase("", "join", "-j", "1", "sorted1", "sorted1"),
		textCase("", "join", "-i", "c1", "c2"),
		textCase("", "join", "--header", "csv", "csv"),
		textCase("", "join", "unsort", "sorted1"),
		textCase("", "join", "--check-order", "unsort", "sorted1"),
		textCase("", "join", "--nocheck-order", "unsort", "sorted1"),
		textCase("", "join", "-2", "2", "table", "fields"),
		textCase("apple x\ncherry y\n", "join", "-", "sorted1"),
		textCase("", "join", "-o", "3.1", "c1", "c2"),
		textCase("", "join", "-a3", "c1", "c2"),
		textCase("", "join", "c1"),
		textCase("", "join", "c1", "c2", "cu"),
		textCase("", "join", "c1", "nofile"),
		textCase("", "join", "-t", "ab", "c1", "c2"),
	})
}

func TestDiffTextComm(t *testing.T) {
	runDiff(t, []diffCase{
		textCase("", "comm", "c1", "c2"),
		textCase("", "comm", "-1", "c1", "c2"),
		textCase("", "comm", "-2", "c1", "c2"),
		textCase("", "comm", "-3", "c1", "c2"),
		textCase("", "comm", "-12", "c1", "c2"),
		textCase("", "comm", "-23", "c1", "c2"),
		textCase("", "comm", "--output-delimiter=|", "c1", "c2"),
		textCase("", "comm", "--total", "c1", "c2"),
		textCase("", "comm", "cu", "c2"),
		textCase("", "comm", "--check-order", "cu", "c2"),
		textCase("", "comm", "--nocheck-order", "cu", "c2"),
		textCase("", "comm", "c1", "c1"),
		textCase("b\nc\n", "comm", "-", "c1"),
		textCase("", "comm", "noeol", "c1"),
		textCase("", "comm", "c1"),
		textCase("", "comm", "c1", "nofile"),
	})
}

func TestDiffTextColumn(t *testing.T) {
	runDiff(t, []diffCase{
		textCase("", "column", "list"),
		textCase("", "column", "-x", "list"),
		textCase("", "column", "-c", "30", "list"),
		textCase("", "column", "-c", "30", "-x", "list"),
		textCase("", "column", "-c", "5", "list"),
		textCase("", "column", "-t", "ragged"),
		textCase("", "column", "-t", "table"),
		textCase("", "column", "-t", "-s,", "csv"),
		textCase("", "column", "-t", "-s:", "-o", " | ", "colon"),
		textCase("", "column", "-t", "-L", "ragged"),
		textCase("", "column", "-L", "ragged"),
		textCase("", "column", "empty"),
		textCase("", "column", "-t", "-n", "name", "table"),
		textCase("", "column", "nofile"),
	})
}

func TestDiffTextFoldFmt(t *testing.T) {
	runDiff(t, []diffCase{
		textCase("", "fold", "long"),
		textCase("", "fold", "-w", "10", "long"),
		textCase("", "fold", "-w10", "-s", "long"),
		textCase("", "fold", "-b", "-w", "7", "tabbed"),
		textCase("", "fold", "-w", "5", "tabbed"),
		textCase("", "fold", "-8", "prose"),
		textCase("", "fold", "-w", "12", "noeol"),
		textCase("", "fold", "-w", "0", "long"),
		textCase("", "fold", "nofile"),
		textCase("", "fmt", "prose"),
		textCase("", "fmt", "-w", "30", "prose"),
		textCase("", "fmt", "-w30", "-u", "prose"),
		textCase("", "fmt", "-s", "-w", "20", "prose"),
		textCase("", "fmt", "-c", "-w", "40", "prose"),
		textCase("", "fmt", "-t", "-w", "40", "prose"),
		textCase("", "fmt", "-25", "long"),
		textCase("", "fmt", "-g", "20", "prose"),
		textCase("# one two three four\n# five six seven\nplain line\n", "fmt", "-p", "#", "-w", "12"),
		textCase("", "fmt", "-w", "x", "prose"),
		textCase("", "fmt", "nofile"),
	})
}

func TestDiffTextExpand(t *testing.T) {
	runDiff(t, []diffCase{
		textCase("", "expand", "tabbed"),
		textCase("", "expand", "-t", "4", "tabbed"),
		textCase("", "expand", "-t", "2,5,9", "tabbed"),
		textCase("", "expand", "-i", "tabbed"),
		textCase("", "expand", "-3", "tabbed"),
		textCase("", "expand", "-t", "2,/4", "tabbed"),
		textCase("", "expand", "-t", "2,+4", "tabbed"),
		textCase("", "expand", "-t", "0", "tabbed"),
		textCase("", "expand", "-t", "4,2", "tabbed"),
		textCase("", "unexpand", "spaced"),
		textCase("", "unexpand", "-a", "spaced"),
		textCase("", "unexpand", "-t", "4", "spaced"),
		textCase("", "unexpand", "--first-only", "-t", "4", "spaced"),
		textCase("", "unexpand", "-t", "2,6", "spaced"),
		textCase("", "unexpand", "-a", "tabbed"),
		textCase("", "unexpand", "nofile"),
	})
}

func TestDiffTextRevTacNl(t *testing.T) {
	runDiff(t, []diffCase{
		textCase("", "rev", "words"),
		textCase("", "rev", "noeol", "c1"),
		textCase("abc\n\ndef", "rev"),
		textCase("", "tac", "words"),
		textCase("", "tac", "noeol"),
		textCase("", "tac", "c1", "c2"),
		textCase("a:b:c:", "tac", "-s", ":"),
		textCase("a:b:c", "tac", "-b", "-s", ":"),
		textCase("a12b345c6\n", "tac", "-r", "-s", "[0-9]\\+"),
		textCase("a1b22c3\n", "tac", "-r", "-s", "[0-9][0-9]*"),
		textCase("a1+b2+c3", "tac", "-r", "-s", "[0-9]+"),
		textCase("xaybxc", "tac", "-b", "-r", "-s", "x\\|y"),
		textCase("", "tac", "empty"),
		textCase("", "tac", "nofile"),
		textCase("", "nl", "words"),
		textCase("", "nl", "-ba", "words"),
		textCase("", "nl", "-bn", "words"),
		textCase("", "nl", "-bpa", "words"),
		textCase("", "nl", "-nln", "words"),
		textCase("", "nl", "-nrz", "-w3", "words"),
		textCase("", "nl", "-s", ": ", "-v", "10", "-i", "5", "words"),
		textCase("", "nl", "nl"),
		textCase("", "nl", "-ha", "-fa", "nl"),
		textCase("", "nl", "-p", "-ha", "nl"),
		textCase("", "nl", "-ba", "-l", "2", "dups"),
		textCase("", "nl", "-d", "@", "nl"),
		textCase("", "nl", "-bx", "words"),
		textCase("", "nl", "-w", "0", "words"),
		textCase("", "nl", "noeol", "c1"),
	})
}
