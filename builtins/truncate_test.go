package builtins

import "testing"

func TestTruncate(t *testing.T) {
	content := filesContent
	filesRunCases(t, []filesCase{
		{files: map[string]string{"f": "0123456789"}, args: []string{"truncate", "-s", "3", "f"}, check: content("f", "012")},
		{files: map[string]string{"f": "01"}, args: []string{"truncate", "-s", "+2", "f"}, check: content("f", "01\x00\x00")},
		{files: map[string]string{"f": "0123456789"}, args: []string{"truncate", "-s", "%4", "f"}, check: content("f", "0123456789\x00\x00")},
		{files: map[string]string{"f": "0123456789"}, args: []string{"truncate", "-s", "/4", "f"}, check: content("f", "01234567")},
		{files: map[string]string{"f": "0123456789"}, args: []string{"truncate", "-s", "<4", "f"}, check: content("f", "0123")},
		{files: map[string]string{"f": "0123456789", "r": "ab"}, args: []string{"truncate", "-r", "r", "f"}, check: content("f", "01")},
		{files: map[string]string{"f": "0123456789", "r": "ab"}, args: []string{"truncate", "-r", "r", "-s", "+1", "f"}, check: content("f", "012")},
		{args: []string{"truncate", "-s", "1K", "n"}, check: func(t *testing.T, env *Env) {
			if len(readFile(t, env, "n")) != 1024 {
				t.Error("size")
			}
		}},
		{args: []string{"truncate", "-c", "-s", "1", "n"}, check: func(t *testing.T, env *Env) {
			if filesExists(env, "n") {
				t.Error("-c created")
			}
		}},
		{args: []string{"truncate", "n"}, errSub: "you must specify either '--size' or '--reference'", status: 1},
		{args: []string{"truncate", "-s", "1Q", "n"}, errSub: "Invalid number: '1Q'", status: 1},
		{args: []string{"truncate", "-s", "/0", "n"}, errSub: "division by zero", status: 1},
		{files: map[string]string{"d/": ""}, args: []string{"truncate", "-s", "0", "d"}, errSub: "cannot open 'd' for writing: Is a directory", status: 1},
	})
}
