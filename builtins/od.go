package builtins

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

const dataOdUsage = `Usage: od [OPTION]... [FILE]...
Write an unambiguous representation, octal bytes by default,
of FILE to standard output.  With more than one FILE argument,
concatenate them in the listed order to form the input.

With no FILE, or when FILE is -, read standard input.

  -A, --address-radix=RADIX   output format for file offsets; RADIX is one
                                of [doxn], for Decimal, Octal, Hex or None
  -j, --skip-bytes=BYTES      skip BYTES input bytes first
  -N, --read-bytes=BYTES      limit dump to BYTES input bytes
  -t, --format=TYPE           select output format or formats
  -v, --output-duplicates     do not use * to mark line suppression
  -w[BYTES], --width[=BYTES]  output BYTES bytes per output line;
                                32 is implied when BYTES is not specified

Traditional format specifications may be intermixed; they accumulate:
  -a   same as -t a,  select named characters, ignoring high-order bit
  -b   same as -t o1, select octal bytes
  -c   same as -t c,  select printable characters or backslash escapes
  -d   same as -t u2, select unsigned decimal 2-byte units
  -f   same as -t fF, select floats
  -i   same as -t dI, select decimal ints
  -l   same as -t dL, select decimal longs
  -o   same as -t o2, select octal 2-byte units
  -s   same as -t d2, select decimal 2-byte units
  -x   same as -t x2, select hexadecimal 2-byte units

TYPE is made up of one or more of these specifications:
  a          named character, ignoring high-order bit
  c          printable character or backslash escape
  d[SIZE]    signed decimal, SIZE bytes per integer
  f[SIZE]    floating point, SIZE bytes per float
  o[SIZE]    octal, SIZE bytes per integer
  u[SIZE]    unsigned decimal, SIZE bytes per integer
  x[SIZE]    hexadecimal, SIZE bytes per integer
Adding a z suffix to any type displays printable characters at the end
of each output line.
`

// dataOdSpec is one output format.
type dataOdSpec struct {
	kind  byte // a c d f o u x
	size  int
	width int // digits, without the separating space
	z     bool
	pad   int // extra padding spread over the fields of a line
}

func dataOdWidth(kind byte, size int) int {
	switch kind {
	case 'a', 'c':
		return 3
	case 'o':
		return (size*8 + 2) / 3
	case 'x':
		return size * 2
	case 'u':
		return len(strconv.FormatUint(1<<(uint(size)*8)-1, 10))
	case 'd':
		return len(strconv.FormatInt(-1<<(uint(size)*8-1), 10))
	case 'f':
		if size == 4 {
			return 15
		}
		return 24
	}
	return 0
}

// dataOdParseType parses a -t argument into specs.
func dataOdParseType(s string) ([]dataOdSpec, error) {
	var out []dataOdSpec
	orig := s
	for len(s) > 0 {
		k := s[0]
		s = s[1:]
		sp := dataOdSpec{kind: k}
		switch k {
		case 'a', 'c':
			sp.size = 1
		case 'd', 'o', 'u', 'x', 'f':
			sp.size = 4
			if k == 'f' {
				sp.size = 8
			}
			if len(s) > 0 {
				switch s[0] {
				case 'C':
					sp.size, s = 1, s[1:]
				case 'S':
					sp.size, s = 2, s[1:]
				case 'I':
					sp.size, s = 4, s[1:]
				case 'L':
					sp.size, s = 8, s[1:]
				case 'F':
					sp.size, s = 4, s[1:]
				case 'D':
					sp.size, s = 8, s[1:]
				default:
					i := 0
					for i < len(s) && s[i] >= '0' && s[i] <= '9' {
						i++
					}
					if i > 0 {
						n, _ := strconv.Atoi(s[:i])
						s = s[i:]
						valid := n == 1 || n == 2 || n == 4 || n == 8
						if k == 'f' {
							valid = n == 4 || n == 8
						}
						if !valid {
							return nil, fmt.Errorf("invalid type string '%s';\nthis system doesn't provide a %d-byte %s type", orig, n, map[byte]string{'f': "floating point"}[k]+map[bool]string{true: "integral", false: ""}[k != 'f'])
						}
						sp.size = n
					}
				}
			}
		default:
			return nil, fmt.Errorf("invalid character '%c' in type string '%s'", k, orig)
		}
		if len(s) > 0 && s[0] == 'z' {
			sp.z, s = true, s[1:]
		}
		sp.width = dataOdWidth(sp.kind, sp.size)
		out = append(out, sp)
	}
	return out, nil
}

// dataOd is one od invocation.
type dataOd struct {
	specs    []dataOdSpec
	radix    byte
	skip     int64
	limit    int64 // -1 for none
	width    int
	verbose  bool
	lineSize int // width of a line's fields
}

var odGetopt = Getopt{Short: "A:j:N:t:vw::abcdfilosxS:", Long: []string{"address-radix=", "skip-bytes=", "read-bytes=",
	"format=", "output-duplicates", "width?", "strings?", "traditional", "endian="},
	LongAlias: map[string]string{"address-radix": "A", "skip-bytes": "j", "read-bytes": "N", "format": "t",
		"output-duplicates": "v", "width": "w"}}

func runOd(ctx context.Context, env *Env, args []string) int {
	g := odGetopt
	opts, files, err := g.Parse(args[1:])
	if err != nil {
		return env.UsageError("od", err, 1)
	}
	o := &dataOd{radix: 'o', limit: -1, width: 16}
	for _, op := range opts {
		var add string
		switch op.Name {
		case "A":
			if len(op.Value) != 1 || !strings.Contains("doxn", op.Value) {
				env.Errorf("od", "invalid output address radix '%s'; it must be one character from [doxn]", op.Value)
				return 1
			}
			o.radix = op.Value[0]
		case "j", "N":
			n, ok := dataParseSize(op.Value)
			if !ok && strings.HasPrefix(op.Value, "0x") {
				v, err := strconv.ParseInt(op.Value[2:], 16, 64)
				n, ok = v, err == nil
			}
			if !ok {
				env.Errorf("od", "invalid %s argument '%s'", map[string]string{"j": "--skip-bytes", "N": "--read-bytes"}[op.Name], op.Value)
				return 1
			}
			if op.Name == "j" {
				o.skip = n
			} else {
				o.limit = n
			}
		case "t":
			sp, err := dataOdParseType(op.Value)
			if err != nil {
				env.Errorf("od", "%v", err)
				return 1
			}
			o.specs = append(o.specs, sp...)
		case "v":
			o.verbose = true
		case "w":
			o.width = 32
			if op.HasValue {
				n, err := strconv.Atoi(op.Value)
				if err != nil || n <= 0 {
					env.Errorf("od", "invalid --width argument '%s'", op.Value)
					return 1
				}
				o.width = n
			}
		case "S", "strings", "endian", "traditional":
			env.Errorf("od", "--%s is not supported", op.Name)
			return 1
		case "a":
			add = "a"
		case "b":
			add = "o1"
		case "c":
			add = "c"
		case "d":
			add = "u2"
		case "f":
			add = "fF"
		case "i":
			add = "dI"
		case "l":
			add = "dL"
		case "o":
			add = "o2"
		case "s":
			add = "d2"
		case "x":
			add = "x2"
		}
		if add != "" {
			sp, _ := dataOdParseType(add)
			o.specs = append(o.specs, sp...)
		}
	}
	if len(o.specs) == 0 {
		o.specs, _ = dataOdParseType("o2")
	}
	maxSize := 1
	for _, sp := range o.specs {
		maxSize = max(maxSize, sp.size)
	}
	if o.width%maxSize != 0 {
		o.width = 16
		if o.width%maxSize != 0 {
			o.width = maxSize
		}
	}
	o.layout()
	if len(files) == 0 {
		files = []string{"-"}
	}
	in := &dataMultiReader{ctx: ctx, env: env, names: files, cmd: "od"}
	w := dataWriter(env)
	err = o.dump(ctx, in, w)
	if werr := w.Flush(); werr != nil {
		return env.WriteError("od", werr)
	}
	if err != nil {
		if ctx.Err() != nil {
			return 130
		}
		env.Errorf("od", "%v", err)
		return 1
	}
	return in.status
}

// layout computes GNU od's per-format padding so columns of all formats
// line up.
func (o *dataOd) layout() {
	for _, sp := range o.specs {
		o.lineSize = max(o.lineSize, (o.width/sp.size)*(sp.width+1))
	}
	for i := range o.specs {
		sp := &o.specs[i]
		sp.pad = o.lineSize - (o.width/sp.size)*(sp.width+1)
	}
}

func (o *dataOd) address(w *bufio.Writer, off int64) {
	var tmp [32]byte
	switch o.radix {
	case 'o':
		w.Write(dataAppendPadded(tmp[:0], uint64(off), 8, 7))
	case 'd':
		w.Write(dataAppendPadded(tmp[:0], uint64(off), 10, 7))
	case 'x':
		w.Write(dataAppendPadded(tmp[:0], uint64(off), 16, 6))
	}
}

func (o *dataOd) addrWidth() int {
	switch o.radix {
	case 'n':
		return 0
	case 'x':
		return 6
	}
	return 7
}

func (o *dataOd) dump(ctx context.Context, in io.Reader, w *bufio.Writer) error {
	if o.skip > 0 {
		n, err := io.CopyN(io.Discard, in, o.skip)
		if err != nil && err != io.EOF {
			return err
		}
		if n < o.skip {
			return fmt.Errorf("cannot skip past end of combined input")
		}
	}
	var r io.Reader = in
	if o.limit >= 0 {
		r = io.LimitReader(in, o.limit)
	}
	br := bufio.NewReaderSize(r, dataBufSize)
	line := make([]byte, o.width)
	prev := make([]byte, o.width)
	havePrev, starred := false, false
	off := o.skip
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if werr := dataWriteErr(w); werr != nil {
			return werr
		}
		n, err := io.ReadFull(br, line)
		if n == 0 {
			break
		}
		if n == o.width && havePrev && !o.verbose && bytes.Equal(line, prev) {
			if !starred {
				w.WriteString("*\n")
				starred = true
			}
			off += int64(n)
			continue
		}
		starred = false
		o.printLine(w, off, line[:n])
		copy(prev, line)
		havePrev = n == o.width
		off += int64(n)
		if err != nil {
			break
		}
	}
	if o.radix != 'n' {
		o.address(w, off)
		w.WriteByte('\n')
	}
	return nil
}

func (o *dataOd) printLine(w *bufio.Writer, off int64, data []byte) {
	var scratch [64]byte
	for i, sp := range o.specs {
		if i == 0 {
			o.address(w, off)
		} else {
			for k := 0; k < o.addrWidth(); k++ {
				w.WriteByte(' ')
			}
		}
		fields := o.width / sp.size
		// Zero-pad a short last line to whole items.
		block := data
		if len(block)%sp.size != 0 {
			block = append(append([]byte(nil), data...), make([]byte, sp.size-len(data)%sp.size)...)
		}
		used := len(block) / sp.size
		pad := sp.pad
		padRemaining := pad
		for k := 0; k < used; k++ {
			i := fields - k
			nextPad := pad * (i - 1) / fields
			width := padRemaining - nextPad + sp.width + 1
			f := dataOdFormat(scratch[:0], sp, block[k*sp.size:(k+1)*sp.size])
			for j := len(f); j < width; j++ {
				w.WriteByte(' ')
			}
			w.Write(f)
			padRemaining = nextPad
		}
		if sp.z {
			// Pad as if the line were full, then the printable text.
			for k := used; k < fields; k++ {
				i := fields - k
				nextPad := pad * (i - 1) / fields
				width := padRemaining - nextPad + sp.width + 1
				for j := 0; j < width; j++ {
					w.WriteByte(' ')
				}
				padRemaining = nextPad
			}
			w.WriteString("  >")
			for _, c := range data {
				if c < 32 || c >= 127 {
					c = '.'
				}
				w.WriteByte(c)
			}
			w.WriteByte('<')
		}
		w.WriteByte('\n')
	}
}

// dataOdNames holds the -t a names of bytes 0..32, three columns each.
const dataOdNames = "nulsohstxetxeotenqackbelbs ht nl vt ff cr so si dledc1dc2dc3dc4naksynetbcanem subescfs gs rs us sp "

// dataOdFormat appends the text of one item.
func dataOdFormat(dst []byte, sp dataOdSpec, b []byte) []byte {
	var u uint64
	switch sp.size {
	case 1:
		u = uint64(b[0])
	case 2:
		u = uint64(binary.LittleEndian.Uint16(b))
	case 4:
		u = uint64(binary.LittleEndian.Uint32(b))
	case 8:
		u = binary.LittleEndian.Uint64(b)
	}
	switch sp.kind {
	case 'a':
		c := b[0] & 0x7f
		switch {
		case c <= 32:
			return append(dst, strings.TrimRight(dataOdNames[int(c)*3:int(c)*3+3], " ")...)
		case c == 127:
			return append(dst, "del"...)
		}
		return append(dst, c)
	case 'c':
		c := b[0]
		switch c {
		case 0:
			return append(dst, '\\', '0')
		case '\a':
			return append(dst, '\\', 'a')
		case '\b':
			return append(dst, '\\', 'b')
		case '\f':
			return append(dst, '\\', 'f')
		case '\n':
			return append(dst, '\\', 'n')
		case '\r':
			return append(dst, '\\', 'r')
		case '\t':
			return append(dst, '\\', 't')
		case '\v':
			return append(dst, '\\', 'v')
		}
		if c >= 32 && c < 127 {
			return append(dst, c)
		}
		return append(dst, '0'+c>>6, '0'+c>>3&7, '0'+c&7)
	case 'o':
		return dataAppendPadded(dst, u, 8, sp.width)
	case 'x':
		return dataAppendPadded(dst, u, 16, sp.width)
	case 'u':
		return strconv.AppendUint(dst, u, 10)
	case 'd':
		shift := 64 - uint(sp.size)*8
		return strconv.AppendInt(dst, int64(u<<shift)>>shift, 10)
	case 'f':
		if sp.size == 4 {
			return append(dst, dataOdFloat(float64(math.Float32frombits(uint32(u))), 32)...)
		}
		return append(dst, dataOdFloat(math.Float64frombits(u), 64)...)
	}
	return dst
}

// dataAppendPadded appends u in base with leading zeros to width digits.
func dataAppendPadded(dst []byte, u uint64, base, width int) []byte {
	var tmp [24]byte
	d := strconv.AppendUint(tmp[:0], u, base)
	for i := len(d); i < width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, d...)
}

// dataOdFloat prints like C's %.*g with the smallest precision (at least
// FLT_DIG/DBL_DIG) that reads back the same value, as GNU od does.
func dataOdFloat(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	short := strconv.FormatFloat(f, 'e', -1, bits)
	mant, exps, _ := strings.Cut(short, "e")
	digits := strings.Replace(strings.TrimPrefix(mant, "-"), ".", "", 1)
	exp, _ := strconv.Atoi(exps)
	dig := 6
	if bits == 64 {
		dig = 15
	}
	tiny := bits == 32 && math.Abs(f) < 1.1754943508222875e-38 || bits == 64 && math.Abs(f) < 2.2250738585072014e-308
	p := len(digits)
	if !tiny && p < dig {
		p = dig
	}
	if f == 0 {
		exp = 0
	}
	if exp < -4 || exp >= p {
		return strconv.FormatFloat(f, 'e', len(digits)-1, bits)
	}
	return strconv.FormatFloat(f, 'f', max(0, len(digits)-1-exp), bits)
}

// dataMultiReader concatenates named inputs, reporting unreadable ones
// and going on with the rest, as od and hexdump do.
type dataMultiReader struct {
	ctx    context.Context
	env    *Env
	names  []string
	cur    io.ReadCloser
	cmd    string
	status int
	failed int
}

func (m *dataMultiReader) Read(p []byte) (int, error) {
	for {
		if err := m.ctx.Err(); err != nil {
			return 0, err
		}
		if m.cur == nil {
			if len(m.names) == 0 {
				return 0, io.EOF
			}
			name := m.names[0]
			m.names = m.names[1:]
			f, err := dataOpen(m.env, name)
			if err != nil {
				m.env.FileError(m.cmd, name, err)
				m.status = 1
				m.failed++
				continue
			}
			m.cur = f
		}
		n, err := m.cur.Read(p)
		if err == io.EOF {
			m.cur.Close()
			m.cur = nil
			if n > 0 {
				return n, nil
			}
			continue
		}
		return n, err
	}
}
