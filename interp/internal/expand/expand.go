// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package expand

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"

	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"

	"github.com/sandsh/sandsh/internal/bashutf8"
)

// A Config specifies details about how shell expansion should be performed. The
// zero value is a valid configuration.
type Config struct {
	// Warn, if set, reports a problem that does not stop the expansion,
	// such as bash's "a: bad array subscript".
	Warn func(msg string)

	// Env is used to get and set environment variables when performing
	// shell expansions. Some special parameters are also expanded via this
	// interface, such as:
	//
	//   * "#", "@", "*", "0"-"9" for the shell's parameters
	//   * "?", "$", "PPID" for the shell's status and process
	//   * "HOME foo" to retrieve user foo's home directory (if unset,
	//     os/user.Lookup will be used)
	//
	// If nil, there are no environment variables set. Use
	// ListEnviron(os.Environ()...) to use the system's environment
	// variables.
	Env Environ

	// CmdSubst expands a command substitution node, writing its standard
	// output to the provided [io.Writer].
	//
	// If nil, encountering a command substitution will result in an
	// UnexpectedCommandError.
	CmdSubst func(io.Writer, *syntax.CmdSubst) error

	// ProcSubst expands a process substitution node.
	ProcSubst func(*syntax.ProcSubst) (string, error)

	// TODO(v4): replace ReadDir with ReadDir2.

	// ReadDir is the older form of [ReadDir2], before io/fs.
	//
	// Deprecated: use ReadDir2 instead.
	ReadDir func(string) ([]fs.FileInfo, error)

	// ReadDir2 is used for file path globbing.
	// If nil, and [ReadDir] is nil as well, globbing is disabled.
	// Use [os.ReadDir] to use the filesystem directly.
	ReadDir2 func(string) ([]fs.DirEntry, error)

	// GlobStar corresponds to the shell option which allows globbing with "**".
	GlobStar bool

	// Ctx, when set, is checked before each directory a glob reads
	// (sandsh): a walk over a huge tree ends with the run's context
	// (its timeout, a cancellation), whatever runs it.
	Ctx context.Context

	// DotGlob corresponds to the shell option which allows filenames beginning
	// with a dot to be matched by a pattern which does not begin with a dot.
	DotGlob bool

	// NoCaseGlob corresponds to the shell option which causes case-insensitive
	// pattern matching in pathname expansion.
	NoCaseGlob bool

	// NullGlob corresponds to the shell option which allows globbing
	// patterns which match nothing to result in zero fields.
	NullGlob bool

	// FailGlob is shopt -s failglob (sandsh): a field that is a pattern
	// and matches nothing fails the expansion with [ErrNoMatch], naming
	// the field as bash does (after quote removal).
	FailGlob bool

	// Line, when not 0, is the value of $LINENO (sandsh): bash gives the
	// words of a for loop the line of its keyword. Otherwise $LINENO is
	// the line the expansion is written on.
	Line uint

	// AssignTilde expands the tilde prefixes of a command word that looks
	// like an assignment (echo x=~), as bash does outside POSIX mode.
	// (sandsh)
	AssignTilde bool

	// NoUnset corresponds to the shell option which treats unset variables
	// as errors.
	NoUnset bool

	// ExtGlob corresponds to the shell option which allows using extended
	// pattern matching features when performing pathname expansion (globbing).
	ExtGlob bool

	// NoGlobSkipDots is the negated shell option globskipdots (sandsh):
	// a pattern starting with a dot may then match . and ..
	NoGlobSkipDots bool

	// MaxBytes bounds the size of one string built by an expansion
	// (sandsh); 0 means no bound.
	MaxBytes int

	// MaxFields bounds the fields one expansion may produce, and the
	// words brace expansion may produce (sandsh); 0 means no bound.
	MaxFields int
	nfields   int

	// CompileRegexp, if set, compiles the regular expressions that
	// patterns of ${v#p}, ${v/p/r} and the like become, keeping them
	// (sandsh): a loop would otherwise compile the same ones each time.
	// It is given the expression before ValidRegexp.
	CompileRegexp func(expr string) (*regexp.Regexp, error)

	// Arith, if set, keeps arithmetic text parsed once (sandsh): $(( ))
	// with an expansion inside is re-parsed on every evaluation, and a
	// loop evaluates the same few texts over and over.
	Arith *ArithCache

	bufferAlloc strings.Builder

	ifs string

	arithDepth int // sandsh: nesting of expressions found in values
	// arithVals are the values arithDirect found for the expansions of
	// the expressions it is evaluating (sandsh).
	arithVals []arithVal
	// A pointer to a parameter expansion node, if we're inside one.
	// Necessary for ${LINENO}.
	curParam *syntax.ParamExp
}

// UnexpectedCommandError is returned if a command substitution is encountered
// when [Config.CmdSubst] is nil.
type UnexpectedCommandError struct {
	Node *syntax.CmdSubst
}

func (u UnexpectedCommandError) Error() string {
	return fmt.Sprintf("unexpected command substitution at %s", u.Node.Pos())
}

var zeroConfig = &Config{}

// TODO: note that prepareConfig is modifying the user's config in place,
// which doesn't feel right - we should make a copy.

func prepareConfig(cfg *Config) *Config {
	cfg = cmp.Or(cfg, zeroConfig)
	cfg.Env = cmp.Or(cfg.Env, FuncEnviron(func(string) string { return "" }))

	cfg.ifs = " \t\n"
	if vr := cfg.Env.Get("IFS"); vr.IsSet() {
		cfg.ifs = vr.String()
	}

	if cfg.ReadDir != nil && cfg.ReadDir2 == nil {
		cfg.ReadDir2 = func(path string) ([]fs.DirEntry, error) {
			infos, err := cfg.ReadDir(path)
			if err != nil {
				return nil, err
			}
			entries := make([]fs.DirEntry, len(infos))
			for i, info := range infos {
				entries[i] = fs.FileInfoToDirEntry(info)
			}
			return entries, nil
		}
	}
	return cfg
}

func (cfg *Config) ifsRune(r rune) bool {
	return strings.ContainsRune(cfg.ifs, r)
}

// ifsWhitespace reports whether r is a space, tab, or newline present in IFS.
func (cfg *Config) ifsWhitespace(r rune) bool {
	return (r == ' ' || r == '\t' || r == '\n') && cfg.ifsRune(r)
}

func (cfg *Config) ifsJoin(strs []string) string {
	sep := ""
	if cfg.ifs != "" {
		// The separator is the first character of IFS, not the first byte.
		_, size := utf8.DecodeRuneInString(cfg.ifs)
		sep = cfg.ifs[:size]
	}
	return strings.Join(strs, sep)
}

func (cfg *Config) strBuilder() *strings.Builder {
	b := &cfg.bufferAlloc
	b.Reset()
	return b
}

func (cfg *Config) envGet(name string) string {
	return cfg.Env.Get(name).String()
}

func (cfg *Config) envSet(name, value string) error {
	wenv, ok := cfg.Env.(WriteEnviron)
	if !ok {
		return fmt.Errorf("environment is read-only")
	}
	return wenv.Set(name, Variable{Set: true, Kind: String, Str: value})
}

// Literal expands a single shell word. It is similar to [Fields], but the result
// is a single string. This is the behavior when a word is used as the value in
// a shell variable assignment, for example.
//
// The config specifies shell expansion options; nil behaves the same as an
// empty config.
func Literal(cfg *Config, word *syntax.Word) (string, error) {
	if word == nil {
		return "", nil
	}
	if s, ok := plainLit(cfg, word, false); ok {
		return s, nil
	}
	if s, ok, err := cfg.oneValue(word); ok || err != nil {
		return s, err
	}
	cfg = prepareConfig(cfg)
	field, err := cfg.wordParts(word.Parts, partsCtx{tilde: true})
	if err != nil {
		return "", err
	}
	return cfg.fieldJoin(field), nil
}

// oneValue expands a word that is only $name or $((expr)), quoted or
// not, to one string (sandsh): Literal's and Assign's short cut, ok false
// when the word needs the general path. Neither needs IFS, so it runs
// before prepareConfig looks it up (Arithm prepares what it expands).
func (cfg *Config) oneValue(w *syntax.Word) (s string, ok bool, err error) {
	if cfg == nil || cfg.Env == nil || len(w.Parts) != 1 {
		return "", false, nil
	}
	part := w.Parts[0]
	if dq, isDq := part.(*syntax.DblQuoted); isDq {
		if len(dq.Parts) != 1 {
			return "", false, nil
		}
		part = dq.Parts[0]
	}
	switch part := part.(type) {
	case *syntax.ParamExp:
		s, ok = cfg.simpleParamValue(part)
		return s, ok, nil
	case *syntax.ArithmExp:
		n, err := ArithmSource(cfg, part.X, part.Source)
		if err != nil {
			return "", false, err
		}
		return strconv.Itoa(n), true, nil
	}
	return "", false, nil
}

// Document expands a single shell word as if it were a here-document body.
// It is similar to [Literal], but without brace expansion, tilde expansion, and
// globbing.
//
// The config specifies shell expansion options; nil behaves the same as an
// empty config.
func Document(cfg *Config, word *syntax.Word) (string, error) {
	if word == nil {
		return "", nil
	}
	cfg = prepareConfig(cfg)
	field, err := cfg.wordParts(word.Parts, partsCtx{ql: quoteHeredoc})
	if err != nil {
		return "", err
	}
	return cfg.fieldJoin(field), nil
}

// Pattern expands a single shell word as a pattern, using [pattern.QuoteMeta]
// on any non-quoted parts of the input word. The result can be used on
// [pattern.Regexp] directly.
//
// The config specifies shell expansion options; nil behaves the same as an
// empty config.
func Pattern(cfg *Config, word *syntax.Word) (string, error) {
	if word == nil {
		return "", nil
	}
	cfg = prepareConfig(cfg)
	field, err := cfg.wordParts(word.Parts, partsCtx{tilde: true})
	if err != nil {
		return "", err
	}
	sb := cfg.strBuilder()
	for _, part := range field {
		if part.brk {
			sb.WriteByte(' ')
		} else if part.quote > quoteNone {
			sb.WriteString(quotePattern(part.val))
		} else {
			sb.WriteString(part.val)
		}
	}
	return sb.String(), nil
}

// Format expands a format string with a number of arguments, following the
// shell's format specifications. These include printf(1), among others.
//
// The resulting string is returned, along with the number of arguments used.
// Note that the resulting string may contain null bytes, for example
// if the format string used `\x00`. The caller should terminate the string
// at the first null byte if needed, such as when expanding for `$'foo\x00bar'`.
//
// The config specifies shell expansion options; nil behaves the same as an
// empty config.
func Format(cfg *Config, format string, args []string) (string, int, error) {
	cfg = prepareConfig(cfg)
	sb := cfg.strBuilder()

	consumed, err := formatInto(sb, format, args)
	if err != nil {
		return "", 0, err
	}

	return sb.String(), consumed, err
}

func formatInto(sb *strings.Builder, format string, args []string) (int, error) {
	var fmts []byte
	initialArgs := len(args)

	for i := 0; i < len(format); i++ {
		// readDigits reads from 0 to max digits, either octal or
		// hexadecimal.
		readDigits := func(max int, hex bool) string {
			j := 0
			for ; j < max && i+j < len(format); j++ {
				c := format[i+j]
				if (c >= '0' && c <= '9') ||
					(hex && c >= 'a' && c <= 'f') ||
					(hex && c >= 'A' && c <= 'F') {
					// valid octal or hex char
				} else {
					break
				}
			}
			digits := format[i : i+j]
			i += j - 1 // -1 since the outer loop does i++
			return digits
		}
		c := format[i]
		switch {
		case c == '\\': // escaped
			i++
			if i >= len(format) {
				sb.WriteByte('\\')
				break
			}
			switch c = format[i]; c {
			case 'a': // bell
				sb.WriteByte('\a')
			case 'b': // backspace
				sb.WriteByte('\b')
			case 'e', 'E': // escape
				sb.WriteByte('\x1b')
			case 'f': // form feed
				sb.WriteByte('\f')
			case 'n': // new line
				sb.WriteByte('\n')
			case 'r': // carriage return
				sb.WriteByte('\r')
			case 't': // horizontal tab
				sb.WriteByte('\t')
			case 'v': // vertical tab
				sb.WriteByte('\v')
			case '\\', '\'', '"', '?': // just the character
				sb.WriteByte(c)
			case '0', '1', '2', '3', '4', '5', '6', '7':
				digits := readDigits(3, false)
				// if digits don't fit in 8 bits, 0xff via strconv
				n, _ := strconv.ParseUint(digits, 8, 8)
				sb.WriteByte(byte(n))
			case 'x', 'u', 'U':
				i++
				max := 2
				switch c {
				case 'u':
					max = 4
				case 'U':
					max = 8
				}
				digits := readDigits(max, true)
				if len(digits) > 0 {
					// can't error
					n, _ := strconv.ParseUint(digits, 16, 32)
					if c == 'x' {
						// always as a single byte
						sb.WriteByte(byte(n))
					} else {
						// sandsh: bash's encoder, which does not check
						// for surrogates or values past U+10FFFF.
						sb.Write(bashutf8.AppendRune(nil, uint32(n)))
					}
					break
				}
				fallthrough
			default: // no escape sequence
				sb.WriteByte('\\')
				sb.WriteByte(c)
			}
		case len(fmts) > 0:
			switch c {
			case '%':
				sb.WriteByte('%')
				fmts = nil
			case 'c':
				var b byte
				if len(args) > 0 {
					arg := ""
					arg, args = args[0], args[1:]
					if len(arg) > 0 {
						b = arg[0]
					}
				}
				sb.WriteByte(b)
				fmts = nil
			case '+', '-', ' ':
				if len(fmts) > 1 {
					return 0, fmt.Errorf("invalid format char: %c", c)
				}
				fmts = append(fmts, c)
			case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
				fmts = append(fmts, c)
			case 's', 'b', 'd', 'i', 'u', 'o', 'x':
				arg := ""
				if len(args) > 0 {
					arg, args = args[0], args[1:]
				}
				var farg any
				if c == 'b' {
					// Passing in nil for args ensures that % format
					// strings aren't processed; only escape sequences
					// will be handled.
					_, err := formatInto(sb, arg, nil)
					if err != nil {
						return 0, err
					}
				} else if c != 's' {
					n, _ := strconv.ParseInt(arg, 0, 0)
					if c == 'i' || c == 'd' {
						farg = int(n)
					} else {
						farg = uint(n)
					}
					if c == 'i' || c == 'u' {
						c = 'd'
					}
				} else {
					farg = arg
				}
				if farg != nil {
					fmts = append(fmts, c)
					fmt.Fprintf(sb, string(fmts), farg)
				}
				fmts = nil
			default:
				return 0, fmt.Errorf("invalid format char: %c", c)
			}
		case args != nil && c == '%':
			// if args == nil, we are not doing format
			// arguments
			fmts = []byte{c}
		default:
			sb.WriteByte(c)
		}
	}
	if len(fmts) > 0 {
		return 0, fmt.Errorf("missing format char")
	}
	return initialArgs - len(args), nil
}

func (cfg *Config) fieldJoin(parts []fieldPart) string {
	switch len(parts) {
	case 0:
		return ""
	case 1: // short-cut without a string copy
		return parts[0].val
	}
	sb := cfg.strBuilder()
	for _, part := range parts {
		if part.brk { // "$@" in one string: its elements join with spaces
			sb.WriteByte(' ')
		}
		sb.WriteString(part.val)
	}
	return sb.String()
}

func (cfg *Config) escapedGlobField(parts []fieldPart) (escaped string, glob bool) {
	candidate := false
	metas := "*?["
	var mode pattern.Mode
	if cfg.ExtGlob {
		metas, mode = "*?[(", pattern.ExtendedOperators // sandsh: @(a|b) globs too
	}
	for _, part := range parts {
		if part.quote == quoteNone && strings.ContainsAny(part.val, metas) {
			candidate = true
			break
		}
	}
	if !candidate {
		return "", false
	}
	sb := cfg.strBuilder()
	for _, part := range parts {
		if part.quote > quoteNone {
			sb.WriteString(quotePattern(part.val))
		} else {
			sb.WriteString(part.val)
		}
	}
	// Check the entire escaped word, as a bracket expression could span
	// multiple unquoted parts, such as `[a$x` where x holds "]".
	escaped = sb.String()
	if pattern.HasMeta(escaped, mode) {
		return escaped, true
	}
	return "", false
}

// Fields is a pre-iterators API which now wraps [FieldsSeq].
func Fields(cfg *Config, words ...*syntax.Word) ([]string, error) {
	// sandsh: most words of most commands are plain literals, which
	// expand to themselves; the others are expanded here directly rather
	// than through FieldsSeq, whose iterator closures cost allocations
	// on every command.
	if cfg == nil {
		cfg = prepareConfig(cfg)
	}
	fields := make([]string, 0, len(words))
	prepared := false
	var err error
	for _, w := range words {
		if s, ok := plainLit(cfg, w, true); ok {
			if cfg.MaxFields > 0 {
				if cfg.nfields++; cfg.nfields > cfg.MaxFields {
					return nil, ErrTooManyFields
				}
			}
			fields = append(fields, s)
			continue
		}
		if !prepared {
			cfg = prepareConfig(cfg)
			prepared = true
		}
		if s, ok, err := cfg.oneValueField(w); err != nil {
			return nil, err
		} else if ok {
			if cfg.MaxFields > 0 {
				if cfg.nfields++; cfg.nfields > cfg.MaxFields {
					return nil, ErrTooManyFields
				}
			}
			fields = append(fields, s)
			continue
		}
		word := *w // a copy, since SplitBraces replaces the Parts slice
		if !syntax.SplitBraces(&word) {
			if fields, err = cfg.appendWordFields(fields, &word); err != nil {
				return nil, err
			}
			continue
		}
		for bw, berr := range BracesSeq(cfg, &word) {
			if berr != nil {
				return nil, berr
			}
			if err := unclosedBquote(bw); err != nil {
				return nil, err
			}
			if fields, err = cfg.appendWordFields(fields, joinLeadingLits(rejoinParams(bw))); err != nil {
				return nil, err
			}
		}
	}
	if len(fields) == 0 {
		return nil, nil // as before: no fields is a nil slice
	}
	return fields, nil
}

// appendWordFields appends the fields of one brace-expanded word: split,
// then globbed, as FieldsSeq's expandWord does.
func (cfg *Config) appendWordFields(fields []string, w *syntax.Word) ([]string, error) {
	wfields, err := cfg.wordFields(w.Parts, true)
	if err != nil {
		return nil, err
	}
	for _, field := range wfields {
		path, doGlob := cfg.escapedGlobField(field)
		if doGlob && cfg.ReadDir2 != nil {
			// sandsh: $PWD is read only for a word that globs.
			matches, err := cfg.glob(cfg.envGet("PWD"), path)
			if err != nil {
				// [Config.glob] returns [pattern.SyntaxError]s unwrapped.
				if _, ok := err.(*pattern.SyntaxError); !ok {
					return nil, err
				}
			} else if len(matches) > 0 || cfg.NullGlob {
				fields = append(fields, matches...)
				continue
			} else if cfg.FailGlob {
				return nil, fmt.Errorf("%w: %s", ErrNoMatch, cfg.fieldJoin(field))
			}
		}
		fields = append(fields, cfg.fieldJoin(field))
	}
	return fields, nil
}

// oneValueField expands a word that is only $name, "$name", $((expr)) or
// "$((expr))" whose value is exactly one field (sandsh): a string
// variable, quoted or with nothing to split or glob, or a number. ok is
// false when the word needs the general path.
func (cfg *Config) oneValueField(w *syntax.Word) (s string, ok bool, err error) {
	if len(w.Parts) != 1 {
		return "", false, nil
	}
	part, quoted := w.Parts[0], false
	if dq, isDq := part.(*syntax.DblQuoted); isDq {
		if len(dq.Parts) != 1 {
			return "", false, nil
		}
		part, quoted = dq.Parts[0], true
	}
	switch part := part.(type) {
	case *syntax.ParamExp:
		s, ok = cfg.simpleParamValue(part)
	case *syntax.ArithmExp:
		// A number is one field unless IFS holds a digit or '-' (checked
		// first: the expression must be evaluated only once).
		if !quoted && strings.ContainsAny(cfg.ifs, "-0123456789") {
			return "", false, nil
		}
		n, err := ArithmSource(cfg, part.X, part.Source)
		if err != nil {
			return "", false, err
		}
		return strconv.Itoa(n), true, nil
	default:
		return "", false, nil
	}
	if !ok {
		return "", false, nil
	}
	if quoted {
		return s, true, nil
	}
	// Unquoted, the value is split and globbed: only a non-empty one
	// with neither IFS nor glob characters is itself one field.
	if s == "" {
		return "", false, nil
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9',
			c == '-', c == '_', c == '.', c == '/', c == ',', c == '%', c == '=', c == ':', c == '+', c == '#', c == '@':
			if strings.IndexByte(cfg.ifs, c) >= 0 {
				return "", false, nil
			}
		default:
			return "", false, nil
		}
	}
	return s, true, nil
}

// simpleParamValue is the value of $name or ${name} when it is a set
// string variable (sandsh): no operator, index, nameref or special
// parameter that expands otherwise.
func (cfg *Config) simpleParamValue(pe *syntax.ParamExp) (string, bool) {
	if pe.Param == nil || pe.Bad != "" || pe.Flags != nil || pe.Excl || pe.Length || pe.Width || pe.IsSet ||
		pe.Split != syntax.OptUnset || pe.GlobSubst != syntax.OptUnset || pe.RcExpand != syntax.OptUnset ||
		pe.NestedParam != nil || pe.Index != nil || len(pe.Modifiers) > 0 || pe.Slice != nil ||
		pe.Repl != nil || pe.Names != 0 || pe.Exp != nil {
		return "", false
	}
	switch name := pe.Param.Value; name {
	case "", "LINENO", "@", "*":
		return "", false
	}
	vr := cfg.Env.Get(pe.Param.Value)
	if vr.Kind != String || !vr.Set || cfg.MaxBytes > 0 && len(vr.Str) > cfg.MaxBytes {
		return "", false
	}
	return vr.Str, true
}

// plainLit returns the text of a word that is one unquoted literal with
// no character any expansion would act on (sandsh), so that it expands to
// itself: no quote removal, tilde, brace or, as a field, glob. A lone
// '[' or ']' is no glob without its partner, unless nullglob could drop
// the word.
func plainLit(cfg *Config, w *syntax.Word, field bool) (string, bool) {
	if w == nil || len(w.Parts) != 1 {
		return "", false
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok || lit.Value == "" || cfg != nil && cfg.MaxBytes > 0 && len(lit.Value) > cfg.MaxBytes {
		return "", false
	}
	s := lit.Value
	if s[0] == '~' {
		return "", false
	}
	if !field {
		for i := 0; i < len(s); i++ {
			if s[i] == '\\' || s[i] == '~' {
				return "", false
			}
		}
		return s, true
	}
	open, closed := false, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == '-', c == '_', c == '.', c == '/', c == ',', c == '%', c == '=', c == ':', c == '^', c == '#':
		case c == '[':
			open = true
		case c == ']':
			closed = true
		default:
			return "", false
		}
	}
	if open && (closed || cfg == nil || cfg.NullGlob || cfg.NoCaseGlob) {
		return "", false
	}
	return s, true
}

// FieldsSeq expands a number of words as if they were arguments in a shell
// command. This includes brace expansion, tilde expansion, parameter expansion,
// command substitution, arithmetic expansion, quote removal, and globbing.
func FieldsSeq(cfg *Config, words ...*syntax.Word) iter.Seq2[string, error] {
	cfg = prepareConfig(cfg)
	dir := cfg.envGet("PWD")
	return func(yield func(string, error) bool) {
		expandWord := func(w *syntax.Word) (stop bool) {
			wfields, err := cfg.wordFields(w.Parts, true)
			if err != nil {
				yield("", err)
				return true
			}
			for _, field := range wfields {
				path, doGlob := cfg.escapedGlobField(field)
				if doGlob && cfg.ReadDir2 != nil {
					// Note that globbing requires keeping a slice state, so it doesn't
					// really benefit from using an iterator.
					matches, err := cfg.glob(dir, path)
					if err != nil {
						// We avoid [errors.As] as it allocates,
						// and we know that [Config.glob] returns [pattern.Regexp] errors without wrapping.
						if _, ok := err.(*pattern.SyntaxError); !ok {
							yield("", err)
							return true
						}
					} else if len(matches) > 0 || cfg.NullGlob {
						for _, m := range matches {
							if !yield(m, nil) {
								return true
							}
						}
						continue
					} else if cfg.FailGlob {
						yield("", fmt.Errorf("%w: %s", ErrNoMatch, cfg.fieldJoin(field)))
						return true
					}
				}
				if !yield(cfg.fieldJoin(field), nil) {
					return true
				}
			}
			return false
		}
		for _, word := range words {
			word := *word // make a copy, since SplitBraces replaces the Parts slice
			if !syntax.SplitBraces(&word) {
				if expandWord(&word) {
					return
				}
				continue
			}
			for w, err := range BracesSeq(cfg, &word) {
				if err != nil {
					yield("", err)
					return
				}
				if err := unclosedBquote(w); err != nil {
					yield("", err)
					return
				}
				if expandWord(joinLeadingLits(rejoinParams(w))) {
					return
				}
			}
		}
	}
}

// joinLeadingLits joins the literals a brace expansion left side by side
// at the start of w, so that a tilde it brought to the front is a tilde
// prefix ({foo~,~}/bar, ~{/src,root}), as bash expands tildes after
// braces. (sandsh)
func joinLeadingLits(w *syntax.Word) *syntax.Word {
	n := 0
	for n < len(w.Parts) {
		if _, ok := w.Parts[n].(*syntax.Lit); !ok {
			break
		}
		n++
	}
	if n < 2 {
		return w
	}
	var sb strings.Builder
	for _, wp := range w.Parts[:n] {
		sb.WriteString(wp.(*syntax.Lit).Value)
	}
	first := *w.Parts[0].(*syntax.Lit)
	first.Value = sb.String()
	parts := make([]syntax.WordPart, 0, len(w.Parts)-n+1)
	parts = append(parts, &first)
	parts = append(parts, w.Parts[n:]...)
	return &syntax.Word{Parts: parts}
}

// extMode is the pattern mode of extglob for ${x%pat} and the like (sandsh).
func (cfg *Config) extMode() pattern.Mode {
	if cfg.ExtGlob {
		return pattern.ExtendedOperators
	}
	return 0
}

func (cfg *Config) cmdSubst(cs *syntax.CmdSubst) (string, error) {
	if cfg.CmdSubst == nil {
		return "", UnexpectedCommandError{Node: cs}
	}
	if cfg.arithDepth > 0 {
		// sandsh: a subscript in arithmetic text that came from a value
		// (x='a[$(cmd)]'; $((x))) is expanded, but a command in it is
		// not run: it stands for no output. bash runs it, which lets
		// data run code.
		return "", nil
	}
	sb := cfg.strBuilder()
	if err := cfg.CmdSubst(sb, cs); err != nil {
		return "", err
	}
	out := sb.String()
	out = strings.ReplaceAll(out, "\x00", "")
	return strings.TrimRight(out, "\n"), nil
}

// ErrTooManyFields is returned when one expansion would produce more than
// Config.MaxFields fields.
var ErrTooManyFields = errors.New("expansion produces too many fields")

// ErrNoMatch is the error of a pattern field that matched nothing under
// [Config.FailGlob].
var ErrNoMatch = errors.New("no match")

// listElems returns the elements of a "*" or "@" expansion of a list, like
// $@ or ${arr[*]}, with star set for the "*" forms which join into a single
// field when quoted. ok is false for any other parameter expansion.
func (cfg *Config) listElems(pe *syntax.ParamExp) (elems []string, star, ok bool) {
	if pe.Param == nil { // e.g. zsh's ${}; paramExp rejects it
		return nil, false, false
	}
	switch name := pe.Param.Value; name {
	case "*", "@":
		return cfg.sliceElems(pe, cfg.Env.Get(name).List, nil, true), name == "*", true
	}
	switch lit := nodeLit(pe.Index); lit {
	case "@", "*":
		_, vr := cfg.Env.Get(pe.Param.Value).Resolve(cfg.Env)
		switch vr.Kind {
		case Indexed:
			return cfg.sliceElems(pe, vr.List, vr.Indexes, false), lit == "*", true
		case Associative:
			return cfg.sliceList(pe, vr.Map.Values(), nil, false, true), lit == "*", true
		}
	}
	return nil, false, false
}

// listSliceErr fails a list slice with a negative length, like bash's
// "${a[@]:1:-3}": "-3: substring expression < 0".
func (cfg *Config) listSliceErr(pe *syntax.ParamExp) error {
	if pe.Slice == nil || pe.Slice.Length == nil || pe.Param == nil {
		return nil
	}
	list := pe.Param.Value == "@" || pe.Param.Value == "*"
	if !list {
		switch nodeLit(pe.Index) {
		case "@", "*":
			_, vr := cfg.Env.Get(pe.Param.Value).Resolve(cfg.Env)
			list = vr.Kind == Indexed || vr.Kind == Associative
		}
	}
	if !list {
		return nil
	}
	n, err := Arithm(cfg, pe.Slice.Length)
	if err != nil {
		return err
	}
	if n < 0 {
		return &ArithmError{Err: fmt.Errorf("%d: substring expression < 0", n)}
	}
	return nil
}

// sliceElems applies ${var:offset:length} slicing to a list of elements.
// When positional is true, $0 is prepended to the list before slicing.
// In bash, positional parameter offsets ($@ and $*) are 1-based and
// offset 0 includes $0 (the shell or script name). Negative offsets
// count from $# + 1, so $0 is reachable via large enough negative values.
// A non-nil indexes records the index of each element in a sparse array;
// see [Variable.Indexes].
func (cfg *Config) sliceElems(pe *syntax.ParamExp, elems []string, indexes []int, positional bool) []string {
	return cfg.sliceList(pe, elems, indexes, positional, false)
}

func (cfg *Config) sliceList(pe *syntax.ParamExp, elems []string, indexes []int, positional, assoc bool) []string {
	if pe.Slice == nil {
		return elems
	}
	if positional {
		elems = append([]string{cfg.Env.Get("0").Str}, elems...)
	}
	if pe.Slice.Offset != nil {
		offset, err := Arithm(cfg, pe.Slice.Offset)
		if err != nil {
			return elems
		}
		if assoc {
			// bash's assoc_subrange counts from 1 (0 also means the
			// first element) and a negative offset from n+1.
			if offset < 0 {
				offset += len(elems) + 1
			}
			switch {
			case offset < 0:
				elems = nil
			case offset > 0:
				elems = elems[min(offset-1, len(elems)):]
			}
		} else if len(indexes) > 0 {
			// Sparse arrays slice by index: a negative offset counts
			// from one past the maximum index, and the result begins
			// with the first element whose index is at least the offset.
			if offset < 0 {
				offset += indexes[len(indexes)-1] + 1
				if offset < 0 {
					offset = indexes[len(indexes)-1] + 1
				}
			}
			pos, _ := slices.BinarySearch(indexes, offset)
			elems = elems[pos:]
		} else {
			elems = elems[slicePos(offset, len(elems)):]
		}
	}
	if pe.Slice.Length != nil {
		length, err := Arithm(cfg, pe.Slice.Length)
		if err != nil {
			return elems
		}
		elems = elems[:slicePos(length, len(elems))]
	}
	return elems
}

func (cfg *Config) expandUser(field string, moreFields bool) (prefix, rest string) {
	name, ok := strings.CutPrefix(field, "~")
	if !ok {
		// No tilde prefix to expand, e.g. "foo".
		return "", field
	}
	i := strings.IndexByte(name, '/')
	if i < 0 && moreFields {
		// There is a tilde prefix, but followed by more fields, e.g. "~'foo'".
		// We only proceed if an unquoted slash was found in this field, e.g. "~/'foo'".
		return "", field
	}
	if i >= 0 {
		rest = name[i:]
		name = name[:i]
	}
	if name == "" {
		// Current user; try via "HOME", otherwise fall back to the
		// system's appropriate home dir env var. Don't use os/user, as
		// that's overkill. We can't use [os.UserHomeDir], because we want
		// to use cfg.Env, and we always want to check "HOME" first.

		if vr := cfg.Env.Get("HOME"); vr.IsSet() {
			return vr.String(), rest
		}

		if runtime.GOOS == "windows" {
			if vr := cfg.Env.Get("USERPROFILE"); vr.IsSet() {
				return vr.String(), rest
			}
		}
		// sandsh: with HOME unset, bash takes the user's home from the
		// user database: the caller's, through "HOME " (no user name).
		if vr := cfg.Env.Get("HOME "); vr.IsSet() {
			return vr.String(), rest
		}
		return "", field
	}

	// Not the current user; try via "HOME <name>", otherwise fall back to
	// os/user. There isn't a way to lookup user home dirs without cgo.

	if vr := cfg.Env.Get("HOME " + name); vr.IsSet() {
		return vr.String(), rest
	}

	// Never the host user database: unknown users stay literal.
	return "", field
}

func (cfg *Config) findAllIndex(pat, name string, n int, mode pattern.Mode) [][]int {
	expr, err := pattern.Regexp(pat, mode)
	if err != nil {
		return nil
	}
	rx := cfg.regexp(expr)
	return rx.FindAllStringIndex(name, n)
}

// The ** regexps are compiled on the first ** glob, not at the start of
// every sandsh process.
var (
	rxGlobStar        = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[^/.][^/]*$`) })
	rxGlobStarDotGlob = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[^/]*$`) })
)

// pathJoin2 is a simpler version of [filepath.Join] without cleaning the result,
// since that's needed for globbing.
func pathJoin2(elem1, elem2 string) string {
	if elem1 == "" {
		return elem2
	}
	if strings.HasSuffix(elem1, string(filepath.Separator)) {
		return elem1 + elem2
	}
	return elem1 + string(filepath.Separator) + elem2
}

// pathSplit splits a file path into its elements, retaining empty ones. Before
// splitting, slashes are replaced with [filepath.Separator], so that splitting
// Unix paths on Windows works as well.
func pathSplit(path string) []string {
	path = filepath.FromSlash(path)
	return strings.Split(path, string(filepath.Separator))
}

func (cfg *Config) glob(base, pat string) ([]string, error) {
	matches, err := cfg.glob1(base, pat)
	if err != nil {
		return nil, err
	}
	return cfg.globIgnore(matches)
}

func (cfg *Config) glob1(base, pat string) ([]string, error) {
	var metaMode pattern.Mode
	if cfg.ExtGlob {
		metaMode = pattern.ExtendedOperators
	}
	dotGlob := cfg.DotGlob
	parts := pathSplit(pat)
	matches := []string{""}
	if filepath.IsAbs(pat) {
		if parts[0] == "" {
			// unix-like
			matches[0] = string(filepath.Separator)
		} else {
			// windows (for some reason it won't work without the
			// trailing separator)
			matches[0] = parts[0] + string(filepath.Separator)
		}
		parts = parts[1:]
	}
	// TODO: as an optimization, we could do chunks of the path all at once,
	// like doing a single stat for "/foo/bar" in "/foo/bar/*".

	// TODO: Another optimization would be to reduce the number of ReadDir2 calls.
	// For example, /foo/* can end up doing one duplicate call:
	//
	//    ReadDir2("/foo") to ensure that "/foo/" exists and only matches a directory
	//    ReadDir2("/foo") glob "*"

	for i, part := range parts {
		// Keep around for debugging.
		// log.Printf("matches %q part %d %q", matches, i, part)

		wantDir := i < len(parts)-1
		switch {
		case part == "", part == ".", part == "..":
			for i, dir := range matches {
				matches[i] = pathJoin2(dir, part)
			}
			continue
		case !pattern.HasMeta(part, metaMode):
			// sandsh: a segment with no pattern in it names a file, so
			// the escapes of its quoted characters ("v-n"/* is v\-n
			// here) come off first.
			part = unescapePattern(part)
			var newMatches []string
			for _, dir := range matches {
				match := dir
				if !filepath.IsAbs(match) {
					match = filepath.Join(base, match)
				}
				match = pathJoin2(match, part)
				// We can't use [Config.ReadDir2] on the parent and match the directory
				// entry by name, because short paths on Windows break that.
				// Our only option is to [Config.ReadDir2] on the directory entry itself,
				// which can be wasteful if we only want to see if it exists,
				// but at least it's correct in all scenarios.
				if _, err := cfg.ReadDir2(match); err != nil {
					if errors.Is(err, syscall.ENOTDIR) {
						// Reading a regular file as a directory.
						// Note that on Windows this error also satisfies
						// [fs.ErrNotExist], so it must be checked first;
						// see https://github.com/golang/go/issues/46734.
					} else if errors.Is(err, fs.ErrNotExist) {
						continue // simply doesn't exist
					}
					if wantDir {
						continue // exists but not a directory
					}
				}
				newMatches = append(newMatches, pathJoin2(dir, part))
			}
			matches = newMatches
			continue
		case part == "**" && cfg.GlobStar:
			// Find all recursive matches for "**".
			// Note that we need the results to be in depth-first order,
			// and to avoid recursion, we use a slice as a stack.
			// Since we pop from the back, we populate the stack backwards.
			//
			// sandsh: like bash 5.2, the walk never descends through a
			// symlink to a directory (a link to . or .. would loop). The
			// link itself is listed: as a name when ** ends the pattern,
			// as a directory (not entered) before more of the pattern,
			// except that a ** that starts a relative pattern (after
			// nothing but other **) lists it only when nothing but a
			// slash follows (bash prints d/e for **/e and **/**/e but
			// ./d/e ./l/e for ./**/e, and l/ for **/).
			first := !filepath.IsAbs(pat)
			for _, p := range parts[:i] {
				first = first && p == "**"
			}
			linkDirs := !first || (i == len(parts)-2 && parts[i+1] == "")
			// sandsh: as in bash, a directory a pattern matched is listed
			// as itself (*/** gives d, not d/); a literal one keeps the
			// trailing separator.
			literalBase := i == 0 || !pattern.HasMeta(parts[i-1], metaMode)
			stack := make([]starEntry, 0, len(matches))
			for _, match := range slices.Backward(matches) {
				// "a/**" should match "a/ a/b a/b/cfg ...";
				// note how the zero-match case there has a trailing separator.
				if literalBase {
					match = pathJoin2(match, "")
				}
				stack = append(stack, starEntry{match, true})
			}
			matches = matches[:0]
			rx := rxGlobStar().MatchString
			if dotGlob {
				rx = rxGlobStarDotGlob().MatchString
			}
			var found []starEntry // to reuse its capacity
			for len(stack) > 0 {
				e := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				matches = append(matches, e.path)
				if !e.enter {
					continue
				}
				var err error
				found, err = cfg.globStarDir(base, e.path, rx, wantDir, linkDirs, found[:0])
				if err != nil && cfg.Ctx != nil && cfg.Ctx.Err() != nil {
					return nil, err
				}
				for _, f := range slices.Backward(found) {
					stack = append(stack, f)
				}
			}
			continue
		}
		mode := pattern.Filenames | pattern.EntireString | pattern.NoGlobStar
		if cfg.NoCaseGlob {
			mode |= pattern.NoGlobCase
		}
		if dotGlob {
			mode |= pattern.GlobLeadingDot
		}
		if cfg.ExtGlob {
			mode |= pattern.ExtendedOperators
		}
		matcher, err := ExtendedPatternMatcher(part, mode)
		if err != nil {
			return nil, err
		}
		extStart := cfg.ExtGlob && len(part) > 1 && part[1] == '(' && strings.IndexByte("?*+@!", part[0]) >= 0
		if !dotGlob && part[0] != '.' && !strings.HasPrefix(part, `\.`) && !extStart {
			// sandsh: a leading dot is matched only by a dot, even in
			// *.* where the regexp lets the first * match nothing.
			dotted := matcher
			matcher = func(name string) bool { return !strings.HasPrefix(name, ".") && dotted(name) }
		}
		var newMatches []string
		for _, dir := range matches {
			if cfg.NoGlobSkipDots && strings.HasPrefix(part, ".") {
				// sandsh: shopt -u globskipdots lets .* match . and ..
				for _, name := range [...]string{".", ".."} {
					if matcher(name) {
						newMatches = append(newMatches, pathJoin2(dir, name))
					}
				}
			}
			newMatches, err = cfg.globDir(base, dir, matcher, wantDir, newMatches)
			if err != nil {
				return nil, err
			}
		}
		matches = newMatches
	}
	// Note that the results need to be sorted.
	// TODO: above we do a BFS; if we did a DFS, the matches would already be sorted.
	slices.Sort(matches)
	if cfg.GlobStar && strings.Count(pat, "**") > 1 {
		// sandsh: like bash, a path reached through several ** is listed once.
		matches = slices.Compact(matches)
	}
	// Remove any empty matches left behind from "**".
	if len(matches) > 0 && matches[0] == "" {
		matches = matches[1:]
	}
	return matches, nil
}

// unescapePattern is the literal text of a pattern with no unescaped
// metacharacters: each backslash gives the character after it.
func unescapePattern(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// starEntry is a name a ** walk found: enter says whether the walk goes
// on below it (a real directory), else it is only listed.
type starEntry struct {
	path  string
	enter bool
}

// globStarDir lists dir for a ** walk (sandsh): real directories are
// entered; a symlink to a directory is listed (when linkDirs, or when
// wantDir is false) but never entered; other entries are listed only
// when ** ends the pattern (wantDir false).
func (cfg *Config) globStarDir(base, dir string, matcher func(string) bool, wantDir, linkDirs bool, out []starEntry) ([]starEntry, error) {
	if cfg.Ctx != nil {
		if err := cfg.Ctx.Err(); err != nil {
			return out, err
		}
	}
	fullDir := dir
	if !filepath.IsAbs(dir) {
		fullDir = filepath.Join(base, dir)
	}
	infos, err := cfg.ReadDir2(fullDir)
	if err != nil {
		return out, err
	}
	for _, info := range infos {
		name := info.Name()
		if !matcher(name) {
			continue
		}
		p := pathJoin2(dir, name)
		switch mode := info.Type(); {
		case mode.IsDir():
			out = append(out, starEntry{p, true})
		case !wantDir:
			out = append(out, starEntry{p, false})
		case mode&os.ModeSymlink != 0 && linkDirs:
			if _, err := cfg.ReadDir2(filepath.Join(fullDir, name)); err == nil {
				out = append(out, starEntry{p, false})
			}
		}
	}
	return out, nil
}

func (cfg *Config) globDir(base, dir string, matcher func(string) bool, wantDir bool, matches []string) ([]string, error) {
	if cfg.Ctx != nil {
		if err := cfg.Ctx.Err(); err != nil {
			return matches, err
		}
	}
	fullDir := dir
	if !filepath.IsAbs(dir) {
		fullDir = filepath.Join(base, dir)
	}
	infos, err := cfg.ReadDir2(fullDir)
	if err != nil {
		// We still want to return matches, for the sake of reusing slices.
		return matches, err
	}
	for _, info := range infos {
		name := info.Name()
		if !wantDir {
			// No filtering.
		} else if mode := info.Type(); mode&os.ModeSymlink != 0 {
			// We need to know if the symlink points to a directory.
			// This requires an extra syscall, as [Config.ReadDir] on the parent directory
			// does not follow symlinks for each of the directory entries.
			// ReadDir is somewhat wasteful here, as we only want its error result,
			// but we could try to reuse its result as per the TODO in [Config.glob].
			if _, err := cfg.ReadDir2(filepath.Join(fullDir, info.Name())); err != nil {
				continue
			}
		} else if !mode.IsDir() {
			// Not a symlink nor a directory.
			continue
		}
		if matcher(name) {
			matches = append(matches, pathJoin2(dir, name))
		}
	}
	return matches, nil
}

// ReadFields splits and returns n fields from s, like the "read" shell builtin.
// If raw is set, backslash escape sequences are not interpreted.
//
// The config specifies shell expansion options; nil behaves the same as an
// empty config.
func ReadFields(cfg *Config, s string, n int, raw bool) []string {
	cfg = prepareConfig(cfg)
	type pos struct {
		start, end int
	}
	var fpos []pos

	runes := make([]rune, 0, len(s))
	infield := false
	esc := false
	for _, r := range s {
		if infield {
			if cfg.ifsRune(r) && (raw || !esc) {
				fpos[len(fpos)-1].end = len(runes)
				infield = false
			}
		} else {
			if !cfg.ifsRune(r) && (raw || !esc) {
				fpos = append(fpos, pos{start: len(runes), end: -1})
				infield = true
			}
		}
		if r == '\\' {
			if raw || esc {
				runes = append(runes, r)
			}
			esc = !esc
			continue
		}
		runes = append(runes, r)
		esc = false
	}
	if len(fpos) == 0 {
		return nil
	}
	if infield {
		fpos[len(fpos)-1].end = len(runes)
	}

	switch {
	case n == 1:
		// The single field spans the whole line minus leading and trailing
		// IFS whitespace; anything outside the fields is already IFS.
		lo, hi := 0, len(runes)
		for lo < fpos[0].start && cfg.ifsWhitespace(runes[lo]) {
			lo++
		}
		for hi > fpos[len(fpos)-1].end && cfg.ifsWhitespace(runes[hi-1]) {
			hi--
		}
		fpos[0].start, fpos[0].end = lo, hi
		fpos = fpos[:1]
	case n != -1 && n < len(fpos):
		// combine to max n fields
		fpos[n-1].end = fpos[len(fpos)-1].end
		fpos = fpos[:n]
	}

	fields := make([]string, len(fpos))
	for i, p := range fpos {
		fields[i] = string(runes[p.start:p.end])
	}
	return fields
}

func (cfg *Config) warn(msg string) {
	if cfg.Warn != nil {
		cfg.Warn(msg)
	}
}
