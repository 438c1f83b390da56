package builtins

import "testing"

func TestHostnameCommand(t *testing.T) {
	fqdn := func(e *Env) { e.Sys.Hostname = "box.example.org" }
	shellRunCases(t, []shellCase{
		{args: []string{"hostname"}, out: "sandbox\n"},
		{args: []string{"hostname", "-s"}, out: "box\n", setup: fqdn},
		{args: []string{"hostname", "-f"}, out: "box.example.org\n", setup: fqdn},
		{args: []string{"hostname", "-d"}, out: "example.org\n", setup: fqdn},
		{args: []string{"hostname", "-i"}, out: "127.0.1.1\n"},
		{args: []string{"hostname", "newname"}, status: 1, errHas: "must be root"},
	})
}
