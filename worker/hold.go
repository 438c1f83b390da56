package worker

import (
	"context"
	"errors"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/sandsh/sandsh/sandbox"
)

// TermHold is the interactive shell's terminal as the sandbox writes to
// it, and the supervisor's questions on it (issue 23.1). While the
// supervisor asks whether a command may run, every byte from the sandbox
// waits: a background job cannot print a forged question over the real
// one, so the real question is the last thing on the screen until it is
// answered. What the sandbox wrote meanwhile appears after the answer.
//
// Only the streams that are a terminal are held; a file (`sandsh >
// out.txt`) is passed through. The worker gets one pipe for both
// terminal streams (so stdout and stderr keep their order) and a copier
// in this process writes it to the terminal; the worker's writes wait in
// the pipe while a question is open.
type TermHold struct {
	mu    sync.Mutex // held while a question is open, and by every write
	term  io.Writer  // the terminal the questions go to
	atBOL bool       // the last byte written to the terminal ended a line
	out   io.Writer  // the sandbox's stdout and stderr: held or passed through
	errw  io.Writer
	tty   *TTYInput // where answers are read

	rmu    sync.Mutex // held by whoever reads pipeR
	pipeR  *os.File   // the worker's output, while a copier runs
	pipeW  *os.File   // the worker's end of it
	copied chan struct{}
}

// heldWriter is one of the sandbox's streams on the terminal.
type heldWriter struct{ h *TermHold }

func (w heldWriter) Write(p []byte) (int, error) {
	h := w.h
	h.mu.Lock()
	defer h.mu.Unlock()
	n, err := h.term.Write(p)
	if n > 0 {
		h.atBOL = p[n-1] == '\n'
	}
	return n, err
}

// HoldTerminal wraps the interactive shell's stdout and stderr; in is the
// terminal the answers are read from.
func HoldTerminal(in *os.File, stdout, stderr io.Writer) *TermHold {
	h := &TermHold{term: stderr, atBOL: true, out: stdout, errw: stderr, tty: NewTTYInput(in)}
	outT, errT := isTerminal(stdout), isTerminal(stderr)
	if !errT && outT {
		h.term = stdout
	}
	if outT {
		h.out = heldWriter{h}
	}
	if errT {
		h.errw = heldWriter{h}
	}
	return h
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Writers are the sandbox's stdout and stderr in this process.
func (h *TermHold) Writers() (stdout, stderr io.Writer) { return h.out, h.errw }

// WorkerFiles are the worker's stdout and stderr: one pipe for the held
// streams, copied here to the terminal, and the others as they are.
func (h *TermHold) WorkerFiles() (stdout, stderr io.Writer, err error) {
	_, outHeld := h.out.(heldWriter)
	_, errHeld := h.errw.(heldWriter)
	if !outHeld && !errHeld {
		return h.out, h.errw, nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	h.pipeR, h.pipeW, h.copied = r, w, make(chan struct{})
	go h.copy()
	stdout, stderr = h.out, h.errw
	if outHeld {
		stdout = w
	}
	if errHeld {
		stderr = w
	}
	return stdout, stderr, nil
}

// copy writes what the worker writes to the terminal. It reads only
// while it holds rmu, so Sync, holding rmu, can empty the pipe itself.
func (h *TermHold) copy() {
	defer close(h.copied)
	buf := make([]byte, 32<<10)
	w := heldWriter{h}
	for {
		h.rmu.Lock()
		n, err := h.pipeR.Read(buf)
		if n > 0 {
			w.Write(buf[:n])
		}
		h.rmu.Unlock()
		if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			return
		}
	}
}

// Sync returns once everything the worker wrote before it was called is
// on the terminal: the interactive shell calls it before its own lines
// (the prompt, a limit's message), which must come after a line's
// output as they did when the worker wrote to the terminal itself.
func (h *TermHold) Sync() {
	if h == nil || h.pipeR == nil {
		return
	}
	h.pipeR.SetReadDeadline(time.Now()) // wakes the copier's read
	h.rmu.Lock()
	defer h.rmu.Unlock()
	buf := make([]byte, 32<<10)
	w := heldWriter{h}
	for {
		// What the worker wrote is in the pipe already: a read returns
		// at once while there is some (a deadline already past would
		// fail before reading).
		h.pipeR.SetReadDeadline(time.Now().Add(2 * time.Millisecond))
		n, err := h.pipeR.Read(buf)
		if n > 0 {
			w.Write(buf[:n])
		}
		if err != nil {
			break
		}
	}
	h.pipeR.SetReadDeadline(time.Time{})
}

// SyncWriter is w, written to after Sync.
func (h *TermHold) SyncWriter(w io.Writer) io.Writer { return syncWriter{h, w} }

type syncWriter struct {
	h *TermHold
	w io.Writer
}

func (s syncWriter) Write(p []byte) (int, error) {
	s.h.Sync()
	return s.w.Write(p)
}

// Asker asks on the terminal, holding the sandbox's output back while
// the question is open.
func (h *TermHold) Asker() sandbox.Asker {
	ask := TerminalAsker(h.tty, h.term)
	return func(ctx context.Context, q sandbox.AskQuestion) sandbox.AskAnswer {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.tty.Rearm()
		stop := context.AfterFunc(ctx, h.tty.Interrupt)
		defer stop()
		// The question starts its own line, in the terminal's default
		// rendition: text the sandbox left concealed, coloured or
		// unfinished cannot hide it.
		lead := "\x1b[0m"
		if !h.atBOL {
			lead += "\n"
		}
		io.WriteString(h.term, lead)
		a := ask(ctx, q)
		h.atBOL = true
		return a
	}
}

// Interrupt ends an open question (Ctrl-C): the answer is no.
func (h *TermHold) Interrupt() {
	if h != nil {
		h.tty.Interrupt()
	}
}

// Close waits (briefly) for what the worker wrote to reach the terminal
// and releases the terminal.
func (h *TermHold) Close() {
	if h.pipeW != nil {
		h.pipeW.Close()
		select {
		case <-h.copied:
		case <-time.After(2 * time.Second): // a jailed program still holds it
		}
		h.pipeR.Close()
		h.pipeW, h.pipeR = nil, nil
	}
	h.tty.Close()
}
