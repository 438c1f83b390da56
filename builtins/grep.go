package builtins

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/sandsh/sandsh/builtins/internal/grep"
	"github.com/sandsh/sandsh/builtins/internal/regex"
	"github.com/sandsh/sandsh/vfs"
)

const grepUsage = `Usage: grep [OPTION]... PATTERNS [FILE]...
Search for PATTERNS in each FILE.
Example: grep -i 'hello world' menu.h main.c
PATTERNS can contain multiple patterns separated by newlines.

Pattern selection and interpretation:
  -E, --extended-regexp     PATTERNS are extended regular expressions
  -F, --fixed-strings       PATTERNS are strings
  -G, --basic-regexp        PATTERNS are basic regular expressions
  -P, --perl-regexp         PATTERNS are Perl regular expressions
  -e, --regexp=PATTERNS     use PATTERNS for matching
  -f, --file=FILE           take PATTERNS from FILE
  -i, --ignore-case         ignore case distinctions in patterns and data
      --no-ignore-case      do not ignore case distinctions (default)
  -w, --word-regexp         match only whole words
  -x, --line-regexp         match only whole lines
  -z, --null-data           a data line ends in 0 byte, not newline

Miscellaneous:
  -s, --no-messages         suppress error messages
  -v, --invert-match        select non-matching lines
      --help                display this help text and exit

Output control:
  -m, --max-count=NUM       stop after NUM selected lines
  -b, --byte-offset         print the byte offset with output lines
  -n, --line-number         print line number with output lines
      --line-buffered       flush output on every line
  -H, --with-filename       print file name with output lines
  -h, --no-filename         suppress the file name prefix on output
      --label=LABEL         use LABEL as the standard input file name prefix
  -o, --only-matching       show only nonempty parts of lines that match
  -q, --quiet, --silent     suppress all normal output
      --binary-files=TYPE   assume that binary files are TYPE;
                            TYPE is 'binary', 'text', or 'without-match'
  -a, --text                equivalent to --binary-files=text
  -I                        equivalent to --binary-files=without-match
  -d, --directories=ACTION  how to handle directories;
                            ACTION is 'read', 'recurse', or 'skip'
  -D, --devices=ACTION      how to handle devices (accepted, ignored)
  -r, --recursive           like --directories=recurse
  -R, --dereference-recursive  likewise, but follow all symlinks
      --include=GLOB        search only files that match GLOB (a file pattern)
      --exclude=GLOB        skip files that match GLOB
      --exclude-from=FILE   skip files that match any file pattern from FILE
      --exclude-dir=GLOB    skip directories that match GLOB
  -L, --files-without-match  print only names of FILEs with no selected lines
  -l, --files-with-matches  print only names of FILEs with selected lines
  -c, --count               print only a count of selected lines per FILE
  -T, --initial-tab         make tabs line up (if needed)
  -Z, --null                print 0 byte after FILE name

Context control:
  -B, --before-context=NUM  print NUM lines of leading context
  -A, --after-context=NUM   print NUM lines of trailing context
  -C, --context=NUM         print NUM lines of output context
  -NUM                      same as --context=NUM
      --group-separator=SEP  print SEP on line between matches with context
      --no-group-separator  do not print separator for matches with context
      --color[=WHEN]        accepted; output is never colored
  -U, --binary              accepted, no effect

When FILE is '-', read standard input.  With no FILE, read '.' if
recursive, '-' otherwise.  With fewer than two FILEs, assume -h.
Exit status is 0 if any line is selected, 1 otherwise;
if any error occurs and -q is not given, the exit status is 2.
`

var grepGetopt = Getopt{
	Same:         map[string]string{"y": "i"},
	Short:        "EFGPe:f:iywxzsvm:bnHhoqaId:D:rRLlcZA:B:C:UVT",
	NumericShort: true,
	Long: []string{
		"extended-regexp", "fixed-strings", "basic-regexp", "perl-regexp",
		"regexp=", "file=", "ignore-case", "no-ignore-case", "word-regexp",
		"line-regexp", "null-data", "no-messages", "invert-match", "version",
		"max-count=", "byte-offset", "line-number", "no-line-number", "line-buffered",
		"with-filename", "no-filename", "label=", "only-matching", "quiet",
		"silent", "binary-files=", "text", "directories=", "devices=",
		"recursive", "dereference-recursive", "include=", "exclude=",
		"exclude-from=", "exclude-dir=", "files-without-match",
		"files-with-matches", "count", "null", "before-context=",
		"after-context=", "context=", "group-separator=", "no-group-separator",
		"color?", "colour?", "binary", "initial-tab",
	},
	LongAlias: map[string]string{
		"extended-regexp": "E", "fixed-strings": "F", "basic-regexp": "G",
		"perl-regexp": "P", "regexp": "e", "file": "f", "ignore-case": "i",
		"word-regexp": "w", "line-regexp": "x", "null-data": "z",
		"no-messages": "s", "invert-match": "v", "max-count": "m",
		"byte-offset": "b", "line-number": "n", "with-filename": "H",
		"no-filename": "h", "only-matching": "o", "quiet": "q", "silent": "q",
		"text": "a", "directories": "d", "devices": "D", "recursive": "r",
		"dereference-recursive": "R", "files-without-match": "L",
		"files-with-matches": "l", "count": "c", "null": "Z",
		"before-context": "B", "after-context": "A", "context": "C",
		"binary": "U", "version": "V", "initial-tab": "T",
	},
}

// grepFilter is one --include, --exclude or --exclude-dir glob.
type grepFilter struct {
	include bool
	glob    string
}

// grepRun is one grep invocation.
type grepRun struct {
	env      *Env
	searcher *grep.Searcher
	out      *bufio.Writer

	silent      bool   // -s
	directories string // read, skip, recurse
	deref       bool   // -R
	label       string
	files       []grepFilter // --include and --exclude, in order
	dirs        []string     // --exclude-dir
	withName    int          // -1 -h, 1 -H, 0 default

	selected bool
	errored  bool
	quit     bool
	status   int // set to stop at once (write error)

	// loops holds the directories being walked (resolved): -R does not
	// enter one again through a symlink, as GNU grep does not.
	loops *filesLoopGuard
}

func runGrep(ctx context.Context, env *Env, args []string) int {
	const name = "grep"
	opts, operands, err := grepGetopt.Parse(args[1:])
	if err != nil {
		return grepUsageError(env, err.Error())
	}
	g := &grepRun{env: env, directories: "read", label: "(standard input)"}
	o := grep.Options{MaxCount: -1, GroupSeparator: []byte("--")}
	lo := regex.ListOptions{Syntax: regex.BRE, Lines: true}
	var patterns []string
	patternsGiven := false
	matcher := ""
	ctxDefault, before, after := -1, -1, -1
	quiet, filesWith, filesWithout, count := false, false, false, false
	for _, op := range opts {
		switch op.Name {
		case "E", "F", "G", "P":
			if matcher != "" && matcher != op.Name {
				env.Errorf(name, "conflicting matchers specified")
				return 2
			}
			matcher = op.Name
			lo.Syntax = map[string]regex.Syntax{"E": regex.ERE, "F": regex.Fixed, "G": regex.BRE, "P": regex.PCRE}[op.Name]
		case "e":
			patterns = append(patterns, strings.Split(op.Value, "\n")...)
			patternsGiven = true
		case "f":
			pats, err := grepReadPatterns(env, op.Value)
			if err != nil {
				env.FileError(name, op.Value, err)
				return 2
			}
			patterns = append(patterns, pats...)
			patternsGiven = true
		case "i", "y":
			lo.IgnoreCase = true
		case "no-ignore-case":
			lo.IgnoreCase = false
		case "w":
			if lo.Whole != regex.WholeLine {
				lo.Whole = regex.WholeWord
			}
		case "x":
			lo.Whole = regex.WholeLine
		case "z":
			o.NullData = true
			lo.Lines = false
		case "s":
			g.silent = true
		case "v":
			o.Invert = true
		case "m":
			n, err := strconv.ParseInt(op.Value, 10, 64)
			if err != nil {
				env.Errorf(name, "invalid max count")
				return 2
			}
			if n >= 0 {
				o.MaxCount = n
			}
		case "b":
			o.ByteOffset = true
		case "n":
			o.LineNumber = true
		case "no-line-number":
			o.LineNumber = false
		case "H":
			g.withName = 1
		case "h":
			g.withName = -1
		case "label":
			g.label = op.Value
		case "o":
			o.OnlyMatching = true
		case "q":
			quiet = true
		case "binary-files":
			switch op.Value {
			case "binary":
				o.Binary = grep.BinaryDetect
			case "text":
				o.Binary = grep.BinaryText
			case "without-match":
				o.Binary = grep.BinaryWithout
			default:
				env.Errorf(name, "unknown binary-files type")
				return 2
			}
		case "a":
			o.Binary = grep.BinaryText
		case "I":
			o.Binary = grep.BinaryWithout
		case "d":
			switch op.Value {
			case "read", "skip", "recurse":
				g.directories = op.Value
			default:
				env.Errorf(name, "invalid argument '%s' for '--directories'\nValid arguments are:\n  - 'read'\n  - 'recurse'\n  - 'skip'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.", op.Value)
				return 1
			}
		case "r":
			g.directories = "recurse"
		case "R":
			g.directories, g.deref = "recurse", true
		case "include", "exclude":
			g.files = append(g.files, grepFilter{include: op.Name == "include", glob: op.Value})
		case "exclude-from":
			globs, err := grepReadPatterns(env, op.Value)
			if err != nil {
				env.FileError(name, op.Value, err)
				return 2
			}
			for _, gl := range globs {
				g.files = append(g.files, grepFilter{glob: gl})
			}
		case "exclude-dir":
			g.dirs = append(g.dirs, op.Value)
		case "L":
			filesWithout = true
		case "l":
			filesWith = true
		case "c":
			count = true
		case "Z":
			o.NullAfterName = true
		case "A", "B", "C", "#":
			n, err := strconv.Atoi(op.Value)
			if err != nil || n < 0 {
				env.Errorf(name, "%s: invalid context length argument", op.Value)
				return 2
			}
			switch op.Name {
			case "A":
				after = n
			case "B":
				before = n
			default:
				ctxDefault = n
			}
		case "group-separator":
			o.GroupSeparator = []byte(op.Value)
		case "no-group-separator":
			o.GroupSeparator = nil
		case "T":
			o.InitialTab = true
		case "V":
			fmt.Fprintln(env.Stdout, "grep (GNU grep) 3.8 (sandsh)")
			return 0
		}
	}
	if !patternsGiven {
		if len(operands) == 0 {
			return grepUsageError(env, "")
		}
		patterns = strings.Split(operands[0], "\n")
		operands = operands[1:]
	}
	if after < 0 {
		after = ctxDefault
	}
	if before < 0 {
		before = ctxDefault
	}
	o.Context = after >= 0 || before >= 0
	o.After, o.Before = max(after, 0), max(before, 0)
	if m := env.LineMax(); m < math.MaxInt {
		o.MaxLine = m
	}
	o.MaxKeep = max(env.InputMax(), 0)
	switch {
	case quiet:
		o.Mode = grep.ModeQuiet
	case filesWith:
		o.Mode = grep.ModeFilesWith
	case filesWithout:
		o.Mode = grep.ModeFilesWithout
	case count:
		o.Mode = grep.ModeCount
	}
	re, err := regex.CompileList(patterns, lo)
	if err != nil {
		env.Errorf(name, "%s", err)
		return 2
	}
	for _, w := range re.Warnings() {
		env.Errorf(name, "warning: %s", w)
	}
	g.out = bufio.NewWriterSize(env.Stdout, 64<<10)
	g.searcher = &grep.Searcher{Re: re, Opt: o, Out: g.out, BinaryMatches: func(file string) {
		g.out.Flush()
		env.Errorf(name, "%s: binary file matches", file)
	}}
	return g.runAll(ctx, operands)
}

func grepUsageError(env *Env, msg string) int {
	if msg != "" {
		fmt.Fprintf(env.Stderr, "grep: %s\n", msg)
	}
	fmt.Fprint(env.Stderr, "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n")
	return 2
}

// grepNumberWidth is how wide GNU grep -T pads numbers: as many digits as
// the file's size has, or 19 (any int64) when the size is unknown.
func grepNumberWidth(r io.Reader) int {
	if st, ok := r.(interface{ Stat() (os.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
			return len(strconv.FormatInt(fi.Size(), 10))
		}
	}
	return 19
}

// grepReadPatterns reads -f FILE: one pattern per line ("-" is stdin).
func grepReadPatterns(env *Env, file string) ([]string, error) {
	var r io.Reader = env.Stdin
	if file != "-" {
		f, err := env.Open(file)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, nil
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n"), nil
}

func (g *grepRun) runAll(ctx context.Context, operands []string) int {
	implicit := false
	if len(operands) == 0 {
		operands = []string{"-"}
		if g.directories == "recurse" {
			operands, implicit = []string{"."}, true
		}
	}
	for _, op := range operands {
		g.operand(ctx, op, implicit, len(operands) > 1)
		if g.status != 0 {
			return g.status
		}
		if g.quit {
			break
		}
		if ctx.Err() != nil {
			g.out.Flush()
			return 130
		}
	}
	if err := g.out.Flush(); err != nil {
		return g.env.WriteError("grep", err)
	}
	switch {
	case g.quit:
		return 0
	case g.errored:
		return 2
	case g.selected:
		return 0
	}
	return 1
}

func (g *grepRun) fileError(file string, err error) {
	g.errored = true
	if !g.silent {
		g.out.Flush()
		g.env.FileError("grep", file, err)
	}
}

// showName applies -H/-h to the default.
func (g *grepRun) showName(def bool) bool {
	return g.withName > 0 || g.withName == 0 && def
}

// operand searches one command-line operand.
func (g *grepRun) operand(ctx context.Context, op string, implicit, several bool) {
	if op == "-" {
		g.search(ctx, g.env.Stdin, g.label, g.showName(several))
		return
	}
	abs := g.env.Abs(op)
	fi, err := g.env.FS.Stat(abs)
	if err != nil {
		g.fileError(op, err)
		return
	}
	if !fi.IsDir() {
		if !g.fileIncluded(op, true) {
			return
		}
		g.searchFile(ctx, op, abs, g.showName(several))
		return
	}
	switch g.directories {
	case "skip":
		return
	case "read":
		g.fileError(op, &fs.PathError{Op: "read", Path: op, Err: syscall.EISDIR})
		return
	}
	if !implicit && g.dirExcluded(op, true) {
		return
	}
	display := strings.TrimRight(op, "/")
	if display == "" {
		display = "/"
	}
	if implicit {
		display = ""
	}
	g.loops = &filesLoopGuard{fsys: g.env.FS}
	g.loops.enter(abs)
	g.walk(ctx, display, abs, g.showName(true), 0)
	g.loops.leave()
}

func grepJoin(dir, name string) string {
	switch dir {
	case "":
		return name
	case "/":
		return "/" + name
	}
	return dir + "/" + name
}

// walk searches a directory recursively in name order.
func (g *grepRun) walk(ctx context.Context, display, abs string, showName bool, links int) {
	entries, err := grepReadDir(g.env.FS, abs)
	if err != nil {
		g.fileError(grepDisplay(display), err)
		return
	}
	for _, fi := range entries {
		if g.quit || g.status != 0 || ctx.Err() != nil {
			return
		}
		name := grepJoin(display, fi.Name())
		childAbs := path.Join(abs, fi.Name())
		followed := links
		if fi.Mode()&fs.ModeSymlink != 0 {
			if !g.deref {
				continue
			}
			target, err := g.env.FS.Stat(childAbs)
			if err != nil {
				g.fileError(name, err)
				continue
			}
			fi = target
			followed++
		}
		switch {
		case fi.IsDir():
			if g.dirExcluded(fi.Name(), false) {
				continue
			}
			if followed > 40 || !g.loops.enter(childAbs) {
				g.env.Errorf("grep", "%s: warning: recursive directory loop", name)
				continue
			}
			g.walk(ctx, name, childAbs, showName, followed)
			g.loops.leave()
		case fi.Mode().IsRegular():
			if g.fileIncluded(fi.Name(), false) {
				g.searchFile(ctx, name, childAbs, showName)
			}
		}
	}
}

func grepDisplay(d string) string {
	if d == "" {
		return "."
	}
	return d
}

// grepReadDir lists a directory sorted by name, with Lstat information.
func grepReadDir(fsys vfs.FS, dir string) ([]os.FileInfo, error) {
	f, err := fsys.Open(dir)
	if err != nil {
		return nil, err
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	out := make([]os.FileInfo, 0, len(names))
	for _, n := range names {
		fi, err := vfs.Lstat(fsys, path.Join(dir, n))
		if err != nil {
			continue
		}
		out = append(out, fi)
	}
	return out, nil
}

// fileIncluded applies --include and --exclude: the last matching option
// wins; with none matching, a file is included unless the first option
// is an --include. Command-line names match on any suffix after a slash.
func (g *grepRun) fileIncluded(name string, cmdline bool) bool {
	if len(g.files) == 0 {
		return true
	}
	verdict, matched := false, false
	for _, f := range g.files {
		if grepGlobMatch(f.glob, name, cmdline) {
			verdict, matched = f.include, true
		}
	}
	if matched {
		return verdict
	}
	return !g.files[0].include
}

func (g *grepRun) dirExcluded(name string, cmdline bool) bool {
	for _, d := range g.dirs {
		if grepGlobMatch(d, strings.TrimRight(name, "/"), cmdline) {
			return true
		}
	}
	return false
}

func grepGlobMatch(glob, name string, suffixes bool) bool {
	// fnmatch writes a negated set [!...]; path.Match wants [^...].
	glob = strings.ReplaceAll(glob, "[!", "[^")
	if ok, _ := path.Match(glob, name); ok {
		return true
	}
	if !suffixes {
		return false
	}
	for i := 0; i < len(name); i++ {
		if name[i] == '/' && i+1 < len(name) && name[i+1] != '/' {
			if ok, _ := path.Match(glob, name[i+1:]); ok {
				return true
			}
		}
	}
	return false
}

func (g *grepRun) searchFile(ctx context.Context, name, abs string, showName bool) {
	f, err := g.env.FS.Open(abs)
	if err != nil {
		g.fileError(name, err)
		return
	}
	defer f.Close()
	g.search(ctx, f, name, showName)
}

func (g *grepRun) search(ctx context.Context, r io.Reader, name string, showName bool) {
	g.searcher.Opt.WithFilename = showName
	if g.searcher.Opt.InitialTab {
		g.searcher.Opt.NumberWidth = grepNumberWidth(r)
	}
	res, err := g.searcher.Search(ctx, r, name)
	if res.Selected > 0 {
		g.selected = true
	}
	g.quit = g.quit || res.Quit
	var we *grep.WriteError
	switch {
	case err == nil:
	case errors.As(err, &we):
		g.status = g.env.WriteError("grep", we.Err)
	case errors.Is(err, regex.ErrTimeout):
		g.out.Flush()
		g.env.Errorf("grep", "%s: %s", name, err)
		g.errored = true
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		g.status = 130
	default:
		g.fileError(name, err)
	}
}
