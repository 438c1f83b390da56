package builtins

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
	"github.com/sandsh/sandsh/vfs"
)

const treeUsage = `Usage: tree [OPTION]... [DIRECTORY]...
List contents of directories in a tree-like format.

  -a            All files are listed.
  -d            List directories only.
  -l            Follow symbolic links like directories.
  -f            Print the full path prefix for each file.
  -L level      Descend only level directories deep.
  -P pattern    List only those files that match the pattern given.
  -I pattern    Do not list files that match the given pattern.
  --noreport    Turn off file/directory count at end of tree listing.
  --charset X   Use charset X for the lines: utf-8 or ascii.
  -i            Don't print indentation lines.
  -p            Print the protections for each file.
  -u            Displays file owner or UID number.
  -g            Displays file group owner or GID number.
  -s            Print the size in bytes of each file.
  -h            Print the size in a more human readable way.
  -D            Print the date of last modification.
  -F            Appends '/', '=', '*', '@' or '|' as per ls -F.
  -r            Sort files in reverse alphanumeric order.
  -t            Sort files by last modification time.
  -U            Leave files unsorted.
  --dirsfirst   List directories before files.
  -n, -C        Turn colorization off / on (output is never colored).
      --help     display this help and exit
`

var treeGetopt = Getopt{
	Short: "adlfL:P:I:ipugshDFrtUnCqN",
	Long:  []string{"noreport", "charset=", "dirsfirst", "prune", "matchdirs", "ignore-case", "filelimit="},
}

type treeRun struct {
	ctx                          context.Context
	env                          *Env
	out                          *bufio.Writer
	all, dirsOnly, follow, full  bool
	noIndent, perms, user, group bool
	size, human, date, classify  bool
	reverse, byTime, unsorted    bool
	dirsFirst, noReport          bool
	level                        int
	include, exclude             string
	vert, branch, last           string
	dirs, files                  int
	status                       int
	guard                        *filesLoopGuard
}

func runTree(ctx context.Context, env *Env, args []string) int {
	opts, operands, err := treeGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("tree", err, 2)
	}
	r := &treeRun{ctx: ctx, env: env, out: filesNewWriter(env.Stdout), level: -1, guard: &filesLoopGuard{fsys: env.FS}}
	charset := ""
	for _, o := range opts {
		switch o.Name {
		case "a":
			r.all = true
		case "d":
			r.dirsOnly = true
		case "l":
			r.follow = true
		case "f":
			r.full = true
		case "L":
			n, err := strconv.Atoi(o.Value)
			if err != nil || n < 1 {
				fmt.Fprintln(env.Stderr, "tree: Invalid level, must be greater than 0.")
				return 1
			}
			r.level = n
		case "P":
			r.include = o.Value
		case "I":
			r.exclude = o.Value
		case "i":
			r.noIndent = true
		case "p":
			r.perms = true
		case "u":
			r.user = true
		case "g":
			r.group = true
		case "s":
			r.size = true
		case "h":
			r.size, r.human = true, true
		case "D":
			r.date = true
		case "F":
			r.classify = true
		case "r":
			r.reverse = true
		case "t":
			r.byTime = true
		case "U":
			r.unsorted = true
		case "dirsfirst":
			r.dirsFirst = true
		case "noreport":
			r.noReport = true
		case "charset":
			charset = strings.ToLower(o.Value)
		}
	}
	r.setCharset(charset)
	if len(operands) == 0 {
		operands = []string{"."}
	}
	for _, name := range operands {
		if ctx.Err() != nil {
			return 130
		}
		r.top(name)
	}
	if !r.noReport {
		r.out.WriteByte('\n')
		if r.dirsOnly {
			fmt.Fprintf(r.out, "%s\n", treePlural(r.dirs, "directory", "directories"))
		} else {
			fmt.Fprintf(r.out, "%s, %s\n", treePlural(r.dirs, "directory", "directories"), treePlural(r.files, "file", "files"))
		}
	}
	if err := r.out.Flush(); err != nil {
		return env.WriteError("tree", err)
	}
	return r.status
}

func treePlural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// setCharset picks UTF-8 box drawing in a UTF-8 locale, ASCII otherwise.
func (r *treeRun) setCharset(cs string) {
	if cs == "" {
		for _, v := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
			if s := r.env.Getenv(v); s != "" {
				cs = strings.ToLower(s)
				break
			}
		}
	}
	if strings.Contains(cs, "utf-8") || strings.Contains(cs, "utf8") {
		r.vert, r.branch, r.last = "\u2502\u00a0\u00a0 ", "\u251c\u2500\u2500 ", "\u2514\u2500\u2500 "
		return
	}
	r.vert, r.branch, r.last = "|   ", "|-- ", "`-- "
}

func (r *treeRun) top(name string) {
	abs := r.env.Abs(name)
	fi, err := r.env.FS.Stat(abs)
	if err != nil {
		fmt.Fprintf(r.out, "%s [error opening dir]\n", name)
		r.status = 2
		return
	}
	if !fi.IsDir() {
		r.out.WriteString(name)
		r.out.WriteByte('\n')
		r.files++
		return
	}
	r.out.WriteString(name)
	r.out.WriteByte('\n')
	r.guard.enter(abs)
	r.listDir(name, abs, "", 1)
	r.guard.leave()
}

type treeEntry struct {
	name string
	abs  string
	fi   fs.FileInfo // lstat
	tfi  fs.FileInfo // stat (follows links), nil when dangling
}

func (e *treeEntry) isDir() bool { return e.fi.IsDir() || e.tfi != nil && e.tfi.IsDir() }

func (r *treeRun) listDir(shown, abs, indent string, depth int) {
	list, err := filesReadDir(r.env.FS, abs)
	if err != nil {
		return
	}
	var entries []*treeEntry
	for _, fi := range list {
		n := fi.Name()
		if !r.all && strings.HasPrefix(n, ".") {
			continue
		}
		e := &treeEntry{name: n, abs: path.Join(abs, n), fi: fi, tfi: fi}
		if filesIsLink(fi) {
			e.tfi, _ = r.env.FS.Stat(e.abs)
		}
		if r.dirsOnly && !e.isDir() {
			continue
		}
		if !e.isDir() {
			if r.include != "" && !fileutil.Match(r.include, n, false) {
				continue
			}
		}
		if r.exclude != "" && fileutil.Match(r.exclude, n, false) {
			continue
		}
		entries = append(entries, e)
	}
	r.sort(entries)
	for i, e := range entries {
		if r.ctx.Err() != nil {
			return
		}
		if _, err := r.out.Write(nil); err != nil {
			return
		}
		lastOne := i == len(entries)-1
		if !r.noIndent {
			r.out.WriteString(indent)
			if lastOne {
				r.out.WriteString(r.last)
			} else {
				r.out.WriteString(r.branch)
			}
		}
		descend := e.isDir() && (!filesIsLink(e.fi) || r.follow) && (r.level < 0 || depth < r.level)
		looped := descend && !r.guard.enter(e.abs)
		r.printEntry(shown, e, looped)
		if e.isDir() {
			r.dirs++
		} else {
			r.files++
		}
		if descend && !looped {
			next := indent + r.vert
			if lastOne {
				next = indent + "    "
			}
			r.listDir(filesJoin(shown, e.name), e.abs, next, depth+1)
			r.guard.leave()
		}
	}
}

func (r *treeRun) sort(list []*treeEntry) {
	if r.unsorted {
		return
	}
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if r.dirsFirst && a.isDir() != b.isDir() {
			return a.isDir()
		}
		less := a.name < b.name
		if r.byTime && !a.fi.ModTime().Equal(b.fi.ModTime()) {
			less = a.fi.ModTime().After(b.fi.ModTime())
		}
		if r.reverse {
			return !less
		}
		return less
	})
}

func (r *treeRun) printEntry(dir string, e *treeEntry, looped bool) {
	var info []string
	m := vfs.MetaOf(e.fi)
	if r.perms {
		info = append(info, fileutil.ModeString(e.fi.Mode()))
	}
	if r.user {
		info = append(info, fmt.Sprintf("%-8s", filesUserName(r.env, m.UID)))
	}
	if r.group {
		info = append(info, fmt.Sprintf("%-8s", filesGroupName(r.env, m.GID)))
	}
	if r.size {
		if r.human {
			info = append(info, fmt.Sprintf("%4s", fileutil.Human(filesSize(e.fi), false)))
		} else {
			info = append(info, fmt.Sprintf("%11d", filesSize(e.fi)))
		}
	}
	if r.date {
		info = append(info, e.fi.ModTime().In(filesLocation(r.env)).Format("Jan _2 15:04"))
	}
	if len(info) > 0 {
		r.out.WriteString("[" + strings.Join(info, " ") + "]  ")
	}
	name := e.name
	if r.full {
		name = filesJoin(dir, e.name)
	}
	r.out.WriteString(name)
	if filesIsLink(e.fi) {
		target, _ := r.env.FS.ReadlinkIfPossible(e.abs)
		r.out.WriteString(" -> " + target)
		if r.classify && e.tfi != nil && e.tfi.IsDir() {
			r.out.WriteByte('/')
		}
		if looped {
			r.out.WriteString("  [recursive, not followed]")
		}
	} else if r.classify {
		switch md := e.fi.Mode(); {
		case md.IsDir():
			r.out.WriteByte('/')
		case md&fs.ModeNamedPipe != 0:
			r.out.WriteByte('|')
		case md&fs.ModeSocket != 0:
			r.out.WriteByte('=')
		case md&0o111 != 0:
			r.out.WriteByte('*')
		}
	}
	r.out.WriteByte('\n')
}
