package sed

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sandsh/sandsh/builtins/internal/regex"
)

// The parser follows GNU sed's compile.c closely: the same one-character
// lookahead, the same places where blanks are skipped, and the same error
// positions, because scripts in the wild depend on those details.

const eof = -1

// parser compiles script pieces one after the other into one Program.
// State that spans pieces (open blocks, an a/i/c text continued by the
// next -e, labels) lives here.
type parser struct {
	src  []byte
	pos  int
	line int // line number in an -f file, for messages
	file string
	expr int // -e expression number, for messages

	opt   *Options // in effect for the piece being compiled
	posix Posixicity
	vSeen bool // a v command turned on GNU extensions for good
	prog  *Program
	first bool // compiling the first piece: "#n" may turn on -n

	blocks  []blockStart
	labels  map[string]int
	jumps   []int // indices of b, t, T commands
	pending *pendingText

	outIdx map[string]int
	inIdx  map[string]int
}

type blockStart struct {
	idx  int
	file string
	expr int
	line int
}

// pendingText is an a, i or c text that the end of an -e piece left open,
// as in `sed -e 'a\' -e 'text'`.
type pendingText struct {
	buf []byte
	cmd int
}

// parseError unwinds the parser; Compile turns it into an *Error.
type parseError struct{ err *Error }

// Compile compiles the script pieces into a Program.
func Compile(scripts []Script, opt Options) (prog *Program, err error) {
	p := &parser{
		opt:    &opt,
		posix:  opt.Posix,
		prog:   &Program{opt: opt},
		first:  true,
		labels: make(map[string]int),
		outIdx: make(map[string]int),
		inIdx:  make(map[string]int),
	}
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(parseError)
			if !ok {
				panic(r)
			}
			prog, err = nil, pe.err
		}
	}()
	for _, s := range scripts {
		p.src, p.pos, p.file = s.Text, 0, s.File
		p.opt = &opt
		if s.Opt != nil {
			p.opt = s.Opt
		}
		if !p.vSeen {
			p.posix = p.opt.Posix
		}
		if s.File != "" {
			p.line = 1
		} else {
			p.line = 0
			p.expr++
		}
		p.compile()
		p.first = false
	}
	p.finish()
	// GNU reports a missing previous regex at run time against where the
	// compiler stopped.
	if p.file != "" {
		p.prog.endLoc = fmt.Sprintf("file %s line %d", p.file, p.line)
	} else {
		p.prog.endLoc = fmt.Sprintf("-e expression #%d, char 0", p.expr)
	}
	return p.prog, nil
}

// bad reports an error in the script at the current position.
func (p *parser) bad(format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	if p.file != "" {
		msg = fmt.Sprintf("file %s line %d: %s", p.file, p.line, msg)
	} else {
		msg = fmt.Sprintf("-e expression #%d, char %d: %s", p.expr, p.pos, msg)
	}
	panic(parseError{&Error{Msg: msg, Status: exitBadUsage}})
}

// fatal reports an error that is not tied to a position.
func (p *parser) fatal(format string, a ...any) {
	panic(parseError{&Error{Msg: fmt.Sprintf(format, a...), Status: exitPanic}})
}

func (p *parser) inchar() int {
	if p.pos >= len(p.src) {
		return eof
	}
	c := p.src[p.pos]
	p.pos++
	if c == '\n' {
		p.line++
	}
	return int(c)
}

// savchar pushes back c, the character inchar just returned.
func (p *parser) savchar(c int) {
	if c == eof {
		return
	}
	if c == '\n' && p.line > 0 {
		p.line--
	}
	p.pos--
}

func isBlank(c int) bool { return c == ' ' || c == '\t' }

func isSpace(c int) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func isDigit(c int) bool { return c >= '0' && c <= '9' }

func (p *parser) inNonblank() int {
	c := p.inchar()
	for isBlank(c) {
		c = p.inchar()
	}
	return c
}

// inInteger reads the digits starting with c; it saturates on overflow.
func (p *parser) inInteger(c int) int64 {
	var n int64
	for isDigit(c) {
		d := int64(c - '0')
		if n > (math.MaxInt64-d)/10 {
			n = math.MaxInt64
		} else {
			n = n*10 + d
		}
		c = p.inchar()
	}
	p.savchar(c)
	return n
}

// endOfCmd consumes what may follow a command: blanks, then a newline,
// ';', EOF, or a '}' or '#' that is left for the next round.
func (p *parser) endOfCmd() {
	c := p.inNonblank()
	switch c {
	case '}', '#':
		p.savchar(c)
	case eof, '\n', ';':
	default:
		p.bad("extra characters after command")
	}
}

// compile compiles one script piece.
func (p *parser) compile() {
	if p.pending != nil {
		p.readText(nil, '\n')
	}
	for {
		c := p.inchar()
		for c == ';' || isSpace(c) {
			c = p.inchar()
		}
		if c == eof {
			return
		}
		p.command(c)
	}
}

// command compiles one command starting with character c.
func (p *parser) command(c int) {
	cmd := command{num: -1, file: -1}
	if a, ok := p.address(c); ok {
		if a.kind == addrPlus || a.kind == addrMult {
			p.bad("invalid usage of +N or ~N as first address")
		}
		cmd.a1 = a
		c = p.inNonblank()
		if c == ',' {
			a2, ok := p.address(p.inNonblank())
			if !ok {
				p.bad("unexpected `,'")
			}
			cmd.a2 = a2
			c = p.inNonblank()
		}
		if cmd.a1.kind == addrLine && cmd.a1.n == 0 &&
			(cmd.a2 == nil || cmd.a2.kind != addrRegex || p.posix == PosixBasic) {
			p.bad("invalid usage of line address 0")
		}
	}
	if c == '!' {
		cmd.negate = true
		c = p.inNonblank()
		if c == '!' {
			p.bad("multiple `!'s")
		}
	}
	if p.posix == PosixBasic {
		switch c {
		case 'e', 'F', 'v', 'z', 'L', 'Q', 'T', 'R', 'W':
			p.bad("unknown command: `%c'", c)
		case 'a', 'i', 'l', '=', 'r':
			if cmd.a2 != nil {
				p.bad("command only uses one address")
			}
		}
	}
	cmd.op = byte(c)
	idx := len(p.prog.cmds)
	switch c {
	case '#':
		if cmd.a1 != nil {
			p.bad("comments don't accept any addresses")
		}
		c = p.inchar()
		if c == 'n' && p.first && p.pos == 2 {
			p.prog.quiet = true
		}
		for c != eof && c != '\n' {
			c = p.inchar()
		}
		return
	case 'v':
		if v := p.readLabel(); v != "" && versionAfter(v, Version) {
			p.bad("expected newer version of sed")
		}
		p.posix, p.vSeen = PosixExtended, true
		return
	case '{':
		p.blocks = append(p.blocks, blockStart{idx: idx, file: p.file, expr: p.expr, line: p.line})
		cmd.negate = !cmd.negate
	case '}':
		if len(p.blocks) == 0 {
			p.bad("unexpected `}'")
		}
		if cmd.a1 != nil {
			p.bad("`}' doesn't want any addresses")
		}
		p.endOfCmd()
		open := p.blocks[len(p.blocks)-1]
		p.blocks = p.blocks[:len(p.blocks)-1]
		p.prog.cmds[open.idx].jump = idx
	case 'e':
		if p.opt.Sandbox {
			p.bad("e/r/w commands disabled in sandbox mode")
		}
		c = p.inNonblank()
		if c == eof || c == '\n' {
			break
		}
		p.textCommand(&cmd, idx, c)
		return
	case 'a', 'i', 'c':
		p.textCommand(&cmd, idx, p.inNonblank())
		return
	case ':':
		if cmd.a1 != nil {
			p.bad(": doesn't want any addresses")
		}
		label := p.readLabel()
		if label == "" {
			p.bad("\":\" lacks a label")
		}
		cmd.label = label
		// Like GNU, the last definition of a label wins.
		p.labels[label] = idx
	case 'b', 't', 'T':
		cmd.label = p.readLabel()
		p.jumps = append(p.jumps, idx)
	case 'q', 'Q', 'l':
		if (c == 'q' || c == 'Q') && cmd.a2 != nil {
			p.bad("command only uses one address")
		}
		c = p.inNonblank()
		if isDigit(c) && p.posix != PosixBasic {
			cmd.num = int(min(p.inInteger(c), math.MaxInt32))
		} else {
			p.savchar(c)
		}
		p.endOfCmd()
	case '=', 'd', 'D', 'F', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'z', 'x':
		p.endOfCmd()
	case 'r':
		cmd.fname = p.readFilename()
	case 'R':
		cmd.file = p.openIn(p.readFilename())
	case 'w', 'W':
		cmd.file = p.openOut(p.readFilename())
	case 's':
		cmd.sub = p.substCommand()
	case 'y':
		p.yCommand(&cmd)
		p.endOfCmd()
	case eof:
		p.bad("missing command")
	default:
		p.bad("unknown command: `%c'", c)
	}
	p.prog.cmds = append(p.prog.cmds, cmd)
}

// textCommand reads the text of a, i, c or e; c is the first non-blank
// character after the command letter.
func (p *parser) textCommand(cmd *command, idx, c int) {
	if c == eof {
		p.bad("expected \\ after `a', `c' or `i'")
	}
	if c == '\\' {
		c = p.inchar()
	} else {
		if p.posix == PosixBasic {
			p.bad("expected \\ after `a', `c' or `i'")
		}
		p.savchar(c)
		c = '\n'
	}
	p.prog.cmds = append(p.prog.cmds, *cmd)
	p.readText(&idx, c)
}

// readText reads the text of an a, i, c or e command into the command at
// *idx, or continues the pending text when idx is nil. lead is the first
// character of the text, or '\n' when the text starts with the next
// character.
func (p *parser) readText(idx *int, lead int) {
	if idx != nil {
		p.pending = &pendingText{cmd: *idx}
	}
	pt := p.pending
	if lead == eof {
		return
	}
	if lead != '\n' {
		pt.buf = append(pt.buf, byte(lead))
	}
	c := p.inchar()
	for c != eof && c != '\n' {
		if c == '\\' {
			c = p.inchar()
			if c != eof {
				pt.buf = append(pt.buf, '\\')
			}
		}
		if c == eof {
			// The text goes on in the next script piece.
			pt.buf = append(pt.buf, '\n')
			return
		}
		pt.buf = append(pt.buf, byte(c))
		c = p.inchar()
	}
	pt.buf = append(pt.buf, '\n')
	p.prog.cmds[pt.cmd].text = normalizeText(p, pt.buf, textBuffer)
	p.pending = nil
}

// readLabel reads the label of :, b, t or T.
func (p *parser) readLabel() string {
	var b []byte
	c := p.inNonblank()
	for c != eof && c != '\n' && !isBlank(c) && c != ';' && c != '}' && c != '#' {
		b = append(b, byte(c))
		c = p.inchar()
	}
	p.savchar(c)
	return string(b)
}

// readFilename reads the rest of the line as a file name.
func (p *parser) readFilename() string {
	if p.opt.Sandbox {
		p.bad("e/r/w commands disabled in sandbox mode")
	}
	var b []byte
	c := p.inNonblank()
	for c != eof && c != '\n' {
		b = append(b, byte(c))
		c = p.inchar()
	}
	if len(b) == 0 {
		p.bad("missing filename in r/R/w/W commands")
	}
	return string(b)
}

// openOut registers the file of a w command; the same name always refers
// to the same open file.
func (p *parser) openOut(name string) int {
	if i, ok := p.outIdx[name]; ok {
		return i
	}
	i := len(p.prog.outNames)
	p.prog.outNames = append(p.prog.outNames, name)
	p.outIdx[name] = i
	return i
}

func (p *parser) openIn(name string) int {
	if i, ok := p.inIdx[name]; ok {
		return i
	}
	i := len(p.prog.inNames)
	p.prog.inNames = append(p.prog.inNames, name)
	p.inIdx[name] = i
	return i
}

// address reads an address starting with c, or reads nothing and
// returns false when c does not start one.
func (p *parser) address(c int) (*address, bool) {
	switch {
	case c == '/' || c == '\\':
		if c == '\\' {
			c = p.inchar()
		}
		pat, ok := p.matchSlash(c, true)
		if !ok {
			p.bad("unterminated address regex")
		}
		var icase, mline bool
		for {
			c = p.inNonblank()
			if p.posix == PosixBasic {
				p.savchar(c)
				break
			}
			if c == 'I' {
				icase = true
			} else if c == 'M' {
				mline = true
			} else {
				p.savchar(c)
				break
			}
		}
		return &address{kind: addrRegex, re: p.compileRegex(pat, icase, mline, 0)}, true
	case isDigit(c):
		a := &address{kind: addrLine, n: p.inInteger(c)}
		c = p.inNonblank()
		if c != '~' || p.posix == PosixBasic {
			p.savchar(c)
		} else if step := p.inInteger(p.inNonblank()); step > 0 {
			a.kind, a.step = addrMod, step
		}
		return a, true
	case (c == '+' || c == '~') && p.posix != PosixBasic:
		a := &address{kind: addrNull}
		a.n = p.inInteger(p.inNonblank())
		if a.n != 0 {
			if c == '+' {
				a.kind = addrPlus
			} else {
				a.kind = addrMult
			}
		}
		return a, true
	case c == '$':
		return &address{kind: addrLast}, true
	}
	return nil, false
}

// matchSlash reads up to the unescaped delimiter slash. In a regex,
// "\n" becomes a newline and bracket expressions are skipped whole, so
// "s/[/]/x/" works. "\<slash>" loses its backslash (except "\&" in a
// replacement, where & is special).
func (p *parser) matchSlash(slash int, isRegex bool) ([]byte, bool) {
	if slash >= utf8.RuneSelf && p.opt.UTF8 {
		p.bad("delimiter character is not a single-byte character")
	}
	b := []byte{}
	c := p.inchar()
	for ; c != eof && c != '\n'; c = p.inchar() {
		if c == slash {
			return b, true
		}
		if c == '\\' {
			c = p.inchar()
			if c == eof {
				break
			}
			if c == 'n' && isRegex {
				c = '\n'
			} else if c != '\n' && (c != slash || (!isRegex && c == '&')) {
				b = append(b, '\\')
			}
		} else if c == '[' && isRegex {
			b = append(b, '[')
			c = p.snarfCharClass(&b)
			if c != ']' {
				break
			}
		}
		b = append(b, byte(c))
	}
	if c == '\n' {
		p.savchar(c)
	}
	return nil, false
}

// snarfCharClass copies a bracket expression after its '[' and returns
// the character that ended it: ']' or a newline or EOF.
func (p *parser) snarfCharClass(b *[]byte) int {
	state := 0 // 0 outside [. [: [=, 1 after '[', 2 inside, 3 after the closing . : =
	var delim int
	c := p.inchar()
	if c == '^' {
		*b = append(*b, byte(c))
		c = p.inchar()
	}
	if c == ']' {
		*b = append(*b, byte(c))
		c = p.inchar()
	}
	for ; ; c = p.next(b, c) {
		switch c {
		case eof, '\n':
			return c
		case '.', ':', '=':
			switch {
			case state == 1:
				delim, state = c, 2
				continue
			case state == 2 && c == delim:
				state = 3
				continue
			}
		case '[':
			if state == 0 {
				state = 1
			}
			continue
		case ']':
			if state == 0 || state == 1 {
				return c
			}
			if state == 3 {
				state = 0
			}
		}
		state &^= 1
	}
}

// next appends c to b and reads the next character.
func (p *parser) next(b *[]byte, c int) int {
	*b = append(*b, byte(c))
	return p.inchar()
}

// substCommand compiles the rest of an s command after the 's'.
func (p *parser) substCommand() *subst {
	slash := p.inchar()
	pat, ok := p.matchSlash(slash, true)
	if !ok {
		p.bad("unterminated `s' command")
	}
	rep, ok := p.matchSlash(slash, false)
	if !ok {
		p.bad("unterminated `s' command")
	}
	s := &subst{out: -1}
	s.repl, s.maxRef = parseReplacement(normalizeText(p, rep, textReplacement), p.posix == PosixBasic)
	icase, mline := p.substFlags(s)
	s.re = p.compileRegex(pat, icase, mline, s.maxRef+1)
	if s.eval && p.opt.Sandbox {
		p.bad("e/r/w commands disabled in sandbox mode")
	}
	return s
}

// substFlags reads the flags of an s command.
func (p *parser) substFlags(s *subst) (icase, mline bool) {
	for {
		c := p.inNonblank()
		switch c {
		case 'i', 'I', 'm', 'M', 'e':
			if p.posix == PosixBasic {
				p.bad("unknown option to `s'")
			}
			switch c {
			case 'i', 'I':
				icase = true
			case 'm', 'M':
				mline = true
			default:
				s.eval = true
			}
		case 'p':
			if s.print != 0 {
				p.bad("multiple `p' options to `s' command")
			}
			if s.eval {
				s.print = 2
			} else {
				s.print = 1
			}
		case 'g':
			if s.global {
				p.bad("multiple `g' options to `s' command")
			}
			s.global = true
		case 'w':
			s.out = p.openOut(p.readFilename())
			return
		case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			if s.numb != 0 {
				p.bad("multiple number options to `s' command")
			}
			s.numb = int(min(p.inInteger(c), math.MaxInt32))
			if s.numb == 0 {
				p.bad("number option to `s' command may not be zero")
			}
		case '}', '#':
			p.savchar(c)
			return
		case eof, '\n', ';':
			return
		case '\r':
			if p.inchar() == '\n' {
				return
			}
			p.bad("unknown option to `s'")
		default:
			p.bad("unknown option to `s'")
		}
	}
}

// yCommand compiles the strings of a y command.
func (p *parser) yCommand(cmd *command) {
	slash := p.inchar()
	src, ok := p.matchSlash(slash, false)
	if !ok {
		p.bad("unterminated `y' command")
	}
	src = normalizeText(p, src, textBuffer)
	dst, ok := p.matchSlash(slash, false)
	if !ok {
		p.bad("unterminated `y' command")
	}
	dst = normalizeText(p, dst, textBuffer)
	if p.opt.UTF8 && (hasHighBytes(src) || hasHighBytes(dst)) {
		sr, dr := []rune(string(src)), []rune(string(dst))
		if len(sr) != len(dr) {
			p.bad("strings for `y' command are different lengths")
		}
		cmd.ymap = make(map[rune]rune, len(sr))
		for i, r := range sr {
			if _, seen := cmd.ymap[r]; !seen {
				cmd.ymap[r] = dr[i]
			}
		}
		return
	}
	if len(src) != len(dst) {
		p.bad("strings for `y' command are different lengths")
	}
	var tab [256]byte
	for i := range tab {
		tab[i] = byte(i)
	}
	// Like GNU, a later mapping of the same byte wins.
	for i := range src {
		tab[src[i]] = dst[i]
	}
	cmd.ytab = &tab
}

func hasHighBytes(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// compileRegex compiles an address or s regex. An empty pattern means
// "the last regex used" and is returned as nil. needSub is one more than
// the highest \N the replacement uses.
func (p *parser) compileRegex(pat []byte, icase, mline bool, needSub int) *rx {
	if len(pat) == 0 {
		if icase || mline {
			p.bad("cannot specify modifiers on empty regexp")
		}
		return nil
	}
	pat = normalizeText(p, pat, textRegex)
	syn := regex.BRE
	if p.opt.Extended {
		syn = regex.ERE
	}
	bySegment := mline && p.opt.NullData
	re, err := regex.Compile(string(pat), regex.Flags{Syntax: syn, IgnoreCase: icase, Multiline: mline && !bySegment})
	if err != nil {
		p.bad("%s", err.Error())
	}
	if needSub > 1 && re.NumSubexp() < needSub-1 {
		p.bad("invalid reference \\%d on `s' command's RHS", needSub-1)
	}
	return &rx{re: re, bySegment: bySegment}
}

// finish makes the checks that need the whole program: open blocks, an
// unfinished text, and jumps to labels.
func (p *parser) finish() {
	if len(p.blocks) > 0 {
		b := p.blocks[len(p.blocks)-1]
		p.file, p.expr, p.line, p.pos = b.file, b.expr, b.line, 0
		p.bad("unmatched `{'")
	}
	if pt := p.pending; pt != nil {
		// GNU keeps such a text as it is, without processing escapes.
		if len(pt.buf) > 0 {
			p.prog.cmds[pt.cmd].text = pt.buf
		}
		p.pending = nil
	}
	for _, i := range p.jumps {
		c := &p.prog.cmds[i]
		if c.label == "" {
			c.jump = len(p.prog.cmds)
			continue
		}
		target, ok := p.labels[c.label]
		if !ok {
			p.fatal("can't find label for jump to `%s'", c.label)
		}
		c.jump = target
	}
}

// Version is the GNU sed version this engine behaves like.
const Version = "4.9"

// versionAfter reports whether dotted version a is newer than b.
func versionAfter(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) || i < len(bs); i++ {
		var x, y int
		if i < len(as) {
			x, _ = strconv.Atoi(as[i])
		}
		if i < len(bs) {
			y, _ = strconv.Atoi(bs[i])
		}
		if x != y {
			return x > y
		}
	}
	return false
}
