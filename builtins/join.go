package builtins

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

const joinUsage = `Usage: join [OPTION]... FILE1 FILE2
For each pair of input lines with identical join fields, write a line to
standard output.  The default join field is the first, delimited by blanks.

When FILE1 or FILE2 (not both) is -, read standard input.

  -a FILENUM        also print unpairable lines from file FILENUM, where
                      FILENUM is 1 or 2, corresponding to FILE1 or FILE2
  -e STRING         replace missing (empty) input fields with STRING;
                      I.e., missing fields specified with '-12jo' options
  -i, --ignore-case  ignore differences in case when comparing fields
  -j FIELD          equivalent to '-1 FIELD -2 FIELD'
  -o FORMAT         obey FORMAT while constructing output line
  -t CHAR           use CHAR as input and output field separator
  -v FILENUM        like -a FILENUM, but suppress joined output lines
  -1 FIELD          join on this FIELD of file 1
  -2 FIELD          join on this FIELD of file 2
  --check-order     check that the input is correctly sorted, even
                      if all input lines are pairable
  --nocheck-order   do not check that the input is correctly sorted
  --header          treat the first line in each file as field headers,
                      print them without trying to pair them
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help        display this help and exit

Unless -t CHAR is given, leading blanks separate fields and are ignored,
else fields are separated by CHAR.  Any FIELD is a field number counted
from 1.  FORMAT is one or more comma or blank separated specifications,
each being 'FILENUM.FIELD' or '0'.  Default FORMAT outputs the join field,
the remaining fields from FILE1, the remaining fields from FILE2, all
separated by CHAR.  If FORMAT is the keyword 'auto', then the first
line of each file determines the number of fields output for each line.
`

var joinGetopt = Getopt{
	Short: "a:e:ij:1:2:o:t:v:z",
	Long: []string{"ignore-case", "check-order", "nocheck-order", "zero-terminated",
		"header"},
	LongAlias: map[string]string{"ignore-case": "i", "zero-terminated": "z"},
}

// joinLine is one input line split into fields.
type joinLine struct {
	text   []byte
	fields [][2]int // [start,end) of each field in text
}

func (l *joinLine) field(n int) []byte {
	if n < len(l.fields) {
		return l.text[l.fields[n][0]:l.fields[n][1]]
	}
	return nil
}

// joinSpec is one -o element: file 0 means the join field.
type joinSpec struct{ file, field int }

// joinJob holds join's settings and its order-checking state.
type joinJob struct {
	name           string
	env            *Env
	tab            int // -1: blanks
	jf             [2]int
	unpair         [2]bool
	printPairs     bool
	empty          string
	hasEmpty       bool
	ignoreCase     bool
	specs          []joinSpec
	auto           bool
	autocount      [2]int
	check          int // 1 --check-order, -1 --nocheck-order
	header         bool
	eol            byte
	files          [2]string
	readers        [2]*textLines
	prev           [2]*joinLine
	lineNo         [2]int
	warned         [2]bool
	seenUnpairable bool
	fatal          bool
	w              textWriter
	blank          *joinLine
	jfSet          [2]bool
	werr           error // first output error
}

// errJoinFatal stops join after a --check-order failure.
var errJoinFatal = errors.New("input is not sorted")

func runJoin(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	j := &joinJob{name: name, env: env, tab: -1, printPairs: true, eol: '\n', blank: &joinLine{}}
	files, st := j.parse(args[1:])
	if st >= 0 {
		return st
	}
	for i, f := range files {
		r, err := textOpen(env, f)
		if err != nil {
			return env.FileError(name, f, err)
		}
		defer r.Close()
		j.files[i] = f
		j.readers[i] = newTextLines(ctx, env, r, j.eol)
	}
	j.w = newTextWriter(env.Stdout)
	err := j.join(ctx)
	if errors.Is(err, errJoinFatal) {
		err = nil
	}
	if ferr := j.w.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		var re textReadErr
		if errors.As(err, &re) {
			env.Errorf(name, "%s", ErrText(re.error))
			return 1
		}
		return env.WriteError(name, err)
	}
	if j.fatal {
		return 1
	}
	if j.warned[0] || j.warned[1] {
		env.Errorf(name, "input is not in sorted order")
		return 1
	}
	return 0
}

func (j *joinJob) parse(args []string) ([]string, int) {
	opts, operands, err := joinGetopt.Parse(args)
	if err != nil {
		return nil, j.env.UsageError(j.name, err, 1)
	}
	for _, o := range opts {
		if st := j.option(o); st >= 0 {
			return nil, st
		}
	}
	switch {
	case len(operands) == 0:
		return nil, j.env.UsageError(j.name, errors.New("missing operand"), 1)
	case len(operands) == 1:
		return nil, j.env.UsageError(j.name, fmt.Errorf("missing operand after '%s'", operands[0]), 1)
	case len(operands) > 2:
		return nil, j.env.UsageError(j.name, fmt.Errorf("extra operand '%s'", operands[2]), 1)
	case operands[0] == "-" && operands[1] == "-":
		j.env.Errorf(j.name, "both files cannot be standard input")
		return nil, 1
	}
	return operands, -1
}

func (j *joinJob) option(o Opt) int {
	fail := func(format string, a ...any) int {
		j.env.Errorf(j.name, format, a...)
		return 1
	}
	switch o.Name {
	case "a", "v":
		switch o.Value {
		case "1", "2":
			j.unpair[o.Value[0]-'1'] = true
		default:
			return fail("invalid field number: '%s'", o.Value)
		}
		if o.Name == "v" {
			j.printPairs = false
		}
	case "e":
		if j.hasEmpty && j.empty != o.Value {
			return fail("conflicting empty-field replacement strings")
		}
		j.empty, j.hasEmpty = o.Value, true
	case "i":
		j.ignoreCase = true
	case "j", "1", "2":
		n, ok := textParseCount(o.Value)
		if !ok || n == 0 {
			return fail("invalid field number: '%s'", o.Value)
		}
		for i, c := range "12" {
			if o.Name == "j" || o.Name == string(c) {
				if j.jfSet[i] && j.jf[i] != n-1 {
					return fail("incompatible join fields %d, %d", j.jf[i]+1, n)
				}
				j.jf[i], j.jfSet[i] = n-1, true
			}
		}
	case "o":
		if o.Value == "auto" {
			j.auto = true
			return -1
		}
		specs, err := textJoinSpecs(o.Value)
		if err != nil {
			return fail("%v", err)
		}
		j.specs = append(j.specs, specs...)
	case "t":
		tab := 0
		switch {
		case o.Value == "":
			tab = '\n' // the whole line is one field
		case len(o.Value) == 1:
			tab = int(o.Value[0])
		case o.Value == "\\0":
			tab = 0
		default:
			return fail("multi-character tab '%s'", o.Value)
		}
		if j.tab >= 0 && j.tab != tab {
			return fail("incompatible tabs")
		}
		j.tab = tab
	case "z":
		j.eol = 0
	case "check-order":
		j.check = 1
	case "nocheck-order":
		j.check = -1
	case "header":
		j.header = true
	}
	return -1
}

// textJoinSpecs parses a -o FORMAT list.
func textJoinSpecs(s string) ([]joinSpec, error) {
	var specs []joinSpec
	for _, item := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		if item == "0" {
			specs = append(specs, joinSpec{})
			continue
		}
		f, n, ok := strings.Cut(item, ".")
		if !ok || len(f) != 1 {
			return nil, fmt.Errorf("invalid field specifier: '%s'", item)
		}
		if f != "1" && f != "2" {
			return nil, fmt.Errorf("invalid file number in field spec: '%s'", item)
		}
		num, ok := textParseCount(n)
		if !ok || num == 0 {
			return nil, fmt.Errorf("invalid field number: '%s'", n)
		}
		specs = append(specs, joinSpec{file: int(f[0] - '0'), field: num - 1})
	}
	return specs, nil
}

// split finds the fields of text the way GNU join's xfields does.
func (j *joinJob) split(text []byte) *joinLine {
	l := &joinLine{text: text}
	if len(text) == 0 {
		return l
	}
	if j.tab == '\n' {
		l.fields = append(l.fields, [2]int{0, len(text)})
		return l
	}
	if j.tab >= 0 {
		t := byte(j.tab)
		start := 0
		for i, c := range text {
			if c == t {
				l.fields = append(l.fields, [2]int{start, i})
				start = i + 1
			}
		}
		l.fields = append(l.fields, [2]int{start, len(text)})
		return l
	}
	i := 0
	for i < len(text) && textUniqSep(text[i]) {
		i++
	}
	if i == len(text) {
		return l
	}
	for i < len(text) {
		start := i
		for i < len(text) && !textUniqSep(text[i]) {
			i++
		}
		l.fields = append(l.fields, [2]int{start, i})
		for i < len(text) && textUniqSep(text[i]) {
			i++
		}
	}
	if textUniqSep(text[len(text)-1]) {
		// GNU counts an empty field after trailing blanks.
		l.fields = append(l.fields, [2]int{len(text), len(text)})
	}
	return l
}

// getLine reads the next line of file i, checking its order.
func (j *joinJob) getLine(i int) (*joinLine, error) {
	rec, err := j.readers[i].Next()
	if err == io.EOF {
		return nil, nil
	}
	if err != nil {
		return nil, textReadErr{err}
	}
	l := j.split(append([]byte(nil), textChomp(rec, j.eol)...))
	j.lineNo[i]++
	if j.prev[i] != nil {
		j.checkOrder(j.prev[i], l, i)
		if j.fatal {
			return nil, errJoinFatal
		}
	}
	j.prev[i] = l
	return l, nil
}

func (j *joinJob) checkOrder(prev, cur *joinLine, i int) {
	if j.check < 0 || !(j.check > 0 || j.seenUnpairable) || j.warned[i] || j.fatal {
		return
	}
	if j.keycmp(prev, cur, j.jf[i], j.jf[i]) > 0 {
		j.w.Flush()
		j.env.Errorf(j.name, "%s:%d: is not sorted: %s", j.files[i], j.lineNo[i], cur.text)
		if j.check > 0 {
			j.fatal = true
			return
		}
		j.warned[i] = true
	}
}

func (j *joinJob) keycmp(a, b *joinLine, jfa, jfb int) int {
	fa, fb := a.field(jfa), b.field(jfb)
	if len(fa) == 0 {
		if len(fb) == 0 {
			return 0
		}
		return -1
	}
	if len(fb) == 0 {
		return 1
	}
	n := min(len(fa), len(fb))
	for k := 0; k < n; k++ {
		x, y := fa[k], fb[k]
		if j.ignoreCase {
			x, y = textUpper(x), textUpper(y)
		}
		if x != y {
			return int(x) - int(y)
		}
	}
	return len(fa) - len(fb)
}

func (j *joinJob) join(ctx context.Context) error {
	var seq [2][]*joinLine
	next := func(i int, first bool) (bool, error) {
		if first {
			seq[i] = seq[i][:0]
		}
		l, err := j.getLine(i)
		if err != nil || l == nil {
			return false, err
		}
		seq[i] = append(seq[i], l)
		return true, nil
	}
	for i := 0; i < 2; i++ {
		if _, err := next(i, false); err != nil {
			return err
		}
	}
	if j.auto {
		for i := 0; i < 2; i++ {
			if len(seq[i]) > 0 {
				j.autocount[i] = len(seq[i][0].fields)
			}
		}
	}
	if j.header && (len(seq[0]) > 0 || len(seq[1]) > 0) {
		h1, h2 := j.blank, j.blank
		if len(seq[0]) > 0 {
			h1 = seq[0][0]
		}
		if len(seq[1]) > 0 {
			h2 = seq[1][0]
		}
		j.prjoin(h1, h2)
		j.prev = [2]*joinLine{}
		for i := 0; i < 2; i++ {
			if len(seq[i]) > 0 {
				if _, err := next(i, true); err != nil {
					return err
				}
			}
		}
	}
	for n := 0; len(seq[0]) > 0 && len(seq[1]) > 0 && !j.fatal; n++ {
		if n%textCtxEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		diff := j.keycmp(seq[0][0], seq[1][0], j.jf[0], j.jf[1])
		if diff != 0 {
			i := 0
			if diff > 0 {
				i = 1
			}
			if j.unpair[i] {
				j.prUnpaired(i, seq[i][0])
			}
			if j.werr != nil {
				return j.werr
			}
			if _, err := next(i, true); err != nil {
				return err
			}
			j.seenUnpairable = true
			continue
		}
		eof := [2]bool{}
		for i := 0; i < 2; i++ {
			for {
				ok, err := next(i, false)
				if err != nil {
					return err
				}
				if !ok {
					eof[i] = true
					break
				}
				last := seq[i][len(seq[i])-1]
				var d int
				if i == 0 {
					d = j.keycmp(last, seq[1][0], j.jf[0], j.jf[1])
				} else {
					d = j.keycmp(seq[0][0], last, j.jf[0], j.jf[1])
				}
				if d != 0 {
					break
				}
			}
		}
		if j.printPairs {
			n1, n2 := len(seq[0]), len(seq[1])
			if !eof[0] {
				n1--
			}
			if !eof[1] {
				n2--
			}
			for k, a := range seq[0][:n1] {
				if k%64 == 0 && ctx.Err() != nil {
					return ctx.Err()
				}
				for _, b := range seq[1][:n2] {
					if j.prjoin(a, b); j.werr != nil {
						return j.werr
					}
				}
			}
		}
		for i := 0; i < 2; i++ {
			if eof[i] {
				seq[i] = seq[i][:0]
			} else {
				seq[i] = append(seq[i][:0], seq[i][len(seq[i])-1])
			}
		}
	}
	if j.fatal {
		return nil
	}
	return j.tail(ctx, seq)
}

// tail prints the unpairable rest of either file and, unless
// --nocheck-order, reads it to check its order.
func (j *joinJob) tail(ctx context.Context, seq [2][]*joinLine) error {
	checkTail := j.check >= 0 && !(j.warned[0] && j.warned[1])
	for i := 0; i < 2; i++ {
		if !(j.unpair[i] || checkTail) || len(seq[i]) == 0 {
			continue
		}
		if j.unpair[i] {
			j.prUnpaired(i, seq[i][0])
		}
		if len(seq[1-i]) > 0 {
			j.seenUnpairable = true
		}
		for n := 0; !j.fatal; n++ {
			if n%textCtxEvery == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			l, err := j.getLine(i)
			if err != nil {
				return err
			}
			if l == nil {
				break
			}
			if j.unpair[i] {
				j.prUnpaired(i, l)
			}
			if j.werr != nil {
				return j.werr
			}
			if j.warned[i] && !j.unpair[i] {
				break
			}
		}
	}
	return nil
}

func (j *joinJob) prUnpaired(i int, l *joinLine) {
	if i == 0 {
		j.prjoin(l, j.blank)
	} else {
		j.prjoin(j.blank, l)
	}
}

func (j *joinJob) prfield(n int, l *joinLine) {
	f := l.field(n)
	if len(f) > 0 {
		j.w.Write(f)
	} else if j.hasEmpty {
		j.w.WriteString(j.empty)
	}
}

func (j *joinJob) outSep() byte {
	if j.tab < 0 {
		return ' '
	}
	return byte(j.tab)
}

func (j *joinJob) prjoin(l1, l2 *joinLine) {
	sep := j.outSep()
	if len(j.specs) > 0 {
		for k, s := range j.specs {
			if k > 0 {
				j.w.WriteByte(sep)
			}
			switch {
			case s.file == 0 && l1 == j.blank:
				j.prfield(j.jf[1], l2)
			case s.file == 0:
				j.prfield(j.jf[0], l1)
			case s.file == 1:
				j.prfield(s.field, l1)
			default:
				j.prfield(s.field, l2)
			}
		}
		j.endLine()
		return
	}
	if l1 == j.blank {
		j.prfield(j.jf[1], l2)
	} else {
		j.prfield(j.jf[0], l1)
	}
	j.prfields(l1, j.jf[0], j.autocount[0])
	j.prfields(l2, j.jf[1], j.autocount[1])
	j.endLine()
}

func (j *joinJob) endLine() {
	if err := j.w.WriteByte(j.eol); err != nil && j.werr == nil {
		j.werr = err
	}
}

func (j *joinJob) prfields(l *joinLine, jf, autocount int) {
	n := len(l.fields)
	if j.auto {
		n = autocount
	}
	sep := j.outSep()
	for i := 0; i < n; i++ {
		if i == jf {
			continue
		}
		j.w.WriteByte(sep)
		j.prfield(i, l)
	}
}
