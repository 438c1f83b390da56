package interp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/sandsh/sandsh/interp/internal/expand"
	"github.com/sandsh/sandsh/interp/internal/parseguard"
	"mvdan.cc/sh/v3/syntax"
)

// declAttrs are the attribute flags of declare and friends; on/off hold
// the letters given with - and + respectively.
type declAttrs struct {
	on, off              string
	print, funcs, fnames bool
	global               bool
	unexport             bool // export -n
}

func (d *declAttrs) has(c byte) bool { return strings.IndexByte(d.on, c) >= 0 }

// declClause runs declare, typeset, local, export, readonly and nameref.
func (r *Runner) declClause(ctx context.Context, dc *syntax.DeclClause) {
	variant := dc.Variant.Value
	var attrs declAttrs
	type item struct {
		as    *syntax.Assign
		name  string
		value *string
		// appendVal: name+=value from an expanded word (typeset s$x+=v)
		appendVal bool
	}
	var items []item
	// $_ becomes the last word, as bash's simple commands set it: an
	// assignment's text with its expanded value (set below, once it is
	// assigned), an array assignment's name only.
	lastWord, lastAssign := variant, (*syntax.Assign)(nil)
	defer func() { r.lastArg = lastWord }()
	optsDone := false
	for _, as := range dc.Args {
		lastAssign = nil
		if as.Naked && as.Name == nil && as.Value != nil {
			fields, err := r.fields(ctx, as.Value)
			if err != nil {
				r.expandError(err)
				return
			}
			if len(fields) > 0 {
				lastWord = fields[len(fields)-1]
			}
			for _, f := range fields {
				if !optsDone && len(f) > 1 && (f[0] == '-' || f[0] == '+') {
					if f == "--" {
						optsDone = true
						continue
					}
					if !r.parseDeclFlags(variant, f, &attrs) {
						r.lastStatus = 2
						return
					}
					continue
				}
				optsDone = true
				name, val, hasVal := strings.Cut(f, "=")
				if hasVal && !assignmentLHS(name) {
					// Like bash's assignment(): "b.=" is a name
					// (declare -f "b.="), not b. set to "".
					name, hasVal = f, false
				}
				it := item{name: name}
				if hasVal {
					v := val
					it.value = &v
					if n, ok := strings.CutSuffix(name, "+"); ok && assignmentLHS(n) {
						it.name, it.appendVal = n, true
					}
				}
				items = append(items, it)
			}
			continue
		}
		optsDone = true
		items = append(items, item{as: as, name: as.Name.Value})
		lastWord = as.Name.Value
		if as.Index != nil && as.Array == nil {
			lastWord += "[" + r.indexText(ctx, as.Index) + "]"
		}
		if !as.Naked && as.Array == nil {
			lastAssign = as
		}
	}
	// bash expands every word of a declaration before it assigns any:
	// in `local x=1 y=$x` y gets the caller's x, and in
	// `export A=1 v=$(printenv A)` A is not yet exported.
	for i := range items {
		it := &items[i]
		if it.as == nil || it.as.Naked {
			continue
		}
		pre, err := r.preExpandAssign(ctx, it.as, attrs.has('A'))
		if err != nil {
			r.assignError(expansionError{err})
			return
		}
		if it.as == lastAssign {
			lastAssign = pre
		}
		it.as = pre
	}
	if variant == "nameref" {
		attrs.on += "n"
	}
	if variant == "readonly" && attrs.unexport {
		attrs.unexport = false // readonly -n: nothing is made readonly
	} else if variant == "readonly" {
		attrs.on += "r"
	}
	if variant == "export" && !attrs.unexport {
		attrs.on += "x"
	}
	// bash checks what it prints (> /dev/full fails with 1), except a
	// list of every function or of local's variables, which it only
	// reports.
	defer r.watchOutput(variant, variant != "local" && (!attrs.funcs && !attrs.fnames || len(items) > 0))()
	w := r.fds.writer(1)
	if variant == "local" && len(r.frames) == 0 || variant == "local" && r.scopes[r.funcTop()].funcName == "" {
		r.builtinErr("local", "can only be used in a function")
		r.lastStatus = 1
		return
	}
	// Functions: declare -f / -F, export -f.
	if attrs.funcs || attrs.fnames {
		r.lastStatus = 0
		names := make([]string, 0, len(items))
		for _, it := range items {
			if it.value != nil || it.as != nil && !it.as.Naked {
				r.builtinErr(variant, "cannot use `-f' to make functions")
				r.lastStatus = 1
				return
			}
			names = append(names, it.name)
		}
		if len(names) == 0 {
			names = slices.Sorted(maps.Keys(r.funcs))
		}
		// export -f f, declare -fx f, export -nf f, declare +fx f.
		setExport := len(items) > 0 && (variant == "export" || attrs.has('x') || strings.Contains(attrs.off, "x"))
		unexport := attrs.unexport || strings.Contains(attrs.off, "x")
		// export -f and declare -fx with no names list exported functions.
		onlyExported := len(items) == 0 && (variant == "export" || attrs.has('x'))
		for _, name := range names {
			body, ok := r.funcs[name]
			if !ok {
				if len(items) > 0 {
					if variant == "export" {
						r.builtinErr(variant, "%s: not a function", name)
					}
					r.lastStatus = 1
				}
				continue
			}
			if setExport {
				if unexport {
					delete(r.funcExported, name)
				} else {
					if r.funcExported == nil {
						r.funcExported = map[string]bool{}
					}
					r.funcExported[name] = true
				}
				continue
			}
			if attrs.has('r') {
				continue
			}
			if onlyExported && !r.funcExported[name] {
				continue
			}
			flags := "-f"
			if r.funcExported[name] {
				flags = "-fx"
			}
			if attrs.fnames && len(items) > 0 && r.opts.extdebug {
				// bash's extdebug: where the function was defined.
				fmt.Fprintf(w, "%s %d %s\n", name, r.funcLine[name], r.funcSource[name])
			} else if attrs.fnames && len(items) > 0 {
				fmt.Fprintln(w, name)
			} else if attrs.fnames {
				fmt.Fprintf(w, "declare %s %s\n", flags, name)
			} else {
				r.printFunc(w, name, body)
				if flags != "-f" {
					fmt.Fprintf(w, "declare %s %s\n", flags, name)
				}
			}
		}
		return
	}
	if len(items) == 0 || attrs.print && len(items) == 0 {
		r.printDecls(w, variant, &attrs)
		r.lastStatus = 0
		return
	}
	// $? in the arguments is still the status before the command
	// (local rc=$?), so the status is set only once they are done.
	failed := false
	local := variant == "local" || (variant == "declare" || variant == "typeset") && !attrs.global && r.funcTop() > 0 && r.scopes[r.funcTop()].funcName != ""
	for _, it := range items {
		if attrs.print {
			if v, _ := r.lookup(it.name); v != nil && v.Declared() {
				r.printDecl(w, it.name, v)
			} else if _, ok := r.dynamicVar(it.name); ok {
				r.printDecl(w, it.name, &variable{Variable: r.getVar(it.name)})
			} else {
				r.builtinErr(variant, "%s: not found", it.name)
				failed = true
			}
			continue
		}
		name := it.name
		if (variant == "export" || variant == "readonly") && (strings.IndexByte(name, '[') > 0 || it.as != nil && it.as.Index != nil) {
			// bash takes only whole variables here.
			shown := name
			if it.as != nil && it.as.Index != nil && !strings.Contains(name, "[") {
				shown = name + "[" + r.printNode(it.as.Index) + "]"
			}
			r.builtinErr(variant, "`%s': not a valid identifier", shown)
			failed = true
			continue
		}
		if i := strings.IndexByte(name, '['); i > 0 {
			if !strings.HasSuffix(name, "]") {
				name = "" // a[ or a[1, from declare a[ 1 ]=x
			} else {
				name = name[:i]
			}
		}
		if !syntax.ValidName(name) {
			r.builtinErr(variant, "`%s': not a valid identifier", it.name)
			failed = true
			continue
		}
		ia := attrs
		if (variant == "export" || variant == "readonly") && it.value == nil && (it.as == nil || it.as.Naked) {
			// bash's set_or_show_attributes uses -a and -A only to
			// assign an array: a bare name keeps its kind.
			ia.on = strings.NewReplacer("a", "", "A", "").Replace(ia.on)
		}
		v, err := r.declVar(name, local, &ia)
		if err != nil {
			r.builtinErr(variant, "%v", err)
			failed = true
			if !r.interactive && v == nil {
				continue
			}
			continue
		}
		var aerr error
		switch {
		case it.as != nil && it.as.Array != nil && it.as.Index != nil:
			// declare a[1]=(x): bash reports it and abandons the rest
			// of the command line, as for a plain assignment.
			text := r.printNode(&syntax.Assign{Name: it.as.Name, Index: it.as.Index})
			r.assignError(&listToMemberError{strings.TrimSuffix(text, "=")})
			r.abortLine = !r.exiting
			return
		case it.as != nil && it.as.Array != nil:
			var kind *expand.ValueKind
			if attrs.has('A') {
				k := expand.Associative
				kind = &k
			} else if attrs.has('a') {
				k := expand.Indexed
				kind = &k
			}
			aerr = r.assignArray(ctx, name, it.as.Array, it.as.Append, kind)
		case it.as != nil && !it.as.Naked:
			if v.Kind == expand.NameRef && it.as.Index == nil {
				val, err := r.literal(ctx, it.as.Value)
				if err != nil {
					r.expandError(err)
					return
				}
				if it.as == lastAssign {
					lastWord += "=" + val
				}
				if !r.setNameref(variant, name, v, val) {
					failed = true
					continue
				}
				break
			}
			var val string
			val, aerr = r.assign(ctx, it.as)
			if it.as == lastAssign {
				op := "="
				if it.as.Append {
					op = "+="
				}
				lastWord += op + val
			}
		case it.value != nil:
			if strings.HasPrefix(*it.value, "(") && strings.HasSuffix(*it.value, ")") && (attrs.has('a') || attrs.has('A')) {
				aerr = r.assignArrayText(ctx, name, *it.value)
			} else if v.Kind == expand.NameRef {
				if !r.setNameref(variant, name, v, *it.value) {
					failed = true
					continue
				}
			} else {
				aerr = r.setString(it.name, *it.value, it.appendVal)
			}
		}
		if aerr != nil {
			if _, ok := aerr.(*readonlyError); ok && r.s.fatalErr() == nil {
				r.builtinErr(variant, "%v", aerr)
				failed = true
				continue
			}
			if errors.As(aerr, new(*expand.ArithmError)) && r.s.fatalErr() == nil {
				// declare -i x=1+: named after the builtin, and the
				// rest of the line is abandoned.
				r.builtinErr(variant, "%v", aerr)
				if !r.intAttrFatal(aerr) {
					r.lastStatus, r.abortLine = 1, true
				}
				return
			}
			r.assignError(aerr)
			if r.exiting || r.abortLine {
				return
			}
			failed = true
			continue
		}
		if strings.Contains(attrs.on, "r") {
			if v, _ := r.lookup(r.resolveRefIf(name, v)); v != nil {
				v.ReadOnly = true
			}
		}
	}
	r.lastStatus = 0
	if failed {
		r.lastStatus = 1
	}
}

// preExpandAssign expands the value of an assignment given to a
// declaration and returns the assignment with the value as a quoted
// literal, so that assigning it later expands nothing. An indexed
// array literal gets its values expanded (their subscripts are
// evaluated as they are assigned, seeing the elements before them).
func (r *Runner) preExpandAssign(ctx context.Context, as *syntax.Assign, assoc bool) (*syntax.Assign, error) {
	lit := func(s string) *syntax.Word {
		return &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: s}}}
	}
	c := *as
	if as.Array == nil {
		val, err := r.assignValue(ctx, as.Value)
		if err != nil {
			return nil, err
		}
		c.Value = lit(val)
		return &c, nil
	}
	arr := &syntax.ArrayExpr{Lparen: as.Array.Lparen, Rparen: as.Array.Rparen}
	c.Array = arr
	if v, _ := r.lookup(r.resolveRef(as.Name.Value)); assoc || v != nil && v.Kind == expand.Associative {
		// Keys and values both: bash expands an associative literal
		// whole, so [$k]=v takes k before this declaration sets it.
		for _, el := range as.Array.Elems {
			ne := &syntax.ArrayElem{Append: el.Append}
			if el.Index != nil {
				key, err := r.assocKey(ctx, el.Index)
				if err != nil {
					return nil, err
				}
				ne.Index = lit(key)
			}
			val, err := r.assocValue(ctx, el.Value)
			if err != nil {
				return nil, err
			}
			ne.Value = lit(val)
			arr.Elems = append(arr.Elems, ne)
		}
		return &c, nil
	}
	nfields := 0
	for _, el := range as.Array.Elems {
		if el.Index != nil {
			val, err := r.assignValue(ctx, el.Value)
			if err != nil {
				return nil, err
			}
			arr.Elems = append(arr.Elems, &syntax.ArrayElem{Index: el.Index, Value: lit(val), Append: el.Append})
			nfields++
			continue
		}
		vals, err := r.fields(ctx, el.Value)
		if err != nil {
			return nil, err
		}
		for _, val := range vals {
			arr.Elems = append(arr.Elems, &syntax.ArrayElem{Value: lit(val)})
		}
		nfields += len(vals)
		if r.tooManyFields(nfields) {
			return nil, r.s.fatalErr()
		}
	}
	return &c, nil
}

// indexText is a subscript as bash's word expansion leaves it in a
// declaration's word (a[$i]=x shows as a[2]=x in $_). A subscript that
// runs a command keeps its text: the assignment itself runs it, once.
func (r *Runner) indexText(ctx context.Context, idx syntax.ArithmExpr) string {
	w, ok := idx.(*syntax.Word)
	if !ok {
		return r.printNode(idx)
	}
	runs := false
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			runs = true
		}
		return !runs
	})
	if runs {
		return r.printNode(w)
	}
	s, err := r.literal(ctx, w)
	if err != nil {
		return r.printNode(w)
	}
	return s
}

// assignmentLHS reports whether s, the text before the first '=' of a
// word given to declare, makes the word an assignment: a name, name+ or
// name[subscript] (with an optional +).
func assignmentLHS(s string) bool {
	s = strings.TrimSuffix(s, "+")
	if i := strings.IndexByte(s, '['); i > 0 && strings.HasSuffix(s, "]") {
		s = s[:i]
	}
	return syntax.ValidName(s)
}

func (r *Runner) resolveRefIf(name string, v *variable) string {
	if v != nil && v.Kind == expand.NameRef {
		return name
	}
	return r.resolveRef(name)
}

// parseDeclFlags parses "-aix" or "+x" for a declaration builtin.
func (r *Runner) parseDeclFlags(variant, f string, a *declAttrs) bool {
	on := f[0] == '-'
	for _, c := range f[1:] {
		switch {
		case c == 'p':
			a.print = true
		case c == 'f' && variant != "local":
			a.funcs = true
		case c == 'F' && (variant == "declare" || variant == "typeset"):
			a.fnames = true
		case c == 'g' && (variant == "declare" || variant == "typeset"):
			a.global = true
		case c == 'n' && (variant == "export" || variant == "readonly"):
			// bash's set_or_show_attributes: -n takes the attribute
			// away (export -n; readonly -n marks nothing readonly).
			a.unexport = true
		case (c == 'a' || c == 'A') && (variant == "export" || variant == "readonly"),
			strings.ContainsRune("aAilnrtux", c) && variant != "export" && variant != "readonly":
			if on {
				a.on += string(c)
			} else {
				a.off += string(c)
			}
		default:
			r.builtinErr(variant, "%s: invalid option", f[:1]+string(c))
			r.usageErr(variant)
			return false
		}
	}
	return true
}

// declVar finds or creates the variable a declaration names and applies
// the attributes.
func (r *Runner) declVar(name string, local bool, a *declAttrs) (*variable, error) {
	var v *variable
	if local {
		top := r.scopes[r.funcTop()]
		v = top.vars[name]
		if old, i := r.lookup(name); old != nil && i > 0 && r.scopes[i].depth == top.depth && (old.Local || old.tempvar) {
			// bash's make_local_variable: a prefix binding of this
			// call (x=v f, x=v eval 'local x') becomes the local itself.
			old.Local = true
			v = old
		}
		if v == nil {
			outer, _ := r.lookup(name)
			if outer != nil && outer.ReadOnly && !outer.Local {
				// bash refuses to shadow a readonly global, but a
				// caller's readonly local may be shadowed.
				return nil, &readonlyError{name}
			}
			v = &variable{Variable: expand.Variable{Local: true}}
			if outer != nil {
				// make_local_variable: the new local keeps the export
				// attribute of the variable it shadows, and takes the
				// value of a prefix binding (v=x f, v=x eval f) of any
				// caller's frame.
				v.Exported = outer.Exported
				if outer.tempvar && outer.Set && outer.Kind == expand.String {
					v.Kind, v.Str, v.Set = expand.String, outer.Str, true
				}
			}
			r.setScoped(r.funcTop(), name, v)
		}
		if v.Kind == expand.String && (a.has('a') || a.has('A')) {
			// make_local_array_variable: a local made an array starts
			// empty; only a global converts its value to element 0.
			if a.has('A') {
				v.Kind, v.Map = expand.Associative, expand.NewAssoc(expand.AssocBuckets)
			} else {
				v.Kind, v.List, v.Indexes = expand.Indexed, []string{}, nil
			}
			v.Str = ""
		}
	} else {
		v, _ = r.lookup(name)
		if v != nil && v.Kind == expand.NameRef && v.Str != "" && !strings.ContainsAny(a.on+a.off, "n") {
			// declare -i ref gives the attributes to ref's target, as
			// bash does for any declaration that does not set -n or +n.
			t := r.resolveRef(name)
			base, _, elem := strings.Cut(t, "[")
			if syntax.ValidName(base) {
				name = base
				v, _ = r.lookup(base)
				if v == nil && elem {
					// ref=arr[1]: bash makes arr an array.
					v = &variable{Variable: expand.Variable{Kind: expand.Indexed}}
					r.setScoped(0, name, v)
				}
			}
		}
		if v == nil {
			// Declared without a value: declare -p shows it (declare -- x).
			v = &variable{Variable: expand.Variable{Kind: expand.String}}
			r.setScoped(0, name, v)
		}
	}
	if v.ReadOnly {
		// bash's declare refuses only to take readonly away and to
		// make a readonly variable a nameref (or stop being one);
		// other attributes (-a, -i, -l, ...) may still be added. A
		// value that names no variable fails -n first, below.
		toRef := strings.Contains(a.on, "n") &&
			(v.Kind == expand.NameRef || !v.Set || v.Kind != expand.String || validNamerefTarget(strings.TrimSpace(v.Str)))
		fromRef := strings.Contains(a.off, "n") && v.Kind == expand.NameRef
		if strings.Contains(a.off, "r") || toRef || fromRef {
			return v, &readonlyError{name}
		}
	}
	for _, c := range a.on {
		switch c {
		case 'a':
			if v.Kind == expand.Associative {
				return v, fmt.Errorf("%s: cannot convert associative to indexed array", name)
			}
			if v.Kind != expand.Indexed {
				if v.Set && v.Kind == expand.String {
					v.List = []string{v.Str}
				} else {
					v.List = []string{}
				}
				v.Kind, v.Str, v.Indexes = expand.Indexed, "", nil
			}
		case 'A':
			if v.Kind == expand.Indexed && v.Set {
				return v, fmt.Errorf("%s: cannot convert indexed to associative array", name)
			}
			if v.Kind != expand.Associative {
				if v.Set && v.Kind == expand.String {
					// convert_var_to_assoc: a smaller table.
					v.Map = expand.NewAssoc(expand.AssocBucketsConverted)
					v.Map.Set("0", v.Str)
				} else {
					v.Map = expand.NewAssoc(expand.AssocBuckets)
				}
				v.Kind, v.Str = expand.Associative, ""
			}
		case 'i':
			v.integer = true
		case 'l':
			v.lower, v.upper = true, false
		case 'u':
			v.upper, v.lower = true, false
		case 'n':
			if v.Kind != expand.NameRef {
				if v.Set && v.Kind == expand.String {
					if !validNamerefTarget(strings.TrimSpace(v.Str)) {
						return v, fmt.Errorf("`%s': invalid variable name for name reference", v.Str)
					}
					v.Str = strings.TrimSpace(v.Str)
				}
				v.Kind = expand.NameRef
			}
		case 'x':
			v.Exported = true
		case 't':
			v.trace = true
		}
	}
	for _, c := range a.off {
		switch c {
		case 'i':
			v.integer = false
		case 'l':
			v.lower = false
		case 'u':
			v.upper = false
		case 'n':
			if v.Kind == expand.NameRef {
				v.Kind = expand.String
			}
		case 'x':
			v.Exported = false
		case 't':
			v.trace = false
		}
	}
	if a.unexport {
		v.Exported = false
	}
	return v, nil
}

// assignArrayText assigns "(a b c)" given as text, as in
// declare -a "x=(1 2)".
func (r *Runner) assignArrayText(ctx context.Context, name, text string) error {
	f, err := syntax.NewParser().Parse(parseguard.String(ctx, name+"="+text), "")
	if err == nil {
		err = parseguard.Check(f, len(text))
	}
	if err != nil || len(f.Stmts) != 1 {
		return r.setString(name, text, false)
	}
	ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) != 1 || ce.Assigns[0].Array == nil {
		return r.setString(name, text, false)
	}
	return r.assignArray(ctx, name, ce.Assigns[0].Array, false, nil)
}

// printDecls prints every variable, for `declare`, `declare -p`,
// `export -p` and `readonly -p`.
func (r *Runner) printDecls(w io.Writer, variant string, a *declAttrs) {
	depth := r.depth()
	for _, name := range r.varNames() {
		v, sc := r.lookup(name)
		if v == nil {
			continue
		}
		if variant == "local" && (depth == 0 || sc <= 0 || r.scopes[sc].depth != depth) {
			continue // local lists the current function's variables
		}
		switch {
		case variant == "export" && !v.Exported:
			continue
		case variant == "readonly" && !v.ReadOnly:
			continue
		}
		if filter := a.on; filter != "" && variant == "declare" {
			flags := r.declFlags(v)
			skip := false
			for _, c := range filter {
				if !strings.ContainsRune(flags, c) {
					skip = true
				}
			}
			if skip {
				continue
			}
		}
		if (variant == "declare" || variant == "typeset") && !a.print && a.on == "" {
			// Plain declare lists name=value, quoted like set does.
			switch {
			case !v.Set:
			case v.Kind == expand.String || v.Kind == expand.NameRef:
				fmt.Fprintf(w, "%s=%s\n", name, setQuote(v.Str))
			default:
				var sb strings.Builder
				r.printDecl(&sb, name, v)
				if _, rest, ok := strings.Cut(sb.String(), " "+name+"="); ok {
					fmt.Fprintf(w, "%s=%s", name, rest)
				}
			}
			continue
		}
		r.printDecl(w, name, v)
	}
	if variant == "declare" && !a.print && a.on == "" {
		for _, name := range slices.Sorted(maps.Keys(r.funcs)) {
			r.printFunc(w, name, r.funcs[name])
		}
	}
}

func (r *Runner) declFlags(v *variable) string {
	var sb strings.Builder
	switch v.Kind {
	case expand.Indexed:
		sb.WriteByte('a')
	case expand.Associative:
		sb.WriteByte('A')
	}
	if v.integer {
		sb.WriteByte('i')
	}
	if v.Kind == expand.NameRef {
		sb.WriteByte('n')
	}
	if v.ReadOnly {
		sb.WriteByte('r')
	}
	if v.trace {
		sb.WriteByte('t')
	}
	// bash's var_attribute_string puts the case attributes last.
	if v.Exported {
		sb.WriteByte('x')
	}
	if v.lower {
		sb.WriteByte('l')
	}
	if v.upper {
		sb.WriteByte('u')
	}
	return sb.String()
}

// printDecl prints one variable in `declare -p` form.
func (r *Runner) printDecl(w io.Writer, name string, v *variable) {
	flags := r.declFlags(v)
	if flags == "" {
		flags = "-"
	}
	var val string
	switch v.Kind {
	case expand.Indexed:
		if v.Set || len(v.List) > 0 {
			var sb strings.Builder
			sb.WriteString("=(")
			for k, i := range indexedKeys(v.List, v.Indexes) {
				if k > 0 {
					sb.WriteByte(' ')
				}
				fmt.Fprintf(&sb, "[%d]=%s", i, quoteDeclValue(v.List[k]))
			}
			sb.WriteString(")")
			val = sb.String()
		}
	case expand.Associative:
		if v.Set || v.Map.Len() > 0 {
			var sb strings.Builder
			sb.WriteString("=(")
			v.Map.Each(func(k, val string) bool {
				fmt.Fprintf(&sb, "[%s]=%s ", quoteAssocKey(k), quoteDeclValue(val))
				return true
			})
			sb.WriteString(")")
			val = sb.String()
		}
	default:
		if v.Set {
			val = "=" + quoteDeclValue(v.Str)
		}
	}
	fmt.Fprintf(w, "declare -%s %s%s\n", flags, name, val)
}

func quoteAssocKey(k string) string {
	if k != "" && !strings.ContainsAny(k, " \t\n\"'\\$`;&|<>()[]*?~#=") {
		return k
	}
	return quoteDeclValue(k)
}

// quoteDeclValue quotes a value the way declare -p does: "..." unless it
// has control characters, which need $'...'.
func quoteDeclValue(s string) string {
	if expand.NeedsANSIC(s) {
		return ansiCQuote(s)
	}
	var sb strings.Builder
	sb.WriteByte('"')
	for _, c := range []byte(s) {
		switch c {
		case '"', '\\', '$', '`':
			sb.WriteByte('\\')
		}
		sb.WriteByte(c)
	}
	sb.WriteByte('"')
	return sb.String()
}

// ansiCQuote renders s as $'...'.
func ansiCQuote(s string) string { return expand.ANSIC(s) }

// printFunc prints a function definition like `declare -f`.
func (r *Runner) printFunc(w io.Writer, name string, body *syntax.Stmt) {
	fmt.Fprintf(w, "%s\n", bashFuncText(name, body))
}

// funcText is a function body as declare -f prints it.
func (r *Runner) funcText(body *syntax.Stmt) string {
	var sb strings.Builder
	p := syntax.NewPrinter(syntax.Indent(4))
	p.Print(&sb, body)
	return sb.String()
}

// letClause runs `let expr...`. Like bash's let builtin, it expands its
// words as any command's arguments and evaluates each resulting word as
// an expression; only a parser for another shell gives it parsed
// expressions.
func (r *Runner) letClause(ctx context.Context, lc *syntax.LetClause) {
	var words []*syntax.Word
	for _, x := range lc.Exprs {
		if w, ok := x.(*syntax.Word); ok {
			words = append(words, w)
		}
	}
	n := 0
	if len(words) == len(lc.Exprs) {
		args, err := r.fields(ctx, words...)
		if err != nil {
			r.expandError(err)
			return
		}
		r.trace(ctx, append([]string{"let"}, args...)...)
		if len(args) == 0 {
			r.builtinErr("let", "expression expected")
			r.lastStatus = 1
			return
		}
		for _, a := range args {
			if n, err = r.arithValue(ctx, a); err != nil {
				r.letError(err)
				return
			}
		}
		r.lastStatus = oneIfZero(n)
		return
	}
	for _, x := range lc.Exprs {
		var err error
		if n, err = r.arith(ctx, x); err != nil {
			r.letError(err)
			return
		}
	}
	r.lastStatus = oneIfZero(n)
}

// letError reports a failed let expression. Unlike other expansion errors
// it does not end the shell: bash's let just returns 1.
func (r *Runner) letError(err error) {
	if r.s.fatalErr() != nil {
		r.expandError(err)
		return
	}
	r.builtinErr("let", "%v", err)
	r.lastStatus = 1
}

// validNamerefTarget reports whether a nameref may point at s: a
// variable name or an array element (bash refuses `1', `@', `#').
func validNamerefTarget(s string) bool {
	if syntax.ValidName(s) {
		return true
	}
	i := strings.IndexByte(s, '[')
	return i > 0 && syntax.ValidName(s[:i]) && strings.HasSuffix(s, "]")
}

// setNameref gives the nameref v (called name) its target; an invalid one
// is an error, and a nameref this declaration created is dropped again.
func (r *Runner) setNameref(variant, name string, v *variable, target string) bool {
	refuse := func(format, arg string) bool {
		r.builtinErr(variant, format, arg)
		r.lastStatus = 1
		if !v.Set {
			if cur, i := r.lookup(name); cur == v && i >= 0 {
				r.unsetScoped(i, name)
			}
		}
		return false
	}
	if (target == name || strings.HasPrefix(target, name+"[")) && r.depth() == 0 {
		return refuse("%s: nameref variable self references not allowed", name)
	}
	if !validNamerefTarget(target) {
		return refuse("`%s': invalid variable name for name reference", target)
	}
	v.Str, v.Set = target, true
	return true
}
