// Package patch parses unified diffs and applies their hunks to text the
// way GNU patch does without fuzz: exact context, searching outwards from
// the expected line for an offset.
package patch

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Line is one line of a hunk: Op is ' ', '-' or '+'.
type Line struct {
	Op    byte
	Text  string // without newline
	NoEOL bool   // followed by "\ No newline at end of file"
}

// Hunk is one @@ section.
type Hunk struct {
	OldStart, OldCount int
	NewStart, NewCount int
	Lines              []Line
	Header             string // the "@@ ... @@" line, kept for rejects
}

// FilePatch is the patch for one file.
type FilePatch struct {
	OldName, NewName string // as written, before -p stripping
	OldTime, NewTime string
	Index            string
	Hunks            []*Hunk
	Leading          []string // text before the --- line, for messages
	StartLine        int      // input line number of the +++ line
}

// Creates reports whether the patch makes a new file.
func (p *FilePatch) Creates() bool {
	return isNull(p.OldName, p.OldTime) && len(p.Hunks) > 0 && p.Hunks[0].OldCount == 0 && p.Hunks[0].OldStart == 0
}

// Deletes reports whether the patch removes the file.
func (p *FilePatch) Deletes() bool {
	return isNull(p.NewName, p.NewTime) && len(p.Hunks) > 0 && p.Hunks[0].NewCount == 0 && p.Hunks[0].NewStart == 0
}

func isNull(name, ts string) bool {
	return name == "/dev/null" || strings.HasPrefix(ts, "1970-01-01 00:00:00") || strings.HasPrefix(ts, "1969-12-31 ")
}

// Reverse swaps the sides of the patch (-R).
func (p *FilePatch) Reverse() {
	p.OldName, p.NewName = p.NewName, p.OldName
	p.OldTime, p.NewTime = p.NewTime, p.OldTime
	for _, h := range p.Hunks {
		h.OldStart, h.NewStart = h.NewStart, h.OldStart
		h.OldCount, h.NewCount = h.NewCount, h.OldCount
		for i := range h.Lines {
			switch h.Lines[i].Op {
			case '-':
				h.Lines[i].Op = '+'
			case '+':
				h.Lines[i].Op = '-'
			}
		}
		// Keep deletions before insertions within each change block.
		for i := 0; i < len(h.Lines); {
			if h.Lines[i].Op == ' ' {
				i++
				continue
			}
			j := i
			for j < len(h.Lines) && h.Lines[j].Op != ' ' {
				j++
			}
			var del, ins []Line
			for _, l := range h.Lines[i:j] {
				if l.Op == '-' {
					del = append(del, l)
				} else {
					ins = append(ins, l)
				}
			}
			copy(h.Lines[i:], append(del, ins...))
			i = j
		}
		h.Header = fmt.Sprintf("@@ -%s +%s @@", rangeOf(h.OldStart, h.OldCount), rangeOf(h.NewStart, h.NewCount))
	}
}

func rangeOf(start, count int) string {
	if count == 1 {
		return strconv.Itoa(start)
	}
	return strconv.Itoa(start) + "," + strconv.Itoa(count)
}

// Parse reads every file patch from a unified diff. Text outside file
// patches is skipped. It fails only on a malformed hunk.
func Parse(r io.Reader) ([]*FilePatch, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var lines []string
	for {
		l, err := br.ReadString('\n')
		if l != "" {
			lines = append(lines, l)
		}
		if err != nil {
			break
		}
	}
	var out []*FilePatch
	var leading []string
	index := ""
	for i := 0; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], "\r\n")
		if strings.HasPrefix(l, "Index: ") {
			index = strings.TrimSpace(l[7:])
		}
		if !(strings.HasPrefix(l, "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ ")) {
			leading = append(leading, l)
			continue
		}
		p := &FilePatch{Index: index, Leading: append(leading, l, strings.TrimRight(lines[i+1], "\r\n")), StartLine: i + 3}
		p.OldName, p.OldTime = splitName(l[4:])
		p.NewName, p.NewTime = splitName(strings.TrimRight(lines[i+1], "\r\n")[4:])
		leading, index = nil, ""
		i += 2
		for i < len(lines) && strings.HasPrefix(lines[i], "@@ ") {
			h, next, err := parseHunk(lines, i)
			if err != nil {
				return out, err
			}
			p.Hunks = append(p.Hunks, h)
			i = next
		}
		i--
		out = append(out, p)
	}
	return out, nil
}

func splitName(s string) (name, ts string) {
	s = strings.TrimRight(s, "\r\n")
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		return s[:i], strings.TrimSpace(s[i+1:])
	}
	// diff -u without a tab: "name  2024-..." is rare; keep the whole word.
	if i := strings.Index(s, "  "); i >= 0 {
		return s[:i], strings.TrimSpace(s[i:])
	}
	return strings.TrimSpace(s), ""
}

func parseRange(s string) (start, count int, ok bool) {
	a, b, has := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil {
		return 0, 0, false
	}
	count = 1
	if has {
		if count, err = strconv.Atoi(b); err != nil {
			return 0, 0, false
		}
	}
	return start, count, true
}

func parseHunk(lines []string, i int) (*Hunk, int, error) {
	hdr := strings.TrimRight(lines[i], "\r\n")
	f := strings.Fields(hdr)
	if len(f) < 4 || f[3] != "@@" && !strings.HasPrefix(f[3], "@@") || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return nil, 0, fmt.Errorf("malformed patch at line %d: %s", i+1, hdr)
	}
	h := &Hunk{Header: hdr}
	var ok1, ok2 bool
	h.OldStart, h.OldCount, ok1 = parseRange(f[1][1:])
	h.NewStart, h.NewCount, ok2 = parseRange(f[2][1:])
	if !ok1 || !ok2 {
		return nil, 0, fmt.Errorf("malformed patch at line %d: %s", i+1, hdr)
	}
	oldN, newN := 0, 0
	i++
	for i < len(lines) && (oldN < h.OldCount || newN < h.NewCount) {
		l := lines[i]
		text := strings.TrimSuffix(l, "\n")
		if text == "" {
			// Some tools strip the space of empty context lines.
			text = " "
		}
		op := text[0]
		switch op {
		case ' ':
			oldN++
			newN++
		case '-':
			oldN++
		case '+':
			newN++
		case '\\':
			if n := len(h.Lines); n > 0 {
				h.Lines[n-1].NoEOL = true
			}
			i++
			continue
		default:
			return nil, 0, fmt.Errorf("malformed patch at line %d: %s", i+1, strings.TrimRight(l, "\n"))
		}
		h.Lines = append(h.Lines, Line{Op: op, Text: strings.TrimSuffix(text[1:], "\r")})
		if strings.HasSuffix(text, "\r") && !strings.HasSuffix(lines[i], "\r\n") {
			h.Lines[len(h.Lines)-1].Text = text[1:]
		}
		i++
	}
	if oldN != h.OldCount || newN != h.NewCount {
		return nil, 0, fmt.Errorf("malformed patch at line %d: %s", i, strings.TrimRight(lines[min(i, len(lines)-1)], "\n"))
	}
	for i < len(lines) && strings.HasPrefix(lines[i], "\\") {
		if n := len(h.Lines); n > 0 {
			h.Lines[n-1].NoEOL = true
		}
		i++
	}
	return h, i, nil
}

// Text is a file as lines, remembering whether the last one ends in a
// newline.
type Text struct {
	Lines []string
	NoEOL bool
}

// Split makes Text from file content.
func Split(data []byte) Text {
	var t Text
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			t.Lines = append(t.Lines, string(data))
			t.NoEOL = true
			break
		}
		t.Lines = append(t.Lines, string(data[:i]))
		data = data[i+1:]
	}
	return t
}

// Bytes joins the lines back into file content.
func (t Text) Bytes() []byte {
	var b bytes.Buffer
	for i, l := range t.Lines {
		b.WriteString(l)
		if i < len(t.Lines)-1 || !t.NoEOL {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// Result is the outcome of one hunk.
type Result struct {
	Applied bool
	At      int // 1-based line where it applied or was expected
	Offset  int
	Fuzz    int
}

func (h *Hunk) old() []Line {
	var out []Line
	for _, l := range h.Lines {
		if l.Op != '+' {
			out = append(out, l)
		}
	}
	return out
}

// contexts counts the hunk's leading and trailing context lines.
func (h *Hunk) contexts() (pre, suf int) {
	for pre < len(h.Lines) && h.Lines[pre].Op == ' ' {
		pre++
	}
	for suf < len(h.Lines)-pre && h.Lines[len(h.Lines)-1-suf].Op == ' ' {
		suf++
	}
	return pre, suf
}

// fuzzes returns how many leading and trailing context lines fuzz lets
// a match ignore (GNU's prefix_fuzz and suffix_fuzz).
func (h *Hunk) fuzzes(fuzz int) (int, int) {
	pre, suf := h.contexts()
	ctx := max(pre, suf)
	return max(0, fuzz+pre-ctx), max(0, fuzz+suf-ctx)
}

// matches reports whether the hunk's old side matches t at pos, not
// counting the first skipPre and last skipSuf lines.
func (h *Hunk) matches(t Text, pos int, ignoreSpace bool, skipPre, skipSuf int) bool {
	old := h.old()
	if pos < 0 || pos+len(old) > len(t.Lines) {
		return false
	}
	for k, l := range old {
		if k < skipPre || k >= len(old)-skipSuf {
			continue
		}
		a, b := l.Text, t.Lines[pos+k]
		if ignoreSpace {
			a, b = strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " ")
		}
		if a != b {
			return false
		}
	}
	return true
}

// Find locates the hunk in t at or after from, trying the expected line
// first and then ever larger offsets in both directions, with the given
// fuzz.
func (h *Hunk) Find(t Text, expect, from int, ignoreSpace bool, fuzz int) (int, bool) {
	skipPre, skipSuf := h.fuzzes(fuzz)
	if h.OldCount == 0 && len(h.old()) == 0 {
		// Pure insertion: it goes after line OldStart.
		pos := min(max(expect+1, from), len(t.Lines))
		if h.OldStart == 0 {
			pos = 0
		}
		return pos, true
	}
	limit := max(len(t.Lines), expect) + 1
	for d := 0; d <= limit; d++ {
		for _, pos := range []int{expect + d, expect - d} {
			if pos >= from && h.matches(t, pos, ignoreSpace, skipPre, skipSuf) {
				return pos, true
			}
			if d == 0 {
				break
			}
		}
	}
	return 0, false
}

// Apply applies hunks in order to t, returning the new text and a result
// per hunk. Hunks that do not match are left out.
func Apply(t Text, hunks []*Hunk, ignoreSpace bool, maxFuzz int) (Text, []Result) {
	out := Text{NoEOL: t.NoEOL}
	results := make([]Result, len(hunks))
	next := 0   // first line of t not yet copied
	offset := 0 // offset found for the previous hunk
	for k, h := range hunks {
		expect := h.OldStart - 1
		if h.OldCount == 0 {
			expect = h.OldStart
		}
		expect += offset
		pre, suf := h.contexts()
		maxF := min(maxFuzz, max(pre, suf))
		var pos, fuzz int
		ok := false
		for fuzz = 0; fuzz <= maxF && !ok; fuzz++ {
			pos, ok = h.Find(t, expect, next, ignoreSpace, fuzz)
		}
		fuzz--
		if !ok {
			results[k] = Result{At: h.OldStart + offset}
			continue
		}
		if h.OldCount == 0 && len(h.old()) == 0 {
			offset = pos - h.OldStart
		} else {
			offset = pos - (h.OldStart - 1)
		}
		results[k] = Result{Applied: true, At: pos + 1, Offset: offset, Fuzz: fuzz}
		out.Lines = append(out.Lines, t.Lines[next:pos]...)
		lastOld := pos + len(h.old())
		// Context comes from the file: with fuzz or -l it may differ.
		oi := pos
		for _, l := range h.Lines {
			switch l.Op {
			case ' ':
				out.Lines = append(out.Lines, t.Lines[oi])
				oi++
			case '-':
				oi++
			default:
				out.Lines = append(out.Lines, l.Text)
			}
		}
		next = lastOld
		if lastOld == len(t.Lines) {
			// The hunk reaches the end of file: its new side decides the
			// final newline.
			out.NoEOL = false
			for i := len(h.Lines) - 1; i >= 0; i-- {
				if h.Lines[i].Op != '-' {
					out.NoEOL = h.Lines[i].NoEOL
					break
				}
			}
		}
	}
	out.Lines = append(out.Lines, t.Lines[next:]...)
	return out, results
}

// WriteReject writes the failed hunks in unified form.
func WriteReject(w io.Writer, name string, p *FilePatch, hunks []*Hunk) {
	oldT, newT := "", ""
	if p.OldTime != "" {
		oldT = "\t" + p.OldTime
	}
	if p.NewTime != "" {
		newT = "\t" + p.NewTime
	}
	fmt.Fprintf(w, "--- %s%s\n+++ %s%s\n", name, oldT, name, newT)
	for _, h := range hunks {
		fmt.Fprintln(w, h.Header)
		for _, l := range h.Lines {
			fmt.Fprintf(w, "%c%s\n", l.Op, l.Text)
			if l.NoEOL {
				fmt.Fprintln(w, "\\ No newline at end of file")
			}
		}
	}
}
