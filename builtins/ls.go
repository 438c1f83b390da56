package builtins

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
	"github.com/sandsh/sandsh/builtins/internal/gdate"
	"github.com/sandsh/sandsh/vfs"
)

const lsUsage = `Usage: ls [OPTION]... [FILE]...
List information about the FILEs (the current directory by default).
Sort entries alphabetically if none of -cftuvSUX nor --sort is specified.

  -a, --all                  do not ignore entries starting with .
  -A, --almost-all           do not list implied . and ..
  -c                         with -lt: sort by, and show, ctime
  -C                         list entries by columns
      --color[=WHEN]         accepted; output is never colored
  -d, --directory            list directories themselves, not their contents
  -f                         do not sort, enable -aU
  -F, --classify             append indicator (one of */=@|) to entries
      --file-type            likewise, except do not append '*'
      --full-time            like -l --time-style=full-iso
  -g                         like -l, but do not list owner
  -G, --no-group             in a long listing, don't print group names
  -h, --human-readable       with -l and -s, print sizes like 1K 234M 2G etc.
      --si                   likewise, but use powers of 1000 not 1024
  -H, --dereference-command-line  follow symbolic links listed on the command line
  -i, --inode                print the index number of each file
  -k, --kibibytes            default to 1024-byte blocks for disk usage
  -l                         use a long listing format
  -L, --dereference          show information for the file a symlink references
  -m                         fill width with a comma separated list of entries
  -n, --numeric-uid-gid      like -l, but list numeric user and group IDs
  -o                         like -l, but do not list group information
  -p, --indicator-style=slash  append / indicator to directories
  -r, --reverse              reverse order while sorting
  -R, --recursive            list subdirectories recursively
  -s, --size                 print the allocated size of each file, in blocks
  -S                         sort by file size, largest first
      --sort=WORD            sort by WORD: none (-U), size (-S), time (-t)
  -t                         sort by time, newest first
      --time-style=STYLE     full-iso, long-iso, iso or locale
  -u                         with -lt: sort by, and show, access time
  -U                         do not sort; list entries in directory order
  -w, --width=COLS           set output width to COLS
  -x                         list entries by lines instead of by columns
  -1                         list one file per line
      --help     display this help and exit
`

var lsGetopt = Getopt{
	Same:  map[string]string{"classify": "F"},
	Short: "aAcCdfFgGhHiklLmnopqrRsStuUw:x1",
	Long: []string{"all", "almost-all", "color?", "colour?", "directory", "classify?", "file-type", "full-time",
		"no-group", "human-readable", "si", "dereference-command-line", "inode", "kibibytes", "dereference",
		"numeric-uid-gid", "indicator-style=", "reverse", "recursive", "size", "sort=", "time-style=",
		"width=", "group-directories-first", "hide-control-chars", "literal", "show-control-chars", "quote-name?"},
	LongAlias: map[string]string{"all": "a", "almost-all": "A", "directory": "d", "no-group": "G",
		"human-readable": "h", "dereference-command-line": "H", "inode": "i", "kibibytes": "k",
		"dereference": "L", "numeric-uid-gid": "n", "reverse": "r", "recursive": "R", "size": "s", "width": "w"},
}

// Output formats.
const (
	lsOnePerLine = iota
	lsLong
	lsColumns
	lsAcross
	lsCommas
)

type lsConfig struct {
	format             int
	all, almostAll     bool
	dirsAsFiles        bool
	recursive          bool
	reverse            bool
	sortBy             byte // 'n' name, 't' time, 'S' size, 'U' none
	timeKind           byte // 'm' mtime, 'c' ctime, 'u' atime
	human, si          bool
	inode, blocks      bool
	numeric            bool
	showOwner          bool
	showGroup          bool
	indicator          byte // 0, '/', 'F' classify, 'f' file-type
	derefAll, derefCmd bool
	timeStyle          string
	width              int
	groupDirs          bool
}

// lsEntry is one file to print.
type lsEntry struct {
	name   string // as shown
	abs    string
	fi     fs.FileInfo
	target string      // symlink target, for -l
	tfi    fs.FileInfo // what the symlink points to, nil when dangling
	nlink  uint64
}

type lsRun struct {
	env    *Env
	ctx    context.Context
	cfg    lsConfig
	out    *bufio.Writer
	status int
	now    time.Time
	loc    *time.Location
	first  bool // nothing printed yet: no blank line before a header
	guard  *filesLoopGuard
}

func runLs(ctx context.Context, env *Env, args []string) int {
	opts, operands, err := lsGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("ls", err, 2)
	}
	cfg, err := lsParseOpts(env, opts)
	if err != nil {
		var bad lsBadArg
		if errors.As(err, &bad) {
			// GNU's argmatch failures exit 1, other usage errors 2.
			return env.UsageError("ls", err, 1)
		}
		return env.UsageError("ls", err, 2)
	}
	r := &lsRun{env: env, ctx: ctx, cfg: cfg, out: filesNewWriter(env.Stdout),
		now: env.System().Now(), loc: filesLocation(env), first: true, guard: &filesLoopGuard{fsys: env.FS}}
	implicit := len(operands) == 0
	if implicit {
		operands = []string{"."}
	}
	r.listOperands(operands, implicit)
	if err := r.out.Flush(); err != nil {
		return env.WriteError("ls", err)
	}
	return r.status
}

func lsParseOpts(env *Env, opts []Opt) (lsConfig, error) {
	cfg := lsConfig{format: lsOnePerLine, sortBy: 'n', timeKind: 'm', showOwner: true, showGroup: true, width: 80}
	sortSet := false
	if w, err := strconv.Atoi(env.Getenv("COLUMNS")); err == nil && w > 0 {
		cfg.width = w
	}
	for _, o := range opts {
		switch o.Name {
		case "a":
			cfg.all, cfg.almostAll = true, false
		case "A":
			cfg.almostAll, cfg.all = true, false
		case "c":
			cfg.timeKind = 'c'
		case "u":
			cfg.timeKind = 'u'
		case "C":
			cfg.format = lsColumns
		case "x":
			cfg.format = lsAcross
		case "m":
			cfg.format = lsCommas
		case "1":
			if cfg.format != lsLong {
				cfg.format = lsOnePerLine
			}
		case "d":
			cfg.dirsAsFiles = true
		case "f":
			cfg.all, cfg.sortBy, sortSet = true, 'U', true
		case "F", "classify":
			cfg.indicator = 'F'
		case "file-type":
			cfg.indicator = 'f'
		case "p":
			cfg.indicator = '/'
		case "indicator-style":
			switch o.Value {
			case "none":
				cfg.indicator = 0
			case "slash":
				cfg.indicator = '/'
			case "file-type":
				cfg.indicator = 'f'
			case "classify":
				cfg.indicator = 'F'
			default:
				return cfg, lsBadArg{o.Value, "'--indicator-style'"}
			}
		case "full-time":
			cfg.format, cfg.timeStyle = lsLong, "full-iso"
		case "g":
			cfg.format, cfg.showOwner = lsLong, false
		case "o":
			cfg.format, cfg.showGroup = lsLong, false
		case "G":
			cfg.showGroup = false
		case "h":
			cfg.human = true
		case "si":
			cfg.human, cfg.si = true, true
		case "H":
			cfg.derefCmd = true
		case "L":
			cfg.derefAll = true
		case "i":
			cfg.inode = true
		case "k":
		case "l":
			cfg.format = lsLong
		case "n":
			cfg.format, cfg.numeric = lsLong, true
		case "r":
			cfg.reverse = true
		case "R":
			cfg.recursive = true
		case "s":
			cfg.blocks = true
		case "S":
			cfg.sortBy, sortSet = 'S', true
		case "t":
			cfg.sortBy, sortSet = 't', true
		case "U":
			cfg.sortBy, sortSet = 'U', true
		case "sort":
			sortSet = true
			m := map[string]byte{"none": 'U', "size": 'S', "time": 't', "name": 'n'}
			s, ok := m[o.Value]
			if !ok {
				return cfg, lsBadArg{o.Value, "'--sort'"}
			}
			cfg.sortBy = s
		case "time-style":
			st := strings.TrimPrefix(o.Value, "posix-")
			// GNU only complains about a bad style when it is used.
			cfg.timeStyle = st
		case "w":
			w, err := strconv.Atoi(o.Value)
			if err != nil || w < 0 {
				return cfg, fmt.Errorf("invalid line width: %s", fileutil.Quote(o.Value))
			}
			cfg.width = w
		case "group-directories-first":
			cfg.groupDirs = true
		case "color", "colour":
			switch o.Value {
			case "", "never", "no", "none", "auto", "tty", "if-tty", "always", "yes", "force":
			default:
				return cfg, lsBadArg{o.Value, "'--color'"}
			}
		}
	}
	if cfg.timeKind != 'm' && cfg.format != lsLong && !sortSet {
		// -c and -u without -l sort by that time, as in GNU ls.
		cfg.sortBy = 't'
	}
	if st := cfg.timeStyle; cfg.format == lsLong && st != "" && !strings.HasPrefix(st, "+") {
		switch st {
		case "full-iso", "long-iso", "iso", "locale":
		default:
			return cfg, lsBadArg{st, "'time style'"}
		}
	}
	return cfg, nil
}

// listOperands lists command-line files first, then directories, the
// way GNU ls groups them.
func (r *lsRun) listOperands(operands []string, implicit bool) {
	var files, dirs []*lsEntry
	for _, name := range operands {
		e, err := r.operandEntry(name)
		if err != nil {
			r.env.Errorf("ls", "cannot access %s: %s", fileutil.Quote(name), ErrText(err))
			r.status = 2
			continue
		}
		if e.fi.IsDir() && !r.cfg.dirsAsFiles {
			dirs = append(dirs, e)
		} else {
			files = append(files, e)
		}
	}
	r.sortEntries(files)
	if len(files) > 0 {
		// GNU sizes the columns of the command-line files with the
		// directories among the operands still counted.
		r.printEntries(files, false, append(append([]*lsEntry(nil), files...), dirs...))
		r.first = false
	}
	r.sortEntries(dirs)
	header := len(files) > 0 || len(dirs) > 1 || r.cfg.recursive || r.status != 0 && !implicit
	for _, d := range dirs {
		r.listDir(d.name, d.abs, header, true)
	}
}

// operandEntry stats a command-line name, following a symlink when GNU
// would: always with -L, with -H, and for links to directories unless
// -l, -d or -F ask to see the link itself.
func (r *lsRun) operandEntry(name string) (*lsEntry, error) {
	abs := r.env.Abs(name)
	fi, err := vfs.Lstat(r.env.FS, abs)
	if err != nil {
		return nil, filesStatErr(r.env.FS, abs, err)
	}
	if err := filesSlashErr(r.env, name); err != nil {
		return nil, err
	}
	if filesIsLink(fi) {
		// A trailing slash names what the link points to.
		follow := r.cfg.derefAll || r.cfg.derefCmd || strings.HasSuffix(name, "/")
		if !follow && !r.cfg.dirsAsFiles && r.cfg.indicator != 'F' && r.cfg.format != lsLong {
			if tfi, err := r.env.FS.Stat(abs); err == nil && tfi.IsDir() {
				follow = true
			}
		}
		if follow {
			if tfi, err := r.env.FS.Stat(abs); err == nil {
				fi = tfi
			} else if r.cfg.derefAll || r.cfg.derefCmd {
				return nil, err
			}
		}
	}
	return r.newEntry(name, abs, fi), nil
}

func (r *lsRun) newEntry(name, abs string, fi fs.FileInfo) *lsEntry {
	e := &lsEntry{name: name, abs: abs, fi: fi}
	if filesIsLink(fi) {
		e.target, _ = r.env.FS.ReadlinkIfPossible(abs)
		if tfi, err := r.env.FS.Stat(abs); err == nil {
			e.tfi = tfi
		}
	}
	return e
}

// listDir prints one directory's contents and, with -R, its subdirectories.
func (r *lsRun) listDir(name, abs string, header, top bool) {
	if r.ctx.Err() != nil {
		return
	}
	if _, err := r.out.Write(nil); err != nil {
		// Standard output is gone: listing more is pointless.
		return
	}
	if r.cfg.recursive {
		if !r.guard.enter(abs) {
			r.env.Errorf("ls", "%s: not listing already-listed directory", fileutil.QuoteIf(name))
			r.status = 2
			return
		}
		defer r.guard.leave()
	}
	list, err := filesReadDir(r.env.FS, abs)
	if err != nil {
		r.env.Errorf("ls", "cannot open directory %s: %s", fileutil.Quote(name), ErrText(err))
		// A command-line directory is serious trouble (2), one met
		// while recursing a minor problem (1).
		if top {
			r.status = 2
		} else if r.status == 0 {
			r.status = 1
		}
		return
	}
	if header {
		if !r.first {
			r.out.WriteByte('\n')
		}
		r.out.WriteString(name)
		r.out.WriteString(":\n")
	}
	r.first = false
	entries := make([]*lsEntry, 0, len(list)+2)
	if r.cfg.all {
		for _, dot := range []string{".", ".."} {
			p := path.Join(abs, dot)
			if fi, err := r.env.FS.Stat(p); err == nil {
				entries = append(entries, &lsEntry{name: dot, abs: p, fi: fi})
			}
		}
	}
	for _, fi := range list {
		n := fi.Name()
		if n[0] == '.' && !r.cfg.all && !r.cfg.almostAll {
			continue
		}
		p := path.Join(abs, n)
		if r.cfg.derefAll && filesIsLink(fi) {
			if tfi, err := r.env.FS.Stat(p); err == nil {
				fi = tfi
			}
		}
		entries = append(entries, r.newEntry(n, p, fi))
	}
	r.sortEntries(entries)
	r.printEntries(entries, true, entries)
	if !r.cfg.recursive {
		return
	}
	for _, e := range entries {
		if e.name == "." || e.name == ".." || !e.fi.IsDir() {
			continue
		}
		r.listDir(filesJoin(name, e.name), e.abs, true, false)
	}
}

func (r *lsRun) sortEntries(list []*lsEntry) {
	cfg := r.cfg
	if cfg.sortBy == 'U' {
		return
	}
	less := func(a, b *lsEntry) bool {
		switch cfg.sortBy {
		case 't':
			ta, tb := r.entryTime(a), r.entryTime(b)
			if !ta.Equal(tb) {
				return ta.After(tb)
			}
		case 'S':
			sa, sb := filesSize(a.fi), filesSize(b.fi)
			if sa != sb {
				return sa > sb
			}
		}
		return a.name < b.name
	}
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if cfg.groupDirs && a.isDir() != b.isDir() {
			return a.isDir()
		}
		if cfg.reverse {
			return less(b, a)
		}
		return less(a, b)
	})
}

func (e *lsEntry) isDir() bool {
	return e.fi.IsDir() || e.tfi != nil && e.tfi.IsDir()
}

// entryTime is the time -l shows and -t sorts by.
func (r *lsRun) entryTime(e *lsEntry) time.Time {
	switch r.cfg.timeKind {
	case 'c':
		return vfs.MetaOf(e.fi).Ctime
	case 'u':
		return vfs.MetaOf(e.fi).Atime
	}
	return e.fi.ModTime()
}

// printEntries prints a group of entries in the chosen format; inDir adds
// the "total" line of long and -s listings.
func (r *lsRun) printEntries(list []*lsEntry, inDir bool, sizing []*lsEntry) {
	cfg := r.cfg
	if inDir && (cfg.format == lsLong || cfg.blocks) {
		var total int64
		for _, e := range list {
			total += filesBlocks(e.fi)
		}
		r.out.WriteString("total ")
		r.out.WriteString(r.blockString(total))
		r.out.WriteByte('\n')
	}
	cols := r.columns(sizing)
	switch cfg.format {
	case lsLong:
		for _, e := range list {
			r.printLong(e, cols)
		}
	case lsColumns, lsAcross:
		r.printGrid(list, cols, cfg.format == lsAcross)
	case lsCommas:
		r.printCommas(list, cols)
	default:
		for _, e := range list {
			r.printPrefix(e, cols)
			r.printName(e)
			r.out.WriteByte('\n')
		}
	}
}

// blockString renders a count of 512-byte blocks in ls units.
func (r *lsRun) blockString(blocks int64) string {
	if r.cfg.human {
		return fileutil.Human(blocks*512, r.cfg.si)
	}
	return strconv.FormatInt((blocks+1)/2, 10)
}

// lsWidths are the column widths of one group of entries.
type lsWidths struct {
	inode, blocks, nlink, owner, group, size int
}

func (r *lsRun) columns(list []*lsEntry) lsWidths {
	var w lsWidths
	for _, e := range list {
		if r.cfg.inode {
			w.inode = max(w.inode, len(strconv.FormatUint(vfs.MetaOf(e.fi).Ino, 10)))
		}
		if r.cfg.blocks {
			w.blocks = max(w.blocks, len(r.blockString(filesBlocks(e.fi))))
		}
		if r.cfg.format != lsLong {
			continue
		}
		e.nlink = r.nlink(e)
		w.nlink = max(w.nlink, len(strconv.FormatUint(e.nlink, 10)))
		w.owner = max(w.owner, len(r.owner(e)))
		w.group = max(w.group, len(r.group(e)))
		w.size = max(w.size, len(r.sizeString(e)))
	}
	return w
}

// nlink is the link count; directories on a filesystem without metadata
// count their subdirectories like a disk filesystem would.
func (r *lsRun) nlink(e *lsEntry) uint64 {
	return filesNlink(r.env.FS, e.abs, e.fi)
}

// filesNlink returns st_nlink of fi at abs.
func filesNlink(fsys vfs.FS, abs string, fi fs.FileInfo) uint64 {
	if m, ok := fi.Sys().(*vfs.Meta); ok && m != nil && m.Nlink > 0 {
		return m.Nlink
	}
	if !fi.IsDir() {
		return 1
	}
	n := uint64(2)
	list, _ := filesReadDir(fsys, abs)
	for _, c := range list {
		if c.IsDir() {
			n++
		}
	}
	return n
}

func (r *lsRun) owner(e *lsEntry) string {
	uid := vfs.MetaOf(e.fi).UID
	if r.cfg.numeric {
		return strconv.Itoa(uid)
	}
	return filesUserName(r.env, uid)
}

func (r *lsRun) group(e *lsEntry) string {
	gid := vfs.MetaOf(e.fi).GID
	if r.cfg.numeric {
		return strconv.Itoa(gid)
	}
	return filesGroupName(r.env, gid)
}

func (r *lsRun) sizeString(e *lsEntry) string {
	n := filesSize(e.fi)
	if r.cfg.human {
		return fileutil.Human(n, r.cfg.si)
	}
	return strconv.FormatInt(n, 10)
}

func (r *lsRun) printPrefix(e *lsEntry, w lsWidths) {
	if r.cfg.inode {
		lsPad(r.out, strconv.FormatUint(vfs.MetaOf(e.fi).Ino, 10), w.inode, true)
		r.out.WriteByte(' ')
	}
	if r.cfg.blocks {
		lsPad(r.out, r.blockString(filesBlocks(e.fi)), w.blocks, true)
		r.out.WriteByte(' ')
	}
}

func (r *lsRun) printLong(e *lsEntry, w lsWidths) {
	out := r.out
	r.printPrefix(e, w)
	out.WriteString(fileutil.ModeString(e.fi.Mode()))
	out.WriteByte(' ')
	lsPad(out, strconv.FormatUint(e.nlink, 10), w.nlink, true)
	out.WriteByte(' ')
	if r.cfg.showOwner {
		lsPad(out, r.owner(e), w.owner, false)
		out.WriteByte(' ')
	}
	if r.cfg.showGroup {
		lsPad(out, r.group(e), w.group, false)
		out.WriteByte(' ')
	}
	lsPad(out, r.sizeString(e), w.size, true)
	out.WriteByte(' ')
	out.WriteString(r.formatTime(r.entryTime(e)))
	out.WriteByte(' ')
	out.WriteString(e.name)
	if filesIsLink(e.fi) {
		out.WriteString(" -> ")
		out.WriteString(e.target)
		if e.tfi != nil && (r.cfg.indicator == 'F' || r.cfg.indicator == 'f') {
			if c := r.indicatorOf(e.tfi); c != 0 {
				out.WriteByte(c)
			}
		}
	} else if c := r.indicatorOf(e.fi); c != 0 {
		out.WriteByte(c)
	}
	out.WriteByte('\n')
}

// printName writes the name with its -F/-p indicator.
func (r *lsRun) printName(e *lsEntry) {
	r.out.WriteString(e.name)
	if c := r.indicatorOf(e.fi); c != 0 {
		r.out.WriteByte(c)
	}
}

func (r *lsRun) indicatorOf(fi fs.FileInfo) byte {
	m := fi.Mode()
	switch r.cfg.indicator {
	case 0:
		return 0
	case '/':
		if m.IsDir() {
			return '/'
		}
		return 0
	}
	switch {
	case m.IsDir():
		return '/'
	case m&fs.ModeSymlink != 0:
		return '@'
	case m&fs.ModeNamedPipe != 0:
		return '|'
	case m&fs.ModeSocket != 0:
		return '='
	case m.IsRegular() && m&0o111 != 0 && r.cfg.indicator == 'F':
		return '*'
	}
	return 0
}

// nameWidth is the printed width of an entry in a grid: prefix columns,
// the name and its indicator.
func (r *lsRun) nameWidth(e *lsEntry, w lsWidths) int {
	n := len(e.name)
	if r.cfg.inode {
		n += w.inode + 1
	}
	if r.cfg.blocks {
		n += w.blocks + 1
	}
	if r.indicatorOf(e.fi) != 0 {
		n++
	}
	return n
}

// printGrid lays entries out in columns (-C, down then across) or rows
// (-x), using GNU's column fitting and tab-based indentation.
func (r *lsRun) printGrid(list []*lsEntry, w lsWidths, across bool) {
	n := len(list)
	if n == 0 {
		return
	}
	widths := make([]int, n)
	for i, e := range list {
		widths[i] = r.nameWidth(e, w)
	}
	cols, colw := lsFitColumns(widths, r.cfg.width, across)
	rows := (n + cols - 1) / cols
	if across {
		pos := 0
		for i, e := range list {
			c := i % cols
			if i > 0 {
				if c == 0 {
					r.out.WriteByte('\n')
					pos = 0
				} else {
					lsIndent(r.out, pos+widths[i-1], pos+colw[c-1])
					pos += colw[c-1]
				}
			}
			r.printPrefix(e, w)
			r.printName(e)
		}
		r.out.WriteByte('\n')
		return
	}
	for row := 0; row < rows; row++ {
		pos := 0
		for c, i := 0, row; i < n; c, i = c+1, i+rows {
			r.printPrefix(list[i], w)
			r.printName(list[i])
			if i+rows >= n {
				break
			}
			lsIndent(r.out, pos+widths[i], pos+colw[c])
			pos += colw[c]
		}
		r.out.WriteByte('\n')
	}
}

// lsFitColumns finds the most columns whose line fits in width, with
// each column as wide as its widest name plus two.
func lsFitColumns(widths []int, width int, across bool) (int, []int) {
	n := len(widths)
	maxCols := n
	if width > 0 {
		maxCols = min(n, max(1, width/3))
	}
	for cols := maxCols; cols >= 1; cols-- {
		rows := (n + cols - 1) / cols
		// GNU starts every column at its minimum width of 3.
		colw := make([]int, cols)
		for c := range colw {
			colw[c] = 3
		}
		total, ok := 3*cols, true
		if width > 0 && total >= width && cols > 1 {
			continue
		}
		for i, wd := range widths {
			c := i / rows
			if across {
				c = i % cols
			}
			if c != cols-1 {
				wd += 2
			}
			if wd > colw[c] {
				total += wd - colw[c]
				colw[c] = wd
				if width > 0 && total >= width {
					ok = false
					break
				}
			}
		}
		if ok || cols == 1 {
			return cols, colw
		}
	}
	return 1, []int{0}
}

// lsIndent moves from column from to column to with tabs (every 8) and
// spaces, as GNU ls does.
func lsIndent(out *bufio.Writer, from, to int) {
	for from < to {
		if to/8 > (from+1)/8 {
			out.WriteByte('\t')
			from += 8 - from%8
		} else {
			out.WriteByte(' ')
			from++
		}
	}
}

func (r *lsRun) printCommas(list []*lsEntry, w lsWidths) {
	pos := 0
	for i, e := range list {
		n := r.nameWidth(e, w)
		if i > 0 {
			if r.cfg.width == 0 || pos+n+2 < r.cfg.width {
				r.out.WriteString(", ")
				pos += 2
			} else {
				r.out.WriteString(",\n")
				pos = 0
			}
		}
		r.printPrefix(e, w)
		r.printName(e)
		pos += n
	}
	if len(list) > 0 {
		r.out.WriteByte('\n')
	}
}

// formatTime renders a timestamp like GNU ls: "Jan  2 03:04" for times in
// the last six months, "Jan  2  2023" otherwise.
func (r *lsRun) formatTime(t time.Time) string {
	t = t.In(r.loc)
	const halfYear = 31556952 / 2 * time.Second
	recent := t.After(r.now.Add(-halfYear)) && !t.After(r.now)
	switch style := r.cfg.timeStyle; {
	case style == "full-iso":
		return t.Format("2006-01-02 15:04:05.000000000 -0700")
	case style == "long-iso":
		return t.Format("2006-01-02 15:04")
	case style == "iso":
		if recent {
			return t.Format("01-02 15:04")
		}
		return t.Format("2006-01-02 ")
	case strings.HasPrefix(style, "+"):
		f := style[1:]
		if old, rec, ok := strings.Cut(f, "\n"); ok {
			f = old
			if recent {
				f = rec
			}
		}
		return gdate.Format(t, f)
	}
	if recent {
		return t.Format("Jan _2 15:04")
	}
	return t.Format("Jan _2  2006")
}

// lsPad writes s padded to width, right-aligned or left-aligned.
func lsPad(out *bufio.Writer, s string, width int, right bool) {
	if !right {
		out.WriteString(s)
	}
	for i := len(s); i < width; i++ {
		out.WriteByte(' ')
	}
	if right {
		out.WriteString(s)
	}
}

// lsBadArg is an invalid argument to an option with a fixed set of
// values.
type lsBadArg struct{ value, option string }

func (e lsBadArg) Error() string {
	return fmt.Sprintf("invalid argument %s for %s", fileutil.Quote(e.value), e.option)
}
