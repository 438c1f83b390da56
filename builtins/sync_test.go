package builtins

import "testing"

func TestSyncCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"sync"}},
		{args: []string{"sync", "f"}, files: map[string]string{"f": "x"}},
		{args: []string{"sync", "-f", "d"}, files: map[string]string{"d/": ""}},
		{args: []string{"sync", "nope"}, status: 1, errHas: "error opening 'nope': No such file or directory"},
		{args: []string{"sync", "-d"}, status: 1, errHas: "--data needs at least one argument"},
		{args: []string{"sync", "-d", "-f", "f"}, files: map[string]string{"f": "x"}, status: 1, errHas: "cannot specify both"},
	})
}
