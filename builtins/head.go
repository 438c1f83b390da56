package builtins

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/sandsh/sandsh/builtins/internal/guard"
	"io"
	"math/bits"
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
	max     int // bound on the data held back (head -c/-n -N), -1 none
}

// headParseSize parses NUM with an optional multiplier suffix like GNU's
// xstrtoumax ("10", "2K", "1kB", "3MiB", "1b"). Counts up to 2^64-1 are
// valid and saturate at the int64 maximum, as they mean "everything"
// anyway; larger ones are an overflow.
func headParseSize(s string) (n int64, ok, overflow bool) {
	u, ok, overflow := headParseUint(s)
	return int64(min(u, 1<<63-1)), ok, overflow
}

func headParseUint(s string) (n uint64, ok, overflow bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, false, false
	}
	mult, ok, big := headSuffix(s[i:])
	if !ok {
		return 0, false, false
	}
	v, err := strconv.ParseUint(s[:i], 10, 64)
	if err != nil {
		return 0, false, true
	}
	hi, lo := bits.Mul64(v, mult)
	if hi != 0 || big && v != 0 {
		return 0, false, true
	}
	return lo, true, false
}

// headSuffix returns the multiplier of a size suffix: b, K or k, M or m,
// G, T, P, E, Z, Y (powers of 1024), or with "B" or "D" after them powers
// of 1000, "iB" powers of 1024. big reports a multiplier past 2^64 (Z, Y).
func headSuffix(suf string) (mult uint64, ok, big bool) {
	switch suf {
	case "":
		return 1, true, false
	case "b":
		return 512, true, false
	}
	pow := strings.IndexByte("KMGTPEZY", suf[0])
	if suf[0] == 'k' || suf[0] == 'm' {
		pow = strings.IndexByte("km", suf[0])
	}
	if pow < 0 {
		return 0, false, false
	}
	base := uint64(1024)
	switch suf[1:] {
	case "", "iB":
	case "B", "D":
		base = 1000
	default:
		return 0, false, false
	}
	m := uint64(1)
	for i := 0; i <= pow; i++ {
		hi, lo := bits.Mul64(m, base)
		if hi != 0 {
			return 0, true, true
		}
		m = lo
	}
	return m, true, false
}

// headCount parses the value of -n or -c (sign already removed) and
// reports a bad one like GNU.
func headCount(env *Env, name, value, num string, bytes bool) (int64, bool) {
	n, ok, overflow := headParseSize(num)
	if ok {
		return n, true
	}
	what := "lines"
	if bytes {
		what = "bytes"
	}
	if overflow {
		env.Errorf(name, "invalid number of %s: %s: Value too large for defined data type", what, headQuote(value))
	} else {
		env.Errorf(name, "invalid number of %s: %s", what, headQuote(value))
	}
	return 0, false
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
		case "#":
			// Obsolete -N[bkm][cqvlz]: N lines, or bytes with a
			// size letter or c, and single-letter options after.
			digits := strings.TrimRight(o.Value, "bkmcqvlz")
			n, ok := headCount(env, name, o.Value, digits, false)
			if !ok {
				return 1
			}
			spec = headSpec{n: n, delim: spec.delim}
			for _, c := range o.Value[len(digits):] {
				switch c {
				case 'b', 'k', 'm':
					m, _, _ := headSuffix(string(c))
					spec.n, spec.bytes = int64(min(uint64(spec.n)*m, 1<<63-1)), true
				case 'c':
					spec.bytes = true
				case 'q':
					headers = -1
				case 'v':
					headers = 1
				case 'z':
					spec.delim = 0
				}
			}
		case "n", "c":
			v := o.Value
			spec.bytes = o.Name == "c"
			spec.allBut = strings.HasPrefix(v, "-")
			if strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+") {
				v = v[1:]
			}
			n, ok := headCount(env, name, o.Value, v, spec.bytes)
			if !ok {
				return 1
			}
			if u, _, _ := headParseUint(v); spec.allBut && spec.bytes && u > 1<<63-1 {
				// Eliding needs a file offset, which is signed.
				env.Errorf(name, "invalid number of bytes: '%d': Value too large for defined data type", u)
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
	spec.max = env.InputMax()
	return headEach(ctx, env, name, operands, headers, func(w *bufio.Writer, r io.Reader, file string) error {
		// Every read checks ctx: head -n N of an input with no newline
		// (/dev/zero) reads until the run ends.
		return headCopy(guard.Reader(ctx, r), w, spec, func(n int64) {
			if file == "-" {
				guard.Unread(r, n)
			}
		})
	})
}

// headEach runs body on every operand of head or tail ("-" when there is
// none), with GNU's headers (headers > 0 always, < 0 never, 0 when there
// are several files), and returns the exit status.
func headEach(ctx context.Context, env *Env, name string, operands []string, headers int, body func(w *bufio.Writer, r io.Reader, file string) error) int {
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
		wfail := false
		st := headOne(env, w, name, file, show, &first, func(r io.Reader) error {
			err := body(w, r, file)
			var we *headWriteError
			wfail = errors.As(err, &we)
			return err
		})
		// A write error is reported once, where it happened: the
		// buffer's Flush below would only repeat it.
		if wfail || st == StatusBrokenPipe || st > 1 {
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
	if ctxDone(err) {
		return 130
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

// headCopy prints what head prints of r; unread gives back what head -n
// read past its last line.
func headCopy(r io.Reader, w *bufio.Writer, spec headSpec, unread func(int64)) error {
	switch {
	case spec.allBut && spec.bytes:
		return headAllButBytes(r, w, spec.n, spec.max)
	case spec.allBut:
		return headAllButLines(r, w, spec.n, spec.delim, spec.max)
	case spec.bytes:
		return headBytes(r, w, spec.n)
	}
	return headLines(r, w, spec.n, spec.delim, unread)
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

func headLines(r io.Reader, w *bufio.Writer, n int64, delim byte, unread func(int64)) error {
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
				unread(int64(len(chunk) - (i + 1)))
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
func headAllButBytes(r io.Reader, w *bufio.Writer, n int64, max int) error {
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
		if max >= 0 && len(pending) > max {
			return &guard.InputError{Max: max}
		}
		if err != nil || done {
			return err
		}
	}
}

// headAllButLines prints all but the last n lines, holding back only the
// data of the last n lines.
func headAllButLines(r io.Reader, w *bufio.Writer, n int64, delim byte, max int) error {
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
		if max >= 0 && len(pending) > max {
			return &guard.InputError{Max: max}
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
