package builtins

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
)

const dataHexdumpUsage = `Usage: hexdump [options] <file>...

Display file contents in hexadecimal, decimal, octal, or ascii.

Options:
 -b, --one-byte-octal      one-byte octal display
 -c, --one-byte-char       one-byte character display
 -C, --canonical           canonical hex+ASCII display
 -d, --two-bytes-decimal   two-byte decimal display
 -o, --two-bytes-octal     two-byte octal display
 -x, --two-bytes-hex       two-byte hexadecimal display
 -n, --length <length>     interpret only length bytes of input
 -s, --skip <offset>       skip offset bytes from the beginning
 -v, --no-squeezing        output identical lines
`

var hexdumpGetopt = Getopt{Short: "bcCdoxn:s:v", Long: []string{"one-byte-octal", "one-byte-char", "canonical", "two-bytes-decimal",
	"two-bytes-octal", "two-bytes-hex", "length=", "skip=", "no-squeezing"},
	LongAlias: map[string]string{"one-byte-octal": "b", "one-byte-char": "c", "canonical": "C", "two-bytes-decimal": "d",
		"two-bytes-octal": "o", "two-bytes-hex": "x", "length": "n", "skip": "s", "no-squeezing": "v"}}

func runHexdump(ctx context.Context, env *Env, args []string) int {
	g := hexdumpGetopt
	opts, files, err := g.Parse(args[1:])
	if err != nil {
		env.Errorf("hexdump", "%v", err)
		fmt.Fprint(env.Stderr, dataHexdumpUsage)
		return 1
	}
	var formats []byte
	limit, skip, verbose := int64(-1), int64(0), false
	for _, o := range opts {
		switch o.Name {
		case "b", "c", "C", "d", "o", "x":
			formats = append(formats, o.Name[0])
		case "n", "s":
			n, ok := dataParseSize(o.Value)
			if !ok && strings.HasPrefix(o.Value, "0x") {
				var v int64
				_, err := fmt.Sscanf(o.Value[2:], "%x", &v)
				n, ok = v, err == nil
			}
			if !ok {
				env.Errorf("hexdump", "invalid %s argument: '%s'", map[string]string{"n": "length", "s": "offset"}[o.Name], o.Value)
				return 1
			}
			if o.Name == "n" {
				limit = n
			} else {
				skip = n
			}
		case "v":
			verbose = true
		}
	}
	if len(formats) == 0 {
		formats = []byte{'D'}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	in := &dataMultiReader{ctx: ctx, env: env, names: files, cmd: "hexdump"}
	w := dataWriter(env)
	err = dataHexdump(ctx, in, w, formats, skip, limit, verbose)
	if werr := w.Flush(); werr != nil {
		return env.WriteError("hexdump", werr)
	}
	if err != nil && ctx.Err() != nil {
		return 130
	}
	if in.failed == len(files) {
		env.Errorf("hexdump", "all input file arguments failed")
		return 1
	}
	return in.status
}

func dataHexdump(ctx context.Context, in io.Reader, w *bufio.Writer, formats []byte, skip, limit int64, verbose bool) error {
	off, err := io.CopyN(io.Discard, in, skip)
	if err != nil && err != io.EOF {
		return err
	}
	if limit == 0 {
		return nil
	}
	seen := off > 0 // util-linux prints nothing at all for empty input
	var r io.Reader = in
	if limit > 0 {
		r = io.LimitReader(in, limit)
	}
	br := bufio.NewReaderSize(r, dataBufSize)
	line, prev := make([]byte, 16), make([]byte, 16)
	havePrev, starred := false, false
	canonical := len(formats) == 1 && formats[0] == 'C'
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
		seen = true
		if n == 16 && havePrev && !verbose && bytes.Equal(line, prev) {
			if !starred {
				w.WriteString("*\n")
				starred = true
			}
			off += int64(n)
			continue
		}
		starred = false
		for _, f := range formats {
			dataHexdumpLine(w, f, off, line[:n])
		}
		copy(prev, line)
		havePrev = n == 16
		off += int64(n)
		if err != nil {
			break
		}
	}
	switch {
	case !seen:
	case canonical:
		fmt.Fprintf(w, "%08x\n", off)
	default:
		fmt.Fprintf(w, "%07x\n", off)
	}
	return nil
}

// dataHexdumpLine prints one 16-byte line in format f; a short line is
// padded with blanks to full width like util-linux does.
func dataHexdumpLine(w *bufio.Writer, f byte, off int64, b []byte) {
	word := func(i int) (uint16, bool) {
		if i >= len(b) {
			return 0, false
		}
		v := uint16(b[i])
		if i+1 < len(b) {
			v |= uint16(b[i+1]) << 8
		}
		return v, true
	}
	switch f {
	case 'C':
		const hex = "0123456789abcdef"
		var tmp [16]byte
		w.Write(dataAppendPadded(tmp[:0], uint64(off), 16, 8))
		w.WriteByte(' ')
		for i := 0; i < 16; i++ {
			if i == 8 {
				w.WriteByte(' ')
			}
			if i < len(b) {
				w.WriteByte(' ')
				w.WriteByte(hex[b[i]>>4])
				w.WriteByte(hex[b[i]&15])
			} else {
				w.WriteString("   ")
			}
		}
		w.WriteString("  |")
		for _, c := range b {
			if c < 32 || c > 126 {
				c = '.'
			}
			w.WriteByte(c)
		}
		w.WriteString("|\n")
		return
	case 'b', 'c':
		fmt.Fprintf(w, "%07x", off)
		for i := 0; i < 16; i++ {
			switch {
			case i >= len(b):
				w.WriteString("    ")
			case f == 'b':
				fmt.Fprintf(w, " %03o", b[i])
			default:
				fmt.Fprintf(w, " %3s", dataHexdumpChar(b[i]))
			}
		}
	default:
		fmt.Fprintf(w, "%07x", off)
		for i := 0; i < 16; i += 2 {
			v, ok := word(i)
			switch {
			case f == 'D' && !ok:
				w.WriteString("     ")
			case f == 'D':
				fmt.Fprintf(w, " %04x", v)
			case !ok:
				w.WriteString("        ")
			case f == 'x':
				fmt.Fprintf(w, "    %04x", v)
			case f == 'd':
				fmt.Fprintf(w, "   %05d", v)
			case f == 'o':
				fmt.Fprintf(w, "  %06o", v)
			}
		}
	}
	w.WriteByte('\n')
}

func dataHexdumpChar(c byte) string {
	switch c {
	case 0:
		return `\0`
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\v':
		return `\v`
	}
	if c >= 32 && c < 127 {
		return string(rune(c))
	}
	return fmt.Sprintf("%03o", c)
}
