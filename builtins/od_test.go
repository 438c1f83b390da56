package builtins

import (
	"strings"
	"testing"
)

func TestOd(t *testing.T) {
	tests := []struct {
		args  []string
		stdin string
		want  string
	}{
		{nil, "abc", "0000000 061141 000143\n0000003\n"},
		{[]string{"-c"}, "a\n\x00\xff", "0000000   a  \\n  \\0 377\n0000004\n"},
		{[]string{"-An", "-tx1"}, "AB", " 41 42\n"},
		{[]string{"-Ad", "-tu1", "-N2"}, "\x05\x06\x07", "0000000   5   6\n0000002\n"},
		{[]string{"-tx1", "-j1"}, "\x01\x02", "0000001 02\n0000002\n"},
		{[]string{"-ta"}, " \x7f\x80", "0000000  sp del nul\n0000003\n"},
		{[]string{"-tx2z"}, "hi", "0000000 6968                                     >hi<\n0000002\n"},
		{nil, strings.Repeat("\x00", 48), "0000000 000000 000000 000000 000000 000000 000000 000000 000000\n*\n0000060\n"},
		{[]string{"-tf4"}, "\x00\x00\x80\x3f", "0000000               1\n0000004\n"},
	}
	for _, tc := range tests {
		env := testEnv(t, nil)
		r := run(t, env, tc.stdin, append([]string{"od"}, tc.args...)...)
		if r.Stdout != tc.want || r.Status != 0 {
			t.Errorf("od %v: got %q (%d %q), want %q", tc.args, r.Stdout, r.Status, r.Stderr, tc.want)
		}
	}
	env := testEnv(t, map[string]string{"a": "x"})
	if r := run(t, env, "", "od", "-c", "a", "nope"); r.Status != 1 || !strings.Contains(r.Stdout, "x") {
		t.Errorf("missing file among inputs: %+v", r)
	}
	if r := run(t, env, "", "od", "-t", "z"); r.Status != 1 {
		t.Errorf("bad type: %+v", r)
	}
}
