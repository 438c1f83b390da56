package builtins

import (
	"strings"
	"testing"
)

func TestHexdump(t *testing.T) {
	tests := []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"-C"}, "abc", "00000000  61 62 63                                          |abc|\n00000003\n"},
		{nil, "abcd", "0000000 6261 6463\n0000004\n"[:0] + "0000000 6261 6463                              \n0000004\n"},
		{[]string{"-C", "-s", "1", "-n", "1"}, "abc", "00000001  62                                                |b|\n00000002\n"},
		{[]string{"-C"}, "", ""},
		{[]string{"-C"}, strings.Repeat("a", 48), "00000000  61 61 61 61 61 61 61 61  61 61 61 61 61 61 61 61  |aaaaaaaaaaaaaaaa|\n*\n00000030\n"},
		{[]string{"-b"}, "\x01", "0000000 001                                                            \n0000001\n"},
	}
	for _, tc := range tests {
		env := testEnv(t, nil)
		r := run(t, env, tc.stdin, append([]string{"hexdump"}, tc.args...)...)
		if r.Stdout != tc.want || r.Status != 0 {
			t.Errorf("hexdump %v: got %q (%d %q), want %q", tc.args, r.Stdout, r.Status, r.Stderr, tc.want)
		}
	}
	env := testEnv(t, nil)
	if r := run(t, env, "", "hexdump", "nope"); r.Status != 1 || !strings.Contains(r.Stderr, "all input file arguments failed") {
		t.Errorf("missing: %+v", r)
	}
}
