package builtins

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/sandsh/sandsh/builtins/internal/guard"
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
// A record longer than max ends reading with a *guard.LineError (a line
// that never ends, like /dev/zero's, must not grow without bound), and a
// cancelled ctx stops it while it fills a long record.
type textLines struct {
	ctx   context.Context
	r     *bufio.Reader
	delim byte
	max   int
	long  []byte // spill buffer for records longer than the bufio buffer
}

func newTextLines(ctx context.Context, env *Env, r io.Reader, delim byte) *textLines {
	return &textLines{ctx: ctx, r: bufio.NewReaderSize(r, textBufSize), delim: delim, max: env.LineMax()}
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
			// Each round adds a full buffer (64 KiB): the check is
			// tied to the bytes read.
			if cerr := l.ctx.Err(); cerr != nil {
				return nil, cerr
			}
			if len(l.long) > l.max {
				return nil, &guard.LineError{Max: l.max}
			}
			line, err = l.r.ReadSlice(l.delim)
			l.long = append(l.long, line...)
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
		}
		line = l.long
		if len(line)-1 > l.max {
			return nil, &guard.LineError{Max: l.max}
		}
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
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return // the run reports its own limit
	}
	env.Errorf(name, "%s: %s", file, ErrText(err))
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

// textEachChunk feeds the concatenation of files (stdin for "-" or no
// files) to fn in chunks, as the GNU tools that treat their inputs as one
// stream do. Unopenable files are reported and skipped; the status is 1 if
// any was. A non-nil error from fn stops the loop and is returned.
func textEachChunk(ctx context.Context, env *Env, name string, files []string, fn func([]byte) error) (int, error) {
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	buf := make([]byte, textBufSize)
	for _, f := range files {
		r, err := textOpen(env, f)
		if err != nil {
			status = env.FileError(name, f, err)
			continue
		}
		for {
			n, rerr := r.Read(buf)
			if n > 0 {
				if err := fn(buf[:n]); err != nil {
					r.Close()
					return status, err
				}
			}
			if rerr == io.EOF {
				break
			}
			if rerr != nil {
				status = env.FileError(name, f, rerr)
				break
			}
			if ctx.Err() != nil {
				r.Close()
				return status, ctx.Err()
			}
		}
		r.Close()
	}
	return status, nil
}

// textTabs is a parsed expand/unexpand tab stop list.
type textTabs struct {
	size      int   // single repeating tab size, or 0
	list      []int // explicit stops
	extend    int   // "/N": repeat every N after the list
	increment int   // "+N": every N after the last stop
}

// add parses a -t LIST (comma or blank separated, "/N" and "+N" allowed
// on the last value).
func (t *textTabs) add(stops string) error {
	have, val := false, 0
	ext, inc := false, false
	flush := func() error {
		if !have {
			return nil
		}
		switch {
		case ext:
			if t.extend != 0 {
				return errors.New("'/' specifier only allowed with the last value")
			}
			t.extend = val
		case inc:
			if t.increment != 0 {
				return errors.New("'+' specifier only allowed with the last value")
			}
			t.increment = val
		default:
			t.list = append(t.list, val)
		}
		return nil
	}
	for i := 0; i < len(stops); i++ {
		c := stops[i]
		switch {
		case c == ',' || textIsBlank(c):
			if err := flush(); err != nil {
				return err
			}
			have = false
		case c == '/' || c == '+':
			if have {
				return fmt.Errorf("'%c' specifier not at start of number: '%s'", c, stops[i:])
			}
			ext, inc = c == '/', c == '+'
		case c >= '0' && c <= '9':
			if !have {
				have, val = true, 0
			}
			if val > (math.MaxInt-9)/10 {
				j := i
				for j < len(stops) && stops[j] >= '0' && stops[j] <= '9' {
					j++
				}
				return fmt.Errorf("tab stop is too large '%s'", stops[:j])
			}
			val = val*10 + int(c-'0')
		default:
			return fmt.Errorf("tab size contains invalid character(s): '%s'", stops[i:])
		}
	}
	return flush()
}

// finish validates the stops and settles the single-size case.
func (t *textTabs) finish() error {
	prev := 0
	for _, v := range t.list {
		if v == 0 {
			return errors.New("tab size cannot be 0")
		}
		if v <= prev {
			return errors.New("tab sizes must be ascending")
		}
		prev = v
	}
	if t.increment != 0 && t.extend != 0 {
		return errors.New("'/' specifier is mutually exclusive with '+'")
	}
	switch {
	case len(t.list) == 0:
		t.size = 8
		if t.extend != 0 {
			t.size = t.extend
		} else if t.increment != 0 {
			t.size = t.increment
		}
	case len(t.list) == 1 && t.extend == 0 && t.increment == 0:
		t.size = t.list[0]
	default:
		t.size = 0
	}
	return nil
}

// next returns the tab stop after column, advancing *idx through the
// list; last reports that there are no more stops.
func (t *textTabs) next(column int, idx *int) (int, bool) {
	if t.size != 0 {
		return column + (t.size - column%t.size), false
	}
	for ; *idx < len(t.list); *idx++ {
		if column < t.list[*idx] {
			return t.list[*idx], false
		}
	}
	if t.extend != 0 {
		return column + (t.extend - column%t.extend), false
	}
	if t.increment != 0 {
		end := t.list[len(t.list)-1]
		return column + (t.increment - (column-end)%t.increment), false
	}
	return 0, true
}

// textBRE converts a POSIX basic regular expression (with the GNU \+ \?
// \| extensions) to Go regexp syntax. Back-references are not supported.
func textBRE(p string) (string, error) { return textConvertRE(p, false) }

// textEmacsRE converts the GNU regex default (Emacs) syntax that tac -r
// uses: + and ? are operators unescaped, \( \) \| group and alternate,
// and there are no intervals.
func textEmacsRE(p string) (string, error) { return textConvertRE(p, true) }

func textConvertRE(p string, emacs bool) (string, error) {
	var b strings.Builder
	atStart := true // '*' is literal at the start of an RE or group
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			i++
			d := p[i]
			switch d {
			case '(':
				b.WriteByte('(')
				atStart = true
				continue
			case ')', '|':
				b.WriteByte(d)
				atStart = d == '|'
				continue
			case '{', '}', '+', '?':
				if emacs {
					b.WriteString(regexp.QuoteMeta(string(d)))
				} else {
					b.WriteByte(d)
				}
				atStart = false
				continue
			case '1', '2', '3', '4', '5', '6', '7', '8', '9':
				return "", errors.New("back-references are not supported")
			case 'n':
				b.WriteString(`\n`)
			case 'w', 'W', 's', 'S', 'b', 'B':
				b.WriteByte('\\')
				b.WriteByte(d)
			case '<', '>':
				b.WriteString(`\b`)
			case '`':
				b.WriteString(`\A`)
			case '\'':
				b.WriteString(`\z`)
			default:
				b.WriteString(regexp.QuoteMeta(string(d)))
			}
		case c == '[':
			j := textBracketEnd(p, i, !emacs)
			if j < 0 {
				return "", errors.New("unmatched [, [^, [:, [., or [=")
			}
			br := textBracket(p[i : j+1])
			if emacs {
				// Emacs syntax has no [:class:]: '[' inside is literal.
				br = "[" + strings.ReplaceAll(br[1:], "[", `\[`)
			}
			b.WriteString(br)
			i = j
		case (c == '*' || emacs && (c == '+' || c == '?')) && atStart:
			b.WriteString(regexp.QuoteMeta(string(c)))
		case emacs && (c == '+' || c == '?'):
			b.WriteByte(c)
		case c == '^' && atStart, c == '*', c == '.':
			b.WriteByte(c)
		case c == '$':
			if i == len(p)-1 || strings.HasPrefix(p[i+1:], `\)`) || strings.HasPrefix(p[i+1:], `\|`) {
				b.WriteByte('$')
			} else {
				b.WriteString(`\$`)
			}
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
		atStart = c == '^' && atStart
	}
	return b.String(), nil
}

// textBracketEnd returns the index of the ']' closing the bracket
// expression that starts at p[i], or -1.
func textBracketEnd(p string, i int, classes bool) int {
	j := i + 1
	if j < len(p) && p[j] == '^' {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++
	}
	for ; j < len(p); j++ {
		if classes && p[j] == '[' && j+1 < len(p) && (p[j+1] == ':' || p[j+1] == '.' || p[j+1] == '=') {
			end := strings.Index(p[j+2:], string(p[j+1])+"]")
			if end < 0 {
				return -1
			}
			j += 2 + end + 1
			continue
		}
		if p[j] == ']' {
			return j
		}
	}
	return -1
}

// textBracket rewrites a POSIX bracket expression for Go: backslash is
// literal inside POSIX brackets.
func textBracket(s string) string {
	return strings.ReplaceAll(s, `\`, `\\`)
}
