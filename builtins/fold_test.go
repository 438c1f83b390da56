package builtins

import "testing"

func TestFoldCommand(t *testing.T) {
	textRunUnits(t, nil, []textUnit{
		{args: []string{"fold", "-w", "3"}, stdin: "abcdefg\n", out: "abc\ndef\ng\n"},
		{args: []string{"fold", "-w4", "-s"}, stdin: "ab cd ef\n", out: "ab \ncd \nef\n"},
		{args: []string{"fold", "-w", "4"}, stdin: "a\tb\n", out: "a\n\t\nb\n"},
		{args: []string{"fold", "-b", "-w", "4"}, stdin: "a\tbcde\n", out: "a\tbc\nde\n"},
		{args: []string{"fold", "-3"}, stdin: "abcd", out: "abc\nd"},
		{args: []string{"fold"}, stdin: "short\n", out: "short\n"},
		{args: []string{"fold", "-w", "0"}, status: 1, errSub: "invalid number of columns"},
		{args: []string{"fold", "nofile"}, status: 1, errSub: "fold: nofile: No such file"},
	})
}
