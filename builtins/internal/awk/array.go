package awk

// array is an awk associative array. It remembers insertion order so that
// for-in loops are deterministic from run to run (real awks iterate in
// hash order, which scripts cannot rely on anyway).
type array struct {
	idx  map[string]int32
	ents []entry
	dead int
}

type entry struct {
	key  string
	v    value
	live bool
}

func newArray() *array { return &array{idx: make(map[string]int32)} }

func (a *array) len() int { return len(a.idx) }

// get returns the element, creating it as uninitialized if missing, as a
// reference to a[k] does in awk.
func (a *array) get(k string) value {
	if i, ok := a.idx[k]; ok {
		return a.ents[i].v
	}
	a.set(k, value{})
	return value{}
}

// lookup returns the element without creating it.
func (a *array) lookup(k string) (value, bool) {
	if i, ok := a.idx[k]; ok {
		return a.ents[i].v, true
	}
	return value{}, false
}

func (a *array) set(k string, v value) {
	if i, ok := a.idx[k]; ok {
		a.ents[i].v = v
		return
	}
	a.idx[k] = int32(len(a.ents))
	a.ents = append(a.ents, entry{key: k, v: v, live: true})
}

// ref returns a pointer to the element, creating it; valid until the next
// insertion.
func (a *array) ref(k string) *value {
	i, ok := a.idx[k]
	if !ok {
		i = int32(len(a.ents))
		a.idx[k] = i
		a.ents = append(a.ents, entry{key: k, live: true})
	}
	return &a.ents[i].v
}

func (a *array) delete(k string) {
	i, ok := a.idx[k]
	if !ok {
		return
	}
	delete(a.idx, k)
	a.ents[i] = entry{}
	a.dead++
	if a.dead > 32 && a.dead > len(a.ents)/2 {
		a.compact()
	}
}

func (a *array) clear() {
	clear(a.idx)
	a.ents = a.ents[:0]
	a.dead = 0
}

func (a *array) compact() {
	n := 0
	for _, e := range a.ents {
		if e.live {
			a.idx[e.key] = int32(n)
			a.ents[n] = e
			n++
		}
	}
	clear(a.ents[n:])
	a.ents = a.ents[:n]
	a.dead = 0
}

// keys returns the live keys in insertion order: the snapshot a for-in
// loop walks.
func (a *array) keys() []string {
	ks := make([]string, 0, len(a.idx))
	for _, e := range a.ents {
		if e.live {
			ks = append(ks, e.key)
		}
	}
	return ks
}
