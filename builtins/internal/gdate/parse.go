package gdate

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// ErrInvalid is returned for a date string Parse cannot read.
var ErrInvalid = errors.New("invalid date")

// Parse reads a date the way GNU date -d does, for the forms scripts
// commonly use: "@EPOCH[.frac]", ISO 8601 dates and times (with T, Z and
// offsets), "YYYY-MM-DD HH:MM[:SS[.frac]]", MM/DD[/YY[YY]], YYYYMMDD,
// "Jan 2 [2024]", "2 Jan 2024", "2-Jan-2024", date(1)'s own output,
// am/pm, zone names and offsets, a leading TZ="..." and relative items
// ("now", "today", "tomorrow", "yesterday", "N units [ago]", "+N units",
// "next/last/this UNIT|DAY", weekday names). Missing date parts come from
// now; a date without a time means midnight. loc is the zone of times that
// name none.
func Parse(s string, now time.Time, loc *time.Location) (time.Time, error) {
	p := &parser{s: s, now: now.In(loc), loc: loc}
	if err := p.parse(); err != nil {
		return time.Time{}, err
	}
	return p.result()
}

type parser struct {
	s   string
	i   int
	now time.Time
	loc *time.Location

	haveDate, haveYear, haveTime, haveZone, haveEpoch, haveDow bool
	year, month, day                                           int
	hour, min, sec, nsec                                       int
	zoneOff                                                    int
	epoch                                                      int64
	epochNs                                                    int
	dow, dowOrd                                                int

	relY, relM, relD int
	relNs            int64
	lastRel          func(sign int) // negates the last relative item ("ago")
	justTime         bool           // the previous item was a time of day
}

func (p *parser) eof() bool { return p.i >= len(p.s) }

func (p *parser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.s[p.i]
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func (p *parser) skipSpace() {
	for !p.eof() {
		c := p.s[p.i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == ',':
			p.i++
		case c == '(':
			depth := 0
			for !p.eof() {
				if p.s[p.i] == '(' {
					depth++
				} else if p.s[p.i] == ')' {
					depth--
				}
				p.i++
				if depth == 0 {
					break
				}
			}
		default:
			return
		}
	}
}

// digits reads a run of digits.
func (p *parser) digits() string {
	j := p.i
	for !p.eof() && isDigit(p.s[p.i]) {
		p.i++
	}
	return p.s[j:p.i]
}

func (p *parser) parse() error {
	p.s = strings.TrimSpace(p.s)
	if strings.HasPrefix(p.s, "TZ=\"") {
		end := strings.IndexByte(p.s[4:], '"')
		if end < 0 {
			return ErrInvalid
		}
		p.loc = LoadTZ(p.s[4:4+end], true)
		p.now = p.now.In(p.loc)
		p.i = 5 + end
	}
	for {
		p.skipSpace()
		if p.eof() {
			return nil
		}
		c := p.peek()
		wasTime := p.justTime
		p.justTime = false
		var err error
		switch {
		case c == '@' && p.i == 0 || c == '@' && !p.haveEpoch && p.onlySpaceBefore():
			err = p.epochItem()
		case (c == '+' || c == '-') && wasTime && p.i+1 < len(p.s) && isDigit(p.s[p.i+1]):
			err = p.zoneOffset()
		case c == '+' || c == '-':
			err = p.signedRel()
		case isDigit(c):
			err = p.number()
		case isLetter(c):
			err = p.word()
		default:
			err = ErrInvalid
		}
		if err != nil {
			return err
		}
	}
}

func (p *parser) onlySpaceBefore() bool { return strings.TrimSpace(p.s[:p.i]) == "" }

// epochItem reads @SECONDS[.fraction].
func (p *parser) epochItem() error {
	p.i++
	neg := false
	if c := p.peek(); c == '-' || c == '+' {
		neg = c == '-'
		p.i++
	}
	d := p.digits()
	if d == "" {
		return ErrInvalid
	}
	v, err := strconv.ParseInt(d, 10, 64)
	if err != nil {
		return ErrInvalid
	}
	ns := 0
	if c := p.peek(); c == '.' || c == ',' {
		p.i++
		ns = fracNanos(p.digits())
	}
	if neg {
		v = -v
		if ns > 0 {
			v--
			ns = 1e9 - ns
		}
	}
	p.haveEpoch, p.epoch, p.epochNs = true, v, ns
	return nil
}

// fracNanos turns the digits after a decimal point into nanoseconds.
func fracNanos(d string) int {
	if len(d) > 9 {
		d = d[:9]
	}
	d += strings.Repeat("0", 9-len(d))
	n, _ := strconv.Atoi(d)
	return n
}

// number handles an item starting with a digit.
func (p *parser) number() error {
	start := p.i
	d := p.digits()
	switch c := p.peek(); {
	case c == ':':
		p.i = start
		return p.timeOfDay()
	case c == '-' && p.i+1 < len(p.s) && isDigit(p.s[p.i+1]) && !p.haveDate:
		return p.isoDate(d)
	case c == '-' && p.i+1 < len(p.s) && isLetter(p.s[p.i+1]):
		// 2-Jan-2024
		p.i++
		m, ok := p.monthWord()
		if !ok {
			return ErrInvalid
		}
		day, _ := strconv.Atoi(d)
		if p.peek() == '-' {
			p.i++
		}
		y := p.digits()
		return p.setDate(yearOf(y), m, day, y != "")
	case c == '/':
		return p.usDate(d)
	}
	// Look at the word after the number.
	save := p.i
	p.skipSpace()
	w := p.peekWord()
	if w != "" {
		if m, ok := monthOf(w); ok {
			p.i += len(w)
			day, _ := strconv.Atoi(d)
			p.skipSpace()
			y := ""
			if isDigit(p.peek()) {
				save := p.i
				y = p.digits()
				if p.peek() == ':' {
					p.i, y = save, ""
				}
			}
			return p.setDate(yearOf(y), m, day, y != "")
		}
		if w == "am" || w == "pm" || w == "a.m." || w == "p.m." {
			p.i += len(w)
			h, _ := strconv.Atoi(d)
			return p.setTime(ampm(h, w), 0, 0, 0)
		}
		if u, ok := unitOf(w); ok {
			p.i += len(w)
			n, _ := strconv.ParseInt(d, 10, 64)
			p.addRel(u, n)
			return nil
		}
		if _, ok := dayOf(w); ok {
			n, _ := strconv.Atoi(d)
			p.i += len(w)
			return p.setDow(w, n)
		}
	}
	p.i = save
	switch {
	case len(d) == 8 && !p.haveDate:
		y, _ := strconv.Atoi(d[:4])
		m, _ := strconv.Atoi(d[4:6])
		day, _ := strconv.Atoi(d[6:])
		return p.setDate(y, m, day, true)
	case p.haveDate && !p.haveYear && p.haveTime:
		y, _ := strconv.Atoi(d)
		p.year, p.haveYear = y, true
		return nil
	case !p.haveTime && len(d) <= 4:
		v, _ := strconv.Atoi(d)
		if len(d) <= 2 {
			return p.setTime(v, 0, 0, 0)
		}
		return p.setTime(v/100, v%100, 0, 0)
	}
	return ErrInvalid
}

// peekWord returns the lower-cased word at the cursor without moving.
func (p *parser) peekWord() string {
	j := p.i
	for j < len(p.s) && (isLetter(p.s[j]) || p.s[j] == '.' && j > p.i) {
		j++
	}
	return strings.ToLower(p.s[p.i:j])
}

func yearOf(y string) int {
	if y == "" {
		return -1
	}
	v, _ := strconv.Atoi(y)
	if len(y) <= 2 {
		if v < 69 {
			v += 2000
		} else {
			v += 1900
		}
	}
	return v
}

// isoDate reads Y-M-D (the year already read) and an optional Thh:mm.
func (p *parser) isoDate(y string) error {
	p.i++
	m := p.digits()
	if p.peek() != '-' {
		return ErrInvalid
	}
	p.i++
	d := p.digits()
	if m == "" || d == "" {
		return ErrInvalid
	}
	mm, _ := strconv.Atoi(m)
	dd, _ := strconv.Atoi(d)
	if err := p.setDate(yearOf(y), mm, dd, true); err != nil {
		return err
	}
	if c := p.peek(); (c == 'T' || c == 't') && p.i+1 < len(p.s) && isDigit(p.s[p.i+1]) {
		p.i++
		return p.timeOfDay()
	}
	return nil
}

// usDate reads M/D[/Y].
func (p *parser) usDate(m string) error {
	p.i++
	d := p.digits()
	if d == "" {
		return ErrInvalid
	}
	y := ""
	if p.peek() == '/' {
		p.i++
		if y = p.digits(); y == "" {
			return ErrInvalid
		}
	}
	if len(m) >= 4 && y != "" {
		// YYYY/MM/DD
		m, d, y = d, y, m
	}
	mm, _ := strconv.Atoi(m)
	dd, _ := strconv.Atoi(d)
	return p.setDate(yearOf(y), mm, dd, y != "")
}

// timeOfDay reads HH:MM[:SS[.frac]] [am|pm] [offset|Z].
func (p *parser) timeOfDay() error {
	h, _ := strconv.Atoi(p.digits())
	if p.peek() != ':' {
		return ErrInvalid
	}
	p.i++
	ms := p.digits()
	if ms == "" {
		return ErrInvalid
	}
	m, _ := strconv.Atoi(ms)
	sec, ns := 0, 0
	if p.peek() == ':' {
		p.i++
		ss := p.digits()
		if ss == "" {
			return ErrInvalid
		}
		sec, _ = strconv.Atoi(ss)
		if c := p.peek(); c == '.' || c == ',' {
			p.i++
			ns = fracNanos(p.digits())
		}
	}
	save := p.i
	p.skipSpace()
	if w := p.peekWord(); w == "am" || w == "pm" || w == "a.m." || w == "p.m." {
		p.i += len(w)
		if h < 1 || h > 12 {
			return ErrInvalid
		}
		h = ampm(h, w)
	} else {
		p.i = save
	}
	if err := p.setTime(h, m, sec, ns); err != nil {
		return err
	}
	if c := p.peek(); c == 'Z' || c == 'z' {
		if p.i+1 >= len(p.s) || !isLetter(p.s[p.i+1]) {
			p.i++
			return p.setZone(0)
		}
	}
	p.justTime = true
	return nil
}

func ampm(h int, w string) int {
	h %= 12
	if w[0] == 'p' {
		h += 12
	}
	return h
}

// zoneOffset reads +HH, +HHMM or +HH:MM.
func (p *parser) zoneOffset() error {
	sign := 1
	if p.s[p.i] == '-' {
		sign = -1
	}
	p.i++
	d := p.digits()
	var h, m int
	switch {
	case p.peek() == ':':
		p.i++
		h, _ = strconv.Atoi(d)
		m, _ = strconv.Atoi(p.digits())
	case len(d) <= 2:
		h, _ = strconv.Atoi(d)
	case len(d) <= 4:
		v, _ := strconv.Atoi(d)
		h, m = v/100, v%100
	default:
		return ErrInvalid
	}
	if h > 24 || m > 59 {
		return ErrInvalid
	}
	return p.setZone(sign * (h*3600 + m*60))
}

// signedRel reads "+N unit" or "-N unit".
func (p *parser) signedRel() error {
	sign := int64(1)
	if p.s[p.i] == '-' {
		sign = -1
	}
	p.i++
	p.skipSpace()
	d := p.digits()
	if d == "" {
		return ErrInvalid
	}
	n, _ := strconv.ParseInt(d, 10, 64)
	p.skipSpace()
	w := p.peekWord()
	if u, ok := unitOf(w); ok {
		p.i += len(w)
		p.addRel(u, sign*n)
		return nil
	}
	return ErrInvalid
}

// word handles an item starting with a letter.
func (p *parser) word() error {
	w := p.peekWord()
	p.i += len(w)
	w = strings.TrimSuffix(w, ".")
	if m, ok := monthOf(w); ok {
		p.skipSpace()
		d := p.digits()
		if d == "" {
			return ErrInvalid
		}
		day, _ := strconv.Atoi(d)
		save := p.i
		p.skipSpace()
		y := ""
		if isDigit(p.peek()) {
			j := p.i
			y = p.digits()
			if p.peek() == ':' {
				p.i, y = j, ""
			}
		} else {
			p.i = save
		}
		return p.setDate(yearOf(y), m, day, y != "")
	}
	switch w {
	case "now", "today":
		return nil
	case "tomorrow":
		p.addRel(unit{unitDay, 1}, 1)
		return nil
	case "yesterday":
		p.addRel(unit{unitDay, 1}, -1)
		return nil
	case "ago":
		if p.lastRel == nil {
			return ErrInvalid
		}
		p.lastRel(-1)
		p.lastRel = nil
		return nil
	case "next", "last", "this", "first", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
		"ninth", "tenth", "eleventh", "twelfth":
		n := ordinalOf(w)
		p.skipSpace()
		w2 := p.peekWord()
		if u, ok := unitOf(w2); ok {
			p.i += len(w2)
			p.addRel(u, int64(n))
			return nil
		}
		if _, ok := dayOf(w2); ok {
			p.i += len(w2)
			return p.setDow(w2, n)
		}
		return ErrInvalid
	}
	if _, ok := dayOf(w); ok {
		return p.setDow(w, 0)
	}
	if u, ok := unitOf(w); ok {
		p.addRel(u, 1)
		return nil
	}
	if off, ok := zoneOf(w); ok {
		if c := p.peek(); (c == '+' || c == '-') && p.i+1 < len(p.s) && isDigit(p.s[p.i+1]) {
			if err := p.zoneOffset(); err != nil {
				return err
			}
			p.zoneOff += off
			return nil
		}
		return p.setZone(off)
	}
	return ErrInvalid
}

func (p *parser) monthWord() (int, bool) {
	w := p.peekWord()
	m, ok := monthOf(w)
	if ok {
		p.i += len(w)
	}
	return m, ok
}

func (p *parser) setDate(y, m, d int, haveYear bool) error {
	if p.haveDate {
		return ErrInvalid
	}
	p.haveDate, p.month, p.day = true, m, d
	if haveYear {
		p.year, p.haveYear = y, true
	}
	return nil
}

func (p *parser) setTime(h, m, s, ns int) error {
	if p.haveTime || h > 24 || m > 59 || s > 59 || h == 24 && (m > 0 || s > 0) {
		return ErrInvalid
	}
	p.haveTime, p.hour, p.min, p.sec, p.nsec = true, h, m, s, ns
	return nil
}

func (p *parser) setZone(off int) error {
	if p.haveZone {
		return ErrInvalid
	}
	p.haveZone, p.zoneOff = true, off
	return nil
}

func (p *parser) setDow(w string, ord int) error {
	d, _ := dayOf(w)
	if p.haveDow {
		return ErrInvalid
	}
	p.haveDow, p.dow, p.dowOrd = true, d, ord
	return nil
}

// Relative units.
const (
	unitYear = iota
	unitMonth
	unitDay
	unitHour
	unitMinute
	unitSecond
)

type unit struct {
	kind int
	mult int64
}

func unitOf(w string) (unit, bool) {
	w = strings.TrimSuffix(w, "s")
	switch w {
	case "year":
		return unit{unitYear, 1}, true
	case "month":
		return unit{unitMonth, 1}, true
	case "fortnight":
		return unit{unitDay, 14}, true
	case "week":
		return unit{unitDay, 7}, true
	case "day":
		return unit{unitDay, 1}, true
	case "hour":
		return unit{unitHour, 1}, true
	case "minute", "min":
		return unit{unitMinute, 1}, true
	case "second", "sec":
		return unit{unitSecond, 1}, true
	}
	return unit{}, false
}

func (p *parser) addRel(u unit, n int64) {
	apply := func(sign int) {
		v := n * u.mult * int64(sign)
		switch u.kind {
		case unitYear:
			p.relY += int(v)
		case unitMonth:
			p.relM += int(v)
		case unitDay:
			p.relD += int(v)
		case unitHour:
			p.relNs += v * int64(time.Hour)
		case unitMinute:
			p.relNs += v * int64(time.Minute)
		case unitSecond:
			p.relNs += v * int64(time.Second)
		}
	}
	apply(1)
	// "ago" undoes the item and applies it negated.
	p.lastRel = func(int) { apply(-2) }
}

func ordinalOf(w string) int {
	switch w {
	case "last":
		return -1
	case "this":
		return 0
	case "next", "first":
		return 1
	}
	for i, o := range []string{"third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth"} {
		if w == o {
			return i + 3
		}
	}
	return 0
}

func monthOf(w string) (int, bool) {
	w = strings.TrimSuffix(w, ".")
	if w == "sept" {
		return 9, true
	}
	for i, m := range monthNames {
		lm := strings.ToLower(m)
		if w == lm || len(w) == 3 && w == lm[:3] {
			return i + 1, true
		}
	}
	return 0, false
}

func dayOf(w string) (int, bool) {
	w = strings.TrimSuffix(w, ".")
	switch w {
	case "tues":
		return 2, true
	case "wednes":
		return 3, true
	case "thur", "thurs":
		return 4, true
	}
	for i, d := range dayNames {
		ld := strings.ToLower(d)
		if w == ld || len(w) == 3 && w == ld[:3] {
			return i, true
		}
	}
	return 0, false
}

// zoneOf knows the zone abbreviations GNU's parser accepts most often.
func zoneOf(w string) (int, bool) {
	zones := map[string]int{"utc": 0, "ut": 0, "gmt": 0, "z": 0, "wet": 0, "west": 1, "bst": 1,
		"cet": 1, "cest": 2, "met": 1, "mest": 2, "eet": 2, "eest": 3, "msk": 3, "ist": 0,
		"jst": 9, "hst": -10, "akst": -9, "akdt": -8, "pst": -8, "pdt": -7, "mst": -7, "mdt": -6,
		"cst": -6, "cdt": -5, "est": -5, "edt": -4, "ast": -4, "adt": -3, "nzst": 12, "nzdt": 13,
		"aest": 10, "aedt": 11}
	h, ok := zones[w]
	if w == "ist" {
		return 5*3600 + 1800, true
	}
	return h * 3600, ok
}

// result combines the parsed items into a time.
func (p *parser) result() (time.Time, error) {
	var t time.Time
	if p.haveEpoch {
		// GNU accepts @SECONDS only on its own.
		if p.haveDate || p.haveTime || p.haveDow || p.haveZone || p.relY != 0 || p.relM != 0 || p.relD != 0 || p.relNs != 0 {
			return time.Time{}, ErrInvalid
		}
		t = time.Unix(p.epoch, int64(p.epochNs)).In(p.loc)
	} else {
		y, m, d := p.now.Date()
		if p.haveDate {
			m, d = time.Month(p.month), p.day
			if p.haveYear {
				y = p.year
			}
			if p.month < 1 || p.month > 12 || p.day < 1 || p.day > daysIn(time.Month(p.month), y) {
				return time.Time{}, ErrInvalid
			}
		}
		h, mi, s, ns := p.now.Hour(), p.now.Minute(), p.now.Second(), p.now.Nanosecond()
		switch {
		case p.haveTime:
			h, mi, s, ns = p.hour, p.min, p.sec, p.nsec
		case p.haveDate || p.haveDow || p.s == "":
			h, mi, s, ns = 0, 0, 0, 0
		}
		loc := p.loc
		if p.haveZone {
			loc = time.FixedZone("", p.zoneOff)
		}
		t = time.Date(y, m, d, h, mi, s, ns, loc)
		if p.haveDow && !p.haveDate {
			wd := int(t.Weekday())
			days := (p.dow-wd+7)%7 + 7*(p.dowOrd-boolInt(p.dowOrd > 0 && wd != p.dow))
			t = t.AddDate(0, 0, days)
		}
		t = t.In(p.loc)
	}
	t = t.AddDate(p.relY, p.relM, p.relD)
	return t.Add(time.Duration(p.relNs)), nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func daysIn(m time.Month, y int) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}
