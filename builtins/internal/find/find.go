// Package find implements GNU find's traversal and expression language on
// a sandbox filesystem. All I/O is injected through Env: the filesystem,
// the output streams, the clock and a way to run commands for -exec.
package find

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/sandsh/sandsh/builtins/internal/guard"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
	"github.com/sandsh/sandsh/vfs"
)

// Env is everything find needs from its caller.
type Env struct {
	FS     vfs.FS
	Dir    string // working directory (absolute)
	Stdout io.Writer
	Stderr io.Writer
	Now    time.Time
	Loc    *time.Location

	// Exec runs a command line with dir as its working directory and
	// Stdout/Stderr as its streams, returning its exit status.
	Exec func(ctx context.Context, dir string, args []string) int

	UID, GID    int // who find runs as (for -readable and friends)
	UserName    func(uid int) string
	GroupName   func(gid int) string
	LookupUser  func(name string) (int, bool)
	LookupGroup func(name string) (int, bool)
	// Nlink returns st_nlink of a file (directories count subdirectories
	// on filesystems without metadata).
	Nlink func(abs string, fi fs.FileInfo) uint64
}

// finder is one run of find.
type finder struct {
	ctx    context.Context
	meter  *guard.Meter // charged with -printf padding
	env    *Env
	out    *bufio.Writer
	status int

	follow     byte // 'P' (never), 'L' (always), 'H' (command line)
	maxDepth   int
	minDepth   int
	depthFirst bool
	quit       bool

	root    expr
	execs   []*execPred // -exec/-execdir with '+', flushed at the end
	files   []*outFile  // -fprint and friends
	ancests []string    // canonical paths of directories being walked (-L loops)
}

// visit is the file being evaluated.
type visit struct {
	path  string // as printed
	abs   string // absolute path
	start string // the starting point it was found under
	fi    fs.FileInfo
	depth int
	prune bool
	err   error // stat error of a dangling link under -L
}

// Run runs find with args (without the command name) and returns the
// exit status.
func Run(ctx context.Context, env *Env, args []string) int {
	f := &finder{ctx: ctx, meter: guard.NewMeter(ctx), env: env, out: bufio.NewWriterSize(env.Stdout, 64<<10),
		follow: 'P', maxDepth: -1}
	i := 0
	// Leading options -H, -L, -P (and the ignored -D, -O).
options:
	for ; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-H" || a == "-L" || a == "-P":
			f.follow = a[1]
		case a == "-D":
			i++
		case strings.HasPrefix(a, "-O"):
		case a == "--":
			i++
			break options
		default:
			break options
		}
	}
	var starts []string
	for ; i < len(args); i++ {
		a := args[i]
		if len(a) > 1 && a[0] == '-' || a == "(" || a == "!" || a == "," || a == ")" {
			break
		}
		starts = append(starts, a)
	}
	p := &parser{f: f, toks: args[i:]}
	root, err := p.parseAll()
	if err != nil {
		if errors.Is(err, errHelpShown) {
			f.out.Flush()
			return 0
		}
		f.errorf("%v", err)
		f.closeFiles()
		return 1
	}
	if !p.hasAction {
		if root == nil {
			root = &printPred{}
		} else {
			root = &andExpr{root, &printPred{}}
		}
	} else if root == nil {
		root = trueExpr{}
	}
	f.root = root
	if len(starts) == 0 {
		starts = []string{"."}
	}
	for _, s := range starts {
		if f.quit || ctx.Err() != nil {
			break
		}
		f.walkStart(s)
	}
	f.flushExecs()
	f.closeFiles()
	if err := f.out.Flush(); err != nil {
		if ctx.Err() != nil {
			return 130
		}
		return writeErrStatus(err, env.Stderr)
	}
	if ctx.Err() != nil {
		return 130
	}
	return f.status
}

func writeErrStatus(err error, stderr io.Writer) int {
	if errors.Is(err, io.ErrClosedPipe) || errors.Is(err, syscall.EPIPE) {
		return 141
	}
	fmt.Fprintf(stderr, "find: write error: %v\n", err)
	return 1
}

var errHelpShown = errors.New("help shown")

func (f *finder) errorf(format string, a ...any) {
	f.out.Flush()
	fmt.Fprintf(f.env.Stderr, "find: "+format+"\n", a...)
}

// fileError reports a problem with a file and makes the exit status 1.
func (f *finder) fileError(name string, err error) {
	f.errorf("%s: %s", fileutil.Quote(name), errText(err))
	f.status = 1
}

func errText(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		switch errno {
		case syscall.ENOENT:
			return "No such file or directory"
		case syscall.ENOTDIR:
			return "Not a directory"
		case syscall.EACCES, syscall.EPERM:
			return "Permission denied"
		case syscall.ENOTEMPTY:
			return "Directory not empty"
		case syscall.ELOOP:
			return "Too many levels of symbolic links"
		}
		s := errno.Error()
		return strings.ToUpper(s[:1]) + s[1:]
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "No such file or directory"
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func (f *finder) abs(p string) string {
	if strings.HasPrefix(p, "/") {
		return path.Clean(p)
	}
	return path.Clean(f.env.Dir + "/" + p)
}

// stat looks a path up as the symlink mode asks.
func (f *finder) stat(abs string, top bool) (fs.FileInfo, error) {
	fi, err := vfs.Lstat(f.env.FS, abs)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 && (f.follow == 'L' || f.follow == 'H' && top) {
		if tfi, err := f.env.FS.Stat(abs); err == nil {
			return tfi, nil
		}
	}
	return fi, nil
}

func (f *finder) walkStart(start string) {
	abs := f.abs(start)
	fi, err := f.stat(abs, true)
	if err != nil {
		f.fileError(start, notDirErr(f.env.FS, abs, err))
		return
	}
	if strings.HasSuffix(start, "/") && !fi.IsDir() {
		f.fileError(start, syscall.ENOTDIR)
		return
	}
	f.ancests = f.ancests[:0]
	f.walk(&visit{path: start, abs: abs, start: start, fi: fi})
}

// notDirErr turns "not found" into "Not a directory" when the path runs
// through a file, as the kernel reports it.
func notDirErr(fsys vfs.FS, abs string, err error) error {
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for d := path.Dir(abs); d != "/"; d = path.Dir(d) {
		if fi, err := fsys.Stat(d); err == nil {
			if !fi.IsDir() {
				return syscall.ENOTDIR
			}
			break
		}
	}
	return err
}

// walk evaluates the expression on v and descends into directories,
// before (default) or after (-depth) evaluating the directory itself.
func (f *finder) walk(v *visit) {
	if f.quit || f.ctx.Err() != nil {
		return
	}
	inRange := v.depth >= f.minDepth
	if !f.depthFirst && inRange {
		f.root.eval(f, v)
	}
	descend := v.fi.IsDir() && !v.prune && (f.maxDepth < 0 || v.depth < f.maxDepth) && !f.quit
	if descend && f.follow != 'P' {
		descend = f.enterOK(v)
	}
	if descend {
		f.walkChildren(v)
		if f.follow != 'P' {
			f.ancests = f.ancests[:len(f.ancests)-1]
		}
	}
	if f.depthFirst && inRange && !f.quit {
		f.root.eval(f, v)
	}
}

// enterOK detects directory loops made of symlinks under -L.
func (f *finder) enterOK(v *visit) bool {
	canon := canonical(f.env.FS, v.abs)
	for _, a := range f.ancests {
		if a == canon {
			f.errorf("File system loop detected; %s is part of the same file system loop as %s.",
				fileutil.Quote(v.path), fileutil.Quote(v.start))
			f.status = 1
			return false
		}
	}
	f.ancests = append(f.ancests, canon)
	return true
}

// canonical resolves every symlink in abs.
func canonical(fsys vfs.FS, abs string) string {
	out := "/"
	rest := strings.Split(abs, "/")
	for hops := 0; len(rest) > 0; {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			out = path.Dir(out)
			continue
		}
		next := path.Join(out, c)
		fi, err := vfs.Lstat(fsys, next)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 || hops > 40 {
			out = next
			continue
		}
		hops++
		t, err := fsys.ReadlinkIfPossible(next)
		if err != nil {
			out = next
			continue
		}
		if strings.HasPrefix(t, "/") {
			out = "/"
		}
		rest = append(strings.Split(t, "/"), rest...)
	}
	return out
}

func (f *finder) walkChildren(v *visit) {
	dir, err := f.env.FS.Open(v.abs)
	if err != nil {
		f.fileError(v.path, err)
		return
	}
	list, err := dir.Readdir(-1)
	dir.Close()
	if err != nil && err != io.EOF {
		f.fileError(v.path, err)
		return
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name() < list[j].Name() })
	for _, c := range list {
		if f.quit || f.ctx.Err() != nil {
			return
		}
		abs := path.Join(v.abs, c.Name())
		fi := c
		var serr error
		if f.follow == 'L' && c.Mode()&fs.ModeSymlink != 0 {
			if tfi, err := f.env.FS.Stat(abs); err == nil {
				fi = tfi
			} else {
				serr = err
			}
		}
		p := v.path
		if !strings.HasSuffix(p, "/") {
			p += "/"
		}
		f.walk(&visit{path: p + c.Name(), abs: abs, start: v.start, fi: fi, depth: v.depth + 1, err: serr})
	}
}

func (f *finder) closeFiles() {
	for _, o := range f.files {
		o.w.Flush()
		o.f.Close()
	}
	f.files = nil
}

// flushOut writes pending output before something else writes to the
// same streams (commands run by -exec).
func (f *finder) flushOut() {
	f.out.Flush()
	for _, o := range f.files {
		o.w.Flush()
	}
}
