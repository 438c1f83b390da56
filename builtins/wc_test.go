package builtins

import (
	"context"
	"strings"
	"testing"
)

func TestWc(t *testing.T) {
	files := map[string]string{"f": "one two\nthree\n", "g": "x\n", "d/": ""}
	cases := []struct {
		args   []string
		stdin  string
		out    string
		status int
	}{
		{[]string{"wc", "f"}, "", " 2  3 14 f\n", 0},
		{[]string{"wc", "-l", "f"}, "", "2 f\n", 0},
		{[]string{"wc", "-lw"}, "a b\n", "      1       2\n", 0},
		{[]string{"wc", "-c"}, "abc", "3\n", 0},
		{[]string{"wc", "f", "g"}, "", " 2  3 14 f\n 1  1  2 g\n 3  4 16 total\n", 0},
		{[]string{"wc", "-L", "f", "g"}, "", " 7 f\n 1 g\n 7 total\n", 0},
		{[]string{"wc", "-m", "f"}, "", "14 f\n", 0},
		{[]string{"wc", "nofile"}, "", "", 1},
		{[]string{"wc", "d"}, "", "      0       0       0 d\n", 1},
		{[]string{"wc", "--help"}, "", wcUsage, 0},
		{[]string{"wc", "-x"}, "", "", 1},
	}
	for _, c := range cases {
		env := testEnv(t, files)
		got := run(t, env, c.stdin, c.args...)
		if got.Stdout != c.out || got.Status != c.status {
			t.Errorf("%v: got %q status %d (%q), want %q status %d", c.args, got.Stdout, got.Status, got.Stderr, c.out, c.status)
		}
	}
}

// TestWcStdinFile: stdin redirected from a regular file is sized like GNU
// does with fstat, so columns are as wide as its size needs.
func TestWcStdinFile(t *testing.T) {
	env := testEnv(t, map[string]string{"f": strings.Repeat("word\n", 3000)})
	f, err := env.FS.Open(env.Abs("f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out strings.Builder
	sub := env.Sub()
	sub.Stdin, sub.Stdout = f, &out
	if st := sub.Run(context.Background(), []string{"wc"}); st != 0 {
		t.Fatalf("status %d", st)
	}
	if out.String() != " 3000  3000 15000\n" {
		t.Errorf("got %q", out.String())
	}
}

func TestWcScan(t *testing.T) {
	// Chunk boundaries must not split words or columns.
	data := "ab\tcd ef\r\nghi\v jk\x01l\xe9m n\n"
	want, _ := wcCount(context.Background(), strings.NewReader(data), wcWhat{words: true, maxLen: true})
	for cut := 0; cut <= len(data); cut++ {
		c := &wcCounts{}
		in, pos := wcScan(c, []byte(data[:cut]), false, 0)
		in, pos = wcScan(c, []byte(data[cut:]), in, pos)
		if in {
			c.words++
		}
		c.maxLen = max(c.maxLen, pos)
		if c.words != want.words || c.lines != want.lines || c.maxLen != want.maxLen {
			t.Errorf("cut %d: %+v, want %+v", cut, c, want)
		}
	}
	if want.words != 6 || want.lines != 2 || want.maxLen != 13 {
		t.Errorf("counts %+v", want)
	}
}
