package builtins

import (
	"strings"
	"testing"
)

func TestDataDiffHex(t *testing.T) {
	t.Parallel()
	bin := "abcdefghijklmnopqrstuvwxyz\n\x00\x01\xff\x80"
	zeros := strings.Repeat("\x00", 64)
	dump := "00000000: 6162 6364 6566 6768 696a 6b6c 6d6e 6f70  abcdefghijklmnop\n00000010: 7172 7374 7576 7778 797a 0a00 01ff 80    qrstuvwxyz.....\n"
	files := map[string]string{"bin": bin, "zeros": zeros, "a": "abc", "e": "", "dump": dump, "plain": "616263\n0a00ff\n", "gap": "00000010: 4142  AB\n"}
	var cases []diffCase
	for _, a := range [][]string{
		{"xxd", "bin"}, {"xxd", "-g1", "-c8", "bin"}, {"xxd", "-u", "-l", "5", "bin"}, {"xxd", "-p", "bin"}, {"xxd", "-i", "bin"},
		{"xxd", "-s", "10", "-l", "8", "bin"}, {"xxd", "-b", "-l", "3", "bin"}, {"xxd", "-i"}, {"xxd", "-g", "3", "-l", "10", "bin"},
		{"xxd", "-c", "5", "-l", "12", "bin"}, {"xxd", "-o", "100", "-l", "4", "bin"}, {"xxd", "zeros"}, {"xxd", "-a", "zeros"},
		{"xxd", "-r", "dump"}, {"xxd", "-r", "-p", "plain"}, {"xxd", "-r", "gap"}, {"xxd", "e"}, {"xxd", "-p", "e"},
		{"xxd", "nope"}, {"xxd", "-Q", "bin"}, {"xxd", "-c", "0", "bin"}, {"xxd", "-g0", "bin"}, {"xxd", "-ps", "-c", "4", "bin"},
		{"xxd", "-l4", "-"}, {"xxd", "-b", "bin"}, {"xxd", "-u", "-i", "a"}, {"xxd", "-c", "32", "bin"},
		{"hexdump", "bin"}, {"hexdump", "-C", "bin"}, {"hexdump", "-C", "-n", "5", "-s", "2", "bin"}, {"hexdump", "-C", "zeros"},
		{"hexdump", "zeros"}, {"hexdump", "a"}, {"hexdump", "-x", "bin"}, {"hexdump", "-c", "bin"}, {"hexdump", "-b", "bin"},
		{"hexdump", "-d", "bin"}, {"hexdump", "-o", "bin"}, {"hexdump", "-C", "e"}, {"hexdump", "-s", "40", "bin"},
		{"hexdump", "nope"}, {"hexdump", "-C", "-n", "0", "bin"}, {"hexdump", "-v", "zeros"}, {"hexdump", "-C", "a", "bin"},
		{"hexdump", "-C"}, {"hexdump", "-x", "a"}, {"hexdump", "-c", "a"}, {"hexdump", "-C", "nope", "a"},
	} {
		cases = append(cases, diffCase{Args: a, Files: files, Stdin: bin})
	}
	runDiff(t, cases)
}
