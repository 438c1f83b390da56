package builtins

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"strconv"
)

const wcUsage = `Usage: wc [OPTION]... [FILE]...
Print newline, word, and byte counts for each FILE, and a total line if
more than one FILE is specified.  A word is a non-zero-length sequence of
printable characters delimited by white space.

With no FILE, or when FILE is -, read standard input.

The options below may be used to select which counts are printed, always in
the following order: newline, word, character, byte, maximum line length.
  -c, --bytes            print the byte counts
  -m, --chars            print the character counts
  -l, --lines            print the newline counts
  -L, --max-line-length  print the maximum display width
  -w, --words            print the word counts
      --help             display this help and exit
`

var wcGetopt = Getopt{
	Short: "cmlLw",
	Long:  []string{"bytes", "chars", "lines", "max-line-length", "words"},
	LongAlias: map[string]string{"bytes": "c", "chars": "m", "lines": "l",
		"max-line-length": "L", "words": "w"},
}

// wcCounts are the counts of one input. sandsh runs in the C locale, so
// characters are bytes.
type wcCounts struct {
	lines, words, chars, bytes, maxLen int64
}

// wcWhat says which counts are printed.
type wcWhat struct {
	lines, words, chars, bytes, maxLen bool
}

func (w wcWhat) n() int {
	n := 0
	for _, b := range []bool{w.lines, w.words, w.chars, w.bytes, w.maxLen} {
		if b {
			n++
		}
	}
	return n
}

func runWc(ctx context.Context, env *Env, args []string) int {
	const name = "wc"
	opts, operands, err := wcGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(name, err, 1)
	}
	var what wcWhat
	for _, o := range opts {
		switch o.Name {
		case "c":
			what.bytes = true
		case "m":
			what.chars = true
		case "l":
			what.lines = true
		case "L":
			what.maxLen = true
		case "w":
			what.words = true
		}
	}
	if what.n() == 0 {
		what = wcWhat{lines: true, words: true, bytes: true}
	}
	names := operands
	if len(names) == 0 {
		names = []string{""} // stdin, printed without a name
	}
	width := wcWidth(env, names, what)
	out := bufio.NewWriter(env.Stdout)
	var total wcCounts
	status := 0
	for _, file := range names {
		if err := ctx.Err(); err != nil {
			return 130
		}
		c, ok := wcFile(ctx, env, file, what)
		if !ok {
			status = 1
		}
		if c == nil {
			continue
		}
		total.lines += c.lines
		total.words += c.words
		total.chars += c.chars
		total.bytes += c.bytes
		total.maxLen = max(total.maxLen, c.maxLen)
		wcPrint(out, c, what, width, file)
	}
	if len(names) > 1 {
		wcPrint(out, &total, what, width, "total")
	}
	if err := out.Flush(); err != nil {
		return env.WriteError(name, err)
	}
	return status
}

// wcFile counts one operand ("" or "-" is stdin). A nil result means
// nothing is printed for it; ok is false after an error.
func wcFile(ctx context.Context, env *Env, file string, what wcWhat) (*wcCounts, bool) {
	var r io.Reader = env.Stdin
	if file != "" && file != "-" {
		f, err := env.FS.Open(env.Abs(file))
		if err != nil {
			env.FileError("wc", file, err)
			return nil, false
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && fi.IsDir() {
			env.Errorf("wc", "%s: Is a directory", file)
			return &wcCounts{}, false
		}
		r = f
	}
	c, err := wcCount(ctx, r, what)
	if err != nil {
		env.FileError("wc", wcName(file), err)
		return c, false
	}
	return c, true
}

func wcName(file string) string {
	if file == "" {
		return "-"
	}
	return file
}

// wcWidth is GNU's column width: wide enough for the total size of the
// regular files, at least 7 when some input is not a regular file (its
// size is unknown), and 1 when a single count of a single input is shown.
func wcWidth(env *Env, names []string, what wcWhat) int {
	if len(names) == 1 && what.n() == 1 {
		return 1
	}
	minimum, total := 1, int64(0)
	for _, file := range names {
		var fi os.FileInfo
		var err error
		if file == "" || file == "-" {
			st, ok := env.Stdin.(interface{ Stat() (os.FileInfo, error) })
			if !ok {
				minimum = 7
				continue
			}
			fi, err = st.Stat()
		} else {
			fi, err = env.FS.Stat(env.Abs(file))
		}
		switch {
		case err != nil:
		case fi.Mode().IsRegular():
			total += fi.Size()
		default:
			minimum = 7
		}
	}
	return max(len(strconv.FormatInt(total, 10)), minimum)
}

func wcPrint(w *bufio.Writer, c *wcCounts, what wcWhat, width int, name string) {
	var line []byte
	field := func(v int64) {
		if len(line) > 0 {
			line = append(line, ' ')
		}
		s := strconv.FormatInt(v, 10)
		for i := len(s); i < width; i++ {
			line = append(line, ' ')
		}
		line = append(line, s...)
	}
	if what.lines {
		field(c.lines)
	}
	if what.words {
		field(c.words)
	}
	if what.chars {
		field(c.chars)
	}
	if what.bytes {
		field(c.bytes)
	}
	if what.maxLen {
		field(c.maxLen)
	}
	if name != "" {
		line = append(append(line, ' '), name...)
	}
	line = append(line, '\n')
	w.Write(line)
}

// Byte classes for counting words and line widths, as GNU wc does in the
// C locale: printable characters make words, blanks end them, and other
// bytes (controls, bytes >= 0x80) do neither and have no width.
const (
	wcOther = iota
	wcPrintable
	wcSpace   // ' '
	wcVtab    // '\v': ends a word, no width
	wcTab     // '\t'
	wcNewline // '\n'
	wcReturn  // '\r' and '\f': back to column 0
)

var wcClass = func() (t [256]uint8) {
	for c := 0x21; c < 0x7f; c++ {
		t[c] = wcPrintable
	}
	t[' '] = wcSpace
	t['\v'] = wcVtab
	t['\t'] = wcTab
	t['\n'] = wcNewline
	t['\r'] = wcReturn
	t['\f'] = wcReturn
	return t
}()

// wcCount counts r. Lines and bytes alone need no per-byte work.
func wcCount(ctx context.Context, r io.Reader, what wcWhat) (*wcCounts, error) {
	c := &wcCounts{}
	buf := make([]byte, 128<<10)
	slow := what.words || what.maxLen
	var inWord bool
	var pos int64
	for {
		if err := ctx.Err(); err != nil {
			return c, err
		}
		n, err := r.Read(buf)
		chunk := buf[:n]
		c.bytes += int64(n)
		if slow {
			inWord, pos = wcScan(c, chunk, inWord, pos)
		} else if what.lines {
			c.lines += int64(bytes.Count(chunk, []byte{'\n'}))
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return c, err
		}
	}
	if inWord {
		c.words++
	}
	c.maxLen = max(c.maxLen, pos)
	c.chars = c.bytes
	return c, nil
}

// wcScan counts lines, words and the longest line in chunk, carrying the
// in-word state and column across chunks.
func wcScan(c *wcCounts, chunk []byte, inWord bool, pos int64) (bool, int64) {
	for _, b := range chunk {
		switch wcClass[b] {
		case wcPrintable:
			pos++
			inWord = true
			continue
		case wcOther:
			continue
		case wcSpace:
			pos++
		case wcTab:
			pos += 8 - pos%8
		case wcNewline:
			c.lines++
			c.maxLen = max(c.maxLen, pos)
			pos = 0
		case wcReturn:
			c.maxLen = max(c.maxLen, pos)
			pos = 0
		}
		if inWord {
			c.words++
			inWord = false
		}
	}
	return inWord, pos
}
