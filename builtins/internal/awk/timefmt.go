package awk

import (
	"strconv"
	"strings"
	"time"
)

const defaultTimeFormat = "%a %b %e %H:%M:%S %Z %Y"

// strftimeBuiltin implements gawk's strftime([format [, timestamp [, utc]]]).
func (p *interp) strftimeBuiltin(a []Expr) value {
	format := defaultTimeFormat
	if len(a) >= 1 {
		format = p.toStr(p.eval(a[0]))
	}
	t := p.cfg.Now()
	if len(a) >= 2 {
		ts := p.eval(a[1]).toNum()
		if ts < 0 {
			p.fatalf("strftime: second argument less than 0 or too big for time_t")
		}
		t = time.Unix(int64(ts), 0)
	}
	loc := p.cfg.Location
	if len(a) == 3 && p.eval(a[2]).isTrue() {
		loc = time.UTC
	}
	return str(strftime(format, t.In(loc)))
}

// mktimeBuiltin implements mktime("YYYY MM DD HH MM SS [DST]" [, utc]).
func (p *interp) mktimeBuiltin(a []Expr) value {
	spec := strings.Fields(p.toStr(p.eval(a[0])))
	loc := p.cfg.Location
	if len(a) == 2 && p.eval(a[1]).isTrue() {
		loc = time.UTC
	}
	if len(spec) < 6 || len(spec) > 7 {
		return num(-1)
	}
	var n [6]int
	for i := 0; i < 6; i++ {
		v, err := strconv.Atoi(spec[i])
		if err != nil {
			return num(-1)
		}
		n[i] = v
	}
	t := time.Date(n[0], time.Month(n[1]), n[2], n[3], n[4], n[5], 0, loc)
	return num(float64(t.Unix()))
}

var (
	shortDays   = []string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	longDays    = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	shortMonths = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	longMonths  = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
)

// strftime formats t like C's strftime in the C locale.
func strftime(format string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		i++
		// Skip the E and O modifiers, which change nothing in C.
		if (format[i] == 'E' || format[i] == 'O') && i+1 < len(format) {
			i++
		}
		writeTimeField(&b, format[i], t)
	}
	return b.String()
}

func pad2(b *strings.Builder, n int, padc byte) {
	if n < 10 {
		b.WriteByte(padc)
	}
	b.WriteString(strconv.Itoa(n))
}

func writeTimeField(b *strings.Builder, c byte, t time.Time) {
	switch c {
	case 'a':
		b.WriteString(shortDays[t.Weekday()])
	case 'A':
		b.WriteString(longDays[t.Weekday()])
	case 'b', 'h':
		b.WriteString(shortMonths[t.Month()-1])
	case 'B':
		b.WriteString(longMonths[t.Month()-1])
	case 'c':
		b.WriteString(strftime("%a %b %e %H:%M:%S %Y", t))
	case 'C':
		pad2(b, t.Year()/100, '0')
	case 'd':
		pad2(b, t.Day(), '0')
	case 'D':
		b.WriteString(strftime("%m/%d/%y", t))
	case 'e':
		pad2(b, t.Day(), ' ')
	case 'F':
		b.WriteString(strftime("%Y-%m-%d", t))
	case 'g':
		y, _ := t.ISOWeek()
		pad2(b, y%100, '0')
	case 'G':
		y, _ := t.ISOWeek()
		b.WriteString(strconv.Itoa(y))
	case 'H':
		pad2(b, t.Hour(), '0')
	case 'I':
		h := t.Hour() % 12
		if h == 0 {
			h = 12
		}
		pad2(b, h, '0')
	case 'j':
		d := t.YearDay()
		if d < 100 {
			b.WriteByte('0')
		}
		pad2(b, d, '0')
	case 'k':
		pad2(b, t.Hour(), ' ')
	case 'l':
		h := t.Hour() % 12
		if h == 0 {
			h = 12
		}
		pad2(b, h, ' ')
	case 'm':
		pad2(b, int(t.Month()), '0')
	case 'M':
		pad2(b, t.Minute(), '0')
	case 'n':
		b.WriteByte('\n')
	case 'p':
		if t.Hour() < 12 {
			b.WriteString("AM")
		} else {
			b.WriteString("PM")
		}
	case 'r':
		b.WriteString(strftime("%I:%M:%S %p", t))
	case 'R':
		b.WriteString(strftime("%H:%M", t))
	case 's':
		b.WriteString(strconv.FormatInt(t.Unix(), 10))
	case 'S':
		pad2(b, t.Second(), '0')
	case 't':
		b.WriteByte('\t')
	case 'T':
		b.WriteString(strftime("%H:%M:%S", t))
	case 'u':
		wd := int(t.Weekday())
		if wd == 0 {
			wd = 7
		}
		b.WriteString(strconv.Itoa(wd))
	case 'U':
		pad2(b, (t.YearDay()+6-int(t.Weekday()))/7, '0')
	case 'V':
		_, w := t.ISOWeek()
		pad2(b, w, '0')
	case 'w':
		b.WriteString(strconv.Itoa(int(t.Weekday())))
	case 'W':
		wd := (int(t.Weekday()) + 6) % 7
		pad2(b, (t.YearDay()+6-wd)/7, '0')
	case 'x':
		b.WriteString(strftime("%m/%d/%y", t))
	case 'X':
		b.WriteString(strftime("%H:%M:%S", t))
	case 'y':
		pad2(b, t.Year()%100, '0')
	case 'Y':
		b.WriteString(strconv.Itoa(t.Year()))
	case 'z':
		_, off := t.Zone()
		sign := byte('+')
		if off < 0 {
			sign, off = '-', -off
		}
		b.WriteByte(sign)
		pad2(b, off/3600, '0')
		pad2(b, off%3600/60, '0')
	case 'Z':
		name, _ := t.Zone()
		b.WriteString(name)
	case '%':
		b.WriteByte('%')
	default:
		b.WriteByte('%')
		b.WriteByte(c)
	}
}
