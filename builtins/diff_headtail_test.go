package builtins

import (
	"strings"
	"testing"
)

var headFiles = map[string]string{
	"nums":  "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n",
	"short": "a\nb\n",
	"noeol": "x\ny\nz",
	"empty": "",
	"zero":  "a\x00b\x00c\x00",
	"dir/":  "",
	"words": "hello world\n  two  spaces \n\ttab\there\n\n",
}

func headCase(stdin string, args ...string) diffCase {
	return diffCase{Files: headFiles, Stdin: stdin, Args: args}
}

func TestDiffHead(t *testing.T) {
	runDiff(t, []diffCase{
		headCase("", "head", "nums"),
		headCase("", "head", "-n", "3", "nums"),
		headCase("", "head", "-n3", "nums"),
		headCase("", "head", "-3", "nums"),
		headCase("", "head", "--lines=4", "nums"),
		headCase("", "head", "-n", "-12", "nums"),
		headCase("", "head", "-n", "-20", "nums"),
		headCase("", "head", "-n", "-0", "nums"),
		headCase("", "head", "-n", "0", "nums"),
		headCase("", "head", "-c", "5", "nums"),
		headCase("", "head", "-c", "-30", "nums"),
		headCase("", "head", "-c", "-100", "nums"),
		headCase("", "head", "-c", "1K", "nums"),
		headCase("", "head", "-c", "1b", "nums"),
		headCase("", "head", "-n", "1kB", "nums"),
		headCase("", "head", "-n", "2", "short", "nums"),
		headCase("", "head", "-q", "-n1", "short", "nums"),
		headCase("", "head", "-v", "-n1", "short"),
		headCase("", "head", "-n", "2", "noeol"),
		headCase("", "head", "-n", "-1", "noeol"),
		headCase("", "head", "-n", "-2", "noeol"),
		headCase("", "head", "-c", "-1", "noeol"),
		headCase("", "head", "empty"),
		headCase("", "head", "-n", "-1", "empty"),
		headCase("", "head", "-z", "-n", "2", "zero"),
		headCase("", "head", "-z", "-n", "-1", "zero"),
		headCase("a\nb\nc\n", "head", "-n", "2"),
		headCase("a\nb\nc\n", "head", "-n", "1", "-"),
		headCase("a\nb\nc\n", "head", "-n", "1", "-", "short"),
		headCase("", "head", "nofile"),
		headCase("", "head", "-n1", "nofile", "short"),
		headCase("", "head", "-n", "x", "nums"),
		headCase("", "head", "-c", "1Q", "nums"),
		headCase("", "head", "-k", "nums"),
		headCase("", "head", "dir"),
		headCase("", "head", "-n1", "short", "dir"),
	})
}

func TestDiffTail(t *testing.T) {
	runDiff(t, []diffCase{
		headCase("", "tail", "nums"),
		headCase("", "tail", "-n", "3", "nums"),
		headCase("", "tail", "-3", "nums"),
		headCase("", "tail", "-n", "+12", "nums"),
		headCase("", "tail", "-n", "+0", "nums"),
		headCase("", "tail", "-n", "+100", "nums"),
		headCase("", "tail", "+13", "nums"),
		headCase("", "tail", "-n", "0", "nums"),
		headCase("", "tail", "-n", "-2", "nums"),
		headCase("", "tail", "-c", "7", "nums"),
		headCase("", "tail", "-c", "+30", "nums"),
		headCase("", "tail", "-c", "1K", "nums"),
		headCase("", "tail", "-n", "100", "nums"),
		headCase("", "tail", "-n", "2", "short", "nums"),
		headCase("", "tail", "-q", "-n1", "short", "nums"),
		headCase("", "tail", "-v", "-n1", "short"),
		headCase("", "tail", "-n", "1", "noeol"),
		headCase("", "tail", "-n", "2", "noeol"),
		headCase("", "tail", "-n", "+2", "noeol"),
		headCase("", "tail", "-c", "3", "noeol"),
		headCase("", "tail", "empty"),
		headCase("", "tail", "-z", "-n", "1", "zero"),
		headCase("", "tail", "-z", "-n", "+2", "zero"),
		headCase("a\nb\nc\n", "tail", "-n", "2"),
		headCase("a\nb\nc", "tail", "-n", "1"),
		headCase("a\nb\nc\n", "tail", "-c", "3"),
		headCase("a\nb\nc\n", "tail", "-n", "+2", "-"),
		headCase("a\nb\nc\n", "tail", "-n", "1", "-", "short"),
		headCase("", "tail", "nofile"),
		headCase("", "tail", "-n1", "nofile", "short"),
		headCase("", "tail", "-n", "x", "nums"),
		headCase("", "tail", "-k", "nums"),
		headCase("", "tail", "dir"),
		headCase(strings.Repeat("line\n", 5000)+"end\n", "tail", "-n", "2"),
		headCase(strings.Repeat("0123456789", 20000), "tail", "-c", "5"),
	})
}

func TestDiffWc(t *testing.T) {
	runDiff(t, []diffCase{
		headCase("", "wc", "nums"),
		headCase("", "wc", "-l", "nums"),
		headCase("", "wc", "-w", "words"),
		headCase("", "wc", "-c", "words"),
		headCase("", "wc", "-m", "words"),
		headCase("", "wc", "-L", "words"),
		headCase("", "wc", "-lw", "words"),
		headCase("", "wc", "-lwmcL", "words"),
		headCase("", "wc", "nums", "short", "words"),
		headCase("", "wc", "-l", "nums", "short"),
		headCase("", "wc", "-L", "nums", "words"),
		headCase("", "wc", "noeol"),
		headCase("", "wc", "empty"),
		headCase("", "wc", "zero"),
		headCase("", "wc", "nofile"),
		headCase("", "wc", "nofile", "short"),
		headCase("", "wc", "dir"),
		headCase("", "wc", "-l", "dir", "short"),
		headCase("", "wc", "--bytes", "--lines", "nums"),
		headCase("", "wc", "-k"),
		headCase("hello world\nfoo\n", "wc"),
		headCase("hello world\nfoo\n", "wc", "-l"),
		headCase("hello world\nfoo\n", "wc", "-w"),
		headCase("hello world\nfoo\n", "wc", "-"),
		headCase("hello world\nfoo\n", "wc", "-c", "-", "short"),
		headCase("a\x01b c\xe9\xe9 d\n", "wc", "-w"),
		headCase("ab\tc\rxy\n", "wc", "-L"),
		headCase("a\vb\fc\n", "wc", "-wL"),
		headCase("no newline", "wc"),
		headCase("", "wc"),
		headCase(strings.Repeat("word ", 30000), "wc"),
	})
}
