package awk

// array is an awk associative array. It remembers insertion order so that
// for-in loops are deterministic from run to run (real awks iterate in
// hash order, which scripts cannot rely on anyway).
//
// Arrays whose keys are exactly "1".."n" in order (what split, asort and
// a[NR] = $0 make) are kept as a plain slice until some other key shows up;
// that saves hashing on the commonest arrays.
type array struct {
	dense []value // elements "1".."len(dense)" while isDense
	idx   map[string]int32
	ents  []entry
	dead  int
	hash  bool // the map form is in use
}

type entry struct {
	key  string
	v    value
	live bool
}

func newArray() *array { return &array{} }

// denseIndex returns i if k is the canonical decimal form of i >= 1.
func denseIndex(k string) (int, bool) {
	if len(k) == 0 || len(k) > 9 || k[0] < '1' || k[0] > '9' {
		return 0, false
	}
	n := 0
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// toHash moves the dense elements into the map form.
func (a *array) toHash() {
	a.hash = true
	a.idx = make(map[string]int32, len(a.dense))
	a.ents = make([]entry, 0, len(a.dense))
	for i, v := range a.dense {
		k := itoa(i + 1)
		a.idx[k] = int32(i)
		a.ents = append(a.ents, entry{key: k, v: v, live: true})
	}
	a.dense = nil
}

func (a *array) len() int {
	if !a.hash {
		return len(a.dense)
	}
	return len(a.idx)
}

// get returns the element, creating it as uninitialized if missing, as a
// reference to a[k] does in awk.
func (a *array) get(k string) value {
	if !a.hash {
		if i, ok := denseIndex(k); ok && i <= len(a.dense)+1 {
			if i == len(a.dense)+1 {
				a.dense = append(a.dense, value{})
			}
			return a.dense[i-1]
		}
		a.toHash()
	}
	if i, ok := a.idx[k]; ok {
		return a.ents[i].v
	}
	a.set(k, value{})
	return value{}
}

// lookup returns the element without creating it.
func (a *array) lookup(k string) (value, bool) {
	if !a.hash {
		if i, ok := denseIndex(k); ok && i <= len(a.dense) {
			return a.dense[i-1], true
		}
		return value{}, false
	}
	if i, ok := a.idx[k]; ok {
		return a.ents[i].v, true
	}
	return value{}, false
}

func (a *array) set(k string, v value) {
	*a.ref(k) = v
}

// ref returns a pointer to the element, creating it; valid until the next
// insertion.
func (a *array) ref(k string) *value {
	if !a.hash {
		if i, ok := denseIndex(k); ok && i <= len(a.dense)+1 {
			if i == len(a.dense)+1 {
				a.dense = append(a.dense, value{})
			}
			return &a.dense[i-1]
		}
		a.toHash()
	}
	i, ok := a.idx[k]
	if !ok {
		i = int32(len(a.ents))
		a.idx[k] = i
		a.ents = append(a.ents, entry{key: k, live: true})
	}
	return &a.ents[i].v
}

func (a *array) delete(k string) {
	if !a.hash {
		i, ok := denseIndex(k)
		if !ok || i > len(a.dense) {
			return
		}
		if i == len(a.dense) {
			a.dense = a.dense[:i-1]
			return
		}
		a.toHash()
	}
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

// clear empties the array; it starts over in the dense form.
func (a *array) clear() {
	clear(a.dense)
	a.dense = a.dense[:0]
	a.idx, a.ents, a.dead, a.hash = nil, nil, 0, false
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

// keys returns the keys in insertion order: the snapshot a for-in loop
// walks.
func (a *array) keys() []string {
	if !a.hash {
		ks := make([]string, len(a.dense))
		for i := range ks {
			ks[i] = itoa(i + 1)
		}
		return ks
	}
	ks := make([]string, 0, len(a.idx))
	for _, e := range a.ents {
		if e.live {
			ks = append(ks, e.key)
		}
	}
	return ks
}

// each calls fn with every element in insertion order.
func (a *array) each(fn func(k string, v value)) {
	if !a.hash {
		for i, v := range a.dense {
			fn(itoa(i+1), v)
		}
		return
	}
	for _, e := range a.ents {
		if e.live {
			fn(e.key, e.v)
		}
	}
}
