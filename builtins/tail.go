package builtins

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"strings"
)

const tailUsage = `Usage: tail [OPTION]... [FILE]...
Print the last 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.

With no FILE, or when FILE is -, read standard input.

  -c, --bytes=[+]NUM       output the last NUM bytes; or use -c +NUM to
                             output starting with byte NUM of each file
  -f, --follow             accepted; sandsh files do not grow, so this
                             prints what tail without -f prints
  -F                       same as -f
  -n, --lines=[+]NUM       output the last NUM lines, instead of the last 10;
                             or use -n +NUM to skip NUM-1 lines at the start
  -q, --quiet, --silent    never output headers giving file names
  -s, --sleep-interval=N   accepted, ignored
  -v, --verbose            always output headers giving file names
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help               display this help and exit

NUM may have a multiplier suffix:
b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,
GB 1000*1000*1000, G 1024*1024*1024, and so on for T, P, E.
`

var tailGetopt = Getopt{
	Short:        "n:c:qvzfFs:",
	NumericShort: true,
	Long: []string{"lines=", "bytes=", "quiet", "silent", "verbose", "zero-terminated",
		"follow?", "retry", "sleep-interval=", "pid=", "max-unchanged-stats="},
	LongAlias: map[string]string{"lines": "n", "bytes": "c", "quiet": "q", "silent": "q",
		"verbose": "v", "zero-terminated": "z", "follow": "f", "sleep-interval": "s"},
}

func runTail(ctx context.Context, env *Env, args []string) int {
	const name = "tail"
	spec := headSpec{n: 10, delim: '\n'}
	rest := args[1:]
	// Obsolete "tail +N [FILE]": start at line N.
	if len(rest) >= 1 && len(rest) <= 2 && tailObsoletePlus(rest[0]) {
		v := rest[0][1:]
		if strings.HasSuffix(v, "c") {
			v, spec.bytes = v[:len(v)-1], true
		}
		v = strings.TrimSuffix(v, "l")
		spec.n, _, _ = headParseSize(v)
		spec.fromTop = true
		rest = rest[1:]
	}
	opts, operands, err := tailGetopt.Parse(rest)
	if err != nil {
		return env.UsageError(name, err, 1)
	}
	headers := 0
	for _, o := range opts {
		switch o.Name {
		case "n", "c", "#":
			v := o.Value
			spec.bytes = o.Name == "c"
			if o.Name == "#" {
				// Obsolete -N[b|c|l][f]: follow is a no-op here, b
				// counts 512-byte blocks.
				v = strings.TrimSuffix(v, "f")
				switch {
				case strings.HasSuffix(v, "c"):
					v, spec.bytes = v[:len(v)-1], true
				case strings.HasSuffix(v, "b"):
					spec.bytes = true
				}
				v = strings.TrimSuffix(v, "l")
			}
			spec.fromTop = strings.HasPrefix(v, "+")
			if strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+") {
				v = v[1:]
			}
			n, ok := headCount(env, name, o.Value, v, spec.bytes)
			if !ok {
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
	return headEach(ctx, env, name, operands, headers, func(w *bufio.Writer, r io.Reader, file string) error {
		return tailCopy(ctx, r, w, spec, file != "-")
	})
}

// tailObsoletePlus recognizes "+N", "+Nc" and "+Nl".
func tailObsoletePlus(a string) bool {
	if len(a) < 2 || a[0] != '+' {
		return false
	}
	a = strings.TrimRight(a[1:], "cl")
	if a == "" {
		return false
	}
	for _, c := range a {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// tailCopy prints what tail prints of r. Regular files are read from the
// end; other input is streamed, keeping only what may still be printed.
func tailCopy(ctx context.Context, r io.Reader, w *bufio.Writer, spec headSpec, seekable bool) error {
	if spec.fromTop {
		return tailFrom(r, w, spec)
	}
	if spec.n == 0 {
		return nil // like GNU, without reading: `yes | tail -n0` ends
	}
	if seekable {
		if f, ok := r.(interface {
			io.ReadSeeker
			Stat() (os.FileInfo, error)
		}); ok {
			if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
				return tailSeek(f, w, fi.Size(), spec)
			}
		}
	}
	if spec.bytes {
		return tailStreamBytes(ctx, r, w, spec.n)
	}
	return tailStreamLines(ctx, r, w, spec.n, spec.delim)
}

// tailFrom prints starting with line (or byte) n.
func tailFrom(r io.Reader, w *bufio.Writer, spec headSpec) error {
	skip := max(spec.n-1, 0)
	buf := make([]byte, 64<<10)
	for {
		k, done, err := headRead(r, buf)
		chunk := buf[:k]
		for skip > 0 && len(chunk) > 0 {
			if spec.bytes {
				d := min(skip, int64(len(chunk)))
				chunk, skip = chunk[d:], skip-d
				continue
			}
			i := bytes.IndexByte(chunk, spec.delim)
			if i < 0 {
				chunk = nil
				break
			}
			chunk, skip = chunk[i+1:], skip-1
		}
		if werr := headWrite(w, chunk); werr != nil {
			return werr
		}
		if err != nil || done {
			return err
		}
	}
}

// tailSeek prints the end of a regular file of the given size, reading
// backwards in blocks until it has seen enough lines.
func tailSeek(f io.ReadSeeker, w *bufio.Writer, size int64, spec headSpec) error {
	start := max(size-spec.n, 0)
	if !spec.bytes {
		var err error
		if start, err = tailLinesStart(f, size, spec.n, spec.delim); err != nil {
			return err
		}
	}
	if _, err := f.Seek(start, io.SeekStart); err != nil {
		return err
	}
	_, err := io.Copy(tailWriter{w}, f)
	return err
}

// tailWriter marks write errors of io.Copy as such.
type tailWriter struct{ w io.Writer }

func (t tailWriter) Write(b []byte) (int, error) {
	n, err := t.w.Write(b)
	if err != nil {
		err = &headWriteError{err}
	}
	return n, err
}

// tailLinesStart finds the offset where the last n lines begin.
func tailLinesStart(f io.ReadSeeker, size, n int64, delim byte) (int64, error) {
	const block = 64 << 10
	buf := make([]byte, block)
	end := size
	first := true
	for end > 0 {
		off := max(end-block, 0)
		chunk := buf[:end-off]
		if _, err := f.Seek(off, io.SeekStart); err != nil {
			return 0, err
		}
		if _, err := io.ReadFull(f, chunk); err != nil {
			return 0, err
		}
		if first {
			// A final delimiter ends the last line; it does not
			// start another.
			first = false
			if len(chunk) > 0 && chunk[len(chunk)-1] == delim {
				chunk = chunk[:len(chunk)-1]
			}
		}
		for {
			i := bytes.LastIndexByte(chunk, delim)
			if i < 0 {
				break
			}
			n--
			if n == 0 {
				return off + int64(i) + 1, nil
			}
			chunk = chunk[:i]
		}
		end = off
	}
	return 0, nil
}

func tailStreamBytes(ctx context.Context, r io.Reader, w *bufio.Writer, n int64) error {
	var keep []byte
	buf := make([]byte, 64<<10)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		k, done, err := headRead(r, buf)
		keep = append(keep, buf[:k]...)
		if int64(len(keep)) > n+int64(len(buf)) {
			keep = keep[:copy(keep, keep[int64(len(keep))-n:])]
		}
		if err != nil {
			return err
		}
		if done {
			if int64(len(keep)) > n {
				keep = keep[int64(len(keep))-n:]
			}
			return headWrite(w, keep)
		}
	}
}

// tailStreamLines keeps the last n lines of a stream. It trims the kept
// data only once it holds well over n lines, so trimming stays linear.
func tailStreamLines(ctx context.Context, r io.Reader, w *bufio.Writer, n int64, delim byte) error {
	var keep []byte
	var count int64 // delimiters in keep
	buf := make([]byte, 64<<10)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		k, done, err := headRead(r, buf)
		keep = append(keep, buf[:k]...)
		count += int64(bytes.Count(buf[:k], []byte{delim}))
		if err != nil {
			return err
		}
		if done {
			lines := count
			if len(keep) > 0 && keep[len(keep)-1] != delim {
				lines++
			}
			if lines > n {
				keep = keep[headCutLines(keep, lines-n, delim):]
			}
			return headWrite(w, keep)
		}
		if count > 2*n+1024 {
			cut := headCutLines(keep, count-n, delim)
			keep = keep[:copy(keep, keep[cut:])]
			count = n
		}
	}
}
