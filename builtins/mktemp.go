package builtins

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
)

const mktempUsage = `Usage: mktemp [OPTION]... [TEMPLATE]
Create a temporary file or directory, safely, and print its name.
TEMPLATE must contain at least 3 consecutive 'X's in last component.
If TEMPLATE is not specified, use tmp.XXXXXXXXXX, and --tmpdir is implied.
Files are created u+rw, and directories u+rwx, minus umask restrictions.

  -d, --directory     create a directory, not a file
  -u, --dry-run       do not create anything; merely print a name (unsafe)
  -q, --quiet         suppress diagnostics about file/dir-creation failure
      --suffix=SUFF   append SUFF to TEMPLATE; SUFF must not contain a slash.
                        This option is implied if TEMPLATE does not end in X
  -p DIR, --tmpdir[=DIR]  interpret TEMPLATE relative to DIR; if DIR is not
                        specified, use $TMPDIR if set, else /tmp.  With
                        this option, TEMPLATE must not be an absolute name;
                        unlike with -t, TEMPLATE may contain slashes, but
                        mktemp creates only the final component
  -t                  interpret TEMPLATE as a single file name component,
                        relative to a directory: $TMPDIR, if set; else the
                        directory specified via -p; else /tmp [deprecated]
      --help     display this help and exit
`

var mktempGetopt = Getopt{
	Short:     "dup:qt",
	Long:      []string{"directory", "dry-run", "tmpdir?", "quiet", "suffix="},
	LongAlias: map[string]string{"directory": "d", "dry-run": "u", "quiet": "q"},
}

// mktempChars are the characters that replace the X's.
const mktempChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

func runMktemp(ctx context.Context, env *Env, args []string) int {
	opts, operands, err := mktempGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("mktemp", err, 1)
	}
	var dirMode, dryRun, quiet, useT, haveDir bool
	var dir, suffix string
	haveSuffix := false
	for _, o := range opts {
		switch o.Name {
		case "d":
			dirMode = true
		case "u":
			dryRun = true
		case "q":
			quiet = true
		case "t":
			useT = true
		case "p":
			dir, haveDir = o.Value, true
		case "tmpdir":
			dir, haveDir = o.Value, true
		case "suffix":
			suffix, haveSuffix = o.Value, true
		}
	}
	if len(operands) > 1 {
		return env.UsageError("mktemp", errors.New("too many templates"), 1)
	}
	fail := func(format string, a ...any) int {
		if !quiet {
			env.Errorf("mktemp", format, a...)
		}
		return 1
	}
	template := "tmp.XXXXXXXXXX"
	if len(operands) == 1 {
		template = operands[0]
	} else {
		haveDir = true
	}
	if haveSuffix && strings.Contains(suffix, "/") {
		return env.UsageError("mktemp", fmt.Errorf("invalid suffix %s, contains directory separator", fileutil.Quote(suffix)), 1)
	}
	// The X run is the last one; what follows it is an implied suffix.
	if !haveSuffix {
		if i := strings.LastIndexByte(template, 'X'); i >= 0 && !strings.Contains(template[i+1:], "/") {
			template, suffix = template[:i+1], template[i+1:]
		}
	} else if !strings.HasSuffix(template, "X") {
		return fail("with --suffix, template %s must end in X", fileutil.Quote(template))
	}
	xs := len(template) - len(strings.TrimRight(template, "X"))
	if xs < 3 {
		return fail("too few X's in template %s", fileutil.Quote(template+suffix))
	}
	if useT || haveDir {
		base := dir
		if useT {
			if t := env.Getenv("TMPDIR"); t != "" {
				base = t
			}
			if strings.Contains(template, "/") {
				return fail("invalid template, %s, contains directory separator", fileutil.Quote(template+suffix))
			}
		} else if base == "" {
			base = env.Getenv("TMPDIR")
		}
		if base == "" {
			base = "/tmp"
		}
		if strings.HasPrefix(template, "/") && haveDir && !useT {
			return fail("invalid template, %s; with --tmpdir, it may not be absolute", fileutil.Quote(template+suffix))
		}
		template = filesJoin(base, template)
	}
	rng := rand.New(rand.NewPCG(uint64(env.System().Now().UnixNano()), uint64(len(template))))
	prefix := template[:len(template)-xs]
	var name string
	for try := 0; ; try++ {
		if ctx.Err() != nil {
			return 130
		}
		var b strings.Builder
		b.WriteString(prefix)
		for i := 0; i < xs; i++ {
			b.WriteByte(mktempChars[rng.IntN(len(mktempChars))])
		}
		b.WriteString(suffix)
		name = b.String()
		if dryRun {
			if _, err := filesLstat(env, name); err == nil && try < 100 {
				continue
			}
			break
		}
		err := mktempCreate(env, name, dirMode)
		if err == nil {
			break
		}
		if errors.Is(err, fs.ErrExist) && try < 1000 {
			continue
		}
		what := "file"
		if dirMode {
			what = "directory"
		}
		return fail("failed to create %s via template %s: %s", what, fileutil.Quote(template+suffix), ErrText(err))
	}
	fmt.Fprintln(env.Stdout, name)
	return 0
}

// mktempCreate makes the file (mode 0600) or directory (0700), failing
// if the name exists.
func mktempCreate(env *Env, name string, dir bool) error {
	abs := env.Abs(name)
	if _, err := filesLstat(env, name); err == nil {
		return fs.ErrExist
	}
	if err := filesParentOK(env.FS, abs); err != nil {
		return err
	}
	if dir {
		return env.FS.Mkdir(abs, 0o700)
	}
	f, err := env.FS.OpenFile(abs, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	return f.Close()
}
