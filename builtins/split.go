package builtins

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/afero"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
	"github.com/sandsh/sandsh/builtins/internal/guard"
)

const splitUsage = `Usage: split [OPTION]... [FILE [PREFIX]]
Output pieces of FILE to PREFIXaa, PREFIXab, ...;
default size is 1000 lines, and default PREFIX is 'x'.

With no FILE, or when FILE is -, read standard input.

  -a, --suffix-length=N   generate suffixes of length N (default 2)
      --additional-suffix=SUFFIX  append an additional SUFFIX to file names
  -b, --bytes=SIZE        put SIZE bytes per output file
  -C, --line-bytes=SIZE   put at most SIZE bytes of records per output file
  -d                      use numeric suffixes starting at 0, not alphabetic
      --numeric-suffixes[=FROM]  same as -d, but allow setting the start value
  -x                      use hex suffixes starting at 0, not alphabetic
      --hex-suffixes[=FROM]  same as -x, but allow setting the start value
  -e, --elide-empty-files  do not generate empty output files with '-n'
  -l, --lines=NUMBER      put NUMBER lines/records per output file
  -n, --number=CHUNKS     generate CHUNKS output files; see explanation below
  -t, --separator=SEP     use SEP instead of newline as the record separator;
                            '\0' (zero) specifies the NUL character
  -u, --unbuffered        (ignored)
      --verbose           print a diagnostic just before each
                            output file is opened
      --help     display this help and exit

CHUNKS may be:
  N       split into N files based on size of input
  K/N     output Kth of N to stdout
  l/N     split into N files without splitting lines/records
  l/K/N   output Kth of N to stdout without splitting lines/records
  r/N     like 'l' but use round robin distribution
  r/K/N   likewise but only output Kth of N to stdout
`

var splitGetopt = Getopt{
	Same:  map[string]string{"numeric-suffixes": "d", "hex-suffixes": "x"},
	Short: "a:b:C:dxel:n:t:u",
	Long: []string{"suffix-length=", "additional-suffix=", "bytes=", "line-bytes=", "numeric-suffixes?",
		"hex-suffixes?", "elide-empty-files", "lines=", "number=", "separator=", "unbuffered", "verbose", "filter="},
	LongAlias: map[string]string{"suffix-length": "a", "bytes": "b", "line-bytes": "C", "elide-empty-files": "e",
		"lines": "l", "number": "n", "separator": "t", "unbuffered": "u"},
}

type splitRun struct {
	ctx     context.Context
	env     *Env
	prefix  string
	suffix  string // --additional-suffix
	alpha   string // suffix alphabet
	sufLen  int
	auto    bool  // widen suffixes when they run out (no -a)
	idx     []int // current suffix digits
	first   bool
	verbose bool
	elide   bool
	sep     byte
	lines   *textLines // -C reads whole records

	cur     afero.File
	curW    *bufio.Writer
	curName string
}

func runSplit(ctx context.Context, env *Env, args []string) int {
	opts, operands, err := splitGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("split", err, 1)
	}
	r := &splitRun{ctx: ctx, env: env, prefix: "x", alpha: "abcdefghijklmnopqrstuvwxyz", sufLen: 2, auto: true,
		first: true, sep: '\n'}
	mode, amount := byte('l'), int64(1000)
	chunkSpec, start := "", 0
	for _, o := range opts {
		switch o.Name {
		case "a":
			n, err := strconv.Atoi(o.Value)
			if err != nil || n < 0 {
				env.Errorf("split", "%s: invalid suffix length", fileutil.Quote(o.Value))
				return 1
			}
			r.sufLen, r.auto = n, false
		case "additional-suffix":
			if strings.Contains(o.Value, "/") {
				env.Errorf("split", "invalid suffix %s, contains directory separator", fileutil.Quote(o.Value))
				return env.UsageError("split", errors.New("invalid suffix"), 1)
			}
			r.suffix = o.Value
		case "b", "C", "l":
			n, err := fileutil.ParseSize(o.Value)
			if err != nil || n <= 0 {
				what := map[string]string{"b": "bytes", "C": "bytes", "l": "lines"}[o.Name]
				env.Errorf("split", "invalid number of %s: %s", what, fileutil.Quote(o.Value))
				return 1
			}
			mode, amount = o.Name[0], n
		case "d", "numeric-suffixes":
			r.alpha = "0123456789"
			if o.HasValue {
				if start, err = strconv.Atoi(o.Value); err != nil || start < 0 {
					env.Errorf("split", "%s: invalid start value for numerical suffix", fileutil.Quote(o.Value))
					return 1
				}
			}
		case "x", "hex-suffixes":
			r.alpha = "0123456789abcdef"
			if o.HasValue {
				v, err := strconv.ParseInt(o.Value, 10, 64)
				if err != nil || v < 0 {
					env.Errorf("split", "%s: invalid start value for hexadecimal suffix", fileutil.Quote(o.Value))
					return 1
				}
				start = int(v)
			}
		case "e":
			r.elide = true
		case "n":
			mode, chunkSpec = 'n', o.Value
		case "t":
			switch {
			case o.Value == `\0`:
				r.sep = 0
			case len(o.Value) == 1:
				r.sep = o.Value[0]
			default:
				env.Errorf("split", "multi-character separator %s", fileutil.Quote(o.Value))
				return 1
			}
		case "verbose":
			r.verbose = true
		case "filter":
			env.Errorf("split", "--filter is not supported in the sandbox")
			return 1
		}
	}
	input := "-"
	switch len(operands) {
	case 0:
	case 1:
		input = operands[0]
	case 2:
		input, r.prefix = operands[0], operands[1]
	default:
		return env.UsageError("split", fmt.Errorf("extra operand %s", fileutil.Quote(operands[2])), 1)
	}
	var in io.Reader
	var size int64 = -1
	if input == "-" {
		in = env.Stdin
	} else {
		f, err := env.Open(input)
		if err != nil {
			env.Errorf("split", "cannot open %s for reading: %s", fileutil.Quote(input), ErrText(err))
			return 1
		}
		defer f.Close()
		if fi, err := filesStat(env, input); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
		in = f
	}
	var st int
	if mode == 'n' {
		st = r.runChunks(chunkSpec, in, size, input)
	} else {
		if err := r.initSuffix(start, 0); err != nil {
			env.Errorf("split", "%v", err)
			return 1
		}
		st = r.runStream(mode, amount, in, input)
	}
	if err := r.closeCur(); err != nil && st == 0 {
		st = r.writeFail(err)
	}
	return st
}

// initSuffix sets the first suffix to start (in the suffix alphabet);
// files is the number of files -n will make, which must fit.
func (r *splitRun) initSuffix(start, files int) error {
	base := len(r.alpha)
	if files > 0 && r.auto {
		// Widen until base^need covers start+files; the bound stops the
		// product before it overflows (-n 9223372036854775807).
		need, cap, want := 1, base, uint64(files)+uint64(start)
		for uint64(cap) < want && cap <= math.MaxInt/base {
			cap *= base
			need++
		}
		if uint64(cap) < want {
			need++
		}
		r.sufLen = max(r.sufLen, need)
	}
	if files > 0 || start > 0 {
		r.auto = false
	}
	r.idx = make([]int, r.sufLen)
	v := start
	for i := r.sufLen - 1; i >= 0; i-- {
		r.idx[i] = v % base
		v /= base
	}
	if v > 0 || r.sufLen == 0 && (start > 0 || files > 1) {
		return errors.New("output file suffixes exhausted")
	}
	return nil
}

// nextName returns the next output file name, widening the suffix the
// way GNU does when its length was not given ("yz" is followed by "zaaa").
func (r *splitRun) nextName() (string, error) {
	if !r.first {
		i := len(r.idx) - 1
		for ; i >= 0; i-- {
			r.idx[i]++
			if r.auto && i == 0 && r.idx[0] == len(r.alpha)-1 {
				r.prefix += string(r.alpha[r.idx[0]])
				r.idx = make([]int, len(r.idx)+1)
				break
			}
			if r.idx[i] < len(r.alpha) {
				break
			}
			r.idx[i] = 0
		}
		if i < 0 {
			return "", errors.New("output file suffixes exhausted")
		}
	}
	r.first = false
	var b strings.Builder
	b.WriteString(r.prefix)
	for _, d := range r.idx {
		b.WriteByte(r.alpha[d])
	}
	b.WriteString(r.suffix)
	return b.String(), nil
}

// openNext closes the current output and starts the next file.
func (r *splitRun) openNext() error {
	if err := r.closeCur(); err != nil {
		return err
	}
	name, err := r.nextName()
	if err != nil {
		return err
	}
	if r.verbose {
		fmt.Fprintf(r.env.Stdout, "creating file %s\n", fileutil.Quote(name))
	}
	f, err := filesCreate(r.env.FS, r.env.Abs(name), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return fmt.Errorf("%s: %s", fileutil.QuoteIf(name), ErrText(err))
	}
	r.cur, r.curName = f, name
	if r.curW == nil {
		r.curW = bufio.NewWriterSize(f, filesBufSize)
	} else {
		r.curW.Reset(f)
	}
	return nil
}

func (r *splitRun) closeCur() error {
	if r.cur == nil {
		return nil
	}
	err := r.curW.Flush()
	if cerr := r.cur.Close(); err == nil {
		err = cerr
	}
	r.cur = nil
	if err != nil {
		return fmt.Errorf("%s: %s", fileutil.QuoteIf(r.curName), ErrText(err))
	}
	return nil
}

func (r *splitRun) writeFail(err error) int {
	if ctxDone(err) {
		return 130
	}
	r.env.Errorf("split", "%v", err)
	return 1
}

// runStream handles -l, -b and -C, which need no input size.
func (r *splitRun) runStream(mode byte, amount int64, in io.Reader, input string) int {
	br := bufio.NewReaderSize(in, filesBufSize)
	var left int64 // room left in the current file (bytes or lines)
	var err error
	for n := 0; ; n++ {
		if n&1023 == 0 && r.ctx.Err() != nil {
			return 130
		}
		switch mode {
		case 'b':
			err = r.streamBytes(br, amount, &left)
		case 'l':
			err = r.streamLines(br, amount, &left)
		case 'C':
			err = r.streamLineBytes(br, amount, &left)
		}
		if err == io.EOF {
			return 0
		}
		if err != nil {
			var rerr splitReadErr
			if errors.As(err, &rerr) {
				r.env.Errorf("split", "%s: %s", fileutil.QuoteIf(input), ErrText(rerr.err))
				return 1
			}
			return r.writeFail(err)
		}
	}
}

type splitReadErr struct{ err error }

func (e splitReadErr) Error() string { return e.err.Error() }

// streamBytes copies up to one buffer of input into files of amount bytes.
func (r *splitRun) streamBytes(br *bufio.Reader, amount int64, left *int64) error {
	buf, err := br.Peek(br.Buffered())
	if len(buf) == 0 {
		if _, err = br.Peek(1); err != nil {
			if err == io.EOF {
				return io.EOF
			}
			return splitReadErr{err}
		}
		buf, _ = br.Peek(br.Buffered())
	}
	for len(buf) > 0 {
		if *left == 0 {
			if err := r.openNext(); err != nil {
				return err
			}
			*left = amount
		}
		n := int64(len(buf))
		if n > *left {
			n = *left
		}
		if _, err := r.curW.Write(buf[:n]); err != nil {
			return fmt.Errorf("%s: %s", fileutil.QuoteIf(r.curName), ErrText(err))
		}
		br.Discard(int(n))
		buf = buf[n:]
		*left -= n
	}
	return nil
}

// streamLines copies one record into files of amount records.
func (r *splitRun) streamLines(br *bufio.Reader, amount int64, left *int64) error {
	line, err := br.ReadSlice(r.sep)
	if len(line) > 0 {
		if *left == 0 {
			if err := r.openNext(); err != nil {
				return err
			}
			*left = amount
		}
		if _, werr := r.curW.Write(line); werr != nil {
			return fmt.Errorf("%s: %s", fileutil.QuoteIf(r.curName), ErrText(werr))
		}
		if err == nil {
			*left--
		}
	}
	switch err {
	case nil, bufio.ErrBufferFull:
		return nil
	case io.EOF:
		return io.EOF
	}
	return splitReadErr{err}
}

// streamLineBytes is -C: whole records up to amount bytes per file; a
// record longer than that is split like -b.
func (r *splitRun) streamLineBytes(br *bufio.Reader, amount int64, left *int64) error {
	if r.lines == nil {
		// Whole records, bounded like every line (Env.MaxLine).
		r.lines = newTextLines(r.ctx, r.env, br, r.sep)
	}
	line, err := r.lines.Next()
	if err != nil && err != io.EOF {
		return splitReadErr{err}
	}
	for len(line) > 0 {
		if int64(len(line)) > *left && (*left < amount || r.cur == nil) {
			if r.cur == nil || *left < amount {
				if err := r.openNext(); err != nil {
					return err
				}
				*left = amount
			}
		}
		n := int64(len(line))
		if n > *left {
			n = *left
		}
		if _, werr := r.curW.Write(line[:n]); werr != nil {
			return fmt.Errorf("%s: %s", fileutil.QuoteIf(r.curName), ErrText(werr))
		}
		line = line[n:]
		*left -= n
		if len(line) > 0 {
			*left = 0
			if err := r.openNext(); err != nil {
				return err
			}
			*left = amount
		}
	}
	switch err {
	case nil:
		return nil
	case io.EOF:
		return io.EOF
	}
	return splitReadErr{err}
}

// runChunks handles -n: N, K/N, l/N, l/K/N, r/N, r/K/N.
func (r *splitRun) runChunks(spec string, in io.Reader, size int64, input string) int {
	kind := byte('b')
	s := spec
	if strings.HasPrefix(s, "l/") || strings.HasPrefix(s, "r/") {
		kind, s = s[0], s[2:]
	}
	var k, n int64
	var err error
	if a, b, ok := strings.Cut(s, "/"); ok {
		k, err = strconv.ParseInt(a, 10, 64)
		if err == nil {
			n, err = strconv.ParseInt(b, 10, 64)
		}
		if err == nil && (k < 1 || k > n) {
			r.env.Errorf("split", "invalid chunk number: %s", fileutil.Quote(a))
			return 1
		}
	} else {
		n, err = strconv.ParseInt(s, 10, 64)
	}
	if err != nil || n < 1 {
		r.env.Errorf("split", "invalid number of chunks: %s", fileutil.Quote(s))
		return 1
	}
	if kind != 'r' {
		if size < 0 {
			if st, ok := in.(interface{ Stat() (fs.FileInfo, error) }); ok {
				if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
					size = fi.Size()
				}
			}
		}
		if size < 0 {
			r.env.Errorf("split", "%s: cannot determine file size", fileutil.QuoteIf(input))
			return 1
		}
	}
	if k == 0 {
		if err := r.initSuffix(0, int(n)); err != nil {
			r.env.Errorf("split", "%v", err)
			return 1
		}
	}
	switch kind {
	case 'b':
		return r.byteChunks(in, size, k, n)
	case 'l':
		return r.lineChunks(in, size, k, n)
	}
	return r.roundRobin(in, k, n)
}

// chunkOut is the writer for chunk i (0-based): a file, stdout for K/N
// when i is K-1, or nothing.
func (r *splitRun) chunkOut(i, k int64, stdout *bufio.Writer) io.Writer {
	if k > 0 {
		if i == k-1 {
			return stdout
		}
		return io.Discard
	}
	return r.curW
}

func (r *splitRun) byteChunks(in io.Reader, size, k, n int64) int {
	chunk := max(size/n, 1)
	stdout := filesNewWriter(r.env.Stdout)
	br := bufio.NewReaderSize(in, filesBufSize)
	remaining := size
	m := guard.NewMeter(r.ctx)
	for i := int64(0); i < n; i++ {
		// Each chunk is a file to create even when it is empty: the
		// check counts it as work, so -n 9223372036854775807 stops on
		// time (or at --max-files).
		if err := m.Add(1 << 10); err != nil {
			return r.writeFail(err)
		}
		want := min(chunk, remaining)
		if i == n-1 {
			want = remaining
		}
		if k == 0 && !(r.elide && want == 0) {
			if err := r.openNext(); err != nil {
				return r.writeFail(err)
			}
		}
		if want > 0 {
			w := r.chunkOut(i, k, stdout)
			if _, err := io.CopyN(filesCtxWriter{r.ctx, w}, br, want); err != nil && err != io.EOF {
				return r.writeFail(err)
			}
		}
		remaining -= want
	}
	if err := stdout.Flush(); err != nil {
		return r.env.WriteError("split", err)
	}
	return 0
}

func (r *splitRun) lineChunks(in io.Reader, size, k, n int64) int {
	chunk := max(size/n, 1)
	stdout := filesNewWriter(r.env.Stdout)
	br := bufio.NewReaderSize(in, filesBufSize)
	var off, cur int64 = 0, -1
	// open moves to chunk to, creating the files of the chunks passed
	// over (empty ones only without -e).
	m := guard.NewMeter(r.ctx)
	open := func(to int64) error {
		for cur < to {
			if err := m.Add(1 << 10); err != nil {
				return err
			}
			cur++
			if k == 0 && (!r.elide || cur == to) {
				if err := r.openNext(); err != nil {
					return err
				}
			}
		}
		return nil
	}
	lr := newTextLines(r.ctx, r.env, br, r.sep)
	for lines := 0; ; lines++ {
		if lines&1023 == 0 && r.ctx.Err() != nil {
			return 130
		}
		line, err := lr.Next()
		if err != nil && err != io.EOF {
			return r.writeFail(err)
		}
		if len(line) > 0 {
			if c := min(off/chunk, n-1); c > cur {
				if err := open(c); err != nil {
					return r.writeFail(err)
				}
			}
			if _, werr := r.chunkOut(cur, k, stdout).Write(line); werr != nil {
				return r.writeFail(werr)
			}
			off += int64(len(line))
		}
		if err != nil {
			break
		}
	}
	if !r.elide {
		if err := open(n - 1); err != nil {
			return r.writeFail(err)
		}
	}
	if err := stdout.Flush(); err != nil {
		return r.env.WriteError("split", err)
	}
	return 0
}

// roundRobin deals records to the n outputs in turn.
func (r *splitRun) roundRobin(in io.Reader, k, n int64) int {
	stdout := filesNewWriter(r.env.Stdout)
	var files []afero.File
	var ws []*bufio.Writer
	if k == 0 {
		for i := int64(0); i < n; i++ {
			if i&255 == 0 && r.ctx.Err() != nil {
				return 130
			}
			name, err := r.nextName()
			if err != nil {
				return r.writeFail(err)
			}
			if r.verbose {
				fmt.Fprintf(r.env.Stdout, "creating file %s\n", fileutil.Quote(name))
			}
			f, err := filesCreate(r.env.FS, r.env.Abs(name), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
			if err != nil {
				return r.writeFail(fmt.Errorf("%s: %s", fileutil.QuoteIf(name), ErrText(err)))
			}
			files = append(files, f)
			// Buffers come with the first record: many outputs
			// (r/9223372036854775807) must not cost 16 KiB each.
			ws = append(ws, nil)
		}
	}
	lr := newTextLines(r.ctx, r.env, in, r.sep)
	status := 0
	for i := int64(0); ; i++ {
		if i&1023 == 0 && r.ctx.Err() != nil {
			status = 130
			break
		}
		line, err := lr.Next()
		if err != nil && err != io.EOF {
			status = r.writeFail(err)
			break
		}
		if len(line) > 0 {
			var w io.Writer = io.Discard
			switch {
			case k == 0:
				if ws[i%n] == nil {
					ws[i%n] = bufio.NewWriterSize(files[i%n], 16<<10)
				}
				w = ws[i%n]
			case i%n == k-1:
				w = stdout
			}
			if _, werr := w.Write(line); werr != nil {
				status = r.writeFail(werr)
				break
			}
		}
		if err != nil {
			break
		}
	}
	for i, f := range files {
		if ws[i] != nil {
			ws[i].Flush()
		}
		f.Close()
	}
	if err := stdout.Flush(); err != nil {
		return r.env.WriteError("split", err)
	}
	return status
}
