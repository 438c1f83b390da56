package builtins

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"github.com/sandsh/sandsh/builtins/internal/guard"
	"io"
	"strconv"
	"strings"
)

const dataCmpUsage = `Usage: cmp [OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]
Compare two files byte by byte.

The optional SKIP1 and SKIP2 specify the number of bytes to skip
at the beginning of each file (zero by default).

  -b, --print-bytes          print differing bytes
  -i, --ignore-initial=SKIP         skip first SKIP bytes of both inputs
  -i, --ignore-initial=SKIP1:SKIP2  skip first SKIP1 bytes of FILE1 and
                                      first SKIP2 bytes of FILE2
  -l, --verbose              output byte numbers and differing byte values
  -n, --bytes=LIMIT          compare at most LIMIT bytes
  -s, --quiet, --silent      suppress all normal output

If a FILE is '-' or missing, read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.
`

// dataCmpOpts are cmp's parsed options.
type dataCmpOpts struct {
	printBytes, verbose, silent bool
	limit                       int64 // -1: no limit
	skip                        [2]int64
}

var cmpGetopt = Getopt{Short: "bi:ln:sv", Long: []string{"print-bytes", "ignore-initial=", "verbose", "bytes=", "quiet", "silent"},
	LongAlias: map[string]string{"print-bytes": "b", "ignore-initial": "i", "verbose": "l", "bytes": "n", "quiet": "s", "silent": "s"}}

func runCmp(ctx context.Context, env *Env, args []string) int {
	g := cmpGetopt
	opts, ops, err := g.Parse(args[1:])
	if err != nil {
		fmt.Fprintf(env.Stderr, "cmp: %v\ncmp: Try 'cmp --help' for more information.\n", err)
		return 2
	}
	o := dataCmpOpts{limit: -1}
	bad := func(what, v string) int {
		fmt.Fprintf(env.Stderr, "cmp: invalid %s value '%s'\ncmp: Try 'cmp --help' for more information.\n", what, v)
		return 2
	}
	for _, op := range opts {
		switch op.Name {
		case "b":
			o.printBytes = true
		case "l":
			o.verbose = true
		case "s":
			o.silent = true
		case "v":
			fmt.Fprintln(env.Stdout, "cmp (GNU diffutils) 3.8")
			return 0
		case "n":
			n, ok := dataParseSize(op.Value)
			if !ok {
				return bad("--bytes", op.Value)
			}
			o.limit = n
		case "i":
			a, b, two := strings.Cut(op.Value, ":")
			x, ok1 := dataParseSize(a)
			y, ok2 := x, true
			if two {
				y, ok2 = dataParseSize(b)
			}
			if !ok1 || !ok2 {
				return bad("--ignore-initial", op.Value)
			}
			o.skip = [2]int64{x, y}
		}
	}
	if o.silent && o.verbose {
		fmt.Fprintf(env.Stderr, "cmp: options -l and -s are incompatible\ncmp: Try 'cmp --help' for more information.\n")
		return 2
	}
	switch {
	case len(ops) == 0:
		fmt.Fprintf(env.Stderr, "cmp: missing operand after 'cmp'\ncmp: Try 'cmp --help' for more information.\n")
		return 2
	case len(ops) > 4:
		fmt.Fprintf(env.Stderr, "cmp: extra operand '%s'\ncmp: Try 'cmp --help' for more information.\n", ops[4])
		return 2
	}
	names := [2]string{ops[0], "-"}
	if len(ops) > 1 {
		names[1] = ops[1]
	}
	for i := 2; i < len(ops); i++ {
		n, ok := dataParseSize(ops[i])
		if !ok {
			return bad("--ignore-initial", ops[i])
		}
		o.skip[i-2] = n
	}
	var rs [2]*bufio.Reader
	var sizes [2]int64
	for i, n := range names {
		f, err := dataOpen(env, n)
		if err != nil {
			env.FileError("cmp", n, err)
			return 2
		}
		defer f.Close()
		sizes[i] = -1
		if n != "-" {
			if fi, err := env.FS.Stat(env.Abs(n)); err == nil && fi.Mode().IsRegular() {
				sizes[i] = max(fi.Size()-o.skip[i], 0)
			}
		}
		// Each read checks ctx: -i may skip up to 2^63-1 bytes of an
		// endless input.
		rs[i] = bufio.NewReaderSize(guard.Reader(ctx, f), dataBufSize)
		if _, err := io.CopyN(io.Discard, rs[i], o.skip[i]); err != nil && err != io.EOF {
			if ctxDone(err) {
				return 2
			}
			env.FileError("cmp", n, err)
			return 2
		}
	}
	w := dataWriter(env)
	st := dataCmpStreams(ctx, env, w, names, rs, sizes, &o)
	if err := w.Flush(); err != nil {
		return env.WriteError("cmp", err)
	}
	return st
}

// dataCmpStreams compares the two readers and reports like GNU cmp.
func dataCmpStreams(ctx context.Context, env *Env, w *bufio.Writer, names [2]string, rs [2]*bufio.Reader, sizes [2]int64, o *dataCmpOpts) int {
	width := 1
	if o.verbose {
		maxN := int64(1<<63 - 1)
		if o.limit >= 0 {
			maxN = o.limit
		}
		for _, s := range sizes {
			if s >= 0 && s < maxN {
				maxN = s
			}
		}
		width = len(strconv.FormatInt(maxN, 10))
	}
	// In the C locale GNU cmp says "char" (as POSIX requires) except with -b.
	unit := "byte"
	if dataCLocale(env) {
		unit = "char"
	}
	var pos, lines int64 // bytes compared equal so far, newlines among them
	var last byte
	differ := false
	for o.limit < 0 || pos < o.limit {
		if ctx.Err() != nil {
			return 130
		}
		// Fast path: skip the common prefix of what both buffers hold.
		if k := dataCmpSkipEqual(rs, o.limit-pos, o.limit >= 0); k > 0 {
			p, _ := rs[0].Peek(k)
			lines += int64(bytes.Count(p, []byte{'\n'}))
			last = p[k-1]
			rs[0].Discard(k)
			rs[1].Discard(k)
			pos += int64(k)
			continue
		}
		a, errA := rs[0].ReadByte()
		b, errB := rs[1].ReadByte()
		if errA != nil || errB != nil {
			if errA != nil && errB != nil {
				break
			}
			short := 0
			if errB != nil {
				short = 1
			}
			if e := [2]error{errA, errB}[short]; e != io.EOF {
				env.FileError("cmp", names[short], e)
				return 2
			}
			if !o.silent {
				w.Flush()
				switch {
				case pos == 0:
					fmt.Fprintf(env.Stderr, "cmp: EOF on %s which is empty\n", names[short])
				case o.verbose:
					fmt.Fprintf(env.Stderr, "cmp: EOF on %s after byte %d\n", names[short], pos)
				case last == '\n':
					fmt.Fprintf(env.Stderr, "cmp: EOF on %s after byte %d, line %d\n", names[short], pos, lines)
				default:
					fmt.Fprintf(env.Stderr, "cmp: EOF on %s after byte %d, in line %d\n", names[short], pos, lines+1)
				}
			}
			return 1
		}
		pos++
		if a != b {
			differ = true
			switch {
			case o.silent:
				return 1
			case o.verbose:
				if o.printBytes {
					fmt.Fprintf(w, "%*d %3o %-4s %3o %s\n", width, pos, a, dataCmpChar(a), b, dataCmpChar(b))
				} else {
					fmt.Fprintf(w, "%*d %3o %3o\n", width, pos, a, b)
				}
			default:
				if o.printBytes {
					fmt.Fprintf(w, "%s %s differ: byte %d, line %d is %3o %s %3o %s\n", names[0], names[1], pos, lines+1, a, dataCmpChar(a), b, dataCmpChar(b))
				} else {
					fmt.Fprintf(w, "%s %s differ: %s %d, line %d\n", names[0], names[1], unit, pos, lines+1)
				}
				return 1
			}
		}
		if a == '\n' {
			lines++
		}
		last = a
	}
	if differ {
		return 1
	}
	return 0
}

// dataCmpSkipEqual returns how many leading buffered bytes the two
// readers share, without reading more input.
func dataCmpSkipEqual(rs [2]*bufio.Reader, left int64, limited bool) int {
	n := min(rs[0].Buffered(), rs[1].Buffered())
	if limited && int64(n) > left {
		n = int(left)
	}
	if n == 0 {
		return 0
	}
	a, _ := rs[0].Peek(n)
	b, _ := rs[1].Peek(n)
	k := 0
	for k+8 <= n && string(a[k:k+8]) == string(b[k:k+8]) {
		k += 8
	}
	for k < n && a[k] == b[k] {
		k++
	}
	return k
}

// dataCmpChar shows a byte like GNU cmp -b: ^X for controls, M- for
// bytes with the high bit set.
func dataCmpChar(c byte) string {
	var b []byte
	if c >= 128 {
		b = append(b, 'M', '-')
		c -= 128
	}
	switch {
	case c < 32:
		b = append(b, '^', c+64)
	case c == 127:
		b = append(b, '^', '?')
	default:
		b = append(b, c)
	}
	return string(b)
}

// dataParseSize parses a byte count with GNU's optional suffixes
// (K, M, G... powers of 1024; kB, MB... powers of 1000).
func dataParseSize(s string) (int64, bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, false
	}
	suf := s[i:]
	if suf == "" {
		return n, true
	}
	const units = "KMGTPEZY"
	k := strings.IndexByte(units, strings.ToUpper(suf[:1])[0])
	if suf[0] == 'k' {
		k = 0
	}
	if k < 0 {
		if suf == "b" {
			return n * 512, true
		}
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
	for ; k >= 0; k-- {
		if n > (1<<63-1)/base {
			return 1<<63 - 1, true
		}
		n *= base
	}
	return n, true
}
