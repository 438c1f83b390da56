package builtins

import (
	"context"
	"errors"
	"strings"
	"syscall"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
)

const readlinkUsage = `Usage: readlink [OPTION]... FILE...
Print value of a symbolic link or canonical file name

  -f, --canonicalize            canonicalize by following every symlink in
                                every component of the given name recursively;
                                all but the last component must exist
  -e, --canonicalize-existing   canonicalize by following every symlink in
                                every component of the given name recursively,
                                all components must exist
  -m, --canonicalize-missing    canonicalize by following every symlink in
                                every component of the given name recursively,
                                without requirements on components existence
  -n, --no-newline              do not output the trailing delimiter
  -q, --quiet
  -s, --silent                  suppress most error messages (on by default)
  -v, --verbose                 report error messages
  -z, --zero                    end each output line with NUL, not newline
      --help     display this help and exit
`

var readlinkGetopt = Getopt{
	Same:  map[string]string{"q": "s"},
	Short: "femnqsvz",
	Long: []string{"canonicalize", "canonicalize-existing", "canonicalize-missing", "no-newline", "quiet",
		"silent", "verbose", "zero"},
	LongAlias: map[string]string{"canonicalize": "f", "canonicalize-existing": "e", "canonicalize-missing": "m",
		"no-newline": "n", "quiet": "q", "silent": "s", "verbose": "v", "zero": "z"},
}

func runReadlink(ctx context.Context, env *Env, args []string) int {
	opts, operands, err := readlinkGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("readlink", err, 1)
	}
	mode := -1
	noNewline, verbose, eol := false, false, byte('\n')
	for _, o := range opts {
		switch o.Name {
		case "f":
			mode = filesResolveAllButLast
		case "e":
			mode = filesResolveExisting
		case "m":
			mode = filesResolveMissing
		case "n":
			noNewline = true
		case "q", "s":
			verbose = false
		case "v":
			verbose = true
		case "z":
			eol = 0
		}
	}
	if len(operands) == 0 {
		return env.UsageError("readlink", errors.New("missing operand"), 1)
	}
	if noNewline && len(operands) > 1 {
		env.Errorf("readlink", "ignoring --no-newline with multiple arguments")
		noNewline = false
	}
	out := filesNewWriter(env.Stdout)
	status := 0
	for _, name := range operands {
		var res string
		var err error
		if mode < 0 {
			res, err = env.FS.ReadlinkIfPossible(env.Abs(name))
			if err != nil && (filesNoSymlinks(err) || !errors.Is(err, syscall.ENOENT) && !errors.Is(err, syscall.ENOTDIR)) {
				if _, serr := filesLstat(env, name); serr == nil {
					err = syscall.EINVAL
				}
			}
		} else {
			res, err = filesCanonical(env, name, mode)
		}
		if err != nil {
			if verbose {
				env.Errorf("readlink", "%s: %s", fileutil.QuoteIf(name), ErrText(err))
			}
			status = 1
			continue
		}
		out.WriteString(res)
		if !noNewline {
			out.WriteByte(eol)
		}
	}
	if err := out.Flush(); err != nil {
		return env.WriteError("readlink", err)
	}
	return status
}

// filesCanonical resolves a user path like readlink -f/-e/-m; a name
// ending in '/' must be a directory unless nothing need exist.
func filesCanonical(env *Env, name string, mode int) (string, error) {
	if name == "" {
		return "", syscall.ENOENT
	}
	res, err := filesResolve(env.FS, env.Abs(name), mode)
	if err != nil {
		return "", err
	}
	if strings.HasSuffix(name, "/") && mode != filesResolveMissing {
		if fi, err := env.FS.Stat(res); err == nil && !fi.IsDir() {
			return "", syscall.ENOTDIR
		}
	}
	return res, nil
}
