package expand

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/sandsh/sandsh/interp/internal/parseguard"
	"mvdan.cc/sh/v3/syntax"
)

// sandsh: paramParts expands a parameter expansion into chunks (see
// fields.go). List expansions keep their elements apart, and the word of
// ${v:-word} and ${v:+word} keeps its own quoting, so "${v:-"a b" c}"
// and ${v:-"$@"} split as in bash.
func (cfg *Config) paramParts(pe *syntax.ParamExp, pc partsCtx) ([]fieldPart, error) {
	return cfg.paramPartsVia(pe, pc, false)
}

// paramPartsVia is paramParts; viaIndirect says pe is the target of
// ${!ref...}.
func (cfg *Config) paramPartsVia(pe *syntax.ParamExp, pc partsCtx, viaIndirect bool) ([]fieldPart, error) {
	if target, err := cfg.indirect(pe); err != nil {
		return nil, err
	} else if target != nil {
		return cfg.paramPartsVia(target, pc, true)
	}
	if pe.Param != nil && pe.Exp != nil && pe.Exp.Word != nil {
		switch pe.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull,
			syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
			// bash tests ${!ref:-w} on the value it got through
			// ref: quoted (or an assignment's value), the elements of
			// a set list (ref=a[@] with a=("")) come back as a quoted
			// empty string, which is not null there.
			setNotNull := viaIndirect && (pc.quoted() || pc.assign)
			useWord, err := cfg.paramUsesWord(pe, pc.quoted(), setNotNull)
			if err != nil {
				return nil, err
			}
			if useWord {
				inner := pc
				inner.inParam = true
				inner.tilde = true
				return cfg.wordParts(pe.Exp.Word.Parts, inner)
			}
			switch pe.Exp.Op {
			case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
				return nil, nil
			}
			// The value itself, as if there were no operator.
			bare := *pe
			bare.Exp = nil
			pe = &bare
		}
	}
	if elems, star, ok, err := cfg.paramElems(pe); err != nil {
		return nil, err
	} else if ok {
		if star && pe.Excl && pc.fields && !pc.quoted() && cfg.ifs == "" {
			// bash's quirk: with an empty IFS, unquoted ${!prefix*} and
			// ${!a[*]} are one field, joined as if quoted (the keys
			// with spaces).
			sep := ""
			if pe.Names == 0 {
				sep = " "
			}
			return []fieldPart{{val: strings.Join(elems, sep), split: true}}, nil
		}
		return cfg.elemParts(elems, star, pc), nil
	}
	val, err := cfg.paramExp(pe)
	if err != nil {
		return nil, err
	}
	return []fieldPart{cfg.valuePart(val, pc)}, nil
}

// paramUsesWord reports whether ${v-word}, ${v:-word}, ${v+word} or
// ${v:+word} expands to its word.
func (cfg *Config) paramUsesWord(pe *syntax.ParamExp, quoted, setNotNull bool) (bool, error) {
	bare := *pe
	bare.Exp = nil
	var set, null bool
	if elems, star, ok, err := cfg.paramElems(&bare); err != nil {
		return false, err
	} else if ok {
		// A list is unset with no elements, and null when its elements
		// join into an empty string.
		set = len(elems) > 0
		// "$*" is tested joined with IFS, but unquoted $* (like $@)
		// joined with spaces, as bash does.
		if star && quoted {
			null = cfg.ifsJoin(elems) == ""
		} else {
			null = strings.Join(elems, " ") == ""
		}
		null = null && !(set && setNotNull)
	} else {
		noUnset := cfg.NoUnset
		cfg.NoUnset = false
		val, isSet, err := cfg.paramValue(&bare)
		cfg.NoUnset = noUnset
		if err != nil {
			return false, err
		}
		set, null = isSet, val == ""
	}
	switch pe.Exp.Op {
	case syntax.DefaultUnset:
		return !set, nil
	case syntax.DefaultUnsetOrNull:
		return !set || null, nil
	case syntax.AlternateUnset:
		return set, nil
	default: // AlternateUnsetOrNull
		return set && !null, nil
	}
}

// isAtList reports whether pe, double-quoted, expands to one field per
// element, like "$@" and "${a[@]}".
func (cfg *Config) isAtList(pe *syntax.ParamExp) bool {
	star, ok := listForm(pe)
	return ok && !star
}

// listForm reports whether pe is a list expansion, and whether of the
// "*" form (joined into one string when quoted).
func listForm(pe *syntax.ParamExp) (star, ok bool) {
	if pe.Param == nil || pe.Length || pe.Width || pe.IsSet {
		return false, false
	}
	if pe.Excl {
		switch pe.Names {
		case syntax.NamesPrefixWords:
			return false, true
		case syntax.NamesPrefix:
			return true, true
		}
		if keysForm(pe) {
			return nodeLit(pe.Index) == "*", true
		}
		return false, false
	}
	switch pe.Param.Value {
	case "@":
		return false, true
	case "*":
		return true, true
	}
	switch nodeLit(pe.Index) {
	case "@":
		return false, true
	case "*":
		return true, true
	}
	return false, false
}

// paramElems returns the elements of a list expansion, with the
// per-element operators applied (${a[@]#x}, ${@/a/b}, ${a[@]@Q}).
func (cfg *Config) paramElems(pe *syntax.ParamExp) (elems []string, star, ok bool, err error) {
	star, ok = listForm(pe)
	if !ok {
		return nil, false, false, nil
	}
	if pe.Excl {
		switch {
		case pe.Names != 0:
			elems = cfg.namesByPrefix(pe.Param.Value)
		default:
			_, vr := cfg.Env.Get(pe.Param.Value).Resolve(cfg.Env)
			switch vr.Kind {
			case Indexed:
				elems = vr.indexedKeys()
			case Associative:
				elems = vr.Map.Keys()
			default:
				if vr.IsSet() {
					elems = []string{"0"}
				}
			}
		}
		return elems, star, true, nil
	}
	// Like bash, set -u lets "${undefined[@]}" expand to nothing.
	var vr Variable
	if err := cfg.listSliceErr(pe); err != nil {
		return nil, false, false, err
	}
	elems, star, ok = cfg.listElems(pe)
	if !ok {
		// A scalar or unset variable as ${s[@]}: one element or none.
		_, vr = cfg.Env.Get(pe.Param.Value).Resolve(cfg.Env)
		if pe.Slice != nil && vr.IsSet() {
			return nil, false, false, nil // a string slice
		}
		elems = nil
		if vr.IsSet() {
			elems = []string{vr.String()}
		}
	}
	if pe.Exp != nil && pe.Exp.Op == syntax.OtherParamOps {
		if whole, ok := cfg.listTransform(pe, elems, star); ok {
			return whole, star, true, nil
		}
	}
	elems, err = cfg.perElemOps(pe, elems)
	if err != nil {
		return nil, false, false, err
	}
	return elems, star, true, nil
}

// listTransform applies the ${a[@]@op} transformations that work on the
// whole list rather than on each element: @A (a declare command) and @K,
// @k (keys and values).
func (cfg *Config) listTransform(pe *syntax.ParamExp, elems []string, star bool) ([]string, bool) {
	arg := nodeLit(pe.Exp.Word)
	name := pe.Param.Value
	orig := cfg.Env.Get(name)
	n, vr := orig.Resolve(cfg.Env)
	if n != "" {
		name = n
	}
	positional := name == "@" || name == "*"
	switch arg {
	case "A":
		var out []string
		switch {
		case positional:
			out = []string{"set", "--"}
			for _, e := range elems {
				out = append(out, BashQuote(e))
			}
		case vr.Kind == Indexed || vr.Kind == Associative:
			out = []string{"declare", "-" + orig.Flags(), name + "=" + arrayLiteral(vr)}
		default:
			out = []string{declareCmd(name, orig, elems)}
		}
		if star {
			return []string{strings.Join(out, " ")}, true
		}
		return out, true
	case "K", "k":
		if positional {
			return nil, false // per element, like @Q
		}
		var keys, vals []string
		switch vr.Kind {
		case Indexed:
			keys, vals = vr.indexedKeys(), vr.List
		case Associative:
			keys, vals = vr.Map.Keys(), vr.Map.Values()
		default:
			return nil, false
		}
		var out []string
		for i, k := range keys {
			if arg == "k" {
				out = append(out, k, vals[i])
			} else {
				out = append(out, quoteKey(k)+" "+dquote(vals[i]))
			}
		}
		if arg == "K" {
			s := strings.Join(out, " ")
			if vr.Kind == Associative && s != "" {
				s += " " // bash's quirk, as in declare -p
			}
			return []string{s}, true
		}
		if star {
			return []string{cfg.ifsJoin(out)}, true
		}
		return out, true
	}
	return nil, false
}

// transform applies a ${v@op} transformation to one value. name and vr
// are the variable's, for @A and @a.
func (cfg *Config) transform(op, val, name string, vr Variable) (string, error) {
	switch op {
	case "Q", "K", "k":
		return BashQuote(val), nil
	case "E":
		s, _, _ := Format(cfg, ansiCtrl(val), nil)
		s, _, _ = strings.Cut(s, "\x00")
		return s, nil
	case "P":
		return cfg.promptExpand(val), nil
	case "U":
		return strings.ToUpper(val), nil
	case "L":
		return strings.ToLower(val), nil
	case "u":
		if val == "" {
			return "", nil
		}
		r, size := utf8.DecodeRuneInString(val)
		return strings.ToUpper(string(r)) + val[size:], nil
	case "a":
		return vr.Flags(), nil
	case "A":
		if !vr.IsSet() {
			return "", nil
		}
		return declareCmd(name, vr, []string{val}), nil
	}
	return "", fmt.Errorf("%s: bad substitution", "${"+name+"@"+op+"}")
}

// declareCmd renders the command that recreates a scalar, like ${x@A}.
func declareCmd(name string, vr Variable, elems []string) string {
	val := ""
	if len(elems) > 0 {
		val = elems[0]
	}
	if flags := vr.Flags(); flags != "" {
		return "declare -" + flags + " " + name + "=" + BashQuote(val)
	}
	return name + "=" + BashQuote(val)
}

// arrayLiteral renders an array's value the way declare -p does.
func arrayLiteral(vr Variable) string {
	var sb strings.Builder
	sb.WriteByte('(')
	switch vr.Kind {
	case Indexed:
		for i, k := range vr.indexedKeys() {
			if i > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString("[" + k + "]=" + dquote(vr.List[i]))
		}
	case Associative:
		vr.Map.Each(func(k, v string) bool {
			sb.WriteString("[" + quoteKey(k) + "]=" + dquote(v) + " ")
			return true
		})
	}
	sb.WriteByte(')')
	return sb.String()
}

// dquote quotes s in double quotes like declare -p, or as $'...' when it
// has control characters.
func dquote(s string) string {
	if NeedsANSIC(s) {
		return ANSIC(s)
	}
	var sb strings.Builder
	sb.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\', '$', '`':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		default:
			sb.WriteByte(c)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

// quoteKey quotes an associative array key when it has characters that
// would not read back as one word.
func quoteKey(k string) string {
	if k != "" && !strings.ContainsAny(k, " \t\n\"'\\$`|&;()<>[]*?!~#{}=") {
		return k
	}
	return dquote(k)
}

// promptExpand does the backslash escapes of a prompt string, for ${v@P}.
// sandsh has no terminal and no job numbers, so it covers the escapes a
// script can use meaningfully.
func (cfg *Config) promptExpand(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			sb.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'u':
			sb.WriteString(cfg.envGet("USER"))
		case 'h', 'H':
			h := cfg.envGet("HOSTNAME")
			if e == 'h' {
				h, _, _ = strings.Cut(h, ".")
			}
			sb.WriteString(h)
		case 'w', 'W':
			dir := cfg.envGet("PWD")
			if home := cfg.envGet("HOME"); home != "" && (dir == home || strings.HasPrefix(dir, home+"/")) {
				dir = "~" + dir[len(home):]
			}
			if e == 'W' && dir != "/" && dir != "~" {
				dir = dir[strings.LastIndexByte(dir, '/')+1:]
			}
			sb.WriteString(dir)
		case 's':
			sb.WriteString("bash")
		case 'v', 'V':
			v := cfg.envGet("BASH_VERSION")
			if e == 'v' {
				if parts := strings.SplitN(v, ".", 3); len(parts) >= 2 {
					v = parts[0] + "." + parts[1]
				}
			}
			sb.WriteString(v)
		case '$':
			if cfg.envGet("EUID") == "0" {
				sb.WriteByte('#')
			} else {
				sb.WriteByte('$')
			}
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 'a':
			sb.WriteByte('\a')
		case 'e':
			sb.WriteByte(0x1b)
		case '\\':
			sb.WriteByte('\\')
		case '[', ']':
			// non-printing markers: nothing
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n, j := 0, i
			for ; j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7'; j++ {
				n = n*8 + int(s[j]-'0')
			}
			sb.WriteByte(byte(n))
			i = j - 1
		default:
			sb.WriteByte('\\')
			sb.WriteByte(e)
		}
	}
	return sb.String()
}

// keysForm reports whether pe is ${!a[@]} or ${!a[*]}, the keys of an
// array; with an operator (${!a[@]-x}) it is an indirection through the
// elements instead, as in bash.
func keysForm(pe *syntax.ParamExp) bool {
	switch nodeLit(pe.Index) {
	case "@", "*":
		return pe.Exp == nil && pe.Repl == nil && pe.Slice == nil
	}
	return false
}

// indirect resolves ${!ref...}: the value of ref (or of ref[i]) names the
// parameter that the rest of the expansion, operators included, applies
// to, such as "arr[2]" or "@". It returns nil when pe is not an
// indirection (${!prefix*}, ${!a[@]}, ${!nameref}).
func (cfg *Config) indirect(pe *syntax.ParamExp) (*syntax.ParamExp, error) {
	if t := cfg.refElem(pe); t != nil {
		return t, nil
	}
	if !pe.Excl || pe.Names != 0 || pe.Param == nil || keysForm(pe) {
		return nil, nil
	}
	if pe.Index == nil && cfg.Env.Get(pe.Param.Value).Kind == NameRef {
		return nil, nil // the name the reference points to
	}
	bare := &syntax.ParamExp{Dollar: pe.Dollar, Rbrace: pe.Rbrace, Param: pe.Param, Index: pe.Index}
	var ref string
	if elems, star, ok, err := cfg.paramElems(bare); err != nil {
		return nil, err
	} else if ok {
		if len(elems) == 0 {
			return nil, fmt.Errorf("%s: invalid indirect expansion", pe.Param.Value)
		}
		if star {
			ref = cfg.ifsJoin(elems)
		} else {
			ref = strings.Join(elems, " ")
		}
	} else {
		val, set, err := cfg.paramValue(bare)
		if err != nil {
			return nil, err
		}
		if !set {
			if _, vr := cfg.Env.Get(pe.Param.Value).Resolve(cfg.Env); vr.IsSet() && (vr.Kind == Indexed || vr.Kind == Associative) {
				// An array whose element is missing names nothing:
				// the expansion is of an unset parameter, named as
				// bash names it in messages (!a[5]: unbound variable),
				// whose attributes are none (${!A@a} is empty).
				if pe.Exp != nil && (pe.Exp.Op == syntax.AssignUnset || pe.Exp.Op == syntax.AssignUnsetOrNull) {
					return nil, fmt.Errorf("%s: invalid indirect expansion", excl(pe))
				}
				target := *pe
				target.Excl = false
				target.Param = &syntax.Lit{ValuePos: pe.Param.ValuePos, ValueEnd: pe.Param.ValueEnd, Value: excl(pe)}
				target.Index = nil
				return &target, nil
			}
			return nil, fmt.Errorf("%s: invalid indirect expansion", pe.Param.Value)
		}
		ref = val
	}
	name, sub, hasSub := strings.Cut(ref, "[")
	if hasSub {
		if !SubscriptCloses(sub) || len(sub) < 2 {
			return nil, fmt.Errorf("%s: invalid variable name", ref)
		}
		sub = sub[:len(sub)-1]
	}
	if !syntax.ValidName(name) && !isSpecialParam(name, hasSub) {
		return nil, fmt.Errorf("%s: invalid variable name", ref)
	}
	target := *pe
	target.Excl = false
	target.Param = &syntax.Lit{ValuePos: pe.Param.ValuePos, ValueEnd: pe.Param.ValueEnd, Value: name}
	target.Index = nil
	if hasSub {
		target.Index = parseSubscript(sub)
	}
	return &target, nil
}

// excl is the text of ${!ref...}'s reference as bash names it in
// messages: !ref, or !a[sub].
func excl(pe *syntax.ParamExp) string {
	if pe.Index == nil {
		return "!" + pe.Param.Value
	}
	var sb strings.Builder
	syntax.NewPrinter().Print(&sb, &syntax.ParamExp{Param: pe.Param, Index: pe.Index})
	return "!" + strings.TrimSuffix(strings.TrimPrefix(sb.String(), "${"), "}")
}

// refElem rewrites $ref, where the nameref ref points at an array
// element such as "a[1]" or "a[@]", as that element's expansion, operators
// included: "$ref" with ref=a[@] gives a's elements as "${a[@]}" does.
// It returns nil for anything else (bash's ${#ref} and ${ref[i]} do not
// follow such a reference).
func (cfg *Config) refElem(pe *syntax.ParamExp) *syntax.ParamExp {
	if pe.Excl || pe.Length || pe.Param == nil || pe.Index != nil || pe.Names != 0 {
		return nil
	}
	v := cfg.Env.Get(pe.Param.Value)
	if v.Kind != NameRef {
		return nil
	}
	t := v.Str
	for range maxNameRefDepth {
		nv := cfg.Env.Get(t)
		if nv.Kind != NameRef {
			break
		}
		t = nv.Str
	}
	name, sub, ok := strings.Cut(t, "[")
	if !ok || len(sub) < 2 || !strings.HasSuffix(sub, "]") || !syntax.ValidName(name) {
		return nil
	}
	target := *pe
	target.Param = &syntax.Lit{ValuePos: pe.Param.ValuePos, ValueEnd: pe.Param.ValueEnd, Value: name}
	target.Index = parseSubscript(sub[:len(sub)-1])
	return &target
}

// SubscriptCloses reports whether sub, the text after a name's "[",
// ends with the "]" that closes it, as bash matches brackets: nested
// ones and quoted text skipped (unset 'a[1],a[1]' and ${!ref} with
// ref='a[1"]' name no element).
func SubscriptCloses(sub string) bool {
	depth := 0
	var quote byte
	for i := 0; i < len(sub); i++ {
		c := sub[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		case c == '[':
			depth++
		case c == ']':
			if depth == 0 {
				return i == len(sub)-1
			}
			depth--
		}
	}
	return false
}

// parseSubscript reads the subscript text of a reference like A["k"] or
// a[$i+1] as bash does, as the subscript of an assignment: its quotes
// removed and its expansions done when it is used.
func parseSubscript(sub string) syntax.ArithmExpr {
	plain := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: unquoteSubscript(sub)}}}
	if sub == "@" || sub == "*" || !strings.ContainsAny(sub, "\"'$`") {
		return plain
	}
	src := "_[" + sub + "]="
	f, err := syntax.NewParser().Parse(parseguard.String(nil, src), "")
	if err != nil || len(f.Stmts) != 1 || parseguard.Check(f, len(src)) != nil {
		return plain
	}
	ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) != 0 || len(ce.Assigns) != 1 || ce.Assigns[0].Index == nil {
		return plain
	}
	return ce.Assigns[0].Index
}

// isSpecialParam reports whether name is a special or positional
// parameter that ${!ref} may name.
func isSpecialParam(name string, hasSub bool) bool {
	if hasSub || name == "" {
		return false
	}
	switch name {
	case "@", "*", "#", "?", "-", "$", "!", "0":
		return true
	}
	for _, r := range name {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// unquoteSubscript removes the quotes of a subscript named by an
// indirection, like the "ale" of assoc["ale"].
func unquoteSubscript(s string) string {
	if !strings.ContainsAny(s, `"'\`) {
		return s
	}
	var sb strings.Builder
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q == 0 && (c == '"' || c == '\''):
			q = c
		case c == q:
			q = 0
		case c == '\\' && q != '\'' && i+1 < len(s):
			i++
			sb.WriteByte(s[i])
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}
