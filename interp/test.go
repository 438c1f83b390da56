package interp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"strings"

	"github.com/sandsh/sandsh/interp/internal/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/sandsh/sandsh/vfs"
)

// compileCached compiles a regexp, remembering up to a few hundred of
// them per run so loops with [[ =~ ]] do not recompile.
func compileCached(s *session, expr string) (*regexp.Regexp, error) {
	s.rxMu.Lock()
	defer s.rxMu.Unlock()
	if rx, ok := s.rxCache[expr]; ok {
		return rx, nil
	}
	rx, err := regexp.Compile(expand.ValidRegexp(expr))
	if err != nil {
		return nil, err
	}
	if s.rxCache == nil || len(s.rxCache) > 256 {
		s.rxCache = map[string]*regexp.Regexp{}
	}
	s.rxCache[expr] = rx
	return rx, nil
}

// testExpr evaluates a [[ ]] expression.
func (r *Runner) testExpr(ctx context.Context, x syntax.TestExpr) (bool, error) {
	switch x := x.(type) {
	case *syntax.Word:
		s, err := r.literal(ctx, x)
		return s != "", err
	case *syntax.ParenTest:
		return r.testExpr(ctx, x.X)
	case *syntax.UnaryTest:
		if x.Op == syntax.TsNot {
			ok, err := r.testExpr(ctx, x.X)
			return !ok, err
		}
		w := x.X.(*syntax.Word)
		s, err := r.literal(ctx, w)
		if err != nil {
			return false, err
		}
		if x.Op == syntax.TsVarSet {
			// bash expands the subscript again unless the word was
			// written as an element (-v A[$k]): -v $ref and -v
			// 'A[$k]' look the expanded key up.
			return r.varIsSet(s, !writtenElem(w))
		}
		return r.unaryTest(x.Op, s), nil
	case *syntax.BinaryTest:
		switch x.Op {
		case syntax.AndTest, syntax.OrTest:
			ok, err := r.testExpr(ctx, x.X)
			if err != nil || ok == (x.Op == syntax.OrTest) {
				return ok, err
			}
			return r.testExpr(ctx, x.Y)
		}
		left, err := r.literal(ctx, x.X.(*syntax.Word))
		if err != nil {
			return false, err
		}
		switch x.Op {
		case syntax.TsMatch, syntax.TsMatchShort, syntax.TsNoMatch:
			pat, err := r.pattern(ctx, x.Y.(*syntax.Word))
			if err != nil {
				return false, err
			}
			m := r.matchPattern(pat, left)
			return m == (x.Op != syntax.TsNoMatch), nil
		case syntax.TsReMatch:
			return r.regexMatch(ctx, left, x.Y.(*syntax.Word))
		}
		right, err := r.literal(ctx, x.Y.(*syntax.Word))
		if err != nil {
			return false, err
		}
		return r.binaryTest(ctx, x.Op, left, right)
	}
	return false, fmt.Errorf("unsupported test expression %T", x)
}

// regexMatch implements =~, setting BASH_REMATCH. Quoted parts of the
// pattern match literally, as in bash.
func (r *Runner) regexMatch(ctx context.Context, left string, w *syntax.Word) (bool, error) {
	expr, err := r.regex(ctx, w)
	if err != nil {
		return false, err
	}
	goExpr, ok := ereBraces(ereToGo(expr))
	if !ok {
		return false, errBadRegex
	}
	if r.opts.nocasematch {
		goExpr = "(?i)" + goExpr
	}
	rx, err := compileCached(r.s, goExpr)
	if err != nil {
		return false, errBadRegex
	}
	m := rx.FindStringSubmatch(left)
	if m == nil {
		r.setRematch(nil)
		return false, nil
	}
	r.setRematch(m)
	return true, nil
}

// ereToGo adapts a POSIX ERE to Go's syntax where they differ in
// ways scripts hit: bracket expressions with a leading ']'.
// errBadRegex is a =~ pattern that does not compile: bash's [[ ]] then
// returns 2, without a message.
var errBadRegex = errors.New("invalid regular expression")

// ereBraces checks the braces of a POSIX ERE as glibc does, which Go
// would take literally where glibc refuses them ({ or a{1 with no
// interval, a { that follows nothing), and spells {,n} as {0,n}.
func ereBraces(s string) (string, bool) {
	if !strings.ContainsAny(s, "{*+?") {
		return s, true
	}
	var sb strings.Builder
	start := true // where a repetition has nothing to repeat
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			sb.WriteByte(c)
			if i+1 < len(s) {
				i++
				sb.WriteByte(s[i])
			}
			start = false
			continue
		case '[':
			j := i + 1
			if j < len(s) && s[j] == '^' {
				j++
			}
			if j < len(s) && s[j] == ']' {
				j++
			}
			for j < len(s) && s[j] != ']' {
				if s[j] == '[' && j+1 < len(s) && (s[j+1] == ':' || s[j+1] == '.' || s[j+1] == '=') {
					if k := strings.Index(s[j+2:], string(s[j+1])+"]"); k >= 0 {
						j += k + 4
						continue
					}
				}
				j++
			}
			if j >= len(s) {
				return s, false
			}
			sb.WriteString(s[i : j+1])
			i, start = j, false
			continue
		case '(', '|':
			sb.WriteByte(c)
			start = true
			continue
		case '^':
			sb.WriteByte(c)
			continue
		case '*', '+', '?':
			if start {
				return s, false
			}
		case '{':
			if start {
				return s, false
			}
			j := i + 1
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ',') {
				j++
			}
			body := s[i+1 : j]
			if j >= len(s) || s[j] != '}' || body == "" || strings.Count(body, ",") > 1 {
				return s, false
			}
			if body[0] == ',' {
				body = "0" + body
			}
			sb.WriteString("{" + body + "}")
			i = j
			continue
		}
		sb.WriteByte(c)
		start = false
	}
	return sb.String(), true
}

func ereToGo(s string) string {
	if !strings.Contains(s, "[]") && !strings.Contains(s, "[^]") {
		return s
	}
	s = strings.ReplaceAll(s, "[]", `[\]`)
	return strings.ReplaceAll(s, "[^]", `[^\]`)
}

func (r *Runner) setRematch(m []string) {
	v, _ := r.lookup("BASH_REMATCH")
	if v == nil {
		v = &variable{}
		r.setScoped(0, "BASH_REMATCH", v)
	}
	v.Kind, v.Set, v.List, v.Indexes = expand.Indexed, true, append([]string{}, m...), nil
}

// statFollow stats a path on the sandbox (with devices).
func (r *Runner) stat(name string) (fs.FileInfo, error) {
	return r.devFS().Stat(r.abs(name))
}

func (r *Runner) unaryTest(op syntax.UnTestOperator, s string) bool {
	switch op {
	case syntax.TsEmpStr:
		return s == ""
	case syntax.TsNempStr:
		return s != ""
	case syntax.TsOptSet:
		for _, o := range setOptions {
			if o.name == s {
				return o.field != nil && *o.field(&r.opts)
			}
		}
		return false
	case syntax.TsVarSet:
		ok, _ := r.varIsSet(s, false)
		return ok
	case syntax.TsRefVar:
		v, _ := r.lookup(s)
		return v != nil && v.Kind == expand.NameRef
	case syntax.TsFdTerm:
		return false
	case syntax.TsSmbLink:
		fi, err := vfs.Lstat(r.devFS(), r.abs(s))
		return err == nil && fi.Mode()&fs.ModeSymlink != 0
	}
	if s == "" {
		return false
	}
	fi, err := r.stat(s)
	if err != nil {
		return false
	}
	mode := fi.Mode()
	meta := vfs.MetaOf(fi)
	switch op {
	case syntax.TsExists:
		return true
	case syntax.TsRegFile:
		return mode.IsRegular()
	case syntax.TsDirect:
		return mode.IsDir()
	case syntax.TsCharSp:
		return mode&fs.ModeCharDevice != 0
	case syntax.TsBlckSp:
		return mode&fs.ModeDevice != 0 && mode&fs.ModeCharDevice == 0
	case syntax.TsNmPipe:
		return mode&fs.ModeNamedPipe != 0
	case syntax.TsSocket:
		return mode&fs.ModeSocket != 0
	case syntax.TsSticky:
		return mode&fs.ModeSticky != 0
	case syntax.TsGIDSet:
		return mode&fs.ModeSetgid != 0
	case syntax.TsUIDSet:
		return mode&fs.ModeSetuid != 0
	case syntax.TsGrpOwn:
		return meta.GID == r.s.sys.GID
	case syntax.TsUsrOwn:
		return meta.UID == r.s.sys.UID
	case syntax.TsModif:
		return fi.ModTime().After(meta.Atime)
	case syntax.TsRead:
		return r.access(fi, 4)
	case syntax.TsWrite:
		return r.access(fi, 2)
	case syntax.TsExec:
		return r.access(fi, 1)
	case syntax.TsNoEmpty:
		return fi.Size() > 0
	}
	return false
}

// access checks permission bits the way the kernel would for the
// sandbox user (root, uid 0, may read and write anything).
func (r *Runner) access(fi fs.FileInfo, bit fs.FileMode) bool {
	mode := fi.Mode().Perm()
	meta := vfs.MetaOf(fi)
	if r.s.sys.UID == 0 {
		if bit == 1 {
			return mode&0o111 != 0 || fi.IsDir()
		}
		return true
	}
	switch {
	case meta.UID == r.s.sys.UID:
		return mode&(bit<<6) != 0
	case meta.GID == r.s.sys.GID:
		return mode&(bit<<3) != 0
	}
	return mode&bit != 0
}

// writtenElem reports whether w is written as an array element, a name
// and "[" unquoted at its start.
func writtenElem(w *syntax.Word) bool {
	var lead strings.Builder // the parser may split A[ into A and [
	for _, p := range w.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			break
		}
		lead.WriteString(lit.Value)
	}
	name, _, found := strings.Cut(lead.String(), "[")
	return found && syntax.ValidName(name)
}

// varIsSet is -v: whether the variable or element s names is set.
// expandKey expands the subscript once more, as bash does for test -v
// 'A["$k"]' but not for [[ -v A[$k] ]], whose indexed subscript is
// evaluated as text already expanded (an error is returned then).
func (r *Runner) varIsSet(s string, expandKey bool) (bool, error) {
	name, idx, hasIdx := strings.Cut(s, "[")
	if !hasIdx {
		return r.getVar(name).IsSet(), nil
	}
	idx = strings.TrimSuffix(idx, "]")
	v := r.getVar(name)
	switch v.Kind {
	case expand.Associative:
		if expandKey {
			idx = r.elemKey(idx)
		}
		_, ok := v.Map.Get(idx)
		return ok, nil
	case expand.Indexed:
		if idx == "@" || idx == "*" {
			return len(v.List) > 0, nil
		}
		var i int
		var err error
		if expandKey {
			i, err = r.arithString(idx)
		} else {
			i, err = r.arithValue(context.Background(), idx)
		}
		if err != nil {
			if expandKey {
				return false, nil
			}
			// Not an *expand.ArithmError: bash abandons the line,
			// where a bad operand of [[ -eq ]] only fails the test.
			return false, errors.New(err.Error())
		}
		if i < 0 {
			i += indexedMax(v.List, v.Indexes) + 1
		}
		_, ok := indexedGet(v.List, v.Indexes, i)
		return ok, nil
	}
	return v.IsSet() && (idx == "0" || idx == "@" || idx == "*"), nil
}

func (r *Runner) binaryTest(ctx context.Context, op syntax.BinTestOperator, x, y string) (bool, error) {
	switch op {
	case syntax.TsBefore:
		return x < y, nil
	case syntax.TsAfter:
		return x > y, nil
	case syntax.TsNewer, syntax.TsOlder:
		fx, ex := r.stat(x)
		fy, ey := r.stat(y)
		if op == syntax.TsNewer {
			return ex == nil && (ey != nil || fx.ModTime().After(fy.ModTime())), nil
		}
		return ey == nil && (ex != nil || fx.ModTime().Before(fy.ModTime())), nil
	case syntax.TsDevIno:
		fx, ex := r.stat(x)
		fy, ey := r.stat(y)
		if ex != nil || ey != nil {
			return false, nil
		}
		mx, my := vfs.MetaOf(fx), vfs.MetaOf(fy)
		if mx.Ino != 0 {
			return mx.Ino == my.Ino, nil
		}
		return r.abs(x) == r.abs(y), nil
	}
	a, err := r.arithOperand(ctx, x)
	if err != nil {
		return false, err
	}
	b, err := r.arithOperand(ctx, y)
	if err != nil {
		return false, err
	}
	switch op {
	case syntax.TsEql:
		return a == b, nil
	case syntax.TsNeq:
		return a != b, nil
	case syntax.TsLeq:
		return a <= b, nil
	case syntax.TsGeq:
		return a >= b, nil
	case syntax.TsLss:
		return a < b, nil
	case syntax.TsGtr:
		return a > b, nil
	}
	return false, fmt.Errorf("unsupported test operator %v", op)
}

// arithOperand evaluates an operand of -eq and friends inside [[ ]],
// which bash treats as an arithmetic expression.
func (r *Runner) arithOperand(ctx context.Context, s string) (int, error) {
	// The fast path is for plain decimals only: 017 is octal.
	t := strings.TrimSpace(s)
	if digits := strings.TrimLeft(t, "+-"); len(digits) == 1 || digits != "" && digits[0] != '0' {
		if n, err := strconv.Atoi(t); err == nil {
			return n, nil
		}
	}
	return r.arithValue(ctx, s)
}
