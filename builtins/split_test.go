package builtins

import (
	"bytes"
	"testing"
)

func TestSplit(t *testing.T) {
	content, all := filesContent, filesAll
	filesRunCases(t, []filesCase{
		{args: []string{"split", "-l", "2"}, stdin: "1\n2\n3\n", check: all(content("xaa", "1\n2\n"), content("xab", "3\n"))},
		{args: []string{"split", "-b", "2", "-d", "-", "p-"}, stdin: "abcde", check: all(content("p-00", "ab"), content("p-02", "e"))},
		{args: []string{"split", "--verbose", "-l", "1"}, stdin: "a\nb\n", out: "creating file 'xaa'\ncreating file 'xab'\n"},
		{args: []string{"split", "-a", "1", "-l", "1"}, stdin: bytes.NewBuffer(bytes.Repeat([]byte("x\n"), 27)).String(),
			errSub: "output file suffixes exhausted", status: 1},
		{args: []string{"split", "-l", "1"}, stdin: string(bytes.Repeat([]byte("x\n"), 651)), check: content("xzaaa", "x\n")},
		{args: []string{"split", "-C", "4"}, stdin: "ab\ncd\nefghij\n", check: all(content("xaa", "ab\n"), content("xab", "cd\n"),
			content("xac", "efgh"), content("xad", "ij\n"))},
		{files: map[string]string{"f": "0123456789"}, args: []string{"split", "-n", "3", "f"},
			check: all(content("xaa", "012"), content("xab", "345"), content("xac", "6789"))},
		{files: map[string]string{"f": "a\nb\nc\nd\n"}, args: []string{"split", "-n", "r/2", "f"},
			check: all(content("xaa", "a\nc\n"), content("xab", "b\nd\n"))},
		{files: map[string]string{"f": "a\nb\nc\nd\n"}, args: []string{"split", "-n", "l/2/2", "f"}, out: "c\nd\n"},
		{args: []string{"split", "-n", "2"}, stdin: "abc", errSub: "cannot determine file size", status: 1},
	})
}
