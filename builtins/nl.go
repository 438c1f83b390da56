package builtins

import (
	"context"
	"errors"
	"fmt"
	"github.com/sandsh/sandsh/builtins/internal/guard"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
)

const nlUsage = `Usage: nl [OPTION]... [FILE]...
Write each FILE to standard output, with line numbers added.

With no FILE, or when FILE is -, read standard input.

  -b, --body-numbering=STYLE      use STYLE for numbering body lines
  -d, --section-delimiter=CC      use CC for logical page delimiters
  -f, --footer-numbering=STYLE    use STYLE for numbering footer lines
  -h, --header-numbering=STYLE    use STYLE for numbering header lines
  -i, --line-increment=NUMBER     line number increment at each line
  -l, --join-blank-lines=NUMBER   group of NUMBER empty lines counted as one
  -n, --number-format=FORMAT      insert line numbers according to FORMAT
  -p, --no-renumber               do not reset line numbers for each section
  -s, --number-separator=STRING   add STRING after (possible) line number
  -v, --starting-line-number=NUMBER  first line number for each section
  -w, --number-width=NUMBER       use NUMBER columns for line numbers
      --help     display this help and exit

Default options are: -bt -d'\:' -fn -hn -i1 -l1 -n'rn' -s<TAB> -v1 -w6

STYLE is one of:

  a      number all lines
  t      number only nonempty lines
  n      number no lines
  pBRE   number only lines that contain a match for the basic regular
         expression, BRE

FORMAT is one of:

  ln     left justified, no leading zeros
  rn     right justified, no leading zeros
  rz     right justified, leading zeros
`

var nlGetopt = Getopt{
	Short: "h:b:f:v:i:pl:s:w:n:d:",
	Long: []string{"header-numbering=", "body-numbering=", "footer-numbering=",
		"starting-line-number=", "line-increment=", "no-renumber", "join-blank-lines=",
		"number-separator=", "number-width=", "number-format=", "section-delimiter="},
	LongAlias: map[string]string{"header-numbering": "h", "body-numbering": "b",
		"footer-numbering": "f", "starting-line-number": "v", "line-increment": "i",
		"no-renumber": "p", "join-blank-lines": "l", "number-separator": "s",
		"number-width": "w", "number-format": "n", "section-delimiter": "d"},
}

// nlStyle is one section's numbering style.
type nlStyle struct {
	kind byte // 'a', 't', 'n' or 'p'
	re   *regexp.Regexp
}

// nlJob is nl's state, carried across files as GNU does.
type nlJob struct {
	styles              [3]nlStyle // header, body, footer
	cur                 int
	start, incr, lineNo int64
	blankJoin, blanks   int64
	reset               bool
	sep                 string
	width               int
	meter               *guard.Meter
	format              string
	header, body, foot  string
}

func runNl(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	opts, files, err := nlGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(name, err, 1)
	}
	j := &nlJob{styles: [3]nlStyle{{kind: 'n'}, {kind: 't'}, {kind: 'n'}}, cur: 1,
		start: 1, incr: 1, blankJoin: 1, reset: true, sep: "\t", width: 6, format: "rn"}
	delim := `\:`
	ok := true
	for _, o := range opts {
		switch o.Name {
		case "h", "b", "f":
			idx := strings.Index("hbf", o.Name)
			st, err := textNlStyle(o.Value)
			if err != nil {
				env.Errorf(name, "%v", err)
				return 1
			}
			if st == nil {
				what := [3]string{"header", "body", "footer"}[idx]
				env.Errorf(name, "invalid %s numbering style: '%s'", what, o.Value)
				ok = false
				continue
			}
			j.styles[idx] = *st
		case "v", "i":
			n, err := strconv.ParseInt(o.Value, 10, 64)
			if err != nil {
				what := map[string]string{"v": "invalid starting line number", "i": "invalid line number increment"}[o.Name]
				env.Errorf(name, "%s: '%s'", what, o.Value)
				return 1
			}
			if o.Name == "v" {
				j.start = n
			} else {
				j.incr = n
			}
		case "p":
			j.reset = false
		case "l", "w":
			n, err := strconv.ParseInt(o.Value, 10, 64)
			if err != nil || n < 1 || (o.Name == "w" && n > math.MaxInt32) {
				what := map[string]string{"l": "invalid line number of blank lines", "w": "invalid line number field width"}[o.Name]
				env.Errorf(name, "%s: '%s'", what, o.Value)
				return 1
			}
			if o.Name == "l" {
				j.blankJoin = n
			} else {
				j.width = int(n)
			}
		case "s":
			j.sep = o.Value
		case "n":
			if o.Value != "ln" && o.Value != "rn" && o.Value != "rz" {
				env.Errorf(name, "invalid line numbering format: '%s'", o.Value)
				ok = false
				continue
			}
			j.format = o.Value
		case "d":
			switch len(o.Value) {
			case 1:
				delim = o.Value + delim[1:]
			case 2:
				delim = o.Value
			default:
				delim = o.Value
			}
		}
	}
	if !ok {
		fmt.Fprintf(env.Stderr, "Try '%s --help' for more information.\n", name)
		return 1
	}
	j.header, j.body, j.foot = strings.Repeat(delim, 3), strings.Repeat(delim, 2), delim
	j.meter = guard.NewMeter(ctx)
	j.lineNo = j.start
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
		err = j.process(ctx, newTextLines(ctx, env, r, '\n'), w)
		r.Close()
		if err != nil {
			if re, isRead := err.(textReadErr); isRead {
				status = env.FileError(name, f, re.error)
				continue
			}
			if err == errNlOverflow {
				w.Flush()
				env.Errorf(name, "%v", err)
				return 1
			}
			return env.WriteError(name, err)
		}
	}
	if err := w.Flush(); err != nil {
		return env.WriteError(name, err)
	}
	return status
}

// textNlStyle parses a numbering STYLE; nil means invalid.
func textNlStyle(s string) (*nlStyle, error) {
	if s == "" {
		return nil, nil
	}
	switch s[0] {
	case 'a', 't', 'n':
		return &nlStyle{kind: s[0]}, nil
	case 'p':
		expr, err := textBRE(s[1:])
		if err != nil {
			return nil, err
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, err
		}
		return &nlStyle{kind: 'p', re: re}, nil
	}
	return nil, nil
}

func (j *nlJob) process(ctx context.Context, lr *textLines, w textWriter) error {
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
		line := textChomp(rec, '\n')
		if sec := j.section(line); sec >= 0 {
			j.cur = sec
			if j.reset {
				j.lineNo = j.start
			}
			if err := w.WriteByte('\n'); err != nil {
				return err
			}
			continue
		}
		if err := j.text(line, w); err != nil {
			return err
		}
		w.Write(line)
		if err := w.WriteByte('\n'); err != nil {
			return err
		}
	}
}

// section returns 0, 1 or 2 for a header, body or footer delimiter line.
func (j *nlJob) section(line []byte) int {
	if len(line) < 2 || len(j.foot) < 2 || string(line[:2]) != j.foot[:2] {
		return -1
	}
	switch string(line) {
	case j.header:
		return 0
	case j.body:
		return 1
	case j.foot:
		return 2
	}
	return -1
}

func (j *nlJob) text(line []byte, w textWriter) error {
	st := j.styles[j.cur]
	number := false
	switch st.kind {
	case 'a':
		if j.blankJoin > 1 {
			j.blanks++
			if len(line) > 0 || j.blanks == j.blankJoin {
				number, j.blanks = true, 0
			}
		} else {
			number = true
		}
	case 't':
		number = len(line) > 0
	case 'p':
		number = st.re.Match(line)
	}
	if !number {
		// -w may be up to INT_MAX, as in GNU: pad in metered blocks.
		return guard.Repeat(w, j.meter, ' ', j.width+len(j.sep))
	}
	num := strconv.FormatInt(j.lineNo, 10)
	switch j.format {
	case "ln":
		w.WriteString(num)
		j.pad(w, j.width-len(num))
	case "rn":
		j.pad(w, j.width-len(num))
		w.WriteString(num)
	default:
		if j.lineNo < 0 {
			w.WriteByte('-')
			num = num[1:]
			j.zeros(w, j.width-len(num)-1)
		} else {
			j.zeros(w, j.width-len(num))
		}
		w.WriteString(num)
	}
	if j.meter.Err() != nil {
		return j.meter.Err()
	}
	if _, err := w.WriteString(j.sep); err != nil {
		return err
	}
	next := j.lineNo + j.incr
	if (j.incr > 0 && next < j.lineNo) || (j.incr < 0 && next > j.lineNo) {
		return errNlOverflow
	}
	j.lineNo = next
	return nil
}

// errNlOverflow is GNU nl's error when the next number does not fit.
var errNlOverflow = errors.New("line number overflow")

func (j *nlJob) pad(w textWriter, n int) { guard.Repeat(w, j.meter, ' ', n) }

// textPad writes n spaces (column's widths come from its own data).
func textPad(w textWriter, n int)          { guard.Repeat(w, nil, ' ', n) }
func (j *nlJob) zeros(w textWriter, n int) { guard.Repeat(w, j.meter, '0', n) }
