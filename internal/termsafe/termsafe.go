// Package termsafe makes text from the sandbox safe to print on the
// operator's terminal. A name a script chose (a directory, a command, a
// file) can hold escape sequences that move the cursor, clear lines or
// set the window title; printed raw in one of sandsh's own messages, it
// could rewrite what the operator reads (issue 23.10). Every message of
// sandsh's that echoes such a name passes it through String.
package termsafe

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// unsafe reports whether r must not reach a terminal raw: C0 controls,
// DEL and C1 controls (0x9b is a one-byte CSI on many terminals).
func unsafe(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f }

// String is s with control characters (C0, DEL, C1) and bytes that are
// not UTF-8 written as \xHH; anything else, printable text in any
// script, is kept.
func String(s string) string {
	clean := true
	for _, r := range s {
		if unsafe(r) || r == utf8.RuneError {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafe(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Line is String for a whole message line: the trailing newline, if any,
// is kept, every other control character escaped.
func Line(s string) string {
	if body, ok := strings.CutSuffix(s, "\n"); ok {
		return String(body) + "\n"
	}
	return String(s)
}

// Fprintf prints one of sandsh's own messages: formatted, then escaped
// (String) but for a trailing newline, so no name in it can rewrite the
// terminal.
func Fprintf(w io.Writer, format string, a ...any) {
	io.WriteString(w, Line(fmt.Sprintf(format, a...)))
}
