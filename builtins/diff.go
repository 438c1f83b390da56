package builtins

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"hash/maphash"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sandsh/sandsh/builtins/internal/diff"
	"github.com/sandsh/sandsh/builtins/internal/guard"
)

const dataDiffUsage = `Usage: diff [OPTION]... FILES
Compare FILES line by line.

      --normal                  output a normal diff (the default)
  -q, --brief                   report only when files differ
  -s, --report-identical-files  report when two files are the same
  -c, -C NUM, --context[=NUM]   output NUM (default 3) lines of copied context
  -u, -U NUM, --unified[=NUM]   output NUM (default 3) lines of unified context
  -e, --ed                      output an ed script
  -y, --side-by-side            output in two columns
  -W, --width=NUM               output at most NUM (default 130) print columns
      --left-column             output only the left column of common lines
      --suppress-common-lines   do not output common lines
  -t, --expand-tabs             expand tabs to spaces in output
  -r, --recursive               recursively compare any subdirectories found
  -N, --new-file                treat absent files as empty
  -x, --exclude=PAT             exclude files that match PAT
  -i, --ignore-case             ignore case differences in file contents
  -b, --ignore-space-change     ignore changes in the amount of white space
  -w, --ignore-all-space        ignore all white space
  -B, --ignore-blank-lines      ignore changes where lines are all blank
      --strip-trailing-cr       strip trailing carriage return on input
  -a, --text                    treat all files as text
      --label LABEL             use LABEL instead of file name and timestamp
  -d, --minimal                 accepted; the search is always thorough

FILES are 'FILE1 FILE2' or 'DIR1 DIR2' or 'DIR FILE' or 'FILE DIR'.
If a FILE is '-', read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.
`

// dataDiff holds one diff invocation's options and state.
type dataDiff struct {
	ctx                            context.Context
	env                            *Env
	w                              *bufio.Writer
	format                         string // normal, unified, context, ed
	context                        int
	brief, identical, recursive    bool
	newFile, text, ignoreCase      bool
	ignoreSpace, ignoreAll, blanks bool
	stripCR                        bool
	labels                         []string
	excludes                       []string
	switches                       string // options as given, for "diff -r a/x b/x" lines
	side                           diff.SideBySide
}

var diffGetopt = Getopt{Short: "qscC:uU:erNx:ibwBadtTpyW:", Long: []string{"normal", "brief", "report-identical-files",
	"context?", "unified?", "ed", "recursive", "new-file", "exclude=", "ignore-case", "ignore-space-change",
	"ignore-all-space", "ignore-blank-lines", "strip-trailing-cr", "text", "label=", "minimal",
	"speed-large-files", "color?", "no-dereference", "side-by-side", "width=", "expand-tabs",
	"suppress-common-lines", "left-column"},
	LongAlias: map[string]string{"brief": "q", "report-identical-files": "s", "ed": "e", "recursive": "r",
		"new-file": "N", "exclude": "x", "ignore-case": "i", "ignore-space-change": "b", "ignore-all-space": "w",
		"ignore-blank-lines": "B", "text": "a", "minimal": "d", "side-by-side": "y", "width": "W",
		"expand-tabs": "t"}}

// runDiffCommand is diff; the plain name runDiff is taken by the test
// harness's differential-test helper.
func runDiffCommand(ctx context.Context, env *Env, args []string) int {
	d := &dataDiff{ctx: ctx, env: env, format: "normal", context: 3, side: diff.SideBySide{Width: 130}}
	g := diffGetopt
	opts, ops, err := g.Parse(args[1:])
	if err != nil {
		fmt.Fprintf(env.Stderr, "diff: %v\ndiff: Try 'diff --help' for more information.\n", err)
		return 2
	}
	d.switches = dataDiffSwitches(args[1:], ops)
	for _, o := range opts {
		switch o.Name {
		case "normal":
			d.format = "normal"
		case "q":
			d.brief = true
		case "s":
			d.identical = true
		case "c", "u":
			d.format = map[string]string{"c": "context", "u": "unified"}[o.Name]
		case "context", "unified", "C", "U":
			d.format = map[string]string{"context": "context", "C": "context", "unified": "unified", "U": "unified"}[o.Name]
			if o.HasValue {
				n, err := strconv.Atoi(o.Value)
				if err != nil || n < 0 {
					fmt.Fprintf(env.Stderr, "diff: invalid context length '%s'\ndiff: Try 'diff --help' for more information.\n", o.Value)
					return 2
				}
				d.context = n
			}
		case "e":
			d.format = "ed"
		case "r":
			d.recursive = true
		case "N":
			d.newFile = true
		case "x":
			d.excludes = append(d.excludes, o.Value)
		case "i":
			d.ignoreCase = true
		case "b":
			d.ignoreSpace = true
		case "w":
			d.ignoreAll = true
		case "B":
			d.blanks = true
		case "strip-trailing-cr":
			d.stripCR = true
		case "a":
			d.text = true
		case "label":
			d.labels = append(d.labels, o.Value)
		case "y":
			d.format = "side"
		case "W":
			// Huge widths saturate, as in GNU diff; the layout bounds
			// them again before any arithmetic.
			n, ok := textParseCount(o.Value)
			if !ok || n <= 0 {
				fmt.Fprintf(env.Stderr, "diff: invalid width '%s'\ndiff: Try 'diff --help' for more information.\n", o.Value)
				return 2
			}
			d.side.Width = n
		case "t":
			d.side.ExpandTabs = true
		case "suppress-common-lines":
			d.side.SuppressCommon = true
		case "left-column":
			d.side.LeftColumn = true
		}
	}
	switch {
	case len(ops) < 2:
		what := "missing operand after 'diff'"
		if len(ops) == 1 {
			what = fmt.Sprintf("missing operand after '%s'", ops[0])
		}
		fmt.Fprintf(env.Stderr, "diff: %s\ndiff: Try 'diff --help' for more information.\n", what)
		return 2
	case len(ops) > 2:
		fmt.Fprintf(env.Stderr, "diff: extra operand '%s'\ndiff: Try 'diff --help' for more information.\n", ops[2])
		return 2
	}
	d.w = dataWriter(env)
	st := d.compareTop(ops[0], ops[1])
	if err := d.w.Flush(); err != nil {
		return env.WriteError("diff", err)
	}
	return st
}

// dataDiffSwitches rebuilds the option part of the command line, which
// GNU diff repeats in "diff -r a/f b/f" headers.
func dataDiffSwitches(args, ops []string) string {
	var sw []string
	used := map[int]bool{}
	for _, op := range ops {
		for i, a := range args {
			if a == op && !used[i] {
				used[i] = true
				break
			}
		}
	}
	for i, a := range args {
		if a == "--" {
			break
		}
		if !used[i] {
			sw = append(sw, a)
		}
	}
	if len(sw) == 0 {
		return ""
	}
	return " " + strings.Join(sw, " ")
}

func (d *dataDiff) stat(name string) (fs.FileInfo, error) {
	if name == "-" {
		return nil, nil
	}
	return d.env.FS.Stat(d.env.Abs(name))
}

func (d *dataDiff) trouble(name string, err error) int {
	d.w.Flush()
	d.env.FileError("diff", name, err)
	return 2
}

func (d *dataDiff) compareTop(a, b string) int {
	fa, err := d.stat(a)
	if err != nil {
		return d.trouble(a, err)
	}
	fb, err := d.stat(b)
	if err != nil {
		return d.trouble(b, err)
	}
	aDir, bDir := fa != nil && fa.IsDir(), fb != nil && fb.IsDir()
	switch {
	case aDir && bDir:
		return d.compareDirs(a, b)
	case aDir:
		if b == "-" {
			d.w.Flush()
			d.env.Errorf("diff", "cannot compare '-' to a directory")
			return 2
		}
		return d.compareNamed(path.Join(a, path.Base(b)), b, true)
	case bDir:
		if a == "-" {
			d.w.Flush()
			d.env.Errorf("diff", "cannot compare '-' to a directory")
			return 2
		}
		return d.compareNamed(a, path.Join(b, path.Base(a)), true)
	}
	return d.compareFiles(a, b, false)
}

// compareNamed compares two paths that may each be missing.
func (d *dataDiff) compareNamed(a, b string, top bool) int {
	if _, err := d.stat(a); err != nil {
		return d.trouble(a, err)
	}
	if _, err := d.stat(b); err != nil {
		return d.trouble(b, err)
	}
	return d.compareFiles(a, b, !top)
}

func (d *dataDiff) excluded(name string) bool {
	for _, p := range d.excludes {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

func (d *dataDiff) readDirNames(dir string) ([]string, error) {
	f, err := d.env.FS.Open(d.env.Abs(dir))
	if err != nil {
		if d.newFile && dataNotExist(err) {
			return nil, nil // -N: a missing directory is an empty one
		}
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	out := names[:0]
	for _, n := range names {
		if !d.excluded(n) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out, nil
}

func (d *dataDiff) compareDirs(a, b string) int {
	na, err := d.readDirNames(a)
	if err != nil {
		return d.trouble(a, err)
	}
	nb, err := d.readDirNames(b)
	if err != nil {
		return d.trouble(b, err)
	}
	inA := map[string]bool{}
	for _, n := range na {
		inA[n] = true
	}
	inB := map[string]bool{}
	for _, n := range nb {
		inB[n] = true
	}
	all := append(append([]string(nil), na...), nb...)
	sort.Strings(all)
	st := 0
	for i, n := range all {
		if i > 0 && all[i-1] == n {
			continue
		}
		if d.ctx.Err() != nil {
			return 2
		}
		pa, pb := path.Join(a, n), path.Join(b, n)
		var s int
		switch {
		case !inB[n]:
			s = d.onlyIn(a, n, pa, pb, true)
		case !inA[n]:
			s = d.onlyIn(b, n, pa, pb, false)
		default:
			s = d.compareEntry(pa, pb)
		}
		st = max(st, s)
	}
	return st
}

func (d *dataDiff) onlyIn(dir, name, pa, pb string, leftHas bool) int {
	if d.newFile {
		p := pa
		if !leftHas {
			p = pb
		}
		if fi, err := d.stat(p); err == nil {
			if !fi.IsDir() {
				return d.compareFiles(pa, pb, true)
			}
			if d.recursive {
				return d.compareDirs(pa, pb)
			}
		}
	}
	fmt.Fprintf(d.w, "Only in %s: %s\n", dir, name)
	return 1
}

func (d *dataDiff) compareEntry(pa, pb string) int {
	fa, err := d.stat(pa)
	if err != nil {
		return d.trouble(pa, err)
	}
	fb, err := d.stat(pb)
	if err != nil {
		return d.trouble(pb, err)
	}
	switch {
	case fa.IsDir() && fb.IsDir():
		if d.recursive {
			return d.compareDirs(pa, pb)
		}
		fmt.Fprintf(d.w, "Common subdirectories: %s and %s\n", d.shown(pa, 0), d.shown(pb, 1))
		return 0
	case fa.IsDir() != fb.IsDir():
		ka, kb := "regular file", "directory"
		if fa.IsDir() {
			ka, kb = kb, ka
		}
		if fa.Mode().IsRegular() && fa.Size() == 0 || fb.Mode().IsRegular() && fb.Size() == 0 {
			ka = strings.Replace(ka, "regular file", "regular empty file", 1)
			kb = strings.Replace(kb, "regular file", "regular empty file", 1)
		}
		fmt.Fprintf(d.w, "File %s is a %s while file %s is a %s\n", d.shown(pa, 0), ka, d.shown(pb, 1), kb)
		return 1
	}
	return d.compareFiles(pa, pb, true)
}

// dataDiffInput is one side's content.
type dataDiffInput struct {
	name   string
	data   []byte
	mtime  time.Time
	absent bool
}

func (d *dataDiff) load(name string, mayBeAbsent bool) (*dataDiffInput, error) {
	in := &dataDiffInput{name: name}
	if name == "-" {
		b, err := d.env.ReadAll(d.ctx, d.env.Stdin)
		in.data, in.mtime = b, d.env.System().Now()
		return in, err
	}
	fi, err := d.env.FS.Stat(d.env.Abs(name))
	if err != nil {
		if mayBeAbsent && d.newFile {
			in.absent = true
			in.mtime = time.Unix(0, 0)
			return in, nil
		}
		return nil, err
	}
	in.mtime = fi.ModTime()
	f, err := d.env.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	in.data, err = d.env.ReadAll(d.ctx, f)
	return in, err
}

// shown is how messages name a file: its --label when one was given.
func (d *dataDiff) shown(name string, i int) string {
	if i < len(d.labels) {
		return d.labels[i]
	}
	return name
}

func (d *dataDiff) header(in *dataDiffInput, i int) string {
	if i < len(d.labels) {
		return d.labels[i]
	}
	return in.name + "\t" + in.mtime.UTC().Format("2006-01-02 15:04:05.000000000 -0700")
}

// compareFiles diffs two regular files; sub marks files found while
// walking directories, which get a "diff ..." line before their output.
func (d *dataDiff) compareFiles(a, b string, sub bool) int {
	ia, err := d.load(a, sub)
	if err != nil {
		return d.trouble(a, err)
	}
	ib, err := d.load(b, sub)
	if err != nil {
		return d.trouble(b, err)
	}
	a, b = d.shown(a, 0), d.shown(b, 1)
	if bytes.Equal(ia.data, ib.data) && ia.absent == ib.absent && d.format != "side" {
		if d.identical {
			fmt.Fprintf(d.w, "Files %s and %s are identical\n", a, b)
		}
		return 0
	}
	if !d.text && (dataDiffBinary(ia.data) || dataDiffBinary(ib.data)) {
		if d.brief {
			fmt.Fprintf(d.w, "Files %s and %s differ\n", a, b)
		} else {
			fmt.Fprintf(d.w, "Binary files %s and %s differ\n", a, b)
		}
		return 1
	}
	fa, fb := dataDiffSplit(ia.data), dataDiffSplit(ib.data)
	ca, cb := d.classes(fa, fb)
	horizon := 0
	if d.format == "unified" || d.format == "context" {
		horizon = d.context
	}
	changes := diff.Compare(d.ctx, ca, cb, horizon)
	if d.blanks {
		changes = dataDiffDropBlank(changes, fa, fb)
	}
	if d.ctx.Err() != nil {
		return 2
	}
	if len(changes) == 0 {
		if d.identical {
			fmt.Fprintf(d.w, "Files %s and %s are identical\n", a, b)
		} else if d.format == "side" && !d.side.SuppressCommon {
			fa.Header, fb.Header = "", ""
			if err := d.sideBySide(fa, fb, nil); err != nil {
				return 2
			}
		}
		return 0
	}
	if d.brief {
		fmt.Fprintf(d.w, "Files %s and %s differ\n", a, b)
		return 1
	}
	if sub {
		fmt.Fprintf(d.w, "diff%s %s %s\n", d.switches, a, b)
	}
	fa.Header, fb.Header = d.header(ia, 0), d.header(ib, 1)
	switch d.format {
	case "unified":
		diff.WriteUnified(d.w, fa, fb, changes, d.context)
	case "context":
		diff.WriteContext(d.w, fa, fb, changes, d.context)
	case "ed":
		diff.WriteEd(d.w, fa, fb, changes)
	case "side":
		if err := d.sideBySide(fa, fb, changes); err != nil {
			return 2
		}
	default:
		diff.WriteNormal(d.w, fa, fb, changes)
	}
	return 1
}

// sideBySide writes diff -y, charging the run's meter with the output.
// A write error is reported when the output is flushed; cancellation
// ends the run quietly.
func (d *dataDiff) sideBySide(fa, fb *diff.File, changes []diff.Change) error {
	o := d.side
	o.Meter = guard.NewMeter(d.ctx)
	return diff.WriteSideBySide(d.w, fa, fb, changes, o)
}

// dataDiffBinary reports whether data looks binary: a NUL byte in its
// first 32 KiB, GNU's test.
func dataDiffBinary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), 32<<10)], 0) >= 0
}

// dataDiffSplit splits data into lines that alias it.
func dataDiffSplit(data []byte) *diff.File {
	f := &diff.File{}
	n := bytes.Count(data, []byte{'\n'})
	f.Lines = make([][]byte, 0, n+1)
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			f.Lines = append(f.Lines, data)
			f.NoEOL = true
			break
		}
		f.Lines = append(f.Lines, data[:i])
		data = data[i+1:]
	}
	return f
}

// classes numbers the lines of both files so that lines equal under the
// ignore options share a number.
func (d *dataDiff) classes(fa, fb *diff.File) ([]int32, []int32) {
	tab := newDataDiffTable(len(fa.Lines) + len(fb.Lines))
	norm := d.ignoreCase || d.ignoreSpace || d.ignoreAll || d.stripCR
	// Normalized lines live in one arena; slices into an outgrown arena
	// stay valid, so no line is copied twice.
	var arena []byte
	number := func(f *diff.File) []int32 {
		out := make([]int32, len(f.Lines))
		for i, l := range f.Lines {
			if norm {
				start := len(arena)
				arena = d.normalize(arena, l)
				l = arena[start:len(arena):len(arena)]
			}
			// A last line without newline never equals one with it.
			noEOL := f.NoEOL && i == len(f.Lines)-1 && !d.ignoreAll && !d.ignoreSpace
			out[i] = tab.id(l, noEOL, false)
		}
		return out
	}
	return number(fa), number(fb)
}

// dataDiffTable interns lines into class numbers. It is an open
// addressing table over the line bytes, which avoids a string per line.
type dataDiffTable struct {
	seed  maphash.Seed
	slots []int32 // 1+index into ents, 0 for empty
	ents  []dataDiffEnt
	mask  uint64
}

type dataDiffEnt struct {
	hash  uint64
	line  []byte
	noEOL bool
}

func newDataDiffTable(n int) *dataDiffTable {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	return &dataDiffTable{seed: maphash.MakeSeed(), slots: make([]int32, size), mask: uint64(size - 1)}
}

// id returns the class of line; copyLine says line's bytes are reused
// by the caller and must be copied when stored.
func (t *dataDiffTable) id(line []byte, noEOL, copyLine bool) int32 {
	h := maphash.Bytes(t.seed, line)
	if noEOL {
		h = ^h
	}
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		s := t.slots[i]
		if s == 0 {
			if copyLine {
				line = append([]byte(nil), line...)
			}
			t.ents = append(t.ents, dataDiffEnt{h, line, noEOL})
			t.slots[i] = int32(len(t.ents))
			return int32(len(t.ents))
		}
		e := &t.ents[s-1]
		if e.hash == h && e.noEOL == noEOL && bytes.Equal(e.line, line) {
			return s
		}
	}
}

func dataDiffSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r'
}

func (d *dataDiff) normalize(dst, l []byte) []byte {
	if d.stripCR && len(l) > 0 && l[len(l)-1] == '\r' {
		l = l[:len(l)-1]
	}
	pendingSpace := false
	for _, c := range l {
		if d.ignoreCase && c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if (d.ignoreAll || d.ignoreSpace) && dataDiffSpace(c) {
			pendingSpace = d.ignoreSpace && !d.ignoreAll
			continue
		}
		if pendingSpace {
			dst = append(dst, ' ')
			pendingSpace = false
		}
		dst = append(dst, c)
	}
	return dst
}

// dataDiffDropBlank removes changes whose lines are all blank (-B).
func dataDiffDropBlank(changes []diff.Change, fa, fb *diff.File) []diff.Change {
	blank := func(f *diff.File, from, n int) bool {
		for i := from; i < from+n; i++ {
			if len(bytes.TrimRight(f.Lines[i], "\r")) != 0 {
				return false
			}
		}
		return true
	}
	out := changes[:0]
	for _, c := range changes {
		if !(blank(fa, c.A0, c.Del) && blank(fb, c.B0, c.Ins)) {
			out = append(out, c)
		}
	}
	return out
}
