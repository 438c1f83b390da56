package builtins

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/sandsh/sandsh/builtins/internal/guard"
	"github.com/sandsh/sandsh/vfs"
)

const tailUsage = `Usage: tail [OPTION]... [FILE]...
Print the last 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.

With no FILE, or when FILE is -, read standard input.

  -c, --bytes=[+]NUM       output the last NUM bytes; or use -c +NUM to
                             output starting with byte NUM of each file
  -f, --follow[={name|descriptor}]
                           output appended data as the file grows;
                             it ends with the run's timeout, an interrupt,
                             or --pid
  -F                       same as --follow=name --retry
  -n, --lines=[+]NUM       output the last NUM lines, instead of the last 10;
                             or use -n +NUM to skip NUM-1 lines at the start
  -q, --quiet, --silent    never output headers giving file names
      --pid=PID            with -f, terminate after process ID, PID dies
                             (a virtual pid of the run: $$, $!)
      --retry              keep trying to open a file if it is inaccessible
  -s, --sleep-interval=N   with -f, sleep for approximately N seconds
                             (default 1.0) between iterations
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
	var fol tailFollow
	for _, o := range opts {
		switch o.Name {
		case "f":
			fol.on = true
			switch o.Value {
			case "", "descriptor", "d", "de", "des", "desc":
			case "name", "n", "na", "nam":
				fol.byName = true
			default:
				return env.UsageError(name, fmt.Errorf("invalid argument %s for '--follow'", headQuote(o.Value)), 1)
			}
		case "F":
			fol.on, fol.byName, fol.retry = true, true, true
		case "retry":
			fol.retry = true
		case "s":
			d, ok := tailParseInterval(o.Value)
			if !ok {
				env.Errorf(name, "invalid number of seconds: %s", headQuote(o.Value))
				return 1
			}
			fol.interval = d
		case "pid":
			pid, err := strconv.ParseInt(o.Value, 10, 64)
			if err != nil || pid < 0 {
				env.Errorf(name, "invalid PID: %s", headQuote(o.Value))
				return 1
			}
			fol.pid = int(min(pid, math.MaxInt32))
		case "n", "c", "#":
			v := o.Value
			spec.bytes = o.Name == "c"
			if o.Name == "#" {
				// Obsolete -N[b|c|l][f]: follow is a no-op here, b
				// counts 512-byte blocks.
				if strings.HasSuffix(v, "f") {
					v, fol.on = v[:len(v)-1], true
				}
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
	if len(operands) == 0 {
		operands = []string{"-"}
	}
	offsets := map[string]int64{}
	spec.max = env.InputMax()
	st := headEach(ctx, env, name, operands, headers, func(w *bufio.Writer, r io.Reader, file string) error {
		err := tailCopy(ctx, r, w, spec, file != "-")
		if s, ok := r.(io.Seeker); ok && fol.on && err == nil && file != "-" {
			if off, serr := s.Seek(0, io.SeekCurrent); serr == nil {
				offsets[file] = off
			}
		}
		return err
	})
	if !fol.on || st > 1 {
		return st
	}
	show := headers > 0 || headers == 0 && len(operands) > 1
	return fol.run(ctx, env, operands, offsets, show, st)
}

// tailFollow is tail -f/-F: after the usual output, the files are polled
// on the sandbox filesystem (the script's own background jobs append to
// them) until the run is cancelled (timeout, interrupt) or --pid's
// process ends.
type tailFollow struct {
	on, byName, retry bool
	interval          time.Duration // 0: one second
	pid               int           // 0: none
}

// tailFollowed is one file being followed.
type tailFollowed struct {
	name   string
	off    int64
	ino    uint64
	gone   bool // could not be opened at the last poll
	active bool
}

// tailParseInterval parses -s N (seconds, a fraction allowed). A huge N
// saturates instead of overflowing time.Duration.
func tailParseInterval(v string) (time.Duration, bool) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 || math.IsNaN(f) {
		return 0, false
	}
	const most = float64(1<<62) / float64(time.Second)
	return time.Duration(min(f, most) * float64(time.Second)), true
}

func (t *tailFollow) run(ctx context.Context, env *Env, operands []string, offsets map[string]int64, show bool, status int) int {
	const name = "tail"
	interval := t.interval
	if interval == 0 {
		interval = time.Second
	}
	var files []*tailFollowed
	for _, op := range operands {
		if op == "-" {
			continue // a pipe cannot be followed (GNU ignores it too)
		}
		f := &tailFollowed{name: op, active: true}
		if off, ok := offsets[op]; ok {
			f.off = off
			if fi, err := env.FS.Stat(env.Abs(op)); err == nil {
				f.ino = vfs.MetaOf(fi).Ino
			}
		} else if !t.retry {
			continue // could not be opened and no --retry: not followed
		} else {
			f.gone = true
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		if len(operands) == 1 && operands[0] == "-" {
			return status
		}
		env.Errorf(name, "no files remaining")
		return 1
	}
	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	last := operands[len(operands)-1]
	buf := make([]byte, 64<<10)
	timer := time.NewTimer(interval)
	defer timer.Stop()
	for {
		// The pid is checked before the poll: after it dies, tail
		// prints what was appended up to then and ends, like GNU.
		pidDead := t.pid > 0 && (env.Alive == nil || !env.Alive(t.pid))
		for _, f := range files {
			if err := t.poll(ctx, env, w, f, buf, show, &last); err != nil {
				if ctxDone(err) {
					w.Flush()
					return 130
				}
				return env.WriteError(name, err)
			}
		}
		if err := w.Flush(); err != nil {
			return env.WriteError(name, err)
		}
		if pidDead {
			return status
		}
		timer.Reset(interval)
		select {
		case <-ctx.Done():
			return 130
		case <-timer.C:
		}
	}
}

// poll prints what was appended to f since the last poll. With
// --follow=name a file that was replaced or truncated is read again from
// the start, and one that went away is waited for.
func (t *tailFollow) poll(ctx context.Context, env *Env, w *bufio.Writer, f *tailFollowed, buf []byte, show bool, last *string) error {
	const name = "tail"
	fi, err := env.FS.Stat(env.Abs(f.name))
	if err != nil {
		if !f.gone && (t.byName || t.retry) {
			w.Flush()
			env.Errorf(name, "%s has become inaccessible: %s", headQuote(f.name), ErrText(err))
		}
		f.gone = true
		return nil
	}
	ino := vfs.MetaOf(fi).Ino
	switch {
	case f.gone:
		w.Flush()
		env.Errorf(name, "%s has appeared;  following new file", headQuote(f.name))
		f.gone, f.off, f.ino = false, 0, ino
	case t.byName && ino != f.ino:
		w.Flush()
		env.Errorf(name, "%s has been replaced;  following new file", headQuote(f.name))
		f.off, f.ino = 0, ino
	case fi.Size() < f.off:
		w.Flush()
		env.Errorf(name, "%s: file truncated", f.name)
		f.off = 0
	}
	if fi.Size() == f.off || fi.IsDir() {
		return nil
	}
	r, err := env.FS.Open(env.Abs(f.name))
	if err != nil {
		return nil // gone between the stat and the open: next poll
	}
	defer r.Close()
	if _, err := r.Seek(f.off, io.SeekStart); err != nil {
		return nil
	}
	m := guard.NewMeter(ctx)
	for {
		n, rerr := r.Read(buf)
		if n > 0 {
			if show && *last != f.name {
				fmt.Fprintf(w, "\n==> %s <==\n", f.name)
				*last = f.name
			}
			if _, err := w.Write(buf[:n]); err != nil {
				return err
			}
			f.off += int64(n)
			if err := m.Add(n); err != nil {
				return err
			}
		}
		if rerr != nil {
			return nil // EOF: the rest comes with the next poll
		}
	}
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
		return tailFrom(guard.Reader(ctx, r), w, spec)
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
		return tailStreamBytes(ctx, r, w, spec.n, spec.max)
	}
	return tailStreamLines(ctx, r, w, spec.n, spec.delim, spec.max)
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

func tailStreamBytes(ctx context.Context, r io.Reader, w *bufio.Writer, n int64, max int) error {
	var keep []byte
	buf := make([]byte, 64<<10)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		k, done, err := headRead(r, buf)
		keep = append(keep, buf[:k]...)
		if int64(len(keep))-int64(len(buf)) > n { // n may be near MaxInt64
			keep = keep[:copy(keep, keep[int64(len(keep))-n:])]
		}
		if max >= 0 && len(keep) > max && int64(len(keep)) <= n {
			return &guard.InputError{Max: max}
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
func tailStreamLines(ctx context.Context, r io.Reader, w *bufio.Writer, n int64, delim byte, max int) error {
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
		// Trim past 2n+1024 lines (written so that n near MaxInt64 does
		// not overflow), or sooner when the kept data passes the bound.
		if count-1024 > n && count-1024-n > n || max >= 0 && len(keep) > max && count > n {
			cut := headCutLines(keep, count-n, delim)
			keep = keep[:copy(keep, keep[cut:])]
			count = n
		}
		if max >= 0 && len(keep) > max {
			return &guard.InputError{Max: max}
		}
	}
}
