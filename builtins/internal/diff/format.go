package diff

import (
	"bufio"
	"math"
	"strconv"

	"github.com/sandsh/sandsh/builtins/internal/guard"
)

// File is one side of a comparison as the formatters see it.
type File struct {
	Lines  [][]byte // without their newlines
	NoEOL  bool     // the last line has no trailing newline
	Header string   // "name\tdate" or a --label
}

func (f *File) line(w *bufio.Writer, prefix string, i int, marker bool) {
	w.WriteString(prefix)
	w.Write(f.Lines[i])
	w.WriteByte('\n')
	if marker && f.NoEOL && i == len(f.Lines)-1 {
		w.WriteString("\\ No newline at end of file\n")
	}
}

func rangeStr(a, b int) string { // 1-based inclusive
	if a == b {
		return strconv.Itoa(a)
	}
	return strconv.Itoa(a) + "," + strconv.Itoa(b)
}

// WriteNormal prints changes in diff's default format.
func WriteNormal(w *bufio.Writer, a, b *File, changes []Change) {
	for _, c := range changes {
		switch {
		case c.Ins == 0:
			w.WriteString(rangeStr(c.A0+1, c.A0+c.Del) + "d" + strconv.Itoa(c.B0) + "\n")
		case c.Del == 0:
			w.WriteString(strconv.Itoa(c.A0) + "a" + rangeStr(c.B0+1, c.B0+c.Ins) + "\n")
		default:
			w.WriteString(rangeStr(c.A0+1, c.A0+c.Del) + "c" + rangeStr(c.B0+1, c.B0+c.Ins) + "\n")
		}
		for i := c.A0; i < c.A0+c.Del; i++ {
			a.line(w, "< ", i, true)
		}
		if c.Del > 0 && c.Ins > 0 {
			w.WriteString("---\n")
		}
		for i := c.B0; i < c.B0+c.Ins; i++ {
			b.line(w, "> ", i, true)
		}
	}
}

// WriteEd prints an ed script (diff -e): changes last to first.
func WriteEd(w *bufio.Writer, a, b *File, changes []Change) {
	for k := len(changes) - 1; k >= 0; k-- {
		c := changes[k]
		switch {
		case c.Ins == 0:
			w.WriteString(rangeStr(c.A0+1, c.A0+c.Del) + "d\n")
			continue
		case c.Del == 0:
			w.WriteString(strconv.Itoa(c.A0) + "a\n")
		default:
			w.WriteString(rangeStr(c.A0+1, c.A0+c.Del) + "c\n")
		}
		fixed := false
		for i := c.B0; i < c.B0+c.Ins; i++ {
			if fixed {
				w.WriteString("a\n")
				fixed = false
			}
			if len(b.Lines[i]) == 1 && b.Lines[i][0] == '.' {
				// A lone "." would end input mode: GNU writes ".." and
				// then removes the extra dot with a substitution.
				w.WriteString("..\n.\ns/.//\n")
				fixed = true
				continue
			}
			b.line(w, "", i, false)
		}
		if !fixed {
			w.WriteString(".\n")
		}
	}
}

// hunks groups changes closer than 2*context lines into hunks.
func hunks(changes []Change, context int) [][]Change {
	var out [][]Change
	for i := 0; i < len(changes); {
		j := i + 1
		for j < len(changes) && changes[j].A0-(changes[j-1].A0+changes[j-1].Del) <= 2*context {
			j++
		}
		out = append(out, changes[i:j])
		i = j
	}
	return out
}

// hunkBounds returns the 0-based line ranges [a0,a1) and [b0,b1) a hunk
// covers including context.
func hunkBounds(h []Change, a, b *File, context int) (a0, a1, b0, b1 int) {
	first, last := h[0], h[len(h)-1]
	a0 = max(0, first.A0-context)
	b0 = first.B0 - (first.A0 - a0)
	a1 = min(len(a.Lines), last.A0+last.Del+context)
	b1 = last.B0 + last.Ins + (a1 - (last.A0 + last.Del))
	return
}

func unifiedRange(start, count int) string {
	switch count {
	case 0:
		return strconv.Itoa(start) + ",0"
	case 1:
		return strconv.Itoa(start + 1)
	}
	return strconv.Itoa(start+1) + "," + strconv.Itoa(count)
}

// WriteUnified prints changes in unified format (diff -u).
func WriteUnified(w *bufio.Writer, a, b *File, changes []Change, context int) {
	if len(changes) == 0 {
		return
	}
	w.WriteString("--- " + a.Header + "\n+++ " + b.Header + "\n")
	for _, h := range hunks(changes, context) {
		a0, a1, b0, b1 := hunkBounds(h, a, b, context)
		w.WriteString("@@ -" + unifiedRange(a0, a1-a0) + " +" + unifiedRange(b0, b1-b0) + " @@\n")
		ai := a0
		for _, c := range h {
			for ; ai < c.A0; ai++ {
				a.line(w, " ", ai, true)
			}
			for i := c.A0; i < c.A0+c.Del; i++ {
				a.line(w, "-", i, true)
			}
			for i := c.B0; i < c.B0+c.Ins; i++ {
				b.line(w, "+", i, true)
			}
			ai = c.A0 + c.Del
		}
		for ; ai < a1; ai++ {
			a.line(w, " ", ai, true)
		}
	}
}

func contextRange(start, end int) string { // 0-based [start,end)
	if end <= start+1 {
		return strconv.Itoa(end)
	}
	return strconv.Itoa(start+1) + "," + strconv.Itoa(end)
}

// WriteContext prints changes in context format (diff -c).
func WriteContext(w *bufio.Writer, a, b *File, changes []Change, context int) {
	if len(changes) == 0 {
		return
	}
	w.WriteString("*** " + a.Header + "\n--- " + b.Header + "\n")
	for _, h := range hunks(changes, context) {
		a0, a1, b0, b1 := hunkBounds(h, a, b, context)
		w.WriteString("***************\n*** " + contextRange(a0, a1) + " ****\n")
		anyDel, anyIns := false, false
		for _, c := range h {
			anyDel = anyDel || c.Del > 0
			anyIns = anyIns || c.Ins > 0
		}
		if anyDel {
			ai := a0
			for _, c := range h {
				for ; ai < c.A0; ai++ {
					a.line(w, "  ", ai, true)
				}
				mark := "- "
				if c.Ins > 0 {
					mark = "! "
				}
				for i := c.A0; i < c.A0+c.Del; i++ {
					a.line(w, mark, i, true)
				}
				ai = c.A0 + c.Del
			}
			for ; ai < a1; ai++ {
				a.line(w, "  ", ai, true)
			}
		}
		w.WriteString("--- " + contextRange(b0, b1) + " ----\n")
		if anyIns {
			bi := b0
			for _, c := range h {
				for ; bi < c.B0; bi++ {
					b.line(w, "  ", bi, true)
				}
				mark := "+ "
				if c.Del > 0 {
					mark = "! "
				}
				for i := c.B0; i < c.B0+c.Ins; i++ {
					b.line(w, mark, i, true)
				}
				bi = c.B0 + c.Ins
			}
			for ; bi < b1; bi++ {
				b.line(w, "  ", bi, true)
			}
		}
	}
}

// SideBySide holds the options of diff -y.
type SideBySide struct {
	Width          int  // -W, default 130
	ExpandTabs     bool // -t
	SuppressCommon bool // --suppress-common-lines
	LeftColumn     bool // --left-column
	// Meter, when set, is charged with the columns written: a huge -W
	// pads with millions of blanks per line, so the check is tied to
	// the output, not to the lines.
	Meter *guard.Meter
}

// maxSideWidth bounds -W so the column arithmetic cannot overflow; no
// output can tell a wider page from this one.
const maxSideWidth = math.MaxInt / 8

// sideWriter lays out GNU diff's two columns (side.c).
type sideWriter struct {
	w                *bufio.Writer
	hw, c2o, tabSize int
	expand           bool
	meter            *guard.Meter
	err              error // the first write error or cancellation: stop
}

// WriteSideBySide prints changes in side-by-side format (diff -y). It
// stops at the first write error (a closed pipe) or cancellation and
// returns it.
func WriteSideBySide(w *bufio.Writer, a, b *File, changes []Change, o SideBySide) error {
	const gutterMin, tabSize = 3, 8
	t := tabSize
	if o.ExpandTabs {
		t = 1
	}
	o.Width = min(o.Width, maxSideWidth)
	off := (o.Width + t + gutterMin) / (2 * t) * t
	hw := max(0, min(off-gutterMin, o.Width-off))
	c2o := o.Width
	if hw < off {
		c2o = off
	}
	s := &sideWriter{w: w, hw: hw, c2o: c2o, tabSize: tabSize, expand: o.ExpandTabs, meter: o.Meter}
	if s.meter == nil {
		s.meter = &guard.Meter{}
	}
	ai, bi := 0, 0
	common := func(upto int) {
		for ; ai < upto && s.err == nil; ai, bi = ai+1, bi+1 {
			switch {
			case o.SuppressCommon:
			case o.LeftColumn:
				s.line(a, ai, '(', nil, 0)
			default:
				s.line(a, ai, ' ', b, bi)
			}
		}
	}
	for _, c := range changes {
		common(c.A0)
		n := min(c.Del, c.Ins)
		for k := 0; k < n && s.err == nil; k++ {
			s.line(a, c.A0+k, '|', b, c.B0+k)
		}
		for k := n; k < c.Del && s.err == nil; k++ {
			s.line(a, c.A0+k, '<', nil, 0)
		}
		for k := n; k < c.Ins && s.err == nil; k++ {
			s.line(nil, 0, '>', b, c.B0+k)
		}
		if s.err != nil {
			return s.err
		}
		ai, bi = c.A0+c.Del, c.B0+c.Ins
	}
	common(len(a.Lines))
	return s.err
}

func (s *sideWriter) hasNewline(f *File, i int) bool {
	return !(f.NoEOL && i == len(f.Lines)-1)
}

func (s *sideWriter) line(a *File, ai int, sep byte, b *File, bi int) {
	col := 0
	nl := false
	if a != nil {
		nl = s.hasNewline(a, ai)
		col = s.half(a.Lines[ai], 0, s.hw)
	}
	if sep != ' ' {
		col = s.tabTo(col, (s.hw+s.c2o-1)/2) + 1
		if sep == '|' && nl != s.hasNewline(b, bi) {
			if nl {
				sep = '/'
			} else {
				sep = '\\'
			}
		}
		if s.err != nil {
			return
		}
		s.w.WriteByte(sep)
	}
	if b != nil {
		nl = nl || s.hasNewline(b, bi)
		if len(b.Lines[bi]) > 0 {
			col = s.tabTo(col, s.c2o)
			s.half(b.Lines[bi], col, s.hw)
		}
	}
	if nl {
		if err := s.w.WriteByte('\n'); err != nil && s.err == nil {
			s.err = err
		}
	}
	if err := s.meter.Add(1); err != nil && s.err == nil {
		s.err = err
	}
}

// tabTo pads from column from to column to with tabs (unless -t) and
// blanks, in blocks, stopping at the first write error or cancellation.
func (s *sideWriter) tabTo(from, to int) int {
	if !s.expand && from < to {
		if first := from + s.tabSize - from%s.tabSize; first <= to {
			s.pad('\t', (to-first)/s.tabSize+1)
			from = first + (to-first)/s.tabSize*s.tabSize
		}
	}
	if from < to {
		s.pad(' ', to-from)
	}
	return to
}

// pad writes n copies of c.
func (s *sideWriter) pad(c byte, n int) {
	var block [512]byte
	for i := range block {
		block[i] = c
	}
	for n > 0 && s.err == nil {
		k := min(n, len(block))
		if _, err := s.w.Write(block[:k]); err != nil {
			s.err = err
		} else if err := s.meter.Add(k); err != nil {
			s.err = err
		}
		n -= k
	}
}

// half prints one side clipped to bound columns, as print_half_line.
func (s *sideWriter) half(text []byte, indent, bound int) int {
	in, out := 0, 0
	for _, c := range text {
		switch {
		case c == '\t':
			spaces := s.tabSize - in%s.tabSize
			if in == out {
				stop := out + spaces
				if s.expand {
					stop = min(stop, bound)
					for ; out < stop; out++ {
						s.w.WriteByte(' ')
					}
				} else if stop < bound {
					out = stop
					s.w.WriteByte(c)
				}
			}
			in += spaces
		case c == '\r':
			s.w.WriteByte(c)
			s.tabTo(0, indent)
			in, out = 0, 0
		case c == '\b':
			if in != 0 {
				in--
				if in < bound {
					if out <= in {
						for ; out < in; out++ {
							s.w.WriteByte(' ')
						}
					} else {
						out = in
						s.w.WriteByte(c)
					}
				}
			}
		case c >= 0x20 && c < 0x7f:
			if in < bound {
				out = in + 1
				s.w.WriteByte(c)
			}
			in++
		default:
			// Other control and non-ASCII bytes take no column in the C locale.
			if in < bound {
				s.w.WriteByte(c)
			}
		}
	}
	return out
}
