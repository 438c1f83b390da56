package builtins

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
	"github.com/sandsh/sandsh/builtins/internal/gdate"
	"github.com/sandsh/sandsh/vfs"
)

const touchUsage = `Usage: touch [OPTION]... FILE...
Update the access and modification times of each FILE to the current time.

A FILE argument that does not exist is created empty, unless -c or -h
is supplied.

  -a                     change only the access time
  -c, --no-create        do not create any files
  -d, --date=STRING      parse STRING and use it instead of current time
  -f                     (ignored)
  -h, --no-dereference   affect each symbolic link instead of any referenced
                         file (only for systems that can change the
                         timestamps of a symlink)
  -m                     change only the modification time
  -r, --reference=FILE   use this file's times instead of current time
  -t STAMP               use [[CC]YY]MMDDhhmm[.ss] instead of current time
      --time=WORD        change the specified time:
                           WORD is access, atime, or use: equivalent to -a
                           WORD is modify or mtime: equivalent to -m
      --help     display this help and exit
`

var touchGetopt = Getopt{
	Short: "acd:fhmr:t:",
	Long:  []string{"no-create", "date=", "no-dereference", "reference=", "time="},
	LongAlias: map[string]string{"no-create": "c", "date": "d", "no-dereference": "h",
		"reference": "r"},
}

func runTouch(ctx context.Context, env *Env, args []string) int {
	opts, operands, err := touchGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("touch", err, 1)
	}
	var atimeOnly, mtimeOnly, noCreate, noDeref bool
	var dateStr, ref, stamp string
	var haveDate, haveRef, haveStamp bool
	for _, o := range opts {
		switch o.Name {
		case "a":
			atimeOnly = true
		case "m":
			mtimeOnly = true
		case "c":
			noCreate = true
		case "h":
			noDeref, noCreate = true, true
		case "d":
			dateStr, haveDate = o.Value, true
		case "r":
			ref, haveRef = o.Value, true
		case "t":
			stamp, haveStamp = o.Value, true
		case "time":
			switch o.Value {
			case "access", "atime", "use":
				atimeOnly = true
			case "modify", "mtime":
				mtimeOnly = true
			default:
				return env.UsageError("touch", errors.New("invalid argument "+fileutil.Quote(o.Value)+" for '--time'"), 1)
			}
		}
	}
	if haveStamp && (haveDate || haveRef) {
		return env.UsageError("touch", errors.New("cannot specify times from more than one source"), 1)
	}
	if len(operands) == 0 {
		return env.UsageError("touch", errors.New("missing file operand"), 1)
	}
	now := env.System().Now()
	loc := filesLocation(env)
	atime, mtime := now, now
	if haveRef {
		fi, err := filesStat(env, ref)
		if noDeref {
			fi, err = filesLstat(env, ref)
		}
		if err != nil {
			filesErrorf(env, "touch", err, "failed to get attributes of %s", fileutil.Quote(ref))
			return 1
		}
		atime, mtime = vfs.MetaOf(fi).Atime, fi.ModTime()
	}
	if haveDate {
		base := now
		if haveRef {
			base = mtime
		}
		t, err := gdate.Parse(dateStr, base, loc)
		if err != nil {
			env.Errorf("touch", "invalid date format %s", fileutil.Quote(dateStr))
			return 1
		}
		atime, mtime = t, t
	}
	if haveStamp {
		t, err := touchParseStamp(stamp, now, loc)
		if err != nil {
			env.Errorf("touch", "invalid date format %s", fileutil.Quote(stamp))
			return 1
		}
		atime, mtime = t, t
	}
	if !atimeOnly && !mtimeOnly {
		atimeOnly, mtimeOnly = true, true
	}
	status := 0
	for _, name := range operands {
		if ctx.Err() != nil {
			return 130
		}
		if strings.HasSuffix(name, "/") && strings.Trim(name, "/") != "" {
			// "name/" must be an existing directory; GNU reports the
			// failure when setting its times.
			err := filesSlashErr(env, name)
			if _, serr := filesStat(env, name); serr != nil {
				err = serr
			}
			if err != nil {
				env.Errorf("touch", "setting times of %s: %s", fileutil.Quote(name), ErrText(err))
				status = 1
				continue
			}
		}
		if err := touchOne(env, name, atime, mtime, atimeOnly, mtimeOnly, noCreate, noDeref); err != nil {
			env.Errorf("touch", "cannot touch %s: %s", fileutil.Quote(name), ErrText(err))
			status = 1
		}
	}
	return status
}

// touchOne creates name if needed and sets the chosen times, keeping
// the one not asked for.
func touchOne(env *Env, name string, atime, mtime time.Time, setA, setM, noCreate, noDeref bool) error {
	if name == "-" {
		// GNU touches standard output; there is no file behind it here.
		return nil
	}
	abs := env.Abs(name)
	fi, err := env.FS.Stat(abs)
	if noDeref {
		fi, err = vfs.Lstat(env.FS, abs)
	}
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if noCreate {
			return nil
		}
		if _, lerr := vfs.Lstat(env.FS, abs); lerr == nil {
			// A dangling symlink: creating through it makes its target.
			f, err := env.FS.OpenFile(abs, os.O_WRONLY|os.O_CREATE, 0o666)
			if err != nil {
				return err
			}
			f.Close()
		} else {
			f, err := filesCreate(env.FS, abs, os.O_WRONLY|os.O_CREATE, 0o666)
			if err != nil {
				return filesStatErr(env.FS, abs, err)
			}
			f.Close()
		}
		if fi, err = env.FS.Stat(abs); err != nil {
			return err
		}
	}
	m := vfs.MetaOf(fi)
	if !setA {
		atime = m.Atime
	}
	if !setM {
		mtime = fi.ModTime()
	}
	if noDeref && filesIsLink(fi) {
		if lc, ok := env.FS.(vfs.LinkChtimer); ok {
			return lc.LchtimesIfPossible(abs, atime, mtime)
		}
		// Symlink timestamps cannot be set on this filesystem.
		return nil
	}
	return env.FS.Chtimes(abs, atime, mtime)
}

// touchParseStamp parses touch -t's [[CC]YY]MMDDhhmm[.ss].
func touchParseStamp(s string, now time.Time, loc *time.Location) (time.Time, error) {
	main, secs, hasSecs := strings.Cut(s, ".")
	for _, c := range []byte(main + secs) {
		if c < '0' || c > '9' {
			return time.Time{}, errTouchDate
		}
	}
	if hasSecs && len(secs) != 2 {
		return time.Time{}, errTouchDate
	}
	y := now.In(loc).Year()
	switch len(main) {
	case 8:
	case 10:
		yy, _ := strconv.Atoi(main[:2])
		y, main = touchYear(yy), main[2:]
	case 12:
		y, _ = strconv.Atoi(main[:4])
		main = main[4:]
	default:
		return time.Time{}, errTouchDate
	}
	n := func(i int) int { v, _ := strconv.Atoi(main[i : i+2]); return v }
	mo, d, h, mi := n(0), n(2), n(4), n(6)
	sec := 0
	if hasSecs {
		sec, _ = strconv.Atoi(secs)
	}
	if mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60 {
		return time.Time{}, errTouchDate
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, 0, loc)
	if t.Day() != d {
		return time.Time{}, errTouchDate
	}
	return t, nil
}

var errTouchDate = errors.New("invalid date")

// touchYear widens a two-digit year the POSIX way: 69-99 are 19xx.
func touchYear(y int) int {
	if y < 69 {
		return y + 2000
	}
	return y + 1900
}
