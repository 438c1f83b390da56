package regex

import (
	"errors"
	"strings"
)

// possessiveToAtomic rewrites PCRE's possessive quantifiers (a++, [ab]*+,
// (x){2}+), which regexp2 lacks, as the atomic groups they abbreviate:
// (?>a+).
func possessiveToAtomic(expr string) string {
	if !strings.Contains(expr, "+") {
		return expr
	}
	var out strings.Builder
	var groupStarts []int // output offsets of open groups
	atomStart := -1       // output offset of the last atom
	for i := 0; i < len(expr); {
		c := expr[i]
		start := out.Len()
		switch c {
		case '\\':
			n := escapeLen(expr[i:])
			out.WriteString(expr[i : i+n])
			i += n
			atomStart = start
			continue
		case '[':
			n := pcreClassLen(expr[i:])
			out.WriteString(expr[i : i+n])
			i += n
			atomStart = start
			continue
		case '(':
			groupStarts = append(groupStarts, start)
			out.WriteByte(c)
			i++
			atomStart = -1
			continue
		case ')':
			out.WriteByte(c)
			i++
			atomStart = -1
			if k := len(groupStarts); k > 0 {
				atomStart = groupStarts[k-1]
				groupStarts = groupStarts[:k-1]
			}
			continue
		case '*', '+', '?', '{':
			n := quantLen(expr[i:])
			if n == 0 {
				break
			}
			q := expr[i : i+n]
			i += n
			if i < len(expr) && expr[i] == '+' && atomStart >= 0 {
				i++
				s := out.String()
				out.Reset()
				out.WriteString(s[:atomStart] + "(?>" + s[atomStart:] + q + ")")
			} else {
				out.WriteString(q)
				if i < len(expr) && expr[i] == '?' {
					out.WriteByte('?')
					i++
				}
			}
			atomStart = -1
			continue
		case '|':
			out.WriteByte(c)
			i++
			atomStart = -1
			continue
		}
		out.WriteByte(c)
		i++
		atomStart = start
	}
	return out.String()
}

// escapeLen is the length of the escape sequence at the start of s.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	if (s[1] == 'x' || s[1] == 'p' || s[1] == 'P') && len(s) > 2 && s[2] == '{' {
		if j := strings.IndexByte(s, '}'); j > 0 {
			return j + 1
		}
	}
	return 2
}

// pcreClassLen is the length of the character class at the start of s.
func pcreClassLen(s string) int {
	i := 1
	if i < len(s) && s[i] == '^' {
		i++
	}
	if i < len(s) && s[i] == ']' {
		i++
	}
	for i < len(s) {
		switch {
		case s[i] == '\\':
			i += 2
			continue
		case s[i] == '[' && i+1 < len(s) && s[i+1] == ':':
			if j := strings.Index(s[i:], ":]"); j > 0 {
				i += j + 2
				continue
			}
		case s[i] == ']':
			return i + 1
		}
		i++
	}
	return len(s)
}

// quantLen is the length of the quantifier at the start of s, 0 if none.
func quantLen(s string) int {
	if s[0] != '{' {
		return 1
	}
	q := parser{src: s}
	if _, _, n, ok := q.scanInterval(); ok {
		return n
	}
	return 0
}

// pcreError words regexp2's complaints like PCRE2 does, for grep -P.
func pcreError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
	if i := strings.Index(msg, " in `"); i >= 0 {
		msg = msg[:i]
	}
	switch {
	case strings.HasPrefix(msg, "missing closing )"):
		msg = "missing closing parenthesis"
	case strings.HasPrefix(msg, "unexpected )"):
		msg = "unmatched closing parenthesis"
	case strings.HasPrefix(msg, "unterminated [] set"):
		msg = "missing terminating ] for character class"
	case strings.HasPrefix(msg, "illegal \\ at end of pattern"):
		msg = "\\ at end of pattern"
	case strings.HasPrefix(msg, "invalid nested repetition operator"),
		strings.HasPrefix(msg, "missing argument to repetition operator"):
		msg = "quantifier does not follow a repeatable item"
	case strings.HasPrefix(msg, "reference to undefined group"):
		msg = "reference to non-existent subpattern"
	}
	return errors.New(msg)
}
