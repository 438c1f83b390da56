package builtins

import (
	"context"
	"errors"
	"io"
)

const pasteUsage = `Usage: paste [OPTION]... [FILE]...
Write lines consisting of the sequentially corresponding lines from
each FILE, separated by TABs, to standard output.

With no FILE, or when FILE is -, read standard input.

  -d, --delimiters=LIST   reuse characters from LIST instead of TABs
  -s, --serial            paste one file at a time instead of in parallel
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help     display this help and exit
`

var pasteGetopt = Getopt{
	Short:     "d:sz",
	Long:      []string{"delimiters=", "serial", "zero-terminated"},
	LongAlias: map[string]string{"delimiters": "d", "serial": "s", "zero-terminated": "z"},
}

func runPaste(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	opts, files, err := pasteGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(name, err, 1)
	}
	delims := []string{"\t"}
	serial, eol := false, byte('\n')
	delimArg, hasDelim := "", false
	for _, o := range opts {
		switch o.Name {
		case "d":
			delimArg, hasDelim = o.Value, true
		case "s":
			serial = true
		case "z":
			eol = 0
		}
	}
	if hasDelim {
		// Only the last -d counts, so it alone is validated.
		if textTrailingBackslash(delimArg) {
			env.Errorf(name, "delimiter list ends with an unescaped backslash: %s", delimArg)
			return 1
		}
		delims = textUnescape(delimArg)
		if len(delims) == 0 {
			delims = []string{""}
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	w := newTextWriter(env.Stdout)
	var st int
	if serial {
		st, err = textPasteSerial(ctx, env, name, files, delims, eol, w)
	} else {
		st, err = textPasteParallel(ctx, env, name, files, delims, eol, w)
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return env.WriteError(name, err)
	}
	return st
}

// textTrailingBackslash reports whether s ends in a lone backslash.
func textTrailingBackslash(s string) bool {
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// textPasteParallel joins corresponding lines of every file. All "-"
// operands share standard input, each taking the next line in turn.
func textPasteParallel(ctx context.Context, env *Env, name string, files []string, delims []string, eol byte, w textWriter) (int, error) {
	readers := make([]*textLines, len(files))
	var stdin *textLines
	for i, f := range files {
		if f == "-" {
			if stdin == nil {
				stdin = newTextLines(ctx, env, env.Stdin, eol)
			}
			readers[i] = stdin
			continue
		}
		r, err := env.Open(f)
		if err != nil {
			return env.FileError(name, f, err), nil
		}
		defer r.Close()
		readers[i] = newTextLines(ctx, env, r, eol)
	}
	open := len(files)
	var saved []byte
	status := 0
	for n := 0; open > 0; n++ {
		if n%textCtxEvery == 0 && ctx.Err() != nil {
			return status, ctx.Err()
		}
		someDone := false
		di := 0
		saved = saved[:0]
		for i := 0; i < len(files) && open > 0; i++ {
			var line []byte
			got := false
			if readers[i] != nil {
				rec, err := readers[i].Next()
				if err != nil && err != io.EOF {
					textReadError(env, name, files[i], err)
					status = 1
				}
				if err == nil {
					line, got = rec, true
				}
			}
			if got && len(saved) > 0 {
				w.Write(saved)
				saved = saved[:0]
			}
			if !got {
				if readers[i] != nil {
					readers[i] = nil
					open--
				}
				if i+1 == len(files) {
					if someDone {
						w.Write(saved)
						saved = saved[:0]
						w.WriteByte(eol)
					}
					continue
				}
				saved = append(saved, delims[di]...)
				di = (di + 1) % len(delims)
				continue
			}
			someDone = true
			body := textChomp(line, eol)
			w.Write(body)
			if i+1 != len(files) {
				w.WriteString(delims[di])
				di = (di + 1) % len(delims)
			} else if err := w.WriteByte(eol); err != nil {
				return status, err
			}
		}
	}
	return status, nil
}

// textPasteSerial joins all lines of each file into one line.
func textPasteSerial(ctx context.Context, env *Env, name string, files []string, delims []string, eol byte, w textWriter) (int, error) {
	status := 0
	for _, f := range files {
		r, err := textOpen(env, f)
		if err != nil {
			status = env.FileError(name, f, err)
			continue
		}
		lr := newTextLines(ctx, env, r, eol)
		di := 0
		first := true
		for n := 0; ; n++ {
			if n%textCtxEvery == 0 && ctx.Err() != nil {
				r.Close()
				return status, ctx.Err()
			}
			rec, err := lr.Next()
			if err != nil {
				if !errors.Is(err, io.EOF) {
					textReadError(env, name, f, err)
					status = 1
				}
				break
			}
			if !first {
				w.WriteString(delims[di])
				di = (di + 1) % len(delims)
			}
			first = false
			if _, err := w.Write(textChomp(rec, eol)); err != nil {
				r.Close()
				return status, err
			}
		}
		r.Close()
		if err := w.WriteByte(eol); err != nil {
			return status, err
		}
	}
	return status, nil
}
