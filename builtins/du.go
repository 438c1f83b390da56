package builtins

import (
	"bufio"
	"context"
	"errors"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
	"github.com/sandsh/sandsh/vfs"
)

const duUsage = `Usage: du [OPTION]... [FILE]...
Summarize device usage of the set of FILEs, recursively for directories.

  -0, --null            end each output line with NUL, not newline
  -a, --all             write counts for all files, not just directories
      --apparent-size   print apparent sizes rather than device usage
  -B, --block-size=SIZE  scale sizes by SIZE before printing them
  -b, --bytes           equivalent to '--apparent-size --block-size=1'
  -c, --total           produce a grand total
  -d, --max-depth=N     print the total for a directory (or file, with --all)
                          only if it is N or fewer levels below the command
                          line argument;  --max-depth=0 is the same as
                          --summarize
  -h, --human-readable  print sizes in human readable format (e.g., 1K 234M 2G)
      --inodes          list inode usage information instead of block usage
  -k                    like --block-size=1K
  -L, --dereference     dereference all symbolic links
  -l, --count-links     count sizes many times if hard linked
  -m                    like --block-size=1M
  -P, --no-dereference  don't follow any symbolic links (this is the default)
  -S, --separate-dirs   for directories do not include size of subdirectories
      --si              like -h, but use powers of 1000 not 1024
  -s, --summarize       display only a total for each argument
  -x, --one-file-system    skip directories on different file systems
      --exclude=PATTERN  exclude files that match PATTERN
      --help     display this help and exit
`

var duGetopt = Getopt{
	Short: "0aB:bcd:hHkLlmPSsx",
	Long: []string{"null", "all", "apparent-size", "block-size=", "bytes", "total", "max-depth=",
		"human-readable", "inodes", "dereference", "count-links", "no-dereference", "separate-dirs", "si",
		"summarize", "one-file-system", "exclude=", "dereference-args"},
	LongAlias: map[string]string{"null": "0", "all": "a", "block-size": "B", "bytes": "b", "total": "c",
		"max-depth": "d", "human-readable": "h", "dereference": "L", "count-links": "l", "no-dereference": "P",
		"separate-dirs": "S", "summarize": "s", "one-file-system": "x", "dereference-args": "D"},
}

type duRun struct {
	ctx       context.Context
	env       *Env
	out       *bufio.Writer
	all       bool
	apparent  bool
	inodes    bool
	blockSize int64
	suffix    string // unit shown after sizes for -BM style block sizes
	human, si bool
	maxDepth  int // -1: unlimited
	deref     byte
	countAll  bool
	separate  bool
	excludes  []string
	eol       byte
	seen      map[string]bool // files (and with several operands, dirs) counted
	hashAll   bool
	guard     *filesLoopGuard
	status    int
}

func runDu(ctx context.Context, env *Env, args []string) int {
	opts, operands, err := duGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("du", err, 1)
	}
	r := &duRun{ctx: ctx, env: env, out: filesNewWriter(env.Stdout), blockSize: 1024, maxDepth: -1,
		eol: '\n', seen: map[string]bool{}, guard: &filesLoopGuard{fsys: env.FS}}
	total, summarize := false, false
	for _, o := range opts {
		switch o.Name {
		case "0":
			r.eol = 0
		case "a":
			r.all = true
		case "apparent-size":
			r.apparent = true
		case "B":
			if err := r.setBlockSize(o.Value); err != nil {
				env.Errorf("du", "invalid -B argument %s", fileutil.Quote(o.Value))
				return 1
			}
		case "b":
			r.apparent, r.blockSize, r.human, r.suffix = true, 1, false, ""
		case "c":
			total = true
		case "d":
			n, err := strconv.Atoi(o.Value)
			if err != nil || n < 0 {
				env.Errorf("du", "invalid maximum depth %s", fileutil.Quote(o.Value))
				return 1
			}
			r.maxDepth = n
		case "h":
			r.human, r.si = true, false
		case "si":
			r.human, r.si = true, true
		case "inodes":
			r.inodes = true
		case "k":
			r.blockSize, r.human, r.suffix = 1024, false, ""
		case "m":
			r.blockSize, r.human, r.suffix = 1<<20, false, ""
		case "L", "H", "D":
			r.deref = o.Name[0]
		case "P":
			r.deref = 0
		case "l":
			r.countAll = true
		case "S":
			r.separate = true
		case "s":
			summarize = true
		case "exclude":
			r.excludes = append(r.excludes, o.Value)
		}
	}
	if summarize {
		if r.all {
			return env.UsageError("du", errors.New("cannot both summarize and show all entries"), 1)
		}
		if r.maxDepth > 0 {
			env.Errorf("du", "warning: summarizing conflicts with --max-depth=%d", r.maxDepth)
			return env.UsageError("du", errors.New("invalid options"), 1)
		}
		r.maxDepth = 0
	}
	if len(operands) == 0 {
		operands = []string{"."}
	}
	// With several operands GNU du counts every file and directory once,
	// so "du d d/e" does not count d/e twice.
	r.hashAll = len(operands) > 1
	var grand int64
	for _, name := range operands {
		if ctx.Err() != nil {
			return 130
		}
		n, ok := r.top(name)
		if ok {
			grand += n
		}
	}
	if total {
		r.print(grand, "total")
	}
	if err := r.out.Flush(); err != nil {
		return env.WriteError("du", err)
	}
	return r.status
}

// setBlockSize parses -B: "1K", "M" (which also shows the unit), "KB".
func (r *duRun) setBlockSize(s string) error {
	n, err := fileutil.ParseSize(s)
	if err != nil || n <= 0 {
		return errors.New("invalid block size")
	}
	r.blockSize, r.human, r.suffix = n, false, ""
	if s != "" && (s[0] < '0' || s[0] > '9') {
		r.suffix = s
		if s[0] == 'K' && len(s) > 1 && s[1] == 'B' {
			r.suffix = "k" + s[1:]
		}
	}
	return nil
}

func (r *duRun) top(name string) (int64, bool) {
	abs := r.env.Abs(name)
	fi, err := vfs.Lstat(r.env.FS, abs)
	if err == nil {
		err = filesSlashErr(r.env, name)
	}
	if err == nil && filesIsLink(fi) && (r.deref != 0 || strings.HasSuffix(name, "/")) {
		if tfi, serr := r.env.FS.Stat(abs); serr == nil {
			fi = tfi
		}
	}
	if err != nil {
		r.env.Errorf("du", "cannot access %s: %s", fileutil.Quote(name), ErrText(filesStatErr(r.env.FS, abs, err)))
		r.status = 1
		return 0, false
	}
	n, _ := r.walk(name, abs, fi, 0)
	return n, true
}

// walk returns the size of a file or tree and the part of it that
// counts for the parent under -S.
func (r *duRun) walk(name, abs string, fi fs.FileInfo, depth int) (int64, int64) {
	if fi.IsDir() && r.deref == 'L' {
		// A directory reached again through a symlink loop counts once.
		if !r.guard.enter(abs) {
			return 0, 0
		}
		defer r.guard.leave()
	}
	if r.counted(abs, fi) {
		return 0, 0
	}
	size := r.sizeOf(fi)
	if !fi.IsDir() {
		if depth == 0 || r.all && (r.maxDepth < 0 || depth <= r.maxDepth) {
			r.print(size, name)
		}
		return size, size
	}
	list, err := filesReadDir(r.env.FS, abs)
	if err != nil {
		r.env.Errorf("du", "cannot read directory %s: %s", fileutil.Quote(name), ErrText(err))
		r.status = 1
	}
	total, own := size, size
	for _, c := range list {
		if r.ctx.Err() != nil {
			break
		}
		if _, err := r.out.Write(nil); err != nil {
			break
		}
		cn, cabs := filesJoin(name, c.Name()), path.Join(abs, c.Name())
		if r.excluded(c.Name(), cn) {
			continue
		}
		if filesIsLink(c) && r.deref == 'L' {
			if tfi, err := r.env.FS.Stat(cabs); err == nil {
				c = tfi
			}
		}
		sub, subOwn := r.walk(cn, cabs, c, depth+1)
		total += sub
		if !c.IsDir() {
			own += subOwn
		}
	}
	shown := total
	if r.separate {
		shown = own
	}
	if r.maxDepth < 0 || depth <= r.maxDepth {
		r.print(shown, name)
	}
	return total, own
}

func (r *duRun) excluded(base, full string) bool {
	for _, p := range r.excludes {
		if ok, _ := path.Match(p, base); ok {
			return true
		}
		if ok, _ := path.Match(p, full); ok {
			return true
		}
	}
	return false
}

// counted reports whether a file was already counted: a hard link seen
// before, or anything seen before when there are several operands.
// -l counts everything every time.
func (r *duRun) counted(abs string, fi fs.FileInfo) bool {
	m := vfs.MetaOf(fi)
	if r.countAll || !r.hashAll && (fi.IsDir() || m.Nlink <= 1) {
		return false
	}
	key := abs
	if m.Ino != 0 {
		key = strconv.FormatUint(m.Ino, 10)
	}
	if r.seen[key] {
		return true
	}
	r.seen[key] = true
	return false
}

// sizeOf is what one file adds: its blocks in bytes, its apparent size,
// or one inode.
func (r *duRun) sizeOf(fi fs.FileInfo) int64 {
	switch {
	case r.inodes:
		return 1
	case r.apparent:
		return filesSize(fi)
	}
	return filesBlocks(fi) * 512
}

func (r *duRun) print(n int64, name string) {
	r.out.WriteString(r.formatSize(n))
	r.out.WriteByte('\t')
	r.out.WriteString(name)
	r.out.WriteByte(r.eol)
}

func (r *duRun) formatSize(n int64) string {
	switch {
	case r.inodes:
		return strconv.FormatInt(n, 10)
	case r.human:
		return fileutil.Human(n, r.si)
	}
	v := (n + r.blockSize - 1) / r.blockSize
	return strconv.FormatInt(v, 10) + r.suffix
}
