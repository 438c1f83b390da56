package builtins

import "testing"

func TestEchoCommand(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"echo", "a", "b"}, "a b\n"},
		{[]string{"echo", "-n", "a"}, "a"},
		{[]string{"echo", "-e", `a\tb\x41\0101\c`, "z"}, "a\tbAA"},
		{[]string{"echo", "-E", `a\tb`}, "a\\tb\n"},
		{[]string{"echo", "-nx", "a"}, "-nx a\n"},
		{[]string{"echo", "-neE", `a\n`}, "a\\n"},
		{[]string{"echo", "--", "a"}, "-- a\n"},
		{[]string{"echo"}, "\n"},
	}
	for _, c := range cases {
		got := run(t, testEnv(t, nil), "", c.args...)
		if got.Stdout != c.want || got.Status != 0 {
			t.Errorf("%q: got %q (%d), want %q", c.args, got.Stdout, got.Status, c.want)
		}
	}
}
