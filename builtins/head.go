package builtins

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
)

const headUsage = `Usage: head [OPTION]... [FILE]...
Print the first 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.

With no FILE, or when FILE is -, read standard input.

  -c, --bytes=[-]NUM       print the first NUM bytes of each file;
                             with the leading '-', print all but the last
                             NUM bytes of each file
  -n, --lines=[-]NUM       print the first NUM lines instead of the first 10;
                             with the leading '-', print all but the last
                             NUM lines of each file
  -q, --quiet, --silent    never print headers giving file names
  -v, --verbose            always print headers giving file names
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help               display this help and exit

NUM may have a multiplier suffix:
b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,
GB 1000*1000*1000, G 1024*1024*1024, and so on for T, P, E.
`

var headGetopt = Getopt{
	Short:        "n:c:qvz",
	NumericShort: true,
	Long:         []string{"lines=", "bytes=", "quiet", "silent", "verbose", "zero-terminated"},
	LongAlias: map[string]string{"lines": "n", "bytes": "c", "quiet": "q", "silent": "q",
		"verbose": "v", "zero-terminated": "z"},
}

// headSpec is what head or tail prints of each input.
type headSpec struct {
	bytes   bool  // count bytes, not lines
	n       int64 // the count
	allBut  bool  // head -n -N: all but the last N
	fromTop bool  // tail -n +N: starting with the Nth
	delim   byte
}

// headParseSize parses NUM with an optional multiplier suffix like GNU's
// xstrtoumax ("10", "2K", "1kB", "3MiB", "1b"). Counts too large for an
// int64 saturate, as they mean "everything" anyway.
func headParseSize(s string) (int64, bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		var ne *strconv.NumError
		if !errors.As(err, &ne) || ne.Err != strconv.ErrRange {
			return 0, false
		}
		n = 1<<63 - 1
	}
	mult, ok := headSuffix(s[i:])
	if !ok {
		return 0, false
	}
	if mult > 1 && n > (1<<63-1)/mult {
		return 1<<63 - 1, true
	}
	return n * mult, true
}

func headSuffix(suf string) (int64, bool) {
	switch suf {
	case "":
		return 1, true
	case "b":
		return 512, true
	}
	pow := strings.IndexByte("KMGTPEZY", suf[0]&^0x20)
	if pow < 0 {
		return 0, false
	}
	base := int64(1024)
	switch suf[1:] {
	case "", "iB":
	case "B":
		base = 1000
	default:
		return 0, false
	}
	m := int64(1)
	for i := 0; i <= pow; i++ {
		if m > (1<<63-1)/base {
			return 1<<63 - 1, true
		}
		m *= base
	}
	return m, true
}

func runHead(ctx context.Context, env *Env, args []string) int {
	const name = "head"
	opts, operands, err := headGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(name, err, 1)
	}
	spec := headSpec{n: 10, delim: '\n'}
	headers := 0 // -1 never, 1 always
	for _, o := range opts {
		switch o.Name {
		case "n", "c", "#":
			v := o.Value
			spec.bytes = o.Name == "c"
			if o.Name == "#" && strings.HasSuffix(v, "c") {
				v, spec.bytes = v[:len(v)-1], true
			}
			spec.allBut = strings.HasPrefix(v, "-")
			n, ok := headParseSize(strings.TrimLeft(v, "+-"))
			if !ok || len(v)-len(strings.TrimLeft(v, "+-")) > 1 {
				what := "lines"
				if spec.bytes {
					what = "bytes"
				}
				env.Errorf(name, "invalid number of %s: %s", what, headQuote(o.Value))
				return 1
			}
			spec.n = n
		case "q":
			headers = -1
		case "v":
			headers = 1
		case "z":
			spec.delim = 0
		}
	}
	if len(operands) == 0 {
		operands = []string{"-"}
	}
	show := headers > 0 || headers == 0 && len(operands) > 1
	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	status := 0
	first := true
	for _, file := range operands {
		if err := ctx.Err(); err != nil {
			return 130
		}
		st := headOne(env, w, name, file, show, &first, func(r io.Reader) error {
			return headCopy(r, w, spec)
		})
		if st == StatusBrokenPipe || st > 1 {
			return st
		}
		status = max(status, st)
	}
	if err := w.Flush(); err != nil {
		return env.WriteError(name, err)
	}
	return status
}

// headQuote quotes an argument in messages the way GNU's quote() does.
func headQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// headOne opens one operand of head or tail, prints its header (after a
// blank line unless it is the first header) and runs body on it, reporting errors GNU's way. It returns an exit status.
func headOne(env *Env, w *bufio.Writer, name, file string, show bool, first *bool, body func(io.Reader) error) int {
	var r io.Reader = env.Stdin
	display := file
	if file == "-" {
		display = "standard input"
	} else {
		f, err := env.FS.Open(env.Abs(file))
		if err != nil {
			w.Flush()
			env.Errorf(name, "cannot open %s for reading: %s", headQuote(file), ErrText(err))
			return 1
		}
		defer f.Close()
		r = f
	}
	var readErr error
	if st, ok := r.(interface{ Stat() (os.FileInfo, error) }); ok && file != "-" {
		if fi, err := st.Stat(); err == nil && fi.IsDir() {
			readErr = syscall.EISDIR
		}
	}
	if show {
		if !*first {
			w.WriteByte('\n')
		}
		*first = false
		fmt.Fprintf(w, "==> %s <==\n", display)
	}
	err := readErr
	if err == nil {
		err = body(r)
	}
	var we *headWriteError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &we):
		return env.WriteError(name, we.err)
	}
	w.Flush()
	env.Errorf(name, "error reading %s: %s", headQuote(file), ErrText(err))
	return 1
}

// headWriteError marks a failed write, to tell it from a read error.
type headWriteError struct{ err error }

func (e *headWriteError) Error() string { return e.err.Error() }

func headWrite(w io.Writer, b []byte) error {
	if _, err := w.Write(b); err != nil {
		return &headWriteError{err}
	}
	return nil
}

// headCopy prints what head prints of r.
func headCopy(r io.Reader, w *bufio.Writer, spec headSpec) error {
	switch {
	case spec.allBut && spec.bytes:
		return headAllButBytes(r, w, spec.n)
	case spec.allBut:
		return headAllButLines(r, w, spec.n, spec.delim)
	case spec.bytes:
		return headBytes(r, w, spec.n)
	}
	return headLines(r, w, spec.n, spec.delim)
}

// headRead reads into buf, mapping EOF to done.
func headRead(r io.Reader, buf []byte) (int, bool, error) {
	n, err := r.Read(buf)
	if err == io.EOF {
		return n, true, nil
	}
	return n, false, err
}

func headBytes(r io.Reader, w *bufio.Writer, n int64) error {
	buf := make([]byte, 64<<10)
	for n > 0 {
		k, done, err := headRead(r, buf[:min(int64(len(buf)), n)])
		if werr := headWrite(w, buf[:k]); werr != nil {
			return werr
		}
		n -= int64(k)
		if err != nil || done {
			return err
		}
	}
	return nil
}

func headLines(r io.Reader, w *bufio.Writer, n int64, delim byte) error {
	buf := make([]byte, 64<<10)
	for n > 0 {
		k, done, err := headRead(r, buf)
		chunk := buf[:k]
		for n > 0 {
			i := bytes.IndexByte(chunk, delim)
			if i < 0 {
				break
			}
			n--
			if n == 0 {
				chunk = chunk[:i+1]
			} else {
				if werr := headWrite(w, chunk[:i+1]); werr != nil {
					return werr
				}
				chunk = chunk[i+1:]
			}
		}
		if werr := headWrite(w, chunk); werr != nil {
			return werr
		}
		if err != nil || done {
			return err
		}
		if n > 0 {
			// A pipeline like "yes | head" must see its output now.
			if werr := w.Flush(); werr != nil {
				return &headWriteError{werr}
			}
		}
	}
	return nil
}

// headAllButBytes prints all but the last n bytes, holding back only n.
func headAllButBytes(r io.Reader, w *bufio.Writer, n int64) error {
	if n == 0 {
		_, err := io.Copy(w, r)
		return err
	}
	var pending []byte
	buf := make([]byte, 64<<10)
	for {
		k, done, err := headRead(r, buf)
		pending = append(pending, buf[:k]...)
		if extra := int64(len(pending)) - n; extra > 0 {
			if werr := headWrite(w, pending[:extra]); werr != nil {
				return werr
			}
			pending = pending[:copy(pending, pending[extra:])]
		}
		if err != nil || done {
			return err
		}
	}
}

// headAllButLines prints all but the last n lines, holding back only the
// data of the last n lines.
func headAllButLines(r io.Reader, w *bufio.Writer, n int64, delim byte) error {
	var pending []byte
	var count int64 // delimiters in pending
	buf := make([]byte, 64<<10)
	for {
		k, done, err := headRead(r, buf)
		pending = append(pending, buf[:k]...)
		count += int64(bytes.Count(buf[:k], []byte{delim}))
		if err != nil {
			return err
		}
		if done {
			if len(pending) > 0 && pending[len(pending)-1] != delim {
				count++ // an unterminated last line is a line too
			}
			if count > n {
				return headWrite(w, pending[:headCutLines(pending, count-n, delim)])
			}
			return nil
		}
		if count > n {
			cut := headCutLines(pending, count-n, delim)
			if werr := headWrite(w, pending[:cut]); werr != nil {
				return werr
			}
			pending = pending[:copy(pending, pending[cut:])]
			count = n
		}
	}
}

// headCutLines returns the offset just after the k-th delimiter, or len(b)
// when there are fewer.
func headCutLines(b []byte, k int64, delim byte) int {
	off := 0
	for ; k > 0; k-- {
		i := bytes.IndexByte(b[off:], delim)
		if i < 0 {
			return len(b)
		}
		off += i + 1
	}
	return off
}
