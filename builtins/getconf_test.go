package builtins

import "testing"

func TestGetconfCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"getconf", "ARG_MAX"}, out: "2097152\n"},
		{args: []string{"getconf", "_NPROCESSORS_ONLN"}, out: "2\n"},
		{args: []string{"getconf", "_NPROCESSORS_CONF"}, out: "6\n", setup: func(e *Env) { e.Sys.NumCPU = 6 }},
		{args: []string{"getconf", "PATH_MAX", "/"}, out: "4096\n"},
		{args: []string{"getconf", "PATH_MAX", "/nope"}, out: "4096\n"},
		{args: []string{"getconf", "NAME_MAX", "/nope"}, status: 3, errHas: "getconf: pathconf: /nope: No such file or directory"},
		{args: []string{"getconf", "PATH_MAX"}, status: 2, errHas: "Usage: getconf"},
		{args: []string{"getconf", "NOPE"}, status: 2, errHas: "Unrecognized variable `NOPE'"},
		{args: []string{"getconf", "-a"}, outHas: "PAGESIZE                            4096\n"},
		{args: []string{"getconf"}, status: 2, errHas: "Usage: getconf"},
	})
}
