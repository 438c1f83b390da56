package builtins

import "testing"

func TestTputCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"tput", "colors"}, env: []string{"TERM=dumb"}, out: "-1\n"},
		{args: []string{"tput", "colors"}, env: []string{"TERM=xterm"}, out: "8\n"},
		{args: []string{"tput", "-T", "xterm-256color", "colors"}, out: "256\n"},
		{args: []string{"tput", "-Tscreen", "colors"}, out: "8\n"},
		{args: []string{"tput", "cols"}, env: []string{"TERM=dumb"}, out: "80\n"},
		{args: []string{"tput", "lines"}, env: []string{"TERM=xterm", "LINES=50"}, out: "50\n"},
		{args: []string{"tput", "bold"}, env: []string{"TERM=xterm"}, out: "\x1b[1m"},
		{args: []string{"tput", "sgr0"}, env: []string{"TERM=xterm"}, out: "\x1b(B\x1b[m"},
		{args: []string{"tput", "setaf", "3"}, env: []string{"TERM=xterm"}, out: "\x1b[33m"},
		{args: []string{"tput", "setab", "200"}, env: []string{"TERM=xterm-256color"}, out: "\x1b[48;5;200m"},
		{args: []string{"tput", "cup", "2", "5"}, env: []string{"TERM=xterm"}, out: "\x1b[3;6H"},
		{args: []string{"tput", "bold"}, env: []string{"TERM=dumb"}, status: 1},
		{args: []string{"tput", "cols"}, env: []string{"TERM=foo"}, status: 3, errHas: `unknown terminal "foo"`},
		{args: []string{"tput", "foo"}, env: []string{"TERM=xterm"}, status: 4, errHas: "unknown terminfo capability 'foo'"},
		{args: []string{"tput", "setaf", "x"}, env: []string{"TERM=xterm"}, status: 4, errHas: "unknown terminfo capability"},
		{args: []string{"tput"}, env: []string{"TERM=xterm"}, status: 2, errHas: "usage"},
	})
}
