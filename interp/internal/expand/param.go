// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package expand

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

func nodeLit(node syntax.Node) string {
	if word, ok := node.(*syntax.Word); ok {
		return word.Lit()
	}
	return ""
}

// UnsetParameterError is returned when a parameter expansion encounters an
// unset variable and [Config.NoUnset] has been set.
type UnsetParameterError struct {
	Node    *syntax.ParamExp
	Message string
}

func (u UnsetParameterError) Error() string {
	return fmt.Sprintf("%s: %s", u.Node.Param.Value, u.Message)
}

func overridingUnset(pe *syntax.ParamExp) bool {
	if pe.Exp == nil {
		return false
	}
	switch pe.Exp.Op {
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull,
		syntax.DefaultUnset, syntax.DefaultUnsetOrNull,
		syntax.ErrorUnset, syntax.ErrorUnsetOrNull,
		syntax.AssignUnset, syntax.AssignUnsetOrNull:
		return true
	}
	return false
}

func (cfg *Config) paramExp(pe *syntax.ParamExp) (string, error) {
	str, _, err := cfg.paramValue(pe)
	return str, err
}

// EmptyIndex reports whether x is the subscript of a[], which the parser
// keeps as a word of one empty literal for bash to refuse when it runs.
func EmptyIndex(x syntax.ArithmExpr) bool {
	w, ok := x.(*syntax.Word)
	if !ok || len(w.Parts) != 1 {
		return false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	return ok && l.Value == ""
}

// BadSubstError is an expansion bash parses but refuses when it expands
// it, like ${%}: like an arithmetic error, it abandons the command line.
type BadSubstError struct {
	Text string
	// Prefix words it "bad substitution: Text", as bash does for a
	// substitution it cannot read (no closing backquote).
	Prefix bool
}

func (e *BadSubstError) Error() string {
	if e.Prefix {
		return "bad substitution: " + e.Text
	}
	return e.Text + ": bad substitution"
}

// paramValue expands pe, also reporting whether the parameter (or
// element) is set; operators like ${v:-word} see both.
func (cfg *Config) paramValue(pe *syntax.ParamExp) (_ string, set bool, _ error) {
	if pe.Bad != "" { // sandsh: bash refuses it only when it runs
		var sb strings.Builder
		syntax.NewPrinter().Print(&sb, pe)
		return "", false, &BadSubstError{Text: sb.String()}
	}
	if EmptyIndex(pe.Index) {
		return "", false, &BadSubstError{Text: "${" + pe.Param.Value + "[]}"}
	}
	if target, err := cfg.indirect(pe); err != nil {
		return "", false, err
	} else if target != nil {
		return cfg.paramValue(target)
	}
	oldParam := cfg.curParam
	cfg.curParam = pe
	defer func() { cfg.curParam = oldParam }()

	if pe.Param == nil { // e.g. zsh's ${}
		return "", false, fmt.Errorf("unsupported")
	}
	name := pe.Param.Value
	index := pe.Index
	switch name {
	case "@", "*":
		index = &syntax.Word{Parts: []syntax.WordPart{
			&syntax.Lit{Value: name},
		}}
	}
	// "*" expansions like ${*}, ${arr[*]}, or ${!prefix*} join their
	// elements with the first IFS character; others use a space.
	join := func(elems []string) string {
		if nodeLit(index) == "*" || pe.Names == syntax.NamesPrefix {
			return cfg.ifsJoin(elems)
		}
		return strings.Join(elems, " ")
	}
	var vr Variable
	switch name {
	case "LINENO":
		// This is the only parameter expansion that the environment
		// interface cannot satisfy.
		line := uint64(cfg.curParam.Pos().Line())
		if cfg.Line != 0 {
			line = uint64(cfg.Line)
		}
		vr = Variable{Set: true, Kind: String, Str: strconv.FormatUint(line, 10)}
	default:
		vr = cfg.Env.Get(name)
	}
	orig := vr
	if n, v := vr.Resolve(cfg.Env); n != "" {
		name, vr = n, v
	}
	if cfg.NoUnset && !vr.IsSet() && !overridingUnset(pe) {
		return "", false, UnsetParameterError{
			Node:    pe,
			Message: "unbound variable",
		}
	}

	var sliceOffset, sliceLen int
	if pe.Slice != nil {
		var err error
		if pe.Slice.Offset != nil {
			sliceOffset, err = Arithm(cfg, pe.Slice.Offset)
			if err != nil {
				return "", false, err
			}
		}
		if pe.Slice.Length != nil {
			sliceLen, err = Arithm(cfg, pe.Slice.Length)
			if err != nil {
				return "", false, err
			}
		}
		if err := cfg.listSliceErr(pe); err != nil {
			return "", false, err
		}
	}

	var (
		str   string
		elems []string

		indexAllElements bool // true if var has been accessed with * or @ index
		callVarInd       = true
	)
	set = vr.IsSet()

	switch nodeLit(index) {
	case "@", "*":
		switch vr.Kind {
		case Unknown:
			elems = nil
			indexAllElements = true
		case String:
			if pe.Slice != nil {
				break // bash slices the string's characters: ${s[@]:1}
			}
			// sandsh: a scalar is an array of one element: ${x[@]}.
			indexAllElements = true
			callVarInd = false
			if vr.IsSet() {
				elems = cfg.sliceElems(pe, []string{vr.Str}, nil, false)
			}
			str = join(elems)
		case Indexed:
			indexAllElements = true
			callVarInd = false
			elems = cfg.sliceElems(pe, vr.List, vr.Indexes, name == "@" || name == "*")
			str = join(elems)
		case Associative:
			// sandsh: ${#m[@]} counts the elements, ${m[@]:1} slices them.
			indexAllElements = true
			callVarInd = false
			elems = cfg.sliceList(pe, vr.Map.Values(), nil, false, true)
			str = join(elems)
		}
	}
	if callVarInd {
		var err error
		str, set, err = cfg.varInd(name, vr, index)
		if err != nil {
			return "", false, err
		}
	}
	if !indexAllElements && (pe.Repl != nil || pe.Exp != nil) {
		// sandsh: only the operators below work on a list of one.
		elems = []string{str}
	}

	switch {
	case pe.Length:
		n := len(elems)
		if !indexAllElements {
			n = 1
		}
		switch nodeLit(index) {
		case "@", "*":
		default:
			n = utf8.RuneCountInString(str)
		}
		str = strconv.Itoa(n)
	case pe.Excl:
		var strs []string
		switch {
		case pe.Names != 0:
			strs = cfg.namesByPrefix(pe.Param.Value)
		case orig.Kind == NameRef:
			strs = append(strs, orig.Str)
		case pe.Index != nil && vr.Kind == Indexed:
			strs = vr.indexedKeys()
		case pe.Index != nil && vr.Kind == Associative:
			strs = vr.Map.Keys()
		case !vr.IsSet():
			return "", false, fmt.Errorf("%s: invalid indirect expansion", pe.Param.Value)
		case str == "":
			return "", false, nil
		default:
			vr = cfg.Env.Get(str)
			strs = append(strs, vr.String())
		}
		str = join(strs)
	case pe.Width:
		return "", false, fmt.Errorf("unsupported")
	case pe.IsSet:
		return "", false, fmt.Errorf("unsupported")
	case pe.Slice != nil:
		if callVarInd && isASCII(str) {
			// sandsh: characters are bytes; slice without copying.
			bs := str
			if pe.Slice.Offset != nil {
				bs = bs[slicePos(sliceOffset, len(bs)):]
			}
			if pe.Slice.Length != nil {
				if sliceLen < 0 && len(bs)+sliceLen < 0 {
					return "", false, &ArithmError{Err: fmt.Errorf("%d: substring expression < 0", sliceLen)}
				}
				bs = bs[:slicePos(sliceLen, len(bs))]
			}
			str = bs
		} else if callVarInd {
			// The offset and length are in characters, not bytes.
			rs := []rune(str)
			if pe.Slice.Offset != nil {
				rs = rs[slicePos(sliceOffset, len(rs)):]
			}
			if pe.Slice.Length != nil {
				if sliceLen < 0 && len(rs)+sliceLen < 0 {
					// bash: the end falls before the offset.
					return "", false, &ArithmError{Err: fmt.Errorf("%d: substring expression < 0", sliceLen)}
				}
				rs = rs[:slicePos(sliceLen, len(rs))]
			}
			str = string(rs)
		} // else, elems are already sliced
	case pe.Repl != nil:
		elems, err := cfg.replaceElems(pe.Repl, elems)
		if err != nil {
			return "", false, err
		}
		str = join(elems)
	case pe.Exp != nil:
		arg, err := cfg.expArg(pe.Exp)
		if err != nil {
			return "", false, err
		}
		switch op := pe.Exp.Op; op {
		case syntax.AlternateUnsetOrNull:
			if str == "" {
				break
			}
			fallthrough
		case syntax.AlternateUnset:
			if set {
				str = arg
			}
		case syntax.DefaultUnset:
			if set {
				break
			}
			fallthrough
		case syntax.DefaultUnsetOrNull:
			if str == "" {
				str = arg
			}
		case syntax.ErrorUnset:
			if set {
				break
			}
			fallthrough
		case syntax.ErrorUnsetOrNull:
			if str == "" {
				msg := arg
				if pe.Exp.Word == nil {
					// sandsh: bash's words for ${v?} and ${v:?} with no message.
					msg = "parameter not set"
					if op == syntax.ErrorUnsetOrNull {
						msg = "parameter null or not set"
					}
				}
				return "", false, UnsetParameterError{
					Node:    pe,
					Message: msg,
				}
			}
		case syntax.AssignUnset:
			if set {
				break
			}
			fallthrough
		case syntax.AssignUnsetOrNull:
			if str == "" {
				if err := cfg.assignElem(name, vr, index, arg); err != nil {
					return "", false, err
				}
				str = arg
			}
		case syntax.RemSmallPrefix, syntax.RemLargePrefix,
			syntax.RemSmallSuffix, syntax.RemLargeSuffix:
			str = join(cfg.removePatternElems(op, arg, elems))
		case syntax.UpperFirst, syntax.UpperAll,
			syntax.LowerFirst, syntax.LowerAll,
			syntax.ToggleFirst, syntax.ToggleAll:
			str = join(cfg.caseConvElems(op, arg, elems))
		case syntax.OtherParamOps:
			if !set {
				// An unset value quotes to nothing; @A still names the
				// attributes of an array whose element is missing.
				switch arg {
				case "Q", "K", "k":
					return "", false, nil
				case "A":
					if flags := orig.Flags(); flags != "" && orig.Declared() {
						return "declare -" + flags + " " + name, false, nil
					}
					return "", false, nil
				}
			}
			var err error
			if str, err = cfg.transform(arg, str, name, orig); err != nil {
				return "", false, err
			}
		}
	}
	return str, set, nil
}

// isASCII reports whether s has only ASCII bytes, whose characters are
// its bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// literalPattern reports whether pat (as Pattern returns it) matches
// only its own text (sandsh): ASCII, with no character a pattern or an
// extended pattern treats specially, so plain string search does what
// the regular expression would.
func literalPattern(pat string) bool {
	for i := 0; i < len(pat); i++ {
		switch c := pat[i]; c {
		case '\\', '*', '?', '[', ']', '(', ')', '|', '@', '!', '+':
			return false
		default:
			if c >= utf8.RuneSelf {
				return false
			}
		}
	}
	return true
}

// regexp compiles a regular expression built from a pattern, through the
// caller's cache when there is one; like regexp.MustCompile it panics on
// an invalid one (which the runner's guard reports).
func (cfg *Config) regexp(expr string) *regexp.Regexp {
	if cfg.CompileRegexp == nil {
		return regexp.MustCompile(ValidRegexp(expr))
	}
	rx, err := cfg.CompileRegexp(expr)
	if err != nil {
		panic(err)
	}
	return rx
}

func (cfg *Config) removePattern(str, pat string, fromEnd, shortest bool, mode pattern.Mode) string {
	if literalPattern(pat) {
		if fromEnd {
			return strings.TrimSuffix(str, pat)
		}
		return strings.TrimPrefix(str, pat)
	}
	if shortest {
		mode |= pattern.Shortest
	}
	expr, err := pattern.Regexp(pat, mode)
	if err != nil {
		return str
	}
	switch {
	case fromEnd && shortest:
		// use .* to get the right-most shortest match
		expr = ".*(" + expr + ")$"
	case fromEnd:
		// simple suffix
		expr = "(" + expr + ")$"
	default:
		// simple prefix
		expr = "^(" + expr + ")"
	}
	rx := cfg.regexp(expr)
	if loc := rx.FindStringSubmatchIndex(str); loc != nil {
		// remove the original pattern (the submatch)
		str = str[:loc[2]] + str[loc[3]:]
	}
	return str
}

// The helpers below never modify elems in place, as it may alias a
// variable's list of elements.

// perElemOps applies pattern removal, replacement, or case conversion to
// each element, leaving them unchanged for any whole-expansion operator.
func (cfg *Config) perElemOps(pe *syntax.ParamExp, elems []string) ([]string, error) {
	switch {
	case pe.Repl != nil:
		return cfg.replaceElems(pe.Repl, elems)
	case pe.Exp != nil:
		arg, err := cfg.expArg(pe.Exp)
		if err != nil {
			return nil, err
		}
		switch op := pe.Exp.Op; op {
		case syntax.RemSmallPrefix, syntax.RemLargePrefix,
			syntax.RemSmallSuffix, syntax.RemLargeSuffix:
			return cfg.removePatternElems(op, arg, elems), nil
		case syntax.UpperFirst, syntax.UpperAll,
			syntax.LowerFirst, syntax.LowerAll,
			syntax.ToggleFirst, syntax.ToggleAll:
			return cfg.caseConvElems(op, arg, elems), nil
		case syntax.OtherParamOps:
			name := pe.Param.Value
			_, vr := cfg.Env.Get(name).Resolve(cfg.Env)
			if name == "@" || name == "*" {
				vr = Variable{Set: true} // positional parameters have no attributes
			}
			out := make([]string, len(elems))
			for i, e := range elems {
				var err error
				if out[i], err = cfg.transform(arg, e, name, vr); err != nil {
					return nil, err
				}
			}
			return out, nil
		}
	}
	return elems, nil
}

// expArg expands the word of an operator: a pattern for the removal and
// case operators (quoted parts match literally), a string otherwise.
func (cfg *Config) expArg(exp *syntax.Expansion) (string, error) {
	switch exp.Op {
	case syntax.RemSmallPrefix, syntax.RemLargePrefix,
		syntax.RemSmallSuffix, syntax.RemLargeSuffix,
		syntax.UpperFirst, syntax.UpperAll,
		syntax.LowerFirst, syntax.LowerAll,
		syntax.ToggleFirst, syntax.ToggleAll:
		return Pattern(cfg, exp.Word)
	}
	return Literal(cfg, exp.Word)
}

// replaceElems applies a ${var/pattern/repl} replacement to each element.
func (cfg *Config) replaceElems(repl *syntax.Replace, elems []string) ([]string, error) {
	orig, err := Pattern(cfg, repl.Orig)
	if err != nil {
		return nil, err
	}
	// sandsh: ${v/#pat/r} and ${v/%pat/r} anchor the pattern at the start
	// or the end, when the # or % is written literally.
	var anchor byte
	// After //, a # or % is literal: ${x//%/-} replaces every %.
	if !repl.All && repl.Orig != nil && len(repl.Orig.Parts) > 0 {
		if lit, ok := repl.Orig.Parts[0].(*syntax.Lit); ok && lit.Value != "" && (lit.Value[0] == '#' || lit.Value[0] == '%') && orig != "" && orig[0] == lit.Value[0] {
			anchor, orig = orig[0], orig[1:]
		}
	}
	if anchor != 0 {
		return cfg.replaceAnchored(repl, orig, anchor, elems)
	}
	if orig == "" || negatedCloseBracket(orig) {
		// (sandsh: bash 5.2's ${v/pat/r} finds nothing with a negated
		// bracket expression that starts with ], [^]] or [!]a], though
		// its # % case and [[ == ]] match it.)
		return elems, nil // nothing to replace
	}
	with, err := Literal(cfg, repl.With)
	if err != nil {
		return nil, err
	}
	n := 1
	if repl.All {
		n = -1
	}
	out := make([]string, len(elems))
	if literalPattern(orig) {
		// sandsh: a plain string is found without a regular expression;
		// as below, the result may not grow past MaxBytes.
		for i, elem := range elems {
			k := strings.Index(elem, orig)
			if k < 0 {
				out[i] = elem
				continue
			}
			sb := cfg.strBuilder()
			last := 0
			for found := 0; k >= 0 && (n < 0 || found < n); found++ {
				sb.WriteString(elem[last : last+k])
				sb.WriteString(with)
				last += k + len(orig)
				if cfg.MaxBytes > 0 && sb.Len() > cfg.MaxBytes {
					return nil, ErrTooBig
				}
				k = strings.Index(elem[last:], orig)
			}
			sb.WriteString(elem[last:])
			out[i] = sb.String()
		}
		return out, nil
	}
	for i, elem := range elems {
		locs := cfg.findAllIndex(orig, elem, n, cfg.extMode())
		sb := cfg.strBuilder()
		last := 0
		for _, loc := range locs {
			sb.WriteString(elem[last:loc[0]])
			sb.WriteString(with)
			last = loc[1]
			// sandsh: one expansion must not allocate without bound.
			if cfg.MaxBytes > 0 && sb.Len() > cfg.MaxBytes {
				return nil, ErrTooBig
			}
		}
		sb.WriteString(elem[last:])
		out[i] = sb.String()
	}
	return out, nil
}

// removePatternElems applies a pattern removal operator to each element.
func (cfg *Config) removePatternElems(op syntax.ParExpOperator, arg string, elems []string) []string {
	suffix := op == syntax.RemSmallSuffix || op == syntax.RemLargeSuffix
	small := op == syntax.RemSmallPrefix || op == syntax.RemSmallSuffix
	out := make([]string, len(elems))
	for i, elem := range elems {
		out[i] = cfg.removePattern(elem, arg, suffix, small, cfg.extMode())
	}
	return out
}

// caseConvElems applies a case conversion operator to each element.
func (cfg *Config) caseConvElems(op syntax.ParExpOperator, arg string, elems []string) []string {
	caseFunc := unicode.ToLower
	switch op {
	case syntax.UpperFirst, syntax.UpperAll:
		caseFunc = unicode.ToUpper
	case syntax.ToggleFirst, syntax.ToggleAll:
		caseFunc = func(r rune) rune {
			if unicode.IsUpper(r) {
				return unicode.ToLower(r)
			}
			return unicode.ToUpper(r)
		}
	}
	all := op == syntax.UpperAll || op == syntax.LowerAll || op == syntax.ToggleAll

	// empty string means '?'; nothing to do there
	expr, err := pattern.Regexp(arg, 0)
	if err != nil {
		return elems
	}
	rx := regexp.MustCompile(ValidRegexp(expr))

	out := make([]string, len(elems))
	for i, elem := range elems {
		rs := []rune(elem)
		for ri, r := range rs {
			if rx.MatchString(string(r)) {
				rs[ri] = caseFunc(r)
			}
			if !all {
				break // only the first character is considered
			}
		}
		out[i] = string(rs)
	}
	return out
}

// varInd expands an indexed variable expansion like ${a[i]}, also reporting
// whether the resulting element is set, which may be false for missing array
// elements such as the holes in a sparse array.
func (cfg *Config) varInd(name string, vr Variable, idx syntax.ArithmExpr) (string, bool, error) {
	if idx == nil {
		switch vr.Kind {
		case Indexed:
			// A bare $a is the element at index zero, which may be unset.
			str, ok := vr.indexedVal(0)
			return str, ok, nil
		case Associative:
			str, ok := vr.Map.Get("0")
			return str, ok, nil
		}
		return vr.String(), vr.IsSet(), nil
	}
	switch vr.Kind {
	case String:
		switch nodeLit(idx) {
		case "*", "@": // a scalar is an array of one element
			return vr.Str, vr.IsSet(), nil
		}
		n, err := Arithm(cfg, idx)
		if err != nil {
			return "", false, err
		}
		if n == 0 {
			return vr.Str, vr.IsSet(), nil
		}
	case Indexed:
		switch nodeLit(idx) {
		case "*", "@":
			return strings.Join(vr.List, " "), vr.IsSet(), nil
		}
		i, err := Arithm(cfg, idx)
		if err != nil {
			return "", false, err
		}
		if i < 0 {
			// Negative indices count from one past the maximum index.
			if i += IndexedMax(vr.List, vr.Indexes) + 1; i < 0 {
				// bash reports it and expands to nothing.
				cfg.warn(name + ": bad array subscript")
				return "", false, nil
			}
		}
		if str, ok := vr.indexedVal(i); ok {
			return str, true, nil
		}
	case Associative:
		switch lit := nodeLit(idx); lit {
		case "@", "*":
			strs := vr.Map.Values()
			if lit == "*" {
				return cfg.ifsJoin(strs), vr.IsSet(), nil
			}
			return strings.Join(strs, " "), vr.IsSet(), nil
		}
		val, err := cfg.AssocKey(idx)
		if err != nil {
			return "", false, err
		}
		str, ok := vr.Map.Get(val)
		return str, ok, nil
	case Unknown:
		// An unset variable: bash still evaluates the subscript, so
		// ${a[1/0]} is an error (sandsh: it read as empty).
		switch nodeLit(idx) {
		case "*", "@":
		default:
			if _, err := Arithm(cfg, idx); err != nil {
				return "", false, err
			}
		}
	}
	return "", false, nil
}

// assignElem assigns a variable via an expansion like ${a=val} or
// ${a[i]=val}, setting a single element when the variable is an array or is
// indexed, like Bash. ${a[i]=val} on a whole scalar converts it to an array.
func (cfg *Config) assignElem(name string, vr Variable, idx syntax.ArithmExpr, val string) error {
	wenv, ok := cfg.Env.(WriteEnviron)
	if !ok {
		return fmt.Errorf("environment is read-only")
	}
	arrayWise := false
	switch nodeLit(idx) {
	case "@", "*":
		// ${a[@]=val} assigns the element at index zero.
		arrayWise = true
		idx = nil
	}
	if idx == nil && !arrayWise && vr.Kind != Indexed && vr.Kind != Associative {
		// A plain scalar assignment like ${x=val}.
		return wenv.Set(name, Variable{Set: true, Kind: String, Str: val})
	}
	switch vr.Kind {
	case Associative:
		key := "0"
		if idx != nil {
			var err error
			if key, err = cfg.AssocKey(idx); err != nil {
				return err
			}
		}
		if vr.Map == nil {
			vr.Map = NewAssoc(AssocBuckets)
		} else {
			vr.Map = vr.Map.Clone()
		}
		vr.Map.Set(key, val)
	default: // assign a single indexed element
		i := 0
		if idx != nil {
			var err error
			if i, err = Arithm(cfg, idx); err != nil {
				return err
			}
			if i < 0 {
				// Negative indices count from one past the maximum index.
				if i += IndexedMax(vr.List, vr.Indexes) + 1; i < 0 {
					return fmt.Errorf("negative array index")
				}
			}
		}
		list, indexes := slices.Clone(vr.List), slices.Clone(vr.Indexes)
		if vr.Kind == String {
			list, indexes = []string{vr.Str}, nil
		}
		list, indexes = SetIndexedElem(list, indexes, i, val)
		vr.Kind, vr.Str, vr.List, vr.Indexes = Indexed, "", list, indexes
	}
	vr.Set = true
	return wenv.Set(name, vr)
}

func (cfg *Config) namesByPrefix(prefix string) []string {
	var names []string
	for name := range cfg.Env.Each {
		if strings.HasPrefix(name, prefix) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// replaceAnchored applies ${v/#pat/r} or ${v/%pat/r}.
func (cfg *Config) replaceAnchored(repl *syntax.Replace, orig string, anchor byte, elems []string) ([]string, error) {
	with, err := Literal(cfg, repl.With)
	if err != nil {
		return nil, err
	}
	expr, err := pattern.Regexp(orig, cfg.extMode())
	if err != nil {
		return elems, nil
	}
	if anchor == '#' {
		expr = "^(?:" + expr + ")"
	} else {
		expr = "(?:" + expr + ")$"
	}
	var rx *regexp.Regexp
	if cfg.CompileRegexp != nil {
		rx, err = cfg.CompileRegexp(expr)
	} else {
		rx, err = regexp.Compile(ValidRegexp(expr))
	}
	if err != nil {
		return elems, nil
	}
	out := make([]string, len(elems))
	for i, elem := range elems {
		loc := rx.FindStringIndex(elem)
		if loc == nil {
			out[i] = elem
			continue
		}
		out[i] = elem[:loc[0]] + with + elem[loc[1]:]
	}
	return out, nil
}

// BashQuote quotes s the way bash's ${v@Q} and printf %q-free contexts
// do: single quotes, or $'...' when s has control characters.
func BashQuote(s string) string {
	if NeedsANSIC(s) {
		return ANSIC(s)
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// NeedsANSIC reports whether bash quotes s as $'...' (in a UTF-8 locale):
// s has control characters, or bytes that are not valid UTF-8.
func NeedsANSIC(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f {
			return true
		}
		if c >= utf8.RuneSelf {
			size, bad := nonASCII(s[i:])
			if bad {
				return true
			}
			i += size - 1
		}
	}
	return false
}

// nonASCII measures the character that starts s (not ASCII) and reports
// whether bash escapes it as octal bytes: an invalid UTF-8 byte or a C1
// control character.
func nonASCII(s string) (size int, bad bool) {
	r, size := utf8.DecodeRuneInString(s)
	return size, r == utf8.RuneError && size == 1 || r >= 0x80 && r <= 0x9f
}

// ANSIC renders s as $'...'.
func ANSIC(s string) string {
	var sb strings.Builder
	sb.WriteString("$'")
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			size, bad := nonASCII(s[i:])
			for _, b := range []byte(s[i : i+size]) {
				if bad {
					fmt.Fprintf(&sb, `\%03o`, b)
				} else {
					sb.WriteByte(b)
				}
			}
			i += size - 1
			continue
		}
		switch c {
		case '\n':
			sb.WriteString(`\n`)
		case '\t':
			sb.WriteString(`\t`)
		case '\r':
			sb.WriteString(`\r`)
		case 0x1b:
			sb.WriteString(`\E`)
		case '\a':
			sb.WriteString(`\a`)
		case '\b':
			sb.WriteString(`\b`)
		case '\f':
			sb.WriteString(`\f`)
		case '\v':
			sb.WriteString(`\v`)
		case '\'', '\\':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		default:
			if c < 0x20 || c == 0x7f {
				fmt.Fprintf(&sb, `\%03o`, c)
			} else {
				sb.WriteByte(c)
			}
		}
	}
	sb.WriteByte('\'')
	return sb.String()
}

// ErrTooBig is returned when one expansion would build a string larger
// than Config.MaxBytes.
var ErrTooBig = fmt.Errorf("expansion result too large")

// slicePos turns a ${x:offset:length} bound into an index into size
// items (bytes, characters or elements): a negative one counts from the
// end, and one past either end clamps to an empty result.
func slicePos(n, size int) int {
	if n < 0 {
		n = size + n
		if n < 0 {
			n = size
		}
	} else if n > size {
		n = size
	}
	return n
}

// negatedCloseBracket reports whether pat holds an unescaped [^] or [!],
// a negated bracket expression whose first member is ].
func negatedCloseBracket(pat string) bool {
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case '[':
			if i+2 < len(pat) && (pat[i+1] == '^' || pat[i+1] == '!') && pat[i+2] == ']' {
				return true
			}
		}
	}
	return false
}
