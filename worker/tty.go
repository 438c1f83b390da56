package worker

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// TTYInput is the standard input of the commands the REPL runs. A command
// blocked reading the terminal (`read x`, `cat`) must end on Ctrl-C like
// in bash, but a read on the inherited descriptor 0 cannot be woken up:
// Go reads it in blocking mode. So the REPL opens the terminal device a
// second time, which Go reads through its poller, and Ctrl-C sets a read
// deadline that ends the read (seen by the command as end of input).
// Where the device cannot be reopened (no /proc), reads use descriptor 0
// and Ctrl-C takes effect once the read returns. The methods accept a nil
// *TTYInput (unrestricted mode, where commands get descriptor 0 itself).
type TTYInput struct {
	f  *os.File // the reopened, pollable terminal; nil if unavailable
	in *os.File // descriptor 0
}

func NewTTYInput(in *os.File) *TTYInput {
	return &TTYInput{f: reopenTerminal(in), in: in}
}

// reopenTerminal opens the device behind in anew (a new open file
// description, so the non-blocking mode Go sets stays private), or
// returns nil.
func reopenTerminal(in *os.File) *os.File {
	path, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", in.Fd()))
	if err != nil || !strings.HasPrefix(path, "/dev/") {
		return nil
	}
	f, err := os.OpenFile(path, os.O_RDONLY, 0)
	if err != nil {
		return nil
	}
	a, errA := f.Stat()
	b, errB := in.Stat()
	if errA != nil || errB != nil || !os.SameFile(a, b) || f.SetReadDeadline(time.Time{}) != nil {
		f.Close()
		return nil
	}
	return f
}

func (t *TTYInput) Read(p []byte) (int, error) {
	if t.f == nil {
		return t.in.Read(p)
	}
	n, err := t.f.Read(p)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		err = io.EOF // interrupted
	}
	return n, err
}

// interrupt wakes up a command blocked reading the terminal.
func (t *TTYInput) Interrupt() {
	if t != nil && t.f != nil {
		t.f.SetReadDeadline(time.Now())
	}
}

// rearm lets reads block again after an interrupted line.
func (t *TTYInput) Rearm() {
	if t != nil && t.f != nil {
		t.f.SetReadDeadline(time.Time{})
	}
}

func (t *TTYInput) Close() {
	if t != nil && t.f != nil {
		t.f.Close()
	}
}
