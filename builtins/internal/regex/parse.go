package regex

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// The parser turns a POSIX (GNU-flavoured) BRE, ERE or awk regular
// expression into a small syntax tree. The tree is then printed in the
// syntax of one of the two engines (Go's regexp or regexp2); doing it in two
// steps lets us pick the engine after seeing the whole expression and
// renumber groups when several grep patterns are joined.

type op uint8

const (
	opLit       op = iota // r; raw means r is one byte that is not UTF-8
	opAny                 // .
	opClass               // cls
	opCapture             // cap, sub[0]
	opConcat              // sub...
	opAlt                 // sub...
	opRepeat              // min, max (-1: no limit), sub[0]
	opBOL                 // ^
	opEOL                 // $
	opBOT                 // \`
	opEOT                 // \'
	opWordB               // \b
	opNotWordB            // \B
	opWordStart           // \<
	opWordEnd             // \>
	opBackref             // cap
	opEmpty
	opNotAfterWord  // (?<!\w), for grep -w on the backtracking engine
	opNotBeforeWord // (?!\w)
)

type node struct {
	op       op
	r        rune
	raw      bool
	cls      *charClass
	min, max int
	cap      int
	sub      []*node
}

// charClass is a set of runes as sorted, non-overlapping [lo, hi] pairs.
// Bytes that are not UTF-8 are folded into utf8.RuneError, which is what
// the engines see for them in the input.
type charClass struct {
	neg    bool
	ranges []rune
	// escape: written \W or \S, which glibc matches against '\n' even
	// under REG_NEWLINE (sed's M flag), unlike a bracket [^...].
	escape bool
}

// maxRepeat is RE_DUP_MAX in glibc.
const maxRepeat = 0x7fff

// Errors with the texts GNU grep and sed print.
var (
	errBrack       = errors.New("Unmatched [, [^, [:, [., or [=")
	errParen       = errors.New("Unmatched ( or \\(")
	errRParen      = errors.New("Unmatched ) or \\)")
	errBrace       = errors.New("Unmatched \\{")
	errBadBrace    = errors.New("Invalid content of \\{\\}")
	errBackref     = errors.New("Invalid back reference")
	errRange       = errors.New("Invalid range end")
	errCtype       = errors.New("Invalid character class name")
	errCollate     = errors.New("Invalid collation character")
	errEscape      = errors.New("Trailing backslash")
	errBadPattern  = errors.New("Invalid regular expression")
	errBadRepeat   = errors.New("Invalid preceding regular expression")
	errTooBig      = errors.New("Regular expression too big")
	errColonSyntax = errors.New("character class syntax is [[:space:]], not [:space:]")
)

type parser struct {
	src  string
	pos  int
	syn  Syntax
	grep bool // GNU grep's dialect rather than glibc's (sed, expr)

	ncap     int
	closed   []bool // closed[i]: group i+1 has been closed
	backref  bool
	warnings []string
}

func parse(src string, syn Syntax, grep bool) (*node, *parser, error) {
	p := &parser{src: src, syn: syn, grep: grep}
	if syn == Fixed {
		return p.literalString(src), p, nil
	}
	n, err := p.parseAlt(0)
	if err != nil {
		return nil, nil, err
	}
	if p.pos < len(p.src) {
		// Only an unbalanced close can stop the top level early.
		return nil, nil, errRParen
	}
	return n, p, nil
}

func (p *parser) literalString(s string) *node {
	n := &node{op: opConcat}
	for i := 0; i < len(s); {
		lit, w := decodeLit(s[i:])
		n.sub = append(n.sub, lit)
		i += w
	}
	return n
}

func decodeLit(s string) (*node, int) {
	r, w := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && w <= 1 {
		return &node{op: opLit, r: rune(s[0]), raw: true}, 1
	}
	return &node{op: opLit, r: r}, w
}

func lit(r rune) *node { return &node{op: opLit, r: r} }

func (p *parser) peek() byte {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *parser) has(s string) bool { return strings.HasPrefix(p.src[p.pos:], s) }

func (p *parser) warn(msg string) {
	for _, w := range p.warnings {
		if w == msg {
			return
		}
	}
	p.warnings = append(p.warnings, msg)
}

func (p *parser) parseAlt(depth int) (*node, error) {
	// Like glibc, a back-reference may only name a group closed in its
	// own branch or before the alternation began.
	initial := append([]bool(nil), p.closed...)
	var alts []*node
	for {
		var accumulated []bool
		if len(alts) > 0 {
			accumulated = append([]bool(nil), p.closed...)
			for i := range p.closed {
				p.closed[i] = i < len(initial) && initial[i]
			}
		}
		b, err := p.parseBranch(depth)
		if err != nil {
			return nil, err
		}
		for i, c := range accumulated {
			p.closed[i] = p.closed[i] || c
		}
		alts = append(alts, b)
		if !p.eatAltOp() {
			break
		}
	}
	if len(alts) == 1 {
		return alts[0], nil
	}
	return &node{op: opAlt, sub: alts}, nil
}

func (p *parser) eatAltOp() bool {
	if p.syn == BRE {
		if p.has(`\|`) {
			p.pos += 2
			return true
		}
		return false
	}
	if p.peek() == '|' {
		p.pos++
		return true
	}
	return false
}

// branchEnd reports whether the branch being parsed stops here.
func (p *parser) branchEnd(depth int) (bool, error) {
	if p.pos >= len(p.src) {
		return true, nil
	}
	if p.syn == BRE {
		if p.has(`\|`) {
			return true, nil
		}
		if p.has(`\)`) {
			if depth == 0 {
				return false, errRParen
			}
			return true, nil
		}
		return false, nil
	}
	switch p.peek() {
	case '|':
		return true, nil
	case ')':
		if depth > 0 {
			return true, nil
		}
		if !p.grep && p.syn == ERE {
			return false, errRParen
		}
	}
	return false, nil
}

func (p *parser) parseBranch(depth int) (*node, error) {
	var items []*node
	for {
		end, err := p.branchEnd(depth)
		if err != nil {
			return nil, err
		}
		if end {
			break
		}
		atom, err := p.parseAtom(items, depth)
		if err != nil {
			return nil, err
		}
		if atom == nil {
			continue
		}
		atom, err = p.parseQuantifiers(atom, items)
		if err != nil {
			return nil, err
		}
		items = append(items, atom)
	}
	switch len(items) {
	case 0:
		return &node{op: opEmpty}, nil
	case 1:
		return items[0], nil
	}
	return &node{op: opConcat, sub: items}, nil
}

// atStart reports whether a repetition operator here has nothing to
// repeat: the branch is empty or holds only anchors and word assertions.
func atStart(items []*node) bool {
	for _, it := range items {
		if !isAssertion(it) {
			return false
		}
	}
	return true
}

func isAssertion(n *node) bool {
	switch n.op {
	case opBOL, opEOL, opBOT, opEOT, opWordB, opNotWordB, opWordStart, opWordEnd:
		return true
	}
	return false
}

func (p *parser) parseAtom(items []*node, depth int) (*node, error) {
	c := p.src[p.pos]
	if p.syn == BRE {
		switch c {
		case '^':
			p.pos++
			if len(items) == 0 {
				return &node{op: opBOL}, nil
			}
			return lit('^'), nil
		case '$':
			p.pos++
			if p.pos == len(p.src) || p.has(`\)`) || p.has(`\|`) {
				return &node{op: opEOL}, nil
			}
			return lit('$'), nil
		case '*':
			p.pos++
			return lit('*'), nil
		}
	} else {
		switch c {
		case '^':
			p.pos++
			return &node{op: opBOL}, nil
		case '$':
			p.pos++
			return &node{op: opEOL}, nil
		case '(':
			p.pos++
			return p.parseGroup(depth)
		case ')':
			p.pos++
			return lit(')'), nil
		case '*', '+', '?':
			return p.leadingRepeat(string(c) + " at start of expression")
		case '{':
			_, _, n, ok := p.scanInterval()
			p.pos++
			switch {
			case p.syn == AWK:
			case p.grep && !atStart(items):
			case p.grep:
				// GNU grep ignores a leading interval (or lone brace),
				// as it does a leading *.
				if ok {
					p.warn("{...} at start of expression")
					p.pos += n - 1
				}
				return nil, nil
			default:
				return nil, errBadRepeat
			}
			return lit('{'), nil
		}
	}
	switch c {
	case '.':
		p.pos++
		return &node{op: opAny}, nil
	case '[':
		return p.parseBracket()
	case '\\':
		return p.parseEscape(items, depth)
	}
	n, w := decodeLit(p.src[p.pos:])
	p.pos += w
	return n, nil
}

// leadingRepeat handles an ERE *, + or ? with nothing before it: GNU grep
// warns and ignores it, glibc (sed) rejects it and awk takes it literally.
func (p *parser) leadingRepeat(warning string) (*node, error) {
	c := p.src[p.pos]
	p.pos++
	switch {
	case p.syn == AWK:
		return lit(rune(c)), nil
	case p.grep:
		p.warn(warning)
		return nil, nil
	}
	return nil, errBadRepeat
}

func (p *parser) parseGroup(depth int) (*node, error) {
	p.ncap++
	idx := p.ncap
	p.closed = append(p.closed, false)
	sub, err := p.parseAlt(depth + 1)
	if err != nil {
		return nil, err
	}
	if p.syn == BRE {
		if !p.has(`\)`) {
			return nil, errParen
		}
		p.pos += 2
	} else {
		if p.peek() != ')' {
			return nil, errParen
		}
		p.pos++
	}
	p.closed[idx-1] = true
	return &node{op: opCapture, cap: idx, sub: []*node{sub}}, nil
}

func (p *parser) parseEscape(items []*node, depth int) (*node, error) {
	if p.pos+1 >= len(p.src) {
		return nil, errEscape
	}
	c := p.src[p.pos+1]
	start := p.pos
	p.pos += 2
	if p.syn == BRE {
		switch c {
		case '(':
			return p.parseGroup(depth)
		case '{', '}', '+', '?':
			// Nothing to repeat (or a stray \}): GNU takes it literally.
			return lit(rune(c)), nil
		}
	}
	switch {
	case c >= '1' && c <= '9' && p.syn != AWK:
		n := int(c - '0')
		if n > len(p.closed) || !p.closed[n-1] {
			return nil, errBackref
		}
		p.backref = true
		return &node{op: opBackref, cap: n}, nil
	case c == 'w' || c == 'W':
		cls := wordClass(c == 'W')
		cls.escape = true
		return &node{op: opClass, cls: cls}, nil
	case c == 's' || c == 'S':
		cls := spaceClass(c == 'S')
		cls.escape = true
		return &node{op: opClass, cls: cls}, nil
	case c == 'b' && p.syn != AWK, c == 'y' && p.syn == AWK:
		return &node{op: opWordB}, nil
	case c == 'B':
		return &node{op: opNotWordB}, nil
	case c == '<':
		return &node{op: opWordStart}, nil
	case c == '>':
		return &node{op: opWordEnd}, nil
	case c == '`':
		return &node{op: opBOT}, nil
	case c == '\'':
		return &node{op: opEOT}, nil
	}
	if r, ok := p.controlEscape(c); ok {
		return lit(r), nil
	}
	if p.syn == AWK {
		if r, ok := p.awkNumeric(c); ok {
			return lit(r), nil
		}
	} else if !p.grep {
		if b, ok := p.sedNumeric(c); ok {
			// GNU sed converts these before the regex compiler sees
			// them, so the produced character keeps any special
			// meaning; a backslash stays literal.
			if b == '\\' {
				return lit('\\'), nil
			}
			p.src = p.src[:start] + string([]byte{b}) + p.src[p.pos:]
			p.pos = start
			return p.parseAtom(items, depth)
		}
	}
	n, w := decodeLit(p.src[p.pos-1:])
	p.pos += w - 1
	return n, nil
}

// controlEscape maps \n \t and friends, which sed and awk understand and
// grep does not (grep 'a\tb' matches "atb").
func (p *parser) controlEscape(c byte) (rune, bool) {
	if p.grep {
		return 0, false
	}
	switch c {
	case 'n':
		return '\n', true
	case 't':
		return '\t', true
	case 'r':
		return '\r', true
	case 'f':
		return '\f', true
	case 'v':
		return '\v', true
	case 'a':
		return '\a', true
	}
	if p.syn == AWK {
		switch c {
		case 'b':
			return '\b', true
		case '/', '"':
			return rune(c), true
		}
	}
	return 0, false
}

// sedNumeric decodes GNU sed's \dNNN, \oNNN, \xHH and \cX, with p.pos just
// after the letter.
func (p *parser) sedNumeric(c byte) (byte, bool) {
	switch c {
	case 'd':
		return p.number(10, 3)
	case 'o':
		return p.number(8, 3)
	case 'x':
		return p.number(16, 2)
	case 'c':
		if p.pos < len(p.src) {
			x := p.src[p.pos]
			p.pos++
			if x >= 'a' && x <= 'z' {
				x -= 'a' - 'A'
			}
			return x ^ 0x40, true
		}
	}
	return 0, false
}

// awkNumeric decodes gawk's \NNN octal and \xHH escapes.
func (p *parser) awkNumeric(c byte) (rune, bool) {
	switch {
	case c >= '0' && c <= '7':
		p.pos--
		b, ok := p.number(8, 3)
		return rune(b), ok
	case c == 'x':
		b, ok := p.number(16, 2)
		return rune(b), ok
	}
	return 0, false
}

func (p *parser) number(base, max int) (byte, bool) {
	v, n := 0, 0
	for n < max && p.pos < len(p.src) {
		d := digitVal(p.src[p.pos])
		if d < 0 || d >= base {
			break
		}
		v = v*base + d
		p.pos++
		n++
	}
	return byte(v), n > 0
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

// parseQuantifiers applies every repetition operator that follows atom.
// An operator after an anchor or word assertion that starts the branch
// is literal in a BRE (like after nothing); in an ERE GNU grep warns that
// it is "at start of expression" but still applies it, and glibc rejects
// it.
func (p *parser) parseQuantifiers(atom *node, items []*node) (*node, error) {
	leading := isAssertion(atom) && atStart(items)
	if leading && p.syn == BRE {
		return atom, nil
	}
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		min, max, ok, err := p.quantifier()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if leading && p.syn == ERE {
			if !p.grep {
				return nil, errBadRepeat
			}
			if c == '{' {
				p.warn("{...} at start of expression")
			} else {
				p.warn(string(c) + " at start of expression")
			}
		}
		atom = &node{op: opRepeat, min: min, max: max, sub: []*node{atom}}
	}
	return atom, nil
}

func (p *parser) quantifier() (min, max int, ok bool, err error) {
	c := p.src[p.pos]
	if c == '*' {
		p.pos++
		return 0, -1, true, nil
	}
	if p.syn == BRE {
		if c != '\\' || p.pos+1 >= len(p.src) {
			return 0, 0, false, nil
		}
		switch p.src[p.pos+1] {
		case '+':
			p.pos += 2
			return 1, -1, true, nil
		case '?':
			p.pos += 2
			return 0, 1, true, nil
		case '{':
			return p.breInterval()
		}
		return 0, 0, false, nil
	}
	switch c {
	case '+':
		p.pos++
		return 1, -1, true, nil
	case '?':
		p.pos++
		return 0, 1, true, nil
	case '{':
		return p.ereInterval()
	}
	return 0, 0, false, nil
}

// scanInterval looks at an ERE "{m,n}" at p.pos without consuming it and
// returns its bounds and its length (0 if it is not well formed).
func (p *parser) scanInterval() (min, max, n int, ok bool) {
	s := p.src[p.pos:]
	if len(s) == 0 || s[0] != '{' {
		return 0, 0, 0, false
	}
	i := 1
	min, i1 := scanInt(s, i)
	hasMin := i1 > i
	i = i1
	max = min
	if i < len(s) && s[i] == ',' {
		i++
		var i2 int
		max, i2 = scanInt(s, i)
		if i2 == i {
			max = -1
		}
		i = i2
		if !hasMin {
			min = 0
		}
	} else if !hasMin {
		return 0, 0, 0, false
	}
	if i >= len(s) || s[i] != '}' {
		return 0, 0, 0, false
	}
	return min, max, i + 1, true
}

func scanInt(s string, i int) (int, int) {
	v := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if v <= maxRepeat {
			v = v*10 + int(s[i]-'0')
		}
		i++
	}
	return v, i
}

func (p *parser) ereInterval() (int, int, bool, error) {
	min, max, n, ok := p.scanInterval()
	if !ok {
		if p.grep || p.syn == AWK {
			return 0, 0, false, nil // a literal '{'
		}
		if !strings.Contains(p.src[p.pos:], "}") {
			return 0, 0, false, errBrace
		}
		return 0, 0, false, errBadBrace
	}
	if err := checkInterval(min, max); err != nil {
		return 0, 0, false, err
	}
	p.pos += n
	return min, max, true, nil
}

func (p *parser) breInterval() (int, int, bool, error) {
	body := p.src[p.pos+2:]
	end := strings.Index(body, `\}`)
	if end < 0 {
		return 0, 0, false, errBrace
	}
	fake := "{" + body[:end] + "}"
	q := parser{src: fake}
	min, max, n, ok := q.scanInterval()
	if !ok || n != len(fake) {
		return 0, 0, false, errBadBrace
	}
	if err := checkInterval(min, max); err != nil {
		return 0, 0, false, err
	}
	p.pos += 2 + end + 2
	return min, max, true, nil
}

func checkInterval(min, max int) error {
	if min > maxRepeat || max > maxRepeat {
		return errTooBig
	}
	if max >= 0 && max < min {
		return errBadBrace
	}
	return nil
}

// parseBracket parses a bracket expression starting at '['.
func (p *parser) parseBracket() (*node, error) {
	p.pos++
	cls := &charClass{}
	if p.peek() == '^' {
		cls.neg = true
		p.pos++
	}
	if p.pos >= len(p.src) {
		return nil, errBadPattern
	}
	contentStart := p.pos
	for first := true; ; first = false {
		if p.pos >= len(p.src) {
			return nil, errBrack
		}
		if p.src[p.pos] == ']' && !first {
			if err := p.checkColonSyntax(contentStart); err != nil {
				return nil, err
			}
			p.pos++
			break
		}
		lo, isChar, err := p.bracketItem(cls)
		if err != nil {
			return nil, err
		}
		if p.peek() == '-' && p.pos+1 < len(p.src) && p.src[p.pos+1] != ']' {
			if !isChar {
				return nil, errRange
			}
			p.pos++
			hi, isChar2, err := p.bracketItem(nil)
			if err != nil {
				return nil, err
			}
			if !isChar2 || hi < lo {
				return nil, errRange
			}
			cls.add(lo, hi)
			continue
		}
		if isChar {
			cls.add(lo, lo)
		}
	}
	return &node{op: opClass, cls: cls}, nil
}

// checkColonSyntax rejects "[:alpha:]" written without the outer brackets,
// as GNU grep and sed do.
func (p *parser) checkColonSyntax(start int) error {
	body := p.src[start:p.pos]
	if p.syn != AWK && len(body) >= 2 && body[0] == ':' && body[len(body)-1] == ':' {
		return errColonSyntax
	}
	return nil
}

// bracketItem parses one element of a bracket expression. For a character
// it returns it with isChar set; a class is added to cls directly.
func (p *parser) bracketItem(cls *charClass) (r rune, isChar bool, err error) {
	s := p.src[p.pos:]
	if len(s) >= 2 && s[0] == '[' && (s[1] == ':' || s[1] == '=' || s[1] == '.') {
		delim := s[1]
		end := strings.Index(s[2:], string([]byte{delim, ']'}))
		if end < 0 {
			return 0, false, errBrack
		}
		name := s[2 : 2+end]
		p.pos += 2 + end + 2
		if delim == ':' {
			if cls == nil {
				return 0, false, errRange
			}
			if !addNamedClass(cls, name) {
				return 0, false, errCtype
			}
			return 0, false, nil
		}
		r, w := utf8.DecodeRuneInString(name)
		if name == "" || w != len(name) {
			return 0, false, errCollate
		}
		return r, true, nil
	}
	if s[0] == '\\' && len(s) >= 2 {
		if r, w, ok := p.bracketEscape(s); ok {
			p.pos += w
			return r, true, nil
		}
	}
	r, w := utf8.DecodeRuneInString(s)
	p.pos += w
	return r, true, nil
}

// bracketEscape handles a backslash inside brackets: literal in POSIX, an
// escape in awk, and \n \t ... in sed.
func (p *parser) bracketEscape(s string) (rune, int, bool) {
	c := s[1]
	if p.syn == AWK {
		q := parser{src: s, pos: 2, syn: AWK}
		if r, ok := q.controlEscape(c); ok {
			return r, 2, true
		}
		if r, ok := q.awkNumeric(c); ok {
			return r, q.pos, true
		}
		r, w := utf8.DecodeRuneInString(s[1:])
		return r, 1 + w, true
	}
	if p.grep {
		return 0, 0, false
	}
	if c == '\\' {
		// Both backslashes are literal, but the second must not escape
		// what follows it.
		p.pos++
		return '\\', 1, true
	}
	q := parser{src: s, pos: 2}
	if r, ok := q.controlEscape(c); ok {
		return r, 2, true
	}
	return 0, 0, false
}

func addNamedClass(cls *charClass, name string) bool {
	rs, ok := posixClasses[name]
	if !ok {
		return false
	}
	for i := 0; i < len(rs); i += 2 {
		cls.add(rs[i], rs[i+1])
	}
	return true
}

var posixClasses = map[string][]rune{
	"alpha":  {'A', 'Z', 'a', 'z'},
	"digit":  {'0', '9'},
	"alnum":  {'0', '9', 'A', 'Z', 'a', 'z'},
	"upper":  {'A', 'Z'},
	"lower":  {'a', 'z'},
	"space":  {'\t', '\r', ' ', ' '},
	"blank":  {'\t', '\t', ' ', ' '},
	"punct":  {'!', '/', ':', '@', '[', '`', '{', '~'},
	"print":  {' ', '~'},
	"graph":  {'!', '~'},
	"cntrl":  {0, 0x1f, 0x7f, 0x7f},
	"xdigit": {'0', '9', 'A', 'F', 'a', 'f'},
}

func wordClass(neg bool) *charClass {
	c := &charClass{neg: neg}
	c.add('0', '9')
	c.add('A', 'Z')
	c.add('_', '_')
	c.add('a', 'z')
	return c
}

func spaceClass(neg bool) *charClass {
	c := &charClass{neg: neg}
	addNamedClass(c, "space")
	return c
}

// add inserts [lo, hi] keeping ranges sorted and merged.
func (c *charClass) add(lo, hi rune) {
	var out []rune
	i := 0
	for ; i < len(c.ranges) && c.ranges[i+1] < lo-1; i += 2 {
		out = append(out, c.ranges[i], c.ranges[i+1])
	}
	for ; i < len(c.ranges) && c.ranges[i] <= hi+1; i += 2 {
		lo = min(lo, c.ranges[i])
		hi = max(hi, c.ranges[i+1])
	}
	out = append(out, lo, hi)
	out = append(out, c.ranges[i:]...)
	c.ranges = out
}

// remove deletes r from the set.
func (c *charClass) remove(r rune) {
	var out []rune
	for i := 0; i < len(c.ranges); i += 2 {
		lo, hi := c.ranges[i], c.ranges[i+1]
		if r < lo || r > hi {
			out = append(out, lo, hi)
			continue
		}
		if lo < r {
			out = append(out, lo, r-1)
		}
		if r < hi {
			out = append(out, r+1, hi)
		}
	}
	c.ranges = out
}

// onlyWord reports whether every rune the class matches is a word
// character, which lets \< before it be written as \b.
func (c *charClass) onlyWord() bool {
	if c.neg || len(c.ranges) == 0 {
		return false
	}
	w := wordClass(false)
	for i := 0; i < len(c.ranges); i += 2 {
		ok := false
		for j := 0; j < len(w.ranges); j += 2 {
			if c.ranges[i] >= w.ranges[j] && c.ranges[i+1] <= w.ranges[j+1] {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return true
}
