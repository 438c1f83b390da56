package builtins

import (
	"strings"
	"testing"
)

func TestCmp(t *testing.T) {
	files := map[string]string{"a": "abc\ndef\n", "b": "abc\ndxf\n", "short": "abc\n", "same": "abc\ndef\n"}
	tests := []struct {
		args []string
		want string
		st   int
		msg  string
	}{
		{[]string{"a", "same"}, "", 0, ""},
		{[]string{"a", "b"}, "a b differ: char 6, line 2\n", 1, ""},
		{[]string{"-s", "a", "b"}, "", 1, ""},
		{[]string{"-l", "a", "b"}, "6 145 170\n", 1, ""},
		{[]string{"-b", "a", "b"}, "a b differ: byte 6, line 2 is 145 e 170 x\n", 1, ""},
		{[]string{"a", "short"}, "", 1, "EOF on short after byte 4, line 1"},
		{[]string{"-n", "5", "a", "b"}, "", 0, ""},
		{[]string{"-i", "5", "a", "b"}, "a b differ: char 1, line 1\n", 1, ""},
		{[]string{"a", "nope"}, "", 2, "nope"},
		{[]string{"a"}, "", 0, ""},
	}
	for _, tc := range tests {
		env := testEnv(t, files)
		r := run(t, env, "abc\ndef\n", append([]string{"cmp"}, tc.args...)...)
		if r.Stdout != tc.want || r.Status != tc.st || !strings.Contains(r.Stderr, tc.msg) {
			t.Errorf("cmp %v: got %+v, want %q status %d", tc.args, r, tc.want, tc.st)
		}
	}
	// Differences far into big inputs are found past the buffered fast path.
	big := strings.Repeat("x", 200000)
	env := testEnv(t, map[string]string{"p": big + "1", "q": big + "2"})
	if r := run(t, env, "", "cmp", "p", "q"); r.Stdout != "p q differ: char 200001, line 1\n" {
		t.Errorf("big: %+v", r)
	}
}
