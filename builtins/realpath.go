package builtins

import (
	"context"
	"errors"
	"path"
	"strings"
	"syscall"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
)

const realpathUsage = `Usage: realpath [OPTION]... FILE...
Print the resolved absolute file name;
all but the last component must exist

  -E, --canonicalize-existing  all components of the path must exist
  -e, --canonicalize-existing  all components of the path must exist
  -m, --canonicalize-missing   no path components need exist or be a directory
  -L, --logical                resolve '..' components before symlinks
  -P, --physical               resolve symlinks as encountered (default)
  -q, --quiet                  suppress most error messages
      --relative-to=DIR        print the resolved path relative to DIR
      --relative-base=DIR      print absolute paths unless paths below DIR
  -s, --strip, --no-symlinks   don't expand symlinks
  -z, --zero                   end each output line with NUL, not newline
      --help     display this help and exit
`

var realpathGetopt = Getopt{
	Short: "EemLPqsz",
	Long: []string{"canonicalize", "canonicalize-existing", "canonicalize-missing", "logical", "physical", "quiet",
		"relative-to=", "relative-base=", "strip", "no-symlinks", "zero"},
	LongAlias: map[string]string{"canonicalize": "E", "canonicalize-existing": "e", "canonicalize-missing": "m",
		"logical": "L", "physical": "P", "quiet": "q", "strip": "s", "no-symlinks": "s", "zero": "z"},
}

type realpathRun struct {
	env     *Env
	mode    int
	logical bool
	strip   bool
}

func runRealpath(ctx context.Context, env *Env, args []string) int {
	opts, operands, err := realpathGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("realpath", err, 1)
	}
	r := &realpathRun{env: env, mode: filesResolveAllButLast}
	quiet, eol := false, byte('\n')
	var relTo, relBase string
	var haveRelTo, haveRelBase bool
	for _, o := range opts {
		switch o.Name {
		case "E":
			r.mode = filesResolveAllButLast
		case "e":
			r.mode = filesResolveExisting
		case "m":
			r.mode = filesResolveMissing
		case "L":
			r.logical = true
		case "P":
			r.logical = false
		case "q":
			quiet = true
		case "s":
			r.strip = true
		case "z":
			eol = 0
		case "relative-to":
			relTo, haveRelTo = o.Value, true
		case "relative-base":
			relBase, haveRelBase = o.Value, true
		}
	}
	if len(operands) == 0 {
		return env.UsageError("realpath", errors.New("missing operand"), 1)
	}
	if haveRelTo {
		d, err := r.resolve(relTo)
		if err != nil {
			env.Errorf("realpath", "%s: %s", fileutil.QuoteIf(relTo), ErrText(err))
			return 1
		}
		relTo = d
	}
	if haveRelBase {
		d, err := r.resolve(relBase)
		if err != nil {
			env.Errorf("realpath", "%s: %s", fileutil.QuoteIf(relBase), ErrText(err))
			return 1
		}
		relBase = d
		if !haveRelTo {
			relTo, haveRelTo = relBase, true
		} else if !filesUnder(relTo, relBase) {
			// --relative-to outside the base: print absolute names.
			haveRelTo, haveRelBase = false, false
		}
	}
	out := filesNewWriter(env.Stdout)
	status := 0
	for _, name := range operands {
		res, err := r.resolve(name)
		if err != nil {
			if !quiet {
				env.Errorf("realpath", "%s: %s", fileutil.QuoteIf(name), ErrText(err))
			}
			status = 1
			continue
		}
		if haveRelTo && (!haveRelBase || filesUnder(res, relBase)) {
			res = filesRelPath(relTo, res)
		}
		out.WriteString(res)
		out.WriteByte(eol)
	}
	if err := out.Flush(); err != nil {
		return env.WriteError("realpath", err)
	}
	return status
}

// filesUnder reports whether p is base or lies below it.
func filesUnder(p, base string) bool {
	return p == base || base == "/" || strings.HasPrefix(p, base+"/")
}

func (r *realpathRun) resolve(name string) (string, error) {
	if name == "" {
		return "", syscall.ENOENT
	}
	abs := r.env.Abs(name)
	if !r.strip && !r.logical {
		return filesCanonical(r.env, name, r.mode)
	}
	// -s and -L take ".." lexically; -L then resolves the symlinks left.
	if r.logical && !r.strip {
		res, err := filesResolve(r.env.FS, abs, r.mode)
		if err == nil && strings.HasSuffix(name, "/") && r.mode != filesResolveMissing {
			if fi, serr := r.env.FS.Stat(res); serr == nil && !fi.IsDir() {
				return "", syscall.ENOTDIR
			}
		}
		return res, err
	}
	switch r.mode {
	case filesResolveExisting:
		if _, err := r.env.FS.Stat(abs); err != nil {
			return "", filesStatErr(r.env.FS, abs, err)
		}
	case filesResolveAllButLast:
		if fi, err := r.env.FS.Stat(path.Dir(abs)); err != nil {
			return "", filesStatErr(r.env.FS, abs, err)
		} else if !fi.IsDir() {
			return "", syscall.ENOTDIR
		}
	}
	return abs, nil
}
