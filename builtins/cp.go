package builtins

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
	"github.com/sandsh/sandsh/vfs"
)

const cpUsage = `Usage: cp [OPTION]... [-T] SOURCE DEST
  or:  cp [OPTION]... SOURCE... DIRECTORY
  or:  cp [OPTION]... -t DIRECTORY SOURCE...
Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY.

  -a, --archive                same as -dR --preserve=all
  -d                           same as --no-dereference --preserve=links
  -f, --force                  if an existing destination file cannot be
                                 opened, remove it and try again
  -H                           follow command-line symbolic links in SOURCE
  -i, --interactive            prompt before overwrite (no-op without a tty)
  -l, --link                   hard link files instead of copying
  -L, --dereference            always follow symbolic links in SOURCE
  -n, --no-clobber             do not overwrite an existing file
  -P, --no-dereference         never follow symbolic links in SOURCE
  -p                           same as --preserve=mode,ownership,timestamps
      --preserve[=ATTR_LIST]   preserve the specified attributes
      --no-preserve=ATTR_LIST  don't preserve the specified attributes
      --parents                use full source file name under DIRECTORY
  -R, -r, --recursive          copy directories recursively
      --remove-destination     remove each existing destination file before
                                 attempting to open it
  -s, --symbolic-link          make symbolic links instead of copying
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY
  -T, --no-target-directory    treat DEST as a normal file
  -u, --update                 copy only when the SOURCE file is newer
                                 than the destination file or when the
                                 destination file is missing
  -v, --verbose                explain what is being done
      --help     display this help and exit
`

var cpGetopt = Getopt{
	Same:  map[string]string{"R": "r"},
	Short: "adfHilLnPpRrst:Tuvx",
	Long: []string{"archive", "force", "interactive", "link", "dereference", "no-clobber", "no-dereference",
		"preserve?", "no-preserve=", "parents", "recursive", "remove-destination", "symbolic-link",
		"target-directory=", "no-target-directory", "update?", "verbose", "one-file-system", "sparse=", "reflink?", "strip-trailing-slashes"},
	LongAlias: map[string]string{"archive": "a", "force": "f", "interactive": "i", "link": "l", "dereference": "L",
		"no-clobber": "n", "no-dereference": "P", "recursive": "R", "symbolic-link": "s", "target-directory": "t",
		"no-target-directory": "T", "verbose": "v", "one-file-system": "x"},
}

type cpOpts struct {
	recursive     bool
	deref         byte // 'L' always, 'H' command line only, 'P' never, 0 by default
	preserveMode  bool
	preserveOwner bool
	preserveTime  bool
	preserveLinks bool
	noClobber     bool
	force         bool
	update        bool
	verbose       bool
	hardLink      bool
	symLink       bool
	removeDest    bool
	parents       bool
	stripSlashes  bool
}

type cpRun struct {
	ctx    context.Context
	env    *Env
	name   string
	o      cpOpts
	status int
	// links maps an inode already copied to its copy, for --preserve=links.
	links map[uint64]string
	buf   []byte
	guard *filesLoopGuard
}

func runCp(ctx context.Context, env *Env, args []string) int {
	opts, operands, err := cpGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("cp", err, 1)
	}
	var o cpOpts
	var target string
	noTarget := false
	for _, op := range opts {
		switch op.Name {
		case "a":
			o.recursive, o.deref = true, 'P'
			o.preserveMode, o.preserveOwner, o.preserveTime, o.preserveLinks = true, true, true, true
		case "d":
			o.deref, o.preserveLinks = 'P', true
		case "f":
			o.force = true
		case "H":
			o.deref = 'H'
		case "L":
			o.deref = 'L'
		case "P":
			o.deref = 'P'
		case "i", "x", "sparse", "reflink":
		case "l":
			o.hardLink = true
		case "n":
			o.noClobber = true
		case "p":
			o.preserveMode, o.preserveOwner, o.preserveTime = true, true, true
		case "preserve", "no-preserve":
			list := op.Value
			if op.Name == "preserve" && !op.HasValue {
				list = "mode,ownership,timestamps"
			}
			if err := o.setPreserve(list, op.Name == "preserve"); err != nil {
				return env.UsageError("cp", err, 1)
			}
		case "parents":
			o.parents = true
		case "R", "r":
			o.recursive = true
		case "remove-destination":
			o.removeDest = true
		case "s":
			o.symLink = true
		case "t":
			target = op.Value
		case "T":
			noTarget = true
		case "u":
			o.update = op.Value != "none" && op.Value != "all" || op.Value == "older"
		case "v":
			o.verbose = true
		case "strip-trailing-slashes":
			o.stripSlashes = true
		}
	}
	if o.deref == 0 {
		o.deref = 'L'
		if o.recursive {
			o.deref = 'P'
		}
	}
	r := &cpRun{ctx: ctx, env: env, name: "cp", o: o, links: map[uint64]string{}, guard: &filesLoopGuard{fsys: env.FS}}
	return r.main(operands, target, noTarget)
}

func (o *cpOpts) setPreserve(list string, on bool) error {
	for _, a := range strings.Split(list, ",") {
		switch a {
		case "mode":
			o.preserveMode = on
		case "ownership":
			o.preserveOwner = on
		case "timestamps":
			o.preserveTime = on
		case "links":
			o.preserveLinks = on
		case "all":
			o.preserveMode, o.preserveOwner, o.preserveTime, o.preserveLinks = on, on, on, on
		case "context", "xattr":
		default:
			return fmt.Errorf("invalid argument %s for '--preserve'", fileutil.Quote(a))
		}
	}
	return nil
}

// filesTargetPlan works out, for cp, mv and ln, which operands are
// sources and where each one goes, with GNU's diagnostics.
type filesTargetPlan struct {
	sources []string
	dest    string
	intoDir bool
}

func filesPlanTarget(env *Env, name string, operands []string, target string, noTarget bool) (filesTargetPlan, int) {
	var p filesTargetPlan
	if target != "" {
		if noTarget {
			env.Errorf(name, "cannot combine --target-directory (-t) and --no-target-directory (-T)")
			return p, 1
		}
		fi, err := filesStat(env, target)
		if err != nil {
			filesErrorf(env, name, err, "target directory %s", fileutil.Quote(target))
			return p, 1
		}
		if !fi.IsDir() {
			env.Errorf(name, "target %s is not a directory", fileutil.Quote(target))
			return p, 1
		}
		if len(operands) == 0 {
			return p, env.UsageError(name, errors.New("missing file operand"), 1)
		}
		return filesTargetPlan{sources: operands, dest: target, intoDir: true}, 0
	}
	switch len(operands) {
	case 0:
		return p, env.UsageError(name, errors.New("missing file operand"), 1)
	case 1:
		return p, env.UsageError(name, fmt.Errorf("missing destination file operand after %s", fileutil.Quote(operands[0])), 1)
	}
	last := operands[len(operands)-1]
	sources := operands[:len(operands)-1]
	if noTarget {
		if len(operands) > 2 {
			return p, env.UsageError(name, fmt.Errorf("extra operand %s", fileutil.Quote(operands[2])), 1)
		}
		return filesTargetPlan{sources: sources, dest: last}, 0
	}
	fi, err := filesStat(env, last)
	if err == nil && fi.IsDir() {
		return filesTargetPlan{sources: sources, dest: last, intoDir: true}, 0
	}
	if len(sources) > 1 {
		if err != nil {
			filesErrorf(env, name, err, "target %s", fileutil.Quote(last))
		} else {
			env.Errorf(name, "target %s is not a directory", fileutil.Quote(last))
		}
		return p, 1
	}
	return filesTargetPlan{sources: sources, dest: last}, 0
}

// destFor is where source src goes under the plan.
func (p filesTargetPlan) destFor(src string) string {
	if !p.intoDir {
		return p.dest
	}
	return filesJoin(p.dest, filesBase(src))
}

// filesBase is the last element of a user path, ignoring trailing
// slashes ("d/" -> "d", "/" -> "/").
func filesBase(p string) string {
	t := strings.TrimRight(p, "/")
	if t == "" {
		if p == "" {
			return ""
		}
		return "/"
	}
	return path.Base(t)
}

func (r *cpRun) main(operands []string, target string, noTarget bool) int {
	if r.o.stripSlashes {
		for i, s := range operands {
			if t := strings.TrimRight(s, "/"); t != "" {
				operands[i] = t
			}
		}
	}
	plan, st := filesPlanTarget(r.env, r.name, operands, target, noTarget)
	if st != 0 {
		return st
	}
	if r.o.parents && !plan.intoDir {
		r.env.Errorf(r.name, "with --parents, the destination must be a directory")
		return r.env.UsageError(r.name, errors.New("invalid destination"), 1)
	}
	r.buf = make([]byte, filesBufSize)
	for _, src := range plan.sources {
		if r.ctx.Err() != nil {
			return 130
		}
		dst := plan.destFor(src)
		if r.o.parents {
			dst = filesJoin(plan.dest, strings.TrimLeft(src, "/"))
			if !r.makeParents(plan.dest, src) {
				continue
			}
		}
		r.copyTop(src, dst)
	}
	return r.status
}

// makeParents creates the directories of src under dest for --parents.
func (r *cpRun) makeParents(dest, src string) bool {
	dir := path.Dir(strings.TrimLeft(src, "/"))
	if dir == "." {
		return true
	}
	cur := dest
	for _, c := range strings.Split(dir, "/") {
		cur = filesJoin(cur, c)
		abs := r.env.Abs(cur)
		if fi, err := r.env.FS.Stat(abs); err == nil {
			if !fi.IsDir() {
				r.fail(syscall.ENOTDIR, "cannot make directory %s", fileutil.Quote(cur))
				return false
			}
			continue
		}
		if err := r.env.FS.Mkdir(abs, 0o755); err != nil {
			r.fail(err, "cannot make directory %s", fileutil.Quote(cur))
			return false
		}
	}
	return true
}

func (r *cpRun) fail(err error, format string, a ...any) {
	filesErrorf(r.env, r.name, err, format, a...)
	r.status = 1
}

func (r *cpRun) failf(format string, a ...any) {
	r.env.Errorf(r.name, format, a...)
	r.status = 1
}

// copyTop copies one command-line source.
func (r *cpRun) copyTop(src, dst string) {
	follow := r.o.deref == 'L' || r.o.deref == 'H'
	sabs := r.env.Abs(src)
	fi, err := r.statSrc(sabs, follow)
	if err != nil {
		r.fail(filesStatErr(r.env.FS, sabs, err), "cannot stat %s", fileutil.Quote(src))
		return
	}
	if strings.HasSuffix(src, "/") && !fi.IsDir() && !(filesIsLink(fi) && filesIsDir(r.env, src)) {
		r.fail(syscall.ENOTDIR, "cannot stat %s", fileutil.Quote(src))
		return
	}
	dabs := r.env.Abs(dst)
	if fi.IsDir() && r.o.recursive && !r.o.symLink && !r.o.hardLink {
		if filesInside(r.env.FS, sabs, dabs) {
			r.failf("cannot copy a directory, %s, into itself, %s", fileutil.Quote(src), fileutil.Quote(dst))
			return
		}
	}
	r.copy(src, sabs, dst, dabs, fi)
}

func (r *cpRun) statSrc(abs string, follow bool) (fs.FileInfo, error) {
	if follow {
		return r.env.FS.Stat(abs)
	}
	return vfs.Lstat(r.env.FS, abs)
}

// filesInside reports whether dst is src itself or lies below it, after
// resolving symlinks in both.
func filesInside(fsys vfs.FS, src, dst string) bool {
	cs, err := filesResolve(fsys, src, filesResolveExisting)
	if err != nil {
		cs = src
	}
	cd, err := filesResolve(fsys, dst, filesResolveMissing)
	if err != nil {
		cd = dst
	}
	return cd == cs || strings.HasPrefix(cd, strings.TrimSuffix(cs, "/")+"/")
}

// copy copies src (already stat'ed as fi) to dst.
func (r *cpRun) copy(src, sabs, dst, dabs string, fi fs.FileInfo) {
	if r.ctx.Err() != nil {
		return
	}
	dfi, derr := vfs.Lstat(r.env.FS, dabs)
	exists := derr == nil
	if exists && filesIsLink(dfi) && !filesIsLink(fi) && !fi.IsDir() && !r.o.removeDest {
		// Writing through an existing symlink reaches its target.
		if tfi, err := r.env.FS.Stat(dabs); err == nil {
			dfi = tfi
		}
	}
	if exists && !r.o.symLink && filesSameFile(r.env.FS, sabs, dabs) {
		r.failf("%s and %s are the same file", fileutil.Quote(src), fileutil.Quote(dst))
		return
	}
	switch {
	case fi.IsDir() && !r.o.symLink:
		r.copyDir(src, sabs, dst, dabs, fi, dfi, exists)
		return
	case exists && dfi.IsDir():
		r.failf("cannot overwrite directory %s with non-directory", fileutil.Quote(dst))
		return
	}
	if exists {
		if r.o.noClobber {
			return
		}
		if r.o.update && !fi.ModTime().After(dfi.ModTime()) {
			return
		}
	}
	if !r.copyNonDir(src, sabs, dst, dabs, fi, exists) {
		return
	}
	if r.o.verbose {
		fmt.Fprintf(r.env.Stdout, "%s -> %s\n", fileutil.Quote(src), fileutil.Quote(dst))
	}
}

func (r *cpRun) copyDir(src, sabs, dst, dabs string, fi, dfi fs.FileInfo, exists bool) {
	if !r.o.recursive {
		r.failf("-r not specified; omitting directory %s", fileutil.Quote(src))
		return
	}
	if exists && !dfi.IsDir() {
		r.failf("cannot overwrite non-directory %s with directory %s", fileutil.Quote(dst), fileutil.Quote(src))
		return
	}
	if !r.guard.enter(sabs) {
		r.failf("cannot copy cyclic symbolic link %s", fileutil.Quote(src))
		return
	}
	defer r.guard.leave()
	if !exists {
		if err := filesParentOK(r.env.FS, dabs); err != nil {
			r.fail(err, "cannot create directory %s", fileutil.Quote(dst))
			return
		}
		// Keep the new directory writable while filling it; its final
		// mode is set afterwards.
		if err := r.env.FS.Mkdir(dabs, fi.Mode().Perm()|0o700); err != nil {
			r.fail(err, "cannot create directory %s", fileutil.Quote(dst))
			return
		}
		if r.o.verbose {
			fmt.Fprintf(r.env.Stdout, "%s -> %s\n", fileutil.Quote(src), fileutil.Quote(dst))
		}
	}
	names, err := filesDirNames(r.env.FS, sabs)
	if err != nil {
		r.fail(err, "cannot access %s", fileutil.Quote(src))
	}
	for _, n := range names {
		if r.ctx.Err() != nil {
			return
		}
		cs, cabs := filesJoin(src, n), path.Join(sabs, n)
		cfi, err := r.statSrc(cabs, r.o.deref == 'L')
		if err != nil {
			r.fail(err, "cannot stat %s", fileutil.Quote(cs))
			continue
		}
		r.copy(cs, cabs, filesJoin(dst, n), path.Join(dabs, n), cfi)
	}
	mode := fi.Mode().Perm() &^ filesUmask(r.env.FS)
	if r.o.preserveMode {
		mode = fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	} else if exists {
		return
	}
	r.env.FS.Chmod(dabs, mode)
	r.preserveMeta(dabs, fi)
}

// copyNonDir copies a file, symlink or special file; it reports success.
func (r *cpRun) copyNonDir(src, sabs, dst, dabs string, fi fs.FileInfo, exists bool) bool {
	fsys := r.env.FS
	if strings.HasSuffix(dst, "/") && !exists {
		r.fail(syscall.ENOTDIR, "cannot create regular file %s", fileutil.Quote(dst))
		return false
	}
	if r.o.removeDest && exists {
		if err := fsys.Remove(dabs); err != nil {
			r.fail(err, "cannot remove %s", fileutil.Quote(dst))
			return false
		}
		exists = false
	}
	switch {
	case r.o.symLink:
		if !strings.HasPrefix(src, "/") && strings.Contains(dst, "/") && path.Dir(dabs) != r.env.Dir {
			r.failf("%s: can make relative symbolic links only in current directory", fileutil.QuoteIf(dst))
			return false
		}
		return r.replaceWith(dst, dabs, exists, "cannot create symbolic link %s", func() error {
			return fsys.SymlinkIfPossible(src, dabs)
		})
	case r.o.hardLink:
		return r.replaceWith(dst, dabs, exists, "cannot create hard link %s", func() error {
			return filesHardLink(fsys, sabs, dabs)
		})
	case filesIsLink(fi):
		target, err := fsys.ReadlinkIfPossible(sabs)
		if err != nil {
			r.fail(err, "cannot read symbolic link %s", fileutil.Quote(src))
			return false
		}
		return r.replaceWith(dst, dabs, exists, "cannot create symbolic link %s", func() error {
			return fsys.SymlinkIfPossible(target, dabs)
		})
	}
	if r.o.preserveLinks {
		if m := vfs.MetaOf(fi); m.Ino != 0 && m.Nlink > 1 {
			if first, ok := r.links[m.Ino]; ok {
				return r.replaceWith(dst, dabs, exists, "cannot create hard link %s", func() error {
					return filesHardLink(fsys, first, dabs)
				})
			}
			r.links[m.Ino] = dabs
		}
	}
	if err := r.copyData(sabs, dabs, fi, exists); err != nil {
		var werr filesWriteErr
		if errors.As(err, &werr) || errors.Is(err, syscall.ENOSPC) {
			r.fail(err, "error writing %s", fileutil.Quote(dst))
		} else if errors.Is(err, errCpOpenSrc) {
			r.fail(errors.Unwrap(err), "cannot open %s for reading", fileutil.Quote(src))
		} else {
			r.fail(err, "cannot create regular file %s", fileutil.Quote(dst))
		}
		return false
	}
	r.preserveMeta(dabs, fi)
	return true
}

var errCpOpenSrc = errors.New("open source")

type cpSrcErr struct{ err error }

func (e cpSrcErr) Error() string        { return e.err.Error() }
func (e cpSrcErr) Unwrap() error        { return e.err }
func (e cpSrcErr) Is(target error) bool { return target == errCpOpenSrc }

// replaceWith makes a link at dst with mk, first removing an existing
// non-directory when -f, -a style copying of links, or -l/-s allow it.
func (r *cpRun) replaceWith(dst, dabs string, exists bool, what string, mk func() error) bool {
	if exists {
		if err := r.env.FS.Remove(dabs); err != nil {
			r.fail(err, what, fileutil.Quote(dst))
			return false
		}
	} else if err := filesParentOK(r.env.FS, dabs); err != nil {
		r.fail(err, what, fileutil.Quote(dst))
		return false
	}
	if err := mk(); err != nil {
		r.fail(filesLinkErr(err), what, fileutil.Quote(dst))
		return false
	}
	return true
}

// filesLinkErr turns afero's "no symlinks" into the errno a kernel gives.
func filesLinkErr(err error) error {
	if filesNoSymlinks(err) {
		return syscall.ENOTSUP
	}
	return err
}

// filesHardLink links newname to oldname when the filesystem can.
func filesHardLink(fsys vfs.FS, oldname, newname string) error {
	hl, ok := fsys.(vfs.HardLinker)
	if !ok {
		return syscall.ENOTSUP
	}
	return hl.LinkIfPossible(oldname, newname)
}

// copyData copies a regular file's bytes; a new file gets the source's
// mode less the umask, an existing one keeps its mode.
func (r *cpRun) copyData(sabs, dabs string, fi fs.FileInfo, exists bool) error {
	in, err := r.env.FS.Open(sabs)
	if err != nil {
		return cpSrcErr{err}
	}
	defer in.Close()
	out, err := filesCreate(r.env.FS, dabs, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, fi.Mode().Perm())
	if err != nil && exists && r.o.force {
		r.env.FS.Remove(dabs)
		out, err = filesCreate(r.env.FS, dabs, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, fi.Mode().Perm())
	}
	if err != nil {
		return err
	}
	_, cerr := filesCopyData(filesCtxWriter{r.ctx, out}, in, r.buf)
	if err := out.Close(); err != nil && cerr == nil {
		cerr = filesWriteErr{err}
	}
	return cerr
}

// preserveMeta applies -p's mode, ownership and timestamps.
func (r *cpRun) preserveMeta(dabs string, fi fs.FileInfo) {
	fsys := r.env.FS
	if r.o.preserveOwner {
		m := vfs.MetaOf(fi)
		fsys.Chown(dabs, m.UID, m.GID)
	}
	if r.o.preserveMode && !fi.IsDir() {
		fsys.Chmod(dabs, fi.Mode()&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky))
	}
	if r.o.preserveTime {
		fsys.Chtimes(dabs, vfs.MetaOf(fi).Atime, fi.ModTime())
	}
}
