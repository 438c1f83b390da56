package builtins

import (
	"regexp"
	"strings"
	"testing"
)

func TestMktemp(t *testing.T) {
	cases := []struct {
		args    []string
		env     []string
		pattern string
		mode    string
	}{
		{[]string{"mktemp"}, nil, `^/tmp/tmp\.[A-Za-z0-9]{10}$`, "-rw-------"},
		{[]string{"mktemp", "-d"}, nil, `^/tmp/tmp\.[A-Za-z0-9]{10}$`, "drwx------"},
		{[]string{"mktemp", "fooXXX.txt"}, nil, `^foo[A-Za-z0-9]{3}\.txt$`, "-rw-------"},
		{[]string{"mktemp", "--suffix=.c", "aXXXX"}, nil, `^a[A-Za-z0-9]{4}\.c$`, "-rw-------"},
		{[]string{"mktemp", "-p", "sub"}, nil, `^sub/tmp\.[A-Za-z0-9]{10}$`, "-rw-------"},
		{[]string{"mktemp", "-t", "x.XXXX"}, []string{"TMPDIR=/workspace/sub"}, `^/workspace/sub/x\.[A-Za-z0-9]{4}$`, "-rw-------"},
		{[]string{"mktemp", "--tmpdir", "y.XXXX"}, nil, `^/tmp/y\.[A-Za-z0-9]{4}$`, "-rw-------"},
		{[]string{"mktemp", "-u"}, nil, `^/tmp/tmp\.[A-Za-z0-9]{10}$`, ""},
	}
	for _, c := range cases {
		env := testEnv(t, map[string]string{"sub/": ""})
		env.Environ = append(env.Environ, c.env...)
		r := run(t, env, "", c.args...)
		name := strings.TrimSuffix(r.Stdout, "\n")
		if r.Status != 0 || r.Stderr != "" || !regexp.MustCompile(c.pattern).MatchString(name) {
			t.Errorf("%v: %q %q %d", c.args, r.Stdout, r.Stderr, r.Status)
			continue
		}
		if c.mode == "" {
			if filesExists(env, name) {
				t.Errorf("%v: dry run created %s", c.args, name)
			}
			continue
		}
		if m := filesMode(t, env, name); m != c.mode {
			t.Errorf("%v: mode %s, want %s", c.args, m, c.mode)
		}
	}
	// Many names from the same clock must not collide.
	env := testEnv(t, nil)
	seen := map[string]bool{}
	for i := 0; i < 50; i++ {
		r := run(t, env, "", "mktemp", "-p", ".", "zXXX")
		if r.Status != 0 || seen[r.Stdout] {
			t.Fatalf("attempt %d: %q %q", i, r.Stdout, r.Stderr)
		}
		seen[r.Stdout] = true
	}
	filesRunCases(t, []filesCase{
		{args: []string{"mktemp", "fooXX"}, errSub: "too few X's in template 'fooXX'", status: 1},
		{args: []string{"mktemp", "-q", "nodir/XXXX"}, status: 1},
		{args: []string{"mktemp", "nodir/XXXX"}, errSub: "failed to create file via template 'nodir/XXXX'", status: 1},
		{args: []string{"mktemp", "a", "b"}, errSub: "too many templates", status: 1},
	})
}
