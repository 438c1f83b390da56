package builtins

import "testing"

func TestTrCommand(t *testing.T) {
	textRunUnits(t, nil, []textUnit{
		{args: []string{"tr", "a-z", "A-Z"}, stdin: "hello\n", out: "HELLO\n"},
		{args: []string{"tr", "[:upper:]", "[:lower:]"}, stdin: "HeLLo\n", out: "hello\n"},
		{args: []string{"tr", "-d", "l"}, stdin: "hello\n", out: "heo\n"},
		{args: []string{"tr", "-s", "l"}, stdin: "helllo\n", out: "helo\n"},
		{args: []string{"tr", "-cd", "0-9"}, stdin: "a1b2\n", out: "12"},
		{args: []string{"tr", "-c", "a", "x"}, stdin: "abc\n", out: "axxx"},
		{args: []string{"tr", "-ds", "a", "b"}, stdin: "abbbac\n", out: "bc\n"},
		{args: []string{"tr", "abc", "x"}, stdin: "abcd", out: "xxxd"},
		{args: []string{"tr", "-t", "abc", "x"}, stdin: "abcd", out: "xbcd"},
		{args: []string{"tr", "a-d", "[x*2]y[z*]"}, stdin: "abcd", out: "xxyz"},
		{args: []string{"tr", "\\n", "\\t"}, stdin: "a\nb\n", out: "a\tb\t"},
		{args: []string{"tr", "\\141", "\\102"}, stdin: "a", out: "B"},
		{args: []string{"tr", "\\000", "x"}, stdin: "a\x00\xff", out: "ax\xff"},
		{args: []string{"tr", "[=a=]", "b"}, stdin: "aa", out: "bb"},
		{args: []string{"tr", "a"}, status: 1, errSub: "missing operand after 'a'"},
		{args: []string{"tr"}, status: 1, errSub: "missing operand"},
		{args: []string{"tr", "-d", "a", "b"}, status: 1, errSub: "extra operand 'b'"},
		{args: []string{"tr", "z-a", "x"}, status: 1, errSub: "reverse collating sequence order"},
		{args: []string{"tr", "[:nope:]", "x"}, status: 1, errSub: "invalid character class"},
		{args: []string{"tr", "a", ""}, status: 1, errSub: "string2 must be non-empty"},
		{args: []string{"tr", "a-z", "[:digit:]"}, status: 1, errSub: "only character classes"},
		{args: []string{"tr", "a\\", "xy"}, stdin: "a\\", out: "xy", errSub: "unescaped backslash"},
	})
}
