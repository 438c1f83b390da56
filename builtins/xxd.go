package builtins

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/sandsh/sandsh/builtins/internal/guard"
)

const dataXxdUsage = `Usage: xxd [options] [infile [outfile]]
    or
       xxd -r [-s [-]offset] [-c cols] [-ps] [infile [outfile]]
Options:
    -a          toggle autoskip: A single '*' replaces nul-lines. Default off.
    -b          binary digit dump (incompatible with -ps,-i,-r). Default hex.
    -c cols     format <cols> octets per line. Default 16 (-i: 12, -ps: 30).
    -g bytes    number of octets per group in normal output. Default 2.
    -i          output in C include file style.
    -l len      stop after <len> octets.
    -o off      add <off> to the displayed file position.
    -p          output in postscript plain hexdump style.
    -r          reverse operation: convert (or patch) hexdump into binary.
    -s [+][-]seek  start at <seek> bytes abs. infile offset.
    -u          use upper case hex letters.
`

// dataXxd holds xxd's options.
type dataXxd struct {
	autoskip, bits, include, plain, reverse, upper bool
	cols, group                                    int
	limit, seek, offset                            int64
	colsSet, groupSet                              bool
	name                                           string
}

func runXxd(ctx context.Context, env *Env, args []string) int {
	x := &dataXxd{limit: -1}
	var files []string
	// xxd's own parser: single-dash options, values attached or separate.
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "-" || !strings.HasPrefix(a, "-") || len(files) > 0 {
			files = append(files, a)
			continue
		}
		opt := strings.TrimLeft(a, "-")
		val := func() (string, bool) {
			if len(opt) > 1 && strings.ContainsRune("cglos", rune(opt[0])) {
				return opt[1:], true
			}
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return "", false
		}
		num := func() (int64, bool) {
			v, ok := val()
			if !ok {
				return 0, false
			}
			n, err := strconv.ParseInt(v, 0, 64)
			if err != nil {
				n, err = strconv.ParseInt(strings.TrimPrefix(v, "+"), 0, 64)
			}
			return n, err == nil
		}
		var ok bool
		switch {
		case opt == "a" || opt == "autoskip":
			x.autoskip = !x.autoskip
		case opt == "b" || opt == "bits":
			x.bits = true
		case opt == "i" || opt == "include":
			x.include = true
		case opt == "p" || opt == "ps" || opt == "postscript" || opt == "plain":
			x.plain = true
		case opt == "r" || opt == "revert":
			x.reverse = true
		case opt == "u" || opt == "uppercase":
			x.upper = true
		case opt == "rp" || opt == "pr":
			x.reverse, x.plain = true, true
		case opt == "v" || opt == "version":
			fmt.Fprintln(env.Stdout, "xxd 2022-01-14 by Juergen Weigert et al.")
			return 0
		case opt[0] == 'c':
			var n int64
			n, ok = num()
			if !ok || n < 0 || n > 256 {
				return dataXxdUsageError(env)
			}
			x.cols, x.colsSet = int(n), true
		case opt[0] == 'g':
			var n int64
			n, ok = num()
			if !ok || n < 0 {
				return dataXxdUsageError(env)
			}
			x.group, x.groupSet = int(n), true
		case opt[0] == 'l':
			if x.limit, ok = num(); !ok || x.limit < 0 {
				return dataXxdUsageError(env)
			}
		case opt[0] == 'o':
			if x.offset, ok = num(); !ok {
				return dataXxdUsageError(env)
			}
		case opt[0] == 's':
			if x.seek, ok = num(); !ok {
				return dataXxdUsageError(env)
			}
		default:
			return dataXxdUsageError(env)
		}
	}
	if len(files) > 2 {
		return dataXxdUsageError(env)
	}
	x.defaults()
	var in io.Reader = env.Stdin
	x.name = ""
	if len(files) > 0 && files[0] != "-" {
		f, err := env.Open(files[0])
		if err != nil {
			fmt.Fprintf(env.Stderr, "xxd: %s: %s\n", files[0], ErrText(err))
			return 2
		}
		defer f.Close()
		in, x.name = f, files[0]
	}
	out := env.Stdout
	var seeker io.Seeker
	if len(files) == 2 && files[1] != "-" {
		// Like xxd, -r patches an existing file in place instead of
		// truncating it.
		flags := dataCreateFlags
		if x.reverse {
			flags = os.O_RDWR | os.O_CREATE
		}
		f, err := env.FS.OpenFile(env.Abs(files[1]), flags, 0o644)
		if err != nil {
			fmt.Fprintf(env.Stderr, "xxd: %s: %s\n", files[1], ErrText(err))
			return 2
		}
		defer f.Close()
		out, seeker = f, f
	}
	w := bufio.NewWriterSize(out, dataBufSize)
	br := bufio.NewReaderSize(dataCtxReader{ctx, in}, dataBufSize)
	var err error
	switch {
	case x.reverse:
		err = x.revert(ctx, env, br, w, seeker)
	default:
		if x.seek > 0 {
			if _, err := io.CopyN(io.Discard, br, x.seek); err != nil && err != io.EOF {
				return env.WriteError("xxd", err)
			}
		}
		var r io.Reader = br
		if x.limit >= 0 {
			r = io.LimitReader(br, x.limit)
		}
		switch {
		case x.include:
			err = x.dumpInclude(r, w)
		case x.plain:
			err = x.dumpPlain(r, w)
		default:
			err = x.dump(r, w)
		}
	}
	if ferr := w.Flush(); ferr != nil {
		return env.WriteError("xxd", ferr)
	}
	if err != nil {
		var le *guard.LineError
		switch {
		case ctx.Err() != nil:
			return 130
		case errors.Is(err, errXxdSeek):
			fmt.Fprintf(env.Stderr, "xxd: %v.\n", err)
			return 4
		case errors.As(err, &le):
			fmt.Fprintf(env.Stderr, "xxd: %v\n", err)
			return 2
		}
		return env.WriteError("xxd", err)
	}
	return 0
}

func dataXxdUsageError(env *Env) int {
	fmt.Fprint(env.Stderr, dataXxdUsage)
	return 1
}

func (x *dataXxd) defaults() {
	if !x.colsSet || x.cols == 0 {
		switch {
		case x.plain:
			x.cols = 30
		case x.include:
			x.cols = 12
		case x.bits:
			x.cols = 6
		default:
			x.cols = 16
		}
	}
	if !x.groupSet {
		x.group = 2
		if x.bits {
			x.group = 1
		}
	}
	if x.group == 0 {
		x.group = x.cols
	}
}

func (x *dataXxd) hex() string {
	if x.upper {
		return "0123456789ABCDEF"
	}
	return "0123456789abcdef"
}

// dump writes the classic "00000000: 6162 6364  ab" lines.
func (x *dataXxd) dump(r io.Reader, w *bufio.Writer) error {
	hex := x.hex()
	perByte := 2
	if x.bits {
		perByte = 8
	}
	groups := (x.cols + x.group - 1) / x.group
	asciiCol := perByte*x.cols + groups + 1
	buf := make([]byte, x.cols)
	line := make([]byte, 0, asciiCol+x.cols+16)
	addr := x.seek + x.offset
	zeroRun := 0
	for {
		if werr := dataWriteErr(w); werr != nil {
			return werr
		}
		n, err := dataReadFull(r, buf)
		if err != nil {
			return err
		}
		if n == 0 {
			break
		}
		if x.autoskip && n == x.cols && dataAllZero(buf) {
			zeroRun++
			if zeroRun == 2 {
				w.WriteString("*\n")
			}
			if zeroRun >= 2 {
				addr += int64(n)
				continue
			}
		} else {
			zeroRun = 0
		}
		line = line[:0]
		line = dataAppendPadded(line, uint64(addr), 16, 8)
		line = append(line, ':', ' ')
		start := len(line)
		for i := 0; i < asciiCol; i++ {
			line = append(line, ' ')
		}
		pos := start
		for i := 0; i < n; i++ {
			c := buf[i]
			if x.bits {
				for b := 7; b >= 0; b-- {
					line[pos] = '0' + (c>>uint(b))&1
					pos++
				}
			} else {
				line[pos], line[pos+1] = hex[c>>4], hex[c&15]
				pos += 2
			}
			if (i+1)%x.group == 0 {
				pos++
			}
		}
		for i := 0; i < n; i++ {
			c := buf[i]
			if c < 32 || c > 126 {
				c = '.'
			}
			line = append(line, c)
		}
		line = append(line, '\n')
		w.Write(line)
		addr += int64(n)
		if n < x.cols {
			break
		}
	}
	if x.autoskip && zeroRun >= 2 {
		// xxd shows the last line of a skipped run so the length is visible.
		line = fmt.Appendf(line[:0], "%08x: ", addr-int64(x.cols))
		for i := 0; i < x.cols; i++ {
			if x.bits {
				line = append(line, "00000000"...)
			} else {
				line = append(line, '0', '0')
			}
			if (i+1)%x.group == 0 {
				line = append(line, ' ')
			}
		}
		for len(line) < 10+asciiCol {
			line = append(line, ' ')
		}
		line = append(line, strings.Repeat(".", x.cols)...)
		line = append(line, '\n')
		w.Write(line)
	}
	return nil
}

func dataAllZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

func (x *dataXxd) dumpPlain(r io.Reader, w *bufio.Writer) error {
	hex := x.hex()
	buf := make([]byte, dataBufSize)
	col := 0
	any := false
	for {
		if werr := dataWriteErr(w); werr != nil {
			return werr
		}
		n, err := r.Read(buf)
		for _, c := range buf[:n] {
			w.WriteByte(hex[c>>4])
			w.WriteByte(hex[c&15])
			any = true
			col++
			if col == x.cols {
				w.WriteByte('\n')
				col = 0
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if col > 0 || !any {
		if any {
			w.WriteByte('\n')
		}
	}
	return nil
}

func (x *dataXxd) dumpInclude(r io.Reader, w *bufio.Writer) error {
	hex := x.hex()
	varName := ""
	if x.name != "" {
		var b strings.Builder
		for i, c := range x.name {
			switch {
			case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' && i > 0:
				b.WriteRune(c)
			case c >= '0' && c <= '9':
				b.WriteString("__")
				b.WriteRune(c)
			default:
				b.WriteByte('_')
			}
		}
		varName = b.String()
		fmt.Fprintf(w, "unsigned char %s[] = {\n", varName)
	}
	buf := make([]byte, dataBufSize)
	total := 0
	prefix := "0x"
	if x.upper {
		prefix = "0X"
	}
	for {
		if werr := dataWriteErr(w); werr != nil {
			return werr
		}
		n, err := r.Read(buf)
		for _, c := range buf[:n] {
			switch {
			case total == 0:
				w.WriteString("  ")
			case total%x.cols == 0:
				w.WriteString(",\n  ")
			default:
				w.WriteString(", ")
			}
			w.WriteString(prefix)
			w.WriteByte(hex[c>>4])
			w.WriteByte(hex[c&15])
			total++
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if total > 0 {
		w.WriteByte('\n')
	}
	if varName != "" {
		fmt.Fprintf(w, "};\nunsigned int %s_len = %d;\n", varName, total)
	}
	return nil
}

func dataHexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// revert turns a hex dump back into bytes (-r, -r -p).
// errXxdSeek is xxd's message for an address it cannot reach.
var errXxdSeek = errors.New("sorry, cannot seek")

func (x *dataXxd) revert(ctx context.Context, env *Env, r *bufio.Reader, w *bufio.Writer, seeker io.Seeker) error {
	if x.plain {
		hi := -1
		for {
			c, err := r.ReadByte()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			v := dataHexVal(c)
			if v < 0 {
				continue
			}
			if hi < 0 {
				hi = v
			} else if err := w.WriteByte(byte(hi<<4 | v)); err != nil {
				return err
			} else {
				hi = -1
			}
		}
	}
	var pos int64 // bytes written so far
	lr := newTextLines(ctx, env, r, '\n')
	m := guard.NewMeter(ctx)
	var zeros []byte
	for {
		rec, err := lr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		line := string(rec)
		colon := strings.IndexByte(line, ':')
		if colon < 0 {
			continue
		}
		addr, perr := strconv.ParseInt(strings.TrimSpace(line[:colon]), 16, 64)
		if perr != nil {
			continue
		}
		delta := x.seek - x.offset
		if delta > 0 && addr > math.MaxInt64-delta || delta < 0 && addr < math.MinInt64-delta {
			return errXxdSeek
		}
		addr += delta
		if addr < 0 {
			return errXxdSeek
		}
		if addr != pos && seeker != nil {
			if err := w.Flush(); err != nil {
				return err
			}
			if _, err := seeker.Seek(addr, io.SeekStart); err != nil {
				return err
			}
			pos = addr
		}
		// Without a file to seek in, the gap is written as zeros:
		// in blocks, ending on the first write error (a closed pipe, a
		// full filesystem) and on cancellation.
		if pos < addr && zeros == nil {
			zeros = make([]byte, 32<<10)
		}
		for pos < addr {
			n := min(addr-pos, int64(len(zeros)))
			if _, err := w.Write(zeros[:n]); err != nil {
				return err
			}
			if err := m.Add(int(n)); err != nil {
				return err
			}
			pos += n
		}
		rest := line[colon+1:]
		hi, spaces, count := -1, 0, 0
		for i := 0; i < len(rest) && count < x.cols; i++ {
			c := rest[i]
			if c == '\n' {
				break
			}
			if c == ' ' {
				spaces++
				if spaces >= 2 && hi < 0 && count > 0 {
					break // two blanks end the hex columns
				}
				continue
			}
			spaces = 0
			v := dataHexVal(c)
			if v < 0 {
				break
			}
			if hi < 0 {
				hi = v
			} else {
				if err := w.WriteByte(byte(hi<<4 | v)); err != nil {
					return err
				}
				hi = -1
				pos++
				count++
			}
		}
	}
}
