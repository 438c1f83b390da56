package sed

import (
	"bufio"
	"io"
	"strconv"
)

const bufSize = 64 << 10

// sink is one destination of output: stdout, stderr, a w file or an
// in-place temporary file. Several outputs may share a sink (w /dev/stdout
// writes to stdout), each with its own missing-newline state.
type sink struct {
	w    *bufio.Writer
	c    io.Closer // nil for stdout and stderr
	name string
	err  error // first write error
}

func newSink(w io.Writer, c io.Closer, name string) *sink {
	return &sink{w: bufio.NewWriterSize(w, bufSize), c: c, name: name}
}

func (s *sink) write(b []byte) {
	if _, err := s.w.Write(b); err != nil && s.err == nil {
		s.err = err
	}
}

func (s *sink) writeByte(c byte) {
	if err := s.w.WriteByte(c); err != nil && s.err == nil {
		s.err = err
	}
}

func (s *sink) flush() {
	if err := s.w.Flush(); err != nil && s.err == nil {
		s.err = err
	}
}

// output is where one kind of output goes. Like GNU sed, when a line
// without its final newline (the last line of input) was written, the
// newline is added only if something else is written after it.
type output struct {
	s         *sink
	missingNL bool
}

// line writes text followed by the line delimiter, or without it when nl
// is false.
func (m *machine) line(o *output, text []byte, nl bool) {
	m.fixNewline(o)
	o.s.write(text)
	if nl {
		o.s.writeByte(m.delim)
	} else {
		o.missingNL = true
	}
	if m.opt.Unbuffered {
		o.s.flush()
	}
}

func (m *machine) fixNewline(o *output) {
	if o.missingNL {
		o.s.writeByte(m.delim)
		o.missingNL = false
	}
}

// appendItem is text queued by a, r or R for the end of the cycle.
type appendItem struct {
	text  []byte
	fname string // r: a file to copy instead of text
}

// dumpAppend writes the queued a, r and R output.
func (m *machine) dumpAppend() {
	o := m.out
	m.fixNewline(o)
	for _, a := range m.appendQ {
		if a.fname == "" {
			o.s.write(a.text)
			continue
		}
		m.copyFile(o.s, a.fname)
	}
	if m.opt.Unbuffered {
		o.s.flush()
	}
	clear(m.appendQ)
	m.appendQ = m.appendQ[:0]
}

// copyFile copies the file of an r command. A file that cannot be read is
// treated as empty, as POSIX requires; a directory is a fatal read error,
// as in GNU sed.
func (m *machine) copyFile(s *sink, name string) {
	if name == "/dev/stdin" {
		if m.io.Stdin != nil {
			m.copyFrom(s, name, m.io.Stdin)
		}
		return
	}
	f, err := m.io.Open(name)
	if err != nil {
		if isDirError(err) {
			m.fatalf("read error on %s: %s", name, m.io.errText(err))
		}
		return
	}
	defer f.Close()
	m.copyFrom(s, name, f)
}

func (m *machine) copyFrom(s *sink, name string, r io.Reader) {
	if m.copyBuf == nil {
		m.copyBuf = make([]byte, 32<<10)
	}
	for s.err == nil {
		n, err := r.Read(m.copyBuf)
		s.write(m.copyBuf[:n])
		if err == io.EOF {
			return
		}
		if err != nil {
			m.fatalf("read error on %s: %s", name, m.io.errText(err))
			return
		}
	}
}

// list writes the pattern space unambiguously, as the l command does,
// wrapping lines at width (0: never). Like GNU sed 4.9 it works on bytes
// in every locale: a multibyte character comes out as octal escapes.
func (m *machine) list(width int) {
	o := m.out
	m.fixNewline(o)
	var obuf [4]byte
	col := 0
	for _, c := range m.ps {
		var esc []byte
		switch {
		case c == '\\':
			esc = append(obuf[:0], '\\', '\\')
		case c >= 0x20 && c < 0x7f:
			esc = append(obuf[:0], c)
		default:
			esc = appendListEscape(obuf[:0], c)
		}
		if width > 0 && width-len(esc) <= col {
			o.s.write([]byte{'\\'})
			o.s.writeByte(m.delim)
			col = 0
		}
		o.s.write(esc)
		col += len(esc)
	}
	o.s.writeByte('$')
	o.s.writeByte(m.delim)
	if m.opt.Unbuffered {
		o.s.flush()
	}
}

func appendListEscape(b []byte, c byte) []byte {
	switch c {
	case '\a':
		return append(b, '\\', 'a')
	case '\b':
		return append(b, '\\', 'b')
	case '\f':
		return append(b, '\\', 'f')
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	case '\v':
		return append(b, '\\', 'v')
	}
	return appendOctal(b, c)
}

func appendOctal(b []byte, c byte) []byte {
	return append(b, '\\', '0'+c>>6, '0'+(c>>3)&7, '0'+c&7)
}

// lineNumber writes n and the delimiter, for the = command.
func (m *machine) lineNumber(n int64) {
	o := m.out
	m.fixNewline(o)
	o.s.write(strconv.AppendInt(m.scratch[:0], n, 10))
	o.s.writeByte(m.delim)
	if m.opt.Unbuffered {
		o.s.flush()
	}
}
