package builtins

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestShuf(t *testing.T) {
	sorted := func(s string) string {
		l := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
		slices.Sort(l)
		return strings.Join(l, ",")
	}
	cases := []struct {
		args   []string
		stdin  string
		sorted string // the output lines, sorted ("" with want)
		lines  int    // -1: do not count
		errSub string
		status int
	}{
		{[]string{"shuf"}, "a\nb\nc\n", "a,b,c", 3, "", 0},
		{[]string{"shuf"}, "a\nb\nc", "a,b,c", 3, "", 0},
		{[]string{"shuf", "-e", "x", "y"}, "", "x,y", 2, "", 0},
		{[]string{"shuf", "-i", "1-5"}, "", "1,2,3,4,5", 5, "", 0},
		{[]string{"shuf", "-i", "3-3"}, "", "3", 1, "", 0},
		{[]string{"shuf", "-i", "1-0"}, "", "", 0, "", 0},
		{[]string{"shuf", "-n", "2", "-i", "1-1000000000000"}, "", "", 2, "", 0},
		{[]string{"shuf", "-n", "0", "-i", "1-5"}, "", "", 0, "", 0},
		{[]string{"shuf", "-r", "-n", "7", "-e", "z"}, "", "z,z,z,z,z,z,z", 7, "", 0},
		{[]string{"shuf", "-n", "99999999999999999999999", "-e", "a"}, "", "a", 1, "", 0},
		{[]string{"shuf", "-i", "18446744073709551614-18446744073709551615"}, "", "18446744073709551614,18446744073709551615", 2, "", 0},
		{[]string{"shuf", "-i", "5-1"}, "", "", 0, "shuf: invalid input range: '5-1'", 1},
		{[]string{"shuf", "-n", "-1"}, "", "", 0, "shuf: invalid line count: '-1'", 1},
		{[]string{"shuf", "a", "b"}, "", "", 0, "shuf: extra operand 'b'", 1},
		{[]string{"shuf", "-i", "1-3", "a"}, "", "", 0, "shuf: extra operand 'a'", 1},
		{[]string{"shuf", "-e", "-i", "1-3"}, "", "", 0, "cannot combine -e and -i options", 1},
		{[]string{"shuf", "nope"}, "", "", 0, "shuf: nope: No such file or directory", 1},
		{[]string{"shuf", "--random-source=nope", "-e", "a"}, "", "", 0, "shuf: nope: No such file or directory", 1},
	}
	for _, c := range cases {
		env := testEnv(t, nil)
		r := run(t, env, c.stdin, c.args...)
		n := strings.Count(r.Stdout, "\n")
		if r.Status != c.status || (c.errSub == "") != (r.Stderr == "") || !strings.Contains(r.Stderr, c.errSub) ||
			n != c.lines || c.sorted != "" && sorted(r.Stdout) != c.sorted {
			t.Errorf("%q: got %+v", c.args, r)
		}
	}
	// The same --random-source gives the same order; the order is a
	// permutation, not the input's every time.
	env := testEnv(t, map[string]string{"seed": "some random bytes", "in": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"})
	a := run(t, env, "", "shuf", "--random-source=seed", "in")
	b := run(t, env, "", "shuf", "--random-source=seed", "in")
	if a.Stdout != b.Stdout || sorted(a.Stdout) != sorted(readFile(t, env, "in")) {
		t.Errorf("--random-source: %q then %q", a.Stdout, b.Stdout)
	}
	seen := map[string]bool{}
	for i := 0; i < 20; i++ {
		env.Sys.Now = func() time.Time { return time.Unix(int64(i), 0) }
		seen[run(t, env, "", "shuf", "in").Stdout] = true
	}
	if len(seen) < 10 {
		t.Errorf("20 runs gave %d orders", len(seen))
	}
	if r := run(t, env, "", "shuf", "-o", "out", "-e", "q"); r.Status != 0 || readFile(t, env, "out") != "q\n" {
		t.Errorf("-o: %+v", r)
	}
	// -r without -n stops at a write error (its reader gone).
	sub := env.Sub()
	sub.Stdout = &closedPipe{n: 5000}
	if st := runOrHang(t, "shuf -r", func() int { return sub.Run(context.Background(), []string{"shuf", "-r", "-e", "a"}) }); st != StatusBrokenPipe {
		t.Errorf("shuf -r into a closed pipe: status %d", st)
	}
}

func TestDiffShuf(t *testing.T) {
	runDiff(t, []diffCase{
		{Args: []string{"shuf", "-i", "1-1"}},
		{Args: []string{"shuf", "-i", "1-0"}},
		{Args: []string{"shuf", "-e"}},
		{Args: []string{"shuf", "-n", "0", "-e", "a", "b"}},
		{Args: []string{"shuf", "-r", "-n", "3", "-e", "a"}},
		{Args: []string{"shuf", "-i", "5-1"}},
		{Args: []string{"shuf", "-n", "x"}},
		{Args: []string{"shuf", "a", "b"}},
		{Args: []string{"shuf", "nofile"}},
		{Args: []string{"shuf", "-e", "-i", "1-2"}},
		{Args: []string{"shuf"}, Stdin: "only\n"},
	})
}
