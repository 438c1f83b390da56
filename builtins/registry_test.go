package builtins

import (
	"strings"
	"testing"
)

// TestEveryCommandHasHelp checks that every registered command has a
// summary and answers --help with a usage text and status 0.
func TestEveryCommandHasHelp(t *testing.T) {
	reg := NewRegistry()
	cmds := reg.Commands()
	if len(cmds) < 90 {
		t.Fatalf("only %d commands registered", len(cmds))
	}
	for _, c := range cmds {
		t.Run(c.Name, func(t *testing.T) {
			if strings.TrimSpace(c.Summary) == "" {
				t.Errorf("%s has no summary", c.Name)
			}
			switch c.Name {
			case "true", "false", "[", "test", "echo":
				// Like GNU, these treat --help as data (or ignore it) when
				// called as the shell would; their usage is in Usage.
				if c.Usage == "" && c.Summary == "" {
					t.Errorf("%s has no usage", c.Name)
				}
				return
			}
			env := testEnv(t, nil)
			res := run(t, env, "", c.Name, "--help")
			if res.Status != 0 {
				t.Errorf("%s --help: status %d, stderr %q", c.Name, res.Status, res.Stderr)
			}
			if !strings.Contains(strings.ToLower(res.Stdout), "usage") {
				t.Errorf("%s --help printed no usage: %q", c.Name, res.Stdout)
			}
		})
	}
}
