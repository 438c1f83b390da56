package interp

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// bashSyntaxLines words a parse error of data (whose first line is
// numbered first) as bash does, one "line N: ..." per message bash
// prints: "syntax error near unexpected token `)'" followed by the line
// that holds it, "syntax error: unexpected end of file", or "unexpected
// EOF while looking for matching `\"'". ok is false for an error that is
// not the parser's.
func bashSyntaxLines(err error, data []byte, first uint) (lines []string, ok bool) {
	var pe syntax.ParseError
	if !errors.As(err, &pe) {
		return nil, false
	}
	first = max(first, 1)
	// At the end of the input bash counts the last newline's line too.
	end := first + uint(bytes.Count(data, []byte("\n")))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		end++
	}
	switch {
	case pe.Match != "":
		n := pe.Pos.Line()
		if pe.MatchAtEOF {
			n = end
		}
		return []string{fmt.Sprintf("line %d: unexpected EOF while looking for matching `%s'", n, pe.Match)}, true
	case pe.Token == "":
		return []string{fmt.Sprintf("line %d: syntax error: unexpected end of file", end)}, true
	}
	n := pe.TokenPos.Line()
	if n == 0 {
		n = pe.Pos.Line()
	}
	lines = []string{fmt.Sprintf("line %d: syntax error near unexpected token `%s'", n, pe.Token)}
	if n >= first {
		text := string(data)
		for i := first; i < n && text != ""; i++ {
			_, text, _ = strings.Cut(text, "\n")
		}
		text, _, _ = strings.Cut(text, "\n")
		lines = append(lines, fmt.Sprintf("line %d: `%s'", n, text))
	}
	return lines, true
}

// reportSyntax prints a parse error of data after where (bash's
// "script.sh", "bash: -c", "script.sh: eval"; "" for a script read from
// standard input, where bash names no line) as bash words it, or, for
// an error not the parser's, as sandsh's own "sandsh: ..." message.
func (r *Runner) reportSyntax(err error, data []byte, first uint, where string) {
	lines, ok := bashSyntaxLines(err, data, first)
	if !ok {
		fmt.Fprintf(r.fds.writer(2), "sandsh: %v\n", err)
		return
	}
	if where == "" {
		where = r.prefix() // standard input: "bash: line 2: ..."
	}
	for _, l := range lines {
		fmt.Fprintf(r.fds.writer(2), "%s: %s\n", where, l)
	}
}
