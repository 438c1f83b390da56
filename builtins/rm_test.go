package builtins

import "testing"

func TestRm(t *testing.T) {
	filesRunCases(t, []filesCase{
		{files: map[string]string{"a": ""}, args: []string{"rm", "a"}, check: func(t *testing.T, env *Env) {
			if filesExists(env, "a") {
				t.Error("a left")
			}
		}},
		{files: map[string]string{"d/x/y": ""}, args: []string{"rm", "-rv", "d"},
			out: "removed 'd/x/y'\nremoved directory 'd/x'\nremoved directory 'd'\n"},
		{files: map[string]string{"d/x": ""}, args: []string{"rm", "d"}, errSub: "cannot remove 'd': Is a directory", status: 1},
		{files: map[string]string{"d/x": ""}, args: []string{"rm", "-d", "d"}, errSub: "Directory not empty", status: 1},
		{args: []string{"rm", "-f", "nope"}},
		{args: []string{"rm", "nope"}, errSub: "cannot remove 'nope': No such file or directory", status: 1},
		{args: []string{"rm", "-r", "/"}, errSub: "it is dangerous to operate recursively on '/'", status: 1},
		{args: []string{"rm", "-rf", "."}, errSub: "refusing to remove '.' or '..'", status: 1},
		{name: "-i without a tty removes", files: map[string]string{"a": ""}, args: []string{"rm", "-i", "a"}, check: func(t *testing.T, env *Env) {
			if filesExists(env, "a") {
				t.Error("a left")
			}
		}},
		{name: "removes the link not the target", files: map[string]string{"d/x": "1"}, setup: func(t *testing.T, env *Env) {
			filesSymlink(t, env, "d", "ld")
		}, args: []string{"rm", "-r", "ld"}, check: func(t *testing.T, env *Env) {
			if filesExists(env, "ld") || readFile(t, env, "d/x") != "1" {
				t.Error("wrong thing removed")
			}
		}},
		{files: map[string]string{"a": ""}, args: []string{"rm", "a/"}, errSub: "Not a directory", status: 1},
	})
}
