package interp

import (
	"bytes"
	"io"
	"io/fs"
	"strings"
)

// Block sizes of buffered reads: the first read of a call takes
// readBlock bytes (bash's zread.c reads 4096), each further one twice the
// last, up to readBlockMax, so a long line costs few reads.
const (
	readBlock    = 4096
	readBlockMax = 64 << 10
)

// Seekability of an open file, found once (openFile.seek).
const (
	seekUnknown int32 = iota
	seekYes
	seekNo
)

// readSource hands read, mapfile and select their input one byte at a
// time. On a regular file (host or sandbox) or an in-memory document it
// reads blocks and, when the builtin is done, moves the offset back to
// just after the last byte it handed out, as bash does (zreadc, then
// zsyncfd): the next command sharing the descriptor starts where the
// line ended. Anything else (a pipe, a terminal, a device) is read one
// byte per call, since bytes read past the line could not be given back
// and belong to the next command.
type readSource struct {
	rd   io.Reader
	sk   io.Seeker // nil: one byte per Read
	of   *openFile // holds the lock and the buffer while buffered
	buf  []byte
	i, n int
	blk  int
	err  error // what the reader returned with the last bytes of buf
	one  [1]byte
}

// readSource opens fd for a byte-wise builtin; done must be called when
// it has what it needs.
func (r *Runner) readSource(fd int) *readSource {
	of := r.fds.get(fd)
	if of == nil || of.r == nil {
		return &readSource{rd: badFD{}}
	}
	if df, ok := of.r.(*devFile); ok && df.held != nil {
		// < /dev/stdin, /dev/fd/N: the descriptor's own open file, whose
		// reader the device reads through.
		of = df.held
	}
	s := &readSource{rd: of.r}
	if sk := of.seeker(); sk != nil {
		of.rdMu.Lock()
		s.sk, s.of, s.buf, s.blk = sk, of, of.rdBuf, readBlock
	}
	return s
}

// maxEmptyReads bounds the reads in a row that return nothing and no
// error, as bufio does.
const maxEmptyReads = 100

// readByte returns the next byte, or the reader's error (io.EOF at the end).
func (s *readSource) readByte() (byte, error) {
	if s.i < s.n {
		c := s.buf[s.i]
		s.i++
		return c, nil
	}
	return s.fill()
}

// readsAhead reports whether s reads blocks (a regular file or a
// document), which never wait.
func (s *readSource) readsAhead() bool { return s.sk != nil }

// buffered returns the bytes read ahead and not handed out yet.
func (s *readSource) buffered() []byte { return s.buf[s.i:s.n] }

// more reports whether bytes read ahead remain.
func (s *readSource) more() bool { return s.i < s.n }

// skip hands out n of the bytes buffered returned.
func (s *readSource) skip(n int) { s.i += n }

func (s *readSource) fill() (byte, error) {
	if s.sk == nil {
		for range maxEmptyReads {
			n, err := s.rd.Read(s.one[:])
			if n == 1 {
				return s.one[0], nil
			}
			if err != nil {
				return 0, err
			}
		}
		return 0, io.ErrNoProgress
	}
	if err := s.readAhead(); err != nil {
		return 0, err
	}
	s.i++
	return s.buf[0], nil
}

// readAhead reads the next block when reads are buffered and the last
// one is all handed out; it returns an error only when no byte is left.
func (s *readSource) readAhead() error {
	if s.sk == nil || s.i < s.n {
		return nil
	}
	if s.err != nil {
		return s.err
	}
	if cap(s.buf) < s.blk {
		s.buf = make([]byte, s.blk)
	}
	s.buf = s.buf[:cap(s.buf)]
	want := min(s.blk, len(s.buf))
	s.blk = min(s.blk*2, readBlockMax)
	for range maxEmptyReads {
		n, err := s.rd.Read(s.buf[:want])
		s.i, s.n = 0, n
		if n > 0 {
			s.err = err
			return nil
		}
		if err != nil {
			s.err = err
			return err
		}
	}
	s.err = io.ErrNoProgress
	return s.err
}

// done gives back what was read past the last byte handed out and lets
// go of the open file.
func (s *readSource) done() {
	if s.sk == nil {
		return
	}
	if s.i < s.n {
		// The offset was found to move at the start; a seek back over
		// bytes just read cannot fail but on a file truncated meanwhile,
		// where bash's lseek would not fail either.
		s.sk.Seek(int64(s.i-s.n), io.SeekCurrent)
	}
	s.i, s.n = 0, 0
	if cap(s.buf) <= readBlockMax {
		s.of.rdBuf = s.buf[:0]
	}
	s.of.rdMu.Unlock()
	s.sk, s.of = nil, nil
}

// seeker returns the open file's reader as a Seeker when reads may run
// ahead and seek back: a regular file whose offset moves, or an
// in-memory document (here-document, here-string).
func (of *openFile) seeker() io.Seeker {
	switch of.seek.Load() {
	case seekYes:
		return of.r.(io.Seeker)
	case seekNo:
		return nil
	}
	ok := false
	switch rd := of.r.(type) {
	case *strings.Reader, *bytes.Reader:
		ok = true
	case interface {
		io.Seeker
		Stat() (fs.FileInfo, error)
	}:
		if fi, err := rd.Stat(); err == nil && fi.Mode().IsRegular() {
			_, err := rd.Seek(0, io.SeekCurrent)
			ok = err == nil
		}
	}
	if ok {
		of.seek.Store(seekYes)
		return of.r.(io.Seeker)
	}
	of.seek.Store(seekNo)
	return nil
}

// readLine reads up to delim from s, at most max bytes when max >= 0;
// the delimiter ends the line, included when keep is set.
func readLine(s *readSource, delim byte, max int, keep bool) (string, error) {
	var sb []byte
	for max < 0 || len(sb) < max {
		// Take what the block read ahead holds at once.
		s.readAhead() // an error is readByte's below
		if seg := s.buffered(); len(seg) > 0 {
			if max >= 0 && len(seg) > max-len(sb) {
				seg = seg[:max-len(sb)]
			}
			i := bytes.IndexByte(seg, delim)
			if i < 0 {
				sb = append(sb, seg...)
				s.skip(len(seg))
				continue
			}
			s.skip(i + 1)
			if keep {
				i++
			}
			if sb == nil {
				return string(seg[:i]), nil
			}
			return string(append(sb, seg[:i]...)), nil
		}
		c, err := s.readByte()
		if err != nil {
			return string(sb), err
		}
		if c == delim {
			if keep {
				sb = append(sb, c)
			}
			return string(sb), nil
		}
		sb = append(sb, c)
	}
	return string(sb), nil
}
