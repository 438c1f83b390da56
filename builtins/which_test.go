package builtins

import "testing"

func TestWhichCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"which", "echo"}, out: "/usr/bin/echo\n", setup: shellLookPath},
		{args: []string{"which", "seq", "nope", "date"}, out: "/usr/bin/seq\n/usr/bin/date\n", status: 1, setup: shellLookPath},
		{args: []string{"which", "-a", "seq"}, out: "/usr/bin/seq\n", setup: shellLookPath},
		{args: []string{"which"}, status: 1, setup: shellLookPath},
		{args: []string{"which", "-x", "seq"}, status: 2, errHas: "Illegal option -x", setup: shellLookPath},
		{name: "no gateway", args: []string{"which", "seq"}, status: 1},
	})
}
