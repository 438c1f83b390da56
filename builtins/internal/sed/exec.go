package sed

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"unicode"
	"unicode/utf8"

	"github.com/sandsh/sandsh/builtins/internal/guard"
)

type rangeState uint8

const (
	rangeInactive rangeState = iota
	rangeActive
	rangeClosed // a range whose first address is a line number never restarts
)

type rangeInfo struct {
	state rangeState
	end   int64 // last line of an addr1,+N or addr1,~N range
}

// readFile is the file of an R command, read one line at a time.
type readFile struct {
	name string
	r    *bufio.Reader
	c    io.Closer
	err  error // reading it fails (a directory)
}

// machine is the state of one run of a Program.
type machine struct {
	ctx   context.Context
	prog  *Program
	opt   *Options
	io    *IO
	quiet bool
	delim byte

	ps, hold, acc []byte
	chomped       bool // the pattern space's line had its delimiter
	holdChomped   bool
	replaced      bool // a substitution was made since the last line or t
	lastRe        *rx
	ranges        []rangeInfo

	in       input
	hasInput bool

	stdout  *output // the real standard output
	out     *output // where the pattern space goes: stdout, or the -i file
	outs    []*output
	sinks   []*sink // w files to flush and close
	stderr  *sink
	inputs  []*readFile
	appendQ []appendItem

	scratch  [24]byte
	oneMatch [1][]int
	copyBuf  []byte
	meter    guard.Meter
	maxLine  int
	err      error // fatal error or cancellation: stop
	status   int
}

// errStop marks a fatal error that was already reported.
var errStop = errors.New("sed: stopped")

// fatalf reports a fatal runtime error; the run stops with status 4.
func (m *machine) fatalf(format string, a ...any) {
	if m.err != nil {
		return
	}
	m.io.warnf(format, a...)
	m.err = errStop
	m.status = exitPanic
}

// Run runs the program over the named files (standard input when there
// are none). It returns sed's exit status, and a non-nil error when
// writing standard output failed or ctx was cancelled; the caller reports
// that error.
func (p *Program) Run(ctx context.Context, files []string, sio *IO) (int, error) {
	m := &machine{
		ctx:         ctx,
		prog:        p,
		opt:         &p.opt,
		io:          sio,
		quiet:       p.opt.Quiet || p.quiet,
		delim:       '\n',
		chomped:     true,
		holdChomped: true,
		ranges:      make([]rangeInfo, len(p.cmds)),
		meter:       *guard.NewMeter(ctx),
		maxLine:     p.opt.MaxLine,
	}
	if m.maxLine <= 0 {
		m.maxLine = math.MaxInt
	}
	if p.opt.NullData {
		m.delim = 0
	}
	m.stdout = &output{s: newSink(sio.Stdout, nil, "stdout")}
	m.out = m.stdout
	m.stderr = newSink(sio.Stderr, nil, "stderr")
	if len(files) == 0 {
		if p.opt.InPlace {
			sio.warnf("no input files")
			return exitPanic, nil
		}
		files = []string{"-"}
	}
	m.in = input{names: files, resetAtNext: true}
	m.openFiles()
	if m.err == nil {
		m.loop()
	}
	m.closeInput()
	if m.in.bad > 0 && m.err == nil {
		m.status = exitBadInput
	}
	return m.status, m.finish()
}

// loop runs cycles until the input ends or a q command.
func (m *machine) loop() {
	for m.readPatternSpace(false) {
		if err := m.meter.Add(len(m.ps) + 64); err != nil {
			m.err = err
			return
		}
		if st, quit := m.execute(); quit {
			if m.err == nil {
				m.status = st
			}
			return
		}
		if m.err != nil || m.stdout.s.err != nil {
			return
		}
	}
}

// finish flushes and closes every output and returns the error to report.
func (m *machine) finish() error {
	for _, s := range m.sinks {
		s.flush()
		if s.c != nil {
			s.c.Close()
		}
		if s.err != nil && m.err == nil {
			m.fatalf("couldn't write to %s: %s", s.name, m.io.errText(s.err))
		}
	}
	for _, f := range m.inputs {
		if f.c != nil {
			f.c.Close()
		}
	}
	m.stderr.flush()
	m.stdout.s.flush()
	if m.in.edit != nil {
		m.in.edit.Abort()
	}
	switch {
	case m.err != nil && m.err != errStop:
		return m.err
	case m.stdout.s.err != nil:
		return m.stdout.s.err
	}
	return nil
}

// openFiles creates the w files and opens the R files, as GNU sed does
// before reading any input. Like GNU sed, /dev/stdout, /dev/stderr and
// /dev/stdin name sed's own streams (with -i, the real standard output).
func (m *machine) openFiles() {
	for _, name := range m.prog.outNames {
		o := &output{}
		switch {
		case name == "/dev/stdout":
			o.s = m.stdout.s
		case name == "/dev/stderr":
			o.s = m.stderr
		default:
			f, err := m.io.Create(name)
			if err != nil {
				m.fatalf("couldn't open file %s: %s", name, m.io.errText(err))
				return
			}
			o.s = newSink(f, f, name)
			m.sinks = append(m.sinks, o.s)
		}
		m.outs = append(m.outs, o)
	}
	for _, name := range m.prog.inNames {
		f := &readFile{name: name}
		m.openReadFile(f)
		m.inputs = append(m.inputs, f)
	}
}

func (m *machine) openReadFile(f *readFile) {
	if f.name == "/dev/stdin" {
		if m.io.Stdin != nil {
			f.r = bufio.NewReader(m.io.Stdin)
		}
		return
	}
	rc, err := m.io.Open(f.name)
	if err != nil {
		if isDirError(err) {
			f.err = err
		}
		return
	}
	f.r, f.c = bufio.NewReader(rc), rc
}

// rewindReadFiles starts the R files over, for the next file with -s.
func (m *machine) rewindReadFiles() {
	for _, f := range m.inputs {
		if f.c == nil {
			continue
		}
		f.c.Close()
		f.r, f.c = nil, nil
		m.openReadFile(f)
	}
}

func (m *machine) resetRanges() {
	for i := range m.prog.cmds {
		c := &m.prog.cmds[i]
		if c.a1 != nil && c.a1.kind == addrLine && c.a1.n == 0 {
			m.ranges[i].state = rangeActive
		} else {
			m.ranges[i].state = rangeInactive
		}
	}
}

// useRegex returns re, or the last regex used when re is nil (the empty
// regex), and remembers it as the last one.
func (m *machine) useRegex(re *rx) *rx {
	if re == nil {
		if m.lastRe == nil {
			m.fatalf("%s: no previous regular expression", m.prog.endLoc)
			m.status = exitBadUsage
		}
		return m.lastRe
	}
	m.lastRe = re
	return re
}

// matchOne reports whether the current line matches a.
func (m *machine) matchOne(a *address, r *rangeInfo) bool {
	line := m.in.line
	switch a.kind {
	case addrNull:
		return true
	case addrRegex:
		re := m.useRegex(a.re)
		return re != nil && m.matchRx(re)
	case addrMod:
		return line >= a.n && (line-a.n)%a.step == 0
	case addrPlus, addrMult:
		return r.end <= line
	case addrLast:
		return m.atLastLine()
	case addrLine:
		return a.n == line
	}
	return false
}

// matchAddress reports whether command i applies to the current line,
// updating its range state. It follows GNU sed's match_address_p.
func (m *machine) matchAddress(i int, c *command) bool {
	if c.a1 == nil {
		return true
	}
	r := &m.ranges[i]
	line := m.in.line
	if r.state != rangeActive {
		if c.a2 == nil {
			return m.matchOne(c.a1, r)
		}
		// A line number as first address is absolute: the range starts at
		// the first line at or after it, even if that line was skipped.
		if c.a1.kind == addrLine {
			if r.state == rangeClosed || line < c.a1.n {
				return false
			}
		} else if !m.matchOne(c.a1, r) {
			return false
		}
		r.state = rangeActive
		switch c.a2.kind {
		case addrRegex:
			return true // the end regex is tried from the next line on
		case addrLine:
			if line >= c.a2.n {
				r.state = rangeClosed
			}
			return line <= c.a2.n || m.matchOne(c.a1, r)
		case addrPlus:
			r.end = satAdd(line, c.a2.n)
			return true
		case addrMult:
			r.end = satAdd(line, c.a2.n-line%c.a2.n)
			return true
		}
	}
	if c.a2.kind == addrLine {
		// Past the end (jumped over with b or n): the range is over.
		if line >= c.a2.n {
			r.state = rangeClosed
		}
		return line <= c.a2.n
	}
	if m.matchOne(c.a2, r) {
		r.state = rangeClosed
	}
	return true
}

func satAdd(a, b int64) int64 {
	if s := a + b; s >= a {
		return s
	}
	return 1<<63 - 1
}

// step counts work done without reading input (jumps, D restarts) so
// that endless loops such as ":a;ba" still notice cancellation. The work
// of a step is the pattern space it goes on with: ":a;s/x*/&&x/;ba"
// doubles it every step, so counting steps alone would check too late.
func (m *machine) step() bool {
	if err := m.meter.Add(len(m.ps) + 16); err != nil {
		m.err = err
		return false
	}
	return true
}

// matchRx, findRx and findAllRx run a regex over the pattern space where
// a long match (tens of megabytes) can be abandoned on cancellation; sed
// then stops (m.err) and never touches that pattern space again.
func (m *machine) matchRx(re *rx) bool {
	if len(m.ps) < guard.Abandonable {
		return re.match(m.ps) // inline: no closure to allocate per line
	}
	ok, err := guard.Interruptible(m.ctx, len(m.ps), func() bool { return re.match(m.ps) })
	m.abandoned(err)
	return ok
}

func (m *machine) findRx(re *rx) []int {
	if len(m.ps) < guard.Abandonable {
		return re.find(m.ps)
	}
	loc, err := guard.Interruptible(m.ctx, len(m.ps), func() []int { return re.find(m.ps) })
	m.abandoned(err)
	return loc
}

func (m *machine) findAllRx(re *rx, n int) [][]int {
	if len(m.ps) < guard.Abandonable {
		return re.findAll(m.ps, n)
	}
	locs, err := guard.Interruptible(m.ctx, len(m.ps), func() [][]int { return re.findAll(m.ps, n) })
	m.abandoned(err)
	return locs
}

func (m *machine) abandoned(err error) {
	if err != nil && m.err == nil {
		m.err = err
		// The abandoned match still reads these: never reuse them.
		m.ps, m.acc = nil, nil
	}
}

// tooLong stops sed when the pattern or hold space grew past the line
// bound: the one place every command that grows them passes.
func (m *machine) tooLong() bool {
	if len(m.ps) <= m.maxLine && len(m.hold) <= m.maxLine {
		return false
	}
	m.fatalf("%v", &guard.LineError{Max: m.maxLine})
	return true
}

// execute runs the program on the pattern space. It returns the exit
// status and true when sed must stop (q, Q, or an error).
func (m *machine) execute() (int, bool) {
	cmds := m.prog.cmds
	for pc := 0; pc < len(cmds); {
		c := &cmds[pc]
		if m.matchAddress(pc, c) == c.negate {
			if m.err != nil {
				return 0, true
			}
			pc++
			continue
		}
		switch c.op {
		case '{', 'b':
			pc = c.jump
			if !m.step() {
				return 0, true
			}
			continue
		case 't', 'T':
			if m.replaced == (c.op == 't') {
				m.replaced = false
				pc = c.jump
				if !m.step() {
					return 0, true
				}
				continue
			}
			m.replaced = false
		case '}', ':':
		case '=':
			m.lineNumber(m.in.line)
		case 'a':
			if c.text != nil {
				m.appendQ = append(m.appendQ, appendItem{text: c.text})
			}
		case 'i':
			if c.text != nil {
				m.line(m.out, c.text[:len(c.text)-1], true)
			}
		case 'c':
			if m.ranges[pc].state != rangeActive && c.text != nil {
				m.line(m.out, c.text[:len(c.text)-1], true)
			}
			return 0, m.err != nil
		case 'd':
			return 0, m.err != nil
		case 'D':
			i := bytes.IndexByte(m.ps, m.delim)
			if i < 0 {
				return 0, m.err != nil
			}
			m.ps = m.ps[:copy(m.ps, m.ps[i+1:])]
			pc = 0
			if !m.step() {
				return 0, true
			}
			continue
		case 'e':
			m.execCommand(c)
		case 'F':
			m.fixNewline(m.out)
			m.out.s.write([]byte(m.in.name))
			m.out.s.writeByte(m.delim)
		case 'g':
			m.ps = append(m.ps[:0], m.hold...)
			m.chomped = m.holdChomped
		case 'G':
			m.ps = append(append(m.ps, m.delim), m.hold...)
			m.chomped = m.holdChomped
		case 'h':
			m.hold = append(m.hold[:0], m.ps...)
			m.holdChomped = m.chomped
		case 'H':
			m.hold = append(append(m.hold, m.delim), m.ps...)
			m.holdChomped = m.chomped
		case 'x':
			m.ps, m.hold = m.hold, m.ps
			m.chomped, m.holdChomped = m.holdChomped, m.chomped
		case 'l':
			w := c.num
			if w < 0 {
				w = m.opt.LineWrap
			}
			m.list(w)
		case 'n':
			if !m.quiet {
				m.line(m.out, m.ps, m.chomped)
			}
			if m.atLastLine() || !m.readPatternSpace(false) {
				return 0, m.err != nil
			}
		case 'N':
			m.ps = append(m.ps, m.delim)
			if m.atLastLine() || !m.readPatternSpace(true) {
				m.ps = m.ps[:len(m.ps)-1]
				if m.opt.Posix == PosixExtended && !m.quiet {
					m.line(m.out, m.ps, m.chomped)
				}
				return 0, m.err != nil
			}
		case 'p':
			m.line(m.out, m.ps, m.chomped)
		case 'P':
			if i := bytes.IndexByte(m.ps, m.delim); i >= 0 {
				m.line(m.out, m.ps[:i], true)
			} else {
				m.line(m.out, m.ps, m.chomped)
			}
		case 'q':
			if !m.quiet {
				m.line(m.out, m.ps, m.chomped)
			}
			m.dumpAppend()
			return max(c.num, 0) & 0xff, true
		case 'Q':
			return max(c.num, 0) & 0xff, true
		case 'r':
			m.appendQ = append(m.appendQ, appendItem{fname: c.fname})
		case 'R':
			m.readOneLine(m.inputs[c.file])
		case 's':
			m.subst(c.sub)
		case 'w':
			m.line(m.outs[c.file], m.ps, m.chomped)
		case 'W':
			if i := bytes.IndexByte(m.ps, m.delim); i >= 0 {
				m.line(m.outs[c.file], m.ps[:i], true)
			} else {
				m.line(m.outs[c.file], m.ps, m.chomped)
			}
		case 'y':
			m.translate(c)
		case 'z':
			m.ps = m.ps[:0]
		}
		if m.err != nil || m.tooLong() {
			return 0, true
		}
		pc++
	}
	if !m.quiet {
		m.line(m.out, m.ps, m.chomped)
	}
	return 0, m.err != nil
}

// readOneLine queues the next line of an R file.
func (m *machine) readOneLine(f *readFile) {
	if f.err != nil {
		m.fatalf("read error on %s: %s", f.name, m.io.errText(f.err))
		return
	}
	if f.r == nil {
		return
	}
	text, err := f.r.ReadBytes(m.delim)
	if err != nil && err != io.EOF {
		m.fatalf("read error on %s: %s", f.name, m.io.errText(err))
		return
	}
	if len(text) > 0 {
		m.appendQ = append(m.appendQ, appendItem{text: text})
	}
}

// translate runs a y command on the pattern space.
func (m *machine) translate(c *command) {
	if c.ytab != nil {
		for i, b := range m.ps {
			m.ps[i] = c.ytab[b]
		}
		return
	}
	out := m.acc[:0]
	for i := 0; i < len(m.ps); {
		r, n := utf8.DecodeRune(m.ps[i:])
		if to, ok := c.ymap[r]; ok && (r != utf8.RuneError || n > 1) {
			out = utf8.AppendRune(out, to)
		} else {
			out = append(out, m.ps[i:i+n]...)
		}
		i += n
	}
	m.acc, m.ps = m.ps, out
}

// execCommand runs an e command: with text, its output is written out;
// without, the pattern space is run and replaced by its output.
func (m *machine) execCommand(c *command) {
	if c.text != nil {
		m.fixNewline(m.out)
		cmdline := string(c.text[:len(c.text)-1])
		m.io.Exec(m.ctx, cmdline, sinkWriter{m.out.s})
		if m.opt.Unbuffered {
			m.out.s.flush()
		}
		return
	}
	m.ps = m.runPatternSpace()
}

// runPatternSpace runs the pattern space as a command line and returns
// its output without one trailing delimiter.
func (m *machine) runPatternSpace() []byte {
	var buf bytes.Buffer
	m.io.Exec(m.ctx, string(m.ps), &buf)
	out := buf.Bytes()
	if n := len(out); n > 0 && out[n-1] == m.delim {
		out = out[:n-1]
	}
	return append(m.ps[:0], out...)
}

// sinkWriter lets a command run by e write into sed's own output buffer,
// keeping the order of output.
type sinkWriter struct{ s *sink }

func (w sinkWriter) Write(p []byte) (int, error) {
	w.s.write(p)
	if w.s.err != nil {
		return 0, w.s.err
	}
	return len(p), nil
}

// subst runs an s command.
func (m *machine) subst(s *subst) {
	re := m.useRegex(s.re)
	if re == nil {
		return
	}
	var matches [][]int
	if !s.global && s.numb <= 1 {
		loc := m.findRx(re)
		if loc == nil {
			return
		}
		m.oneMatch[0] = loc
		matches = m.oneMatch[:]
	} else {
		n := -1
		if !s.global {
			n = s.numb
		}
		matches = m.findAllRx(re, n)
		if len(matches) < max(s.numb, 1) {
			return
		}
		if s.numb > 1 {
			// Matches before the numb-th are kept as they are.
			matches = matches[s.numb-1:]
		}
	}
	out := m.acc[:0]
	start := 0
	for _, loc := range matches {
		out = append(out, m.ps[start:loc[0]]...)
		out = m.appendReplacement(out, s.repl, loc)
		start = loc[1]
		if len(out) > m.maxLine {
			// s/x/&&&&&&&&/g multiplies the line: stop before the
			// whole result exists.
			m.acc = out[:0]
			m.fatalf("%v", &guard.LineError{Max: m.maxLine})
			return
		}
	}
	out = append(out, m.ps[start:]...)
	m.acc, m.ps = m.ps, out
	m.replaced = true

	if s.print&1 != 0 {
		m.line(m.out, m.ps, m.chomped)
	}
	if s.eval {
		m.ps = m.runPatternSpace()
	}
	if s.print&2 != 0 {
		m.line(m.out, m.ps, m.chomped)
	}
	if s.out >= 0 {
		m.line(m.outs[s.out], m.ps, m.chomped)
	}
}

// appendReplacement appends the replacement for the match loc, following
// GNU's append_replacement: a \l or \u before an empty group applies to
// the next part.
func (m *machine) appendReplacement(dst []byte, parts []replPart, loc []int) []byte {
	var pendingMod replType
	for _, p := range parts {
		cur := p.typ
		if cur&replModifiers == 0 {
			cur |= pendingMod
		}
		pendingMod = 0
		if len(p.lit) > 0 {
			dst = m.appendCase(dst, p.lit, cur)
			cur &^= replModifiers
		}
		if p.group < 0 || 2*p.group+1 >= len(loc) {
			continue
		}
		s, e := loc[2*p.group], loc[2*p.group+1]
		switch {
		case s == e && p.typ&replModifiers != 0:
			pendingMod = cur & replModifiers
		case s != e:
			dst = m.appendCase(dst, m.ps[s:e], cur)
		}
	}
	return dst
}

// appendCase appends text converted as typ says.
func (m *machine) appendCase(dst, text []byte, typ replType) []byte {
	if typ == replAsIs {
		return append(dst, text...)
	}
	for i := 0; i < len(text); {
		var r rune
		n := 1
		if c := text[i]; c >= utf8.RuneSelf && !m.opt.UTF8 {
			// Not a letter in the C locale.
			dst = append(dst, c)
			i++
			if typ&replModifiers != 0 {
				typ &^= replModifiers
				if typ == replAsIs {
					return append(dst, text[i:]...)
				}
			}
			continue
		} else if c < utf8.RuneSelf {
			r = rune(c)
		} else {
			r, n = utf8.DecodeRune(text[i:])
			if r == utf8.RuneError && n <= 1 {
				// An invalid byte is copied; it ends a \u or \l.
				typ &^= replModifiers
				dst = append(dst, text[i])
				i++
				if typ == replAsIs {
					return append(dst, text[i:]...)
				}
				continue
			}
		}
		switch {
		case typ&replUpperFirst != 0:
			r = toUpper(r)
		case typ&replLowerFirst != 0:
			r = toLower(r)
		case typ&replUpper != 0:
			r = toUpper(r)
		default:
			r = toLower(r)
		}
		if r < utf8.RuneSelf {
			dst = append(dst, byte(r))
		} else {
			dst = utf8.AppendRune(dst, r)
		}
		i += n
		if typ&replModifiers != 0 {
			typ &^= replModifiers
			if typ == replAsIs {
				return append(dst, text[i:]...)
			}
		}
	}
	return dst
}

func toUpper(r rune) rune {
	if r < utf8.RuneSelf {
		return rune(toUpperASCII(byte(r)))
	}
	return unicode.ToUpper(r)
}

func toLower(r rune) rune {
	if r < utf8.RuneSelf {
		return rune(toLowerASCII(byte(r)))
	}
	return unicode.ToLower(r)
}
