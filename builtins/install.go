package builtins

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"syscall"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
	"github.com/sandsh/sandsh/vfs"
)

const installUsage = `Usage: install [OPTION]... [-T] SOURCE DEST
  or:  install [OPTION]... SOURCE... DIRECTORY
  or:  install [OPTION]... -t DIRECTORY SOURCE...
  or:  install [OPTION]... -d DIRECTORY...
Copy SOURCE to DEST or multiple SOURCE(s) to the existing DIRECTORY,
setting its mode (rwxr-xr-x unless -m says otherwise). With -d, create
all components of the given DIRECTORY(ies).

  -C, --compare               do not copy a file whose content and mode are the same
  -d, --directory             treat all arguments as directory names
  -D                          create all leading components of DEST except the last,
                                or all components of --target-directory
  -g, --group=GROUP           set group ownership (the sandbox's own group only)
  -m, --mode=MODE             set permission mode (as in chmod)
  -o, --owner=OWNER           set ownership (the sandbox's own user only)
  -p, --preserve-timestamps   keep the source's access and modification times
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY
  -T, --no-target-directory   treat DEST as a normal file
  -v, --verbose               print the name of each created file or directory
`

var installGetopt = Getopt{Short: "Cdg:m:o:pt:TvD", Long: []string{"compare", "directory", "group=", "mode=", "owner=",
	"preserve-timestamps", "target-directory=", "no-target-directory", "verbose", "help"},
	LongAlias: map[string]string{"compare": "C", "directory": "d", "group": "g", "mode": "m", "owner": "o",
		"preserve-timestamps": "p", "target-directory": "t", "no-target-directory": "T", "verbose": "v"}}

// installRun is one install invocation.
type installRun struct {
	ctx                             context.Context
	env                             *Env
	mode                            uint32
	compare, preserve, verbose, mkD bool
	status                          int
}

// runInstall copies files and sets their mode, or makes directories.
func runInstall(ctx context.Context, env *Env, args []string) int {
	opts, ops, err := installGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("install", err, 1)
	}
	if shellHelp(env, opts, installUsage) {
		return 0
	}
	r := &installRun{ctx: ctx, env: env, mode: 0o755}
	dirs, noTarget := false, false
	target := ""
	for _, o := range opts {
		switch o.Name {
		case "C":
			r.compare = true
		case "d":
			dirs = true
		case "D":
			r.mkD = true
		case "m":
			m, err := fileutil.ParseMode(o.Value)
			if err != nil {
				env.Errorf("install", "invalid mode %s", fileutil.Quote(o.Value))
				return 1
			}
			r.mode = m.Apply(0, false, 0)
		case "o":
			if !installSelf(o.Value, env.System().User, env.System().UID) {
				env.Errorf("install", "invalid user %s", fileutil.Quote(o.Value))
				return 1
			}
		case "g":
			if !installSelf(o.Value, filesGroupName(env, env.System().GID), env.System().GID) {
				env.Errorf("install", "invalid group %s", fileutil.Quote(o.Value))
				return 1
			}
		case "p":
			r.preserve = true
		case "t":
			target = o.Value
		case "T":
			noTarget = true
		case "v":
			r.verbose = true
		}
	}
	if dirs {
		if target != "" {
			env.Errorf("install", "target directory not allowed when installing a directory")
			return 1
		}
		if len(ops) == 0 {
			return env.UsageError("install", errors.New("missing file operand"), 1)
		}
		for _, d := range ops {
			if ctx.Err() != nil {
				return 130
			}
			r.makeDirs(d, true)
		}
		return r.status
	}
	if len(ops) == 0 {
		return env.UsageError("install", errors.New("missing file operand"), 1)
	}
	if target == "" && !noTarget {
		if len(ops) == 1 {
			return env.UsageError("install", fmt.Errorf("missing destination file operand after %s", fileutil.Quote(ops[0])), 1)
		}
		last := ops[len(ops)-1]
		if len(ops) > 2 || filesIsDir(env, last) {
			target, ops = last, ops[:len(ops)-1]
		}
	}
	if target != "" {
		if r.mkD && !r.makeDirs(target, false) {
			return 1
		}
		if _, err := env.FS.Stat(env.Abs(target)); err != nil {
			env.Errorf("install", "target %s: %s", fileutil.Quote(target), ErrText(err))
			return 1
		}
		if !filesIsDir(env, target) {
			env.Errorf("install", "target %s is not a directory", fileutil.Quote(target))
			return 1
		}
		for _, src := range ops {
			if ctx.Err() != nil {
				return 130
			}
			r.copyFile(src, filesJoin(target, path.Base(src)))
		}
		return r.status
	}
	if len(ops) > 2 {
		return env.UsageError("install", fmt.Errorf("extra operand %s", fileutil.Quote(ops[2])), 1)
	}
	if r.mkD && !r.makeDirs(path.Dir(ops[1]), false) {
		return 1
	}
	r.copyFile(ops[0], ops[1])
	return r.status
}

// installSelf reports whether an -o/-g value names the sandbox's own
// user or group: nothing else can own a file here.
func installSelf(v, name string, id int) bool {
	return v == name || v == strconv.Itoa(id)
}

// makeDirs creates dir and its missing ancestors; the last one gets the
// install mode when final is set (install -d).
func (r *installRun) makeDirs(dir string, final bool) bool {
	env := r.env
	abs := env.Abs(dir)
	var missing []string
	for p := abs; ; p = path.Dir(p) {
		fi, err := env.FS.Stat(p)
		if err == nil {
			if !fi.IsDir() {
				r.fail("cannot create directory %s: %s", dir, syscall.ENOTDIR)
				return false
			}
			break
		}
		missing = append(missing, p)
		if p == "/" {
			break
		}
	}
	umask := uint32(filesUmask(env.FS))
	for i := len(missing) - 1; i >= 0; i-- {
		p := missing[i]
		if err := env.FS.Mkdir(p, fileutil.GoMode(0o777&^umask|0o300)); err != nil && !errors.Is(err, fs.ErrExist) {
			r.fail("cannot create directory %s: %s", dir, err)
			return false
		}
		if r.verbose {
			fmt.Fprintf(env.Stdout, "install: creating directory %s\n", fileutil.Quote(installShown(dir, abs, p)))
		}
	}
	if final {
		if err := env.FS.Chmod(abs, fileutil.GoMode(r.mode)); err != nil {
			r.fail("cannot change permissions of %s: %s", dir, err)
			return false
		}
	}
	return true
}

// installShown names an ancestor p of abs the way the user spelled dir.
func installShown(dir, abs, p string) string {
	if p == abs {
		return dir
	}
	rel := abs[len(p):]
	if len(dir) > len(rel) && dir[len(dir)-len(rel):] == rel {
		return dir[:len(dir)-len(rel)]
	}
	return p
}

func (r *installRun) fail(format, name string, err error) {
	r.env.Errorf("install", format, fileutil.Quote(name), ErrText(err))
	r.status = 1
}

// copyFile installs src as dst: a fresh file (an existing one is
// replaced, not written through) with the install mode.
func (r *installRun) copyFile(src, dst string) {
	env := r.env
	sabs, dabs := env.Abs(src), env.Abs(dst)
	fi, err := env.FS.Stat(sabs)
	if err != nil {
		r.fail("cannot stat %s: %s", src, err)
		return
	}
	if fi.IsDir() {
		env.Errorf("install", "omitting directory %s", fileutil.Quote(src))
		r.status = 1
		return
	}
	if dfi, err := env.FS.Stat(dabs); err == nil {
		if dfi.IsDir() {
			r.fail("cannot overwrite directory %s with non-directory: %s", dst, syscall.EISDIR)
			return
		}
		if filesSameFile(env.FS, sabs, dabs) {
			env.Errorf("install", "%s and %s are the same file", fileutil.Quote(src), fileutil.Quote(dst))
			r.status = 1
			return
		}
		if r.compare && fileutil.UnixMode(dfi.Mode())&0o7777 == r.mode && r.sameContent(sabs, dabs) {
			return
		}
	}
	data, err := r.read(sabs)
	if err != nil {
		r.fail("cannot open %s for reading: %s", src, err)
		return
	}
	env.FS.Remove(dabs)
	f, err := filesCreate(env.FS, dabs, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		r.fail("cannot create regular file %s: %s", dst, err)
		return
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		r.fail("error writing %s: %s", dst, werr)
		return
	}
	if err := env.FS.Chmod(dabs, fileutil.GoMode(r.mode)); err != nil {
		r.fail("cannot change permissions of %s: %s", dst, err)
		return
	}
	if r.preserve {
		env.FS.Chtimes(dabs, vfs.MetaOf(fi).Atime, fi.ModTime())
	}
	if r.verbose {
		fmt.Fprintf(env.Stdout, "%s -> %s\n", fileutil.Quote(src), fileutil.Quote(dst))
	}
}

// read returns a file's content, within the bound on whole inputs.
func (r *installRun) read(abs string) ([]byte, error) {
	f, err := r.env.FS.Open(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	limit := r.env.InputMax()
	var src io.Reader = f
	if limit >= 0 {
		src = io.LimitReader(f, int64(limit)+1)
	}
	data, err := io.ReadAll(dataCtxReader{r.ctx, src})
	if err == nil && limit >= 0 && len(data) > limit {
		err = errors.New("file too large")
	}
	return data, err
}

func (r *installRun) sameContent(a, b string) bool {
	x, err1 := r.read(a)
	y, err2 := r.read(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}
