package builtins

import "testing"

func TestUnameCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"uname"}, out: "Linux\n"},
		{args: []string{"uname", "-a"}, out: "Linux sandbox 6.1.0-sandsh #1 SMP PREEMPT_DYNAMIC sandsh x86_64 GNU/Linux\n"},
		{args: []string{"uname", "-snrvmpio"}, out: "Linux sandbox 6.1.0-sandsh #1 SMP PREEMPT_DYNAMIC sandsh x86_64 unknown unknown GNU/Linux\n"},
		{args: []string{"uname", "-m", "-s"}, out: "Linux x86_64\n"},
		{args: []string{"uname", "-n"}, out: "web1\n", setup: func(e *Env) { e.Sys.Hostname = "web1" }},
		{args: []string{"uname", "-r"}, out: "6.1.0-sandsh\n"},
		{args: []string{"uname", "--operating-system"}, out: "GNU/Linux\n"},
		{args: []string{"uname", "-x"}, status: 1, errHas: "invalid option"},
		{args: []string{"uname", "extra"}, status: 1, errHas: "extra operand"},
	})
}
