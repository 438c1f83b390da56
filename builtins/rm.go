package builtins

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"syscall"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
	"github.com/sandsh/sandsh/vfs"
)

const rmUsage = `Usage: rm [OPTION]... [FILE]...
Remove (unlink) the FILE(s).

  -f, --force           ignore nonexistent files and arguments, never prompt
  -i                    prompt before every removal (no-op without a tty)
  -I                    prompt once before removing more than three files
                          (no-op without a tty)
      --interactive[=WHEN]  prompt according to WHEN (no-op without a tty)
      --no-preserve-root  do not treat '/' specially
      --preserve-root   do not remove '/' (default)
  -r, -R, --recursive   remove directories and their contents recursively
  -d, --dir             remove empty directories
  -v, --verbose         explain what is being done
      --help     display this help and exit
`

var rmGetopt = Getopt{
	Same:  map[string]string{"R": "r", "I": "i", "interactive": "i"},
	Short: "fiIrRdv",
	Long: []string{"force", "interactive?", "no-preserve-root", "preserve-root?", "recursive", "dir", "verbose",
		"one-file-system"},
	LongAlias: map[string]string{"force": "f", "recursive": "r", "dir": "d", "verbose": "v"},
}

type rmRun struct {
	ctx                             context.Context
	env                             *Env
	force, recursive, dirs, verbose bool
	preserveRoot                    bool
	status                          int
}

func runRm(ctx context.Context, env *Env, args []string) int {
	opts, operands, err := rmGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("rm", err, 1)
	}
	r := &rmRun{ctx: ctx, env: env, preserveRoot: true}
	for _, o := range opts {
		switch o.Name {
		case "f":
			r.force = true
		case "i", "I", "interactive":
			// Prompts need a terminal; without one there is nobody to ask.
			r.force = false
		case "r", "R":
			r.recursive = true
		case "d":
			r.dirs = true
		case "v":
			r.verbose = true
		case "no-preserve-root":
			r.preserveRoot = false
		case "preserve-root":
			r.preserveRoot = true
		}
	}
	if len(operands) == 0 {
		if r.force {
			return 0
		}
		return env.UsageError("rm", errors.New("missing operand"), 1)
	}
	for _, name := range operands {
		if ctx.Err() != nil {
			return 130
		}
		r.removeTop(name)
	}
	return r.status
}

func (r *rmRun) fail(name string, err error) {
	r.env.Errorf("rm", "cannot remove %s: %s", fileutil.Quote(name), ErrText(err))
	r.status = 1
}

func (r *rmRun) removeTop(name string) {
	base := filesBase(name)
	if base == "." || base == ".." {
		r.env.Errorf("rm", "refusing to remove '.' or '..' directory: skipping %s", fileutil.Quote(name))
		r.status = 1
		return
	}
	abs := r.env.Abs(name)
	if r.recursive && r.preserveRoot && abs == "/" {
		r.env.Errorf("rm", "it is dangerous to operate recursively on %s", fileutil.Quote("/"))
		r.env.Errorf("rm", "use --no-preserve-root to override this failsafe")
		r.status = 1
		return
	}
	fi, err := vfs.Lstat(r.env.FS, abs)
	if err != nil {
		if r.force && errors.Is(err, fs.ErrNotExist) {
			return
		}
		r.fail(name, filesStatErr(r.env.FS, abs, err))
		return
	}
	if strings.HasSuffix(name, "/") && !fi.IsDir() {
		tfi, err := filesStat(r.env, name)
		if !filesIsLink(fi) || err != nil || !tfi.IsDir() {
			r.fail(name, syscall.ENOTDIR)
			return
		}
		// "link/" names the directory behind the link: GNU empties it
		// with -r, then fails to rmdir what is really a symlink.
		if !r.recursive {
			r.fail(name, syscall.EISDIR)
			return
		}
		list, err := filesReadDir(r.env.FS, abs)
		if err != nil {
			r.fail(name, err)
			return
		}
		for _, c := range list {
			r.remove(filesJoin(name, c.Name()), path.Join(abs, c.Name()), c)
		}
		r.fail(name, syscall.ENOTDIR)
		return
	}
	r.remove(name, abs, fi)
}

// remove deletes one file or, depth first, one directory tree.
func (r *rmRun) remove(name, abs string, fi fs.FileInfo) bool {
	if r.ctx.Err() != nil {
		return false
	}
	if !fi.IsDir() {
		if err := r.env.FS.Remove(abs); err != nil {
			r.fail(name, err)
			return false
		}
		if r.verbose {
			fmt.Fprintf(r.env.Stdout, "removed %s\n", fileutil.Quote(name))
		}
		return true
	}
	list, err := filesReadDir(r.env.FS, abs)
	if err != nil {
		r.fail(name, err)
		return false
	}
	switch {
	case !r.recursive && !r.dirs:
		r.fail(name, syscall.EISDIR)
		return false
	case !r.recursive && len(list) > 0:
		r.fail(name, syscall.ENOTEMPTY)
		return false
	}
	ok := true
	for _, c := range list {
		if !r.remove(filesJoin(name, c.Name()), path.Join(abs, c.Name()), c) {
			ok = false
		}
	}
	if !ok {
		return false
	}
	if err := r.env.FS.Remove(abs); err != nil {
		r.fail(name, err)
		return false
	}
	if r.verbose {
		fmt.Fprintf(r.env.Stdout, "removed directory %s\n", fileutil.Quote(name))
	}
	return true
}
