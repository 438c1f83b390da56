package find

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
	"github.com/sandsh/sandsh/builtins/internal/gdate"
	"github.com/sandsh/sandsh/vfs"
)

func metaOf(fi fs.FileInfo) vfs.Meta { return vfs.MetaOf(fi) }

// baseName is the name -name matches: the last element, ignoring
// trailing slashes ("/" stays "/").
func baseName(p string) string {
	t := strings.TrimRight(p, "/")
	if t == "" {
		if p == "" {
			return ""
		}
		return "/"
	}
	return path.Base(t)
}

func namePred(opt, pat string) expr {
	fold := strings.HasPrefix(opt, "-i")
	switch opt {
	case "-name", "-iname":
		return predFunc(func(f *finder, v *visit) bool { return fileutil.Match(pat, baseName(v.path), fold) })
	case "-lname", "-ilname":
		return predFunc(func(f *finder, v *visit) bool {
			fi, err := vfs.Lstat(f.env.FS, v.abs)
			if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
				return false
			}
			t, err := f.env.FS.ReadlinkIfPossible(v.abs)
			return err == nil && fileutil.Match(pat, t, fold)
		})
	}
	return predFunc(func(f *finder, v *visit) bool { return fileutil.Match(pat, v.path, fold) })
}

// typeLetter is the -type letter of a mode.
func typeLetter(m fs.FileMode) byte {
	switch {
	case m.IsDir():
		return 'd'
	case m&fs.ModeSymlink != 0:
		return 'l'
	case m&fs.ModeNamedPipe != 0:
		return 'p'
	case m&fs.ModeSocket != 0:
		return 's'
	case m&fs.ModeCharDevice != 0:
		return 'c'
	case m&fs.ModeDevice != 0:
		return 'b'
	case m&fs.ModeIrregular != 0:
		return 'U'
	}
	return 'f'
}

func typePred(opt, a string) (expr, error) {
	var want []byte
	for _, t := range strings.Split(a, ",") {
		if len(t) != 1 || !strings.Contains("bcdpflsD", t) {
			if len(t) > 1 && !strings.Contains(a, ",") {
				return nil, fmt.Errorf("Must separate multiple arguments to %s using: ','", opt)
			}
			return nil, fmt.Errorf("Unknown argument to %s: %s", opt, t)
		}
		want = append(want, t[0])
	}
	has := func(c byte) bool {
		for _, w := range want {
			if w == c {
				return true
			}
		}
		return false
	}
	if opt == "-type" {
		return predFunc(func(f *finder, v *visit) bool { return has(typeLetter(v.fi.Mode())) }), nil
	}
	// -xtype looks at the other side of a symlink from -type.
	return predFunc(func(f *finder, v *visit) bool {
		if v.fi.Mode()&fs.ModeSymlink == 0 && f.follow == 'P' {
			return has(typeLetter(v.fi.Mode()))
		}
		var fi fs.FileInfo
		var err error
		if f.follow == 'L' {
			fi, err = vfs.Lstat(f.env.FS, v.abs)
		} else {
			fi, err = f.env.FS.Stat(v.abs)
		}
		if err != nil {
			return has('l')
		}
		return has(typeLetter(fi.Mode()))
	}), nil
}

// sizePred is -size [+-]N[cwbkMG], comparing sizes rounded up to the unit.
func sizePred(a string) (expr, error) {
	s := a
	unit := int64(512)
	if s != "" {
		switch s[len(s)-1] {
		case 'c':
			unit = 1
		case 'w':
			unit = 2
		case 'b':
			unit = 512
		case 'k':
			unit = 1024
		case 'M':
			unit = 1 << 20
		case 'G':
			unit = 1 << 30
		}
		if s[len(s)-1] < '0' || s[len(s)-1] > '9' {
			s = s[:len(s)-1]
		}
	}
	c, err := parseNum("-size", s)
	if err != nil {
		return nil, fmt.Errorf("invalid -size type `%s'", a)
	}
	return predFunc(func(f *finder, v *visit) bool {
		sz := fileutil.Size(v.fi)
		return c.match((sz + unit - 1) / unit)
	}), nil
}

func emptyTest(f *finder, v *visit) bool {
	switch {
	case v.fi.IsDir():
		d, err := f.env.FS.Open(v.abs)
		if err != nil {
			return false
		}
		defer d.Close()
		names, _ := d.Readdirnames(1)
		return len(names) == 0
	case v.fi.Mode().IsRegular():
		return v.fi.Size() == 0
	}
	return false
}

// fileTime returns the a, c or m time of fi.
func fileTime(fi fs.FileInfo, which byte) time.Time {
	m := metaOf(fi)
	switch which {
	case 'a':
		return m.Atime
	case 'c':
		return m.Ctime
	}
	return fi.ModTime()
}

func (p *parser) timePred(opt, a string) (expr, error) {
	c, err := parseNum(opt, a)
	if err != nil {
		return nil, err
	}
	which := opt[1]
	unit := 24 * time.Hour
	if strings.HasSuffix(opt, "min") {
		unit = time.Minute
	}
	origin := p.f.env.Now
	if p.daystart {
		n := origin.In(p.f.env.Loc)
		origin = time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, n.Location()).Add(24 * time.Hour)
	}
	return predFunc(func(f *finder, v *visit) bool {
		d := origin.Sub(fileTime(v.fi, which))
		n := int64(d / unit)
		if d < 0 && d%unit != 0 {
			n--
		}
		return c.match(n)
	}), nil
}

// newerPred is -newer/-anewer/-cnewer and -newerXY: a time of the file
// (which) against a reference file's time (refWhich) or a date ('t').
func (p *parser) newerPred(opt string, which, refWhich byte, a string) (expr, error) {
	f := p.f
	var ref time.Time
	if refWhich == 't' {
		t, err := gdate.Parse(a, f.env.Now, f.env.Loc)
		if err != nil {
			return nil, fmt.Errorf("I cannot figure out how to interpret %s as a date or time", fileutil.Quote(a))
		}
		ref = t
	} else {
		fi, err := f.stat(f.abs(a), true)
		if err != nil {
			return nil, fmt.Errorf("%s: %s", fileutil.Quote(a), errText(err))
		}
		ref = fileTime(fi, refWhich)
	}
	return predFunc(func(f *finder, v *visit) bool { return fileTime(v.fi, which).After(ref) }), nil
}

// permPred is -perm MODE (exact), -perm -MODE (all bits) and -perm /MODE
// (any bit).
func permPred(a string) (expr, error) {
	kind := byte('=')
	s := a
	if s != "" && (s[0] == '-' || s[0] == '/' || s[0] == '+' && len(s) > 1 && s[1] >= '0' && s[1] <= '7') {
		kind, s = s[0], s[1:]
	}
	m, err := fileutil.ParseMode(s)
	if err != nil {
		return nil, fmt.Errorf("invalid mode %s", fileutil.Quote(a))
	}
	want := m.Apply(0, false, 0)
	return predFunc(func(f *finder, v *visit) bool {
		mode := fileutil.UnixMode(v.fi.Mode())
		switch kind {
		case '-':
			return mode&want == want
		case '/', '+':
			return want == 0 || mode&want != 0
		}
		return mode == want
	}), nil
}

func (p *parser) ownerPred(opt, a string) (expr, error) {
	env := p.f.env
	var id int
	var ok bool
	if opt == "-user" {
		id, ok = env.LookupUser(a)
		if !ok {
			return nil, fmt.Errorf("%s is not the name of a known user", fileutil.Quote(a))
		}
	} else {
		id, ok = env.LookupGroup(a)
		if !ok {
			return nil, fmt.Errorf("%s is not the name of an existing group", fileutil.Quote(a))
		}
	}
	return predFunc(func(f *finder, v *visit) bool {
		m := metaOf(v.fi)
		if opt == "-user" {
			return m.UID == id
		}
		return m.GID == id
	}), nil
}

func numPred(opt, a string) (expr, error) {
	c, err := parseNum(opt, a)
	if err != nil {
		return nil, err
	}
	return predFunc(func(f *finder, v *visit) bool {
		m := metaOf(v.fi)
		switch opt {
		case "-uid":
			return c.match(int64(m.UID))
		case "-gid":
			return c.match(int64(m.GID))
		case "-links":
			return c.match(int64(f.env.Nlink(v.abs, v.fi)))
		}
		return c.match(int64(m.Ino))
	}), nil
}

// accessOK approximates access(2) for the sandbox user from the mode.
func accessOK(f *finder, v *visit, bit uint32) bool {
	m := metaOf(v.fi)
	mode := uint32(v.fi.Mode().Perm())
	switch {
	case f.env.UID == 0:
		return bit != 1 || mode&0o111 != 0 || v.fi.IsDir()
	case m.UID == f.env.UID:
		return mode>>6&bit != 0
	case m.GID == f.env.GID:
		return mode>>3&bit != 0
	}
	return mode&bit != 0
}

// outFile is the destination of -fprint, -fls and -fprintf.
type outFile struct {
	f io.Closer
	w *bufio.Writer
}

func bufioWriter(w io.Writer) *bufio.Writer { return bufio.NewWriterSize(w, 32<<10) }

func (f *finder) writer(o *outFile) *bufio.Writer {
	if o != nil {
		return o.w
	}
	return f.out
}

type printPred struct {
	w    *outFile
	sep  byte
	zero bool
}

func (p *printPred) eval(f *finder, v *visit) bool {
	w := f.writer(p.w)
	w.WriteString(v.path)
	if p.zero {
		w.WriteByte(0)
	} else {
		w.WriteByte('\n')
	}
	f.checkWrite(w)
	return true
}

// checkWrite stops the walk once standard output is gone (a closed
// pipe), so "find / | head -1" ends at once.
func (f *finder) checkWrite(w *bufio.Writer) {
	if w != f.out {
		return
	}
	if _, err := w.Write(nil); err != nil {
		f.quit = true
	}
}

// lsPred is -ls: "inode blocks mode links user group size date name".
type lsPred struct{ w *outFile }

func (p *lsPred) eval(f *finder, v *visit) bool {
	w := f.writer(p.w)
	m := metaOf(v.fi)
	fmt.Fprintf(w, "%9d %6d %s %3d %-8s %-8s %8d %s %s", m.Ino, (fileutil.Blocks(v.fi)+1)/2,
		fileutil.ModeString(v.fi.Mode()), f.env.Nlink(v.abs, v.fi), f.env.UserName(m.UID),
		f.env.GroupName(m.GID), fileutil.Size(v.fi), lsTime(f, v.fi.ModTime()), v.path)
	if v.fi.Mode()&fs.ModeSymlink != 0 {
		if t, err := f.env.FS.ReadlinkIfPossible(v.abs); err == nil {
			w.WriteString(" -> " + t)
		}
	}
	w.WriteByte('\n')
	f.checkWrite(w)
	return true
}

// lsTime formats a time like ls -l: the year replaces the clock for
// times more than six months old or in the future.
func lsTime(f *finder, t time.Time) string {
	t = t.In(f.env.Loc)
	const halfYear = 31556952 / 2 * time.Second
	if t.After(f.env.Now.Add(-halfYear)) && !t.After(f.env.Now) {
		return t.Format("Jan _2 15:04")
	}
	return t.Format("Jan _2  2006")
}

func deleteAction(f *finder, v *visit) bool {
	if v.depth == 0 && (v.path == "." || v.path == "./") {
		// GNU find silently refuses to remove the starting directory ".".
		return true
	}
	var err error
	if v.fi.IsDir() {
		// Check emptiness here: not every filesystem refuses to remove a
		// non-empty directory.
		if d, oerr := f.env.FS.Open(v.abs); oerr == nil {
			names, _ := d.Readdirnames(1)
			d.Close()
			if len(names) > 0 {
				err = errNotEmpty
			}
		}
	}
	if err == nil {
		err = f.env.FS.Remove(v.abs)
	}
	if err != nil {
		f.errorf("cannot delete %s: %s", fileutil.Quote(v.path), errText(err))
		f.status = 1
		return false
	}
	return true
}
