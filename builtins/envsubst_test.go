package builtins

import (
	"strings"
	"testing"
)

func TestEnvsubst(t *testing.T) {
	cases := []struct {
		args       []string
		stdin, out string
		errSub     string
		status     int
	}{
		{[]string{"envsubst"}, "a $A ${B} $ ${C $D}$E_1x $$A\n", "a 1 2 $ ${C } $1\n", "", 0},
		{[]string{"envsubst", "$A"}, "x $A $B ${A}\n", "x 1 $B 1\n", "", 0},
		{[]string{"envsubst", "${B} $NOPE"}, "$A $B $NOPE", "$A 2 ", "", 0},
		{[]string{"envsubst", "-v", "$A ${B} $A $ ${C"}, "", "A\nB\nA\n", "", 0},
		{[]string{"envsubst", "--variables", "x"}, "", "", "", 0},
		{[]string{"envsubst", "a", "b"}, "", "", "envsubst: too many arguments", 1},
		{[]string{"envsubst", "-v"}, "", "", "envsubst: missing arguments", 1},
		{[]string{"envsubst", "--bogus"}, "", "", "unrecognized option '--bogus'", 1},
		{[]string{"envsubst"}, "no newline $A", "no newline 1", "", 0},
	}
	for _, c := range cases {
		env := testEnv(t, nil)
		env.Environ = append(env.Environ, "A=1", "B=2")
		r := run(t, env, c.stdin, c.args...)
		if r.Stdout != c.out || r.Status != c.status || (c.errSub == "") != (r.Stderr == "") || !strings.Contains(r.Stderr, c.errSub) {
			t.Errorf("%q <<< %q: got %+v, want %q status %d stderr ~%q", c.args, c.stdin, r, c.out, c.status, c.errSub)
		}
	}
}

func TestDiffEnvsubst(t *testing.T) {
	in := "a $A ${B} $ ${C $D}$E_1x $$A ${HOME\n$LC_ALL ${PATH}\n"
	runDiff(t, []diffCase{
		{Args: []string{"envsubst"}, Stdin: in},
		{Args: []string{"envsubst", "$LC_ALL"}, Stdin: in},
		{Args: []string{"envsubst", "-v", "$A ${B} $A ${C"}},
		{Args: []string{"envsubst", "a", "b"}},
		{Args: []string{"envsubst", "-v"}},
		{Args: []string{"envsubst", "--nope"}},
	})
}
