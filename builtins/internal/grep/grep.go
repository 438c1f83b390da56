// Package grep is the search engine behind sandsh's grep: it reads one
// input in large chunks, finds the selected lines with the regex package's
// FindLine (which skips non-matching text without looking at each line),
// and writes them in GNU grep's output format, with context, counts, file
// lists, byte offsets and binary-file handling.
package grep

import (
	"bytes"
	"context"
	"errors"
	"github.com/sandsh/sandsh/builtins/internal/guard"
	"io"
	"strconv"

	"github.com/sandsh/sandsh/builtins/internal/regex"
)

// Mode says what is printed for an input.
type Mode int

const (
	ModeLines        Mode = iota // the selected lines (or -o matches)
	ModeCount                    // -c
	ModeFilesWith                // -l
	ModeFilesWithout             // -L
	ModeQuiet                    // -q
)

// Binary says how files holding NUL bytes are treated.
type Binary int

const (
	BinaryDetect  Binary = iota // "binary file matches" instead of lines
	BinaryText                  // -a
	BinaryWithout               // -I: such files never match
)

// Options are grep's output options.
type Options struct {
	Mode          Mode
	Invert        bool // -v
	OnlyMatching  bool // -o
	LineNumber    bool // -n
	ByteOffset    bool // -b
	WithFilename  bool // -H (or several files)
	NullAfterName bool // -Z
	NullData      bool // -z: records end with NUL
	Before, After int  // -B, -A
	Context       bool // context was asked for (even -C0): print separators
	InitialTab    bool // -T: a tab between the prefix and the line
	// NumberWidth pads line numbers and offsets (GNU does with -T: the
	// digits of the file's size, 19 for a stream).
	NumberWidth int
	MaxCount    int64
	// MaxLine bounds one line, MaxKeep the before-context held for
	// -B (0: no bound).
	MaxLine, MaxKeep int
	Binary           Binary
	// GroupSeparator is printed between context groups; nil for none.
	GroupSeparator []byte
}

// Searcher searches inputs with one expression and writes to Out. It keeps
// state across inputs (whether a group separator is due), so use one per
// grep run.
type Searcher struct {
	Re  *regex.Regexp
	Opt Options
	Out io.Writer
	// BinaryMatches is called instead of printing lines when a binary
	// file has a selected line ("grep: x: binary file matches").
	BinaryMatches func(name string)

	printed bool // something was printed: a separator may be due
	scratch []byte
}

// Result is what one input gave.
type Result struct {
	Selected int64 // selected lines (up to MaxCount)
	Quit     bool  // -q found a line: stop searching everything
}

// WriteError wraps errors from Out, so callers can tell them from read
// errors.
type WriteError struct{ Err error }

func (e *WriteError) Error() string { return e.Err.Error() }
func (e *WriteError) Unwrap() error { return e.Err }

const initialBuf = 128 << 10

// search is the state of one input.
type search struct {
	*Searcher
	ctx  context.Context
	r    io.Reader
	name string
	sep  byte

	buf    []byte
	bufOff int64 // input offset of buf[0]
	eof    bool
	binary bool

	lineno  int64 // lines before lnPos
	lnPos   int   // (only kept with -n)
	lastOut int   // end of the last line printed (after its sep); -1: a gap
	after   int   // context lines still to print after a selected line
	stop    bool  // MaxCount reached: only trailing context remains
	res     Result
	// stopAt is the input offset just after the line that reached
	// MaxCount (-1: not reached), where GNU leaves a regular file.
	stopAt int64
}

// Search runs the search on r, named name in the output.
func (s *Searcher) Search(ctx context.Context, r io.Reader, name string) (Result, error) {
	if s.Opt.MaxCount == 0 {
		return Result{}, nil
	}
	st := &search{Searcher: s, ctx: ctx, r: r, name: name, sep: '\n', lastOut: -1, stopAt: -1}
	if s.Opt.NullData {
		st.sep = 0
	}
	err := st.run()
	if err == nil && st.stopAt >= 0 {
		// GNU grep -m leaves standard input just after the last
		// selected line, trailing context or not, when it can seek.
		guard.Unread(r, st.bufOff+int64(len(st.buf))-st.stopAt)
	}
	if err == nil && st.Opt.Mode == ModeCount {
		err = st.printCount()
	}
	if err == nil && st.Opt.Mode == ModeFilesWithout && st.res.Selected == 0 {
		err = st.printName()
	}
	if st.binary && s.Opt.Binary == BinaryWithout {
		return Result{}, err
	}
	return st.res, err
}

// errDone stops reading an input early (-l, -q, -m, binary match).
var errDone = errors.New("done")

func (st *search) run() error {
	st.buf = make([]byte, 0, initialBuf)
	start := 0 // where unprocessed data begins; buf[start:] holds no sep
	for {
		if err := st.ctx.Err(); err != nil {
			return err
		}
		n, err := st.fill()
		if err != nil {
			return err
		}
		if st.binary && st.Opt.Binary == BinaryWithout {
			return nil
		}
		end := len(st.buf)
		if !st.eof {
			fresh := len(st.buf) - n
			last := bytes.LastIndexByte(st.buf[fresh:], st.sep)
			if last < 0 {
				if o := st.Opt; o.MaxLine > 0 && len(st.buf)-start > o.MaxLine {
					return &guard.LineError{Max: o.MaxLine}
				}
				continue
			}
			end = fresh + last + 1
		}
		if end > start {
			err := st.process(start, end)
			if errors.Is(err, errDone) {
				return nil
			}
			if err != nil {
				return err
			}
		}
		if st.eof {
			return nil
		}
		start = st.shift(end)
		// buf[start:] is one line still without its end, buf[:start]
		// the before-context kept for it: both are bounded.
		if o := st.Opt; o.MaxLine > 0 && len(st.buf)-start > o.MaxLine {
			return &guard.LineError{Max: o.MaxLine}
		}
		if o := st.Opt; o.MaxKeep > 0 && start > o.MaxKeep {
			return &guard.InputError{Max: o.MaxKeep}
		}
	}
}

// fill reads more input after buf's data, returning how much it read.
func (st *search) fill() (int, error) {
	if len(st.buf) == cap(st.buf) {
		st.grow()
	}
	n, err := st.r.Read(st.buf[len(st.buf):cap(st.buf)])
	if n > 0 {
		chunk := st.buf[len(st.buf) : len(st.buf)+n]
		if !st.binary && st.Opt.Binary != BinaryText && !st.Opt.NullData && bytes.IndexByte(chunk, 0) >= 0 {
			st.binary = true
		}
		st.buf = st.buf[:len(st.buf)+n]
	}
	if err == io.EOF {
		st.eof = true
		return n, nil
	}
	return n, err
}

func (st *search) grow() {
	nb := make([]byte, len(st.buf), 2*cap(st.buf))
	copy(nb, st.buf)
	st.buf = nb
}

// shift drops the processed data before end, keeping what before-context
// may still need, and returns where unprocessed data now starts.
func (st *search) shift(end int) int {
	keep := end
	if st.Opt.Before > 0 && !st.stop {
		keep = st.contextStart(end, st.Opt.Before)
	}
	if st.Opt.LineNumber {
		if st.lnPos < keep {
			st.lineno += int64(bytes.Count(st.buf[st.lnPos:keep], []byte{st.sep}))
			st.lnPos = 0
		} else {
			st.lnPos -= keep
		}
	}
	if st.lastOut >= keep {
		st.lastOut -= keep
	} else {
		st.lastOut = -1
	}
	n := copy(st.buf, st.buf[keep:])
	st.buf = st.buf[:n]
	st.bufOff += int64(keep)
	return end - keep
}

// contextStart returns the start of the earliest of the (up to) n lines
// before pos that have not been printed.
func (st *search) contextStart(pos, n int) int {
	lim := max(st.lastOut, 0)
	for ; n > 0 && pos > lim; n-- {
		pos = bytes.LastIndexByte(st.buf[lim:pos-1], st.sep) + 1 + lim
	}
	return pos
}

// process handles the complete lines in buf[start:end].
func (st *search) process(start, end int) error {
	if o := &st.Opt; o.Mode == ModeCount && !o.Invert && o.MaxCount < 0 && !st.stop {
		// -c: only the number of matching lines matters.
		st.res.Selected += int64(st.Re.CountLines(st.buf[start:end], st.sep))
		return st.Re.Err()
	}
	p := start
	for p < end {
		if st.stop {
			return st.trailingContext(p, end)
		}
		s, e, ok := st.Re.FindLine(st.buf[p:end], st.sep)
		if !ok {
			s, e = end-p, end-p
		}
		s, e = s+p, e+p
		if err := st.Re.Err(); err != nil {
			return err
		}
		if st.Opt.Invert {
			if err := st.selectRun(p, s); err != nil {
				return err
			}
			if ok {
				if err := st.unselected(s, e); err != nil {
					return err
				}
			}
		} else {
			if err := st.unselectedRun(p, s); err != nil {
				return err
			}
			if ok {
				if err := st.selected(s, e); err != nil {
					return err
				}
			}
		}
		p = min(e+1, end)
	}
	return nil
}

// lineEnd returns the end of the line starting at p (the sep or end).
func (st *search) lineEnd(p, end int) int {
	i := bytes.IndexByte(st.buf[p:end], st.sep)
	if i < 0 {
		return end
	}
	return p + i
}

// selectRun handles every line of buf[p:s] as selected (-v).
func (st *search) selectRun(p, s int) error {
	if p >= s {
		return nil
	}
	if st.Opt.Mode == ModeCount && st.Opt.MaxCount < 0 {
		n := bytes.Count(st.buf[p:s], []byte{st.sep})
		if st.buf[s-1] != st.sep {
			n++
		}
		st.res.Selected += int64(n)
		return nil
	}
	if st.plainRun() && st.Opt.MaxCount < 0 && st.buf[s-1] == st.sep {
		// Nothing to add to each line: copy the run at once.
		st.separator(p)
		st.res.Selected += int64(bytes.Count(st.buf[p:s], []byte{st.sep}))
		st.lastOut = s
		st.after = st.Opt.After
		return st.write(st.buf[p:s])
	}
	for p < s {
		e := st.lineEnd(p, s)
		if err := st.selected(p, e); err != nil {
			return err
		}
		if st.stop {
			return st.trailingContext(min(e+1, s), s)
		}
		p = e + 1
	}
	return nil
}

// plainRun reports whether selected lines are printed exactly as read.
func (st *search) plainRun() bool {
	o := &st.Opt
	return o.Mode == ModeLines && !o.OnlyMatching && !o.LineNumber && !o.ByteOffset &&
		!o.WithFilename && !st.binary && o.Before == 0 && !o.Context
}

// unselectedRun handles the lines of buf[p:s], none selected: only
// after-context may print some.
func (st *search) unselectedRun(p, s int) error {
	for st.after > 0 && p < s {
		e := st.lineEnd(p, s)
		if err := st.unselected(p, e); err != nil {
			return err
		}
		p = e + 1
	}
	return nil
}

// unselected handles one line that is not selected: after-context.
func (st *search) unselected(s, e int) error {
	if st.after <= 0 || st.Opt.Mode != ModeLines || st.binary {
		return nil
	}
	st.after--
	return st.contextLine(s, e)
}

// contextLine prints a context line; with -o it is only accounted for, so
// that group separators come where GNU puts them.
func (st *search) contextLine(s, e int) error {
	if st.Opt.OnlyMatching {
		st.separator(s)
		st.lastOut = min(e+1, len(st.buf))
		return nil
	}
	return st.printLine(s, e, '-')
}

// trailingContext prints the after-context that remains once MaxCount is
// reached (GNU prints the following lines whether they match or not), and
// ends the input when there is none left.
func (st *search) trailingContext(p, end int) error {
	for st.after > 0 && p < end {
		e := st.lineEnd(p, end)
		if err := st.unselected(p, e); err != nil {
			return err
		}
		p = e + 1
	}
	if st.after <= 0 {
		return errDone
	}
	return nil
}

// selected handles one selected line buf[s:e].
func (st *search) selected(s, e int) error {
	st.res.Selected++
	switch st.Opt.Mode {
	case ModeQuiet:
		st.res.Quit = true
		return errDone
	case ModeFilesWith:
		if err := st.printName(); err != nil {
			return err
		}
		return errDone
	case ModeFilesWithout:
		return errDone
	case ModeCount:
		if st.res.Selected == st.Opt.MaxCount {
			st.stopAt = st.bufOff + int64(min(e+1, len(st.buf)))
			return errDone
		}
		return nil
	}
	if st.binary {
		st.BinaryMatches(st.name)
		return errDone
	}
	if err := st.beforeContext(s); err != nil {
		return err
	}
	var err error
	if st.Opt.OnlyMatching {
		err = st.printMatches(s, e)
	} else {
		err = st.printLine(s, e, ':')
	}
	if err != nil {
		return err
	}
	st.after = st.Opt.After
	if st.res.Selected == st.Opt.MaxCount {
		st.stop = true
		st.stopAt = st.bufOff + int64(min(e+1, len(st.buf)))
		if st.after == 0 {
			return errDone
		}
	}
	return nil
}

func (st *search) beforeContext(s int) error {
	if st.Opt.Before == 0 {
		return nil
	}
	for p := st.contextStart(s, st.Opt.Before); p < s; {
		e := st.lineEnd(p, s)
		if err := st.contextLine(p, e); err != nil {
			return err
		}
		p = e + 1
	}
	return nil
}

// separator prints the group separator when the line at s does not follow
// the last one printed.
func (st *search) separator(s int) {
	if st.Opt.Context && st.printed && st.lastOut != s && st.Opt.GroupSeparator != nil {
		st.scratch = append(append(st.scratch[:0], st.Opt.GroupSeparator...), '\n')
		st.write(st.scratch)
	}
	st.printed = true
}

// lineNumber returns the number of the line starting at s.
func (st *search) lineNumber(s int) int64 {
	if s < st.lnPos {
		return st.lineno + 1 - int64(bytes.Count(st.buf[s:st.lnPos], []byte{st.sep}))
	}
	st.lineno += int64(bytes.Count(st.buf[st.lnPos:s], []byte{st.sep}))
	st.lnPos = s
	return st.lineno + 1
}

// prefix appends the file name, line number and offset fields.
func (st *search) prefix(b []byte, lineStart, off int, sep byte) []byte {
	if st.Opt.WithFilename {
		b = append(b, st.name...)
		if st.Opt.NullAfterName {
			b = append(b, 0)
		} else {
			b = append(b, sep)
		}
	}
	if st.Opt.LineNumber {
		b = st.appendNumber(b, st.lineNumber(lineStart))
		b = append(b, sep)
	}
	if st.Opt.ByteOffset {
		b = st.appendNumber(b, st.bufOff+int64(off))
		b = append(b, sep)
	}
	if st.Opt.InitialTab && len(b) > 0 {
		b = append(b, '\t')
	}
	return b
}

func (st *search) appendNumber(b []byte, n int64) []byte {
	start := len(b)
	b = strconv.AppendInt(b, n, 10)
	if pad := st.Opt.NumberWidth - (len(b) - start); pad > 0 {
		b = append(b, make([]byte, pad)...)
		copy(b[start+pad:], b[start:len(b)-pad])
		for i := start; i < start+pad; i++ {
			b[i] = ' '
		}
	}
	return b
}

func (st *search) printLine(s, e int, sep byte) error {
	st.separator(s)
	st.lastOut = min(e+1, len(st.buf))
	b := st.prefix(st.scratch[:0], s, s, sep)
	if len(b) == 0 && e < len(st.buf) {
		st.scratch = b
		return st.write(st.buf[s : e+1])
	}
	b = append(b, st.buf[s:e]...)
	b = append(b, st.sep)
	st.scratch = b
	return st.write(b)
}

func (st *search) printMatches(s, e int) error {
	line := st.buf[s:e]
	for _, m := range st.Re.FindAllIndex(line, -1) {
		if m[1] == m[0] {
			continue
		}
		st.separator(s)
		st.lastOut = min(e+1, len(st.buf))
		b := st.prefix(st.scratch[:0], s, s+m[0], ':')
		b = append(b, line[m[0]:m[1]]...)
		b = append(b, st.sep)
		st.scratch = b
		if err := st.write(b); err != nil {
			return err
		}
	}
	return nil
}

func (st *search) printCount() error {
	b := st.scratch[:0]
	if st.Opt.WithFilename {
		b = append(b, st.name...)
		if st.Opt.NullAfterName {
			b = append(b, 0)
		} else {
			b = append(b, ':')
		}
	}
	b = strconv.AppendInt(b, st.res.Selected, 10)
	b = append(b, '\n')
	st.scratch = b
	return st.write(b)
}

func (st *search) printName() error {
	b := append(st.scratch[:0], st.name...)
	if st.Opt.NullAfterName {
		b = append(b, 0)
	} else {
		b = append(b, '\n')
	}
	st.scratch = b
	return st.write(b)
}

func (st *search) write(b []byte) error {
	if _, err := st.Out.Write(b); err != nil {
		return &WriteError{err}
	}
	return nil
}
