package expand

import (
	"path"

	"mvdan.cc/sh/v3/pattern"
)

// globIgnore drops the results of pathname expansion that GLOBIGNORE
// matches (sandsh), as bash does: each colon-separated pattern is matched
// against the whole result with wildcards not matching '/', but matching
// a leading dot; and once GLOBIGNORE is set, "." and ".." are never
// results.
func (cfg *Config) globIgnore(matches []string) ([]string, error) {
	ignore := cfg.envGet("GLOBIGNORE")
	if ignore == "" || len(matches) == 0 {
		return matches, nil
	}
	mode := pattern.Filenames | pattern.EntireString | pattern.NoGlobStar | pattern.GlobLeadingDot
	if cfg.NoCaseGlob {
		mode |= pattern.NoGlobCase
	}
	if cfg.ExtGlob {
		mode |= pattern.ExtendedOperators
	}
	var matchers []func(string) bool
	for _, pat := range splitIgnore(ignore) {
		if pat == "" {
			continue
		}
		m, err := ExtendedPatternMatcher(pat, mode)
		if err != nil {
			continue // like bash, a bad pattern ignores nothing
		}
		matchers = append(matchers, m)
	}
	kept := matches[:0]
next:
	for _, m := range matches {
		if base := path.Base(m); base == "." || base == ".." {
			continue
		}
		for _, ignored := range matchers {
			if ignored(m) {
				continue next
			}
		}
		kept = append(kept, m)
	}
	return kept, nil
}

// splitIgnore splits GLOBIGNORE at colons that are not escaped, in a
// bracket expression like [[:alpha:]] or in an extended glob, as bash does.
func splitIgnore(s string) []string {
	var pats []string
	start, depth := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			i++
		case '[':
			if n := bracketLen(s[i:]); n > 0 {
				i += n - 1
			}
		case '?', '*', '+', '@', '!':
			if i+1 < len(s) && s[i+1] == '(' {
				depth++
				i++
			}
		case '(':
			if depth > 0 {
				depth++
			}
		case ')':
			if depth > 0 {
				depth--
			}
		case ':':
			if depth == 0 {
				pats = append(pats, s[start:i])
				start = i + 1
			}
		}
	}
	return append(pats, s[start:])
}

// bracketLen is the length of the bracket expression at the start of s,
// or 0 if it is not closed.
func bracketLen(s string) int {
	i := 1
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		i++
	}
	if i < len(s) && s[i] == ']' {
		i++
	}
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			if i+1 < len(s) && s[i+1] == ':' {
				if j := indexFrom(s, ":]", i+2); j >= 0 {
					i = j + 1
				}
			}
		case ']':
			return i + 1
		}
	}
	return 0
}

func indexFrom(s, sub string, from int) int {
	for j := from; j+len(sub) <= len(s); j++ {
		if s[j:j+len(sub)] == sub {
			return j
		}
	}
	return -1
}
