package check

import (
	"regexp"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// subscriptRE is text that names an array element whose subscript holds
// a command substitution: bash runs it when the text is evaluated as a
// name or as arithmetic later (printf -v "$k", declare "$k=1", let,
// (( )), a nameref), not where it is written.
var subscriptRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("[A-Za-z_][A-Za-z0-9_]*\\[[^]]*(\\$\\(|`)")
})

// substitutions reports code hidden in text that bash evaluates later:
// a command substitution inside an array subscript kept in quotes, and
// PS4 holding one (run at every command set -x traces).
func (c *checker) substitutions(f *syntax.File) {
	xtrace := false
	var ps4 []syntax.Node
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.SglQuoted:
			if subscriptRE().MatchString(n.Value) {
				c.add(frame{}, n, Warning, "subscript-substitution",
					"%s: a command substitution in an array subscript runs when the text is evaluated (printf -v, declare, let, (( )), a nameref), unchecked", shorten(n.Value))
			}
		case *syntax.Assign:
			if n.Name != nil && n.Name.Value == "PS4" && n.Value != nil && laterSubstitution(n.Value) {
				ps4 = append(ps4, n)
			}
		case *syntax.CallExpr:
			if len(n.Args) > 1 {
				name, _ := Literal(n.Args[0])
				for _, a := range n.Args[1:] {
					v, _ := Literal(a)
					if (name == "set" || name == "bash" || name == "sh") && strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "x") || v == "xtrace" {
						xtrace = true
					}
				}
			}
		}
		return true
	})
	for _, n := range ps4 {
		sev := Warning
		if xtrace {
			sev = Error
		}
		c.add(frame{}, n, sev, "ps4-substitution", "PS4 holds a command substitution: set -x runs it before every traced command, unchecked")
	}
}

// laterSubstitution reports a word whose value keeps a command
// substitution for later: one in single quotes (or $'…').
func laterSubstitution(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if q, ok := p.(*syntax.SglQuoted); ok && (strings.Contains(q.Value, "$(") || strings.Contains(q.Value, "`")) {
			return true
		}
	}
	return false
}

func shorten(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}
