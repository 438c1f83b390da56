package builtins

import "testing"

func TestStrings(t *testing.T) {
	in := "hi\x00hello\x01wor\x02world wide\nnext\x7fabcd"
	tests := []struct {
		args []string
		want string
	}{
		{nil, "hello\nworld wide\nnext\nabcd\n"},
		{[]string{"-n", "6"}, "world wide\n"},
		{[]string{"-3"}, "hello\nwor\nworld wide\nnext\nabcd\n"},
		{[]string{"-t", "d"}, "      3 hello\n     13 world wide\n     24 next\n     29 abcd\n"},
		{[]string{"-t", "x", "-n", "8"}, "      d world wide\n"},
		{[]string{"-w", "-n", "8"}, "world wide\nnext\n"},
	}
	for _, tc := range tests {
		env := testEnv(t, nil)
		r := run(t, env, in, append([]string{"strings"}, tc.args...)...)
		if r.Stdout != tc.want || r.Status != 0 {
			t.Errorf("strings %v: got %+v, want %q", tc.args, r, tc.want)
		}
	}
	env := testEnv(t, nil)
	if r := run(t, env, "", "strings", "nope"); r.Status != 1 || r.Stderr == "" {
		t.Errorf("missing: %+v", r)
	}
}
