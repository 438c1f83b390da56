package builtins

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
	"github.com/sandsh/sandsh/vfs"
)

const chmodUsage = `Usage: chmod [OPTION]... MODE[,MODE]... FILE...
  or:  chmod [OPTION]... OCTAL-MODE FILE...
  or:  chmod [OPTION]... --reference=RFILE FILE...
Change the mode of each FILE to MODE.
With --reference, change the mode of each FILE to that of RFILE.

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
      --reference=RFILE  use RFILE's mode instead of MODE values
  -R, --recursive        change files and directories recursively
      --help     display this help and exit

Each MODE is of the form '[ugoa]*([-+=]([rwxXst]*|[ugo]))+|[-+=][0-7]+'.
`

var chmodGetopt = Getopt{
	Short: "cfvR",
	Long:  []string{"changes", "silent", "quiet", "verbose", "reference=", "recursive", "preserve-root", "no-preserve-root"},
	LongAlias: map[string]string{"changes": "c", "silent": "f", "quiet": "f", "verbose": "v",
		"recursive": "R"},
}

type chmodRun struct {
	ctx                  context.Context
	env                  *Env
	mode                 *fileutil.Mode
	ref                  *uint32
	changes, quiet, verb bool
	recursive            bool
	umask                uint32
	status               int
}

func runChmod(ctx context.Context, env *Env, args []string) int {
	// "chmod -w file" passes the mode as if it were an option: pull such
	// words out before option parsing, as GNU chmod does.
	var modeArg string
	haveMode := false
	rest := make([]string, 0, len(args))
	for i, a := range args[1:] {
		if a == "--" {
			rest = append(rest, args[1+i:]...)
			break
		}
		if !haveMode && chmodLooksLikeMode(a) {
			modeArg, haveMode = a, true
			continue
		}
		rest = append(rest, a)
	}
	opts, operands, err := chmodGetopt.Parse(rest)
	if err != nil {
		return env.UsageError("chmod", err, 1)
	}
	r := &chmodRun{ctx: ctx, env: env, umask: uint32(filesUmask(env.FS))}
	var refFile string
	for _, o := range opts {
		switch o.Name {
		case "c":
			r.changes = true
		case "f":
			r.quiet = true
		case "v":
			r.verb = true
		case "R":
			r.recursive = true
		case "reference":
			refFile = o.Value
		}
	}
	if refFile != "" {
		if haveMode {
			operands = append([]string{modeArg}, operands...)
		}
		fi, err := filesStat(env, refFile)
		if err != nil {
			filesErrorf(env, "chmod", err, "failed to get attributes of %s", fileutil.Quote(refFile))
			return 1
		}
		u := fileutil.UnixMode(fi.Mode())
		r.ref = &u
	} else {
		if !haveMode {
			if len(operands) == 0 {
				return env.UsageError("chmod", errors.New("missing operand"), 1)
			}
			modeArg, operands = operands[0], operands[1:]
		}
		m, err := fileutil.ParseMode(modeArg)
		if err != nil {
			return env.UsageError("chmod", fmt.Errorf("invalid mode: %s", fileutil.Quote(modeArg)), 1)
		}
		r.mode = m
	}
	if len(operands) == 0 {
		if refFile == "" {
			return env.UsageError("chmod", fmt.Errorf("missing operand after %s", fileutil.Quote(modeArg)), 1)
		}
		return env.UsageError("chmod", errors.New("missing operand"), 1)
	}
	for _, name := range operands {
		if ctx.Err() != nil {
			return 130
		}
		r.top(name)
	}
	return r.status
}

// chmodLooksLikeMode reports whether an argument starting with '-' is a
// mode such as -w, -rwx or -x,g+w rather than an option.
func chmodLooksLikeMode(a string) bool {
	if len(a) < 2 || a[0] != '-' || a[1] == '-' {
		return false
	}
	return strings.Trim(a[1:], "rwxXstugoa,+-=01234567") == ""
}

func (r *chmodRun) top(name string) {
	abs := r.env.Abs(name)
	fi, err := r.env.FS.Stat(abs)
	if err == nil {
		if serr := filesSlashErr(r.env, name); serr != nil {
			if !r.quiet {
				r.env.Errorf("chmod", "cannot access %s: %s", fileutil.Quote(name), ErrText(serr))
			}
			r.status = 1
			return
		}
	}
	if err != nil {
		if lfi, lerr := vfs.Lstat(r.env.FS, abs); lerr == nil && filesIsLink(lfi) {
			if !r.quiet {
				r.env.Errorf("chmod", "cannot operate on dangling symlink %s", fileutil.Quote(name))
			}
		} else if !r.quiet {
			r.env.Errorf("chmod", "cannot access %s: %s", fileutil.Quote(name), ErrText(filesStatErr(r.env.FS, abs, err)))
		}
		r.status = 1
		return
	}
	r.change(name, abs, fi)
	if r.recursive && fi.IsDir() {
		r.walk(name, abs)
	}
}

// walk changes everything below a directory; symlinks met on the way are
// left alone, as in GNU chmod -R.
func (r *chmodRun) walk(name, abs string) {
	if !filesWalkBelow(r.ctx, r.env, "chmod", name, abs, r.quiet, r.change) {
		r.status = 1
	}
}

func (r *chmodRun) change(name, abs string, fi fs.FileInfo) {
	old := fileutil.UnixMode(fi.Mode())
	var mode uint32
	if r.ref != nil {
		mode = *r.ref
	} else {
		mode = r.mode.Apply(old, fi.IsDir(), r.umask)
	}
	if mode != old {
		if err := r.env.FS.Chmod(abs, fileutil.GoMode(mode)); err != nil {
			if !r.quiet {
				r.env.Errorf("chmod", "changing permissions of %s: %s", fileutil.Quote(name), ErrText(err))
			}
			r.status = 1
			return
		}
	}
	if r.verb || r.changes && mode != old {
		r.report(name, old, mode)
	}
	if r.mode != nil && r.mode.NoWho {
		// Without u/g/o/a the umask protected some bits: say so when the
		// result is not what the mode alone would give.
		naive := r.mode.Apply(old, fi.IsDir(), 0)
		if mode&^naive != 0 {
			if !r.quiet {
				r.env.Errorf("chmod", "%s: new permissions are %s, not %s", fileutil.QuoteIf(name),
					fileutil.PermString(mode), fileutil.PermString(naive))
			}
			r.status = 1
		}
	}
}

func (r *chmodRun) report(name string, old, mode uint32) {
	q := fileutil.Quote(name)
	if old == mode {
		fmt.Fprintf(r.env.Stdout, "mode of %s retained as %04o (%s)\n", q, mode, fileutil.PermString(mode))
		return
	}
	fmt.Fprintf(r.env.Stdout, "mode of %s changed from %04o (%s) to %04o (%s)\n", q, old,
		fileutil.PermString(old), mode, fileutil.PermString(mode))
}
