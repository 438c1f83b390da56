package builtins

import (
	"bufio"
	"context"
	"math"
	"strconv"
	"strings"
)

const fmtUsage = `Usage: fmt [-WIDTH] [OPTION]... [FILE]...
Reformat each paragraph in the FILE(s), writing to standard output.
The option -WIDTH is an abbreviated form of --width=DIGITS.

  -c, --crown-margin        preserve indentation of first two lines
  -p, --prefix=STRING       reformat only lines beginning with STRING,
                              reattaching the prefix to reformatted lines
  -s, --split-only          split long lines, but do not refill
  -t, --tagged-paragraph    indentation of first line different from second
  -u, --uniform-spacing     one space between words, two after sentences
  -w, --width=WIDTH         maximum line width (default of 75 columns)
  -g, --goal=WIDTH          goal width (default of 93% of width)
      --help     display this help and exit

With no FILE, or when FILE is -, read standard input.
`

var fmtGetopt = Getopt{
	Short: "cstuw:p:g:",
	Long: []string{"crown-margin", "prefix=", "split-only", "tagged-paragraph",
		"uniform-spacing", "width=", "goal="},
	LongAlias: map[string]string{"crown-margin": "c", "prefix": "p", "split-only": "s",
		"tagged-paragraph": "t", "uniform-spacing": "u", "width": "w", "goal": "g"},
}

// GNU fmt's tuning constants; costs are squared departures from the goal
// line length, times 100.
const (
	textFmtMaxWords  = 1000
	textFmtMaxChars  = 5000
	textFmtTabWidth  = 8
	textFmtDefIndent = 3
	textFmtMaxCost   = math.MaxInt64
	textFmtEOF       = -1
)

func textFmtEquiv(n int64) int64      { return n * n }
func textFmtShortCost(n int64) int64  { return textFmtEquiv(n * 10) }
func textFmtRaggedCost(n int64) int64 { return textFmtShortCost(n) / 2 }
func textFmtWidowCost(n int) int64    { return textFmtEquiv(200) / int64(n+2) }
func textFmtOrphanCost(n int) int64   { return textFmtEquiv(150) / int64(n+2) }

// textFmtWord is one word of the paragraph being formatted.
type textFmtWord struct {
	text                        int // offset in parabuf
	length, space               int
	paren, period, punct, final bool
	lineLength                  int
	bestCost                    int64
	nextBreak                   int // index of the word starting the next line
}

// textFmt is GNU fmt's state machine, ported with its globals as fields.
type textFmt struct {
	ctx                                 context.Context
	reads                               int
	r                                   *bufio.Reader
	w                                   textWriter
	crown, tagged, split, uniform       bool
	prefix                              string
	maxWidth, goalWidth                 int
	prefixFull, prefixLead, prefixLen   int
	inColumn, outColumn                 int
	parabuf                             []byte
	words                               [textFmtMaxWords]textFmtWord
	limit                               int // word_limit
	tabs                                bool
	prefixIndent, firstIndent, otherInd int
	nextChar, nextPrefixIndent          int
	lastLineLength                      int
	cancelled                           bool
	werr                                error
}

func runFmt(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	f := &textFmt{ctx: ctx, maxWidth: 75}
	var widthOpt, goalOpt string
	hasWidth, hasGoal := false, false
	if len(args) > 1 && len(args[1]) > 1 && args[1][0] == '-' && args[1][1] >= '0' && args[1][1] <= '9' {
		widthOpt, hasWidth = args[1][1:], true
		args = append([]string{args[0]}, args[2:]...)
	}
	opts, files, err := fmtGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(name, err, 1)
	}
	for _, o := range opts {
		switch o.Name {
		case "c":
			f.crown = true
		case "s":
			f.split = true
		case "t":
			f.tagged = true
		case "u":
			f.uniform = true
		case "w":
			widthOpt, hasWidth = o.Value, true
		case "g":
			goalOpt, hasGoal = o.Value, true
		case "p":
			f.setPrefix(o.Value)
		}
	}
	if hasWidth {
		n, err := strconv.ParseUint(widthOpt, 10, 64)
		if err != nil || n > textFmtMaxChars/2 {
			env.Errorf(name, "invalid width: '%s'", widthOpt)
			return 1
		}
		f.maxWidth = int(n)
	}
	if hasGoal {
		n, err := strconv.ParseUint(goalOpt, 10, 64)
		if err != nil || n > uint64(f.maxWidth) {
			env.Errorf(name, "invalid width: '%s'", goalOpt)
			return 1
		}
		f.goalWidth = int(n)
		if !hasWidth {
			f.maxWidth = f.goalWidth + 10
		}
	} else {
		f.goalWidth = f.maxWidth * (2*(100-7) + 1) / 200
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	f.w = newTextWriter(env.Stdout)
	f.parabuf = make([]byte, 0, textFmtMaxChars)
	status := 0
	for _, file := range files {
		r, err := textOpen(env, file)
		if err != nil {
			env.Errorf(name, "cannot open '%s' for reading: %s", file, ErrText(err))
			status = 1
			continue
		}
		f.r = bufio.NewReaderSize(r, textBufSize)
		f.fmt(ctx)
		r.Close()
		if f.werr != nil {
			return env.WriteError(name, f.werr)
		}
		if ctx.Err() != nil {
			return 130
		}
	}
	if err := f.w.Flush(); err != nil {
		return env.WriteError(name, err)
	}
	return status
}

func (f *textFmt) setPrefix(p string) {
	f.prefixLead = 0
	for strings.HasPrefix(p, " ") {
		f.prefixLead++
		p = p[1:]
	}
	f.prefixFull = len(p)
	p = strings.TrimRight(p, " ")
	f.prefix, f.prefixLen = p, len(p)
}

func (f *textFmt) getc() int {
	// A cancelled run reads as end of input so every loop unwinds.
	if f.reads++; f.reads&0xffff == 0 && f.ctx.Err() != nil {
		f.cancelled = true
	}
	if f.cancelled {
		return textFmtEOF
	}
	c, err := f.r.ReadByte()
	if err != nil {
		return textFmtEOF
	}
	return int(c)
}

func (f *textFmt) putc(c int) { f.w.WriteByte(byte(c)) }

func (f *textFmt) fmt(ctx context.Context) {
	f.tabs = false
	f.otherInd = 0
	f.nextChar = f.getPrefix()
	for n := 0; f.getParagraph(); n++ {
		if ctx.Err() != nil {
			return
		}
		f.fmtParagraph()
		f.putParagraph(f.limit)
	}
}

func (f *textFmt) setOtherIndent(same bool) {
	switch {
	case f.split:
		f.otherInd = f.firstIndent
	case f.crown:
		if same {
			f.otherInd = f.inColumn
		} else {
			f.otherInd = f.firstIndent
		}
	case f.tagged:
		if same && f.inColumn != f.firstIndent {
			f.otherInd = f.inColumn
		} else if f.otherInd == f.firstIndent {
			if f.firstIndent == 0 {
				f.otherInd = textFmtDefIndent
			} else {
				f.otherInd = 0
			}
		}
	default:
		f.otherInd = f.firstIndent
	}
}

func (f *textFmt) getParagraph() bool {
	f.lastLineLength = 0
	c := f.nextChar
	for c == '\n' || c == textFmtEOF || f.nextPrefixIndent < f.prefixLead ||
		f.inColumn < f.nextPrefixIndent+f.prefixFull {
		c = f.copyRest(c)
		if c == textFmtEOF {
			f.nextChar = textFmtEOF
			return false
		}
		f.putc('\n')
		c = f.getPrefix()
	}
	f.prefixIndent = f.nextPrefixIndent
	f.firstIndent = f.inColumn
	f.parabuf = f.parabuf[:0]
	f.limit = 0
	c = f.getLine(c)
	f.setOtherIndent(f.samePara(c))
	switch {
	case f.split:
	case f.crown:
		if f.samePara(c) {
			for {
				c = f.getLine(c)
				if !(f.samePara(c) && f.inColumn == f.otherInd) {
					break
				}
			}
		}
	case f.tagged:
		if f.samePara(c) && f.inColumn != f.firstIndent {
			for {
				c = f.getLine(c)
				if !(f.samePara(c) && f.inColumn == f.otherInd) {
					break
				}
			}
		}
	default:
		for f.samePara(c) && f.inColumn == f.otherInd {
			c = f.getLine(c)
		}
	}
	f.words[f.limit-1].period = true
	f.words[f.limit-1].final = true
	f.nextChar = c
	return true
}

func (f *textFmt) copyRest(c int) int {
	f.outColumn = 0
	if f.inColumn > f.nextPrefixIndent || (c != '\n' && c != textFmtEOF) {
		f.putSpace(f.nextPrefixIndent)
		for i := 0; f.outColumn != f.inColumn && i < len(f.prefix); i++ {
			f.putc(int(f.prefix[i]))
			f.outColumn++
		}
		if c != textFmtEOF && c != '\n' {
			f.putSpace(f.inColumn - f.outColumn)
		}
		if c == textFmtEOF && f.inColumn >= f.nextPrefixIndent+f.prefixLen {
			f.putc('\n')
		}
	}
	for c != '\n' && c != textFmtEOF {
		f.putc(c)
		c = f.getc()
	}
	return c
}

func (f *textFmt) samePara(c int) bool {
	return f.nextPrefixIndent == f.prefixIndent &&
		f.inColumn >= f.nextPrefixIndent+f.prefixFull && c != '\n' && c != textFmtEOF
}

func textFmtIsSpace(c int) bool {
	return c == ' ' || (c >= '\t' && c <= '\r')
}

func (f *textFmt) getLine(c int) int {
	for {
		w := &f.words[f.limit]
		w.text = len(f.parabuf)
		for {
			if len(f.parabuf) == textFmtMaxChars {
				f.setOtherIndent(true)
				f.flushParagraph()
				w = &f.words[f.limit]
			}
			f.parabuf = append(f.parabuf, byte(c))
			c = f.getc()
			if c == textFmtEOF || textFmtIsSpace(c) {
				break
			}
		}
		w.length = len(f.parabuf) - w.text
		f.inColumn += w.length
		f.checkPunctuation(w)
		start := f.inColumn
		c = f.getSpace(c)
		w.space = f.inColumn - start
		w.final = c == textFmtEOF || (w.period && (c == '\n' || w.space > 1))
		if c == '\n' || c == textFmtEOF || f.uniform {
			if w.final {
				w.space = 2
			} else {
				w.space = 1
			}
		}
		if f.limit == textFmtMaxWords-2 {
			f.setOtherIndent(true)
			f.flushParagraph()
		}
		f.limit++
		if c == '\n' || c == textFmtEOF {
			break
		}
	}
	return f.getPrefix()
}

func (f *textFmt) getPrefix() int {
	f.inColumn = 0
	c := f.getSpace(f.getc())
	if f.prefixLen == 0 {
		f.nextPrefixIndent = min(f.prefixLead, f.inColumn)
		return c
	}
	f.nextPrefixIndent = f.inColumn
	for i := 0; i < len(f.prefix); i++ {
		if c != int(f.prefix[i]) {
			return c
		}
		f.inColumn++
		c = f.getc()
	}
	return f.getSpace(c)
}

func (f *textFmt) getSpace(c int) int {
	for {
		switch c {
		case ' ':
			f.inColumn++
		case '\t':
			f.tabs = true
			f.inColumn = (f.inColumn/textFmtTabWidth + 1) * textFmtTabWidth
		default:
			return c
		}
		c = f.getc()
	}
}

func (f *textFmt) checkPunctuation(w *textFmtWord) {
	text := f.parabuf[w.text : w.text+w.length]
	start, finish := 0, len(text)-1
	w.paren = strings.IndexByte("(['`\"", text[0]) >= 0
	fin := text[finish]
	w.punct = fin > 0x20 && fin < 0x7f && !(fin >= '0' && fin <= '9') && !((fin|0x20) >= 'a' && (fin|0x20) <= 'z')
	for start < finish && strings.IndexByte(")]'\"", text[finish]) >= 0 {
		finish--
	}
	w.period = strings.IndexByte(".?!", text[finish]) >= 0
}

func (f *textFmt) flushParagraph() {
	if f.limit == 0 {
		f.w.Write(f.parabuf)
		f.parabuf = f.parabuf[:0]
		return
	}
	f.fmtParagraph()
	split := f.limit
	best := int64(textFmtMaxCost)
	for w := f.words[0].nextBreak; w != f.limit; w = f.words[w].nextBreak {
		d := f.words[w].bestCost - f.words[f.words[w].nextBreak].bestCost
		if d < best {
			split, best = w, d
		}
		if best <= textFmtMaxCost-textFmtEquiv(3) {
			best += textFmtEquiv(3)
		}
	}
	f.putParagraph(split)
	shift := f.words[split].text
	n := copy(f.parabuf, f.parabuf[shift:])
	f.parabuf = f.parabuf[:n]
	for w := split; w <= f.limit; w++ {
		f.words[w].text -= shift
	}
	copy(f.words[:], f.words[split:f.limit+1])
	f.limit -= split
	// next_break indices are relative to the old positions; the next
	// fmtParagraph recomputes them all.
}

func (f *textFmt) fmtParagraph() {
	lim := &f.words[f.limit]
	lim.bestCost = 0
	saved := lim.length
	lim.length = f.maxWidth
	for start := f.limit - 1; start >= 0; start-- {
		best := int64(textFmtMaxCost)
		length := f.otherInd
		if start == 0 {
			length = f.firstIndent
		}
		w := start
		length += f.words[w].length
		for {
			w++
			wcost := f.lineCost(w, length) + f.words[w].bestCost
			if start == 0 && f.lastLineLength > 0 {
				wcost += textFmtRaggedCost(int64(length - f.lastLineLength))
			}
			if wcost < best {
				best = wcost
				f.words[start].nextBreak = w
				f.words[start].lineLength = length
			}
			if w == f.limit {
				break
			}
			length += f.words[w-1].space + f.words[w].length
			if length >= f.maxWidth {
				break
			}
		}
		f.words[start].bestCost = best + f.baseCost(start)
	}
	lim.length = saved
}

func (f *textFmt) baseCost(this int) int64 {
	cost := textFmtEquiv(70)
	if this > 0 {
		prev := &f.words[this-1]
		switch {
		case prev.period:
			if prev.final {
				cost -= textFmtEquiv(50)
			} else {
				cost += textFmtEquiv(600)
			}
		case prev.punct:
			cost -= textFmtEquiv(40)
		case this > 1 && f.words[this-2].final:
			cost += textFmtWidowCost(prev.length)
		}
	}
	w := &f.words[this]
	if w.paren {
		cost -= textFmtEquiv(40)
	} else if w.final {
		cost += textFmtOrphanCost(w.length)
	}
	return cost
}

func (f *textFmt) lineCost(next, length int) int64 {
	if next == f.limit {
		return 0
	}
	cost := textFmtShortCost(int64(f.goalWidth - length))
	if f.words[next].nextBreak != f.limit {
		cost += textFmtRaggedCost(int64(length - f.words[next].lineLength))
	}
	return cost
}

func (f *textFmt) putParagraph(finish int) {
	f.putLine(0, f.firstIndent)
	for w := f.words[0].nextBreak; w != finish; w = f.words[w].nextBreak {
		f.putLine(w, f.otherInd)
	}
}

func (f *textFmt) putLine(w, indent int) {
	f.outColumn = 0
	f.putSpace(f.prefixIndent)
	f.w.WriteString(f.prefix)
	f.outColumn += f.prefixLen
	f.putSpace(indent - f.outColumn)
	end := f.words[w].nextBreak - 1
	for ; w != end; w++ {
		f.putWord(w)
		f.putSpace(f.words[w].space)
	}
	f.putWord(w)
	f.lastLineLength = f.outColumn
	if err := f.w.WriteByte('\n'); err != nil && f.werr == nil {
		// Stop reading: nobody will see the rest.
		f.werr, f.cancelled = err, true
	}
}

func (f *textFmt) putWord(w int) {
	wd := &f.words[w]
	f.w.Write(f.parabuf[wd.text : wd.text+wd.length])
	f.outColumn += wd.length
}

func (f *textFmt) putSpace(space int) {
	target := f.outColumn + space
	if f.tabs {
		tabTarget := target / textFmtTabWidth * textFmtTabWidth
		if f.outColumn+1 < tabTarget {
			for f.outColumn < tabTarget {
				f.putc('\t')
				f.outColumn = (f.outColumn/textFmtTabWidth + 1) * textFmtTabWidth
			}
		}
	}
	for f.outColumn < target {
		f.putc(' ')
		f.outColumn++
	}
}
