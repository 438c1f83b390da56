package builtins

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
	"github.com/sandsh/sandsh/vfs"
)

const statUsage = `Usage: stat [OPTION]... FILE...
Display file or file system status.

  -L, --dereference     follow links
  -f, --file-system     display file system status instead of file status
  -c  --format=FORMAT   use the specified FORMAT instead of the default;
                          output a newline after each use of FORMAT
      --printf=FORMAT   like --format, but interpret backslash escapes,
                          and do not output a mandatory trailing newline
  -t, --terse           print the information in terse form
      --help     display this help and exit

The valid format sequences for files (without --file-system):

  %a   permission bits in octal
  %A   permission bits and file type in human readable form
  %b   number of blocks allocated (see %B)
  %B   the size in bytes of each block reported by %b
  %d   device number in decimal
  %D   device number in hex
  %f   raw mode in hex
  %F   file type
  %g   group ID of owner
  %G   group name of owner
  %h   number of hard links
  %i   inode number
  %m   mount point
  %n   file name
  %N   quoted file name with dereference if symbolic link
  %o   optimal I/O transfer size hint
  %s   total size, in bytes
  %t   major device type in hex
  %T   minor device type in hex
  %u   user ID of owner
  %U   user name of owner
  %w   time of file birth, human-readable; - if unknown
  %W   time of file birth, seconds since Epoch; 0 if unknown
  %x   time of last access, human-readable
  %X   time of last access, seconds since Epoch
  %y   time of last data modification, human-readable
  %Y   time of last data modification, seconds since Epoch
  %z   time of last status change, human-readable
  %Z   time of last status change, seconds since Epoch
`

var statGetopt = Getopt{
	Short: "Lfc:t",
	Long:  []string{"dereference", "file-system", "format=", "printf=", "terse", "cached="},
	LongAlias: map[string]string{"dereference": "L", "file-system": "f", "format": "c",
		"terse": "t"},
}

// statDevice is the device number the sandbox filesystem reports.
const statDevice = 31

const (
	statDefaultFormat = "  File: %\x00\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n" +
		"Device: %Hd,%Ld\tInode: %-11i Links: %h\n" +
		"Access: (%04a/%A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n" +
		"Access: %x\nModify: %y\nChange: %z\n Birth: %w\n"
	statTerseFormat = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n"
	statFSFormat    = "  File: \"%n\"\n    ID: %-8i Namelen: %-7l Type: %T\n" +
		"Block size: %-10s Fundamental block size: %S\n" +
		"Blocks: Total: %-10b Free: %-10f Available: %a\n" +
		"Inodes: Total: %-10c Free: %d\n"
	statFSTerse = "%n %i %l %t %s %S %b %f %a %c %d\n"
)

type statRun struct {
	env   *Env
	out   *bufio.Writer
	loc   *time.Location
	deref bool
}

func runStat(ctx context.Context, env *Env, args []string) int {
	opts, operands, err := statGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("stat", err, 1)
	}
	r := &statRun{env: env, out: filesNewWriter(env.Stdout), loc: filesLocation(env)}
	format, escapes, terse, fsys := "", false, false, false
	custom := false
	for _, o := range opts {
		switch o.Name {
		case "L":
			r.deref = true
		case "f":
			fsys = true
		case "c":
			format, escapes, custom = o.Value+"\n", false, true
		case "printf":
			format, escapes, custom = o.Value, true, true
		case "t":
			terse = true
		}
	}
	if len(operands) == 0 {
		return env.UsageError("stat", errors.New("missing operand"), 1)
	}
	status := 0
	for _, name := range operands {
		if ctx.Err() != nil {
			return 130
		}
		if fsys {
			f := format
			if !custom {
				f = statFSFormat
				if terse {
					f = statFSTerse
				}
			}
			if !r.statFS(name, f, escapes) {
				status = 1
			}
			continue
		}
		fi, err := r.lookup(name)
		if err != nil {
			env.Errorf("stat", "cannot statx %s: %s", fileutil.Quote(name), ErrText(err))
			status = 1
			continue
		}
		f := format
		if !custom {
			f = statDefaultFormat
			if terse {
				f = statTerseFormat
			}
		}
		r.format(f, escapes, name, fi)
	}
	if err := r.out.Flush(); err != nil {
		return env.WriteError("stat", err)
	}
	return status
}

func (r *statRun) lookup(name string) (fs.FileInfo, error) {
	abs := r.env.Abs(name)
	var fi fs.FileInfo
	var err error
	if r.deref {
		fi, err = r.env.FS.Stat(abs)
	} else {
		fi, err = vfs.Lstat(r.env.FS, abs)
	}
	if err != nil {
		return nil, filesStatErr(r.env.FS, abs, err)
	}
	if err := filesSlashErr(r.env, name); err != nil {
		return nil, err
	}
	return fi, nil
}

// format expands a stat format for one file.
func (r *statRun) format(f string, escapes bool, name string, fi fs.FileInfo) {
	out := r.out
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c == '\\' && escapes {
			i += filesWriteEscape(out, f[i:]) - 1
			continue
		}
		if c != '%' {
			out.WriteByte(c)
			continue
		}
		j := i + 1
		for j < len(f) && strings.IndexByte("-+ #0'", f[j]) >= 0 {
			j++
		}
		for j < len(f) && (f[j] >= '0' && f[j] <= '9' || f[j] == '.') {
			j++
		}
		if j < len(f) && (f[j] == 'H' || f[j] == 'L') && j+1 < len(f) && (f[j+1] == 'd' || f[j+1] == 'r') {
			j++
		}
		if j >= len(f) {
			out.WriteString(f[i:])
			return
		}
		spec := f[i+1 : j]
		r.directive(spec, f[j], name, fi)
		i = j
	}
}

// directive writes one %-conversion with its printf-style flags.
func (r *statRun) directive(spec string, verb byte, name string, fi fs.FileInfo) {
	if verb == '%' {
		r.out.WriteByte('%')
		return
	}
	m := vfs.MetaOf(fi)
	num := func(n int64) { statPrintf(r.out, spec, strconv.FormatInt(n, 10), true) }
	unum := func(n uint64) { statPrintf(r.out, spec, strconv.FormatUint(n, 10), true) }
	str := func(s string) { statPrintf(r.out, spec, s, false) }
	hex := func(n uint64) { statPrintf(r.out, spec, strconv.FormatUint(n, 16), false) }
	switch verb {
	case 'a':
		statPrintf(r.out, spec, strconv.FormatUint(uint64(fileutil.UnixMode(fi.Mode())), 8), true)
	case 'A':
		str(fileutil.ModeString(fi.Mode()))
	case 'b':
		num(filesBlocks(fi))
	case 'B':
		num(512)
	case 'd':
		if strings.HasSuffix(spec, "H") {
			statPrintf(r.out, spec[:len(spec)-1], "0", true)
		} else if strings.HasSuffix(spec, "L") {
			statPrintf(r.out, spec[:len(spec)-1], strconv.Itoa(statDevice), true)
		} else {
			num(statDevice)
		}
	case 'D':
		hex(statDevice)
	case 'f':
		hex(uint64(statRawMode(fi.Mode())))
	case 'F':
		str(filesFileType(fi))
	case 'g':
		num(int64(m.GID))
	case 'G':
		str(filesGroupName(r.env, m.GID))
	case 'h':
		unum(filesNlink(r.env.FS, r.env.Abs(name), fi))
	case 'i':
		unum(m.Ino)
	case 'm':
		str("/")
	case 'n':
		str(name)
	case 0:
		// The default format's file line: the plain name, and where a
		// symlink points.
		s := name
		if filesIsLink(fi) {
			if t, err := r.env.FS.ReadlinkIfPossible(r.env.Abs(name)); err == nil {
				s += " -> " + t
			}
		}
		str(s)
	case 'N':
		s := fileutil.Quote(name)
		if filesIsLink(fi) {
			if t, err := r.env.FS.ReadlinkIfPossible(r.env.Abs(name)); err == nil {
				s += " -> " + fileutil.Quote(t)
			}
		}
		str(s)
	case 'o':
		num(4096)
	case 's':
		num(filesSize(fi))
	case 't', 'T':
		hex(0)
	case 'u':
		num(int64(m.UID))
	case 'U':
		str(filesUserName(r.env, m.UID))
	case 'w':
		str("-")
	case 'W':
		num(0)
	case 'x':
		str(r.humanTime(m.Atime))
	case 'X':
		r.epoch(spec, m.Atime)
	case 'y':
		str(r.humanTime(fi.ModTime()))
	case 'Y':
		r.epoch(spec, fi.ModTime())
	case 'z':
		str(r.humanTime(m.Ctime))
	case 'Z':
		r.epoch(spec, m.Ctime)
	default:
		r.out.WriteByte('?')
	}
}

func (r *statRun) humanTime(t time.Time) string {
	return t.In(r.loc).Format("2006-01-02 15:04:05.000000000 -0700")
}

// epoch prints seconds since the epoch, with %.N giving N digits of
// fraction like GNU stat.
func (r *statRun) epoch(spec string, t time.Time) {
	s := strconv.FormatInt(t.Unix(), 10)
	if k := strings.IndexByte(spec, '.'); k >= 0 {
		prec := 9
		if p, err := strconv.Atoi(spec[k+1:]); err == nil {
			prec = min(p, 9)
		}
		if prec > 0 {
			s += "." + fmt.Sprintf("%09d", t.Nanosecond())[:prec]
		}
		spec = spec[:k]
	}
	statPrintf(r.out, spec, s, true)
}

// statPrintf pads s as printf would with the flags and width of spec
// ("-10", "05", "+").
func statPrintf(out *bufio.Writer, spec, s string, numeric bool) {
	left, zero, plus := false, false, false
	i := 0
	for ; i < len(spec) && strings.IndexByte("-+ #0'", spec[i]) >= 0; i++ {
		switch spec[i] {
		case '-':
			left = true
		case '0':
			zero = true
		case '+':
			plus = true
		}
	}
	rest := spec[i:]
	if k := strings.IndexByte(rest, '.'); k >= 0 {
		if p, err := strconv.Atoi(rest[k+1:]); err == nil && !numeric && p < len(s) {
			s = s[:p]
		}
		rest = rest[:k]
	}
	width, _ := strconv.Atoi(rest)
	if plus && numeric && !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	pad := width - len(s)
	switch {
	case pad <= 0:
		out.WriteString(s)
	case left:
		out.WriteString(s)
		out.WriteString(strings.Repeat(" ", pad))
	case zero && numeric:
		sign := ""
		if s[0] == '-' || s[0] == '+' {
			sign, s = s[:1], s[1:]
		}
		out.WriteString(sign + strings.Repeat("0", pad) + s)
	default:
		out.WriteString(strings.Repeat(" ", pad))
		out.WriteString(s)
	}
}

// statRawMode is st_mode with the file type bits, as %f shows it.
func statRawMode(m fs.FileMode) uint32 {
	u := fileutil.UnixMode(m)
	switch {
	case m.IsDir():
		u |= 0o040000
	case m&fs.ModeSymlink != 0:
		u |= 0o120000
	case m&fs.ModeNamedPipe != 0:
		u |= 0o010000
	case m&fs.ModeSocket != 0:
		u |= 0o140000
	case m&fs.ModeCharDevice != 0:
		u |= 0o020000
	case m&fs.ModeDevice != 0:
		u |= 0o060000
	default:
		u |= 0o100000
	}
	return u
}

// statFS prints --file-system information about the sandbox filesystem.
func (r *statRun) statFS(name, f string, escapes bool) bool {
	if _, err := r.lookup(name); err != nil {
		r.env.Errorf("stat", "cannot read file system information for %s: %s", fileutil.Quote(name), ErrText(err))
		return false
	}
	u := filesUsageOf(r.env.FS)
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c == '\\' && escapes {
			i += filesWriteEscape(r.out, f[i:]) - 1
			continue
		}
		if c != '%' || i+1 == len(f) {
			r.out.WriteByte(c)
			continue
		}
		j := i + 1
		for j < len(f) && (strings.IndexByte("-+ #0'.", f[j]) >= 0 || f[j] >= '0' && f[j] <= '9') {
			j++
		}
		if j >= len(f) {
			r.out.WriteString(f[i:])
			break
		}
		spec := f[i+1 : j]
		n := func(v int64) { statPrintf(r.out, spec, strconv.FormatInt(v, 10), true) }
		switch f[j] {
		case 'n':
			statPrintf(r.out, spec, name, false)
		case 'i':
			statPrintf(r.out, spec, "0", false)
		case 'l':
			n(255)
		case 't':
			statPrintf(r.out, spec, "1021994", false)
		case 'T':
			statPrintf(r.out, spec, "tmpfs", false)
		case 's', 'S':
			n(4096)
		case 'b':
			n(u.total / 4096)
		case 'f', 'a':
			n(u.free() / 4096)
		case 'c':
			n(int64(u.inodes))
		case 'd':
			n(int64(u.inodes - u.files))
		case '%':
			r.out.WriteByte('%')
		default:
			r.out.WriteByte('?')
		}
		i = j
	}
	return true
}

// filesWriteEscape writes the backslash escape at the start of s (as in
// printf) and returns how many bytes it used.
func filesWriteEscape(out *bufio.Writer, s string) int {
	if len(s) < 2 {
		out.WriteByte('\\')
		return 1
	}
	switch c := s[1]; c {
	case 'n':
		out.WriteByte('\n')
	case 't':
		out.WriteByte('\t')
	case 'r':
		out.WriteByte('\r')
	case 'a':
		out.WriteByte('\a')
	case 'b':
		out.WriteByte('\b')
	case 'f':
		out.WriteByte('\f')
	case 'v':
		out.WriteByte('\v')
	case 'e':
		out.WriteByte(0x1b)
	case '\\':
		out.WriteByte('\\')
	case '"':
		out.WriteByte('"')
	case '\'':
		out.WriteByte('\'')
	case 'x':
		j := 2
		v := 0
		for j < len(s) && j < 4 && strings.IndexByte("0123456789abcdefABCDEF", s[j]) >= 0 {
			d, _ := strconv.ParseUint(s[j:j+1], 16, 8)
			v = v*16 + int(d)
			j++
		}
		if j == 2 {
			out.WriteString(`\x`)
			return 2
		}
		out.WriteByte(byte(v))
		return j
	default:
		if c >= '0' && c <= '7' {
			j := 1
			v := 0
			for j < len(s) && j < 4 && s[j] >= '0' && s[j] <= '7' {
				v = v*8 + int(s[j]-'0')
				j++
			}
			out.WriteByte(byte(v))
			return j
		}
		out.WriteByte('\\')
		out.WriteByte(c)
	}
	return 2
}
