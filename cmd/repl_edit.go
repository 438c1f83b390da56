package cmd

// Line-editing pieces of the REPL: the key reader under x/term, the
// history, the prompt colours and tab completion.

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/fatih/color"
	"mvdan.cc/sh/v3/syntax"

	"github.com/sandsh/sandsh/hostfile"
)

const (
	keyCtrlC = 3
	keyCtrlD = 4
)

// keyReader sits between the terminal and x/term's Terminal. It returns
// every Ctrl-C and Ctrl-D as the last byte of a read, keeping what
// follows for the next read, and remembers the last byte handed out: when
// ReadLine then reports io.EOF, that byte says which key it was, and no
// typed-ahead input is left inside a Terminal the REPL throws away.
type keyReader struct {
	r       io.Reader
	buf     [256]byte
	pending []byte
	last    byte  // the last byte returned by Read
	err     error // the error the terminal returned, once pending is empty
}

// reset forgets the last key, before a new ReadLine.
func (k *keyReader) reset() { k.last = 0 }

func (k *keyReader) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	if len(k.pending) == 0 {
		if k.err != nil {
			return 0, k.err
		}
		n, err := k.r.Read(k.buf[:])
		k.pending = metaWords(k.buf[:n])
		if err != nil {
			k.err = err
		}
		if n == 0 {
			if err == nil {
				return 0, nil
			}
			return 0, err
		}
	}
	n := len(k.pending)
	if i := bytes.IndexAny(k.pending, "\x03\x04"); i >= 0 {
		n = i + 1
	}
	n = copy(b, k.pending[:n])
	k.last = b[n-1]
	k.pending = k.pending[n:]
	return n, nil
}

// metaWords rewrites readline's Alt-B and Alt-F (ESC b, ESC f) as the
// Alt-Left and Alt-Right that x/term moves by words on.
func metaWords(b []byte) []byte {
	if !bytes.Contains(b, []byte{0x1b, 'b'}) && !bytes.Contains(b, []byte{0x1b, 'f'}) {
		return b
	}
	b = bytes.ReplaceAll(b, []byte("\x1bb"), []byte("\x1b[1;3D"))
	return bytes.ReplaceAll(b, []byte("\x1bf"), []byte("\x1b[1;3C"))
}

// keyCtrlR searches the history backwards (see searchHistory).
const keyCtrlR = 18

// historySearch is where Ctrl-R left off: the text searched for, the
// line it put in place and how far back that entry was.
type historySearch struct {
	query, hit string
	back       int
}

// searchHistory is Ctrl-R: the line becomes the most recent command
// that holds the text typed so far, with the cursor on the match; Ctrl-R
// again, on that line, goes further back to a different command. Unlike bash's incremental
// search there is no search prompt: the text is typed first.
func (rp *repl) searchHistory(line string) (string, int, bool) {
	from := 0
	if rp.search.hit != "" && line == rp.search.hit {
		from = rp.search.back + 1
	} else {
		rp.search = historySearch{query: line}
	}
	q := rp.search.query
	for i := from; i < rp.hist.Len(); i++ {
		e := rp.hist.At(i)
		if k := strings.Index(e, q); k >= 0 && (from == 0 || e != line) {
			rp.search.hit, rp.search.back = e, i
			return e, k, true
		}
	}
	return "", 0, false
}

// maxHistory bounds the history kept in memory (and loaded from the
// history file).
const maxHistory = 1000

// replHistory is the REPL's history: whole commands, most recent last.
// It implements term.History for the arrow keys, but ignores Add (x/term
// calls it for every physical line): the REPL pushes complete commands.
type replHistory struct {
	entries []string
	base    int // entries dropped from the front, for `history` numbers
	file    *os.File
}

func (h *replHistory) Add(string) {}

func (h *replHistory) Len() int { return len(h.entries) }

func (h *replHistory) At(i int) string { return h.entries[len(h.entries)-1-i] }

// open loads the last entries of a history file and appends every new
// command to it. The file is created (mode 0600) if missing.
func (h *replHistory) open(path string) error {
	// Opened for writing first: a symlink, a FIFO or a device at the
	// path is refused before anything is read from it.
	f, err := hostfile.OpenWrite(path, 0o600, false, true)
	if err != nil {
		return err
	}
	data, err := hostfile.ReadFile(path, maxHistoryFile)
	if err != nil {
		f.Close()
		return err
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) != "" {
			h.add(l)
		}
	}
	h.base = 0
	h.file = f
	return nil
}

// maxHistoryFile bounds what is read of a history file (its first
// 16 MiB; the last maxHistory entries of that are kept).
const maxHistoryFile = 16 << 20

func (h *replHistory) close() {
	if h.file != nil {
		h.file.Close()
		h.file = nil
	}
}

// push records a command (skipping blank lines and a repeat of the last
// entry) and appends it to the history file, if any.
func (h *replHistory) push(entry string) {
	if !h.add(entry) || h.file == nil {
		return
	}
	if _, err := io.WriteString(h.file, entry+"\n"); err != nil {
		h.close() // a full disk must not break the session
	}
}

func (h *replHistory) add(entry string) bool {
	if strings.TrimSpace(entry) == "" {
		return false
	}
	if n := len(h.entries); n > 0 && h.entries[n-1] == entry {
		return false
	}
	h.entries = append(h.entries, entry)
	if len(h.entries) > maxHistory {
		drop := len(h.entries) - maxHistory
		h.entries = slices.Delete(h.entries, 0, drop)
		h.base += drop
	}
	return true
}

func (h *replHistory) list() []string { return h.entries }

func (h *replHistory) clear() {
	h.base += len(h.entries)
	h.entries = nil
}

// historyEntry is how a command is recorded: as typed when it fits on
// one line, else printed on one line (`for i in 1 2; do echo $i; done`),
// as bash's cmdhist does, so the arrow keys bring it back whole.
func historyEntry(src string, f *syntax.File) string {
	src = strings.TrimRight(src, " \t\n")
	if f == nil || !strings.Contains(src, "\n") {
		return src
	}
	var sb strings.Builder
	if err := syntax.NewPrinter(syntax.SingleLine(true)).Print(&sb, f); err != nil {
		return src
	}
	return strings.TrimRight(sb.String(), "\n")
}

var dirColor = color.New(color.FgCyan, color.Bold)

func init() { dirColor.EnableColor() }

// tagColor is the colour of the [restricted] (yellow) or [unrestricted]
// (red) tag.
func tagColor(restricted bool) *color.Color {
	c := color.New(color.FgYellow)
	if !restricted {
		c = color.New(color.FgRed, color.Bold)
	}
	c.EnableColor()
	return c
}

// shellKeywords are completed in command position along with commands.
var shellKeywords = []string{"case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for", "function",
	"if", "in", "select", "then", "time", "until", "while"}

// keywordsBeforeCommand are the words after which a command follows.
var keywordsBeforeCommand = map[string]bool{"!": true, "{": true, "do": true, "elif": true, "else": true,
	"if": true, "then": true, "time": true, "until": true, "while": true}

// shellWord is the word under the cursor, as scanWord finds it.
type shellWord struct {
	start  int    // byte offset of the word in the line
	value  string // the word without its quotes and backslashes
	quote  byte   // the quote still open at the cursor: '\'', '"' or 0
	cmdPos bool   // the word is a command name
	cmd    string // the command the word is an argument of
}

// scanWord finds the word that ends at the end of head (the line up to
// the cursor), following quotes, backslashes and the operators that
// start a new command.
func scanWord(head string) shellWord {
	var w shellWord
	var val strings.Builder
	inWord, redir := false, false
	quote := byte(0)
	nwords := 0 // words of the current simple command so far
	endWord := func() {
		if !inWord {
			return
		}
		word := val.String()
		switch {
		case redir:
			redir = false // a redirection target is not a command word
		case nwords == 0 && (keywordsBeforeCommand[word] || isAssignment(word)):
			// still in command position
		default:
			if nwords == 0 {
				w.cmd = word
			}
			nwords++
		}
		inWord = false
		val.Reset()
	}
	startWord := func(i int) {
		if !inWord {
			inWord, w.start = true, i
		}
	}
	for i := 0; i < len(head); i++ {
		c := head[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				val.WriteByte(c)
			}
		case quote == '"':
			switch {
			case c == '"':
				quote = 0
			case c == '\\' && i+1 < len(head) && strings.IndexByte("$`\"\\", head[i+1]) >= 0:
				i++
				val.WriteByte(head[i])
			default:
				val.WriteByte(c)
			}
		case c == '\\':
			startWord(i)
			if i+1 < len(head) {
				i++
				val.WriteByte(head[i])
			}
		case c == ' ' || c == '\t' || c == '\n':
			endWord()
		case c == '&' && i > 0 && (head[i-1] == '>' || head[i-1] == '<'):
			// >&2, <&0: still a redirection
		case strings.IndexByte(";|&()`", c) >= 0:
			endWord()
			nwords, w.cmd, redir = 0, "", false
		case c == '<' || c == '>':
			endWord()
			redir = true
		default:
			startWord(i)
			if c == '\'' || c == '"' {
				quote = c
			} else {
				val.WriteByte(c)
			}
		}
	}
	if !inWord {
		w.start = len(head)
	}
	w.value, w.quote = val.String(), quote
	w.cmdPos = nwords == 0 && !redir
	if w.cmdPos {
		w.cmd = ""
	}
	return w
}

// isAssignment reports whether word is NAME=value.
func isAssignment(word string) bool {
	name, _, ok := strings.Cut(word, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// complete is x/term's AutoCompleteCallback: Tab completes a command name
// (functions, builtins, aliases, keywords, in-process commands) in
// command position and a sandbox path elsewhere. When Tab cannot add
// anything and there are several candidates, they are listed.
func (rp *repl) complete(line string, pos int, key rune) (string, int, bool) {
	if key == keyCtrlR {
		return rp.searchHistory(line)
	}
	if key != '\t' {
		return "", 0, false
	}
	head := line[:pos]
	w := scanWord(head)
	var cands []string
	isPath := !w.cmdPos || strings.Contains(w.value, "/")
	if isPath {
		cands = rp.completePath(w)
	} else {
		cands = rp.commandCompletions(w.value)
		for _, k := range shellKeywords {
			if strings.HasPrefix(k, w.value) {
				cands = append(cands, k)
			}
		}
		slices.Sort(cands)
		cands = slices.Compact(cands)
	}
	if len(cands) == 0 {
		return "", 0, false
	}
	common := cands[0]
	for _, c := range cands[1:] {
		for !strings.HasPrefix(c, common) {
			common = common[:len(common)-1]
		}
	}
	done := len(cands) == 1 && !strings.HasSuffix(common, "/")
	newHead := head[:w.start] + quoteWord(common, w.quote, done)
	if newHead != head && (len(cands) == 1 || len(common) > len(w.value)) {
		return newHead + line[pos:], len(newHead), true
	}
	if len(cands) > 1 {
		rp.listCandidates(line, cands, isPath)
	}
	return "", 0, false
}

// completePath lists the sandbox paths starting with the word; `~/` is
// the home directory, and after cd only directories count.
func (rp *repl) completePath(w shellWord) []string {
	word := w.value
	tilde := rp.home != "" && strings.HasPrefix(word, "~/")
	if tilde {
		word = strings.TrimSuffix(rp.home, "/") + word[1:]
	}
	cands := rp.pathCompletions(word, w.cmd == "cd" || w.cmd == "pushd")
	if tilde {
		home := strings.TrimSuffix(rp.home, "/")
		for i, c := range cands {
			cands[i] = "~" + strings.TrimPrefix(c, home)
		}
	}
	return cands
}

// quoteWord quotes a completed word for the line: inside the quote the
// user opened, or with backslashes. done closes the quote and adds a
// space.
func quoteWord(s string, quote byte, done bool) string {
	switch {
	case quote == '\'' && !strings.Contains(s, "'"):
		if done {
			return "'" + s + "' "
		}
		return "'" + s
	case quote == '"' || quote == '\'':
		var sb strings.Builder
		sb.WriteByte('"')
		for _, c := range []byte(s) {
			if strings.IndexByte("$`\"\\", c) >= 0 {
				sb.WriteByte('\\')
			}
			sb.WriteByte(c)
		}
		if done {
			sb.WriteString(`" `)
		}
		return sb.String()
	}
	var sb strings.Builder
	for i, c := range []byte(s) {
		if strings.IndexByte(" \t\n'\"\\$`;&|()<>*?[]!{}", c) >= 0 || c == '#' && i == 0 {
			sb.WriteByte('\\')
		}
		sb.WriteByte(c)
	}
	if done {
		sb.WriteByte(' ')
	}
	return sb.String()
}

// listCandidates shows the candidates below the line, in columns, then
// the prompt and the line again.
func (rp *repl) listCandidates(line string, cands []string, isPath bool) {
	names := make([]string, len(cands))
	width := 0
	for i, c := range cands {
		if isPath {
			base := strings.TrimSuffix(c, "/")
			c = c[strings.LastIndexByte(base, '/')+1:]
		}
		names[i] = c
		width = max(width, len(c))
	}
	width += 2
	cols := max(1, int(rp.width.Load())/width)
	rows := (len(names) + cols - 1) / cols
	var sb strings.Builder
	sb.WriteString(rp.prompt + line + "\n")
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			i := c*rows + r
			if i >= len(names) {
				break
			}
			if c+1 < cols && i+rows < len(names) {
				fmt.Fprintf(&sb, "%-*s", width, names[i])
			} else {
				sb.WriteString(names[i])
			}
		}
		sb.WriteByte('\n')
	}
	rp.t.Write([]byte(sb.String()))
}
