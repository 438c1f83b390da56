// Package guard holds the checks every loop of sandsh's in-process
// commands and engines shares: cancellation at a rate tied to the work
// done (bytes or steps, not iterations alone), a writer that keeps its
// first error so a loop can stop on it, a reader that stops when the run
// is cancelled, and the bound on one line or record.
package guard

import (
	"context"
	"fmt"
	"io"
	"io/fs"

	"github.com/sandsh/sandsh/internal/units"
)

// Every is how much work (bytes copied or compared, steps taken) passes
// between two context checks: small enough that a cancelled command ends
// within milliseconds, large enough that the check costs nothing.
const Every = 64 << 10

// Meter checks a context once per Every units of work. The zero value
// and a nil *Meter never report cancellation.
type Meter struct {
	ctx  context.Context
	left int
}

// NewMeter returns a meter for ctx.
func NewMeter(ctx context.Context) *Meter { return &Meter{ctx: ctx, left: Every} }

// Add counts n units of work and returns ctx.Err() when a check is due
// and the context is done. A single huge n is checked at once.
func (m *Meter) Add(n int) error {
	if m == nil {
		return nil
	}
	m.left -= n
	if m.left > 0 {
		return nil
	}
	m.left = Every
	if m.ctx == nil {
		return nil
	}
	return m.ctx.Err()
}

// Err checks the context now.
func (m *Meter) Err() error {
	if m == nil || m.ctx == nil {
		return nil
	}
	return m.ctx.Err()
}

// Reader returns r wrapped so that every Read first checks ctx: a reader
// filling a buffer (a line that never ends, /dev/zero) stops when the run
// is cancelled, at a rate tied to the bytes read.
func Reader(ctx context.Context, r io.Reader) io.Reader {
	if ctx == nil || ctx.Done() == nil {
		return r
	}
	return &ctxReader{ctx: ctx, r: r}
}

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// Writer remembers the first write error: later writes do nothing and
// return it, so a loop may write without checking each call and test Err
// at the points where it must stop (once per record, per chunk).
type Writer struct {
	W   io.Writer
	err error
}

// NewWriter wraps w.
func NewWriter(w io.Writer) *Writer { return &Writer{W: w} }

func (w *Writer) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.W.Write(p)
	if err != nil {
		w.err = err
	}
	return n, err
}

// WriteString implements io.StringWriter.
func (w *Writer) WriteString(s string) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := io.WriteString(w.W, s)
	if err != nil {
		w.err = err
	}
	return n, err
}

// Err returns the first write error.
func (w *Writer) Err() error { return w.err }

// LineError says a line or record grew past the bound on what one
// command holds in memory.
type LineError struct{ Max int }

func (e *LineError) Error() string {
	return fmt.Sprintf("line too long (over %s, the --max-var-bytes limit)", FormatBytes(int64(e.Max)))
}

// FormatBytes renders a byte count the way limit messages show it
// (64MiB, 1GiB, 1000B).
func FormatBytes(n int64) string { return units.FormatBytes(n) }

// Abandonable is the input size from which Interruptible runs a step
// where it can be abandoned: a single regular expression match over tens
// of megabytes takes seconds inside an engine that cannot check a
// context.
const Abandonable = 1 << 20

// Interruptible runs f, a step that cannot check ctx itself (a match in
// Go's regexp), over an input of size bytes. A small step runs inline. A
// big one runs on its own goroutine: when ctx ends first, Interruptible
// returns ctx's error at once and f's result is dropped when it finishes
// (its CPU time is bounded by size, which the line bound caps). The
// caller must then stop and never touch f's input again. A panic in f is
// raised again in the caller, where the command's recovery sees it.
func Interruptible[T any](ctx context.Context, size int, f func() T) (T, error) {
	if size < Abandonable || ctx == nil || ctx.Done() == nil {
		return f(), nil
	}
	type result struct {
		v     T
		panic any
	}
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			r.panic = recover()
			done <- r
		}()
		r.v = f()
	}()
	select {
	case r := <-done:
		if r.panic != nil {
			panic(r.panic)
		}
		return r.v, nil
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// Repeat writes n copies of c to w in blocks, charging m with each block:
// a padding loop driven by a width the script chose (expand -t, nl -w,
// printf widths) then ends on the first write error or on cancellation
// instead of writing a byte at a time until the width runs out.
func Repeat(w io.Writer, m *Meter, c byte, n int) error {
	if n <= 0 {
		return nil
	}
	// The common short pads (a tab stop, a number's width) cost one
	// write of a constant, as a hand-written loop would.
	if n <= len(spaces) && (c == ' ' || c == '0') {
		s := spaces
		if c == '0' {
			s = zeros
		}
		if _, err := io.WriteString(w, s[:n]); err != nil {
			return err
		}
		return m.Add(n)
	}
	var block [512]byte
	k := min(n, len(block))
	for i := range k {
		block[i] = c
	}
	for n > 0 {
		k := min(n, len(block))
		if _, err := w.Write(block[:k]); err != nil {
			return err
		}
		if err := m.Add(k); err != nil {
			return err
		}
		n -= k
	}
	return nil
}

const (
	spaces = "                                                                "
	zeros  = "0000000000000000000000000000000000000000000000000000000000000000"
)

// InputError says a command that must hold its whole input (sort, tac,
// diff, jq, column, ...) was given more than the bound on it.
type InputError struct{ Max int }

func (e *InputError) Error() string {
	return fmt.Sprintf("input too large (over %s, the --max-capture limit)", FormatBytes(int64(e.Max)))
}

// ReadAll reads r to its end like io.ReadAll, but checks ctx while it
// reads and stops with an *InputError past max bytes (max < 0: no
// bound), so an endless input (/dev/zero, `yes`) ends the command with a
// clear error instead of filling memory.
func ReadAll(ctx context.Context, r io.Reader, max int) ([]byte, error) {
	size := 512
	// A file says how big it is: one allocation of that size, as
	// os.ReadFile does, instead of growing through copies (the bound
	// still applies to what is read, whatever Stat said).
	if f, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > 0 && (max < 0 || fi.Size() <= int64(max)) && fi.Size() < 1<<30 {
			size = int(fi.Size()) + 512
		}
	}
	b := make([]byte, 0, size)
	for {
		if ctx != nil {
			if err := ctx.Err(); err != nil {
				return b, err
			}
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if max >= 0 && len(b) > max {
			return b[:max], &InputError{Max: max}
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// Unread gives back the last n bytes read from r by moving its offset
// back, when r is a regular file: a command that stops early (head -n,
// grep -m) leaves a standard input it shares with the next command just
// after what it used, as GNU's do with lseek. From a pipe or a device the
// bytes are gone, as with GNU; so from a here-document, which bash 5.2
// passes through a pipe.
func Unread(r io.Reader, n int64) {
	if n <= 0 {
		return
	}
	sk, ok := r.(io.Seeker)
	if !ok {
		return
	}
	st, ok := r.(interface{ Stat() (fs.FileInfo, error) })
	if !ok {
		return
	}
	if fi, err := st.Stat(); err != nil || !fi.Mode().IsRegular() {
		return
	}
	// Like GNU head, a failed seek is no error: the offset stays.
	sk.Seek(-n, io.SeekCurrent)
}
