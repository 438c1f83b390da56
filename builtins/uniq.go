package builtins

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/sandsh/sandsh/builtins/internal/guard"
)

const uniqUsage = `Usage: uniq [OPTION]... [INPUT [OUTPUT]]
Filter adjacent matching lines from INPUT (or standard input),
writing to OUTPUT (or standard output).

With no options, matching lines are merged to the first occurrence.

  -c, --count           prefix lines by the number of occurrences
  -d, --repeated        only print duplicate lines, one for each group
  -D                    print all duplicate lines
      --all-repeated[=METHOD]  like -D, but allow separating groups
                                 with an empty line;
                                 METHOD={none(default),prepend,separate}
  -f, --skip-fields=N   avoid comparing the first N fields
      --group[=METHOD]  show all items, separating groups with an empty line;
                          METHOD={separate(default),prepend,append,both}
  -i, --ignore-case     ignore differences in case when comparing
  -s, --skip-chars=N    avoid comparing the first N characters
  -u, --unique          only print unique lines
  -z, --zero-terminated     line delimiter is NUL, not newline
  -w, --check-chars=N   compare no more than N characters in lines
      --help        display this help and exit
`

var uniqGetopt = Getopt{
	Short: "Dcdf:is:uw:z",
	Long: []string{"count", "repeated", "all-repeated?", "skip-fields=", "group?", "ignore-case",
		"skip-chars=", "unique", "zero-terminated", "check-chars="},
	LongAlias: map[string]string{"count": "c", "repeated": "d", "all-repeated": "D",
		"skip-fields": "f", "ignore-case": "i", "skip-chars": "s", "unique": "u",
		"zero-terminated": "z", "check-chars": "w"},
	NumericShort: true,
}

// uniqJob holds uniq's settings, named after GNU uniq's globals.
type uniqJob struct {
	skipFields, skipChars, checkChars    int
	unique, firstRepeated, laterRepeated bool
	count, ignoreCase                    bool
	delimitGroups                        string // "", "prepend", "separate"
	grouping                             string // "", "separate", "prepend", "append", "both"
	delim                                byte
}

func runUniq(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	opts, files, err := uniqGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(name, err, 1)
	}
	j := &uniqJob{checkChars: int(^uint(0) >> 1), unique: true, firstRepeated: true, delim: '\n'}
	if st := j.apply(env, name, opts); st >= 0 {
		return st
	}
	if len(files) > 2 {
		return env.UsageError(name, fmt.Errorf("extra operand '%s'", files[2]), 1)
	}
	in, out := "-", "-"
	if len(files) > 0 {
		in = files[0]
	}
	if len(files) > 1 {
		out = files[1]
	}
	r, err := textOpen(env, in)
	if err != nil {
		return env.FileError(name, in, err)
	}
	defer r.Close()
	w := env.Stdout
	if out != "-" {
		f, err := env.FS.OpenFile(env.Abs(out), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
		if err != nil {
			return env.FileError(name, out, err)
		}
		defer f.Close()
		w = f
	}
	bw := newTextWriter(w)
	if err := j.run(ctx, newTextLines(ctx, env, r, j.delim), bw); err != nil {
		if re, ok := err.(textReadErr); ok {
			var le *guard.LineError
			if errors.As(re.error, &le) {
				textReadError(env, name, in, le)
				return 1
			}
			if ctxDone(re.error) {
				return 130
			}
			env.Errorf(name, "error reading '%s'", in)
			return 1
		}
		return env.WriteError(name, err)
	}
	if err := bw.Flush(); err != nil {
		return env.WriteError(name, err)
	}
	return 0
}

func (j *uniqJob) apply(env *Env, name string, opts []Opt) int {
	outputOption := false
	newFields := false
	for _, o := range opts {
		switch o.Name {
		case "#": // obsolete -N: skip N fields
			if newFields {
				j.skipFields = 0
			}
			n, _ := textParseCount(o.Value)
			j.skipFields = n
		case "c":
			j.count, outputOption = true, true
		case "d":
			j.unique, outputOption = false, true
		case "D":
			j.unique, j.laterRepeated, outputOption = false, true, true
			if o.HasValue {
				m, ok := textMatchArg(o.Value, "none", "prepend", "separate")
				if !ok {
					return env.UsageError(name, fmt.Errorf("invalid argument '%s' for '--all-repeated'", o.Value), 1)
				}
				if m != "none" {
					j.delimitGroups = m
				}
			}
		case "group":
			j.grouping = "separate"
			if o.HasValue {
				m, ok := textMatchArg(o.Value, "separate", "prepend", "append", "both")
				if !ok {
					return env.UsageError(name, fmt.Errorf("invalid argument '%s' for '--group'", o.Value), 1)
				}
				j.grouping = m
			}
		case "f", "s", "w":
			n, ok := textParseCount(o.Value)
			if !ok {
				msg := map[string]string{"f": "invalid number of fields to skip",
					"s": "invalid number of bytes to skip", "w": "invalid number of bytes to compare"}[o.Name]
				env.Errorf(name, "%s: %s", o.Value, msg)
				return 1
			}
			switch o.Name {
			case "f":
				j.skipFields, newFields = n, true
			case "s":
				j.skipChars = n
			default:
				j.checkChars = n
			}
		case "i":
			j.ignoreCase = true
		case "u":
			j.firstRepeated, outputOption = false, true
		case "z":
			j.delim = 0
		}
	}
	switch {
	case j.grouping != "" && outputOption:
		return env.UsageError(name, fmt.Errorf("--group is mutually exclusive with -c/-d/-D/-u"), 1)
	case j.count && j.laterRepeated:
		return env.UsageError(name, fmt.Errorf("printing all duplicated lines and repeat counts is meaningless"), 1)
	}
	return -1
}

// textMatchArg resolves an option argument that may be abbreviated, as
// GNU's argmatch does.
func textMatchArg(v string, choices ...string) (string, bool) {
	found := ""
	for _, c := range choices {
		if c == v {
			return c, true
		}
		if len(v) > 0 && len(v) < len(c) && c[:len(v)] == v {
			if found != "" {
				return "", false
			}
			found = c
		}
	}
	return found, found != ""
}

// textReadErr marks an input error, as opposed to an output one.
type textReadErr struct{ error }

// field returns the part of line (without delimiter) uniq compares.
func (j *uniqJob) field(line []byte) []byte {
	i, size := 0, len(line)
	for n := 0; n < j.skipFields && i < size; n++ {
		for i < size && textUniqSep(line[i]) {
			i++
		}
		for i < size && !textUniqSep(line[i]) {
			i++
		}
	}
	i += min(j.skipChars, size-i)
	f := line[i:]
	if len(f) > j.checkChars {
		f = f[:j.checkChars]
	}
	return f
}

func textUniqSep(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

func (j *uniqJob) different(a, b []byte) bool {
	if j.ignoreCase {
		return !textEqualFold(a, b)
	}
	return !bytes.Equal(a, b)
}

// uniqLine is a saved copy of a record and where its compared part starts.
type uniqLine struct {
	buf   []byte // record with delimiter
	field []byte
}

func (j *uniqJob) load(dst *uniqLine, rec []byte) {
	dst.buf = append(dst.buf[:0], rec...)
	if n := len(dst.buf); n == 0 || dst.buf[n-1] != j.delim {
		dst.buf = append(dst.buf, j.delim)
	}
	dst.field = j.field(dst.buf[:len(dst.buf)-1])
}

func (j *uniqJob) run(ctx context.Context, lr *textLines, w textWriter) error {
	var a, b uniqLine
	prev, cur := &a, &b
	next := func(dst *uniqLine) (bool, error) {
		rec, err := lr.Next()
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, textReadErr{err}
		}
		j.load(dst, rec)
		return true, nil
	}
	if j.unique && j.firstRepeated && !j.count {
		return j.runGrouped(ctx, next, prev, cur, w)
	}
	ok, err := next(prev)
	if !ok {
		return err
	}
	matchCount := 0
	firstDelimiter := true
	for n := 0; ; n++ {
		if n%textCtxEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		ok, err := next(cur)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		match := !j.different(cur.field, prev.field)
		if match {
			matchCount++
		}
		if j.delimitGroups != "" {
			if !match {
				if matchCount > 0 {
					firstDelimiter = false
				}
			} else if matchCount == 1 && (j.delimitGroups == "prepend" || !firstDelimiter) {
				w.WriteByte(j.delim)
			}
		}
		if !match || j.laterRepeated {
			if err := j.write(w, prev, match, matchCount); err != nil {
				return err
			}
			prev, cur = cur, prev
			if !match {
				matchCount = 0
			}
		}
	}
	return j.write(w, prev, false, matchCount)
}

// runGrouped is the case where every line is printed at once (plain uniq
// and --group).
func (j *uniqJob) runGrouped(ctx context.Context, next func(*uniqLine) (bool, error), prev, cur *uniqLine, w textWriter) error {
	havePrev, printed := false, false
	for n := 0; ; n++ {
		if n%textCtxEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		ok, err := next(cur)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		newGroup := !havePrev || j.different(cur.field, prev.field)
		g := j.grouping
		if newGroup && g != "" && (g == "prepend" || g == "both" || (printed && (g == "append" || g == "separate"))) {
			w.WriteByte(j.delim)
		}
		if newGroup || g != "" {
			if _, err := w.Write(cur.buf); err != nil {
				return err
			}
			prev, cur = cur, prev
			havePrev, printed = true, true
		}
	}
	if (j.grouping == "both" || j.grouping == "append") && printed {
		w.WriteByte(j.delim)
	}
	return nil
}

func (j *uniqJob) write(w textWriter, l *uniqLine, match bool, count int) error {
	var want bool
	switch {
	case count == 0:
		want = j.unique
	case !match:
		want = j.firstRepeated
	default:
		want = j.laterRepeated
	}
	if !want {
		return nil
	}
	if j.count {
		var num [24]byte
		s := strconv.AppendInt(num[:0], int64(count+1), 10)
		for i := len(s); i < 7; i++ {
			w.WriteByte(' ')
		}
		w.Write(s)
		w.WriteByte(' ')
	}
	_, err := w.Write(l.buf)
	return err
}
