package builtins

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/sandsh/sandsh/builtins/internal/guard"
)

const cutUsage = `Usage: cut OPTION... [FILE]...
Print selected parts of lines from each FILE to standard output.

With no FILE, or when FILE is -, read standard input.

  -b, --bytes=LIST        select only these bytes
  -c, --characters=LIST   select only these characters
  -d, --delimiter=DELIM   use DELIM instead of TAB for field delimiter
  -f, --fields=LIST       select only these fields;  also print any line
                            that contains no delimiter character, unless
                            the -s option is specified
  -n                      (ignored)
      --complement        complement the set of selected bytes, characters
                            or fields
  -s, --only-delimited    do not print lines not containing delimiters
      --output-delimiter=STRING  use STRING as the output delimiter
                            the default is to use the input delimiter
  -z, --zero-terminated   line delimiter is NUL, not newline
      --help        display this help and exit

Use one, and only one of -b, -c or -f.  Each LIST is made up of one
range, or many ranges separated by commas.  Selected input is written
in the same order that it is read, and is written exactly once.
Each range is one of:

  N     N'th byte, character or field, counted from 1
  N-    from N'th byte, character or field, to end of line
  N-M   from N'th to M'th (included) byte, character or field
  -M    from first to M'th (included) byte, character or field
`

var cutGetopt = Getopt{
	Short: "b:c:d:f:nsz",
	Long: []string{"bytes=", "characters=", "delimiter=", "fields=", "complement",
		"only-delimited", "output-delimiter=", "zero-terminated"},
	LongAlias: map[string]string{"bytes": "b", "characters": "c", "delimiter": "d",
		"fields": "f", "only-delimited": "s", "zero-terminated": "z"},
}

// textRange is an inclusive 1-based range of positions or fields.
type textRange struct{ lo, hi int }

// cutJob is a parsed cut command line.
type cutJob struct {
	fields     bool
	ranges     []textRange
	delim      byte
	outDelim   []byte
	hasOutDel  bool
	suppress   bool
	lineDelim  byte
	complement bool
	maxLine    int
}

func runCut(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	opts, files, err := cutGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(name, err, 1)
	}
	j := &cutJob{delim: '\t', lineDelim: '\n', maxLine: env.LineMax()}
	list, kind := "", byte(0)
	hasDelim := false
	for _, o := range opts {
		switch o.Name {
		case "b", "c", "f":
			if kind != 0 {
				return env.UsageError(name, errors.New("only one type of list may be specified"), 1)
			}
			kind, list = o.Name[0], o.Value
		case "d":
			if len(o.Value) > 1 {
				return env.UsageError(name, errors.New("the delimiter must be a single character"), 1)
			}
			j.delim, hasDelim = 0, true
			if o.Value != "" {
				j.delim = o.Value[0]
			}
		case "s":
			j.suppress = true
		case "z":
			j.lineDelim = 0
		case "complement":
			j.complement = true
		case "output-delimiter":
			j.outDelim, j.hasOutDel = []byte(o.Value), true
		}
	}
	switch {
	case kind == 0:
		return env.UsageError(name, errors.New("you must specify a list of bytes, characters, or fields"), 1)
	case kind != 'f' && hasDelim:
		return env.UsageError(name, errors.New("an input delimiter may be specified only when operating on fields"), 1)
	case kind != 'f' && j.suppress:
		return env.UsageError(name, errors.New("suppressing non-delimited lines makes sense\n\tonly when operating on fields"), 1)
	}
	j.fields = kind == 'f'
	ranges, err := textParseRanges(list, !j.fields)
	if err != nil {
		return env.UsageError(name, err, 1)
	}
	if j.complement {
		ranges = textComplementRanges(ranges)
	}
	j.ranges = ranges
	if !j.hasOutDel {
		j.outDelim = []byte{j.delim}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	w := newTextWriter(env.Stdout)
	status := 0
	for _, f := range files {
		r, err := textOpen(env, f)
		if err != nil {
			status = env.FileError(name, f, err)
			continue
		}
		err = j.cut(ctx, r, w)
		r.Close()
		if err != nil {
			var re textReadErr
			if errors.As(err, &re) {
				textReadError(env, name, f, re.error)
				status = 1
				continue
			}
			return env.WriteError(name, err)
		}
	}
	if err := w.Flush(); err != nil {
		return env.WriteError(name, err)
	}
	return status
}

// textParseRanges parses a cut-style LIST ("1,3-5,7-"), returning sorted
// ranges with overlaps merged. pos selects byte/character wording.
func textParseRanges(s string, pos bool) ([]textRange, error) {
	msg := func(field, position string) error {
		if pos {
			return errors.New(position)
		}
		return errors.New(field)
	}
	var rs []textRange
	value, initial := 0, 0
	lhs, rhs, dash := false, false, false
	numStart := 0
	for i := 0; ; i++ {
		c := byte(0)
		if i < len(s) {
			c = s[i]
		}
		switch {
		case i < len(s) && c == '-':
			if dash {
				return nil, msg("invalid field range", "invalid byte or character range")
			}
			dash = true
			if lhs && value == 0 {
				return nil, msg("fields are numbered from 1", "byte/character positions are numbered from 1")
			}
			initial = 1
			if lhs {
				initial = value
			}
			value = 0
		case i >= len(s) || c == ',' || c == ' ' || c == '\t':
			if dash {
				dash = false
				switch {
				case !lhs && !rhs:
					return nil, errors.New("invalid range with no endpoint: -")
				case !rhs:
					rs = append(rs, textRange{initial, math.MaxInt})
				case value < initial:
					return nil, errors.New("invalid decreasing range")
				default:
					rs = append(rs, textRange{initial, value})
				}
			} else {
				if value == 0 {
					return nil, msg("fields are numbered from 1", "byte/character positions are numbered from 1")
				}
				rs = append(rs, textRange{value, value})
			}
			value = 0
			if i >= len(s) {
				return textMergeRanges(rs, pos)
			}
			lhs, rhs = false, false
		case c >= '0' && c <= '9':
			if i == 0 || s[i-1] < '0' || s[i-1] > '9' {
				numStart = i
			}
			if dash {
				rhs = true
			} else {
				lhs = true
			}
			if value > (math.MaxInt-9)/10 {
				end := numStart
				for end < len(s) && s[end] >= '0' && s[end] <= '9' {
					end++
				}
				if pos {
					return nil, fmt.Errorf("byte/character offset '%s' is too large", s[numStart:end])
				}
				return nil, fmt.Errorf("field number '%s' is too large", s[numStart:end])
			}
			value = value*10 + int(c-'0')
		default:
			if pos {
				return nil, fmt.Errorf("invalid byte/character position '%s'", s[i:])
			}
			return nil, fmt.Errorf("invalid field value '%s'", s[i:])
		}
	}
}

func textMergeRanges(rs []textRange, pos bool) ([]textRange, error) {
	if len(rs) == 0 {
		if pos {
			return nil, errors.New("missing list of byte/character positions")
		}
		return nil, errors.New("missing list of fields")
	}
	slices.SortFunc(rs, func(a, b textRange) int {
		if a.lo != b.lo {
			return a.lo - b.lo
		}
		return a.hi - b.hi
	})
	out := rs[:1]
	for _, r := range rs[1:] {
		last := &out[len(out)-1]
		if r.lo <= last.hi {
			last.hi = max(last.hi, r.hi)
		} else {
			out = append(out, r)
		}
	}
	return out, nil
}

func textComplementRanges(rs []textRange) []textRange {
	var out []textRange
	next := 1
	for _, r := range rs {
		if r.lo > next {
			out = append(out, textRange{next, r.lo - 1})
		}
		if r.hi == math.MaxInt {
			return out
		}
		next = r.hi + 1
	}
	return append(out, textRange{next, math.MaxInt})
}

func (j *cutJob) cut(ctx context.Context, r io.Reader, w textWriter) error {
	if j.fields && j.delim == j.lineDelim {
		return j.cutWholeInput(ctx, r, w)
	}
	lr := &textLines{ctx: ctx, r: bufio.NewReaderSize(r, textBufSize), delim: j.lineDelim, max: j.maxLine}
	for n := 0; ; n++ {
		if n%textCtxEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		rec, err := lr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return textReadErr{err}
		}
		line := textChomp(rec, j.lineDelim)
		if j.fields {
			err = j.cutFields(line, len(line) == len(rec), w)
		} else {
			err = j.cutBytes(line, w)
		}
		if err != nil {
			return err
		}
	}
}

func (j *cutJob) cutBytes(line []byte, w textWriter) error {
	first := true
	for _, r := range j.ranges {
		if r.lo > len(line) {
			break
		}
		hi := min(r.hi, len(line))
		if j.hasOutDel && !first {
			w.Write(j.outDelim)
		}
		first = false
		w.Write(line[r.lo-1 : hi])
	}
	return w.WriteByte(j.lineDelim)
}

func (j *cutJob) cutFields(line []byte, unterminated bool, w textWriter) error {
	first := bytes.IndexByte(line, j.delim)
	if first < 0 {
		if j.suppress {
			return nil
		}
		w.Write(line)
		return w.WriteByte(j.lineDelim)
	}
	j.writeFields(line, w)
	// GNU quirk: with -z, an unterminated last record whose only
	// delimiter ends it gets no terminator when cut buffered field 1.
	if unterminated && j.lineDelim == 0 && first == len(line)-1 && j.suppress != !j.selected(1) {
		return nil
	}
	return w.WriteByte(j.lineDelim)
}

func (j *cutJob) selected(idx int) bool {
	for _, r := range j.ranges {
		if r.lo <= idx && idx <= r.hi {
			return true
		}
	}
	return false
}

// writeFields prints the selected fields of a delimited record.
func (j *cutJob) writeFields(line []byte, w textWriter) {
	ri, idx := 0, 1
	printed := false
	for {
		end := bytes.IndexByte(line, j.delim)
		field := line
		if end >= 0 {
			field = line[:end]
		}
		for ri < len(j.ranges) && j.ranges[ri].hi < idx {
			ri++
		}
		if ri == len(j.ranges) {
			return
		}
		if j.ranges[ri].lo <= idx {
			if printed {
				w.Write(j.outDelim)
			}
			w.Write(field)
			printed = true
		}
		if end < 0 {
			return
		}
		line = line[end+1:]
		idx++
	}
}

// cutWholeInput handles -d equal to the line delimiter, where the whole
// input is one record whose final delimiter is not a separator.
func (j *cutJob) cutWholeInput(ctx context.Context, r io.Reader, w textWriter) error {
	// The whole input is one record here: it is bounded like a line.
	data, err := io.ReadAll(io.LimitReader(guard.Reader(ctx, r), int64(min(j.maxLine, math.MaxInt-2))+2))
	if err != nil {
		return textReadErr{err}
	}
	if len(data)-1 > j.maxLine {
		return textReadErr{&guard.LineError{Max: j.maxLine}}
	}
	if len(data) == 0 {
		return nil
	}
	data = textChomp(data, j.lineDelim)
	if bytes.IndexByte(data, j.delim) < 0 {
		if j.suppress {
			return nil
		}
		w.Write(data)
		return w.WriteByte(j.lineDelim)
	}
	j.writeFields(data, w)
	return w.WriteByte(j.lineDelim)
}
