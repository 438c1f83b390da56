package builtins

import (
	"strings"
	"testing"
)

func TestDataDiffCmp(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("line of text\n", 20000)
	files := map[string]string{
		"c1": "abc\ndef\n", "c2": "abc\ndxf\nz", "c3": "abc\n", "c4": "abc", "c5": "abcd",
		"c6": "\x01\xe1\x7f\n", "c7": "x\x81\xff\n", "e": "",
		"big1": big, "big2": big[:len(big)-100] + "X" + big[len(big)-99:], "big3": big + "more",
	}
	cases := []diffCase{
		{Args: []string{"cmp", "c1", "c2"}}, {Args: []string{"cmp", "c1", "c3"}}, {Args: []string{"cmp", "c3", "c1"}},
		{Args: []string{"cmp", "c4", "c5"}}, {Args: []string{"cmp", "-l", "c1", "c2"}}, {Args: []string{"cmp", "-b", "c1", "c2"}},
		{Args: []string{"cmp", "-lb", "c6", "c7"}}, {Args: []string{"cmp", "-b", "c6", "c7"}}, {Args: []string{"cmp", "-s", "c1", "c2"}},
		{Args: []string{"cmp", "-s", "c1", "c1"}}, {Args: []string{"cmp", "-n", "5", "c1", "c2"}}, {Args: []string{"cmp", "c1", "nope"}},
		{Args: []string{"cmp", "-i", "4", "c1", "c2"}}, {Args: []string{"cmp", "c1", "c2", "4", "4"}}, {Args: []string{"cmp", "-l", "c1", "c3"}},
		{Args: []string{"cmp", "e", "c1"}}, {Args: []string{"cmp", "-l", "c1", "c2", "0", "1"}}, {Args: []string{"cmp", "-i", "1:2", "c1", "c2"}},
		{Args: []string{"cmp", "-n", "2K", "c1", "c2"}}, {Args: []string{"cmp", "-n", "x", "c1", "c2"}}, {Args: []string{"cmp"}},
		{Args: []string{"cmp", "c1"}, Stdin: "abc\ndef\n"}, {Args: []string{"cmp", "-", "c2"}, Stdin: "abc\n"},
		{Args: []string{"cmp", "big1", "big2"}}, {Args: []string{"cmp", "big1", "big3"}}, {Args: []string{"cmp", "-l", "big1", "big2"}},
		{Args: []string{"cmp", "big1", "big1"}}, {Args: []string{"cmp", "-s", "big3", "big1"}}, {Args: []string{"cmp", "-ls", "c1", "c2"}},
		{Args: []string{"cmp", "a", "b", "1", "2", "3"}}, {Args: []string{"cmp", "--bytes=3", "c1", "c2"}}, {Args: []string{"cmp", "-l", "-n", "7", "c1", "c2"}},
	}
	for i := range cases {
		cases[i].Files = files
	}
	runDiff(t, cases)
}
