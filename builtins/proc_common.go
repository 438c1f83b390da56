package builtins

import (
	"errors"
	"slices"
	"strconv"
	"strings"
)

// maxPID bounds the process ids ps, pgrep and pkill accept (Linux's
// largest pid_max).
const maxPID = 1 << 22

// procIDList parses a list of ids separated by commas or blanks.
func procIDList(s string) ([]int, error) {
	var ids []int
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 || n > maxPID {
			return nil, errors.New("invalid id " + strconv.Quote(f))
		}
		ids = append(ids, n)
	}
	if len(ids) == 0 {
		return nil, errors.New("empty list")
	}
	return ids, nil
}

// procSelect picks processes: one that matches any of its lists (as in
// ps), or every process when all are empty.
type procSelect struct {
	pids, ppids, pgids, sids []int
	names                    []string
}

func (s procSelect) empty() bool {
	return len(s.pids)+len(s.ppids)+len(s.pgids)+len(s.sids)+len(s.names) == 0
}

func (s procSelect) match(p Process) bool {
	if s.empty() {
		return true
	}
	return slices.Contains(s.pids, p.PID) || slices.Contains(s.ppids, p.PPID) ||
		slices.Contains(s.pgids, p.PGID) || slices.Contains(s.sids, p.SID) || slices.Contains(s.names, p.Comm)
}
