package builtins

import "testing"

func TestIDCommand(t *testing.T) {
	passwd := map[string]string{
		"/etc/passwd": "root:x:0:0:root:/root:/bin/sh\nsandbox:x:1000:1000::/home/sandbox:/bin/bash\nbob:x:1001:1001::/home/bob:/bin/sh\n",
		"/etc/group":  "root:x:0:\nsandbox:x:1000:\nbob:x:1001:\ndev:x:2000:sandbox,bob\n",
	}
	shellRunCases(t, []shellCase{
		{args: []string{"id"}, out: "uid=1000(sandbox) gid=1000(sandbox) groups=1000(sandbox)\n"},
		{args: []string{"id", "-u"}, out: "1000\n"},
		{args: []string{"id", "-g"}, out: "1000\n"},
		{args: []string{"id", "-G"}, out: "1000\n"},
		{args: []string{"id", "-un"}, out: "sandbox\n"},
		{args: []string{"id", "-gn"}, out: "sandbox\n"},
		{args: []string{"id", "-Gz"}, out: "1000\x00"},
		{args: []string{"id", "root"}, out: "uid=0(root) gid=0(root) groups=0(root)\n"},
		{args: []string{"id", "-u", "0"}, out: "0\n"},
		{args: []string{"id", "ghost"}, status: 1, errHas: "'ghost': no such user"},
		{args: []string{"id", "-n"}, status: 1, errHas: "cannot print only names"},
		{args: []string{"id", "-ug"}, status: 1, errHas: "more than one choice"},
		{name: "passwd file", args: []string{"id"}, files: passwd,
			out: "uid=1000(sandbox) gid=1000(sandbox) groups=1000(sandbox),2000(dev)\n"},
		{name: "passwd bob", args: []string{"id", "-Gn", "bob"}, files: passwd, out: "bob dev\n"},
		{name: "other uid", args: []string{"id", "-u"}, out: "1234\n", setup: func(e *Env) { e.Sys.UID = 1234 }},
	})
}
