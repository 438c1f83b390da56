package jq

import (
	"bufio"
	"context"
	"fmt"
	"github.com/sandsh/sandsh/builtins/internal/guard"
	"io"
)

// inputIter yields the input values of all files in turn. The main loop
// and the input/inputs builtins share it, as in jq.
type inputIter struct {
	r      *runner
	files  []string
	next   int // index of the next file to open
	cur    io.ReadCloser
	br     *bufio.Reader
	dec    *decoder
	name   string // current file name, "" for stdin
	failed bool   // a file could not be opened: exit status 2
	done   bool
	lines  int // raw mode line count
	budget *budgetReader
}

// budgetReader checks the run's context on every read and counts the
// bytes read since the last reset: one input value (or, with -s, the
// whole input) may not pass max, so an endless value (/dev/zero, a string
// that never closes) ends with a clear error instead of filling memory.
type budgetReader struct {
	ctx    context.Context
	r      io.Reader
	n, max int
}

func (b *budgetReader) Read(p []byte) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := b.r.Read(p)
	b.n += n
	if b.max > 0 && b.n > b.max {
		return n, &guard.InputError{Max: b.max}
	}
	return n, err
}

func newInputIter(r *runner) *inputIter {
	return &inputIter{r: r, files: r.cfg.Files}
}

// open advances to the next input source; false when none is left.
func (it *inputIter) open() bool {
	if it.cur != nil {
		it.cur.Close()
		it.cur = nil
	}
	it.br, it.dec = nil, nil
	cfg := it.r.cfg
	if len(it.files) == 0 {
		if it.next > 0 {
			return false
		}
		it.next++
		it.setReader(cfg.Stdin)
		return true
	}
	for it.next < len(it.files) {
		name := it.files[it.next]
		it.next++
		f, err := cfg.Open(name)
		if err != nil {
			fmt.Fprintf(cfg.Stderr, "jq: error: Could not open %s: %s\n", name, cfg.ErrText(err))
			it.failed = true
			continue
		}
		it.cur, it.name = f, name
		it.setReader(f)
		return true
	}
	return false
}

func (it *inputIter) setReader(r io.Reader) {
	it.budget = &budgetReader{ctx: it.r.ctx, r: r, max: it.r.cfg.MaxInput}
	it.br = bufio.NewReaderSize(it.budget, 64<<10)
	it.dec = newDecoder(it.br, it.r.order)
	it.lines = 0
}

// Next implements gojq.Iter. A parse error is returned as an error value
// and ends the stream.
func (it *inputIter) Next() (any, bool) {
	for !it.done {
		if it.br == nil && !it.open() {
			it.done = true
			break
		}
		// Flush what we printed before a read that may block on a pipe.
		if it.br.Buffered() == 0 {
			if err := it.r.out.Flush(); err != nil && it.r.cfg.WriteFailed == nil {
				it.r.cfg.WriteFailed = err
			}
		}
		if it.r.cfg.RawInput {
			if !it.r.cfg.Slurp {
				it.budget.n = 0
			}
			s, ok, err := it.rawLine()
			if err != nil {
				it.done = true
				return err, true
			}
			if ok {
				return s, true
			}
		} else {
			if !it.r.cfg.Slurp {
				// The count starts again with each value; what bufio
				// read ahead (at most 64KiB) counts for the next.
				it.budget.n = 0
			}
			v, err := it.dec.next()
			if err == nil {
				return v, true
			}
			if err != io.EOF {
				it.done = true
				return err, true
			}
		}
		it.br = nil
	}
	return nil, false
}

// nextIsArray reports whether the next input value is an array, reading
// no further than the blanks before its '['.
func (it *inputIter) nextIsArray() bool {
	for !it.done {
		if it.br == nil && !it.open() {
			it.done = true
			return false
		}
		if it.br.Buffered() == 0 {
			if err := it.r.out.Flush(); err != nil && it.r.cfg.WriteFailed == nil {
				it.r.cfg.WriteFailed = err
			}
		}
		c, err := it.dec.skipSpace()
		if err == io.EOF {
			it.br = nil
			continue
		}
		if err != nil {
			return false // Next reports it
		}
		it.dec.unread()
		return c == '['
	}
	return false
}

// streamArray reads the array nextIsArray found, handing each element to
// fn as it is parsed. A malformed input ends the stream, as in Next.
func (it *inputIter) streamArray(fn func(any) error) error {
	if _, err := it.dec.readByte(); err != nil {
		return err
	}
	err := it.dec.elements(fn)
	if err != nil {
		it.done = true
	}
	return err
}

// rawLine returns the next line without its newline (-R). With -s the
// lines keep their newlines so that joining gives the text back.
func (it *inputIter) rawLine() (string, bool, error) {
	line, err := it.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		buf := append([]byte(nil), line...)
		for err == bufio.ErrBufferFull {
			line, err = it.br.ReadSlice('\n')
			buf = append(buf, line...)
		}
		line = buf
	}
	if err != nil && err != io.EOF {
		return "", false, err
	}
	if len(line) == 0 {
		return "", false, nil
	}
	it.lines++
	if !it.r.cfg.Slurp && line[len(line)-1] == '\n' {
		line = line[:len(line)-1]
	}
	return string(ToValidUTF8IfNeeded(line)), true, nil
}

// ToValidUTF8IfNeeded avoids a copy for valid text.
func ToValidUTF8IfNeeded(b []byte) []byte {
	for _, c := range b {
		if c >= 0x80 {
			return ToValidUTF8(b)
		}
	}
	return b
}

func (it *inputIter) line() int {
	if it.dec == nil {
		return 0
	}
	if it.r.cfg.RawInput {
		return it.lines
	}
	return it.dec.line - 1
}

// pos is the "<stdin>:N" location jq shows in error messages.
func (it *inputIter) pos() string {
	if it.dec == nil && it.next == 0 {
		return "<unknown>"
	}
	name := it.name
	if name == "" {
		name = "<stdin>"
	}
	return fmt.Sprintf("%s:%d", name, it.line())
}

// Close releases the open file.
func (it *inputIter) Close() error {
	if it.cur != nil {
		return it.cur.Close()
	}
	return nil
}
