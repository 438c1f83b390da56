package builtins

import (
	"fmt"
	"strings"
	"testing"
)

func TestTail(t *testing.T) {
	var big strings.Builder
	for i := 1; i <= 30000; i++ {
		fmt.Fprintf(&big, "line %d\n", i)
	}
	files := map[string]string{"f": "1\n2\n3\n4\n5\n", "noeol": "a\nb", "big": big.String()}
	cases := []struct {
		args   []string
		stdin  string
		out    string
		status int
	}{
		{[]string{"tail", "-n2", "f"}, "", "4\n5\n", 0},
		{[]string{"tail", "-f", "--pid=1", "-n1", "f"}, "", "5\n", 0},
		{[]string{"tail", "-F", "--pid=1", "f"}, "", "1\n2\n3\n4\n5\n", 0},
		{[]string{"tail", "--follow=name", "--pid=1", "-n1", "noeol"}, "", "b", 0},
		{[]string{"tail", "+4", "f"}, "", "4\n5\n", 0},
		{[]string{"tail", "--pid=1", "-2f", "f"}, "", "4\n5\n", 0},
		{[]string{"tail", "--pid=1", "-3cf", "f"}, "", "\n5\n", 0},
		{[]string{"tail", "-1l", "f"}, "", "5\n", 0},
		{[]string{"tail", "-n", "+4", "-"}, "1\n2\n3\n4\n5\n", "4\n5\n", 0},
		{[]string{"tail", "-c", "+2", "noeol"}, "", "\nb", 0},
		{[]string{"tail", "-n2", "big"}, "", "line 29999\nline 30000\n", 0},
		{[]string{"tail", "-n", "2"}, big.String(), "line 29999\nline 30000\n", 0},
		{[]string{"tail", "-c", "11", "big"}, "", "line 30000\n", 0},
		{[]string{"tail", "-c", "11"}, big.String(), "line 30000\n", 0},
		{[]string{"tail", "-n", "+29999", "big"}, "", "line 29999\nline 30000\n", 0},
		{[]string{"tail", "-n", "x", "f"}, "", "", 1},
		{[]string{"tail", "--help"}, "", tailUsage, 0},
	}
	for _, c := range cases {
		env := testEnv(t, files)
		got := run(t, env, c.stdin, c.args...)
		if got.Stdout != c.out || got.Status != c.status {
			t.Errorf("%v: got %q status %d (%q), want %q status %d", c.args, got.Stdout, got.Status, got.Stderr, c.out, c.status)
		}
	}
}

// TestTailSeekMatchesStream compares the seeking path (a file) with the
// streaming one (stdin) for many counts.
func TestTailSeekMatchesStream(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 5000; i++ {
		b.WriteString(strings.Repeat("x", i%200))
		b.WriteString("\n")
	}
	data := b.String() + "tail without newline"
	env := testEnv(t, map[string]string{"f": data})
	for _, n := range []string{"0", "1", "2", "17", "999", "4999", "5000", "5001", "100000"} {
		for _, flag := range []string{"-n", "-c"} {
			file := run(t, env, "", "tail", flag, n, "f")
			stream := run(t, env, data, "tail", flag, n)
			if file.Stdout != stream.Stdout {
				t.Errorf("tail %s %s: file and stream differ (%d vs %d bytes)", flag, n, len(file.Stdout), len(stream.Stdout))
			}
		}
	}
}
