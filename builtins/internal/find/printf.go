package find

import (
	"bufio"
	"fmt"
	"github.com/sandsh/sandsh/builtins/internal/guard"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
	"github.com/sandsh/sandsh/builtins/internal/gdate"
)

// printfPred is -printf: the format is split once into literal text and
// directives.
type printfPred struct {
	w     *outFile
	parts []printfPart
}

type printfPart struct {
	lit   string
	verb  byte // 0 for literal text
	sub   byte // the k of %Tk, %Ak, %Ck
	flags string
	stop  bool // \c: stop printing
}

func (p *parser) printfPred(format string, w *outFile) (expr, error) {
	pp := &printfPred{w: w}
	var lit strings.Builder
	flushLit := func() {
		if lit.Len() > 0 {
			pp.parts = append(pp.parts, printfPart{lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		switch {
		case c == '\\' && i+1 < len(format):
			i++
			switch e := format[i]; e {
			case 'a':
				lit.WriteByte('\a')
			case 'b':
				lit.WriteByte('\b')
			case 'f':
				lit.WriteByte('\f')
			case 'n':
				lit.WriteByte('\n')
			case 'r':
				lit.WriteByte('\r')
			case 't':
				lit.WriteByte('\t')
			case 'v':
				lit.WriteByte('\v')
			case '\\':
				lit.WriteByte('\\')
			case 'c':
				flushLit()
				pp.parts = append(pp.parts, printfPart{stop: true})
			default:
				if e >= '0' && e <= '7' {
					v, j := 0, i
					for j < len(format) && j < i+3 && format[j] >= '0' && format[j] <= '7' {
						v = v*8 + int(format[j]-'0')
						j++
					}
					lit.WriteByte(byte(v))
					i = j - 1
					continue
				}
				p.f.errorf("warning: unrecognized escape `\\%c'", e)
				lit.WriteByte('\\')
				lit.WriteByte(e)
			}
		case c == '%' && i+1 < len(format):
			j := i + 1
			for j < len(format) && strings.IndexByte("-+ #0", format[j]) >= 0 {
				j++
			}
			for j < len(format) && (format[j] >= '0' && format[j] <= '9' || format[j] == '.') {
				j++
			}
			if j >= len(format) {
				lit.WriteString(format[i:])
				i = len(format)
				continue
			}
			verb := format[j]
			part := printfPart{verb: verb, flags: format[i+1 : j]}
			switch {
			case verb == '%':
				lit.WriteByte('%')
				i = j
				continue
			case verb == 'A' || verb == 'C' || verb == 'T':
				if j+1 >= len(format) {
					return nil, fmt.Errorf("error: missing time format after %%%c", verb)
				}
				part.sub = format[j+1]
				j++
			case strings.IndexByte("abcdDfFgGhHiklmMnpPsStuUyY", verb) < 0:
				p.f.errorf("warning: unrecognized format directive `%%%c'", verb)
				lit.WriteString(format[i : j+1])
				i = j
				continue
			}
			flushLit()
			pp.parts = append(pp.parts, part)
			i = j
		default:
			lit.WriteByte(c)
		}
	}
	flushLit()
	return pp, nil
}

func (pp *printfPred) eval(f *finder, v *visit) bool {
	w := f.writer(pp.w)
	for _, part := range pp.parts {
		if part.stop {
			break
		}
		if part.verb == 0 {
			w.WriteString(part.lit)
			continue
		}
		if !pad(w, f.meter, part.flags, directive(f, v, part)) && f.status == 0 {
			// GNU's fprintf fails past INT_MAX: nothing of the
			// directive is printed and find's status is 1.
			f.errorf("'standard output': Value too large for defined data type")
			f.status = 1
		}
	}
	f.checkWrite(w)
	return true
}

// pad writes s with printf-style width, precision and '-' flag. The
// width is the script's: the fill goes out in metered blocks. A width or
// precision past INT_MAX prints nothing and returns false, as C's printf
// fails with EOVERFLOW.
func pad(w *bufio.Writer, m *guard.Meter, flags, s string) bool {
	if flags == "" {
		w.WriteString(s)
		return true
	}
	left := strings.Contains(flags, "-")
	spec := strings.TrimLeft(flags, "-+ #0")
	width, prec := spec, ""
	if k := strings.IndexByte(spec, '.'); k >= 0 {
		width, prec = spec[:k], spec[k+1:]
	}
	n, err := strconv.Atoi(width)
	if width != "" && (err != nil || n > math.MaxInt32) {
		return false
	}
	if prec != "" {
		k, err := strconv.Atoi(prec)
		if err != nil || k > math.MaxInt32 {
			return false
		}
		if k < len(s) {
			s = s[:k]
		}
	}
	if left {
		w.WriteString(s)
	}
	guard.Repeat(w, m, ' ', n-len(s))
	if !left {
		w.WriteString(s)
	}
	return true
}

func directive(f *finder, v *visit, part printfPart) string {
	fi := v.fi
	m := metaOf(fi)
	switch part.verb {
	case 'a':
		return ctimeFormat(m.Atime.In(f.env.Loc))
	case 'c':
		return ctimeFormat(m.Ctime.In(f.env.Loc))
	case 't':
		return ctimeFormat(fi.ModTime().In(f.env.Loc))
	case 'A':
		return timeDirective(m.Atime.In(f.env.Loc), part.sub)
	case 'C':
		return timeDirective(m.Ctime.In(f.env.Loc), part.sub)
	case 'T':
		return timeDirective(fi.ModTime().In(f.env.Loc), part.sub)
	case 'b':
		return strconv.FormatInt(fileutil.Blocks(fi), 10)
	case 'k':
		return strconv.FormatInt((fileutil.Blocks(fi)+1)/2, 10)
	case 'd':
		return strconv.Itoa(v.depth)
	case 'D':
		return "31"
	case 'f':
		return baseName(v.path)
	case 'F':
		return "memfs"
	case 'g':
		return f.env.GroupName(m.GID)
	case 'G':
		return strconv.Itoa(m.GID)
	case 'h':
		k := strings.LastIndexByte(strings.TrimRight(v.path, "/"), '/')
		switch {
		case k < 0:
			return "."
		case k == 0:
			return "/"
		}
		return v.path[:k]
	case 'H':
		return v.start
	case 'i':
		return strconv.FormatUint(m.Ino, 10)
	case 'l':
		if fi.Mode()&fs.ModeSymlink == 0 {
			return ""
		}
		t, _ := f.env.FS.ReadlinkIfPossible(v.abs)
		return t
	case 'm':
		return strconv.FormatUint(uint64(fileutil.UnixMode(fi.Mode())), 8)
	case 'M':
		return fileutil.ModeString(fi.Mode())
	case 'n':
		return strconv.FormatUint(f.env.Nlink(v.abs, fi), 10)
	case 'p':
		return v.path
	case 'P':
		rel := strings.TrimPrefix(v.path, v.start)
		return strings.TrimPrefix(rel, "/")
	case 's':
		return strconv.FormatInt(fileutil.Size(fi), 10)
	case 'S':
		return "1"
	case 'u':
		return f.env.UserName(m.UID)
	case 'U':
		return strconv.Itoa(m.UID)
	case 'y':
		return string(typeLetter(fi.Mode()))
	case 'Y':
		if fi.Mode()&fs.ModeSymlink == 0 {
			return string(typeLetter(fi.Mode()))
		}
		tfi, err := f.env.FS.Stat(v.abs)
		if err != nil {
			if strings.Contains(err.Error(), "too many levels") {
				return "L"
			}
			return "N"
		}
		return string(typeLetter(tfi.Mode()))
	}
	return ""
}

// ctimeFormat is GNU find's %t: ctime(3) with nanoseconds and a trailing
// zero digit.
func ctimeFormat(t time.Time) string {
	return t.Format("Mon Jan _2 15:04:05") + fmt.Sprintf(".%09d0 ", t.Nanosecond()) + strconv.Itoa(t.Year())
}

// timeDirective expands %Tk: strftime letters plus GNU find's '@' (epoch
// seconds), '+' (date+time) and fractional 'S' and 'T'.
func timeDirective(t time.Time, k byte) string {
	frac := fmt.Sprintf(".%09d0", t.Nanosecond())
	switch k {
	case '@':
		return strconv.FormatInt(t.Unix(), 10) + frac
	case 'S':
		return fmt.Sprintf("%02d", t.Second()) + frac
	case 'T':
		return t.Format("15:04:05") + frac
	case '+':
		return t.Format("2006-01-02+15:04:05") + frac
	case 'k':
		return fmt.Sprintf("%2d", t.Hour())
	}
	return gdate.Format(t, "%"+string(k))
}
