package builtins

import (
	"context"
	"strconv"
)

const foldUsage = `Usage: fold [OPTION]... [FILE]...
Wrap input lines in each FILE, writing to standard output.

With no FILE, or when FILE is -, read standard input.

  -b, --bytes         count bytes rather than columns
  -s, --spaces        break at spaces
  -w, --width=WIDTH   use WIDTH columns instead of 80
      --help     display this help and exit
`

var foldGetopt = Getopt{
	Short:        "bsw:",
	Long:         []string{"bytes", "spaces", "width="},
	LongAlias:    map[string]string{"bytes": "b", "spaces": "s", "width": "w"},
	NumericShort: true,
}

// textFolder is GNU fold's state: the pending output line and its column.
type textFolder struct {
	width         int
	bytes, spaces bool
	line          []byte
	column        int
}

func (f *textFolder) adjust(column int, c byte) int {
	if f.bytes {
		return column + 1
	}
	switch c {
	case '\b':
		if column > 0 {
			column--
		}
	case '\r':
		column = 0
	case '\t':
		column += 8 - column%8
	default:
		column++
	}
	return column
}

// put adds one input byte, writing out every line it completes.
func (f *textFolder) put(c byte, w textWriter) error {
	if c == '\n' {
		f.line = append(f.line, c)
		_, err := w.Write(f.line)
		f.line, f.column = f.line[:0], 0
		return err
	}
	for {
		f.column = f.adjust(f.column, c)
		if f.column <= f.width {
			f.line = append(f.line, c)
			return nil
		}
		if f.spaces {
			if i := lastBlank(f.line); i >= 0 {
				w.Write(f.line[:i+1])
				if err := w.WriteByte('\n'); err != nil {
					return err
				}
				n := copy(f.line, f.line[i+1:])
				f.line = f.line[:n]
				f.column = 0
				for _, b := range f.line {
					f.column = f.adjust(f.column, b)
				}
				continue
			}
		}
		if len(f.line) == 0 {
			f.line = append(f.line, c)
			return nil
		}
		w.Write(f.line)
		if err := w.WriteByte('\n'); err != nil {
			return err
		}
		f.line, f.column = f.line[:0], 0
	}
}

func lastBlank(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if textIsBlank(b[i]) {
			return i
		}
	}
	return -1
}

func runFold(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	opts, files, err := foldGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(name, err, 1)
	}
	f := &textFolder{width: 80}
	for _, o := range opts {
		switch o.Name {
		case "b":
			f.bytes = true
		case "s":
			f.spaces = true
		case "w", "#":
			n, err := strconv.ParseInt(o.Value, 10, 64)
			if err != nil || n < 1 {
				env.Errorf(name, "invalid number of columns: '%s'", o.Value)
				return 1
			}
			f.width = int(min(n, 1<<40))
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	w := newTextWriter(env.Stdout)
	status := 0
	for _, file := range files {
		// Each file starts afresh, as GNU fold processes files separately.
		f.line, f.column = f.line[:0], 0
		st, err := textEachChunk(ctx, env, name, []string{file}, func(chunk []byte) error {
			for _, c := range chunk {
				// Fast path: a byte that just advances the column and fits.
				if f.column < f.width && c != '\n' && (f.bytes || (c != '\b' && c != '\r' && c != '\t')) {
					f.line = append(f.line, c)
					f.column++
					continue
				}
				if err := f.put(c, w); err != nil {
					return err
				}
			}
			return nil
		})
		if st != 0 {
			status = st
		}
		if err == nil && len(f.line) > 0 {
			_, err = w.Write(f.line)
		}
		if err != nil {
			return env.WriteError(name, err)
		}
	}
	if err := w.Flush(); err != nil {
		return env.WriteError(name, err)
	}
	return status
}
