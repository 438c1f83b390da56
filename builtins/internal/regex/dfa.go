package regex

import (
	"regexp/syntax"
	"sync"
	"unicode/utf8"
)

// A lazy DFA answers "where does the first match end" in one pass over
// the input, a few nanoseconds per byte, building its states from Go's
// compiled program as the input needs them. grep uses it to find matching
// lines in big buffers, where Go's regexp (an NFA simulation on large
// input) is tens of times slower. It cannot report where a match starts
// or its groups; the engines do that on the one line found.
type dfa struct {
	prog *syntax.Prog

	mu     sync.Mutex
	states map[string]*dstate
	start  *dstate

	// scratch for computing transitions
	queue, next sparseSet
	key         []byte
}

// dstate is a set of NFA threads (the instructions about to consume a
// rune) plus what is known about the previous rune, which decides the
// empty-width assertions (^ $ \b \B) at the next position.
type dstate struct {
	pcs   []uint32
	flags uint8
	// matchBefore: a match ended just before the rune that led here.
	matchBefore bool
	ascii       [utf8.RuneSelf]*dstate
	other       map[rune]*dstate
}

const (
	flagPrevNewline = 1 << iota // previous rune was '\n', or at the start
	flagPrevWord                // previous rune was a word character
	flagAtStart                 // at the start of the text
)

// maxDFAStates bounds the cache; past it the cache is dropped and rebuilt.
const maxDFAStates = 2000

// maxDFAResets is how often one search may drop its cache before giving
// up, as the expression then blows up into too many states.
const maxDFAResets = 4

func newDFA(src string) *dfa {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return nil
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil
	}
	d := &dfa{prog: prog}
	d.queue = newSparseSet(len(prog.Inst))
	d.next = newSparseSet(len(prog.Inst))
	d.reset()
	return d
}

func (d *dfa) reset() {
	d.states = make(map[string]*dstate)
	d.start = d.state(nil, flagPrevNewline|flagAtStart, false)
}

// state returns the cached state for the given threads and flags.
func (d *dfa) state(pcs []uint32, flags uint8, matchBefore bool) *dstate {
	k := append(d.key[:0], flags)
	if matchBefore {
		k = append(k, 1)
	} else {
		k = append(k, 0)
	}
	for _, pc := range pcs {
		k = append(k, byte(pc), byte(pc>>8), byte(pc>>16), byte(pc>>24))
	}
	d.key = k
	if s, ok := d.states[string(k)]; ok {
		return s
	}
	s := &dstate{pcs: append([]uint32(nil), pcs...), flags: flags, matchBefore: matchBefore}
	d.states[string(k)] = s
	return s
}

func isWordRune(r rune) bool {
	return r < utf8.RuneSelf && (isAlnum(byte(r)) || r == '_')
}

// emptyBetween returns the empty-width conditions that hold between the
// previous rune (described by flags) and r (-1 at the end of the text).
func emptyBetween(flags uint8, r rune) syntax.EmptyOp {
	var op syntax.EmptyOp
	if flags&flagPrevNewline != 0 {
		op |= syntax.EmptyBeginLine
	}
	if flags&flagAtStart != 0 {
		op |= syntax.EmptyBeginText
	}
	if r == '\n' {
		op |= syntax.EmptyEndLine
	}
	if r < 0 {
		op |= syntax.EmptyEndLine | syntax.EmptyEndText
	}
	if (flags&flagPrevWord != 0) != isWordRune(r) {
		op |= syntax.EmptyWordBoundary
	} else {
		op |= syntax.EmptyNoWordBoundary
	}
	return op
}

// closure follows the non-consuming instructions from s's threads and the
// unanchored start under the conditions op, into d.queue. It reports
// whether a match state was reached.
func (d *dfa) closure(s *dstate, op syntax.EmptyOp) bool {
	d.queue.clear()
	matched := false
	stack := make([]uint32, 0, 16)
	stack = append(stack, s.pcs...)
	stack = append(stack, uint32(d.prog.Start))
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if d.queue.has(pc) {
			continue
		}
		d.queue.add(pc)
		inst := &d.prog.Inst[pc]
		switch inst.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			stack = append(stack, inst.Arg, inst.Out)
		case syntax.InstCapture, syntax.InstNop:
			stack = append(stack, inst.Out)
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(inst.Arg)&^op == 0 {
				stack = append(stack, inst.Out)
			}
		case syntax.InstMatch:
			matched = true
		}
	}
	return matched
}

// step computes the state after s reads r.
func (d *dfa) step(s *dstate, r rune) *dstate {
	matched := d.closure(s, emptyBetween(s.flags, r))
	d.next.clear()
	for _, pc := range d.queue.dense {
		inst := &d.prog.Inst[pc]
		switch inst.Op {
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			if inst.MatchRune(r) {
				d.next.add(inst.Out)
			}
		}
	}
	var flags uint8
	if r == '\n' {
		flags |= flagPrevNewline
	}
	if isWordRune(r) {
		flags |= flagPrevWord
	}
	pcs := sortedPCs(d.next.dense)
	return d.state(pcs, flags, matched)
}

func sortedPCs(pcs []uint32) []uint32 {
	// Insertion sort: sets are small, and order must be canonical for
	// the cache key.
	for i := 1; i < len(pcs); i++ {
		for j := i; j > 0 && pcs[j] < pcs[j-1]; j-- {
			pcs[j], pcs[j-1] = pcs[j-1], pcs[j]
		}
	}
	return pcs
}

// find returns the offset where the first match in b ends (the leftmost
// match end), or -1. ok is false when the expression has too many states
// for the DFA; the caller must then use another engine.
func (d *dfa) find(b []byte) (end int, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	resets := 0
	s := d.start
	i := 0
	for {
		// The hot loop: ASCII input through cached transitions.
		for i < len(b) {
			c := b[i]
			if c >= utf8.RuneSelf {
				break
			}
			ns := s.ascii[c]
			if ns == nil {
				break
			}
			if ns.matchBefore {
				return i, true
			}
			s = ns
			i++
		}
		if i >= len(b) {
			break
		}
		// A transition not built yet, or a multi-byte rune.
		c := b[i]
		r, w := rune(c), 1
		var ns *dstate
		if c < utf8.RuneSelf {
			ns = d.step(s, r)
			s.ascii[c] = ns
		} else {
			r, w = utf8.DecodeRune(b[i:])
			ns = s.other[r]
			if ns == nil {
				ns = d.step(s, r)
				if s.other == nil {
					s.other = make(map[rune]*dstate)
				}
				s.other[r] = ns
			}
		}
		if ns.matchBefore {
			return i, true
		}
		s = ns
		i += w
		if len(d.states) > maxDFAStates {
			if resets++; resets > maxDFAResets {
				return 0, false
			}
			// Rebuild from scratch, keeping the current state.
			pcs, flags := s.pcs, s.flags
			d.reset()
			s = d.state(pcs, flags, false)
		}
	}
	if d.closure(s, emptyBetween(s.flags, -1)) {
		return len(b), true
	}
	return -1, true
}

// sparseSet is a set of small integers with O(1) clear (Briggs-Torczon).
type sparseSet struct {
	sparse []uint32
	dense  []uint32
}

func newSparseSet(n int) sparseSet {
	return sparseSet{sparse: make([]uint32, n), dense: make([]uint32, 0, n)}
}

func (s *sparseSet) has(x uint32) bool {
	i := s.sparse[x]
	return int(i) < len(s.dense) && s.dense[i] == x
}

func (s *sparseSet) add(x uint32) {
	s.sparse[x] = uint32(len(s.dense))
	s.dense = append(s.dense, x)
}

func (s *sparseSet) clear() { s.dense = s.dense[:0] }
