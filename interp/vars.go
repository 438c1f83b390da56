package interp

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/interp/internal/expand"
	"github.com/sandsh/sandsh/interp/internal/parseguard"
	"mvdan.cc/sh/v3/syntax"
)

// variable is a shell variable: expand's value plus the attributes bash
// has and expand does not (declare -i, -l, -u).
type variable struct {
	expand.Variable
	integer bool
	lower   bool
	upper   bool
	trace   bool
	// grow holds a string grown by += with room to spare (appendStr).
	grow *appendBuf
	// tempvar marks a prefix assignment's binding (x=v f, x=v eval ..):
	// a `local` at the same depth adopts it instead of shadowing it.
	tempvar bool
}

func (v *variable) clone() *variable {
	c := *v
	c.grow = nil
	c.List = slices.Clone(v.List)
	c.Indexes = slices.Clone(v.Indexes)
	c.Map = v.Map.Clone()
	return &c
}

// appendBuf holds the bytes of a string variable grown by +=, with spare
// capacity, so that a loop of appends copies the string O(log n) times
// rather than once per append (bash's s+=x is quadratic). Bytes below
// len(b) are never written again, so every string made from b stays
// valid; only the string of exactly len(b) bytes at b's start may grow
// in place.
type appendBuf struct{ b []byte }

// appendStr returns v.Str+add, in place when v.Str is its buffer's whole
// content and the buffer has room.
// The spare room stays within max (--max-var-bytes) when one is set.
func appendStr(v *variable, add string, limit int) string {
	cur := v.Str
	if g := v.grow; g != nil && len(cur) > 0 && len(g.b) == len(cur) &&
		unsafe.StringData(cur) == unsafe.SliceData(g.b) && cap(g.b)-len(g.b) >= len(add) {
		g.b = append(g.b, add...)
		return unsafe.String(unsafe.SliceData(g.b), len(g.b))
	}
	n := len(cur) + len(add)
	if n < 256 {
		return cur + add
	}
	size := 2 * n
	if limit > 0 && size > limit {
		size = max(n, limit)
	}
	b := make([]byte, 0, size)
	b = append(append(b, cur...), add...)
	v.grow = &appendBuf{b}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// scope holds the variables of one function call (scope 0 is global),
// or, like bash's builtin-env contexts, the prefix assignments of an
// eval, source or unset (temp), which sit above their function's scope.
type scope struct {
	vars map[string]*variable
	// funcName is the function that owns the scope, for FUNCNAME.
	funcName string
	// depth counts the function calls the scope belongs to (bash's
	// variable_context): a temp scope has its function's depth.
	depth int
	temp  bool
	// pendingFunc marks the temp scope of `x=v f`: the call of f takes
	// it over as its own scope, as bash makes the temporary environment
	// of a function its local context.
	pendingFunc bool
}

// funcTop is the index of the innermost function scope (0 at top level):
// where `local` creates variables.
func (r *Runner) funcTop() int {
	for i := len(r.scopes) - 1; i > 0; i-- {
		if !r.scopes[i].temp {
			return i
		}
	}
	return 0
}

// depth is the number of function calls running (bash's variable_context).
func (r *Runner) depth() int { return r.scopes[r.funcTop()].depth }

// varSlot is varIdx's entry for one name: the innermost scope holding
// it and that scope's variable (so a read costs one map look-up), and
// the outer scopes holding it, ascending (usually none).
type varSlot struct {
	v     *variable
	top   int32
	below []int32
}

// scopes lists the scopes of the slot, ascending.
func (s varSlot) scopes() []int32 { return append(slices.Clone(s.below), s.top) }

// lookup finds the innermost variable called name.
func (r *Runner) lookup(name string) (*variable, int) {
	s, ok := r.varIdx[name]
	if !ok {
		return nil, -1
	}
	return s.v, int(s.top)
}

// setScoped binds name to v in scope i.
func (r *Runner) setScoped(i int, name string, v *variable) {
	vars := r.scopes[i].vars
	_, had := vars[name]
	vars[name] = v
	if r.varIdx == nil {
		r.varIdx = map[string]varSlot{}
	}
	s, ok := r.varIdx[name]
	switch {
	case !ok:
		s = varSlot{v: v, top: int32(i)}
	case int32(i) == s.top:
		s.v = v
	case had:
		return // an outer binding replaced: the slot does not change
	case int32(i) > s.top:
		s.below = append(s.below, s.top)
		s.top, s.v = int32(i), v
	default:
		// A new global under locals of the same name goes in front of
		// them.
		at := len(s.below)
		for at > 0 && s.below[at-1] > int32(i) {
			at--
		}
		s.below = slices.Insert(s.below, at, int32(i))
	}
	r.varIdx[name] = s
}

// unsetScoped removes name from scope i.
func (r *Runner) unsetScoped(i int, name string) {
	vars := r.scopes[i].vars
	if _, ok := vars[name]; !ok {
		return
	}
	delete(vars, name)
	s := r.varIdx[name]
	if int32(i) != s.top {
		if k := slices.Index(s.below, int32(i)); k >= 0 {
			s.below = slices.Delete(s.below, k, k+1)
		}
		r.varIdx[name] = s
		return
	}
	r.dropTop(name, s)
}

// dropTop removes the innermost binding from name's slot s.
func (r *Runner) dropTop(name string, s varSlot) {
	if len(s.below) == 0 {
		delete(r.varIdx, name)
		return
	}
	n := len(s.below) - 1
	s.top, s.below = s.below[n], s.below[:n]
	s.v = r.scopes[s.top].vars[name]
	r.varIdx[name] = s
}

// pushScope adds sc as the innermost scope.
func (r *Runner) pushScope(sc *scope) {
	r.scopes = append(r.scopes, sc)
	i := int32(len(r.scopes) - 1)
	for name, v := range sc.vars {
		if r.varIdx == nil {
			r.varIdx = map[string]varSlot{}
		}
		s, ok := r.varIdx[name]
		if ok {
			s.below = append(s.below, s.top)
		}
		s.top, s.v = i, v
		r.varIdx[name] = s
	}
}

// popScope drops the innermost scope and its variables.
func (r *Runner) popScope() {
	top := len(r.scopes) - 1
	for name := range r.scopes[top].vars {
		if s, ok := r.varIdx[name]; ok && int(s.top) == top {
			r.dropTop(name, s)
		}
	}
	r.scopes[top] = nil
	r.scopes = r.scopes[:top]
}

// reindexVars rebuilds varIdx from the scopes.
func (r *Runner) reindexVars() {
	// Sized like the index it replaces (a subshell's is its parent's):
	// growing the map step by step costs more than the entries.
	r.varIdx = make(map[string]varSlot, len(r.varIdx))
	for i, sc := range r.scopes {
		for name, v := range sc.vars {
			s, ok := r.varIdx[name]
			if ok {
				s.below = append(s.below, s.top)
			}
			s.top, s.v = int32(i), v
			r.varIdx[name] = s
		}
	}
}

// resolveRef follows namerefs from name to the variable name they point at.
func (r *Runner) resolveRef(name string) string {
	for range 10 {
		v, _ := r.lookup(name)
		if v == nil || v.Kind != expand.NameRef || v.Str == "" {
			return name
		}
		target := v.Str
		if i := strings.IndexByte(target, '['); i > 0 {
			return target
		}
		name = target
	}
	return name
}

// refLoop reports whether the namerefs from name go round in a circle.
func (r *Runner) refLoop(name string) bool {
	for range 10 {
		v, _ := r.lookup(name)
		if v == nil || v.Kind != expand.NameRef || v.Str == "" || strings.IndexByte(v.Str, '[') > 0 {
			return false
		}
		name = v.Str
	}
	return true
}

// circularRefError fails an assignment through circular namerefs at the
// top level; bash words it as a warning.
type circularRefError struct{ name string }

func (e *circularRefError) Error() string {
	return "warning: " + e.name + ": circular name reference"
}

// writeRef resolves the nameref target of an assignment to name; bash
// warns of a circle and fails the assignment at the top level (in a
// function it goes on).
func (r *Runner) writeRef(name string) (string, error) {
	if r.refLoop(name) {
		err := &circularRefError{name}
		if r.depth() == 0 {
			return "", err
		}
		r.errf("%v", err)
		return "", nil
	}
	return r.resolveRef(name), nil
}

// notIdentError is bash's "`a[1]': not a valid identifier", for a list or
// element assigned through a nameref to an array element.
type notIdentError struct{ name string }

func (e *notIdentError) Error() string { return "`" + e.name + "': not a valid identifier" }

// envAdapter makes the runner an expand.WriteEnviron.
type envAdapter struct{ r *Runner }

func (e envAdapter) Get(name string) expand.Variable { return e.r.getVar(name) }

func (e envAdapter) Set(name string, vr expand.Variable) error { return e.r.setVarFromExpand(name, vr) }

func (e envAdapter) Each(fn func(string, expand.Variable) bool) {
	for _, name := range e.r.varNames() {
		v, _ := e.r.lookup(name)
		if v != nil && !fn(name, v.Variable) {
			return
		}
	}
}

func strVar(s string) expand.Variable {
	return expand.Variable{Set: true, Kind: expand.String, Str: s}
}

// getVar returns a variable, computing bash's special parameters.
func (r *Runner) getVar(name string) expand.Variable {
	if name == "" {
		return expand.Variable{}
	}
	switch name {
	case "#":
		return strVar(strconv.Itoa(len(r.params)))
	case "@", "*":
		return expand.Variable{Set: true, Kind: expand.Indexed, List: r.params}
	case "?":
		return strVar(strconv.Itoa(r.lastStatus))
	case "$":
		return strVar(strconv.Itoa(r.shellPID))
	case "!":
		if r.lastBgPID == 0 {
			return expand.Variable{}
		}
		return strVar(strconv.Itoa(r.lastBgPID))
	case "-":
		return strVar(r.optFlags())
	case "0":
		return strVar(r.arg0)
	case "_":
		return strVar(r.lastArg)
	case "LINENO":
		return strVar(strconv.Itoa(int(r.line)))
	}
	if name[0] >= '1' && name[0] <= '9' {
		if i, err := strconv.Atoi(name); err == nil {
			if i-1 < len(r.params) {
				return strVar(r.params[i-1])
			}
			return expand.Variable{}
		}
	}
	if strings.HasPrefix(name, "HOME ") {
		// ~user: only the sandbox user has a home; others stay literal,
		// as bash leaves ~nosuchuser alone. Never the host's user db.
		user := name[5:]
		if user == "" {
			home, _ := r.passwdEntry() // ~ with HOME unset
			return strVar(home)
		}
		if user == r.s.sys.User {
			return r.getVar("HOME")
		}
		if user == "root" {
			return strVar("/root")
		}
		return strVar("~" + user)
	}
	v, _ := r.lookup(name)
	if v != nil && v.Kind != expand.Unknown && !isDynamicName(name) {
		return v.Variable // the common case, with one look-up
	}
	if dv, ok := r.dynamicVarOf(name, v); ok {
		return dv
	}
	if v != nil {
		return v.Variable
	}
	if i := strings.IndexByte(name, '['); i > 0 && strings.HasSuffix(name, "]") {
		return r.getElem(name[:i], name[i+1:len(name)-1])
	}
	return expand.Variable{}
}

// getElem reads arr[idx] for ${!ref} with ref=arr[idx] and for
// arithmetic on elements.
func (r *Runner) getElem(name, idx string) expand.Variable {
	target := r.resolveRef(name)
	if strings.IndexByte(target, '[') >= 0 {
		// A nameref to an element indexed again names nothing; following
		// it would loop for ref=ref[1].
		return expand.Variable{}
	}
	v := r.getVar(target)
	switch v.Kind {
	case expand.Associative:
		if s, ok := v.Map.Get(r.elemKey(idx)); ok {
			return strVar(s)
		}
	case expand.Indexed:
		i, err := r.arithString(idx)
		if err != nil {
			return expand.Variable{}
		}
		if i < 0 {
			i += indexedMax(v.List, v.Indexes) + 1
		}
		if s, ok := indexedGet(v.List, v.Indexes, i); ok {
			return strVar(s)
		}
	case expand.String:
		if i, err := r.arithString(idx); err == nil && i == 0 {
			return v
		}
	}
	return expand.Variable{}
}

// elemKey is the key that the subscript text of a name like A["k"] or
// A[$key] (a nameref's target, printf -v's or read's name, ${!ref})
// names in an associative array: bash expands it as it does the
// subscript of an assignment, quotes removed.
func (r *Runner) elemKey(idx string) string {
	if !strings.ContainsAny(idx, "\"'$`") {
		return idx
	}
	src := "_[" + idx + "]="
	f, err := syntax.NewParser().Parse(parseguard.String(nil, src), "")
	if err != nil || len(f.Stmts) != 1 || parseguard.Check(f, len(src)) != nil {
		return idx
	}
	ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) != 0 || len(ce.Assigns) != 1 || ce.Assigns[0].Index == nil {
		return idx
	}
	key, err := r.assocKey(context.Background(), ce.Assigns[0].Index)
	if err != nil {
		return idx
	}
	return key
}

// dynamicVar computes the variables whose value changes on every read.
func (r *Runner) dynamicVar(name string) (expand.Variable, bool) {
	v, _ := r.lookup(name)
	return r.dynamicVarOf(name, v)
}

// dynamicVarOf is dynamicVar with name's variable already looked up.
func (r *Runner) dynamicVarOf(name string, v *variable) (expand.Variable, bool) {
	if v != nil && v.Kind != expand.Unknown && !isDynamicName(name) {
		return expand.Variable{}, false
	}
	switch name {
	case "RANDOM":
		r.s.randMu.Lock()
		n := r.s.rand.IntN(32768)
		r.s.randMu.Unlock()
		return strVar(strconv.Itoa(n)), true
	case "SRANDOM":
		r.s.randMu.Lock()
		n := r.s.rand.Uint32()
		r.s.randMu.Unlock()
		return strVar(strconv.FormatUint(uint64(n), 10)), true
	case "SECONDS":
		return strVar(strconv.Itoa(int(r.s.sys.Now().Sub(r.secondsBase).Seconds()))), true
	case "EPOCHSECONDS":
		return strVar(strconv.FormatInt(r.s.sys.Now().Unix(), 10)), true
	case "EPOCHREALTIME":
		now := r.s.sys.Now()
		return strVar(fmt.Sprintf("%d.%06d", now.Unix(), now.Nanosecond()/1000)), true
	case "BASH_COMMAND":
		return strVar(r.bashCommand()), true
	case "BASHPID":
		return strVar(strconv.Itoa(r.pid)), true
	case "PIPESTATUS":
		list := make([]string, len(r.pipeStatus))
		for i, s := range r.pipeStatus {
			list[i] = strconv.Itoa(s)
		}
		return expand.Variable{Set: true, Kind: expand.Indexed, List: list}, true
	case "FUNCNAME", "BASH_SOURCE", "BASH_LINENO", "BASH_ARGV", "BASH_ARGC":
		return r.stackVar(name), true
	case "DIRSTACK":
		return expand.Variable{Set: true, Kind: expand.Indexed, List: r.dirsList()}, true
	case "SHELLOPTS":
		return strVar(r.shellOptsString()), true
	case "BASHOPTS":
		return strVar(r.bashOptsString()), true
	case "BASH_SUBSHELL":
		return strVar(strconv.Itoa(r.subshellLevel)), true
	case "PPID":
		return strVar(strconv.Itoa(r.ppid)), true
	}
	return expand.Variable{}, false
}

// isDynamicName is dynamicNames[name] without hashing name: most names
// read are short and fail the first test.
func isDynamicName(name string) bool {
	if len(name) < 4 || len(name) > 13 || name[0] < 'A' || name[0] > 'Z' {
		return false
	}
	return dynamicNames[name]
}

var dynamicNames = map[string]bool{"RANDOM": true, "SRANDOM": true, "SECONDS": true, "EPOCHSECONDS": true,
	"EPOCHREALTIME": true, "BASH_COMMAND": true, "BASHPID": true, "PIPESTATUS": true, "FUNCNAME": true, "BASH_SOURCE": true,
	"BASH_LINENO": true, "BASH_ARGV": true, "BASH_ARGC": true, "DIRSTACK": true, "SHELLOPTS": true, "BASHOPTS": true, "BASH_SUBSHELL": true, "PPID": true}

// readonlyError is returned when a script assigns to a readonly variable.
type readonlyError struct{ name string }

func (e *readonlyError) Error() string { return e.name + ": readonly variable" }

// setVarFromExpand applies an assignment that came from inside an
// expansion (${x:=v}, ((x++)), ${a[i]=v}).
func (r *Runner) setVarFromExpand(name string, vr expand.Variable) error {
	if !vr.IsSet() && vr.Kind != expand.KeepValue {
		return r.unsetVar(name)
	}
	name = r.resolveRef(name)
	switch vr.Kind {
	case expand.String:
		return r.setString(name, vr.Str, false)
	case expand.Indexed, expand.Associative:
		v, err := r.varForWrite(name)
		if err != nil {
			return err
		}
		v.Kind, v.List, v.Indexes, v.Map, v.Set = vr.Kind, vr.List, vr.Indexes, vr.Map, true
		if v.integer || v.lower || v.upper {
			for i, s := range v.List {
				if v.List[i], err = r.transform(v, s); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return nil
}

// varForWrite returns the variable to assign to: the innermost existing
// one, or a new global. Readonly variables refuse.
func (r *Runner) varForWrite(name string) (*variable, error) {
	v, _ := r.lookup(name)
	return r.varForWriteOf(name, v)
}

// varForWriteOf is varForWrite with name's variable v (or nil) already
// looked up.
func (r *Runner) varForWriteOf(name string, v *variable) (*variable, error) {
	if name == "SHELLOPTS" || name == "BASHOPTS" {
		// bash keeps them readonly: set -o and shopt change them.
		return nil, &readonlyError{name}
	}
	if v == nil {
		v = &variable{}
		r.setScoped(0, name, v)
	}
	if v.ReadOnly {
		return nil, &readonlyError{name}
	}
	if r.opts.allexport {
		v.Exported = true
	}
	return v, nil
}

// intAttrError is an arithmetic error in a value given to an integer
// variable. The main shell of -c text exits on it (status 1), as bash's
// does; a script goes on with its next line.
type intAttrError struct{ error }

func (e intAttrError) Unwrap() error { return e.error }

// intAttrFatal ends the main shell of -c text after err, an integer
// variable's bad value, as bash does.
func (r *Runner) intAttrFatal(err error) bool {
	if !errors.As(err, new(intAttrError)) || !r.cmdString || r.subshellLevel > 0 || r.interactive {
		return false
	}
	r.lastStatus, r.exiting, r.exitCode = 1, true, 1
	return true
}

// intAppend is x+=val for an integer variable whose value is cur: val
// is evaluated on its own (an error names its text alone, as bash's
// does), then added.
func (r *Runner) intAppend(cur, val string) (string, error) {
	add, err := r.arithValue(context.Background(), val)
	if err != nil {
		return "", intAttrError{err}
	}
	n, _ := strconv.Atoi(cur) // an integer variable holds a number or ""
	return strconv.Itoa(n + add), nil
}

// transform applies the integer and case attributes to a value.
func (r *Runner) transform(v *variable, s string) (string, error) {
	if v.integer {
		n, err := r.arithValue(context.Background(), s)
		if err != nil {
			return "", intAttrError{err}
		}
		s = strconv.Itoa(n)
	}
	switch {
	case v.lower:
		s = strings.ToLower(s)
	case v.upper:
		s = strings.ToUpper(s)
	}
	return s, nil
}

// checkSize enforces the per-variable size limit.
func (r *Runner) checkSize(n int) error {
	if max := r.s.limits.MaxVarBytes; max > 0 && n > max {
		return r.limitErr("max-var-bytes", FormatBytes(int64(max)))
	}
	return nil
}

// lookupForWrite finds the variable an assignment to name writes: the
// name itself, or a nameref's target (an empty name, with writeRef's
// error, when there is none to write). Only a nameref has a target to
// resolve, so for any other variable (or none) this is one look-up,
// which then serves varForWrite too.
func (r *Runner) lookupForWrite(name string) (string, *variable, error) {
	v, _ := r.lookup(name)
	if v == nil || v.Kind != expand.NameRef {
		return name, v, nil
	}
	name, err := r.writeRef(name)
	if name == "" {
		return "", nil, err
	}
	v, _ = r.lookup(name)
	return name, v, nil
}

// setString assigns a scalar (or element 0 of an array), appending when
// appendVal is set, like `x+=v`.
func (r *Runner) setString(name, val string, appendVal bool) error {
	name, v, err := r.lookupForWrite(name)
	if name == "" {
		return err
	}
	if i := strings.IndexByte(name, '['); i > 0 && strings.HasSuffix(name, "]") {
		if idx := name[i+1 : len(name)-1]; idx == "@" || idx == "*" {
			return fmt.Errorf("%s: bad array subscript", name)
		}
		return r.setElemString(name[:i], name[i+1:len(name)-1], val, appendVal)
	}
	if r.specialAssign(name, val) {
		return nil
	}
	v, err = r.varForWriteOf(name, v)
	if err != nil {
		return err
	}
	if v.integer && appendVal {
		cur := v.Str
		if v.Kind == expand.Indexed {
			cur, _ = indexedGet(v.List, v.Indexes, 0)
		}
		if val, err = r.intAppend(cur, val); err != nil {
			return err
		}
		appendVal = false
	}
	if val, err = r.transform(v, val); err != nil {
		return err
	}
	switch v.Kind {
	case expand.Indexed:
		cur, _ := indexedGet(v.List, v.Indexes, 0)
		if appendVal {
			val = cur + val
		}
		if err := r.checkSize(len(val)); err != nil {
			return err
		}
		v.List, v.Indexes = indexedSet(v.List, v.Indexes, 0, val)
	case expand.Associative:
		if appendVal {
			cur, _ := v.Map.Get("0")
			val = cur + val
		}
		if v.Map == nil {
			v.Map = expand.NewAssoc(expand.AssocBuckets)
		}
		v.Map.Set("0", val)
	default:
		if appendVal && v.Set {
			if err := r.checkSize(len(v.Str) + len(val)); err != nil {
				return err
			}
			val = appendStr(v, val, r.s.limits.MaxVarBytes)
		} else if err := r.checkSize(len(val)); err != nil {
			return err
		}
		if v.Kind != expand.NameRef {
			v.Kind = expand.String
		}
		v.Str = val
	}
	v.Set = true
	return nil
}

// setElemString assigns arr[idx]=val; idx is unexpanded text for
// associative arrays and an arithmetic expression for indexed ones.
func (r *Runner) setElemString(name, idx, val string, appendVal bool) error {
	v, err := r.varForWrite(name)
	if err != nil {
		return err
	}
	if v.Kind == expand.Associative {
		if v.Map == nil {
			v.Map = expand.NewAssoc(expand.AssocBuckets)
		}
		idx = r.elemKey(idx)
		if appendVal {
			cur, _ := v.Map.Get(idx)
			val = cur + val
		}
		t, err := r.transform(v, val)
		if err != nil {
			return err
		}
		v.Map.Set(idx, t)
		v.Set = true
		return nil
	}
	i, err := r.arithString(idx)
	if err != nil {
		return err
	}
	return r.setIndexed(name, v, i, val, appendVal)
}

func (r *Runner) setIndexed(name string, v *variable, i int, val string, appendVal bool) error {
	if v.Kind == expand.String || v.Kind == expand.Unknown {
		if v.Set && v.Kind == expand.String {
			v.List, v.Indexes = []string{v.Str}, nil
		} else {
			v.List, v.Indexes = nil, nil
		}
		v.Kind, v.Str = expand.Indexed, ""
	}
	if i < 0 {
		i += indexedMax(v.List, v.Indexes) + 1
		if i < 0 {
			return fmt.Errorf("%s[%d]: bad array subscript", name, i-indexedMax(v.List, v.Indexes)-1)
		}
	}
	if appendVal {
		cur, _ := indexedGet(v.List, v.Indexes, i)
		if v.integer {
			var err error
			if val, err = r.intAppend(cur, val); err != nil {
				return err
			}
		} else {
			val = cur + val
		}
	}
	if err := r.checkSize(len(val)); err != nil {
		return err
	}
	t, err := r.transform(v, val)
	if err != nil {
		return err
	}
	v.List, v.Indexes = indexedSet(v.List, v.Indexes, i, t)
	v.Set = true
	return nil
}

// specialAssign handles the variables whose assignment has side effects.
func (r *Runner) specialAssign(name, val string) bool {
	switch name {
	case "PATH":
		r.hash = nil // like bash, any assignment to PATH empties the table
		return false
	case "RANDOM":
		n, _ := strconv.Atoi(val)
		r.s.randMu.Lock()
		r.s.rand = rand.New(rand.NewPCG(uint64(n), 0x5a5d5))
		r.s.randMu.Unlock()
		return true
	case "SECONDS":
		n, _ := strconv.Atoi(val)
		r.secondsBase = r.s.sys.Now().Add(-time.Duration(n) * time.Second)
		return true
	case "GLOBIGNORE":
		// Like bash, patterns in GLOBIGNORE turn dotglob on, and only
		// unsetting GLOBIGNORE turns it off again.
		if strings.Trim(val, ":") != "" {
			r.opts.dotglob = true
		}
	}
	return false
}

func (r *Runner) unsetVar(name string) error {
	v, i := r.lookup(name)
	if v == nil {
		return nil
	}
	if v.ReadOnly {
		return &readonlyError{name}
	}
	if name == "GLOBIGNORE" {
		r.opts.dotglob = false
	}
	if v.Local && i > 0 && r.scopes[i].depth == r.depth() {
		// Unsetting a local of the running function keeps it local but
		// unset, like bash; a variable of a caller (or a prefix binding)
		// goes, uncovering the one beneath (bash's dynamic unset).
		r.setScoped(i, name, &variable{Variable: expand.Variable{Local: true, Exported: v.Exported && v.tempvar}})
		return nil
	}
	r.unsetScoped(i, name)
	return nil
}

// varNames lists every visible variable name, sorted.
func (r *Runner) varNames() []string {
	names := make([]string, 0, len(r.varIdx))
	for n := range r.varIdx {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// exportedBinding is the variable name passes to the environment: like
// bash's make_env_array, the innermost binding that is exported and
// visible, so an unset or unexported local lets a caller's exported
// variable through.
func (r *Runner) exportedBinding(name string) *variable {
	s, ok := r.varIdx[name]
	if !ok {
		return nil
	}
	passes := func(v *variable) bool { return v != nil && v.Exported && (v.Set || dynamicNames[name]) }
	if passes(s.v) {
		return s.v
	}
	for k := len(s.below) - 1; k >= 0; k-- {
		if v := r.scopes[s.below[k]].vars[name]; passes(v) {
			return v
		}
	}
	return nil
}

// environ returns the exported variables as NAME=VALUE pairs.
func (r *Runner) environ() []string {
	var env []string
	for _, name := range r.varNames() {
		v := r.exportedBinding(name)
		if v == nil {
			continue
		}
		switch {
		case dynamicNames[name]:
			// An exported SHELLOPTS or BASHOPTS passes its current value.
			env = append(env, name+"="+r.getVar(name).String())
		case v.Kind == expand.String, v.Kind == expand.NameRef:
			env = append(env, name+"="+v.Str)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(r.funcExported)) {
		if body, ok := r.funcs[name]; ok {
			env = append(env, "BASH_FUNC_"+name+"%%=() "+r.funcText(body))
		}
	}
	return env
}

// exportedVar is one entry of environ, looked up by name.
func (r *Runner) exportedVar(name string) (string, bool) {
	if strings.HasPrefix(name, "BASH_FUNC_") {
		return builtins.LookupEnviron(r.environ(), name)
	}
	v := r.exportedBinding(name)
	if v == nil {
		return "", false
	}
	switch {
	case dynamicNames[name]:
		return r.getVar(name).String(), true
	case v.Kind == expand.String, v.Kind == expand.NameRef:
		return v.Str, true
	}
	return "", false
}

// importFunc defines a function from a BASH_FUNC_name%% environment
// entry, the way bash passes `export -f` functions to its children. Like
// bash since Shellshock, the text must be exactly one function definition
// and nothing else: anything more is refused, not run.
func (r *Runner) importFunc(name, val string) bool {
	if !strings.HasPrefix(val, "() {") || strings.ContainsAny(name, " \t\n$`'\"\\|&;<>(){}=") || name == "" {
		return false
	}
	src := name + " " + val
	if r.checkScriptSize(len(src)) != nil || checkNesting([]byte(src)) != nil {
		return false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil || parseguard.Check(f, len(src)) != nil || len(f.Stmts) != 1 {
		return false
	}
	st := f.Stmts[0]
	fd, ok := st.Cmd.(*syntax.FuncDecl)
	if !ok || st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 || fd.Name == nil || fd.Name.Value != name {
		return false
	}
	r.funcs[name] = fd.Body
	r.setFuncSource(name, "environment", 1)
	if r.funcExported == nil {
		r.funcExported = map[string]bool{}
	}
	r.funcExported[name] = true
	return true
}

// initVars sets up the shell variables from the initial environment.
func (r *Runner) initVars(env []string) {
	r.scopes = []*scope{{vars: map[string]*variable{}}}
	r.varIdx = map[string]varSlot{}
	for _, kv := range env {
		name, val, ok := strings.Cut(kv, "=")
		if fn, isFunc := strings.CutPrefix(name, "BASH_FUNC_"); ok && isFunc && strings.HasSuffix(fn, "%%") {
			r.importFunc(strings.TrimSuffix(fn, "%%"), val)
			continue
		}
		if !ok || !syntax.ValidName(name) {
			continue
		}
		r.setScoped(0, name, &variable{Variable: expand.Variable{Set: true, Exported: true, Kind: expand.String, Str: val}})
	}
	def := func(name, val string) {
		if v, _ := r.lookup(name); v == nil {
			r.setScoped(0, name, &variable{Variable: expand.Variable{Set: true, Kind: expand.String, Str: val}})
		}
	}
	// bash's default when the environment has no PATH (not exported).
	def("PATH", "/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin:.")
	def("IFS", " \t\n")
	if r.interactive {
		r.interactiveVars(def)
	}
	if v, _ := r.lookup("SHELL"); v == nil {
		// bash takes the login shell from the user database.
		_, sh := r.passwdEntry()
		def("SHELL", sh)
	}
	def("PS4", "+ ")
	def("OPTIND", "1")
	def("BASH_VERSION", bashVersion)
	def("HOSTTYPE", "x86_64")
	def("OSTYPE", "linux-gnu")
	def("MACHTYPE", "x86_64-pc-linux-gnu")
	def("UID", strconv.Itoa(r.s.sys.UID))
	def("EUID", strconv.Itoa(r.s.sys.UID))
	def("HOSTNAME", r.s.sys.Hostname)
	def("BASH", "/bin/bash")
	r.setScoped(0, "BASH_VERSINFO", &variable{Variable: expand.Variable{Set: true, ReadOnly: true, Kind: expand.Indexed,
		List: []string{"5", "2", "15", "1", "release", "x86_64-pc-linux-gnu"}}})
	for _, n := range []string{"UID", "EUID"} {
		r.scopes[0].vars[n].ReadOnly = true
		r.scopes[0].vars[n].integer = true
	}
	if v, _ := r.lookup("PWD"); v == nil || v.Str != r.dir {
		r.setScoped(0, "PWD", &variable{Variable: expand.Variable{Set: true, Exported: true, Kind: expand.String, Str: r.dir}})
	}
	r.secondsBase = r.s.sys.Now()
}

const bashVersion = "5.2.15(1)-release"

// indexedGet reads element i of a possibly sparse array.
func indexedGet(list []string, indexes []int, i int) (string, bool) {
	if indexes == nil {
		if i >= 0 && i < len(list) {
			return list[i], true
		}
		return "", false
	}
	k, ok := slices.BinarySearch(indexes, i)
	if !ok {
		return "", false
	}
	return list[k], true
}

// indexedSet sets element i, keeping the array dense while it can be.
func indexedSet(list []string, indexes []int, i int, val string) ([]string, []int) {
	if indexes == nil {
		switch {
		case i < len(list):
			list[i] = val
			return list, nil
		case i == len(list):
			return append(list, val), nil
		}
		indexes = make([]int, len(list))
		for k := range indexes {
			indexes[k] = k
		}
	}
	k, ok := slices.BinarySearch(indexes, i)
	if ok {
		list[k] = val
		return list, indexes
	}
	list = slices.Insert(list, k, val)
	indexes = slices.Insert(indexes, k, i)
	return list, indexes
}

// indexedUnset removes element i.
func indexedUnset(list []string, indexes []int, i int) ([]string, []int) {
	if indexes == nil {
		if i < 0 || i >= len(list) {
			return list, nil
		}
		if i == len(list)-1 {
			return list[:i], nil
		}
		indexes = make([]int, len(list))
		for k := range indexes {
			indexes[k] = k
		}
	}
	k, ok := slices.BinarySearch(indexes, i)
	if !ok {
		return list, indexes
	}
	return slices.Delete(list, k, k+1), slices.Delete(indexes, k, k+1)
}

func indexedMax(list []string, indexes []int) int {
	if indexes == nil {
		return len(list) - 1
	}
	if len(indexes) == 0 {
		return -1
	}
	return indexes[len(indexes)-1]
}

func indexedKeys(list []string, indexes []int) []int {
	if indexes != nil {
		return indexes
	}
	keys := make([]int, len(list))
	for i := range keys {
		keys[i] = i
	}
	return keys
}
