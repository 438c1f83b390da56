package builtins

import "testing"

func TestTacCommand(t *testing.T) {
	files := map[string]string{"f": "1\n2\n3\n", "g": "a\nb"}
	textRunUnits(t, files, []textUnit{
		{args: []string{"tac", "f"}, out: "3\n2\n1\n"},
		{args: []string{"tac", "g"}, out: "ba\n"},
		{args: []string{"tac", "f", "g"}, out: "3\n2\n1\nba\n"},
		{args: []string{"tac", "-s", ","}, stdin: "a,b,c,", out: "c,b,a,"},
		{args: []string{"tac", "-b", "-s", ","}, stdin: ",a,b", out: ",b,a"},
		{args: []string{"tac", "-r", "-s", "[0-9]"}, stdin: "a1b2c3", out: "c3b2a1"},
		{args: []string{"tac"}, stdin: "", out: ""},
		{args: []string{"tac", "nofile"}, status: 1, errSub: "tac: nofile: No such file"},
	})
}
