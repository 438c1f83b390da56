package builtins

// Streaming base64/base32 encoding and decoding shared by base64 and
// base32, with GNU's wrapping and its handling of bad input.

import (
	"bufio"
	"context"
	"encoding/base32"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// dataBasenc is one encoding: its alphabet and group sizes.
type dataBasenc struct {
	name     string
	alphabet string
	inBytes  int // bytes per group
	outChars int // characters per group
	bits     uint
}

func dataBasencUsage(name string) string {
	return fmt.Sprintf(`Usage: %[1]s [OPTION]... [FILE]
%[1]s encode or decode FILE, or standard input, to standard output.

With no FILE, or when FILE is -, read standard input.
  -d, --decode          decode data
  -i, --ignore-garbage  when decoding, ignore non-alphabet characters
  -w, --wrap=COLS       wrap encoded lines after COLS character (default 76).
                          Use 0 to disable line wrapping
`, name)
}

var errDataBasencInvalid = errors.New("invalid input")

var basencGetopt = Getopt{Short: "diw:", Long: []string{"decode", "ignore-garbage", "wrap="},
	LongAlias: map[string]string{"decode": "d", "ignore-garbage": "i", "wrap": "w"}}

func dataRunBasenc(ctx context.Context, env *Env, args []string, enc dataBasenc) int {
	name := args[0]
	g := basencGetopt
	opts, files, err := g.Parse(args[1:])
	if err != nil {
		return env.UsageError(name, err, 1)
	}
	decode, garbage, wrap := false, false, 76
	for _, o := range opts {
		switch o.Name {
		case "d":
			decode = true
		case "i":
			garbage = true
		case "w":
			n, err := strconv.ParseInt(o.Value, 10, 64)
			if err != nil || n < 0 {
				env.Errorf(name, "invalid wrap size: '%s'", o.Value)
				return 1
			}
			wrap = int(min(n, 1<<30))
		}
	}
	if len(files) > 1 {
		return env.UsageError(name, fmt.Errorf("extra operand '%s'", files[1]), 1)
	}
	file := "-"
	if len(files) == 1 {
		file = files[0]
	}
	r, err := dataOpen(env, file)
	if err != nil {
		return env.FileError(name, file, err)
	}
	defer r.Close()
	w := dataWriter(env)
	if decode {
		err = enc.decode(ctx, r, w, garbage)
	} else {
		err = enc.encode(ctx, r, w, wrap)
	}
	if werr := w.Flush(); werr != nil {
		return env.WriteError(name, werr)
	}
	switch {
	case err == errDataBasencInvalid:
		env.Errorf(name, "invalid input")
		return 1
	case err != nil && ctx.Err() != nil:
		return 130
	case err != nil:
		return env.FileError(name, file, err)
	}
	return 0
}

func (e dataBasenc) encode(ctx context.Context, r io.Reader, w *bufio.Writer, wrap int) error {
	in := make([]byte, e.inBytes*(dataBufSize/e.inBytes))
	out := make([]byte, 0, len(in)/e.inBytes*e.outChars+8)
	col := 0
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if werr := dataWriteErr(w); werr != nil {
			return werr
		}
		n, err := dataReadFull(r, in)
		if err != nil {
			return err
		}
		if n == 0 {
			break
		}
		out = e.encodeBlock(out[:0], in[:n])
		for len(out) > 0 {
			chunk := out
			if wrap > 0 && len(chunk) > wrap-col {
				chunk = chunk[:wrap-col]
			}
			w.Write(chunk)
			out = out[len(chunk):]
			col += len(chunk)
			if wrap > 0 && col == wrap {
				w.WriteByte('\n')
				col = 0
			}
		}
		if n < len(in) {
			break
		}
	}
	if col > 0 && wrap > 0 {
		w.WriteByte('\n')
	}
	return nil
}

// encodeBlock encodes b; only the last block may be a partial group.
func (e dataBasenc) encodeBlock(out, b []byte) []byte {
	// The standard library encoders are much faster than the generic loop.
	switch e.outChars {
	case 4:
		return base64.StdEncoding.AppendEncode(out, b)
	case 8:
		return base32.StdEncoding.AppendEncode(out, b)
	}
	for len(b) > 0 {
		n := min(len(b), e.inBytes)
		var acc uint64
		for i := 0; i < e.inBytes; i++ {
			acc <<= 8
			if i < n {
				acc |= uint64(b[i])
			}
		}
		total := uint(e.inBytes * 8)
		used := (n*8 + int(e.bits) - 1) / int(e.bits)
		for i := 0; i < e.outChars; i++ {
			if i < used {
				shift := total - uint(i+1)*e.bits
				out = append(out, e.alphabet[acc>>shift&(1<<e.bits-1)])
			} else {
				out = append(out, '=')
			}
		}
		b = b[n:]
	}
	return out
}

// decodeFull decodes complete unpadded groups.
func (e dataBasenc) decodeFull(w *bufio.Writer, src []byte) {
	var out []byte
	switch e.outChars {
	case 4:
		out, _ = base64.StdEncoding.AppendDecode(w.AvailableBuffer(), src)
	default:
		out, _ = base32.StdEncoding.AppendDecode(w.AvailableBuffer(), src)
	}
	w.Write(out)
}

func (e dataBasenc) decode(ctx context.Context, r io.Reader, w *bufio.Writer, garbage bool) error {
	var val [256]int16
	for i := range val {
		val[i] = -1
	}
	for i := 0; i < len(e.alphabet); i++ {
		val[e.alphabet[i]] = int16(i)
	}
	br := bufio.NewReaderSize(r, dataBufSize)
	group := make([]byte, 0, e.outChars) // values, or 0xFF for '='
	pads := 0
	flushPartial := func(n int) {
		var acc uint64
		for i := 0; i < n; i++ {
			acc = acc<<e.bits | uint64(group[i])
		}
		nbytes := n * int(e.bits) / 8
		acc >>= uint(n*int(e.bits) - nbytes*8)
		for i := nbytes - 1; i >= 0; i-- {
			w.WriteByte(byte(acc >> (uint(i) * 8)))
		}
	}
	buf := make([]byte, dataBufSize)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if werr := dataWriteErr(w); werr != nil {
			return werr
		}
		n, rerr := br.Read(buf)
		chunk := buf[:n]
		for i := 0; i < len(chunk); i++ {
			c := chunk[i]
			if c == '\n' {
				continue
			}
			if len(group) == 0 {
				// Fast path: whole groups of plain alphabet characters.
				j := i
				for j < len(chunk) && val[chunk[j]] >= 0 {
					j++
				}
				if full := (j - i) / e.outChars * e.outChars; full > 0 {
					e.decodeFull(w, chunk[i:i+full])
					i += full - 1
					continue
				}
			}
			if c == '=' {
				if len(group)-pads < 2 {
					if garbage {
						continue
					}
					flushPartial(len(group) - pads)
					return errDataBasencInvalid
				}
				pads++
				group = append(group, 0)
			} else {
				v := val[c]
				if v < 0 {
					if garbage {
						continue
					}
					flushPartial(len(group) - pads)
					return errDataBasencInvalid
				}
				if pads > 0 {
					flushPartial(len(group) - pads)
					return errDataBasencInvalid
				}
				group = append(group, byte(v))
			}
			if len(group) == e.outChars {
				flushPartial(len(group) - pads)
				group, pads = group[:0], 0
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return rerr
		}
	}
	if len(group) > 0 {
		if e.outChars == 4 { // GNU base64 salvages a short final group; base32 does not
			flushPartial(len(group) - pads)
		}
		return errDataBasencInvalid
	}
	return nil
}
