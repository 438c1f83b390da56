package awk

import (
	"bufio"
	"strconv"
	"strings"
	"unicode/utf8"
)

// splitMode is how a record (or split's string) is cut into fields.
type splitMode uint8

const (
	splitSpace  splitMode = iota // FS = " ": runs of blanks, trimmed
	splitByte                    // a single character, literally
	splitRegex                   // anything longer: a regex
	splitChars                   // FS = "": every character is a field
	splitSet                     // a regex that is a character class, maybe with +
	splitLit                     // a regex that is a fixed string
	splitFPAT                    // gawk's FPAT: fields are the matches of re
	splitWidths                  // gawk's FIELDWIDTHS: fixed widths
)

type splitter struct {
	mode splitMode
	c    byte
	nl   bool // also split at newlines (paragraph mode with a byte FS)
	re   *regex
	set  *[256]bool
	plus bool // splitSet: a run of set bytes is one separator
	lit  string
	utf8 bool // splitChars: split into UTF-8 characters
	// widths are FIELDWIDTHS as (skip, width) pairs; width -1 is "*".
	widths [][2]int
}

// newSplitter makes the splitter for a field separator string.
func (p *interp) newSplitter(fs string, paragraph bool) splitter {
	switch {
	case fs == " ":
		return splitter{mode: splitSpace}
	case fs == "":
		return splitter{mode: splitChars, utf8: p.utf8}
	case len(fs) == 1 && fs[0] != '\\':
		c := fs[0]
		if p.ignore && isAlpha(c) {
			return p.regexSplitter("["+fs+"]", paragraph)
		}
		return splitter{mode: splitByte, c: c, nl: paragraph && c != '\n'}
	case fs == "\\":
		return splitter{mode: splitByte, c: '\\', nl: paragraph}
	}
	return p.regexSplitter(fs, paragraph)
}

func (p *interp) regexSplitter(fs string, paragraph bool) splitter {
	if paragraph {
		fs = "(" + fs + ")|\n"
	} else if !p.ignore {
		// Common separators like "[ \t]+" or "\|" run without the regex
		// engine.
		if set, plus, ok := simpleClass(fs); ok {
			return splitter{mode: splitSet, set: set, plus: plus}
		}
	}
	re := p.dynRegex(fs)
	if re.isLit && re.lit != "" {
		return splitter{mode: splitLit, lit: re.lit}
	}
	return splitter{mode: splitRegex, re: re}
}

// simpleClass recognizes a regex that is one character or one bracket
// expression of plain characters and ranges, optionally followed by '+'.
func simpleClass(re string) (*[256]bool, bool, bool) {
	plus := false
	if len(re) > 1 && re[len(re)-1] == '+' && re[len(re)-2] != '\\' {
		plus, re = true, re[:len(re)-1]
	}
	var set [256]bool
	switch {
	case len(re) == 1 && !isRegexMeta(re[0]):
		set[re[0]] = true
	case len(re) == 2 && re[0] == '\\':
		c, ok := simpleEscape(re[1])
		if !ok {
			return nil, false, false
		}
		set[c] = true
	case len(re) >= 3 && re[0] == '[' && re[len(re)-1] == ']' && re[1] != '^':
		body := re[1 : len(re)-1]
		for i := 0; i < len(body); i++ {
			c := body[i]
			switch {
			case c == '[' || c == '\\' || (c == ']' && i > 0):
				return nil, false, false
			case i+2 < len(body) && body[i+1] == '-':
				hi := body[i+2]
				if hi == '\\' || hi == '[' || hi < c {
					return nil, false, false
				}
				for x := int(c); x <= int(hi); x++ {
					set[x] = true
				}
				i += 2
			default:
				set[c] = true
			}
		}
	default:
		return nil, false, false
	}
	return &set, plus, true
}

func isRegexMeta(c byte) bool {
	return containsByte(`\^$.[]|()*+?{}`, c)
}

// simpleEscape decodes "\c" when it stands for one literal byte.
func simpleEscape(c byte) (byte, bool) {
	switch c {
	case 't':
		return '\t', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 'f':
		return '\f', true
	case 'v':
		return '\v', true
	}
	if isRegexMeta(c) || c == '/' || c == '"' || c == ' ' || c == ',' || c == ':' || c == ';' || c == '-' || c == '=' {
		return c, true
	}
	return 0, false
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// splitInto appends the fields of s to dst as strnums; seps, if non-nil,
// receives the separators.
func (sp *splitter) splitInto(dst []value, s string, seps *[]string) []value {
	switch sp.mode {
	case splitSpace:
		return splitSpaces(dst, s, seps)
	case splitChars:
		for i := 0; i < len(s); {
			w := 1
			if sp.utf8 && s[i] >= utf8.RuneSelf {
				_, w = utf8.DecodeRuneInString(s[i:])
			}
			dst = append(dst, value{s: s[i : i+w], k: kStrNum})
			if seps != nil && i > 0 {
				*seps = append(*seps, "")
			}
			i += w
		}
		return dst
	case splitByte:
		if s == "" {
			return dst
		}
		start := 0
		for i := 0; i < len(s); i++ {
			if c := s[i]; c == sp.c || (sp.nl && c == '\n') {
				dst = append(dst, value{s: s[start:i], k: kStrNum})
				if seps != nil {
					*seps = append(*seps, s[i:i+1])
				}
				start = i + 1
			}
		}
		return append(dst, value{s: s[start:], k: kStrNum})
	}
	if s == "" {
		return dst
	}
	switch sp.mode {
	case splitFPAT:
		for _, m := range sp.re.findAllIndex(s, -1) {
			dst = append(dst, value{s: s[m[0]:m[1]], k: kStrNum})
		}
		return dst
	case splitWidths:
		i := 0
		for _, w := range sp.widths {
			i = min(i+w[0], len(s))
			if i >= len(s) {
				break
			}
			end := len(s)
			if w[1] >= 0 {
				end = min(i+w[1], len(s))
			}
			dst = append(dst, value{s: s[i:end], k: kStrNum})
			i = end
		}
		return dst
	case splitSet:
		return sp.splitSetInto(dst, s, seps)
	case splitLit:
		start := 0
		for {
			i := strings.Index(s[start:], sp.lit)
			if i < 0 {
				return append(dst, value{s: s[start:], k: kStrNum})
			}
			dst = append(dst, value{s: s[start : start+i], k: kStrNum})
			if seps != nil {
				*seps = append(*seps, sp.lit)
			}
			start += i + len(sp.lit)
		}
	}
	start := 0
	for _, m := range sp.re.findAllIndex(s, -1) {
		if m[1] == m[0] {
			continue // an empty match separates nothing
		}
		dst = append(dst, value{s: s[start:m[0]], k: kStrNum})
		if seps != nil {
			*seps = append(*seps, s[m[0]:m[1]])
		}
		start = m[1]
	}
	return append(dst, value{s: s[start:], k: kStrNum})
}

func (sp *splitter) splitSetInto(dst []value, s string, seps *[]string) []value {
	set := sp.set
	start := 0
	for i := 0; i < len(s); i++ {
		if !set[s[i]] {
			continue
		}
		j := i + 1
		if sp.plus {
			for j < len(s) && set[s[j]] {
				j++
			}
		}
		dst = append(dst, value{s: s[start:i], k: kStrNum})
		if seps != nil {
			*seps = append(*seps, s[i:j])
		}
		start = j
		i = j - 1
	}
	return append(dst, value{s: s[start:], k: kStrNum})
}

// splitSpaces splits at runs of blanks and newlines, ignoring them at
// both ends: the default field splitting.
func splitSpaces(dst []value, s string, seps *[]string) []value {
	i, n := 0, len(s)
	for {
		start := i
		for i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			i++
		}
		if i >= n {
			return dst
		}
		if seps != nil && len(dst) > 0 {
			*seps = append(*seps, s[start:i])
		}
		j := i
		for j < n && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' {
			j++
		}
		dst = append(dst, value{s: s[i:j], k: kStrNum})
		i = j
	}
}

// setRecord makes s the current record; fields are split on demand.
func (p *interp) setRecord(s string) {
	p.record = s
	p.recordOK = true
	p.fieldsOK = false
	p.partial = false
}

// getRecord returns $0, rebuilding it if fields were assigned.
func (p *interp) getRecord() string {
	if !p.recordOK {
		p.rebuildRecord()
	}
	return p.record
}

func (p *interp) ensureFields() {
	if p.fieldsOK {
		return
	}
	if p.partial {
		// Finish what getField began (the splitter cannot have changed:
		// assigning FS splits the current record first).
		p.fields = splitSpaces(p.fields, p.record[p.partPos:], nil)
		p.partial = false
	} else {
		p.fields = p.split.splitInto(p.fields[:0], p.record, nil)
	}
	p.nf = len(p.fields)
	p.fieldsOK = true
}

// getField returns $i. With the default FS, a record is split only as far
// as the fields the program reads ({ s += $1 } does not split the rest of
// each line); NF and everything else that needs all fields finish it.
func (p *interp) getField(i int) value {
	if i == 0 {
		return value{s: p.getRecord(), k: kStrNum}
	}
	if i < 0 {
		p.fatalf("attempt to access field %d", i)
	}
	if !p.fieldsOK && p.split.mode == splitSpace {
		if !p.partial {
			p.fields, p.partPos, p.partial = p.fields[:0], 0, true
		}
		s := p.record
		for len(p.fields) < i {
			j := p.partPos
			for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n') {
				j++
			}
			if j == len(s) {
				p.nf, p.fieldsOK, p.partial = len(p.fields), true, false
				break
			}
			k := j
			for k < len(s) && s[k] != ' ' && s[k] != '\t' && s[k] != '\n' {
				k++
			}
			p.fields = append(p.fields, value{s: s[j:k], k: kStrNum})
			p.partPos = k
		}
		if p.partial {
			return p.fields[i-1]
		}
	}
	p.ensureFields()
	if i > p.nf {
		return value{}
	}
	return p.fields[i-1]
}

func (p *interp) setField(i int, v value) {
	if i == 0 {
		p.setRecord(p.toStr(v))
		return
	}
	if i < 0 {
		p.fatalf("attempt to access field %d", i)
	}
	p.ensureFields()
	if i > p.nf {
		if i > 1e7 { // the bound assigning NF has
			p.fatalf("NF set to too large a value")
		}
		p.growFields(i)
	}
	p.fields[i-1] = v
	p.recordOK = false
}

func (p *interp) growFields(n int) {
	for len(p.fields) < n {
		p.fields = append(p.fields, value{})
	}
	p.fields = p.fields[:n]
	for j := p.nf; j < n; j++ {
		p.fields[j] = value{}
	}
	p.nf = n
}

func (p *interp) setNF(n int) {
	p.ensureFields()
	if n < 0 {
		p.fatalf("NF set to negative value")
	}
	if n > p.nf {
		p.growFields(n)
	} else {
		p.fields = p.fields[:n]
		p.nf = n
	}
	p.recordOK = false
}

func (p *interp) rebuildRecord() {
	var b strings.Builder
	for i, f := range p.fields[:p.nf] {
		if i > 0 {
			b.WriteString(p.ofs)
		}
		b.WriteString(p.toStr(f))
	}
	p.record = b.String()
	p.recordOK = true
}

func (p *interp) getSpecial(i int) value {
	switch i {
	case spNF:
		p.ensureFields()
		return num(float64(p.nf))
	case spNR:
		return num(p.nr)
	case spFNR:
		return num(p.fnr)
	}
	return p.sp[i]
}

// setSpecial assigns a special variable and updates what depends on it.
func (p *interp) setSpecial(i int, v value) {
	switch i {
	case spNF:
		f := v.toNum()
		if f > 1e7 {
			p.fatalf("NF set to too large a value")
		}
		p.setNF(int(f))
		return
	case spNR:
		p.nr = float64(int64(v.toNum()))
		return
	case spFNR:
		p.fnr = float64(int64(v.toNum()))
		return
	}
	p.sp[i] = v
	switch i {
	case spFS:
		// The current record keeps the old separator.
		p.ensureFields()
		p.fieldsBy = spFS
		p.split = p.newSplitter(p.toStr(v), p.rsMode == rsPara)
	case spFPAT:
		p.ensureFields()
		p.fieldsBy = spFPAT
		p.split = splitter{mode: splitFPAT, re: p.dynRegex(p.toStr(v))}
	case spFIELDWIDTHS:
		p.ensureFields()
		p.fieldsBy = spFIELDWIDTHS
		p.split = splitter{mode: splitWidths, widths: p.parseWidths(p.toStr(v))}
	case spRS:
		p.setRS(p.toStr(v))
	case spOFS:
		p.ofs = p.toStr(v)
	case spORS:
		p.ors = p.toStr(v)
	case spSUBSEP:
		p.subsep = p.toStr(v)
	case spCONVFMT:
		p.convfmt = v.s
		if v.k == kNum {
			p.convfmt = "%.6g"
		}
	case spOFMT:
		p.ofmt = v.s
		if v.k == kNum {
			p.ofmt = "%.6g"
		}
	case spIGNORECASE:
		p.ignore = v.isTrue()
		if p.fieldsBy == spFS {
			p.split = p.newSplitter(p.toStr(p.sp[spFS]), p.rsMode == rsPara)
		}
		if p.rsMode == rsRegex {
			p.setRS(p.toStr(p.sp[spRS]))
		}
	}
}

// printRecord writes $0 and ORS: a rule without an action.
func (p *interp) printRecord(w *bufio.Writer) {
	p.writeString(w, p.getRecord())
	p.writeString(w, p.ors)
}

// parseWidths parses FIELDWIDTHS: space-separated widths, each maybe
// preceded by "skip:", the last maybe "*" for the rest of the record.
func (p *interp) parseWidths(s string) [][2]int {
	var ws [][2]int
	for _, f := range strings.Fields(s) {
		skip := 0
		if a, b, ok := strings.Cut(f, ":"); ok {
			n, err := strconv.Atoi(a)
			if err != nil || n < 0 {
				p.fatalf("invalid FIELDWIDTHS value, for field %d, near `%s'", len(ws)+1, f)
			}
			skip, f = n, b
		}
		if f == "*" {
			ws = append(ws, [2]int{skip, -1})
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			p.fatalf("invalid FIELDWIDTHS value, for field %d, near `%s'", len(ws)+1, f)
		}
		ws = append(ws, [2]int{skip, n})
	}
	return ws
}
