package expand

import (
	"maps"
	"slices"
)

// Assoc is the value of an associative array. It reproduces the layout of
// bash 5.2's hash tables (hashlib.c) because scripts observe that layout:
// it is the order of "${!m[@]}", "${m[@]}", `for k in "${!m[@]}"` and
// `declare -p m`. The rules:
//   - the hash is 32-bit FNV-1 over the key's bytes, each byte taken as a
//     signed char, as bash's hash_string does on x86 and arm64 Linux;
//   - the bucket is hash & (nbuckets-1); a table starts with 1024 buckets
//     (ASSOC_HASH_BUCKETS) or 128 (DEFAULT_HASH_BUCKETS, when an existing
//     variable is converted);
//   - a new key goes to the head of its bucket's chain; replacing a value
//     leaves the key where it is; unset unlinks it;
//   - before a new key is added to a table holding 2*nbuckets entries,
//     the table grows fourfold: old buckets are walked in order, each
//     chain from its head, and every entry is pushed onto the head of its
//     new chain (hash_rehash);
//   - iteration walks the buckets in order, each chain from its head.
//
// The zero value is not usable; a nil *Assoc reads as empty.
type Assoc struct {
	nbuckets int
	// chains[b] holds bucket b's chain with its head last, so that adding
	// at the head is an append.
	chains [][]assocEntry
	n      int
}

type assocEntry struct {
	key, val string
	hash     uint32
}

const (
	// AssocBuckets is bash's ASSOC_HASH_BUCKETS: declare -A, local -A
	// and an array created by an assignment start with it.
	AssocBuckets = 1024
	// AssocBucketsConverted is bash's DEFAULT_HASH_BUCKETS, the size
	// convert_var_to_assoc uses (declare -A on an existing variable).
	AssocBucketsConverted = 128
)

// NewAssoc returns an empty table with nbuckets buckets (a power of two).
func NewAssoc(nbuckets int) *Assoc {
	if nbuckets <= 0 || nbuckets&(nbuckets-1) != 0 {
		nbuckets = AssocBuckets
	}
	return &Assoc{nbuckets: nbuckets}
}

// AssocFrom builds a table from pairs, inserted in the order given.
func AssocFrom(pairs ...string) *Assoc {
	a := NewAssoc(AssocBuckets)
	for i := 0; i+1 < len(pairs); i += 2 {
		a.Set(pairs[i], pairs[i+1])
	}
	return a
}

func assocHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h *= 16777619
		h ^= uint32(int32(int8(s[i])))
	}
	return h
}

// Len returns the number of keys.
func (a *Assoc) Len() int {
	if a == nil {
		return 0
	}
	return a.n
}

// Buckets returns the number of buckets, for a copy that keeps the size.
func (a *Assoc) Buckets() int {
	if a == nil {
		return AssocBuckets
	}
	return a.nbuckets
}

func (a *Assoc) find(key string) (b, pos int, h uint32) {
	h = assocHash(key)
	b = int(h & uint32(a.nbuckets-1))
	if a.chains == nil {
		return b, -1, h
	}
	chain := a.chains[b]
	for i := len(chain) - 1; i >= 0; i-- {
		if chain[i].hash == h && chain[i].key == key {
			return b, i, h
		}
	}
	return b, -1, h
}

// Get returns the value of key.
func (a *Assoc) Get(key string) (string, bool) {
	if a == nil || a.n == 0 {
		return "", false
	}
	b, pos, _ := a.find(key)
	if pos < 0 {
		return "", false
	}
	return a.chains[b][pos].val, true
}

// Set adds key or replaces its value.
func (a *Assoc) Set(key, val string) {
	b, pos, h := a.find(key)
	if pos >= 0 {
		a.chains[b][pos].val = val
		return
	}
	if a.n >= a.nbuckets*2 {
		a.grow()
		b = int(h & uint32(a.nbuckets-1))
	}
	if a.chains == nil {
		a.chains = make([][]assocEntry, a.nbuckets)
	}
	a.chains[b] = append(a.chains[b], assocEntry{key, val, h})
	a.n++
}

func (a *Assoc) grow() {
	old := a.chains
	a.nbuckets *= 4
	a.chains = make([][]assocEntry, a.nbuckets)
	for _, chain := range old {
		for i := len(chain) - 1; i >= 0; i-- {
			e := chain[i]
			b := e.hash & uint32(a.nbuckets-1)
			a.chains[b] = append(a.chains[b], e)
		}
	}
}

// Delete removes key; it reports whether key was there.
func (a *Assoc) Delete(key string) bool {
	if a == nil || a.n == 0 {
		return false
	}
	b, pos, _ := a.find(key)
	if pos < 0 {
		return false
	}
	chain := a.chains[b]
	a.chains[b] = append(chain[:pos:pos], chain[pos+1:]...)
	a.n--
	return true
}

// Each calls fn for every key in bash's iteration order until fn
// returns false.
func (a *Assoc) Each(fn func(key, val string) bool) {
	if a == nil || a.n == 0 {
		return
	}
	for _, chain := range a.chains {
		for i := len(chain) - 1; i >= 0; i-- {
			if !fn(chain[i].key, chain[i].val) {
				return
			}
		}
	}
}

// Keys returns the keys in bash's iteration order.
func (a *Assoc) Keys() []string {
	keys := make([]string, 0, a.Len())
	a.Each(func(k, _ string) bool {
		keys = append(keys, k)
		return true
	})
	return keys
}

// Values returns the values in bash's iteration order.
func (a *Assoc) Values() []string {
	vals := make([]string, 0, a.Len())
	a.Each(func(_, v string) bool {
		vals = append(vals, v)
		return true
	})
	return vals
}

// Clone returns an independent copy with the same layout (hash_copy).
func (a *Assoc) Clone() *Assoc {
	if a == nil {
		return nil
	}
	c := &Assoc{nbuckets: a.nbuckets, n: a.n}
	if a.chains != nil {
		c.chains = make([][]assocEntry, len(a.chains))
		for i, chain := range a.chains {
			if len(chain) > 0 {
				c.chains[i] = append([]assocEntry(nil), chain...)
			}
		}
	}
	return c
}

// Map returns the keys and values as a Go map.
func (a *Assoc) Map() map[string]string {
	m := make(map[string]string, a.Len())
	a.Each(func(k, v string) bool {
		m[k] = v
		return true
	})
	return m
}

// AssocRestore rebuilds a table from m whose iteration order was keys
// (as Keys returned it) with nbuckets buckets, so that a saved table comes
// back in the same order. Keys of m missing from keys, or a keys list that
// does not match m, fall back to sorted insertion. nbuckets is bounded by
// the number of keys, since it may come from a forged saved state.
func AssocRestore(nbuckets int, keys []string, m map[string]string) *Assoc {
	if nbuckets < AssocBucketsConverted || nbuckets > 8*len(m)+AssocBuckets || nbuckets&(nbuckets-1) != 0 || len(m) > 2*nbuckets {
		nbuckets = AssocBuckets
		for len(m) > 2*nbuckets {
			nbuckets *= 4
		}
	}
	a := NewAssoc(nbuckets)
	ok := len(keys) == len(m)
	seen := make(map[string]bool, len(keys))
	for _, k := range keys {
		if _, in := m[k]; !in || seen[k] {
			ok = false
			break
		}
		seen[k] = true
	}
	if !ok {
		keys = slices.Sorted(maps.Keys(m))
		slices.Reverse(keys)
	}
	// Adding the keys in reverse iteration order puts each one back at
	// the head of its chain last, which is where it was.
	for i := len(keys) - 1; i >= 0; i-- {
		a.Set(keys[i], m[keys[i]])
	}
	return a
}
