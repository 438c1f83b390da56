package builtins

import (
	"testing"

	"github.com/sandsh/sandsh/internal/suite"
)

func TestDu(t *testing.T) {
	files := map[string]string{"d/a": string(make([]byte, 5000)), "d/e/b": "x", "c": ""}
	filesRunCases(t, []filesCase{
		{files: files, args: []string{"du", "d"}, out: "8\td/e\n20\td\n"},
		{files: files, args: []string{"du", "-a", "d"}, out: "8\td/a\n4\td/e/b\n8\td/e\n20\td\n"},
		{files: files, args: []string{"du", "-s", "d", "c"}, out: "20\td\n0\tc\n"},
		{files: files, args: []string{"du", "-sh", "d"}, out: "20K\td\n"},
		{files: files, args: []string{"du", "-sb", "d"}, out: "13193\td\n"},
		{files: files, args: []string{"du", "-cs", "d", "c"}, out: "20\td\n0\tc\n20\ttotal\n"},
		{files: files, args: []string{"du", "-S", "d"}, out: "8\td/e\n12\td\n"},
		{files: files, args: []string{"du", "--max-depth=0", "d"}, out: "20\td\n"},
		{files: files, args: []string{"du", "-sa", "d"}, errSub: "cannot both summarize and show all entries", status: 1},
		{files: files, args: []string{"du", "nope"}, errSub: "du: cannot access 'nope'", status: 1},
		{name: "hard links count once", files: files, setup: func(t *testing.T, env *Env) {
			if err := filesHardLink(env.FS, env.Abs("d/a"), env.Abs("d/a2")); err != nil {
				suite.Skip(t, "hardlinks", "%v", err)
			}
		}, args: []string{"du", "-s", "d"}, out: "20\td\n"},
	})
}
