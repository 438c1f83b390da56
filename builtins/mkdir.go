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
)

const mkdirUsage = `Usage: mkdir [OPTION]... DIRECTORY...
Create the DIRECTORY(ies), if they do not already exist.

  -m, --mode=MODE   set file mode (as in chmod), not a=rwx - umask
  -p, --parents     no error if existing, make parent directories as needed,
                    with their file modes unaffected by any -m option.
  -v, --verbose     print a message for each created directory
      --help     display this help and exit
`

var mkdirGetopt = Getopt{
	Short:     "m:pv",
	Long:      []string{"mode=", "parents", "verbose", "context?"},
	LongAlias: map[string]string{"mode": "m", "parents": "p", "verbose": "v"},
}

func runMkdir(ctx context.Context, env *Env, args []string) int {
	opts, operands, err := mkdirGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("mkdir", err, 1)
	}
	parents, verbose := false, false
	umask := filesUmask(env.FS)
	mode := 0o777 &^ umask
	explicit := false
	for _, o := range opts {
		switch o.Name {
		case "m":
			m, err := fileutil.ParseMode(o.Value)
			if err != nil {
				env.Errorf("mkdir", "invalid mode %s", fileutil.Quote(o.Value))
				return 1
			}
			mode, explicit = mkdirMode(m, uint32(umask)), true
		case "p":
			parents = true
		case "v":
			verbose = true
		}
	}
	if len(operands) == 0 {
		return env.UsageError("mkdir", errors.New("missing operand"), 1)
	}
	status := 0
	for _, name := range operands {
		if ctx.Err() != nil {
			return 130
		}
		if err := mkdirOne(env, name, mode, explicit, parents, verbose); err != nil {
			status = 1
		}
	}
	return status
}

// mkdirMode is the mode -m MODE gives: the mode applied to a=rwx, where
// a sticky bit keeps group and other from writing as GNU's safe creation
// does.
func mkdirMode(m *fileutil.Mode, umask uint32) fs.FileMode {
	u := m.Apply(0o777, true, umask)
	if !m.Octal && u&0o1000 != 0 && u&0o6000 == 0 {
		u &^= 0o022 | umask
	}
	return fileutil.GoMode(u)
}

func mkdirOne(env *Env, name string, mode fs.FileMode, explicit, parents, verbose bool) error {
	abs := env.Abs(name)
	umask := filesUmask(env.FS)
	fail := func(what string, err error) error {
		env.Errorf("mkdir", "cannot create directory %s: %s", fileutil.Quote(what), ErrText(err))
		return err
	}
	if parents {
		// Create each missing ancestor, reporting the one that fails.
		prefix := ""
		if strings.HasPrefix(name, "/") {
			prefix = "/"
		}
		parts := strings.Split(strings.Trim(name, "/"), "/")
		for i, p := range parts[:len(parts)-1] {
			if p == "" || p == "." || p == ".." {
				continue
			}
			shown := prefix + strings.Join(parts[:i+1], "/")
			dabs := env.Abs(shown)
			if fi, err := env.FS.Stat(dabs); err == nil {
				if !fi.IsDir() {
					return fail(shown, syscall.ENOTDIR)
				}
				continue
			}
			if err := env.FS.Mkdir(dabs, 0o777&^umask|0o300); err != nil {
				return fail(shown, err)
			}
			if verbose {
				fmt.Fprintf(env.Stdout, "mkdir: created directory %s\n", fileutil.Quote(shown))
			}
		}
		if fi, err := env.FS.Stat(abs); err == nil {
			if fi.IsDir() {
				return nil
			}
			return fail(name, syscall.EEXIST)
		}
	}
	if _, err := filesLstat(env, name); err == nil {
		return fail(name, syscall.EEXIST)
	}
	if err := filesParentOK(env.FS, abs); err != nil {
		return fail(name, err)
	}
	if path.Base(abs) == "." || abs == "/" {
		return fail(name, syscall.EEXIST)
	}
	if err := env.FS.Mkdir(abs, mode); err != nil {
		return fail(name, err)
	}
	if explicit {
		env.FS.Chmod(abs, mode)
	}
	if verbose {
		fmt.Fprintf(env.Stdout, "mkdir: created directory %s\n", fileutil.Quote(name))
	}
	return nil
}
