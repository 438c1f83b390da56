package fileutil

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

var errBadDate = errors.New("invalid date")

// ParseDate understands the date strings scripts commonly pass to
// touch -d and find -newermt: "@EPOCH", ISO 8601 dates and times
// ("2024-01-02", "2024-01-02 03:04:05.5", "2024-01-02T03:04Z"), "now",
// "today", "yesterday", "tomorrow", month names ("Jan 2 2023"), times of
// day ("15:04"), zones (UTC, Z, +0100) and relative items ("1 day ago",
// "+2 hours", "next week", "last month"). Missing parts come from now.
func ParseDate(s string, now time.Time, loc *time.Location) (time.Time, error) {
	p := &dateParser{toks: dateTokens(s), loc: loc, now: now.In(loc)}
	if len(p.toks) == 0 {
		// An empty string means the start of today, as in GNU date.
		n := p.now
		return time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, loc), nil
	}
	return p.parse()
}

type dateParser struct {
	toks []string
	i    int
	loc  *time.Location
	now  time.Time

	haveDate, haveTime, haveZone bool
	y, mo, d                     int
	h, mi, sec, nsec             int
	zone                         *time.Location
	relY, relM, relD             int
	relDur                       time.Duration
	epoch                        *time.Time
}

// dateTokens splits a date string into words, numbers and punctuation,
// keeping "2024-01-02", "03:04:05.123" and "+0100" whole.
func dateTokens(s string) []string {
	var toks []string
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == ',' || c == '\n':
			i++
		case isDigit(c) || c == '@' || (c == '+' || c == '-') && i+1 < len(s) && isDigit(s[i+1]):
			j := i + 1
			for j < len(s) && (isDigit(s[j]) || s[j] == '-' || s[j] == ':' || s[j] == '.' || s[j] == '/') {
				if (s[j] == '-') && j+1 < len(s) && !isDigit(s[j+1]) {
					break
				}
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		case isAlpha(c):
			j := i
			for j < len(s) && (isAlpha(s[j]) || s[j] == '.') {
				j++
			}
			toks = append(toks, strings.ToLower(strings.TrimSuffix(s[i:j], ".")))
			i = j
		default:
			toks = append(toks, s[i:i+1])
			i++
		}
	}
	return toks
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

var months = map[string]int{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7,
	"aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12}

var weekdays = map[string]bool{"sun": true, "mon": true, "tue": true, "tues": true, "wed": true,
	"wednes": true, "thu": true, "thur": true, "thurs": true, "fri": true, "sat": true}

func monthOf(w string) (int, bool) {
	if m, ok := months[w]; ok {
		return m, true
	}
	for k, m := range months {
		if len(w) > 3 && strings.HasPrefix(w, k) {
			return m, true
		}
	}
	return 0, false
}

func (p *dateParser) parse() (time.Time, error) {
	for p.i < len(p.toks) {
		if err := p.item(); err != nil {
			return time.Time{}, err
		}
	}
	return p.result()
}

func (p *dateParser) peek(k int) string {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return ""
}

func (p *dateParser) item() error {
	t := p.toks[p.i]
	p.i++
	switch {
	case strings.HasPrefix(t, "@"):
		return p.epochItem(t[1:])
	case t == "now":
		return nil
	case t == "today":
		return nil
	case t == "yesterday":
		p.relD--
		return nil
	case t == "tomorrow":
		p.relD++
		return nil
	case t == "ago":
		p.relY, p.relM, p.relD, p.relDur = -p.relY, -p.relM, -p.relD, -p.relDur
		return nil
	case t == "next" || t == "last" || t == "this":
		n := map[string]int{"next": 1, "last": -1, "this": 0}[t]
		return p.relative(n)
	case t == "utc" || t == "gmt" || t == "z" || t == "ut":
		p.zone, p.haveZone = time.UTC, true
		return nil
	case t == "am" || t == "pm" || t == "a.m" || t == "p.m":
		if p.h > 12 {
			return errBadDate
		}
		if t[0] == 'p' && p.h < 12 {
			p.h += 12
		} else if t[0] == 'a' && p.h == 12 {
			p.h = 0
		}
		return nil
	case t == "t" && p.haveDate:
		return nil
	case isAlpha(t[0]):
		if m, ok := monthOf(t); ok {
			return p.monthItem(m)
		}
		if weekdays[strings.TrimSuffix(t, "day")] || weekdays[t] {
			return nil
		}
		if _, ok := relUnit(t); ok {
			p.i--
			return p.relative(1)
		}
		return errBadDate
	case t[0] == '+' || t[0] == '-':
		if strings.Contains(t, ":") || len(t) == 5 && p.haveTime && !p.haveZone && !isUnitWord(p.peek(0)) {
			return p.zoneItem(t)
		}
		n, err := strconv.Atoi(t)
		if err != nil {
			return errBadDate
		}
		return p.relative(n)
	case strings.Count(t, "-") == 2 || strings.Count(t, "/") == 2:
		return p.dateItem(t)
	case strings.Contains(t, ":"):
		return p.timeItem(t)
	case isDigit(t[0]):
		return p.numberItem(t)
	}
	return errBadDate
}

func (p *dateParser) epochItem(s string) error {
	sec, frac, _ := strings.Cut(s, ".")
	n, err := strconv.ParseInt(sec, 10, 64)
	if err != nil {
		return errBadDate
	}
	ns := 0
	if frac != "" {
		f := (frac + "000000000")[:9]
		if ns, err = strconv.Atoi(f); err != nil {
			return errBadDate
		}
		if strings.HasPrefix(sec, "-") {
			ns = -ns
		}
	}
	t := time.Unix(n, int64(ns))
	p.epoch = &t
	return nil
}

// dateItem parses "YYYY-MM-DD" (with an optional "T..." time glued on)
// and "MM/DD/YYYY".
func (p *dateParser) dateItem(t string) error {
	var parts []string
	if strings.Contains(t, "/") {
		parts = strings.Split(t, "/")
		parts = []string{parts[2], parts[0], parts[1]}
	} else {
		parts = strings.SplitN(t, "-", 3)
	}
	var v [3]int
	for k, s := range parts {
		n, err := strconv.Atoi(s)
		if err != nil {
			return errBadDate
		}
		v[k] = n
	}
	if len(parts[0]) <= 2 && strings.Contains(t, "/") {
		v[0] = twoDigitYear(v[0])
	}
	p.y, p.mo, p.d, p.haveDate = v[0], v[1], v[2], true
	return nil
}

func twoDigitYear(y int) int {
	if y < 69 {
		return y + 2000
	}
	if y < 100 {
		return y + 1900
	}
	return y
}

// timeItem parses "HH:MM[:SS[.frac]]", possibly with a zone offset.
func (p *dateParser) timeItem(t string) error {
	if k := strings.IndexAny(t[1:], "+-"); k >= 0 {
		if err := p.zoneItem(t[k+1:]); err != nil {
			return err
		}
		t = t[:k+1]
	}
	hms := strings.Split(t, ":")
	if len(hms) > 3 {
		return errBadDate
	}
	var v [3]int
	for k, s := range hms {
		if k == 2 {
			sec, frac, ok := strings.Cut(s, ".")
			if ok {
				f := (frac + "000000000")[:9]
				ns, err := strconv.Atoi(f)
				if err != nil {
					return errBadDate
				}
				p.nsec = ns
			}
			s = sec
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			return errBadDate
		}
		v[k] = n
	}
	if v[0] > 24 || v[1] > 59 || v[2] > 60 {
		return errBadDate
	}
	p.h, p.mi, p.sec, p.haveTime = v[0], v[1], v[2], true
	return nil
}

func (p *dateParser) zoneItem(t string) error {
	sign := 1
	if t[0] == '-' {
		sign = -1
	}
	t = strings.ReplaceAll(t[1:], ":", "")
	n, err := strconv.Atoi(t)
	if err != nil {
		return errBadDate
	}
	if len(t) <= 2 {
		n *= 100
	}
	p.zone = time.FixedZone("", sign*(n/100*3600+n%100*60))
	p.haveZone = true
	return nil
}

// monthItem handles "Jan 2 [2023]" after the month name.
func (p *dateParser) monthItem(m int) error {
	p.mo, p.haveDate = m, true
	if p.d == 0 {
		p.y = p.now.Year()
		if d, err := strconv.Atoi(p.peek(0)); err == nil && d <= 31 {
			p.d = d
			p.i++
		} else {
			p.d = 1
		}
	}
	if y, err := strconv.Atoi(p.peek(0)); err == nil && len(p.peek(0)) == 4 {
		p.y = y
		p.i++
	}
	return nil
}

// numberItem handles a bare number: a day before a month name, a year,
// "YYYYMMDD", "HHMM" after a date, or the count of a relative item.
func (p *dateParser) numberItem(t string) error {
	if strings.Contains(t, ".") {
		return errBadDate
	}
	n, err := strconv.Atoi(t)
	if err != nil {
		return errBadDate
	}
	next := p.peek(0)
	if _, ok := relUnit(next); ok {
		return p.relative(n)
	}
	if m, ok := monthOf(next); ok && n <= 31 {
		p.i++
		p.d = n
		p.y = p.now.Year()
		return p.monthItem(m)
	}
	switch {
	case len(t) == 8:
		p.y, p.mo, p.d, p.haveDate = n/10000, n/100%100, n%100, true
	case len(t) == 4 && p.haveDate && !p.haveTime:
		p.h, p.mi, p.haveTime = n/100, n%100, true
	case len(t) == 4 && p.haveDate:
		p.y = n
	default:
		return errBadDate
	}
	return nil
}

func isUnitWord(w string) bool { _, ok := relUnit(w); return ok }

// relUnit maps a unit word to (months, days, duration) of one unit.
func relUnit(w string) ([3]int64, bool) {
	w = strings.TrimSuffix(w, "s")
	switch w {
	case "year":
		return [3]int64{12, 0, 0}, true
	case "month":
		return [3]int64{1, 0, 0}, true
	case "fortnight":
		return [3]int64{0, 14, 0}, true
	case "week":
		return [3]int64{0, 7, 0}, true
	case "day":
		return [3]int64{0, 1, 0}, true
	case "hour":
		return [3]int64{0, 0, int64(time.Hour)}, true
	case "minute", "min":
		return [3]int64{0, 0, int64(time.Minute)}, true
	case "second", "sec":
		return [3]int64{0, 0, int64(time.Second)}, true
	}
	return [3]int64{}, false
}

// relative applies n times the unit that follows.
func (p *dateParser) relative(n int) error {
	u, ok := relUnit(p.peek(0))
	if !ok {
		return errBadDate
	}
	p.i++
	p.relM += n * int(u[0])
	p.relD += n * int(u[1])
	p.relDur += time.Duration(n) * time.Duration(u[2])
	return nil
}

func (p *dateParser) result() (time.Time, error) {
	var t time.Time
	loc := p.loc
	if p.zone != nil {
		loc = p.zone
	}
	switch {
	case p.epoch != nil:
		t = *p.epoch
	case p.haveDate || p.haveTime:
		y, mo, d := p.now.Year(), int(p.now.Month()), p.now.Day()
		if p.haveDate {
			y, mo, d = p.y, p.mo, p.d
			if mo < 1 || mo > 12 || d < 1 || d > 31 {
				return time.Time{}, errBadDate
			}
		}
		t = time.Date(y, time.Month(mo), d, p.h, p.mi, p.sec, p.nsec, loc)
		if t.Day() != d {
			return time.Time{}, errBadDate
		}
	default:
		t = p.now
	}
	if p.relY != 0 || p.relM != 0 || p.relD != 0 {
		t = t.AddDate(p.relY, p.relM, p.relD)
	}
	return t.Add(p.relDur), nil
}

// ParseTouchStamp parses touch -t's [[CC]YY]MMDDhhmm[.ss].
func ParseTouchStamp(s string, now time.Time, loc *time.Location) (time.Time, error) {
	main, secs, hasSecs := strings.Cut(s, ".")
	for _, c := range []byte(main + secs) {
		if !isDigit(c) {
			return time.Time{}, errBadDate
		}
	}
	if hasSecs && len(secs) != 2 {
		return time.Time{}, errBadDate
	}
	y := now.In(loc).Year()
	switch len(main) {
	case 8:
	case 10:
		yy, _ := strconv.Atoi(main[:2])
		y, main = twoDigitYear(yy), main[2:]
	case 12:
		y, _ = strconv.Atoi(main[:4])
		main = main[4:]
	default:
		return time.Time{}, errBadDate
	}
	n := func(i int) int { v, _ := strconv.Atoi(main[i : i+2]); return v }
	mo, d, h, mi := n(0), n(2), n(4), n(6)
	sec := 0
	if hasSecs {
		sec, _ = strconv.Atoi(secs)
	}
	if mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60 {
		return time.Time{}, errBadDate
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, 0, loc)
	if t.Day() != d {
		return time.Time{}, errBadDate
	}
	return t, nil
}
