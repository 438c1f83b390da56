// Package fileutil holds the pure helpers of sandsh's file commands: mode
// strings and mode specs, GNU size and time formats, and GNU's quoting of
// file names in diagnostics. Nothing here touches a filesystem.
package fileutil

import (
	"errors"
	"fmt"
	"io/fs"
	"math/bits"
	"strconv"
	"strings"
	"syscall"

	"github.com/sandsh/sandsh/vfs"
)

// UnixMode converts a Go file mode to the st_mode permission and
// special bits; see vfs.UnixMode.
func UnixMode(m fs.FileMode) uint32 { return vfs.UnixMode(m) }

// GoMode converts st_mode permission and special bits to a Go mode.
func GoMode(u uint32) fs.FileMode { return vfs.GoMode(u) }

// TypeChar is the first letter of an ls -l mode string.
func TypeChar(m fs.FileMode) byte {
	switch {
	case m&fs.ModeDir != 0:
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
	}
	return '-'
}

// ModeString renders a mode like ls -l: "drwxr-sr-t".
func ModeString(m fs.FileMode) string {
	b := []byte("----------")
	b[0] = TypeChar(m)
	const rwx = "rwxrwxrwx"
	for i := 0; i < 9; i++ {
		if m&(1<<uint(8-i)) != 0 {
			b[i+1] = rwx[i]
		}
	}
	special := func(pos int, set bool, lower, upper byte) {
		if !set {
			return
		}
		if b[pos] == 'x' {
			b[pos] = lower
		} else {
			b[pos] = upper
		}
	}
	special(3, m&fs.ModeSetuid != 0, 's', 'S')
	special(6, m&fs.ModeSetgid != 0, 's', 'S')
	special(9, m&fs.ModeSticky != 0, 't', 'T')
	return string(b)
}

// Human renders n bytes like GNU's -h: at most three significant
// digits with a unit, always rounding up ("1.1K", "12M", "1023").
func Human(n int64, si bool) string {
	base := uint64(1024)
	units := "KMGTPEZY"
	if si {
		base = 1000
		units = "kMGTPEZY"
	}
	if n < 0 {
		return "-" + Human(-n, si)
	}
	u := uint64(n)
	if u < base {
		return strconv.FormatUint(u, 10)
	}
	e, p := 0, base
	for e+1 < len(units) && u/p >= base {
		p *= base
		e++
	}
	// tenths = ceil(u*10/p) computed without overflow.
	hi, lo := bits.Mul64(u, 10)
	q, r := bits.Div64(hi, lo, p)
	if r != 0 {
		q++
	}
	if q < 100 {
		return fmt.Sprintf("%d.%d%c", q/10, q%10, units[e])
	}
	whole := (q + 9) / 10
	if whole >= base && e+1 < len(units) {
		return fmt.Sprintf("1.0%c", units[e+1])
	}
	return fmt.Sprintf("%d%c", whole, units[e])
}

// ParseSize parses a GNU size such as "10", "4K", "1MiB", "2MB",
// "1.5G" is not allowed. suffixes: K M G T P E (x1024), KB MB ... (x1000),
// b (x512), KiB... (x1024).
func ParseSize(s string) (int64, error) {
	if s == "" {
		return 0, errors.New("empty size")
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	num, suf := s[:i], s[i:]
	n := int64(1)
	if num != "" {
		v, err := strconv.ParseInt(num, 10, 64)
		if err != nil {
			return 0, err
		}
		n = v
	} else if suf == "" {
		return 0, errors.New("invalid size")
	}
	mult, ok := SizeSuffix(suf)
	if !ok {
		return 0, fmt.Errorf("invalid suffix %q", suf)
	}
	hi, lo := bits.Mul64(uint64(n), uint64(mult))
	if hi != 0 || lo > 1<<63-1 {
		return 0, syscall.ERANGE
	}
	return int64(lo), nil
}

// SizeSuffix is the multiplier of a GNU size suffix.
func SizeSuffix(suf string) (int64, bool) {
	if suf == "" {
		return 1, true
	}
	if suf == "b" {
		return 512, true
	}
	if suf == "c" || suf == "w" {
		if suf == "w" {
			return 2, true
		}
		return 1, true
	}
	idx := strings.IndexByte("KMGTPEZY", suf[0])
	if suf[0] == 'k' {
		idx = 0
	}
	if idx < 0 {
		return 0, false
	}
	base := int64(1024)
	switch suf[1:] {
	case "", "iB":
	case "B":
		base = 1000
	default:
		return 0, false
	}
	m := int64(1)
	for j := 0; j <= idx; j++ {
		if m > (1<<63-1)/base {
			return 1<<63 - 1, true
		}
		m *= base
	}
	return m, true
}

// Quote quotes a file name for a diagnostic the way GNU's quote()
// does in the C locale: always in shell quotes ('a b', "it's").
func Quote(s string) string { return shellQuote(s, true) }

// QuoteIf quotes a file name only when it needs it, like quotef()
// in "cat: name: error" messages.
func QuoteIf(s string) string { return shellQuote(s, false) }

func shellQuote(s string, always bool) string {
	needs, ctrl, squote := s == "", false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 0x20 || c >= 0x7f:
			needs, ctrl = true, true
		case c == '\'':
			needs, squote = true, true
		case strings.IndexByte(" !\"$&()*;<=>?[\\^`|:", c) >= 0:
			needs = true
		case (c == '#' || c == '~') && i == 0:
			needs = true
		case (c == '{' || c == '}') && len(s) == 1:
			needs = true
		}
	}
	if !needs && !always {
		return s
	}
	if !ctrl {
		if !squote {
			return "'" + s + "'"
		}
		if !strings.ContainsAny(s, "$`\"\\!") {
			return `"` + s + `"`
		}
	}
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			b.WriteString(`'\''`)
		case c < 0x20 || c >= 0x7f:
			b.WriteString("'$'")
			for ; i < len(s) && (s[i] < 0x20 || s[i] >= 0x7f); i++ {
				b.WriteString(cEscape(s[i]))
			}
			i--
			b.WriteString("''")
			continue
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	out := b.String()
	// A name ending in a control run leaves an empty '' pair behind.
	return strings.TrimSuffix(out, "''")
}

// cEscape is the $'...' escape of one byte.
func cEscape(c byte) string {
	switch c {
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\v':
		return `\v`
	case 0x1b:
		return `\E`
	}
	return fmt.Sprintf(`\%03o`, c)
}

// Mode is a compiled chmod mode: an octal number or symbolic clauses
// such as "u+x,go-w,a=r,+X".
type Mode struct {
	changes []modeChange
	// NoWho reports that some clause named no u/g/o/a, so the umask
	// limits it and chmod warns when the result surprises.
	NoWho bool
	// Octal reports a numeric mode.
	Octal bool
}

type modeChange struct {
	op        byte // '=', '+', '-'
	flag      byte // 0 ordinary, 'c' copy existing, 'X' exec if any exec
	affected  uint32
	value     uint32
	mentioned uint32
}

// The st_mode bits chmod can change.
const chmodBits = 0o7777

// ParseMode compiles a chmod/mkdir -m/find -perm mode string the way
// gnulib's mode_compile does.
func ParseMode(s string) (*Mode, error) {
	if s == "" {
		return nil, errors.New("invalid mode")
	}
	if s[0] >= '0' && s[0] <= '7' {
		return parseOctalMode(s)
	}
	m := &Mode{}
	for _, clause := range strings.Split(s, ",") {
		if err := m.parseClause(clause); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func parseOctalMode(s string) (*Mode, error) {
	var v uint32
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '7' {
			return nil, errors.New("invalid mode")
		}
		v = v*8 + uint32(c-'0')
		if v > chmodBits {
			return nil, errors.New("invalid mode")
		}
	}
	mentioned := uint32(chmodBits)
	if len(s) < 5 {
		mentioned = v&0o6000 | 0o1777
	}
	return &Mode{Octal: true, changes: []modeChange{{op: '=', affected: chmodBits, value: v, mentioned: mentioned}}}, nil
}

func (m *Mode) parseClause(c string) error {
	var who uint32
	i := 0
	for ; i < len(c); i++ {
		switch c[i] {
		case 'u':
			who |= 0o4700
		case 'g':
			who |= 0o2070
		case 'o':
			who |= 0o1007
		case 'a':
			who |= chmodBits
		default:
			goto ops
		}
	}
ops:
	if i == len(c) {
		return errors.New("invalid mode")
	}
	if who == 0 {
		m.NoWho = true
	}
	for i < len(c) {
		op := c[i]
		if op != '+' && op != '-' && op != '=' {
			return errors.New("invalid mode")
		}
		i++
		ch := modeChange{op: op, affected: who}
		// A digit list after an operator ("u=7") is not GNU syntax for
		// symbolic modes, but "+0755"-style octal is accepted.
		if i < len(c) && c[i] >= '0' && c[i] <= '7' {
			j := i
			var v uint32
			for j < len(c) && c[j] >= '0' && c[j] <= '7' {
				v = v*8 + uint32(c[j]-'0')
				j++
			}
			if who != 0 || v > chmodBits {
				return errors.New("invalid mode")
			}
			ch.affected, ch.value, ch.mentioned = chmodBits, v, chmodBits
			m.changes = append(m.changes, ch)
			i = j
			continue
		}
	perms:
		for ; i < len(c); i++ {
			switch c[i] {
			case 'r':
				ch.value |= 0o444
			case 'w':
				ch.value |= 0o222
			case 'x':
				ch.value |= 0o111
			case 'X':
				ch.flag = 'X'
			case 's':
				ch.value |= 0o6000
			case 't':
				ch.value |= 0o1000
			case 'u', 'g', 'o':
				if ch.value != 0 || ch.flag != 0 {
					return errors.New("invalid mode")
				}
				ch.flag = 'c'
				ch.value = map[byte]uint32{'u': 0o700, 'g': 0o070, 'o': 0o007}[c[i]]
				i++
				break perms
			default:
				break perms
			}
		}
		if who != 0 {
			ch.mentioned = who & ch.value
		} else {
			ch.mentioned = ch.value
		}
		if ch.flag == 'X' || ch.flag == 'c' {
			ch.mentioned |= who
		}
		m.changes = append(m.changes, ch)
	}
	return nil
}

// Apply returns the st_mode bits old becomes under m; dir says whether
// the file is a directory (for X and kept set-id bits) and umask limits
// clauses that name no class.
func (m *Mode) Apply(old uint32, dir bool, umask uint32) uint32 {
	mode := old & chmodBits
	for _, ch := range m.changes {
		var omit uint32
		if dir {
			omit = 0o6000 &^ ch.mentioned
		}
		value := ch.value
		switch ch.flag {
		case 'c':
			value &= mode
			var spread uint32
			if value&0o444 != 0 {
				spread |= 0o444
			}
			if value&0o222 != 0 {
				spread |= 0o222
			}
			if value&0o111 != 0 {
				spread |= 0o111
			}
			value |= spread
		case 'X':
			if mode&0o111 != 0 || dir {
				value |= 0o111
			}
		}
		limit := ^umask
		if ch.affected != 0 {
			limit = ch.affected
		}
		value &= limit &^ omit
		switch ch.op {
		case '=':
			preserved := omit
			if ch.affected != 0 {
				preserved |= ^ch.affected
			}
			mode = mode&preserved | value
		case '+':
			mode |= value
		case '-':
			mode &^= value
		}
	}
	return mode & chmodBits
}

// PermString is the 9-letter rwx form of st_mode bits (with s/S/t/T).
func PermString(u uint32) string { return ModeString(GoMode(u))[1:] }

// DirSize is the size reported for directories, as on ext4.
const DirSize = 4096

// Size is the st_size of fi: directories report DirSize.
func Size(fi fs.FileInfo) int64 {
	if fi.IsDir() {
		return DirSize
	}
	return fi.Size()
}

// Blocks is the st_blocks (512-byte units) of fi, allocated in 4 KiB
// chunks like a typical disk filesystem.
func Blocks(fi fs.FileInfo) int64 {
	switch {
	case fi.IsDir():
		return DirSize / 512
	case !fi.Mode().IsRegular():
		return 0
	}
	return (fi.Size() + 4095) / 4096 * 8
}

// Match reports whether name matches the shell pattern pattern, as
// fnmatch(3) without FNM_PATHNAME or FNM_PERIOD: '*' and '?' match any
// byte including '/', brackets take '!' or '^' negation, ranges and
// [:classes:], and a backslash quotes the next byte.
func Match(pattern, name string, fold bool) bool {
	if fold {
		pattern, name = strings.ToLower(pattern), strings.ToLower(name)
	}
	return match(pattern, name)
}

func match(p, s string) bool {
	// Iterative matching with one backtrack point for the last '*'.
	var starP, starS = -1, -1
	i, j := 0, 0
	for j < len(s) {
		if i < len(p) {
			switch p[i] {
			case '*':
				for i < len(p) && p[i] == '*' {
					i++
				}
				starP, starS = i, j
				continue
			case '?':
				i++
				j++
				continue
			case '[':
				if ok, n, valid := matchBracket(p[i:], s[j]); valid {
					if ok {
						i += n
						j++
						continue
					}
				} else if s[j] == '[' {
					i++
					j++
					continue
				}
			case '\\':
				if i+1 < len(p) && p[i+1] == s[j] {
					i += 2
					j++
					continue
				}
				if i+1 == len(p) && s[j] == '\\' {
					i++
					j++
					continue
				}
			default:
				if p[i] == s[j] {
					i++
					j++
					continue
				}
			}
		}
		if starP < 0 {
			return false
		}
		starS++
		i, j = starP, starS
	}
	for i < len(p) && p[i] == '*' {
		i++
	}
	return i == len(p)
}

// matchBracket matches c against the bracket expression at the start of
// p; n is the expression's length and valid false when it is unclosed.
func matchBracket(p string, c byte) (ok bool, n int, valid bool) {
	i := 1
	neg := false
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		neg = true
		i++
	}
	matched := false
	first := true
	for i < len(p) {
		if p[i] == ']' && !first {
			return matched != neg, i + 1, true
		}
		first = false
		if p[i] == '[' && i+1 < len(p) && p[i+1] == ':' {
			if end := strings.Index(p[i+2:], ":]"); end >= 0 {
				if classMatch(p[i+2:i+2+end], c) {
					matched = true
				}
				i += end + 4
				continue
			}
		}
		lo := p[i]
		if lo == '\\' && i+1 < len(p) {
			i++
			lo = p[i]
		}
		i++
		hi := lo
		if i+1 < len(p) && p[i] == '-' && p[i+1] != ']' {
			hi = p[i+1]
			if hi == '\\' && i+2 < len(p) {
				hi = p[i+2]
				i++
			}
			i += 2
		}
		if lo <= c && c <= hi {
			matched = true
		}
	}
	return false, 0, false
}

func classMatch(class string, c byte) bool {
	switch class {
	case "alpha":
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	case "digit":
		return c >= '0' && c <= '9'
	case "alnum":
		return classMatch("alpha", c) || classMatch("digit", c)
	case "upper":
		return c >= 'A' && c <= 'Z'
	case "lower":
		return c >= 'a' && c <= 'z'
	case "space":
		return c == ' ' || c >= '\t' && c <= '\r'
	case "blank":
		return c == ' ' || c == '\t'
	case "punct":
		return c > ' ' && c < 0x7f && !classMatch("alnum", c)
	case "print":
		return c >= ' ' && c < 0x7f
	case "graph":
		return c > ' ' && c < 0x7f
	case "cntrl":
		return c < ' ' || c == 0x7f
	case "xdigit":
		return classMatch("digit", c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
	}
	return false
}
