package worker

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/sandsh/sandsh/policy"
	"github.com/sandsh/sandsh/sandbox"
)

// maxAnswer bounds what is read for one y/N answer.
const maxAnswer = 256

// TerminalAsker asks on the interactive shell's terminal whether a
// command an `ask` rule matches may run: y or yes allows, anything else
// (an empty line, end of input, Ctrl-C) refuses. Only the REPL, which
// has a terminal, gets one; everywhere else ask means deny.
func TerminalAsker(in io.Reader, out io.Writer) sandbox.Asker {
	return func(ctx context.Context, argv []string, d policy.Decision) bool {
		fmt.Fprintf(out, "sandsh: policy: run %q? (%s) [y/N] ", strings.Join(argv, " "), d)
		var line []byte
		b := make([]byte, 1)
		for len(line) < maxAnswer && ctx.Err() == nil {
			n, err := in.Read(b)
			if n == 1 {
				if b[0] == '\n' || b[0] == '\r' {
					break
				}
				line = append(line, b[0])
			}
			if err != nil {
				fmt.Fprintln(out)
				return false
			}
		}
		ans := strings.ToLower(strings.TrimSpace(string(line)))
		return ans == "y" || ans == "yes"
	}
}
