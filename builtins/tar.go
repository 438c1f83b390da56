package builtins

import (
	"archive/tar"
	"bufio"
	"compress/bzip2"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sandsh/sandsh/vfs"
)

const dataTarUsage = `Usage: tar [OPTION...] [FILE]...
Create, extract or list tar archives.

  -c, --create               create a new archive
  -x, --extract, --get       extract files from an archive
  -t, --list                 list the contents of an archive
  -f, --file=ARCHIVE         use archive file ARCHIVE ('-' is stdin/stdout)
  -z, --gzip                 filter the archive through gzip
  -j, --bzip2                read bzip2-compressed archives
  -C, --directory=DIR        change to directory DIR
  -v, --verbose              verbosely list files processed
  -p, --preserve-permissions extract information about file permissions
  -O, --to-stdout            extract files to standard output
  -k, --keep-old-files       don't replace existing files when extracting
      --strip-components=NUMBER   strip NUMBER leading components from file
                             names on extraction
      --exclude=PATTERN      exclude files matching PATTERN
      --sort=ORDER           accepted; members are always sorted by name
`

// dataTar is one tar invocation.
type dataTar struct {
	ctx                  context.Context
	env                  *Env
	mode                 byte // c x t
	file                 string
	gzip, bzip2, verbose bool
	preserve, toStdout   bool
	keepOld              bool
	strip                int
	excludes             []string
	status               int
	out                  *bufio.Writer
	info                 io.Writer // where -v goes
	warnedSlash          map[string]bool
	fatal                bool // an unrecoverable error was already reported
	ugswidth             int  // width of "owner/group size" in -tv listings
}

// dataTarOldStyle turns "czf a.tgz dir" (tar's arguments) into "-c -z
// -f a.tgz dir".
func dataTarOldStyle(args []string) []string {
	if len(args) < 1 || strings.HasPrefix(args[0], "-") {
		return args
	}
	var out []string
	rest := args[1:]
	for _, c := range args[0] {
		if strings.ContainsRune("fCT", c) && len(rest) > 0 {
			out = append(out, "-"+string(c), rest[0])
			rest = rest[1:]
			continue
		}
		out = append(out, "-"+string(c))
	}
	return append(out, rest...)
}

var tarGetopt = Getopt{Short: "cxtf:zjC:vpOkaoT:", Long: []string{"create", "extract", "get", "list", "file=", "gzip", "gunzip",
	"bzip2", "directory=", "verbose", "preserve-permissions", "same-permissions", "to-stdout", "keep-old-files",
	"strip-components=", "exclude=", "sort=", "no-same-owner", "same-owner", "overwrite", "auto-compress",
	"numeric-owner", "owner=", "group=", "mode=", "mtime=", "files-from="},
	LongAlias: map[string]string{"create": "c", "extract": "x", "get": "x", "list": "t", "file": "f", "gzip": "z",
		"gunzip": "z", "bzip2": "j", "directory": "C", "verbose": "v", "preserve-permissions": "p",
		"same-permissions": "p", "to-stdout": "O", "keep-old-files": "k", "auto-compress": "a", "files-from": "T"},
	Prepare: dataTarOldStyle}

func runTar(ctx context.Context, env *Env, args []string) int {
	g := tarGetopt
	opts, ops, err := g.Parse(args[1:])
	if err != nil {
		fmt.Fprintf(env.Stderr, "tar: %v\nTry 'tar --help' or 'tar --usage' for more information.\n", err)
		return 2
	}
	t := &dataTar{ctx: ctx, env: env, warnedSlash: map[string]bool{}, ugswidth: 19}
	sub := env
	for _, o := range opts {
		switch o.Name {
		case "c", "x", "t":
			if t.mode != 0 && t.mode != o.Name[0] {
				fmt.Fprintf(env.Stderr, "tar: You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option\nTry 'tar --help' or 'tar --usage' for more information.\n")
				return 2
			}
			t.mode = o.Name[0]
		case "f":
			t.file = o.Value
		case "z":
			t.gzip = true
		case "j":
			t.bzip2 = true
		case "v":
			t.verbose = true
		case "p":
			t.preserve = true
		case "O":
			t.toStdout = true
		case "k":
			t.keepOld = true
		case "C":
			// -C applies to what follows; a leading -C is the common case.
			sub = sub.Sub()
			sub.Dir = env.Abs(o.Value)
			if fi, err := env.FS.Stat(sub.Dir); err != nil || !fi.IsDir() {
				if err == nil {
					err = &os.PathError{Op: "chdir", Path: o.Value, Err: errDataNotDir}
				}
				fmt.Fprintf(env.Stderr, "tar: %s: Cannot open: %s\ntar: Error is not recoverable: exiting now\n", o.Value, ErrText(err))
				return 2
			}
		case "strip-components":
			n, err := strconv.Atoi(o.Value)
			if err != nil || n < 0 {
				fmt.Fprintf(env.Stderr, "tar: Invalid number of elements: '%s'\n", o.Value)
				return 2
			}
			t.strip = n
		case "exclude":
			t.excludes = append(t.excludes, o.Value)
		case "T":
			b, err := dataTarReadList(env, o.Value)
			if err != nil {
				fmt.Fprintf(env.Stderr, "tar: %s: Cannot open: %s\n", o.Value, ErrText(err))
				return 2
			}
			ops = append(ops, b...)
		}
	}
	if t.mode == 0 {
		fmt.Fprintf(env.Stderr, "tar: You must specify one of the '-Acdtrux', '--delete' or '--test-label' options\nTry 'tar --help' or 'tar --usage' for more information.\n")
		return 2
	}
	if t.file == "" {
		t.file = "-"
	}
	if t.mode == 'c' && strings.HasSuffix(t.file, "gz") && !t.gzip {
		for _, o := range opts {
			if o.Name == "a" {
				t.gzip = true
			}
		}
	}
	t.out = dataWriter(env)
	defer t.out.Flush()
	t.info = t.out
	if t.file == "-" && t.mode == 'c' {
		t.info = env.Stderr
	}
	t.env = env
	var st int
	switch t.mode {
	case 'c':
		if len(ops) == 0 {
			fmt.Fprintf(env.Stderr, "tar: Cowardly refusing to create an empty archive\nTry 'tar --help' or 'tar --usage' for more information.\n")
			return 2
		}
		st = t.create(sub, ops)
	default:
		st = t.read(sub, ops)
	}
	if t.status == StatusBrokenPipe {
		return StatusBrokenPipe
	}
	if err := t.out.Flush(); err != nil {
		return env.WriteError("tar", err)
	}
	if st == 0 {
		st = t.status
	}
	if st == 2 && t.status == 2 && !t.fatal {
		fmt.Fprintln(env.Stderr, "tar: Exiting with failure status due to previous errors")
	}
	return st
}

func dataTarReadList(env *Env, name string) ([]string, error) {
	r, err := dataOpen(env, name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out, nil
}

func (t *dataTar) errorf(format string, a ...any) {
	if _, err := t.out.Write(nil); IsBrokenPipe(err) {
		t.status, t.fatal = StatusBrokenPipe, true
		return
	}
	t.out.Flush()
	fmt.Fprintf(t.env.Stderr, "tar: "+format+"\n", a...)
	t.status = 2
}

func (t *dataTar) fatalf() {
	fmt.Fprintln(t.env.Stderr, "tar: Error is not recoverable: exiting now")
	t.fatal = true
}

func (t *dataTar) excluded(name string) bool {
	base := path.Base(name)
	for _, p := range t.excludes {
		if ok, _ := path.Match(p, base); ok {
			return true
		}
		if ok, _ := path.Match(p, strings.TrimSuffix(name, "/")); ok {
			return true
		}
	}
	return false
}

// create writes an archive of ops (paths relative to sub's directory).
func (t *dataTar) create(sub *Env, ops []string) int {
	var w io.Writer
	if t.file == "-" {
		w = t.out
	} else {
		f, err := t.env.FS.OpenFile(t.env.Abs(t.file), dataCreateFlags, 0o644)
		if err != nil {
			t.errorf("%s: Cannot open: %s", t.file, ErrText(err))
			t.fatalf()
			return 2
		}
		defer f.Close()
		bw := bufio.NewWriterSize(f, dataBufSize)
		defer bw.Flush()
		w = bw
	}
	var zw *gzip.Writer
	if t.gzip {
		zw = gzip.NewWriter(w)
		w = zw
	}
	tw := tar.NewWriter(w)
	archivePath := t.env.Abs(t.file)
	for _, op := range ops {
		if t.ctx.Err() != nil {
			return 130
		}
		name := op
		if strings.HasPrefix(name, "/") {
			t.warnOnce("Removing leading `/' from member names")
		}
		t.addPath(sub, tw, op, archivePath)
	}
	if err := tw.Close(); err != nil {
		t.errorf("%s", err)
	}
	if zw != nil {
		zw.Close()
	}
	return 0
}

func (t *dataTar) warnOnce(msg string) {
	if !t.warnedSlash[msg] {
		t.warnedSlash[msg] = true
		t.out.Flush()
		fmt.Fprintf(t.env.Stderr, "tar: %s\n", msg)
	}
}

// memberName is how a path is stored: leading slashes and "./" stripped.
func dataTarMemberName(p string) string {
	p = strings.TrimLeft(p, "/")
	for strings.HasPrefix(p, "./") {
		p = strings.TrimLeft(p[2:], "/")
	}
	return p
}

func (t *dataTar) addPath(sub *Env, tw *tar.Writer, p, archivePath string) {
	abs := sub.Abs(p)
	fi, err := vfs.Lstat(sub.FS, abs)
	if err != nil {
		t.errorf("%s: Cannot stat: %s", p, ErrText(err))
		return
	}
	name := dataTarMemberName(p)
	if t.excluded(name) {
		return
	}
	if abs == archivePath {
		t.out.Flush()
		fmt.Fprintf(t.env.Stderr, "tar: %s: file is the archive; not dumped\n", p)
		return
	}
	link := ""
	if fi.Mode()&fs.ModeSymlink != 0 {
		link, _ = sub.FS.ReadlinkIfPossible(abs)
	}
	hdr, err := tar.FileInfoHeader(fi, link)
	if err != nil {
		t.errorf("%s: %s", p, err)
		return
	}
	hdr.Uname, hdr.Gname = "", ""
	m := vfs.MetaOf(fi)
	hdr.Uid, hdr.Gid = m.UID, m.GID
	if u := t.env.System(); m.UID == u.UID {
		hdr.Uname = u.User
	}
	if m.GID == t.env.System().GID {
		hdr.Gname = t.env.System().User
	}
	hdr.Format = tar.FormatGNU
	hdr.ModTime = fi.ModTime().Truncate(time.Second)
	hdr.AccessTime, hdr.ChangeTime = time.Time{}, time.Time{}
	hdr.Name = name
	if fi.IsDir() {
		hdr.Name = strings.TrimSuffix(name, "/") + "/"
		if name == "" {
			hdr.Name = "./"
		}
	}
	if name != "" {
		if err := tw.WriteHeader(hdr); err != nil {
			t.errorf("%s: %s", p, err)
			return
		}
		if t.verbose {
			fmt.Fprintln(t.info, hdr.Name)
		}
	}
	switch {
	case fi.Mode().IsRegular():
		f, err := sub.FS.Open(abs)
		if err != nil {
			t.errorf("%s: Cannot open: %s", p, ErrText(err))
			return
		}
		_, err = io.Copy(tw, dataCtxReader{t.ctx, f})
		f.Close()
		if err != nil {
			t.errorf("%s: Read error: %s", p, ErrText(err))
		}
	case fi.IsDir():
		names, err := dataDirNames(sub, p)
		if err != nil {
			t.errorf("%s: Cannot open: %s", p, ErrText(err))
			return
		}
		sort.Strings(names)
		for _, n := range names {
			t.addPath(sub, tw, strings.TrimSuffix(p, "/")+"/"+n, archivePath)
		}
	}
}

// open returns the archive reader, unwrapping gzip or bzip2 when asked
// or when the data starts with their magic bytes.
func (t *dataTar) open() (io.Reader, func(), error) {
	var r io.Reader = t.env.Stdin
	closeFn := func() {}
	if t.file != "-" {
		f, err := t.env.Open(t.file)
		if err != nil {
			return nil, nil, err
		}
		r, closeFn = f, func() { f.Close() }
	}
	br := bufio.NewReaderSize(dataCtxReader{t.ctx, r}, dataBufSize)
	magic, _ := br.Peek(3)
	switch {
	case t.gzip || len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		zr, err := gzip.NewReader(br)
		if err != nil {
			closeFn()
			return nil, nil, errors.New("This does not look like a tar archive")
		}
		return zr, closeFn, nil
	case t.bzip2 || len(magic) == 3 && string(magic) == "BZh":
		return bzip2.NewReader(br), closeFn, nil
	}
	return br, closeFn, nil
}

// read lists or extracts the archive; ops select members.
func (t *dataTar) read(sub *Env, ops []string) int {
	r, closeFn, err := t.open()
	if err != nil {
		if _, ok := err.(*fs.PathError); ok {
			t.errorf("%s: Cannot open: %s", t.file, ErrText(err))
		} else {
			t.errorf("%s", err)
		}
		t.fatalf()
		return 2
	}
	defer closeFn()
	found := make([]bool, len(ops))
	tr := tar.NewReader(r)
	type dirTime struct {
		path string
		mt   time.Time
	}
	var dirs []dirTime
	count := 0
	for {
		if t.ctx.Err() != nil {
			return 130
		}
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if count == 0 {
				t.errorf("This does not look like a tar archive")
			} else {
				t.errorf("Unexpected EOF in archive")
			}
			t.fatalf()
			return 2
		}
		count++
		if !t.selected(hdr.Name, ops, found) || t.excluded(hdr.Name) {
			continue
		}
		if t.mode == 't' {
			t.listEntry(hdr)
			continue
		}
		if d := t.extract(sub, tr, hdr); d != "" {
			dirs = append(dirs, dirTime{d, hdr.ModTime})
		}
	}
	// Directory times are set last, after their contents were written.
	for i := len(dirs) - 1; i >= 0; i-- {
		sub.FS.Chtimes(dirs[i].path, dirs[i].mt, dirs[i].mt)
	}
	for i, op := range ops {
		if !found[i] {
			t.errorf("%s: Not found in archive", op)
		}
	}
	return 0
}

func (t *dataTar) selected(name string, ops []string, found []bool) bool {
	if len(ops) == 0 {
		return true
	}
	n := strings.TrimSuffix(dataTarMemberName(name), "/")
	for i, op := range ops {
		o := strings.TrimSuffix(dataTarMemberName(op), "/")
		if n == o || strings.HasPrefix(n, o+"/") {
			found[i] = true
			return true
		}
		if ok, _ := path.Match(o, n); ok && strings.ContainsAny(o, "*?[") {
			found[i] = true
			return true
		}
	}
	return false
}

func (t *dataTar) listEntry(hdr *tar.Header) {
	if !t.verbose {
		fmt.Fprintln(t.out, hdr.Name)
		return
	}
	owner := hdr.Uname
	if owner == "" {
		owner = strconv.Itoa(hdr.Uid)
	}
	group := hdr.Gname
	if group == "" {
		group = strconv.Itoa(hdr.Gid)
	}
	mode := fs.FileMode(hdr.Mode).Perm()
	typ := byte('-')
	switch hdr.Typeflag {
	case tar.TypeDir:
		typ = 'd'
	case tar.TypeSymlink:
		typ = 'l'
	case tar.TypeLink:
		typ = 'h'
	}
	ms := []byte(mode.String())
	ms[0] = typ
	if typ == 'h' {
		ms[0] = '-'
	}
	// GNU tar widens the owner/size column as it meets longer entries.
	size := strconv.FormatInt(hdr.Size, 10)
	pad := len(owner) + 1 + len(group) + 1 + len(size)
	if t.ugswidth < pad {
		t.ugswidth = pad
	}
	line := fmt.Sprintf("%s %s/%s %*s %s %s", ms, owner, group, t.ugswidth-pad+len(size), size,
		hdr.ModTime.UTC().Format("2006-01-02 15:04"), hdr.Name)
	switch hdr.Typeflag {
	case tar.TypeSymlink:
		line += " -> " + hdr.Linkname
	case tar.TypeLink:
		line += " link to " + hdr.Linkname
	}
	fmt.Fprintln(t.out, line)
}

// safeName applies GNU's extraction rules: strip leading "/" (with a
// warning), refuse names with ".." components, apply --strip-components.
func (t *dataTar) safeName(name string) (string, bool) {
	if strings.HasPrefix(name, "/") {
		t.warnOnce("Removing leading `/' from member names")
		name = strings.TrimLeft(name, "/")
	}
	for _, part := range strings.Split(name, "/") {
		if part == ".." {
			t.errorf("%s: Member name contains '..'", name)
			return "", false
		}
	}
	clean := path.Clean("/" + name)[1:]
	if t.strip > 0 {
		parts := strings.Split(clean, "/")
		if len(parts) <= t.strip {
			return "", false
		}
		clean = strings.Join(parts[t.strip:], "/")
	}
	return clean, clean != ""
}

// extract writes one member; it returns the path of a directory whose
// time must be set at the end.
func (t *dataTar) extract(sub *Env, tr *tar.Reader, hdr *tar.Header) string {
	name, ok := t.safeName(hdr.Name)
	if !ok {
		return ""
	}
	if t.verbose && !t.toStdout {
		fmt.Fprintln(t.out, hdr.Name)
	}
	if t.toStdout {
		if hdr.Typeflag == tar.TypeReg || hdr.Typeflag == tar.TypeRegA {
			t.out.Flush()
			io.Copy(t.out, tr)
		}
		return ""
	}
	fsys := sub.FS
	abs := sub.Abs(name)
	mode := fs.FileMode(hdr.Mode).Perm()
	if !t.preserve {
		mode &^= 0o022
	}
	fsys.MkdirAll(path.Dir(abs), 0o755)
	if t.keepOld {
		if _, err := vfs.Lstat(fsys, abs); err == nil {
			t.errorf("%s: Cannot open: File exists", name)
			return ""
		}
	}
	switch hdr.Typeflag {
	case tar.TypeDir:
		if err := fsys.MkdirAll(abs, 0o755); err != nil {
			t.errorf("%s: Cannot mkdir: %s", name, ErrText(err))
			return ""
		}
		fsys.Chmod(abs, mode)
		return abs
	case tar.TypeSymlink:
		fsys.Remove(abs)
		if err := fsys.SymlinkIfPossible(hdr.Linkname, abs); err != nil {
			t.errorf("%s: Cannot create symlink to '%s': %s", name, hdr.Linkname, ErrText(err))
		}
		return ""
	case tar.TypeLink:
		target, ok := t.safeName(hdr.Linkname)
		if !ok {
			return ""
		}
		fsys.Remove(abs)
		if hl, isHL := fsys.(vfs.HardLinker); isHL {
			if err := hl.LinkIfPossible(sub.Abs(target), abs); err == nil {
				return ""
			}
		}
		// No hard links on this filesystem: copy the data instead.
		if err := dataCopyFile(fsys, sub.Abs(target), abs); err != nil {
			t.errorf("%s: Cannot hard link to '%s': %s", name, hdr.Linkname, ErrText(err))
		}
		return ""
	case tar.TypeReg, tar.TypeRegA, tar.TypeGNUSparse:
		if fi, err := vfs.Lstat(fsys, abs); err == nil && (fi.Mode()&fs.ModeSymlink != 0 || fi.IsDir()) {
			fsys.Remove(abs)
		}
		f, err := fsys.OpenFile(abs, dataCreateFlags, mode)
		if err != nil {
			t.errorf("%s: Cannot open: %s", name, ErrText(err))
			return ""
		}
		_, err = io.Copy(f, tr)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.errorf("%s: Cannot write: %s", name, ErrText(err))
			return ""
		}
		fsys.Chmod(abs, mode)
		fsys.Chtimes(abs, hdr.ModTime, hdr.ModTime)
	default:
		t.errorf("%s: Unsupported file type, skipping", name)
	}
	return ""
}

func dataCopyFile(fsys vfs.FS, from, to string) error {
	in, err := fsys.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := fsys.OpenFile(to, dataCreateFlags, 0o644)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
