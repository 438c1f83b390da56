package builtins

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	_ "time/tzdata" // zone data for TZ without reading the host's zoneinfo

	"github.com/sandsh/sandsh/builtins/internal/gdate"
)

const dateUsage = `Usage: date [OPTION]... [+FORMAT]
  or:  date [-u|--utc|--universal] [MMDDhhmm[[CC]YY][.ss]]
Display the current time in the given FORMAT, or set the system date.

  -d, --date=STRING          display time described by STRING, not 'now'
  -f, --file=DATEFILE        like --date; once for each line of DATEFILE
  -I[FMT], --iso-8601[=FMT]  output date/time in ISO 8601 format.
                               FMT='date' for date only (the default),
                               'hours', 'minutes', 'seconds', or 'ns'
  -R, --rfc-email            output date and time in RFC 5322 format
      --rfc-3339=FMT         output date/time in RFC 3339 format.
                               FMT='date', 'seconds', or 'ns'
  -r, --reference=FILE       display the last modification time of FILE
  -s, --set=STRING           set time described by STRING
  -u, --utc, --universal     print or set Coordinated Universal Time (UTC)
`

// dateDefaultFormat is date's output format in the C locale.
const dateDefaultFormat = "%a %b %e %H:%M:%S %Z %Y"

var dateGetopt = Getopt{Short: "d:f:I::r:Rs:u",
	Long: []string{"date=", "file=", "iso-8601?", "reference=", "rfc-email", "rfc-822", "rfc-2822",
		"rfc-3339=", "set=", "utc", "universal", "debug", "resolution"},
	LongAlias: map[string]string{"date": "d", "file": "f", "iso-8601": "I", "reference": "r",
		"rfc-email": "R", "rfc-822": "R", "rfc-2822": "R", "set": "s", "utc": "u", "universal": "u"}}

func runDate(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	opts, ops, err := dateGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(name, err, 1)
	}
	var dateStr, file, ref, format string
	haveDate, haveFile, haveRef, formats := false, false, false, 0
	loc := shellTZ(env)
	for _, o := range opts {
		switch o.Name {
		case "d":
			dateStr, haveDate = o.Value, true
		case "f":
			file, haveFile = o.Value, true
		case "r":
			ref, haveRef = o.Value, true
		case "u":
			loc = time.UTC
		case "s":
			env.Errorf(name, "cannot set date: Operation not permitted")
			return 1
		case "R":
			format = "%a, %d %b %Y %H:%M:%S %z"
			formats++
		case "I":
			f, err := dateISOFormat(o.Value, o.HasValue)
			if err != nil {
				return env.UsageError(name, err, 1)
			}
			format = f
			formats++
		case "rfc-3339":
			f, err := dateRFC3339Format(o.Value)
			if err != nil {
				return env.UsageError(name, err, 1)
			}
			format = f
			formats++
		}
	}
	if n := boolCount(haveDate, haveFile, haveRef); n > 1 {
		env.Errorf(name, "the options to specify dates for printing are mutually exclusive")
		fmt.Fprintf(env.Stderr, "Try '%s --help' for more information.\n", name)
		return 1
	}
	if len(ops) > 1 {
		return env.UsageError(name, fmt.Errorf("extra operand %s", shellQuoteGNU(ops[1])), 1)
	}
	for _, op := range ops {
		if strings.HasPrefix(op, "+") {
			if formats > 0 {
				env.Errorf(name, "multiple output formats specified")
				return 1
			}
			format = op[1:]
			formats++
			continue
		}
		if haveDate || haveFile || haveRef {
			env.Errorf(name, "the argument %s lacks a leading '+';", shellQuoteGNU(op))
			fmt.Fprintf(env.Stderr, "when using an option to specify date(s), any non-option\nargument must be a format string beginning with '+'\nTry '%s --help' for more information.\n", name)
			return 1
		}
		env.Errorf(name, "cannot set date: Operation not permitted")
		return 1
	}
	if formats > 1 {
		env.Errorf(name, "multiple output formats specified")
		return 1
	}
	if format == "" && formats == 0 {
		format = dateDefaultFormat
	}
	now := env.System().Now()
	w := bufio.NewWriter(env.Stdout)
	status := 0
	switch {
	case haveFile:
		status = dateFromFile(env, name, file, now, loc, format, w)
	case haveRef:
		fi, err := env.FS.Stat(env.Abs(ref))
		if err != nil {
			env.FileError(name, ref, err)
			return 1
		}
		fmt.Fprintln(w, gdate.Format(fi.ModTime().In(loc), format))
	default:
		t := now
		if haveDate {
			if t, err = gdate.Parse(dateStr, now, loc); err != nil {
				env.Errorf(name, "invalid date %s", shellQuoteGNU(dateStr))
				return 1
			}
		}
		fmt.Fprintln(w, gdate.Format(t.In(loc), format))
	}
	if err := w.Flush(); err != nil {
		return env.WriteError(name, err)
	}
	return status
}

// dateFromFile prints each line of file (or stdin for "-") as a date.
func dateFromFile(env *Env, name, file string, now time.Time, loc *time.Location, format string, w *bufio.Writer) int {
	var r io.Reader = env.Stdin
	if file != "-" {
		f, err := env.Open(file)
		if err != nil {
			return env.FileError(name, file, err)
		}
		defer f.Close()
		r = f
	}
	status := 0
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		t, err := gdate.Parse(line, now, loc)
		if err != nil {
			w.Flush()
			env.Errorf(name, "invalid date %s", shellQuoteGNU(line))
			status = 1
			continue
		}
		fmt.Fprintln(w, gdate.Format(t.In(loc), format))
	}
	return status
}

func dateISOFormat(v string, has bool) (string, error) {
	if !has || v == "" {
		v = "date"
	}
	for _, k := range []struct{ name, f string }{
		{"date", "%Y-%m-%d"}, {"hours", "%Y-%m-%dT%H%:z"}, {"minutes", "%Y-%m-%dT%H:%M%:z"},
		{"seconds", "%Y-%m-%dT%H:%M:%S%:z"}, {"ns", "%Y-%m-%dT%H:%M:%S,%N%:z"},
	} {
		if strings.HasPrefix(k.name, v) {
			return k.f, nil
		}
	}
	return "", fmt.Errorf("invalid argument %s for '--iso-8601'\nValid arguments are:\n  - 'hours'\n  - 'minutes'\n  - 'date'\n  - 'seconds'\n  - 'ns'", shellQuoteGNU(v))
}

func dateRFC3339Format(v string) (string, error) {
	for _, k := range []struct{ name, f string }{
		{"date", "%Y-%m-%d"}, {"seconds", "%Y-%m-%d %H:%M:%S%:z"}, {"ns", "%Y-%m-%d %H:%M:%S.%N%:z"},
	} {
		if v != "" && strings.HasPrefix(k.name, v) {
			return k.f, nil
		}
	}
	return "", errors.New("invalid argument " + shellQuoteGNU(v) + " for '--rfc-3339'\nValid arguments are:\n  - 'date'\n  - 'seconds'\n  - 'ns'")
}

func boolCount(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}
