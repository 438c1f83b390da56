package sed

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"syscall"

	"github.com/sandsh/sandsh/builtins/internal/guard"
)

// ErrNotRegular is what IO.Edit returns for a file that cannot be edited
// in place because it is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// input is the stream of input lines over all the input files.
type input struct {
	names []string
	next  int    // index in names of the next file to open
	name  string // current file, as given ("-" for stdin)
	r     *bufio.Reader
	rc    io.Closer // nil for stdin
	line  int64
	bad   int // files that could not be read
	// resetAtNext is true when the next file starts afresh: line numbers,
	// hold space and ranges (always before the first file; before every
	// file with -s and -i).
	resetAtNext bool
	edit        InPlaceFile
	editSink    *sink
}

// oneByteReader makes bufio read no further than the delimiter, so that
// -u leaves the rest of the input to whoever reads it next.
type oneByteReader struct{ r io.Reader }

func (o oneByteReader) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1]
	}
	return o.r.Read(p)
}

func isDirError(err error) bool { return errors.Is(err, syscall.EISDIR) }

// openNext opens the next input file. A file that cannot be read is
// reported and skipped.
func (m *machine) openNext() {
	in := &m.in
	name := in.names[in.next]
	in.next++
	in.name = name
	var r io.Reader
	if (name == "-" || name == "/dev/stdin") && !m.opt.InPlace {
		r = m.io.Stdin
		if r == nil {
			r = strings.NewReader("")
		}
	} else {
		f, err := m.io.Open(name)
		if err != nil {
			switch {
			case isDirError(err) && m.opt.InPlace:
				m.fatalf("couldn't edit %s: not a regular file", name)
			case isDirError(err):
				m.fatalf("read error on %s: %s", name, m.io.errText(err))
			default:
				m.io.warnf("can't read %s: %s", name, m.io.errText(err))
			}
			in.bad++
			return
		}
		r, in.rc = f, f
	}
	if m.opt.Unbuffered {
		r = oneByteReader{r}
	}
	if in.r == nil {
		in.r = bufio.NewReaderSize(r, bufSize)
	} else {
		in.r.Reset(r)
	}
	if m.opt.InPlace {
		m.startEdit(name)
	}
	m.hasInput = true
}

// startEdit sends the output for the file being read to a new version of
// it.
func (m *machine) startEdit(name string) {
	f, err := m.io.Edit(name)
	if err != nil {
		if errors.Is(err, ErrNotRegular) {
			m.fatalf("couldn't edit %s: not a regular file", name)
		} else {
			m.fatalf("couldn't open temporary file %s: %s", name, m.io.errText(err))
		}
		m.closeInput()
		return
	}
	m.in.edit = f
	m.in.editSink = newSink(f, nil, name)
	m.out = &output{s: m.in.editSink}
}

// closeInput closes the current input file, and with -i puts the edited
// version in its place.
func (m *machine) closeInput() {
	in := &m.in
	if !m.hasInput {
		return
	}
	m.hasInput = false
	if in.rc != nil {
		in.rc.Close()
		in.rc = nil
	} else if sk, ok := m.io.Stdin.(io.Seeker); ok && in.r.Buffered() > 0 {
		// Like stdio's fclose, give back what was read ahead of the last
		// line used, so that "(sed 1q; cat) < file" goes on after it.
		sk.Seek(-int64(in.r.Buffered()), io.SeekCurrent)
	}
	if in.edit == nil {
		return
	}
	f, s := in.edit, in.editSink
	in.edit, in.editSink = nil, nil
	m.out = m.stdout
	if m.err != nil {
		// Like GNU sed, a failed run leaves the file as it was.
		f.Abort()
		return
	}
	s.flush()
	if s.err != nil {
		f.Abort()
		m.fatalf("couldn't write to %s: %s", in.name, m.io.errText(s.err))
		return
	}
	if err := f.Commit(m.backupName(in.name)); err != nil {
		m.fatalf("cannot rename %s: %s", in.name, m.io.errText(err))
	}
}

// backupName is the -i backup of name: each '*' in the suffix stands for
// the name; a suffix without '*' is appended.
func (m *machine) backupName(name string) string {
	suf := m.opt.InPlaceSuffix
	if suf == "" || suf == "*" {
		return ""
	}
	if !strings.Contains(suf, "*") {
		return name + suf
	}
	return strings.ReplaceAll(suf, "*", name)
}

// readLine appends the next line of the current file to the pattern
// space. It returns false at the end of the file.
func (m *machine) readLine() bool {
	in := &m.in
	if !m.hasInput {
		return false
	}
	start := len(m.ps)
	for {
		if in.r.Buffered() == 0 {
			// About to block: let what was written so far go out.
			m.stdout.s.flush()
		}
		chunk, err := in.r.ReadSlice(m.delim)
		m.ps = append(m.ps, chunk...)
		if len(m.ps)-1 > m.maxLine {
			m.fatalf("%v", &guard.LineError{Max: m.maxLine})
			return false
		}
		if err == bufio.ErrBufferFull {
			if cerr := m.meter.Add(len(chunk)); cerr != nil {
				m.err = cerr
				return false
			}
		}
		switch err {
		case nil:
			m.ps = m.ps[:len(m.ps)-1]
			return true
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			if len(m.ps) == start {
				return false
			}
			m.chomped = false
			return true
		default:
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				m.err = err // cancelled: the run says why
				return false
			}
			m.fatalf("read error on %s: %s", in.name, m.io.errText(err))
			return false
		}
	}
}

// readPatternSpace starts a new line: it writes the queued output, then
// reads the next line into the pattern space (after it, with a newline,
// when appending for N). It returns false when the input is exhausted.
func (m *machine) readPatternSpace(appending bool) bool {
	if len(m.appendQ) > 0 {
		m.dumpAppend()
		if m.err != nil {
			return false
		}
	}
	m.replaced = false
	if !appending {
		m.ps = m.ps[:0]
	}
	m.chomped = true
	in := &m.in
	for !m.readLine() {
		m.closeInput()
		if m.err != nil || in.next >= len(in.names) {
			return false
		}
		if in.resetAtNext {
			in.line = 0
			m.hold = m.hold[:0]
			m.resetRanges()
			m.rewindReadFiles()
			if m.opt.InPlace {
				m.out.missingNL = false
			}
			in.resetAtNext = m.opt.Separate
		}
		m.openNext()
		if m.err != nil {
			return false
		}
	}
	in.line++
	return true
}

// atLastLine reports whether the current line is the last one ($): the
// last of its file with -s and -i, else the last of the last file that
// has data.
func (m *machine) atLastLine() bool {
	in := &m.in
	if m.hasInput && m.peek() {
		return false
	}
	if m.opt.Separate {
		return true
	}
	for {
		m.closeInput()
		if in.next >= len(in.names) || m.err != nil {
			return true
		}
		m.openNext()
		if m.hasInput && m.peek() {
			return false
		}
	}
}

// peek reports whether the current file has more data.
func (m *machine) peek() bool {
	r := m.in.r
	if r.Buffered() > 0 {
		return true
	}
	m.stdout.s.flush()
	_, err := r.Peek(1)
	return err == nil
}
