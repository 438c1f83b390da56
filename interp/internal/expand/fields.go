// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package expand

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// sandsh: a word expands in two steps, like bash's expand_word_internal and
// word_split. wordParts expands every part of the word into a flat list of
// chunks that remember how they were quoted; splitFields then splits that
// list into fields in one pass over the whole word, so IFS rules (whitespace
// runs, non-whitespace delimiters, empty fields, quoted empty strings) apply
// across part boundaries exactly as in bash.

type fieldPart struct {
	val   string
	quote quoteLevel
	// split marks the unquoted result of an expansion: the IFS characters
	// in it separate fields. Literal text and quoted text never split.
	split bool
	// brk is a field boundary that no IFS setting removes: between the
	// elements of "$@" (or of $@ when IFS is empty). In one string, such
	// as an assignment, it joins with a space.
	brk bool
}

type quoteLevel uint

const (
	quoteNone quoteLevel = iota
	quoteDouble
	quoteHeredoc
	quoteSingle
)

// partsCtx says where the parts being expanded are.
type partsCtx struct {
	ql quoteLevel // the quoting around the parts
	// tilde expands a leading ~ in the first literal.
	tilde bool
	// assign: an assignment's value, where a ~ after an unquoted : is
	// expanded too (PATH=$PATH:~/bin).
	assign bool
	// inParam: the word of ${v:-word} and friends, where unquoted literal
	// text is split like an expansion's result.
	inParam bool
	// fields: the parts become command words, so a list expansion
	// ($@, ${a[*]}) unquoted keeps its elements apart; in one string
	// they are joined.
	fields bool
}

func (pc partsCtx) quoted() bool { return pc.ql != quoteNone }

// wordParts expands the parts of a word into chunks.
func (cfg *Config) wordParts(wps []syntax.WordPart, pc partsCtx) ([]fieldPart, error) {
	var out []fieldPart
	for i, wp := range wps {
		switch wp := wp.(type) {
		case *syntax.Lit:
			s := wp.Value
			if pc.assign && !pc.quoted() {
				out = cfg.assignLitParts(out, s, i == 0, i < len(wps)-1, pc)
				continue
			}
			if i == 0 && pc.tilde && !pc.quoted() && cfg.AssignTilde {
				// sandsh: like bash outside POSIX mode, a command word
				// that looks like an assignment (x=~/a:~/b) expands its
				// value's tilde prefixes as an assignment does.
				if k := assignPrefixLen(s); k > 0 {
					out = cfg.litParts(out, s[:k], pc)
					out = cfg.assignLitParts(out, s[k:], true, len(wps) > 1, pc)
					continue
				}
			}
			if i == 0 && pc.tilde && !pc.quoted() {
				prefix, rest := cfg.expandUser(s, len(wps) > 1)
				if prefix != "" || rest != s {
					// The home directory is not split or globbed.
					out = append(out, fieldPart{quote: quoteSingle, val: prefix})
				}
				s = rest
			}
			out = cfg.litParts(out, s, pc)
		case *syntax.SglQuoted:
			if pc.ql == quoteDouble && pc.inParam {
				// "${v:-'x'}": single quotes are not special inside
				// double quotes, even in the word of an expansion, and
				// what they hold is double-quoted text: "${v:-'$x'}"
				// expands $x.
				open := "'"
				if wp.Dollar {
					open = "$'"
				}
				out = append(out, fieldPart{quote: quoteDouble, val: open})
				if inner, ok := dquotedParts(wp.Value); ok {
					parts, err := cfg.wordParts(inner, pc)
					if err != nil {
						return nil, err
					}
					out = append(out, parts...)
				} else {
					out = append(out, fieldPart{quote: quoteDouble, val: wp.Value})
				}
				out = append(out, fieldPart{quote: quoteDouble, val: "'"})
				continue
			}
			fp := fieldPart{quote: quoteSingle, val: wp.Value}
			if wp.Dollar {
				fp.val, _, _ = Format(cfg, ansiCtrl(fp.val), nil)
				fp.val, _, _ = strings.Cut(fp.val, "\x00") // cut the string if format included \x00
			}
			out = append(out, fp)
		case *syntax.DblQuoted:
			inner := pc
			inner.ql = quoteDouble
			inner.tilde = false
			// A quoted empty string is a field of its own ("" or
			// "$empty"), unless the quotes hold "$@", which with no
			// elements is no field at all.
			if !hasAtList(cfg, wp.Parts) {
				out = append(out, fieldPart{quote: quoteDouble})
			}
			parts, err := cfg.wordParts(wp.Parts, inner)
			if err != nil {
				return nil, err
			}
			for k := range parts {
				if p := &parts[k]; !p.brk && p.quote < quoteDouble {
					p.quote = quoteDouble
				}
			}
			if out == nil && i == len(wps)-1 {
				out = parts // sandsh: the word's only chunks ("${a[@]}"), not copied
				continue
			}
			out = append(out, parts...)
		case *syntax.ParamExp:
			parts, err := cfg.paramParts(wp, pc)
			if err != nil {
				return nil, err
			}
			if out == nil && i == len(wps)-1 {
				out = parts // sandsh: the word's only chunks, not copied
				continue
			}
			out = append(out, parts...)
		case *syntax.CmdSubst:
			val, err := cfg.cmdSubst(wp)
			if err != nil {
				return nil, err
			}
			out = append(out, cfg.valuePart(val, pc))
		case *syntax.ArithmExp:
			n, err := ArithmSource(cfg, wp.X, wp.Source)
			if err != nil {
				return nil, err
			}
			out = append(out, cfg.valuePart(strconv.Itoa(n), pc))
		case *syntax.ProcSubst:
			if cfg.ProcSubst == nil {
				return nil, fmt.Errorf("process substitution is not supported here")
			}
			if cfg.arithDepth > 0 {
				// sandsh: not from arithmetic text found in a value,
				// like a command substitution there (see cmdSubst).
				out = append(out, cfg.valuePart("", pc))
				continue
			}
			path, err := cfg.ProcSubst(wp)
			if err != nil {
				return nil, err
			}
			out = append(out, cfg.valuePart(path, pc))
		case *syntax.ExtGlob:
			if pc.fields && !pc.quoted() && !cfg.ExtGlob {
				return nil, fmt.Errorf("extended globbing operator used without the \"extglob\" option set")
			}
			// The operator and parentheses stay pattern syntax; the
			// pattern list is expanded like the rest of the word, so its
			// quoted parts match literally, and its unquoted expansions
			// are split as bash splits them (IFS=c; ABC=c?d; ab+($ABC)
			// is the fields "ab+(" and "?d)"). Globbing or pattern
			// matching interprets it later.
			if wp.Parts == nil {
				out = append(out, fieldPart{val: wp.Op.String() + wp.Pattern.Value + ")"})
				continue
			}
			inner := pc
			inner.tilde, inner.inParam = false, false
			parts, err := cfg.wordParts(wp.Parts, inner)
			if err != nil {
				return nil, err
			}
			out = append(out, fieldPart{val: wp.Op.String()})
			out = append(out, parts...)
			out = append(out, fieldPart{val: ")"})
		default:
			panic(fmt.Sprintf("unhandled word part: %T", wp))
		}
	}
	return out, nil
}

// valuePart is the chunk for the result of an expansion: split when
// unquoted.
func (cfg *Config) valuePart(val string, pc partsCtx) fieldPart {
	if pc.quoted() {
		return fieldPart{val: val, quote: quoteDouble}
	}
	return fieldPart{val: val, split: true}
}

// litParts appends the chunks of literal text s, doing quote removal:
// an unquoted backslash quotes the next character; in double quotes and
// here-documents, it only quotes \, $, ` (and " in double quotes), and
// a backslash-newline disappears.
func (cfg *Config) litParts(out []fieldPart, s string, pc partsCtx) []fieldPart {
	if pc.quoted() {
		if strings.Contains(s, "\\") {
			sb := cfg.strBuilder()
			for i := 0; i < len(s); i++ {
				b := s[i]
				if b == '\\' && i+1 < len(s) {
					switch s[i+1] {
					case '}':
						// "${x:-\}}": in the word of an expansion the
						// backslash quotes the closing brace.
						if !pc.inParam {
							break
						}
						i++
						b = s[i]
					case '"':
						if pc.ql != quoteDouble {
							break
						}
						fallthrough
					case '\\', '$', '`':
						i++
						b = s[i]
					case '\n':
						i++
						continue
					}
				}
				sb.WriteByte(b)
			}
			s = sb.String()
		}
		s, _, _ = strings.Cut(s, "\x00")
		return append(out, fieldPart{val: s, quote: pc.ql})
	}
	split := pc.inParam
	for {
		i := strings.IndexByte(s, '\\')
		if i < 0 || i == len(s)-1 {
			break // a trailing backslash is kept as-is
		}
		if s[i+1] == '\n' { // a line continuation
			if i > 0 {
				out = append(out, fieldPart{val: s[:i], split: split})
			}
			s = s[i+2:]
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i+1:])
		if i > 0 {
			out = append(out, fieldPart{val: s[:i], split: split})
		}
		// Escaped characters are quoted, so that they are neither
		// split nor treated as glob metacharacters.
		out = append(out, fieldPart{quote: quoteSingle, val: s[i+1 : i+1+size]})
		s = s[i+1+size:]
	}
	if s != "" {
		out = append(out, fieldPart{val: s, split: split})
	}
	return out
}

// hasAtList reports whether the parts of a double-quoted string hold a
// "$@"-like list expansion, which yields no field when it is empty.
func hasAtList(cfg *Config, wps []syntax.WordPart) bool {
	for _, wp := range wps {
		if pe, ok := wp.(*syntax.ParamExp); ok && cfg.isAtList(pe) {
			return true
		}
	}
	return false
}

// elemParts renders the elements of a list expansion ($@, ${a[*]},
// ${!prefix@}, ...).
func (cfg *Config) elemParts(elems []string, star bool, pc partsCtx) []fieldPart {
	var out []fieldPart
	if len(elems) > 1 && !star {
		out = make([]fieldPart, 0, 2*len(elems)-1)
	}
	switch {
	case star && (pc.quoted() || !pc.fields):
		// "$*" is one string, joined with the first IFS character; so is
		// $* where no splitting follows (x=$*).
		return []fieldPart{{val: cfg.ifsJoin(elems), quote: pc.ql}}
	case pc.quoted() || !pc.fields:
		// "$@": one field per element; x=$@ joins them with spaces.
		for i, e := range elems {
			if i > 0 {
				out = append(out, fieldPart{brk: true})
			}
			out = append(out, fieldPart{val: e, quote: pc.ql})
		}
		if !pc.quoted() && len(out) == 0 {
			return nil
		}
		return out
	case cfg.ifs == "":
		// Unquoted with an empty IFS: no splitting, but the elements stay
		// apart (and empty ones vanish).
		for i, e := range elems {
			if i > 0 {
				out = append(out, fieldPart{brk: true})
			}
			out = append(out, fieldPart{val: e, split: true})
		}
		return out
	default:
		// Unquoted: the elements joined with the first IFS character,
		// then split, as bash does.
		return []fieldPart{{val: cfg.ifsJoin(elems), split: true}}
	}
}

// ifsWhite reports whether r is IFS whitespace when it is in IFS.
func ifsWhite(r rune) bool { return r == ' ' || r == '\t' || r == '\n' }

// splitFields splits the chunks of an expanded word into fields, like
// bash's list_string: IFS whitespace at the start and end is dropped and a
// run of it separates fields; each non-whitespace IFS character, with the
// IFS whitespace around it, delimits one field, so two in a row delimit an
// empty field; a field made only of a quoted empty string is kept, and
// any other empty field is dropped.
func (cfg *Config) splitFields(parts []fieldPart) ([][]fieldPart, error) {
	const (
		stStart    = iota // before any field, or after a "$@" boundary
		stWord            // inside a field
		stAfterWS         // after an IFS whitespace delimiter
		stAfterSep        // after a non-whitespace IFS delimiter
	)
	var fields [][]fieldPart
	// sandsh: the fields are consecutive pieces of one buffer (the one
	// being built is buf[start:]), not one allocation each.
	buf := make([]fieldPart, 0, len(parts))
	start := 0
	st := stStart
	tooMany := false
	emit := func() {
		if cfg.MaxFields > 0 {
			cfg.nfields++
			tooMany = tooMany || cfg.nfields > cfg.MaxFields
		}
		if fields == nil {
			fields = make([][]fieldPart, 0, max(1, len(parts)/2))
		}
		fields = append(fields, buf[start:len(buf):len(buf)])
		start = len(buf)
	}
	for _, p := range parts {
		if tooMany {
			return nil, ErrTooManyFields
		}
		if p.brk {
			if st == stWord {
				emit()
			}
			st = stStart
			continue
		}
		if !p.split || cfg.ifs == "" {
			if p.val == "" && p.quote == quoteNone {
				continue // nothing, not even a quoted empty string
			}
			buf = append(buf, fieldPart{val: p.val, quote: p.quote})
			st = stWord
			continue
		}
		start := -1 // where the pending piece of a field starts in p.val
		for i, r := range p.val {
			if !cfg.ifsRune(r) {
				if start < 0 {
					start = i
				}
				st = stWord
				continue
			}
			if start >= 0 {
				buf = append(buf, fieldPart{val: p.val[start:i]})
				start = -1
			}
			ws := ifsWhite(r)
			switch st {
			case stWord:
				emit()
				if ws {
					st = stAfterWS
				} else {
					st = stAfterSep
				}
			case stStart:
				if !ws {
					emit() // a leading delimiter: an empty field before it
					st = stAfterSep
				}
			case stAfterWS:
				if !ws { // part of the same delimiter
					st = stAfterSep
				}
			case stAfterSep:
				if !ws { // a second delimiter: an empty field between
					emit()
				}
			}
			if tooMany {
				return nil, ErrTooManyFields
			}
		}
		if start >= 0 {
			buf = append(buf, fieldPart{val: p.val[start:]})
		}
	}
	if st == stWord {
		emit()
	}
	if tooMany {
		return nil, ErrTooManyFields
	}
	return fields, nil
}

// assignPrefixLen is the length of "name=" or "name+=" at the start of
// s, or 0.
func assignPrefixLen(s string) int {
	i := 0
	for i < len(s) && (s[i] == '_' || 'a' <= s[i] && s[i] <= 'z' || 'A' <= s[i] && s[i] <= 'Z' || i > 0 && '0' <= s[i] && s[i] <= '9') {
		i++
	}
	if i == 0 {
		return 0
	}
	if strings.HasPrefix(s[i:], "+=") {
		return i + 2
	}
	if strings.HasPrefix(s[i:], "=") {
		return i + 1
	}
	return 0
}

// dquotedParts parses s as the text of a double-quoted string, for the
// single quotes of "${v:-'text'}"; ok is false when s cannot be one (it
// holds a double quote of its own). (sandsh)
func dquotedParts(s string) (_ []syntax.WordPart, ok bool) {
	if !strings.ContainsAny(s, "$`\\") {
		return []syntax.WordPart{&syntax.Lit{Value: s}}, true
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
		} else if s[i] == '"' {
			return nil, false
		}
	}
	if strings.HasSuffix(s, "\\") && !strings.HasSuffix(s, "\\\\") {
		return nil, false
	}
	var w *syntax.Word
	err := syntax.NewParser().Words(strings.NewReader(`"`+s+`"`), func(x *syntax.Word) bool {
		w = x
		return false
	})
	if err != nil || w == nil || len(w.Parts) != 1 {
		return nil, false
	}
	dq, isDq := w.Parts[0].(*syntax.DblQuoted)
	if !isDq {
		return nil, false
	}
	return dq.Parts, true
}

// wordFields expands the parts of a command word into fields.
func (cfg *Config) wordFields(wps []syntax.WordPart, tilde bool) ([][]fieldPart, error) {
	parts, err := cfg.wordParts(wps, partsCtx{tilde: tilde, fields: true})
	if err != nil {
		return nil, err
	}
	return cfg.splitFields(parts)
}

// quotePattern escapes quoted text for a pattern: the glob
// metacharacters and the extglob ones, since a pattern may be matched
// with extglob on ("*\(\)" must not become the extglob "*()"), and '-',
// which a bracket expression would read as a range ([C\-D]).
func quotePattern(s string) string {
	if !strings.ContainsAny(s, "*?[]\\()|@!+-") {
		return s
	}
	var sb strings.Builder
	for _, r := range s {
		switch r {
		case '*', '?', '[', ']', '\\', '(', ')', '|', '@', '!', '+', '-':
			sb.WriteByte('\\')
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

// Regex expands the right side of [[ x =~ re ]]: quoted text (and
// backslash-escaped characters) is passed through quote, the rest is
// regular expression syntax.
func Regex(cfg *Config, word *syntax.Word, quote func(string) string) (string, error) {
	if word == nil {
		return "", nil
	}
	cfg = prepareConfig(cfg)
	parts, err := cfg.wordParts(word.Parts, partsCtx{tilde: true})
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	for _, p := range parts {
		switch {
		case p.brk:
			sb.WriteByte(' ')
		case p.quote > quoteNone:
			sb.WriteString(quote(p.val))
		default:
			sb.WriteString(p.val)
		}
	}
	return sb.String(), nil
}

// assignLitParts appends literal text of an assignment's value, expanding
// a tilde prefix at its start (first) and after each unquoted colon. more
// says that other parts follow the literal, so a prefix running to its
// end is not a whole tilde prefix (~"x").
func (cfg *Config) assignLitParts(out []fieldPart, s string, first, more bool, pc partsCtx) []fieldPart {
	start := 0 // the start of the text not yet appended
	for pos := 0; pos <= len(s); {
		if (pos > 0 || first) && pos < len(s) && s[pos] == '~' && (pos == 0 || s[pos-1] == ':') {
			seg, _, hasColon := strings.Cut(s[pos:], ":")
			prefix, rest := cfg.expandUser(seg, more && !hasColon)
			if prefix != "" || rest != seg {
				out = cfg.litParts(out, s[start:pos], pc)
				out = append(out, fieldPart{quote: quoteSingle, val: prefix})
				pos += len(seg) - len(rest)
				start = pos
				continue
			}
		}
		i := strings.IndexByte(s[pos:], ':')
		if i < 0 {
			break
		}
		if pos+i > 0 && s[pos+i-1] == '\\' {
			pos += i + 1 // an escaped colon
			continue
		}
		pos += i + 1
	}
	return cfg.litParts(out, s[start:], pc)
}

// Assign expands the value of an assignment (x=word): like [Literal], and
// a ~ after a colon expands too.
func Assign(cfg *Config, word *syntax.Word) (string, error) {
	if word == nil {
		return "", nil
	}
	if s, ok := plainLit(cfg, word, false); ok {
		return s, nil
	}
	if s, ok, err := cfg.oneValue(word); ok || err != nil {
		return s, err
	}
	cfg = prepareConfig(cfg)
	parts, err := cfg.wordParts(word.Parts, partsCtx{tilde: true, assign: true})
	if err != nil {
		return "", err
	}
	return cfg.fieldJoin(parts), nil
}

// NoTilde expands a word to one string like [Literal] but leaves a
// leading ~ alone: the value of [k]=v in a bash 5.2 associative array
// literal.
func NoTilde(cfg *Config, word *syntax.Word) (string, error) {
	if word == nil {
		return "", nil
	}
	cfg = prepareConfig(cfg)
	parts, err := cfg.wordParts(word.Parts, partsCtx{})
	if err != nil {
		return "", err
	}
	return cfg.fieldJoin(parts), nil
}

// ansiCtrl rewrites the control escapes of $'...' and ${v@E} (\cX, which printf's format
// does not know) as octal escapes that Format decodes: X masked with
// 0x1f, \c? is DEL, and \c\\ takes both backslashes, as in bash.
func ansiCtrl(s string) string {
	if !strings.Contains(s, `\c`) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			sb.WriteByte(s[i])
			continue
		}
		if s[i+1] != 'c' || i+2 >= len(s) {
			sb.WriteString(s[i : i+2])
			i++
			continue
		}
		x := s[i+2]
		i += 2
		if x == '\\' && i+1 < len(s) && s[i+1] == '\\' {
			i++
		}
		b := x & 0x1f
		if x == '?' {
			b = 0x7f
		}
		fmt.Fprintf(&sb, "\\%03o", b)
	}
	return sb.String()
}
