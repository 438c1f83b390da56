package builtins

import (
	"strings"
	"testing"
)

func TestGetoptCommand(t *testing.T) {
	cases := []struct {
		args   []string
		out    string
		errSub string
		status int
	}{
		{[]string{"getopt", "-o", "ab:c::", "-l", "long,req:,opt::", "--", "-a", "-b", "x", "--long", "--req=y", "--opt", "file", "-c", "-cz", "it's", "--lo"},
			" -a -b 'x' --long --req 'y' --opt '' -c '' -c 'z' --long -- 'file' 'it'\\''s'\n", "", 0},
		{[]string{"getopt", "-o", "a", "--", "-x"}, " --\n", "getopt: invalid option -- 'x'", 1},
		{[]string{"getopt", "-o", "b:", "--", "-a", "-b"}, " --\n", "getopt: option requires an argument -- 'b'", 1},
		{[]string{"getopt", "-o", "ab:", "--", "-a", "-b"}, " -a --\n", "option requires an argument", 1},
		{[]string{"getopt", "-o", "a", "-l", "long", "--", "--nope", "--long=3"}, " --\n", "getopt: unrecognized option '--nope'", 1},
		{[]string{"getopt", "-o", "a", "-l", "long", "--", "--long=3"}, " --\n", "getopt: option '--long' doesn't allow an argument", 1},
		{[]string{"getopt", "-n", "prog", "-o", "a", "--", "-x"}, " --\n", "prog: invalid option -- 'x'", 1},
		{[]string{"getopt", "-q", "-o", "a", "--", "-x"}, " --\n", "", 1},
		{[]string{"getopt", "-Q", "-o", "a", "--", "-a"}, "", "", 0},
		{[]string{"getopt", "ab:", "-a", "-b", "5", "f"}, " -a -b 5 -- f\n", "", 0},
		{[]string{"getopt", "-o", "+a", "--", "-a", "f", "-a"}, " -a -- 'f' '-a'\n", "", 0},
		{[]string{"getopt", "-u", "-o", "a", "--", "-a", "x y"}, " -a -- x y\n", "", 0},
		{[]string{"getopt", "-o", "a", "-l", "lo", "-a", "--", "-lo"}, " --lo --\n", "", 0},
		{[]string{"getopt", "-o", "", "-l", "verbose,version", "--", "--ver"}, " --\n", "option '--ver' is ambiguous", 1},
		{[]string{"getopt", "-o", "", "-l", "verbose,version", "--", "--verb", "a"}, " --verbose -- 'a'\n", "", 0},
		{[]string{"getopt", "-T"}, "", "", 4},
		{[]string{"getopt"}, "", "getopt: missing optstring argument", 2},
		{[]string{"getopt", "--bogus"}, "", "unrecognized option '--bogus'", 2},
	}
	for _, c := range cases {
		env := testEnv(t, nil)
		r := run(t, env, "", c.args...)
		if r.Stdout != c.out || r.Status != c.status || (c.errSub == "") != (r.Stderr == "") || !strings.Contains(r.Stderr, c.errSub) {
			t.Errorf("%q: got %+v, want %q status %d stderr ~%q", c.args, r, c.out, c.status, c.errSub)
		}
	}
}

func TestDiffGetopt(t *testing.T) {
	runDiff(t, []diffCase{
		{Args: []string{"getopt", "-o", "ab:c::", "-l", "long,req:,opt::", "--", "-a", "-b", "x", "--long", "--req=y", "--opt", "file", "-c", "-cz", "it's", "--lo"}},
		{Args: []string{"getopt", "-o", "a", "--", "-x", "-a"}},
		{Args: []string{"getopt", "-o", "ab:", "--", "-a", "-b"}},
		{Args: []string{"getopt", "-o", "a", "-l", "long", "--", "--nope", "--long=3", "--long"}},
		{Args: []string{"getopt", "-n", "prog", "-o", "a", "--", "-x"}},
		{Args: []string{"getopt", "-q", "-o", "a", "--", "-x"}},
		{Args: []string{"getopt", "ab:", "-a", "-b", "5", "f"}},
		{Args: []string{"getopt", "-o", "+a", "--", "-a", "f", "-a"}},
		{Args: []string{"getopt", "-u", "-o", "a", "--", "-a", "x y"}},
		{Args: []string{"getopt", "-a", "-o", "a", "-l", "lo", "--", "-lo", "-a"}},
		{Args: []string{"getopt", "-o", "", "-l", "verbose,version", "--", "--ver", "--verb", "a"}},
		{Args: []string{"getopt", "-T"}},
		{Args: []string{"getopt"}},
		{Args: []string{"getopt", "--bogus"}},
		{Args: []string{"getopt", "-s", "tcsh", "-o", "a", "--", "a!b"}},
	})
}
