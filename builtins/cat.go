package builtins

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strconv"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
)

const catUsage = `Usage: cat [OPTION]... [FILE]...
Concatenate FILE(s) to standard output.

With no FILE, or when FILE is -, read standard input.

  -A, --show-all           equivalent to -vET
  -b, --number-nonblank    number nonempty output lines, overrides -n
  -e                       equivalent to -vE
  -E, --show-ends          display $ at end of each line
  -n, --number             number all output lines
  -s, --squeeze-blank      suppress repeated empty output lines
  -t                       equivalent to -vT
  -T, --show-tabs          display TAB characters as ^I
  -u                       (ignored)
  -v, --show-nonprinting   use ^ and M- notation, except for LFD and TAB
      --help     display this help and exit
`

var catGetopt = Getopt{
	Short: "AbeEnstTuv",
	Long:  []string{"show-all", "number-nonblank", "show-ends", "number", "squeeze-blank", "show-tabs", "show-nonprinting"},
	LongAlias: map[string]string{"show-all": "A", "number-nonblank": "b", "show-ends": "E", "number": "n",
		"squeeze-blank": "s", "show-tabs": "T", "show-nonprinting": "v"},
}

// catState carries numbering and squeezing across files, as GNU cat
// does: a last line without newline continues into the next file.
type catState struct {
	number, nonblank, squeeze, ends, tabs, nonprint bool

	lineNo    int64
	atStart   bool
	blankRun  int       // consecutive empty lines output so far
	pendingCR bool      // -E: a '\r' held back in case a '\n' follows
	raw       io.Writer // unbuffered stdout for the plain fast path
	numBuf    []byte
}

func (s *catState) plain() bool {
	return !s.number && !s.nonblank && !s.squeeze && !s.ends && !s.tabs && !s.nonprint
}

func runCat(ctx context.Context, env *Env, args []string) int {
	opts, files, err := catGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("cat", err, 1)
	}
	st := &catState{atStart: true, raw: env.Stdout}
	for _, o := range opts {
		switch o.Name {
		case "A":
			st.nonprint, st.ends, st.tabs = true, true, true
		case "b":
			st.nonblank = true
		case "e":
			st.nonprint, st.ends = true, true
		case "E":
			st.ends = true
		case "n":
			st.number = true
		case "s":
			st.squeeze = true
		case "t":
			st.nonprint, st.tabs = true, true
		case "T":
			st.tabs = true
		case "v":
			st.nonprint = true
		}
	}
	if st.nonblank {
		st.number = false
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	out := filesNewWriter(env.Stdout)
	status := 0
	buf := make([]byte, filesBufSize)
	for _, name := range files {
		if ctx.Err() != nil {
			return 130
		}
		var r io.Reader
		if name == "-" {
			r = env.Stdin
		} else {
			f, err := env.Open(name)
			if serr := filesSlashErr(env, name); serr != nil && err == nil {
				f.Close()
				f, err = nil, serr
			}
			if err != nil {
				out.Flush()
				status = env.FileError("cat", fileutil.QuoteIf(name), err)
				continue
			}
			r = f
			defer f.Close()
		}
		if err := st.copy(ctx, out, r, buf); err != nil {
			var werr filesWriteErr
			if errors.As(err, &werr) {
				return env.WriteError("cat", werr.err)
			}
			if errors.Is(err, context.Canceled) {
				return 130
			}
			out.Flush()
			status = env.FileError("cat", fileutil.QuoteIf(name), err)
		}
	}
	if st.pendingCR {
		out.WriteByte('\r')
	}
	if err := out.Flush(); err != nil {
		return env.WriteError("cat", err)
	}
	return status
}

// copy streams one input. Without options the bytes go straight through;
// otherwise lines are processed in slices of the read buffer.
func (s *catState) copy(ctx context.Context, out *bufio.Writer, r io.Reader, buf []byte) error {
	if s.plain() {
		// Flush what is buffered so the output keeps its order, then pass
		// each read straight on so pipelines see data as it comes.
		if err := out.Flush(); err != nil {
			return filesWriteErr{err}
		}
		_, err := filesCopyData(filesCtxWriter{ctx, s.raw}, r, buf)
		return err
	}
	br := bufio.NewReaderSize(r, filesBufSize)
	lines := 0
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			if werr := s.emit(out, chunk); werr != nil {
				return filesWriteErr{werr}
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		if lines++; lines&1023 == 0 {
			if ctx.Err() != nil {
				return ctx.Err()
			}
		}
		if br.Buffered() == 0 {
			// About to block on a read: let the reader see what we have.
			if ferr := out.Flush(); ferr != nil {
				return filesWriteErr{ferr}
			}
		}
	}
}

// emit writes one piece of a line (ending in '\n' or not).
func (s *catState) emit(out *bufio.Writer, chunk []byte) error {
	if s.atStart {
		if chunk[0] == '\n' {
			s.blankRun++
			if s.squeeze && s.blankRun > 1 {
				return nil
			}
		} else {
			s.blankRun = 0
		}
		if s.number || s.nonblank && chunk[0] != '\n' {
			s.lineNo++
			s.writeNumber(out)
		}
	}
	nl := chunk[len(chunk)-1] == '\n'
	body := chunk
	if nl {
		body = chunk[:len(chunk)-1]
	}
	// GNU shows a CR that ends a line as ^M under -E alone; the CR may
	// arrive at the end of one read and its LF in the next.
	cr := false
	if s.ends && !s.nonprint {
		if s.pendingCR {
			s.pendingCR = false
			if len(body) == 0 && nl {
				cr = true
			} else {
				out.WriteByte('\r')
			}
		}
		if len(body) > 0 && body[len(body)-1] == '\r' {
			body = body[:len(body)-1]
			if nl {
				cr = true
			} else {
				s.pendingCR = true
			}
		}
	}
	s.writeBody(out, body)
	if nl {
		if cr {
			out.WriteString("^M")
		}
		if s.ends {
			out.WriteByte('$')
		}
		out.WriteByte('\n')
	}
	s.atStart = nl
	_, err := out.Write(nil)
	return err
}

func (s *catState) writeNumber(out *bufio.Writer) {
	s.numBuf = strconv.AppendInt(s.numBuf[:0], s.lineNo, 10)
	for i := len(s.numBuf); i < 6; i++ {
		out.WriteByte(' ')
	}
	out.Write(s.numBuf)
	out.WriteByte('\t')
}

// writeBody writes line content, translating tabs and non-printing bytes
// when asked.
func (s *catState) writeBody(out *bufio.Writer, body []byte) {
	if !s.nonprint && !s.tabs {
		out.Write(body)
		return
	}
	start := 0
	for i, c := range body {
		if c >= 32 && c < 127 || c == '\t' && !s.tabs || !s.nonprint && c != '\t' {
			continue
		}
		out.Write(body[start:i])
		start = i + 1
		if c == '\t' {
			out.WriteString("^I")
			continue
		}
		catNonPrint(out, c)
	}
	out.Write(body[start:])
}

// catNonPrint writes c in cat -v notation: ^X, ^?, M-X, M-^X.
func catNonPrint(out *bufio.Writer, c byte) {
	if c >= 128 {
		out.WriteString("M-")
		c -= 128
	}
	switch {
	case c < 32:
		out.WriteByte('^')
		out.WriteByte(c + 64)
	case c == 127:
		out.WriteString("^?")
	default:
		out.WriteByte(c)
	}
}

// filesCtxWriter fails writes once ctx is cancelled, so long copies stop.
type filesCtxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c filesCtxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}
