package builtins

import (
	"bytes"
	"context"
	"strconv"
)

const columnUsage = `Usage:
 column [options] [<file>...]

Columnate lists.

Options:
 -t, --table                      create a table
 -n, --table-name <name>          table name for JSON output (ignored)
 -L, --keep-empty-lines           don't ignore empty lines
 -c, --output-width <width>       width of output in number of characters
 -o, --output-separator <string>  columns separator for table output (default is two spaces)
 -s, --separator <string>         possible table delimiters
 -x, --fillrows                   fill rows before columns
 -h, --help                       display this help
`

var columnGetopt = Getopt{
	Short: "tn:Lc:o:s:x",
	Long: []string{"table", "table-name=", "keep-empty-lines", "output-width=",
		"output-separator=", "separator=", "fillrows"},
	LongAlias: map[string]string{"table": "t", "table-name": "n", "keep-empty-lines": "L",
		"output-width": "c", "output-separator": "o", "separator": "s", "fillrows": "x"},
}

// columnJob holds column's settings.
type columnJob struct {
	table, fillRows, keepEmpty bool
	width                      int
	outSep                     []byte
	inSep                      []byte
	greedy                     bool
}

func runColumn(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	opts, files, err := columnGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(name, err, 1)
	}
	j := &columnJob{outSep: []byte("  "), inSep: []byte(" \t"), greedy: true, width: 80}
	if v, err := strconv.Atoi(env.Getenv("COLUMNS")); err == nil && v > 0 {
		j.width = v
	}
	for _, o := range opts {
		switch o.Name {
		case "t":
			j.table = true
		case "L":
			j.keepEmpty = true
		case "x":
			j.fillRows = true
		case "c":
			v, err := strconv.Atoi(o.Value)
			if err != nil || v < 0 {
				env.Errorf(name, "invalid columns argument: '%s'", o.Value)
				return 1
			}
			j.width = v
		case "o":
			j.outSep = []byte(o.Value)
		case "s":
			j.inSep, j.greedy = []byte(o.Value), false
		}
	}
	var lines [][]byte
	status, err := textEachFile(ctx, env, name, files, func(data []byte) {
		for len(data) > 0 {
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				lines = append(lines, data)
				break
			}
			lines = append(lines, data[:i])
			data = data[i+1:]
		}
	})
	if err != nil {
		return 130
	}
	w := newTextWriter(env.Stdout)
	if j.table {
		if !j.writeTable(lines, w) {
			status = 1
		}
	} else {
		j.writeFill(lines, w)
	}
	if err := w.Flush(); err != nil {
		return env.WriteError(name, err)
	}
	return status
}

// textEachFile reads each input whole (column must see every line before
// it can lay them out) and hands the data to fn.
func textEachFile(ctx context.Context, env *Env, name string, files []string, fn func([]byte)) (int, error) {
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	for _, f := range files {
		r, err := textOpen(env, f)
		if err != nil {
			status = env.FileError(name, f, err)
			continue
		}
		data, err := env.ReadAll(ctx, r)
		r.Close()
		if err != nil {
			status = env.FileError(name, f, err)
			continue
		}
		if ctx.Err() != nil {
			return status, ctx.Err()
		}
		fn(data)
	}
	return status, nil
}

func textColumnBlankLine(l []byte) bool {
	return len(bytes.TrimLeft(l, " \t\n\v\f\r")) == 0
}

// textColumnWidth is the display width in the C locale: control
// characters take no room.
func textColumnWidth(s []byte) int {
	n := 0
	for _, c := range s {
		if c >= 0x20 && c != 0x7f {
			n++
		}
	}
	return n
}

func (j *columnJob) split(line []byte) [][]byte {
	isSep := func(c byte) bool { return bytes.IndexByte(j.inSep, c) >= 0 }
	var cells [][]byte
	if j.greedy {
		for i := 0; i < len(line); {
			for i < len(line) && isSep(line[i]) {
				i++
			}
			if i == len(line) {
				break
			}
			start := i
			for i < len(line) && !isSep(line[i]) {
				i++
			}
			cells = append(cells, line[start:i])
		}
		return cells
	}
	start := 0
	for i, c := range line {
		if isSep(c) {
			cells = append(cells, line[start:i])
			start = i + 1
		}
	}
	return append(cells, line[start:])
}

// writeTable lays out lines as a table; it reports false for a table
// that has rows but no columns, which util-linux treats as a failure.
func (j *columnJob) writeTable(lines [][]byte, w textWriter) bool {
	var rows [][][]byte
	var widths []int
	for _, l := range lines {
		if textColumnBlankLine(l) {
			if j.keepEmpty {
				rows = append(rows, nil)
			}
			continue
		}
		cells := j.split(l)
		for i, c := range cells {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], textColumnWidth(c))
		}
		rows = append(rows, cells)
	}
	if len(widths) == 0 {
		return len(rows) == 0
	}
	for _, cells := range rows {
		for i := range widths {
			var c []byte
			if i < len(cells) {
				c = cells[i]
			}
			w.Write(c)
			if i == len(widths)-1 {
				break
			}
			textPad(w, widths[i]-textColumnWidth(c))
			w.Write(j.outSep)
		}
		w.WriteByte('\n')
	}
	return true
}

func (j *columnJob) writeFill(lines [][]byte, w textWriter) {
	var ents [][]byte
	maxLen := 0
	for _, l := range lines {
		if textColumnBlankLine(l) {
			if !j.keepEmpty {
				continue
			}
			l = nil
		}
		ents = append(ents, l)
		maxLen = max(maxLen, textColumnWidth(l))
	}
	if len(ents) == 0 {
		return
	}
	if maxLen >= j.width {
		for _, e := range ents {
			w.Write(e)
			w.WriteByte('\n')
		}
		return
	}
	maxLen = (maxLen + 8) &^ 7
	numCols := j.width / maxLen
	if j.fillRows {
		// util-linux does not raise 0 columns to 1 here: all on one row.
		j.fillRowsOut(ents, maxLen, numCols, w)
		return
	}
	numCols = max(1, numCols)
	numRows := (len(ents) + numCols - 1) / numCols
	for row := 0; row < numRows; row++ {
		endCol := maxLen
		chcnt := 0
		for base, col := row, 0; col < numCols; col++ {
			w.Write(ents[base])
			chcnt += textColumnWidth(ents[base])
			if base += numRows; base >= len(ents) {
				break
			}
			chcnt = textColumnTabs(w, chcnt, endCol)
			endCol += maxLen
		}
		w.WriteByte('\n')
	}
}

// textColumnTabs pads with tabs from column chcnt up to endCol.
func textColumnTabs(w textWriter, chcnt, endCol int) int {
	for {
		cnt := (chcnt + 8) &^ 7
		if cnt > endCol {
			return chcnt
		}
		w.WriteByte('\t')
		chcnt = cnt
	}
}

func (j *columnJob) fillRowsOut(ents [][]byte, maxLen, numCols int, w textWriter) {
	chcnt, col, endCol := 0, 0, maxLen
	for i, e := range ents {
		w.Write(e)
		chcnt += textColumnWidth(e)
		if i == len(ents)-1 {
			break
		}
		if col++; col == numCols {
			chcnt, col, endCol = 0, 0, maxLen
			w.WriteByte('\n')
			continue
		}
		chcnt = textColumnTabs(w, chcnt, endCol)
		endCol += maxLen
	}
	if chcnt > 0 {
		w.WriteByte('\n')
	}
}
