package jq

import (
	"reflect"
	"sort"

	"github.com/itchyny/gojq"
)

// order remembers the key order of objects. gojq keeps objects as Go maps,
// which have no order, while jq prints keys in insertion order. Objects
// that reach the output unchanged (read from input, built by an object
// literal with constant keys, by from_entries) are looked up here by map
// identity; objects gojq rebuilt (updates, merges) print with sorted keys.
type order struct {
	m    map[uintptr]orderEntry
	perm map[uintptr]orderEntry // survives reset: $ARGS and --argjson values
	// list holds this input's entries in the order they were recorded;
	// rank is built from it on demand: each key's first appearance.
	list   []orderEntry
	rank   map[string]int
	ranked int // entries of list already in rank
}

type orderEntry struct {
	obj  map[string]any // keeps the map alive so its address is not reused
	keys []string
}

func newOrder() *order {
	return &order{m: map[uintptr]orderEntry{}, perm: map[uintptr]orderEntry{}}
}

func mapID(m map[string]any) uintptr { return reflect.ValueOf(m).Pointer() }

func (o *order) set(m map[string]any, keys []string) {
	if len(keys) == 0 {
		return
	}
	e := orderEntry{m, keys}
	if len(keys) > 1 {
		o.m[mapID(m)] = e
	}
	// Single-key objects only feed the key ranks.
	o.list = append(o.list, e)
}

// keep moves every recorded entry to the permanent table.
func (o *order) keep() {
	for k, v := range o.m {
		o.perm[k] = v
	}
	o.m = map[uintptr]orderEntry{}
	o.list, o.rank, o.ranked = nil, nil, 0
}

// reset forgets the objects of one input once its outputs are printed,
// so memory stays flat on long input streams.
func (o *order) reset() {
	if len(o.m) > 0 {
		o.m = map[uintptr]orderEntry{}
	}
	o.list, o.rank, o.ranked = nil, nil, 0
}

// keys returns the keys of m in print order: recorded order first, then
// any other keys sorted (gojq may have added keys to a fresh map).
func (o *order) keys(m map[string]any, sorted bool) []string {
	var rec []string
	if !sorted && len(m) > 1 {
		id := mapID(m)
		e, ok := o.m[id]
		if !ok {
			e, ok = o.perm[id]
		}
		if ok {
			rec = e.keys
		}
	}
	if rec != nil && len(rec) == len(m) {
		all := true
		for _, k := range rec {
			if _, ok := m[k]; !ok {
				all = false
				break
			}
		}
		if all {
			return rec
		}
	}
	out := make([]string, 0, len(m))
	seen := make(map[string]bool, len(rec))
	for _, k := range rec {
		if _, ok := m[k]; ok && !seen[k] {
			out = append(out, k)
			seen[k] = true
		}
	}
	n := len(out)
	for k := range m {
		if !seen[k] {
			out = append(out, k)
		}
	}
	if sorted || n > 0 {
		sort.Strings(out[n:])
		return out
	}
	// A map gojq rebuilt (an update, del, setpath): order its keys by
	// where they first appeared in this input, which is right for the
	// usual homogeneous records; new keys go last, as jq appends them.
	o.buildRank()
	sort.Slice(out, func(i, j int) bool {
		ri, iok := o.rank[out[i]]
		rj, jok := o.rank[out[j]]
		switch {
		case iok && jok:
			return ri < rj
		case iok != jok:
			return iok
		}
		return out[i] < out[j]
	})
	return out
}

func (o *order) buildRank() {
	if o.rank == nil {
		o.rank = map[string]int{}
		for _, e := range o.perm {
			o.addRank(e.keys)
		}
	}
	for ; o.ranked < len(o.list); o.ranked++ {
		o.addRank(o.list[o.ranked].keys)
	}
}

func (o *order) addRank(keys []string) {
	for _, k := range keys {
		if _, ok := o.rank[k]; !ok {
			o.rank[k] = len(o.rank)
		}
	}
}

// rewrite adjusts the parsed program so that key order survives gojq:
// every object literal with constant keys becomes
// `(OBJ | _sandsh_order([keys]))`, and `X[]` outside path expressions
// becomes `X | _sandsh_iter`, which iterates objects in key order.
func rewrite(q *gojq.Query) {
	walk(reflect.ValueOf(q), false)
}

// pathFuncs take path expressions as arguments, where a function call
// would be an invalid path.
var pathFuncs = map[string]bool{"path": true, "del": true, "pick": true, "paths": true}

func walk(v reflect.Value, inPath bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		switch x := v.Interface().(type) {
		case *gojq.Query:
			if x.Op >= gojq.OpAssign {
				walk(reflect.ValueOf(x.Left), true)
				walk(reflect.ValueOf(x.Right), inPath)
				for _, fd := range x.FuncDefs {
					walk(reflect.ValueOf(fd), inPath)
				}
				return
			}
		case *gojq.Func:
			if pathFuncs[x.Name] {
				inPath = true
			}
		}
		walk(v.Elem(), inPath)
		// Post-order, so the wrappers built here are not walked again.
		if t, ok := v.Interface().(*gojq.Term); ok {
			rewriteTerm(t)
			if !inPath {
				rewriteIter(t)
				rewriteRecurse(t)
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				walk(v.Field(i), inPath)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			walk(v.Index(i), inPath)
		}
	}
}

// rewriteIter splits `T.a[].b` into `T.a | _sandsh_iter.b`. A `?`
// applies to everything before it, so `T[].b?.c` becomes
// `(T | _sandsh_iter.b)?.c`.
func rewriteIter(t *gojq.Term) {
	i := 0
	for i < len(t.SuffixList) && !t.SuffixList[i].Iter {
		i++
	}
	if i == len(t.SuffixList) {
		return
	}
	j := i + 1
	for j < len(t.SuffixList) && !t.SuffixList[j].Optional {
		j++
	}
	head := *t
	head.SuffixList = t.SuffixList[:i]
	call := &gojq.Term{Type: gojq.TermTypeFunc, Func: &gojq.Func{Name: "_sandsh_iter"},
		SuffixList: t.SuffixList[i+1 : j]}
	rewriteIter(call)
	rest := t.SuffixList[j:]
	*t = gojq.Term{Type: gojq.TermTypeQuery, SuffixList: rest, Query: &gojq.Query{
		Left: &gojq.Query{Term: &head}, Op: gojq.OpPipe, Right: &gojq.Query{Term: call}}}
	if len(rest) > 0 {
		rewriteIter(t)
	}
}

func rewriteTerm(t *gojq.Term) {
	// One-key literals are left alone: they need no order, and recording
	// them would rank their key before the keys of the object they are
	// usually merged into (gojq evaluates `A + B` right side first).
	if t.Type != gojq.TermTypeObject || t.Object == nil || len(t.Object.KeyVals) < 2 {
		return
	}
	var keys []*gojq.Query
	seen := map[string]bool{}
	for _, kv := range t.Object.KeyVals {
		var k string
		switch {
		case kv.Key != "" && kv.Key[0] == '$':
			if kv.Val != nil {
				return // {$k: v} uses the value of $k as the key
			}
			k = kv.Key[1:]
		case kv.Key != "":
			k = kv.Key
		case kv.KeyString != nil && len(kv.KeyString.Queries) == 0:
			k = kv.KeyString.Str
		default:
			return
		}
		if !seen[k] {
			seen[k] = true
			keys = append(keys, &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeString, Str: &gojq.String{Str: k}}})
		}
	}
	obj := &gojq.Term{Type: gojq.TermTypeObject, Object: t.Object}
	call := &gojq.Term{Type: gojq.TermTypeFunc, Func: &gojq.Func{
		Name: "_sandsh_order",
		Args: []*gojq.Query{{Term: &gojq.Term{Type: gojq.TermTypeArray, Array: &gojq.Array{Query: commaList(keys)}}}},
	}}
	t.Type = gojq.TermTypeQuery
	t.Object = nil
	t.Query = &gojq.Query{Left: &gojq.Query{Term: obj}, Op: gojq.OpPipe, Right: &gojq.Query{Term: call}}
}

func commaList(qs []*gojq.Query) *gojq.Query {
	q := qs[0]
	for _, r := range qs[1:] {
		q = &gojq.Query{Left: q, Op: gojq.OpComma, Right: r}
	}
	return q
}

// rewriteRecurse turns `..` and a bare `recurse` outside path expressions
// into a recursion that visits object members in key order.
func rewriteRecurse(t *gojq.Term) {
	switch {
	case t.Type == gojq.TermTypeRecurse:
	case t.Type == gojq.TermTypeFunc && t.Func != nil && t.Func.Name == "recurse" && len(t.Func.Args) == 0:
	default:
		return
	}
	t.Type = gojq.TermTypeFunc
	t.Func = &gojq.Func{Name: "_sandsh_recurse"}
}
