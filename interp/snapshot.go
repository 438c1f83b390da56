package interp

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sandsh/sandsh/interp/internal/expand"
	"mvdan.cc/sh/v3/syntax"
)

// State is the part of a shell that lives on between two runs of a
// session: global variables with their attributes, functions, aliases,
// `set -o` and `shopt` options, the working directory and directory
// stack, the umask and the traps. Positional parameters, $?, jobs and
// descriptors belong to one run and are not part of it.
//
// A State is plain data (it marshals to JSON as is) so it can cross a
// process boundary or be saved; ImportState treats it as untrusted input.
type State struct {
	Vars     []StateVar        `json:"vars,omitempty"`
	Funcs    []StateFunc       `json:"funcs,omitempty"`
	Aliases  map[string]string `json:"aliases,omitempty"`
	SetOpts  []string          `json:"set_options,omitempty"` // `set -o` names that are on
	Shopts   []string          `json:"shopt,omitempty"`       // `shopt` names that are on
	Dir      string            `json:"dir"`
	DirStack []string          `json:"dir_stack,omitempty"`
	Umask    uint32            `json:"umask"`
	Traps    map[string]string `json:"traps,omitempty"`
}

// StateVar is one global variable. Kind is "string", "indexed",
// "assoc" or "nameref" (whose Value is the name it refers to); a variable
// declared but never assigned (declare x) has Unset set.
type StateVar struct {
	Name    string            `json:"name"`
	Kind    string            `json:"kind"`
	Value   string            `json:"value,omitempty"`
	List    []string          `json:"list,omitempty"`
	Indexes []int             `json:"indexes,omitempty"` // sparse indexed arrays: the index of each List element
	Map     map[string]string `json:"map,omitempty"`
	// Keys and Buckets keep an associative array's iteration order
	// (bash's hash-table layout); a state without them restores the
	// keys in sorted order.
	Keys     []string `json:"keys,omitempty"`
	Buckets  int      `json:"buckets,omitempty"`
	Unset    bool     `json:"unset,omitempty"`
	Exported bool     `json:"exported,omitempty"`
	ReadOnly bool     `json:"readonly,omitempty"`
	Integer  bool     `json:"integer,omitempty"`
	Lower    bool     `json:"lower,omitempty"`
	Upper    bool     `json:"upper,omitempty"`
	Trace    bool     `json:"trace,omitempty"`
}

// StateFunc is a function; Body is its body statement printed by the
// syntax printer (e.g. "{\n\techo hi\n}"), parsed again on import.
type StateFunc struct {
	Name string `json:"name"`
	Body string `json:"body"`
	// Exported is export -f; Source is the file it was defined in
	// (BASH_SOURCE).
	Exported bool   `json:"exported,omitempty"`
	Source   string `json:"source,omitempty"`
}

// ownedVars are the variables the runner sets up itself on every New
// (or computes on every read): a state neither saves nor restores them,
// so an old or forged state cannot fake the shell's identity.
var ownedVars = map[string]bool{
	"BASH_VERSINFO": true, "BASH_VERSION": true, "UID": true, "EUID": true,
	"HOSTTYPE": true, "OSTYPE": true, "MACHTYPE": true, "BASH": true,
}

// ExportState captures the session state of r. Call it between runs,
// never while a run is going on.
func (r *Runner) ExportState() *State {
	st := &State{Dir: r.dir, DirStack: slices.Clone(r.dirStack), Umask: r.umaskBits}
	for _, name := range slices.Sorted(maps.Keys(r.scopes[0].vars)) {
		v := r.scopes[0].vars[name]
		if ownedVars[name] || dynamicNames[name] {
			continue
		}
		sv := StateVar{Name: name, Unset: !v.Set, Exported: v.Exported, ReadOnly: v.ReadOnly,
			Integer: v.integer, Lower: v.lower, Upper: v.upper, Trace: v.trace}
		switch v.Kind {
		case expand.Indexed:
			sv.Kind, sv.List, sv.Indexes = "indexed", slices.Clone(v.List), slices.Clone(v.Indexes)
			if sv.List == nil {
				sv.List = []string{}
			}
		case expand.Associative:
			sv.Kind, sv.Map, sv.Keys, sv.Buckets = "assoc", v.Map.Map(), v.Map.Keys(), v.Map.Buckets()
		case expand.NameRef:
			sv.Kind, sv.Value = "nameref", v.Str
		default:
			sv.Kind, sv.Value = "string", v.Str
		}
		st.Vars = append(st.Vars, sv)
	}
	p := syntax.NewPrinter()
	for _, name := range slices.Sorted(maps.Keys(r.funcs)) {
		var sb strings.Builder
		if err := p.Print(&sb, r.funcs[name]); err != nil {
			continue
		}
		st.Funcs = append(st.Funcs, StateFunc{Name: name, Body: sb.String(), Exported: r.funcExported[name], Source: r.funcSource[name]})
	}
	if len(r.aliases) > 0 {
		st.Aliases = maps.Clone(r.aliases)
	}
	for _, o := range setOptions {
		if o.field != nil && *o.field(&r.opts) {
			st.SetOpts = append(st.SetOpts, o.name)
		}
	}
	for _, name := range shoptNames() {
		if f := shoptOptions[name]; f != nil && *f(&r.opts) {
			st.Shopts = append(st.Shopts, name)
		}
	}
	for sig, cmd := range r.traps {
		if sig == "EXIT" {
			continue // it ran at the end of the run that set it
		}
		if st.Traps == nil {
			st.Traps = map[string]string{}
		}
		st.Traps[sig] = cmd
	}
	return st
}

// ImportState replaces r's session state with st. It checks all of st
// first (names, sizes against the limits, function bodies and trap
// commands parse, known options) and changes nothing when any of it is
// wrong: a state is either loaded whole or refused. The directory is not
// checked against the filesystem; the caller restores the files first.
func (r *Runner) ImportState(st *State) error {
	if st == nil {
		return fmt.Errorf("state: missing")
	}
	if !strings.HasPrefix(st.Dir, "/") {
		return fmt.Errorf("state: directory %q is not absolute", st.Dir)
	}
	for _, d := range st.DirStack {
		if !strings.HasPrefix(d, "/") {
			return fmt.Errorf("state: directory stack entry %q is not absolute", d)
		}
	}
	if st.Umask > 0o777 {
		return fmt.Errorf("state: bad umask %o", st.Umask)
	}
	maxVar := r.s.limits.MaxVarBytes
	tooBig := func(s string) bool { return maxVar > 0 && len(s) > maxVar }
	vars := map[string]*variable{}
	for _, sv := range st.Vars {
		if !syntax.ValidName(sv.Name) {
			return fmt.Errorf("state: bad variable name %q", sv.Name)
		}
		if ownedVars[sv.Name] || dynamicNames[sv.Name] {
			continue
		}
		if _, dup := vars[sv.Name]; dup {
			return fmt.Errorf("state: variable %s twice", sv.Name)
		}
		v := &variable{integer: sv.Integer, lower: sv.Lower, upper: sv.Upper, trace: sv.Trace}
		v.Set, v.Exported, v.ReadOnly = !sv.Unset, sv.Exported, sv.ReadOnly
		switch sv.Kind {
		case "string", "nameref":
			if tooBig(sv.Value) {
				return fmt.Errorf("state: variable %s: %v", sv.Name, r.varLimitErr())
			}
			v.Kind, v.Str = expand.String, sv.Value
			if sv.Kind == "nameref" {
				v.Kind = expand.NameRef
			}
		case "indexed":
			if sv.Indexes != nil {
				if len(sv.Indexes) != len(sv.List) {
					return fmt.Errorf("state: variable %s: %d indexes for %d elements", sv.Name, len(sv.Indexes), len(sv.List))
				}
				for i, k := range sv.Indexes {
					if k < 0 || (i > 0 && k <= sv.Indexes[i-1]) {
						return fmt.Errorf("state: variable %s: indexes not increasing", sv.Name)
					}
				}
			}
			for _, s := range sv.List {
				if tooBig(s) {
					return fmt.Errorf("state: variable %s: %v", sv.Name, r.varLimitErr())
				}
			}
			v.Kind, v.List, v.Indexes = expand.Indexed, slices.Clone(sv.List), slices.Clone(sv.Indexes)
		case "assoc":
			for _, s := range sv.Map {
				if tooBig(s) {
					return fmt.Errorf("state: variable %s: %v", sv.Name, r.varLimitErr())
				}
			}
			v.Kind, v.Map = expand.Associative, expand.AssocRestore(sv.Buckets, sv.Keys, sv.Map)
		default:
			return fmt.Errorf("state: variable %s: unknown kind %q", sv.Name, sv.Kind)
		}
		vars[sv.Name] = v
	}
	if max := r.s.limits.MaxFields; max > 0 {
		for name, v := range vars {
			if len(v.List) > max || v.Map.Len() > max {
				return fmt.Errorf("state: variable %s: more than %d elements", name, max)
			}
		}
	}
	funcs := map[string]*syntax.Stmt{}
	exported, sources := map[string]bool{}, map[string]string{}
	for _, fn := range st.Funcs {
		if fn.Name == "" || strings.ContainsAny(fn.Name, " \t\n$`'\"\\|&;<>()=/") {
			return fmt.Errorf("state: bad function name %q", fn.Name)
		}
		f, err := r.parse(fn.Body, "state")
		if err != nil || len(f.Stmts) != 1 {
			return fmt.Errorf("state: function %s: body does not parse", fn.Name)
		}
		funcs[fn.Name] = f.Stmts[0]
		if fn.Exported {
			exported[fn.Name] = true
		}
		if fn.Source != "" {
			if tooBig(fn.Source) {
				return fmt.Errorf("state: function %s: %v", fn.Name, r.varLimitErr())
			}
			sources[fn.Name] = fn.Source
		}
	}
	for name, val := range st.Aliases {
		if name == "" || strings.ContainsAny(name, " \t\n$`'\"\\|&;<>()=/") {
			return fmt.Errorf("state: bad alias name %q", name)
		}
		if tooBig(val) {
			return fmt.Errorf("state: alias %s: %v", name, r.varLimitErr())
		}
	}
	traps := map[string]string{}
	for sig, cmd := range st.Traps {
		n, ok := signalNumber(sig)
		if !ok || trapKey(sig, n) != sig || sig == "EXIT" || sig == "KILL" || sig == "STOP" {
			return fmt.Errorf("state: bad trap signal %q", sig)
		}
		if _, err := r.parse(cmd, "state"); err != nil {
			return fmt.Errorf("state: trap %s: command does not parse", sig)
		}
		traps[sig] = cmd
	}
	opts := defaultOpts()
	for _, f := range setOptions {
		if f.field != nil {
			*f.field(&opts) = false
		}
	}
	for _, name := range st.SetOpts {
		found := false
		for _, o := range setOptions {
			if o.name == name && o.field != nil {
				*o.field(&opts), found = true, true
			}
		}
		if !found {
			return fmt.Errorf("state: unknown set option %q", name)
		}
	}
	for _, f := range shoptOptions {
		if f != nil {
			*f(&opts) = false
		}
	}
	for _, name := range st.Shopts {
		f, ok := shoptOptions[name]
		if !ok || f == nil {
			return fmt.Errorf("state: unknown shopt option %q", name)
		}
		*f(&opts) = true
	}

	// Everything checked: apply. The variables the runner owns stay.
	for len(r.scopes) > 1 {
		r.popScope()
	}
	for name := range r.scopes[0].vars {
		if !ownedVars[name] {
			r.unsetScoped(0, name)
		}
	}
	for name, v := range vars {
		r.setScoped(0, name, v)
	}
	r.funcs = funcs
	r.funcExported, r.funcSource = exported, sources
	r.aliases = maps.Clone(st.Aliases)
	if r.aliases == nil {
		r.aliases = map[string]string{}
	}
	r.traps = traps
	r.publishTraps()
	r.opts = opts
	r.dir = st.Dir
	r.dirStack = slices.Clone(st.DirStack)
	r.umaskBits = st.Umask
	return nil
}

func (r *Runner) varLimitErr() error {
	return &LimitError{Limit: "max-var-bytes", Value: FormatBytes(int64(r.s.limits.MaxVarBytes))}
}

// SetVar assigns a global string variable, as `NAME=value` at the top
// level would, except that the value is not transformed by attributes
// the variable does not have yet. Readonly variables refuse.
func (r *Runner) SetVar(name, value string) error {
	return r.setGlobal(name, &variable{Variable: expand.Variable{Set: true, Kind: expand.String, Str: value}})
}

// SetEnv assigns and exports a global string variable, as an
// environment variable given to the shell would be.
func (r *Runner) SetEnv(name, value string) error {
	return r.setGlobal(name, &variable{Variable: expand.Variable{Set: true, Exported: true, Kind: expand.String, Str: value}})
}

// SetIndexed assigns a global indexed array.
func (r *Runner) SetIndexed(name string, list []string) error {
	return r.setGlobal(name, &variable{Variable: expand.Variable{Set: true, Kind: expand.Indexed, List: slices.Clone(list)}})
}

// SetAssoc assigns a global associative array.
func (r *Runner) SetAssoc(name string, m map[string]string) error {
	c := expand.AssocRestore(expand.AssocBuckets, nil, m)
	return r.setGlobal(name, &variable{Variable: expand.Variable{Set: true, Kind: expand.Associative, Map: c}})
}

func (r *Runner) setGlobal(name string, nv *variable) error {
	if !syntax.ValidName(name) {
		return fmt.Errorf("`%s': not a valid identifier", name)
	}
	if ownedVars[name] || dynamicNames[name] {
		return fmt.Errorf("%s: a shell variable that cannot be set from outside", name)
	}
	size := len(nv.Str)
	for _, s := range nv.List {
		size = max(size, len(s))
	}
	nv.Map.Each(func(_, s string) bool {
		size = max(size, len(s))
		return true
	})
	if max := r.s.limits.MaxVarBytes; max > 0 && size > max {
		return r.varLimitErr()
	}
	if max := r.s.limits.MaxFields; max > 0 && (len(nv.List) > max || nv.Map.Len() > max) {
		return fmt.Errorf("%s: more than %d elements", name, max)
	}
	old := r.scopes[0].vars[name]
	if old != nil {
		if old.ReadOnly {
			return &readonlyError{name}
		}
		nv.Exported = nv.Exported || old.Exported
	}
	r.setScoped(0, name, nv)
	return nil
}

// Var returns a global variable as Go values: a string, a []string
// (indexed array, in index order; unset elements of a sparse array are
// left out), or a map[string]string (associative array). ok is false when
// the variable is not set.
func (r *Runner) Var(name string) (value any, ok bool) {
	v, _ := r.lookup(name)
	if v == nil {
		if ev := r.getVar(name); ev.IsSet() && ev.Kind == expand.String {
			return ev.Str, true
		}
		return nil, false
	}
	if !v.Set {
		return nil, false
	}
	switch v.Kind {
	case expand.Indexed:
		return slices.Clone(v.List), true
	case expand.Associative:
		return v.Map.Map(), true
	case expand.NameRef:
		target := r.resolveRef(name)
		if t, _ := r.lookup(target); target == name || t == nil || t.Kind == expand.NameRef {
			return nil, false
		}
		return r.Var(target)
	}
	return v.Str, true
}
