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

const rmdirUsage = `Usage: rmdir [OPTION]... DIRECTORY...
Remove the DIRECTORY(ies), if they are empty.

      --ignore-fail-on-non-empty
                    ignore each failure that is solely because a directory
                      is non-empty
  -p, --parents     remove DIRECTORY and its ancestors; e.g., 'rmdir -p a/b/c' is
                      similar to 'rmdir a/b/c a/b a'
  -v, --verbose     output a diagnostic for every directory processed
      --help     display this help and exit
`

var rmdirGetopt = Getopt{
	Short:     "pv",
	Long:      []string{"ignore-fail-on-non-empty", "parents", "verbose"},
	LongAlias: map[string]string{"parents": "p", "verbose": "v"},
}

type rmdirRun struct {
	env                              *Env
	parents, verbose, ignoreNonEmpty bool
}

func runRmdir(ctx context.Context, env *Env, args []string) int {
	opts, operands, err := rmdirGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("rmdir", err, 1)
	}
	r := &rmdirRun{env: env}
	for _, o := range opts {
		switch o.Name {
		case "p":
			r.parents = true
		case "v":
			r.verbose = true
		case "ignore-fail-on-non-empty":
			r.ignoreNonEmpty = true
		}
	}
	if len(operands) == 0 {
		return env.UsageError("rmdir", errors.New("missing operand"), 1)
	}
	status := 0
	for _, name := range operands {
		if ctx.Err() != nil {
			return 130
		}
		if !r.removeChain(name) {
			status = 1
		}
	}
	return status
}

// removeChain removes name and, with -p, each parent named in it.
func (r *rmdirRun) removeChain(name string) bool {
	for first := true; ; first = false {
		if err := r.removeOne(name); err != nil {
			if errors.Is(err, syscall.ENOTEMPTY) && r.ignoreNonEmpty {
				return true
			}
			what := "failed to remove"
			if !first {
				what = "failed to remove directory"
			}
			r.env.Errorf("rmdir", "%s %s: %s", what, fileutil.Quote(name), ErrText(err))
			return false
		}
		if !r.parents {
			return true
		}
		name = strings.TrimRight(name, "/")
		dir := path.Dir(name)
		if dir == "." || dir == "/" || dir == name {
			return true
		}
		name = dir
	}
}

func (r *rmdirRun) removeOne(name string) error {
	if r.verbose {
		fmt.Fprintf(r.env.Stdout, "rmdir: removing directory, %s\n", fileutil.Quote(name))
	}
	abs := r.env.Abs(name)
	fi, err := vfs.Lstat(r.env.FS, abs)
	if err != nil {
		return filesStatErr(r.env.FS, abs, err)
	}
	if !fi.IsDir() {
		return syscall.ENOTDIR
	}
	if filesBase(name) == "." {
		return syscall.EINVAL
	}
	names, err := filesDirNames(r.env.FS, abs)
	if err != nil {
		return err
	}
	if len(names) > 0 {
		return syscall.ENOTEMPTY
	}
	return r.env.FS.Remove(abs)
}
