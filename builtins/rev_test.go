package builtins

import "testing"

func TestRevCommand(t *testing.T) {
	files := map[string]string{"f": "abc\nxy\n"}
	textRunUnits(t, files, []textUnit{
		{args: []string{"rev", "f"}, out: "cba\nyx\n"},
		{args: []string{"rev"}, stdin: "12\n\n3", out: "21\n\n3"},
		{args: []string{"rev"}, stdin: "a\xffb\n", out: "b\xffa\n"},
		{args: []string{"rev", "nofile", "f"}, out: "cba\nyx\n", status: 1, errSub: "cannot open nofile"},
	})
}
