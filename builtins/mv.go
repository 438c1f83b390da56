package builtins

import (
	"context"
	"fmt"
	"strings"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
	"github.com/sandsh/sandsh/vfs"
)

const mvUsage = `Usage: mv [OPTION]... [-T] SOURCE DEST
  or:  mv [OPTION]... SOURCE... DIRECTORY
  or:  mv [OPTION]... -t DIRECTORY SOURCE...
Rename SOURCE to DEST, or move SOURCE(s) to DIRECTORY.

  -f, --force                  do not prompt before overwriting
  -i, --interactive            prompt before overwrite (no-op without a tty)
  -n, --no-clobber             do not overwrite an existing file
      --strip-trailing-slashes  remove any trailing slashes from each SOURCE
                                 argument
  -t, --target-directory=DIRECTORY  move all SOURCE arguments into DIRECTORY
  -T, --no-target-directory    treat DEST as a normal file
  -u, --update                 move only when the SOURCE file is newer
                                 than the destination file or when the
                                 destination file is missing
  -v, --verbose                explain what is being done
      --help     display this help and exit
`

var mvGetopt = Getopt{
	Short: "fint:Tuv",
	Long: []string{"force", "interactive", "no-clobber", "strip-trailing-slashes", "target-directory=",
		"no-target-directory", "update?", "verbose"},
	LongAlias: map[string]string{"force": "f", "interactive": "i", "no-clobber": "n", "target-directory": "t",
		"no-target-directory": "T", "update": "u", "verbose": "v"},
}

type mvRun struct {
	ctx                        context.Context
	env                        *Env
	noClobber, update, verbose bool
	status                     int
}

func runMv(ctx context.Context, env *Env, args []string) int {
	opts, operands, err := mvGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("mv", err, 1)
	}
	r := &mvRun{ctx: ctx, env: env}
	var target string
	noTarget, strip := false, false
	for _, o := range opts {
		switch o.Name {
		case "f", "i":
			// -f and -i only matter for prompting, which needs a tty.
			if o.Name == "f" {
				r.noClobber = false
			}
		case "n":
			r.noClobber = true
		case "t":
			target = o.Value
		case "T":
			noTarget = true
		case "u":
			r.update = true
		case "v":
			r.verbose = true
		case "strip-trailing-slashes":
			strip = true
		}
	}
	if strip {
		for i, s := range operands {
			if t := strings.TrimRight(s, "/"); t != "" {
				operands[i] = t
			}
		}
	}
	plan, st := filesPlanTarget(env, "mv", operands, target, noTarget)
	if st != 0 {
		return st
	}
	for _, src := range plan.sources {
		if ctx.Err() != nil {
			return 130
		}
		r.move(src, plan.destFor(src))
	}
	return r.status
}

func (r *mvRun) failf(format string, a ...any) {
	r.env.Errorf("mv", format, a...)
	r.status = 1
}

func (r *mvRun) move(src, dst string) {
	fsys := r.env.FS
	sabs, dabs := r.env.Abs(src), r.env.Abs(dst)
	fi, err := vfs.Lstat(fsys, sabs)
	if err == nil {
		err = filesSlashErr(r.env, src)
	}
	if err != nil {
		r.failf("cannot stat %s: %s", fileutil.Quote(src), ErrText(filesStatErr(fsys, sabs, err)))
		return
	}
	if sabs == "/" || filesBase(src) == "." || filesBase(src) == ".." {
		r.failf("cannot move %s to %s: %s", fileutil.Quote(src), fileutil.Quote(dst), "Device or resource busy")
		return
	}
	dfi, derr := vfs.Lstat(fsys, dabs)
	exists := derr == nil
	if exists && filesSameFile(fsys, sabs, dabs) && filesIsLink(fi) == filesIsLink(dfi) {
		r.failf("%s and %s are the same file", fileutil.Quote(src), fileutil.Quote(dst))
		return
	}
	if fi.IsDir() && strings.HasPrefix(dabs, sabs+"/") {
		r.failf("cannot move %s to a subdirectory of itself, %s", fileutil.Quote(src), fileutil.Quote(dst))
		return
	}
	if exists {
		if r.noClobber || r.update && !fi.ModTime().After(dfi.ModTime()) {
			return
		}
		switch {
		case fi.IsDir() && !dfi.IsDir():
			r.failf("cannot overwrite non-directory %s with directory %s", fileutil.Quote(dst), fileutil.Quote(src))
			return
		case !fi.IsDir() && dfi.IsDir():
			r.failf("cannot overwrite directory %s with non-directory", fileutil.Quote(dst))
			return
		case dfi.IsDir():
			if names, err := filesDirNames(fsys, dabs); err == nil && len(names) > 0 {
				r.failf("cannot move %s to %s: Directory not empty", fileutil.Quote(src), fileutil.Quote(dst))
				return
			}
		}
	} else if err := filesParentOK(fsys, dabs); err != nil {
		r.failf("cannot move %s to %s: %s", fileutil.Quote(src), fileutil.Quote(dst), ErrText(err))
		return
	}
	if exists {
		// Renaming over an existing entry replaces it; do it explicitly
		// so every filesystem behaves like rename(2).
		if err := fsys.Remove(dabs); err != nil {
			r.failf("cannot remove %s: %s", fileutil.Quote(dst), ErrText(err))
			return
		}
	}
	if err := fsys.Rename(sabs, dabs); err != nil {
		r.failf("cannot move %s to %s: %s", fileutil.Quote(src), fileutil.Quote(dst), ErrText(err))
		return
	}
	if r.verbose {
		fmt.Fprintf(r.env.Stdout, "renamed %s -> %s\n", fileutil.Quote(src), fileutil.Quote(dst))
	}
}
