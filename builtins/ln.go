package builtins

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"syscall"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
	"github.com/sandsh/sandsh/vfs"
)

const lnUsage = `Usage: ln [OPTION]... [-T] TARGET LINK_NAME
  or:  ln [OPTION]... TARGET
  or:  ln [OPTION]... TARGET... DIRECTORY
  or:  ln [OPTION]... -t DIRECTORY TARGET...
Create links to each TARGET. Create hard links by default, symbolic links
with --symbolic.

  -f, --force                 remove existing destination files
  -i, --interactive           prompt whether to remove destinations (no-op
                                without a tty)
  -L, --logical               dereference TARGETs that are symbolic links
  -n, --no-dereference        treat LINK_NAME as a normal file if
                                it is a symbolic link to a directory
  -P, --physical              make hard links directly to symbolic links
  -r, --relative              with -s, create links relative to link location
  -s, --symbolic              make symbolic links instead of hard links
  -t, --target-directory=DIRECTORY  specify the DIRECTORY in which to create
                                the links
  -T, --no-target-directory   treat LINK_NAME as a normal file always
  -v, --verbose               print name of each linked file
      --help     display this help and exit
`

var lnGetopt = Getopt{
	Short: "fiLnPrst:Tv",
	Long: []string{"force", "interactive", "logical", "no-dereference", "physical", "relative", "symbolic",
		"target-directory=", "no-target-directory", "verbose"},
	LongAlias: map[string]string{"force": "f", "interactive": "i", "logical": "L", "no-dereference": "n",
		"physical": "P", "relative": "r", "symbolic": "s", "target-directory": "t", "no-target-directory": "T",
		"verbose": "v"},
}

type lnRun struct {
	env                               *Env
	force, noDeref, symbolic, verbose bool
	relative, logical                 bool
}

func runLn(ctx context.Context, env *Env, args []string) int {
	opts, operands, err := lnGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("ln", err, 1)
	}
	r := &lnRun{env: env}
	var target string
	noTarget := false
	for _, o := range opts {
		switch o.Name {
		case "f":
			r.force = true
		case "i":
			r.force = false
		case "L":
			r.logical = true
		case "P":
			r.logical = false
		case "n":
			r.noDeref = true
		case "r":
			r.relative = true
		case "s":
			r.symbolic = true
		case "t":
			target = o.Value
		case "T":
			noTarget = true
		case "v":
			r.verbose = true
		}
	}
	if r.relative && !r.symbolic {
		return env.UsageError("ln", errors.New("cannot do --relative without --symbolic"), 1)
	}
	if len(operands) == 1 && target == "" && !noTarget {
		// "ln TARGET" links into the current directory.
		operands = append(operands, ".")
	}
	plan, st := r.plan(operands, target, noTarget)
	if st != 0 {
		return st
	}
	status := 0
	for _, src := range plan.sources {
		if ctx.Err() != nil {
			return 130
		}
		if !r.link(src, plan.destFor(src)) {
			status = 1
		}
	}
	return status
}

// plan is filesPlanTarget, except that -n keeps a symlink to a
// directory from counting as a directory.
func (r *lnRun) plan(operands []string, target string, noTarget bool) (filesTargetPlan, int) {
	if r.noDeref && target == "" && !noTarget && len(operands) == 2 {
		if fi, err := filesLstat(r.env, operands[1]); err == nil && filesIsLink(fi) {
			return filesTargetPlan{sources: operands[:1], dest: operands[1]}, 0
		}
	}
	return filesPlanTarget(r.env, "ln", operands, target, noTarget)
}

func (r *lnRun) link(src, dst string) bool {
	env, fsys := r.env, r.env.FS
	dabs := env.Abs(dst)
	kind := "hard link"
	if r.symbolic {
		kind = "symbolic link"
	}
	fail := func(err error) bool {
		env.Errorf("ln", "failed to create %s %s: %s", kind, fileutil.Quote(dst), ErrText(err))
		return false
	}
	sabs := env.Abs(src)
	if !r.symbolic {
		fi, err := vfs.Lstat(fsys, sabs)
		if err == nil && r.logical && filesIsLink(fi) {
			fi, err = fsys.Stat(sabs)
			if err == nil {
				sabs, _ = filesResolve(fsys, sabs, filesResolveExisting)
			}
		}
		if err != nil {
			filesErrorf(env, "ln", filesStatErr(fsys, sabs, err), "failed to access %s", fileutil.Quote(src))
			return false
		}
		if fi.IsDir() {
			env.Errorf("ln", "%s: hard link not allowed for directory", fileutil.QuoteIf(src))
			return false
		}
	}
	if dfi, err := vfs.Lstat(fsys, dabs); err == nil {
		if !r.symbolic && filesSameFile(fsys, sabs, dabs) && !filesIsLink(dfi) {
			env.Errorf("ln", "%s and %s are the same file", fileutil.Quote(src), fileutil.Quote(dst))
			return false
		}
		if !r.force {
			return fail(syscall.EEXIST)
		}
		if dfi.IsDir() {
			env.Errorf("ln", "%s: cannot overwrite directory", fileutil.QuoteIf(dst))
			return false
		}
		if err := fsys.Remove(dabs); err != nil {
			env.Errorf("ln", "cannot remove %s: %s", fileutil.Quote(dst), ErrText(err))
			return false
		}
	} else if err := filesParentOK(fsys, dabs); err != nil {
		return fail(err)
	}
	var err error
	shownTarget := src
	if r.symbolic {
		if r.relative {
			shownTarget = lnRelative(fsys, sabs, dabs)
		}
		err = fsys.SymlinkIfPossible(shownTarget, dabs)
	} else {
		err = filesHardLink(fsys, sabs, dabs)
	}
	if err != nil {
		return fail(filesLinkErr(err))
	}
	if r.verbose {
		arrow := "=>"
		if r.symbolic {
			arrow = "->"
		}
		fmt.Fprintf(env.Stdout, "%s %s %s\n", fileutil.Quote(dst), arrow, fileutil.Quote(shownTarget))
	}
	return true
}

// lnRelative is the target of -r: the path to src from the link's
// directory, both taken with symlinks in their directories resolved.
func lnRelative(fsys vfs.FS, src, dst string) string {
	from, err := filesResolve(fsys, path.Dir(dst), filesResolveMissing)
	if err != nil {
		from = path.Dir(dst)
	}
	to, err := filesResolve(fsys, src, filesResolveMissing)
	if err != nil {
		to = src
	}
	return filesRelPath(from, to)
}

// filesRelPath returns the relative path from directory from to to
// (both absolute and clean).
func filesRelPath(from, to string) string {
	fp := strings.Split(strings.Trim(from, "/"), "/")
	tp := strings.Split(strings.Trim(to, "/"), "/")
	if from == "/" {
		fp = nil
	}
	if to == "/" {
		tp = nil
	}
	i := 0
	for i < len(fp) && i < len(tp) && fp[i] == tp[i] {
		i++
	}
	var parts []string
	for range fp[i:] {
		parts = append(parts, "..")
	}
	parts = append(parts, tp[i:]...)
	if len(parts) == 0 {
		return "."
	}
	return strings.Join(parts, "/")
}
