package builtins

import "testing"

func TestExprCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"expr", "2", "+", "3"}, out: "5\n"},
		{args: []string{"expr", "2", "*", "(", "3", "+", "4", ")"}, out: "14\n"},
		{args: []string{"expr", "123456789123456789", "*", "1000"}, out: "123456789123456789000\n"},
		{args: []string{"expr", "5", "-", "5"}, out: "0\n", status: 1},
		{args: []string{"expr", "abc", ":", "a\\(.\\)"}, out: "b\n"},
		{args: []string{"expr", "hello", ":", "hel*"}, out: "4\n"},
		{args: []string{"expr", "x", ":", "y"}, out: "0\n", status: 1},
		{args: []string{"expr", "length", "héllo"}, out: "6\n"},
		{args: []string{"expr", "substr", "abcdef", "2", "3"}, out: "bcd\n"},
		{args: []string{"expr", "index", "abcdef", "fd"}, out: "4\n"},
		{args: []string{"expr", "", "|", "fallback"}, out: "fallback\n"},
		{args: []string{"expr", "1", "/", "0"}, status: 2, errHas: "division by zero"},
		{args: []string{"expr", "a", "+", "1"}, status: 2, errHas: "non-integer argument"},
		{args: []string{"expr", "1", "+"}, status: 2, errHas: "syntax error: missing argument after '+'"},
		{args: []string{"expr", "a", ":", "\\("}, status: 2, errHas: "Unmatched"},
		{args: []string{"expr"}, status: 2, errHas: "missing operand"},
		{args: []string{"expr", "--help"}, outHas: "Usage: expr"},
		{args: []string{"expr", "--help", "=", "--help"}, out: "1\n"},
	})
}
