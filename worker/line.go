package worker

import (
	"fmt"

	"mvdan.cc/sh/v3/syntax"

	"github.com/sandsh/sandsh/interp"
)

// StatusInterrupted is the shell's status after Ctrl-C, like bash's
// (128 + SIGINT).
const StatusInterrupted = 130

// maxNesting is how deeply a line may nest brackets: the parser recurses
// once per level, and a Go stack overflow cannot be recovered. (The same
// bound as the runner's for eval and source text.)
const maxNesting = 2000

// parseLine parses the text typed so far.
func ParseLine(src string) (*syntax.File, error) {
	depth := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(', '{', '[':
			if depth++; depth > maxNesting {
				return nil, fmt.Errorf("line nests deeper than %d levels", maxNesting)
			}
		case ')', '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	// The runner's parse, guarded against the parser's other recursions
	// (keywords, [[ a && b ... ]], ?:) and over-long chains.
	return interp.ParseText(src, "")
}
