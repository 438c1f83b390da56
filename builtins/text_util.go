package builtins

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
)

// Shared plumbing for the text group (sort, uniq, cut, tr, paste, join,
// comm, column, fold, fmt, expand, unexpand, rev, tac, nl).

// textBufSize is the buffer size for reading inputs and writing stdout:
// large enough that a 100 MB file costs few syscalls-equivalent calls.
const textBufSize = 64 << 10

// textCtxEvery is how many lines a loop handles between ctx checks.
const textCtxEvery = 4096

// textOpen opens an input operand; "-" is standard input, which must not
// be closed by the command.
func textOpen(env *Env, name string) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(env.Stdin), nil
	}
	return env.Open(name)
}

// textLines reads delimiter-terminated records from a stream without
// allocating per line. The slice Next returns is valid until the next call.
type textLines struct {
	r     *bufio.Reader
	delim byte
	long  []byte // spill buffer for records longer than the bufio buffer
}

func newTextLines(r io.Reader, delim byte) *textLines {
	return &textLines{r: bufio.NewReaderSize(r, textBufSize), delim: delim}
}

// Next returns the next record including its delimiter when present (the
// last record of a stream may lack it). It returns io.EOF when there is no
// more data and any other read error as is.
func (l *textLines) Next() ([]byte, error) {
	line, err := l.r.ReadSlice(l.delim)
	if err == nil {
		return line, nil
	}
	if errors.Is(err, bufio.ErrBufferFull) {
		l.long = append(l.long[:0], line...)
		for {
			line, err = l.r.ReadSlice(l.delim)
			l.long = append(l.long, line...)
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
		}
		line = l.long
	}
	if err == io.EOF {
		if len(line) == 0 {
			return nil, io.EOF
		}
		return line, nil
	}
	if err != nil {
		return line, err
	}
	return line, nil
}

// textChomp returns line without its trailing delimiter, if any.
func textChomp(line []byte, delim byte) []byte {
	if n := len(line); n > 0 && line[n-1] == delim {
		return line[:n-1]
	}
	return line
}

// textWriter is a buffered stdout that remembers the first write error so
// hot loops can write without checking every call.
type textWriter struct {
	*bufio.Writer
}

func newTextWriter(w io.Writer) textWriter {
	return textWriter{bufio.NewWriterSize(w, textBufSize)}
}

// textReadError reports a failed read the GNU way ("cmd: file: Is a
// directory"); stdin is shown as "-".
func textReadError(env *Env, name, file string, err error) {
	env.Errorf(name, "%s: %s", file, ErrText(err))
}

// textCancelled reports whether ctx is done, turning it into the status a
// command interrupted by the runner returns.
func textCancelled(ctx context.Context) bool {
	return ctx.Err() != nil
}

// textUnescape decodes the backslash escapes paste -d and similar options
// accept: \n \t \\ \0 (the empty string), \b \f \r \v; other escaped
// characters stand for themselves.
func textUnescape(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			out = append(out, string(c))
			continue
		}
		i++
		switch s[i] {
		case 'n':
			out = append(out, "\n")
		case 't':
			out = append(out, "\t")
		case '0':
			out = append(out, "")
		case 'b':
			out = append(out, "\b")
		case 'f':
			out = append(out, "\f")
		case 'r':
			out = append(out, "\r")
		case 'v':
			out = append(out, "\v")
		default:
			out = append(out, string(s[i]))
		}
	}
	return out
}

// textParseCount parses a non-negative decimal count the way GNU tools
// using xstrtoumax do; huge values saturate instead of failing.
func textParseCount(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return int(^uint(0) >> 1), true
		}
		return 0, false
	}
	return int(n), true
}

// textIsBlank is isblank in the C locale.
func textIsBlank(c byte) bool { return c == ' ' || c == '\t' }

// textHasByte reports whether b contains c.
func textHasByte(b []byte, c byte) bool { return bytes.IndexByte(b, c) >= 0 }

// textUpper is toupper in the C locale.
func textUpper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// textEqualFold compares ASCII case-insensitively; other bytes must match
// exactly, as memcasecmp does in the C locale.
func textEqualFold(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && textUpper(a[i]) != textUpper(b[i]) {
			return false
		}
	}
	return true
}
