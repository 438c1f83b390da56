package interp

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/spf13/afero"
)

// maxFD is the highest file descriptor a script may use ({var}> allocates
// from 10 upwards, like bash).
const maxFD = 1023

// openFile is one open file description, shared by every descriptor that
// duplicates it and by every subshell that inherited it. It is closed
// when the last of them lets go, so a pipe's reader sees EOF only after
// every writer is done.
type openFile struct {
	r      io.Reader
	w      io.Writer
	closer io.Closer
	file   afero.File // for seeking (<>, read on regular files)
	refs   atomic.Int32
	name   string

	// Buffered reads by read and mapfile (readSource): one at a time,
	// since each moves the offset back when it is done.
	rdMu  sync.Mutex
	rdBuf []byte
	seek  atomic.Int32 // seekUnknown, seekYes, seekNo
}

func newOpenFile(r io.Reader, w io.Writer, c io.Closer, name string) *openFile {
	of := &openFile{r: r, w: w, closer: c, name: name}
	of.refs.Store(1)
	return of
}

func (of *openFile) retain() *openFile { of.refs.Add(1); return of }

func (of *openFile) release() {
	if of.refs.Add(-1) == 0 && of.closer != nil {
		of.closer.Close()
	}
}

// fdTable maps descriptor numbers to open files for one shell.
type fdTable struct {
	fds map[int]*openFile
}

func newFDTable(in io.Reader, out, errw io.Writer, counter *atomic.Int64, max int64, s *session) *fdTable {
	t := &fdTable{fds: make(map[int]*openFile)}
	lock := &sync.Mutex{}
	if in != nil {
		t.fds[0] = newOpenFile(in, nil, nil, "/dev/stdin")
	}
	if out != nil {
		t.fds[1] = newOpenFile(nil, &limitWriter{w: out, n: counter, max: max, s: s, mu: lock}, nil, "/dev/stdout")
	}
	if errw != nil {
		t.fds[2] = newOpenFile(nil, &limitWriter{w: errw, n: counter, max: max, s: s, mu: lock}, nil, "/dev/stderr")
	}
	return t
}

// clone gives a subshell its own table sharing the open files.
func (t *fdTable) clone() *fdTable {
	c := &fdTable{fds: make(map[int]*openFile, len(t.fds))}
	for n, of := range t.fds {
		c.fds[n] = of.retain()
	}
	return c
}

// closeAll releases every descriptor, at the end of a subshell.
func (t *fdTable) closeAll() {
	for n, of := range t.fds {
		of.release()
		delete(t.fds, n)
	}
}

func (t *fdTable) get(n int) *openFile { return t.fds[n] }

// set installs of at n (taking over one reference), releasing what was there.
func (t *fdTable) set(n int, of *openFile) {
	if old := t.fds[n]; old != nil {
		old.release()
	}
	if of == nil {
		delete(t.fds, n)
		return
	}
	t.fds[n] = of
}

// freeFrom returns the lowest unused descriptor >= lo.
func (t *fdTable) freeFrom(lo int) int {
	for n := lo; n <= maxFD; n++ {
		if t.fds[n] == nil {
			return n
		}
	}
	return -1
}

// shared reports whether another descriptor reads n's open file, itself
// or through /dev/fd/n (`cmd < <(x)` reads the substitution at fd 0).
func (t *fdTable) shared(n int) bool {
	of := t.fds[n]
	for m, o := range t.fds {
		if m == n {
			continue
		}
		if o == of {
			return true
		}
		if df, ok := o.r.(*devFile); ok && df.held == of {
			return true
		}
	}
	return false
}

func (t *fdTable) flush() {}

func (t *fdTable) reader(n int) io.Reader {
	if of := t.fds[n]; of != nil && of.r != nil {
		return of.r
	}
	return badFD{}
}

func (t *fdTable) writer(n int) io.Writer {
	if of := t.fds[n]; of != nil && of.w != nil {
		return of.w
	}
	return badFD{}
}

// badFD stands for a closed or missing descriptor.
type badFD struct{}

func (badFD) Read([]byte) (int, error)  { return 0, syscall.EBADF }
func (badFD) Write([]byte) (int, error) { return 0, syscall.EBADF }

// limitWriter counts every byte the run writes to its real stdout and
// stderr against the output limit.
type limitWriter struct {
	w   io.Writer
	n   *atomic.Int64
	max int64
	s   *session
	mu  *sync.Mutex
}

// errOutputLimit is what writes fail with once an output limit is hit. It
// wraps io.ErrClosedPipe so commands stop quietly, as on a broken pipe:
// sandsh itself reports the limit.
var errOutputLimit = fmt.Errorf("output limit exceeded: %w", io.ErrClosedPipe)

func (l *limitWriter) Write(b []byte) (int, error) {
	if l.max > 0 {
		total := l.n.Add(int64(len(b)))
		if total > l.max {
			allowed := int64(len(b)) - (total - l.max)
			if allowed > 0 {
				l.mu.Lock()
				l.w.Write(b[:allowed])
				l.mu.Unlock()
			}
			l.s.fail(&LimitError{Limit: "max-output", Value: FormatBytes(l.max)})
			return 0, errOutputLimit
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
