package sed

// textKind says where a piece of script text is used; escapes are
// processed slightly differently in each.
type textKind int

const (
	textBuffer      textKind = iota // a/i/c text and y strings
	textReplacement                 // right-hand side of s
	textRegex                       // a regex
)

// normalizeText processes the escapes GNU sed understands everywhere:
// \a \f \n \r \t \v, \dNNN \oNNN \xHH and \cX. Other backslash pairs are
// kept for the regex or replacement parser, and lose the backslash in
// plain text.
func normalizeText(p *parser, buf []byte, kind textKind) []byte {
	out := make([]byte, 0, len(buf))
	// bracket tracks bracket expressions, in which POSIX mode leaves
	// escapes alone: 0 outside, -1 inside, or the '.', ':' or '=' of an
	// open [. [: [= inside.
	bracket := 0
	for i := 0; i < len(buf); {
		c := buf[i]
		if c == '\\' && i+1 < len(buf) && bracket == 0 {
			i++
			var base int
			switch buf[i] {
			case 'a':
				out = append(out, '\a')
				i++
				continue
			case 'f':
				out = append(out, '\f')
				i++
				continue
			case '\n', 'n':
				out = append(out, '\n')
				i++
				continue
			case 'r':
				out = append(out, '\r')
				i++
				continue
			case 't':
				out = append(out, '\t')
				i++
				continue
			case 'v':
				out = append(out, '\v')
				i++
				continue
			case 'd':
				base = 10
			case 'x':
				base = 16
			case 'o':
				base = 8
			case 'c':
				i++
				if i >= len(buf) {
					if kind != textBuffer {
						out = append(out, '\\')
					}
					continue
				}
				out = append(out, toUpperASCII(buf[i])^0x40)
				if buf[i] == '\\' {
					i++
					if i >= len(buf) || buf[i] != '\\' {
						p.bad("recursive escaping after \\c not allowed")
					}
				}
				i++
				continue
			default:
				if kind != textBuffer {
					out = append(out, '\\')
				}
				out = append(out, buf[i])
				i++
				continue
			}
			var ch byte
			ch, i = convertNumber(buf, i, base)
			// A & or \ given by number is literal in a replacement.
			if kind == textReplacement && (ch == '&' || ch == '\\') {
				out = append(out, '\\')
			}
			out = append(out, ch)
			continue
		}
		if kind == textRegex && p.posix != PosixExtended {
			bracket = trackBracket(bracket, c, out)
		}
		out = append(out, c)
		i++
	}
	return out
}

// trackBracket advances the bracket state of normalizeText over c, given
// the output so far.
func trackBracket(state int, c byte, out []byte) int {
	n := len(out)
	switch c {
	case '[':
		if state == 0 {
			return -1
		}
	case ':', '.', '=':
		if state == -1 && n > 0 && out[n-1] == '[' {
			return int(c)
		}
	case ']':
		switch {
		case state == 0:
		case state == -1:
			return 0
		case n >= 2 && int(out[n-2]) != state && int(out[n-1]) == state:
			return -1
		}
	}
	return state
}

// convertNumber reads the digits of a \d, \o or \x escape; buf[i] is the
// letter. Without digits the letter itself is the result.
func convertNumber(buf []byte, i, base int) (byte, int) {
	n := 0
	j := i + 1
	for max := 1; j < len(buf) && max <= 255; j, max = j+1, max*base {
		d := digitVal(buf[j])
		if d < 0 || d >= base {
			break
		}
		n = n*base + d
	}
	if j == i+1 {
		return buf[i], j
	}
	return byte(n), j
}

func digitVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func toUpperASCII(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func toLowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c - 'A' + 'a'
	}
	return c
}

// parseReplacement splits the right-hand side of s into literal parts,
// group references (& and \0..\9) and case conversions (\L \U \E \l \u).
// It returns the parts and the highest group referenced.
func parseReplacement(text []byte, posixBasic bool) ([]replPart, int) {
	var parts []replPart
	maxRef := 0
	typ, saved := replAsIs, replAsIs
	base := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\\':
			part := replPart{lit: text[base:i:i], group: -1, typ: typ}
			typ = saved
			i++
			switch {
			case i == len(text):
				part.lit = text[base:i:i] // a trailing backslash is literal
			case posixBasic && !isDigit(int(text[i])):
				part.lit = append(part.lit, text[i])
			default:
				switch c := text[i]; c {
				case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
					part.group = int(c - '0')
					maxRef = max(maxRef, part.group)
				case 'L':
					typ, saved = replLower, replLower
				case 'U':
					typ, saved = replUpper, replUpper
				case 'E':
					typ, saved = replAsIs, replAsIs
				case 'l':
					saved = typ
					typ |= replLowerFirst
				case 'u':
					saved = typ
					typ |= replUpperFirst
				default:
					part.lit = append(part.lit, c)
				}
			}
			parts = append(parts, part)
			base = i + 1
		case '&':
			parts = append(parts, replPart{lit: text[base:i:i], group: 0, typ: typ})
			typ = saved
			base = i + 1
		}
	}
	if base < len(text) {
		parts = append(parts, replPart{lit: text[base:], group: -1, typ: typ})
	}
	return parts, maxRef
}
