package builtins

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
)

const commUsage = `Usage: comm [OPTION]... FILE1 FILE2
Compare sorted files FILE1 and FILE2 line by line.

When FILE1 or FILE2 (not both) is -, read standard input.

With no options, produce three-column output.  Column one contains
lines unique to FILE1, column two contains lines unique to FILE2,
and column three contains lines common to both files.

  -1                      suppress column 1 (lines unique to FILE1)
  -2                      suppress column 2 (lines unique to FILE2)
  -3                      suppress column 3 (lines that appear in both files)

  --check-order           check that the input is correctly sorted, even
                            if all input lines are pairable
  --nocheck-order         do not check that the input is correctly sorted
  --output-delimiter=STR  separate columns with STR
  --total                 output a summary
  -z, --zero-terminated   line delimiter is NUL, not newline
      --help     display this help and exit
`

var commGetopt = Getopt{
	Short: "123z",
	Long: []string{"check-order", "nocheck-order", "output-delimiter=", "total",
		"zero-terminated"},
	LongAlias: map[string]string{"zero-terminated": "z"},
}

// commJob is a parsed comm command line.
type commJob struct {
	omit       [3]bool
	check      int // 0 default, 1 --check-order, -1 --nocheck-order
	sep        []byte
	total      bool
	delim      byte
	warned     [2]bool
	unpairable bool
}

func runComm(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	opts, files, err := commGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(name, err, 1)
	}
	j := &commJob{sep: []byte{'\t'}, delim: '\n'}
	sepSet := false
	for _, o := range opts {
		switch o.Name {
		case "1", "2", "3":
			j.omit[o.Name[0]-'1'] = true
		case "z":
			j.delim = 0
		case "check-order":
			j.check = 1
		case "nocheck-order":
			j.check = -1
		case "total":
			j.total = true
		case "output-delimiter":
			v := []byte(o.Value)
			if len(v) == 0 {
				v = []byte{0}
			}
			if sepSet && !bytes.Equal(v, j.sep) {
				env.Errorf(name, "multiple output delimiters specified")
				return 1
			}
			j.sep, sepSet = v, true
		}
	}
	switch {
	case len(files) == 0:
		return env.UsageError(name, errors.New("missing operand"), 1)
	case len(files) == 1:
		return env.UsageError(name, fmt.Errorf("missing operand after '%s'", files[0]), 1)
	case len(files) > 2:
		return env.UsageError(name, fmt.Errorf("extra operand '%s'", files[2]), 1)
	}
	var rs [2]*textLines
	for i, f := range files {
		r, err := textOpen(env, f)
		if err != nil {
			return env.FileError(name, f, err)
		}
		defer r.Close()
		rs[i] = newTextLines(ctx, env, r, j.delim)
		if i == 1 && f == "-" && files[0] == "-" {
			rs[1] = rs[0]
		}
	}
	w := newTextWriter(env.Stdout)
	st, err := j.compare(ctx, env, name, files, rs, w)
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		var re textReadErr
		if errors.As(err, &re) {
			w.Flush()
			env.FileError(name, files[0], re.error)
			return 1
		}
		return env.WriteError(name, err)
	}
	return st
}

// commLine holds the current line of one input and the two before it.
type commLine struct {
	cur, prev, pprev []byte
	n                int // lines read so far
	ok               bool
}

func (j *commJob) read(r *textLines, l *commLine) error {
	l.pprev = append(l.pprev[:0], l.prev...)
	l.prev = append(l.prev[:0], l.cur...)
	rec, err := r.Next()
	if err == io.EOF {
		l.ok = false
		return nil
	}
	if err != nil {
		return textReadErr{err}
	}
	l.cur = append(l.cur[:0], textChomp(rec, j.delim)...)
	l.ok = true
	l.n++
	return nil
}

func (j *commJob) compare(ctx context.Context, env *Env, name string, files []string, rs [2]*textLines, w textWriter) (int, error) {
	var ls [2]commLine
	for i := range ls {
		if err := j.read(rs[i], &ls[i]); err != nil {
			return 1, err
		}
	}
	var totals [3]int
	for n := 0; ls[0].ok || ls[1].ok; n++ {
		if n%textCtxEvery == 0 && ctx.Err() != nil {
			return 1, ctx.Err()
		}
		order := 0
		switch {
		case !ls[0].ok:
			order = 1
		case !ls[1].ok:
			order = -1
		default:
			order = bytes.Compare(ls[0].cur, ls[1].cur)
		}
		var werr error
		switch {
		case order == 0:
			totals[2]++
			werr = j.writeLine(w, ls[1].cur, 2)
		case order < 0:
			j.unpairable = true
			totals[0]++
			werr = j.writeLine(w, ls[0].cur, 0)
		default:
			j.unpairable = true
			totals[1]++
			werr = j.writeLine(w, ls[1].cur, 1)
		}
		if werr != nil {
			return 1, werr
		}
		for i := range ls {
			if (i == 0 && order <= 0) || (i == 1 && order >= 0) {
				if err := j.read(rs[i], &ls[i]); err != nil {
					return 1, err
				}
				st := -1
				if ls[i].ok {
					st = j.checkOrder(env, name, ls[i].prev, ls[i].cur, i)
				} else if ls[i].n >= 2 {
					// At EOF, recheck the last two lines: an unpairable
					// line may have turned up since they were compared.
					st = j.checkOrder(env, name, ls[i].pprev, ls[i].prev, i)
				}
				if st >= 0 {
					w.Flush()
					return st, nil
				}
			}
		}
	}
	if files[0] == "-" && files[1] == "-" {
		// GNU closes standard input twice and reports the second close.
		w.Flush()
		env.Errorf(name, "-: Bad file descriptor")
		return 1, nil
	}
	if j.total {
		var b []byte
		for i := range totals {
			b = strconv.AppendInt(b, int64(totals[i]), 10)
			b = append(b, j.sep...)
		}
		b = append(b, "total"...)
		w.Write(append(b, j.delim))
	}
	if j.warned[0] || j.warned[1] {
		w.Flush()
		env.Errorf(name, "input is not in sorted order")
		return 1, nil
	}
	return 0, nil
}

// checkOrder reports file i's first disorder; with --check-order it is
// fatal (status returned), by default only a warning.
func (j *commJob) checkOrder(env *Env, name string, prev, cur []byte, i int) int {
	if j.check < 0 || (j.check == 0 && !j.unpairable) || j.warned[i] {
		return -1
	}
	if bytes.Compare(prev, cur) > 0 {
		env.Errorf(name, "file %d is not in sorted order", i+1)
		if j.check > 0 {
			return 1
		}
		j.warned[i] = true
	}
	return -1
}

func (j *commJob) writeLine(w textWriter, line []byte, col int) error {
	if j.omit[col] {
		return nil
	}
	if col >= 1 && !j.omit[0] {
		w.Write(j.sep)
	}
	if col == 2 && !j.omit[1] {
		w.Write(j.sep)
	}
	w.Write(line)
	return w.WriteByte(j.delim)
}
