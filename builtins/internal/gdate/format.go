// Package gdate formats and parses dates the way GNU date does: strftime
// with GNU's flags and extensions (%N, %:z, %-d, %^a, widths), TZ values
// in the forms glibc accepts, and the common forms of date -d strings.
package gdate

import (
	"strconv"
	"strings"
	"time"
)

var (
	dayNames   = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	monthNames = []string{"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"}
)

// Format renders t with a GNU strftime format in the C locale.
func Format(t time.Time, format string) string {
	var b []byte
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b = append(b, format[i])
			continue
		}
		n, out := directive(t, format[i:])
		b = append(b, out...)
		i += n - 1
	}
	return string(b)
}

// spec is one parsed % directive.
type spec struct {
	pad    byte // 0 (default), '_', '-', '0'
	upper  bool
	swap   bool
	width  int // -1 when not given
	colons int
}

// directive expands the directive at the start of s ("%...") and returns
// how many bytes it used. Unknown directives are copied literally.
func directive(t time.Time, s string) (int, string) {
	sp := spec{width: -1}
	i := 1
flags:
	for ; i < len(s); i++ {
		switch s[i] {
		case '_', '-', '0':
			sp.pad = s[i]
		case '^':
			sp.upper = true
		case '#':
			sp.swap = true
		default:
			break flags
		}
	}
	if i < len(s) && s[i] >= '1' && s[i] <= '9' {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		sp.width, _ = strconv.Atoi(s[j:i])
		if sp.width > 1<<16 {
			sp.width = 1 << 16
		}
	}
	for i < len(s) && (s[i] == 'E' || s[i] == 'O') {
		i++
		if i < len(s) && s[i] == '%' {
			// "%E%": the bad directive is copied and the next one starts.
			return i, s[:i]
		}
	}
	for i < len(s) && s[i] == ':' {
		sp.colons++
		i++
	}
	if i >= len(s) {
		return len(s), s
	}
	c := s[i]
	if sp.colons > 0 && c != 'z' {
		return i + 1, s[:i+1]
	}
	out, ok := expand(t, c, sp)
	if !ok {
		return i + 1, s[:i+1]
	}
	return i + 1, out
}

// expand renders one conversion character.
func expand(t time.Time, c byte, sp spec) (string, bool) {
	switch c {
	case '%':
		return sp.str("%"), true
	case 'n':
		return sp.str("\n"), true
	case 't':
		return sp.str("\t"), true
	case 'a':
		return sp.name(dayNames[t.Weekday()][:3]), true
	case 'A':
		return sp.name(dayNames[t.Weekday()]), true
	case 'b', 'h':
		return sp.name(monthNames[t.Month()-1][:3]), true
	case 'B':
		return sp.name(monthNames[t.Month()-1]), true
	case 'c':
		return sp.str(Format(t, "%a %b %e %H:%M:%S %Y")), true
	case 'C':
		return sp.num(floorDiv(t.Year(), 100), 2, '0'), true
	case 'd':
		return sp.num(t.Day(), 2, '0'), true
	case 'D', 'x':
		return sp.str(Format(t, "%m/%d/%y")), true
	case 'e':
		return sp.num(t.Day(), 2, '_'), true
	case 'F':
		return sp.str(sp.num(t.Year(), 4, '0') + Format(t, "-%m-%d")), true
	case 'g':
		y, _ := t.ISOWeek()
		return sp.num(mod(y, 100), 2, '0'), true
	case 'G':
		y, _ := t.ISOWeek()
		return sp.num(y, 4, '0'), true
	case 'H':
		return sp.num(t.Hour(), 2, '0'), true
	case 'I':
		return sp.num(hour12(t), 2, '0'), true
	case 'j':
		return sp.num(t.YearDay(), 3, '0'), true
	case 'k':
		return sp.num(t.Hour(), 2, '_'), true
	case 'l':
		return sp.num(hour12(t), 2, '_'), true
	case 'm':
		return sp.num(int(t.Month()), 2, '0'), true
	case 'M':
		return sp.num(t.Minute(), 2, '0'), true
	case 'N':
		return sp.nanos(t.Nanosecond()), true
	case 'p', 'P':
		s := "AM"
		if t.Hour() >= 12 {
			s = "PM"
		}
		if c == 'P' || sp.swap {
			s = strings.ToLower(s)
			sp.swap = false
		}
		return sp.str(s), true
	case 'q':
		return sp.num((int(t.Month())+2)/3, 1, '0'), true
	case 'r':
		return sp.str(Format(t, "%I:%M:%S %p")), true
	case 'R':
		return sp.str(Format(t, "%H:%M")), true
	case 's':
		return sp.num64(t.Unix(), 1, '0'), true
	case 'S':
		return sp.num(t.Second(), 2, '0'), true
	case 'T', 'X':
		return sp.str(Format(t, "%H:%M:%S")), true
	case 'u':
		return sp.num((int(t.Weekday())+6)%7+1, 1, '0'), true
	case 'U':
		return sp.num((t.YearDay()-1+7-int(t.Weekday()))/7, 2, '0'), true
	case 'V':
		_, w := t.ISOWeek()
		return sp.num(w, 2, '0'), true
	case 'w':
		return sp.num(int(t.Weekday()), 1, '0'), true
	case 'W':
		return sp.num((t.YearDay()-1+7-(int(t.Weekday())+6)%7)/7, 2, '0'), true
	case 'y':
		return sp.num(mod(t.Year(), 100), 2, '0'), true
	case 'Y':
		return sp.num(t.Year(), 4, '0'), true
	case 'z':
		return sp.zone(t), true
	case 'Z':
		name, _ := t.Zone()
		if sp.swap {
			name = strings.ToLower(name)
			sp.swap = false
		}
		return sp.str(name), true
	}
	return "", false
}

func hour12(t time.Time) int {
	h := t.Hour() % 12
	if h == 0 {
		h = 12
	}
	return h
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func mod(a, b int) int {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}

// name renders a day or month name; '#' uppercases it.
func (sp spec) name(s string) string {
	if sp.swap {
		s = strings.ToUpper(s)
	}
	return sp.str(s)
}

// str pads a textual field to the width with spaces (zeros under '0').
func (sp spec) str(s string) string {
	if sp.upper {
		s = strings.ToUpper(s)
	}
	if sp.pad == '-' || sp.width <= len(s) {
		return s
	}
	c := " "
	if sp.pad == '0' {
		c = "0"
	}
	return strings.Repeat(c, sp.width-len(s)) + s
}

func (sp spec) num(v, digits int, defPad byte) string {
	return sp.num64(int64(v), digits, defPad)
}

// num64 renders a number padded to digits (or the given width) with the
// directive's pad character, the sign staying in front of zeros.
func (sp spec) num64(v int64, digits int, defPad byte) string {
	pad := defPad
	if sp.pad != 0 {
		pad = sp.pad
	}
	if sp.width >= 0 {
		digits = sp.width
	}
	neg := v < 0
	s := strconv.FormatInt(v, 10)
	if neg {
		s = s[1:]
	}
	width := digits
	if neg {
		width--
	}
	switch {
	case pad == '-':
	case pad == '_':
		if neg {
			s = "-" + s
			neg = false
			width++
		}
		if len(s) < width {
			s = strings.Repeat(" ", width-len(s)) + s
		}
	default:
		if len(s) < width {
			s = strings.Repeat("0", width-len(s)) + s
		}
	}
	if neg {
		s = "-" + s
	}
	return s
}

// nanos renders %N: the width selects how many leading digits to keep.
func (sp spec) nanos(ns int) string {
	s := strconv.Itoa(ns)
	s = strings.Repeat("0", 9-len(s)) + s
	w := sp.width
	if w < 0 || sp.pad == '-' {
		w = 9
	}
	if w < 9 {
		return s[:w]
	}
	return s + strings.Repeat("0", w-9)
}

// zone renders %z, %:z, %::z and %:::z.
func (sp spec) zone(t time.Time) string {
	_, off := t.Zone()
	sign := byte('+')
	if off < 0 {
		sign = '-'
		off = -off
	}
	h, m, s := off/3600, off/60%60, off%60
	two := func(v int) string { return strconv.Itoa(v/10) + strconv.Itoa(v%10) }
	var out string
	switch sp.colons {
	case 0:
		out = two(h) + two(m)
	case 1:
		out = two(h) + ":" + two(m)
	case 2:
		out = two(h) + ":" + two(m) + ":" + two(s)
	default:
		out = two(h)
		if m != 0 || s != 0 {
			out += ":" + two(m)
		}
		if s != 0 {
			out += ":" + two(s)
		}
	}
	out = string(sign) + out
	if sp.width > len(out) && sp.pad != '-' {
		c := "0"
		if sp.pad == '_' {
			c = " "
		}
		out = out[:1] + strings.Repeat(c, sp.width-len(out)) + out[1:]
	}
	return out
}

// LoadTZ returns the location a TZ value selects, the way glibc reads it:
// unset or empty is UTC (the sandbox's system zone), a leading ':' is
// dropped, zone names come from Go's tz database, and POSIX strings like
// "JST-9" or "EST5EDT" give a fixed offset. Unknown names are UTC under
// that name, as glibc does.
func LoadTZ(tz string, set bool) *time.Location {
	if !set || tz == "" {
		return time.UTC
	}
	tz = strings.TrimPrefix(tz, ":")
	if tz == "" || tz == "UTC" {
		return time.UTC
	}
	if !strings.Contains(tz, "..") && !strings.HasPrefix(tz, "/") {
		if loc, err := time.LoadLocation(tz); err == nil {
			return loc
		}
	}
	if loc, ok := posixTZ(tz); ok {
		return loc
	}
	name := tz
	if k := strings.IndexAny(name, "/+-0123456789,"); k > 0 {
		name = name[:k]
	}
	return time.FixedZone(name, 0)
}

// posixTZ parses the standard-time part of a POSIX TZ string: NAME OFFSET
// where a positive offset is west of Greenwich. DST rules are ignored.
func posixTZ(tz string) (*time.Location, bool) {
	i := 0
	var name string
	if strings.HasPrefix(tz, "<") {
		j := strings.IndexByte(tz, '>')
		if j < 0 {
			return nil, false
		}
		name, i = tz[1:j], j+1
	} else {
		for i < len(tz) && (tz[i] >= 'a' && tz[i] <= 'z' || tz[i] >= 'A' && tz[i] <= 'Z') {
			i++
		}
		name = tz[:i]
	}
	if len(name) < 3 || i >= len(tz) {
		return nil, false
	}
	sign := 1
	if tz[i] == '+' || tz[i] == '-' {
		if tz[i] == '-' {
			sign = -1
		}
		i++
	}
	secs, mult := 0, 3600
	for part := 0; part < 3 && i < len(tz); part++ {
		j := i
		for i < len(tz) && tz[i] >= '0' && tz[i] <= '9' {
			i++
		}
		if i == j {
			return nil, false
		}
		v, _ := strconv.Atoi(tz[j:i])
		secs += v * mult
		mult /= 60
		if i >= len(tz) || tz[i] != ':' {
			break
		}
		i++
	}
	return time.FixedZone(name, -sign*secs), true
}
