package builtins

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/sandsh/sandsh/builtins/internal/guard"
	"io"
	"strconv"
)

const dataStringsUsage = `Usage: strings [option(s)] [file(s)]
 Display printable strings in [file(s)] (stdin by default)
  -a - --all                Scan the entire file (the default)
  -f --print-file-name      Print the name of the file before each string
  -n <number>               Locate & print any sequence of at least <number>
    --bytes=<number>         displayable characters.  (The default is 4).
  -t --radix={o,d,x}        Print the location of the string in base 8, 10 or 16
  -w --include-all-whitespace Include all whitespace as valid string characters
  -o                        An alias for --radix=o
`

var stringsGetopt = Getopt{Short: "afn:t:wodT:e:", NumericShort: true, Long: []string{"all", "print-file-name", "bytes=", "radix=",
	"include-all-whitespace", "data", "encoding=", "target="},
	LongAlias: map[string]string{"all": "a", "print-file-name": "f", "bytes": "n", "radix": "t",
		"include-all-whitespace": "w", "data": "d", "encoding": "e", "target": "T"}}

func runStrings(ctx context.Context, env *Env, args []string) int {
	// GNU accepts -NUM as a shorthand for -n NUM.
	g := stringsGetopt
	opts, files, err := g.Parse(args[1:])
	if err != nil {
		fmt.Fprintf(env.Stderr, "strings: %v\n", err)
		fmt.Fprint(env.Stderr, dataStringsUsage)
		return 1
	}
	minLen, radix, printName, allSpace := 4, byte(0), false, false
	for _, o := range opts {
		switch o.Name {
		case "n", "#":
			n, err := strconv.Atoi(o.Value)
			if err != nil || n < 1 {
				env.Errorf("strings", "invalid minimum string length %s", o.Value)
				return 1
			}
			minLen = n
		case "t":
			if len(o.Value) != 1 || (o.Value[0] != 'o' && o.Value[0] != 'd' && o.Value[0] != 'x') {
				env.Errorf("strings", "invalid radix")
				return 1
			}
			radix = o.Value[0]
		case "o":
			radix = 'o'
		case "f":
			printName = true
		case "w":
			allSpace = true
		case "e":
			if o.Value != "s" && o.Value != "S" {
				env.Errorf("strings", "encoding %s is not supported", o.Value)
				return 1
			}
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	w := dataWriter(env)
	st := 0
	for _, f := range files {
		var r io.ReadCloser
		if f == "-" {
			r = io.NopCloser(env.Stdin)
		} else {
			r, err = env.Open(f)
			if err != nil {
				w.Flush()
				if dataIsDir(err) {
					env.Errorf("strings", "Warning: '%s' is a directory", f)
				} else {
					msg := ErrText(err)
					if dataNotExist(err) {
						msg = "No such file"
					}
					env.Errorf("strings", "'%s': %s", f, msg)
				}
				st = 1
				continue
			}
		}
		name := f
		if f == "-" {
			name = "{standard input}"
		}
		err := dataStrings(ctx, r, w, minLen, env.LineMax(), radix, printName, allSpace, name)
		r.Close()
		if err != nil {
			if ctx.Err() != nil {
				return 130
			}
			var le *guard.LineError
			if errors.As(err, &le) {
				w.Flush()
				env.Errorf("strings", "%s: %v", f, err)
				return 1
			}
			return env.WriteError("strings", err)
		}
	}
	if err := w.Flush(); err != nil {
		return env.WriteError("strings", err)
	}
	return st
}

func dataStrings(ctx context.Context, r io.Reader, w *bufio.Writer, minLen, maxLen int, radix byte, printName, allSpace bool, name string) error {
	br := bufio.NewReaderSize(r, dataBufSize)
	var cur []byte
	var start, off int64
	// Once a run reaches minLen it is printed as it goes, like GNU
	// strings: an endless printable run is not held in memory. Only a run
	// shorter than minLen is held, and minLen is bounded by the line bound.
	streaming := false
	header := func() {
		if printName {
			w.WriteString(name + ": ")
		}
		switch radix {
		case 'o':
			fmt.Fprintf(w, "%7o ", start)
		case 'd':
			fmt.Fprintf(w, "%7d ", start)
		case 'x':
			fmt.Fprintf(w, "%7x ", start)
		}
	}
	emit := func() {
		if streaming {
			w.Write(cur)
			w.WriteByte('\n')
		}
		streaming = false
		cur = cur[:0]
	}
	// One table lookup per byte: this loop is the whole of strings' time.
	var isPrint [256]bool
	for c := range 256 {
		isPrint[c] = c >= 32 && c < 127 || c == '\t' || allSpace && (c == '\n' || c == '\r' || c == '\v' || c == '\f')
	}
	buf := make([]byte, dataBufSize)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := br.Read(buf)
		for _, c := range buf[:n] {
			printable := isPrint[c]
			switch {
			case printable && streaming:
				// Printed in chunks: held at most 64KiB at a time.
				if cur = append(cur, c); len(cur) >= 64<<10 {
					w.Write(cur)
					cur = cur[:0]
				}
			case printable:
				if len(cur) == 0 {
					start = off
				}
				cur = append(cur, c)
				if len(cur) >= minLen {
					header()
					streaming = true
				} else if len(cur) > maxLen {
					return &guard.LineError{Max: maxLen}
				}
			case streaming || len(cur) > 0:
				emit()
			}
			off++
		}
		if werr := dataWriteErr(w); werr != nil {
			return werr
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if streaming || len(cur) > 0 {
		emit()
	}
	return nil
}
