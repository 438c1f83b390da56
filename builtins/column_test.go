package builtins

import "testing"

func TestColumnCommand(t *testing.T) {
	files := map[string]string{"l": "one\ntwo\nthree\nfour\nfive\nsix\n"}
	textRunUnits(t, files, []textUnit{
		{args: []string{"column", "l"}, out: "one\ttwo\tthree\tfour\tfive\tsix\n"},
		{args: []string{"column", "-c", "20", "l"}, out: "one\tfour\ntwo\tfive\nthree\tsix\n"},
		{args: []string{"column", "-c", "20", "-x", "l"}, out: "one\ttwo\nthree\tfour\nfive\tsix\n"},
		{args: []string{"column", "-t"}, stdin: "a bb c\nddd e\n", out: "a    bb  c\nddd  e   \n"},
		{args: []string{"column", "-t", "-s", ":"}, stdin: "a:b\nccc::d\n", out: "a    b  \nccc     d\n"},
		{args: []string{"column", "-t", "-o", "|"}, stdin: "a b\ncc d\n", out: "a |b\ncc|d\n"},
		{args: []string{"column", "-t"}, stdin: "x y\n\nz\n", out: "x  y\nz  \n"},
		{args: []string{"column", "nofile"}, status: 1, errSub: "nofile: No such file or directory"},
	})
}

func TestColumnWidthFromEnv(t *testing.T) {
	env := testEnv(t, map[string]string{"l": "one\ntwo\nthree\nfour\n"})
	env.Environ = append(env.Environ, "COLUMNS=16")
	if got := run(t, env, "", "column", "l"); got.Stdout != "one\tthree\ntwo\tfour\n" {
		t.Errorf("COLUMNS=16 column: %q", got.Stdout)
	}
}
