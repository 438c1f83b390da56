package sort

// VersionCompare is gnulib's filenvercmp, the ordering of sort -V and
// ls -v: Debian-style version comparison with file suffixes handled first.
func VersionCompare(a, b []byte) int {
	if len(a) == 0 {
		return -b2i(len(b) != 0)
	}
	if len(b) == 0 {
		return 1
	}
	// "." sorts first, then "..", then other dot files, then the rest.
	if a[0] == '.' {
		if b[0] != '.' {
			return -1
		}
		adot, bdot := len(a) == 1, len(b) == 1
		if adot {
			return -b2i(!bdot)
		}
		if bdot {
			return 1
		}
		adotdot := a[1] == '.' && len(a) == 2
		bdotdot := b[1] == '.' && len(b) == 2
		if adotdot {
			return -b2i(!bdotdot)
		}
		if bdotdot {
			return 1
		}
	} else if b[0] == '.' {
		return 1
	}
	ap, bp := filePrefixLen(a), filePrefixLen(b)
	onePass := ap == len(a) && bp == len(b)
	r := verrevcmp(a[:ap], b[:bp])
	if r != 0 || onePass {
		return r
	}
	return verrevcmp(a, b)
}

// filePrefixLen returns the length of s without its longest suffix
// matching (\.[A-Za-z~][A-Za-z0-9~]*)*$. As in coreutils 9.1 the suffix may
// be all of s (".hidden" has an empty prefix).
func filePrefixLen(s []byte) int {
	n := len(s)
	prefix := 0
	for i := 0; ; {
		for i+1 < n && s[i] == '.' && (isAlpha(s[i+1]) || s[i+1] == '~') {
			for i += 2; i < n && (isAlnum(s[i]) || s[i] == '~'); i++ {
			}
		}
		if i >= n {
			return prefix
		}
		i++
		prefix = i
	}
}

func isAlpha(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

// order ranks one byte for verrevcmp: end of string and '~' sort before
// everything, letters before other bytes.
func order(s []byte, pos int) int {
	if pos == len(s) {
		return -1
	}
	c := s[pos]
	switch {
	case isDigit(c):
		return 0
	case isAlpha(c):
		return int(c)
	case c == '~':
		return -2
	}
	return int(c) + 256
}

func verrevcmp(a, b []byte) int {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		firstDiff := 0
		for (i < len(a) && !isDigit(a[i])) || (j < len(b) && !isDigit(b[j])) {
			ac, bc := order(a, i), order(b, j)
			if ac != bc {
				return ac - bc
			}
			i++
			j++
		}
		for i < len(a) && a[i] == '0' {
			i++
		}
		for j < len(b) && b[j] == '0' {
			j++
		}
		for i < len(a) && j < len(b) && isDigit(a[i]) && isDigit(b[j]) {
			if firstDiff == 0 {
				firstDiff = int(a[i]) - int(b[j])
			}
			i++
			j++
		}
		if i < len(a) && isDigit(a[i]) {
			return 1
		}
		if j < len(b) && isDigit(b[j]) {
			return -1
		}
		if firstDiff != 0 {
			return firstDiff
		}
	}
	return 0
}
