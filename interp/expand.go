package interp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"reflect"
	"regexp"
	"strings"

	"github.com/sandsh/sandsh/interp/internal/expand"
	"github.com/sandsh/sandsh/interp/internal/parseguard"
	"github.com/spf13/afero"
	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// ecfg builds the expansion config for the runner's current options.
func (r *Runner) ecfg(ctx context.Context) *expand.Config {
	f := r.ecfgFuncs(ctx)
	var cfg *expand.Config
	if n := len(r.cfgFree); n > 0 {
		cfg = r.cfgFree[n-1]
		r.cfgFree = r.cfgFree[:n-1]
	} else {
		cfg = new(expand.Config)
	}
	*cfg = expand.Config{
		Env:            envAdapter{r},
		CmdSubst:       f.cmdSubst,
		ProcSubst:      f.procSubst,
		GlobStar:       r.opts.globstar,
		Ctx:            ctx,
		DotGlob:        r.opts.dotglob,
		NoCaseGlob:     r.opts.nocaseglob,
		NullGlob:       r.opts.nullglob,
		NoUnset:        r.opts.nounset,
		ExtGlob:        r.opts.extglob,
		NoGlobSkipDots: !r.opts.globskipdots,
		MaxBytes:       r.s.limits.MaxVarBytes,
		MaxFields:      r.s.limits.MaxFields,
		Arith:          &r.s.arith,
		CompileRegexp:  f.compile,
		Warn:           f.warn,
	}
	if !r.opts.noglob {
		cfg.ReadDir2 = f.readDir
	}
	return cfg
}

// putCfg gives back a config from ecfg that nothing holds any more, for
// the next expansion to reuse: an expansion can run commands ($( )) and
// so nest, but each level takes its own config.
//
// It is not cleared here: ecfg overwrites all of it when it is taken
// again, which for a free one is at the next expansion.
func (r *Runner) putCfg(cfg *expand.Config) {
	if len(r.cfgFree) < 8 {
		r.cfgFree = append(r.cfgFree, cfg)
	}
}

// expandFuncs are the callbacks of an expansion config. They depend only
// on the runner and the context, so they are made once per pair rather
// than on every expansion (four allocations a command).
type expandFuncs struct {
	owner     *Runner
	ctx       context.Context
	cmdSubst  func(io.Writer, *syntax.CmdSubst) error
	procSubst func(*syntax.ProcSubst) (string, error)
	warn      func(string)
	readDir   func(string) ([]fs.DirEntry, error)
	compile   func(string) (*regexp.Regexp, error)
}

func (r *Runner) ecfgFuncs(ctx context.Context) *expandFuncs {
	// A subshell starts with its parent's copy (owner differs); a context
	// of a type that cannot be compared is never reused.
	if f := r.efuncs; f != nil && f.owner == r && reflect.TypeOf(ctx).Comparable() && f.ctx == ctx {
		return f
	}
	f := &expandFuncs{
		owner: r,
		ctx:   ctx,
		cmdSubst: func(w io.Writer, cs *syntax.CmdSubst) error {
			return r.cmdSubst(ctx, w, cs)
		},
		procSubst: func(ps *syntax.ProcSubst) (string, error) {
			return r.procSubst(ctx, ps)
		},
		warn:    func(msg string) { r.errf("%s", msg) },
		readDir: r.readDirForGlob,
		compile: func(expr string) (*regexp.Regexp, error) { return compileCached(r.s, expr) },
	}
	r.efuncs = f
	return f
}

func (r *Runner) readDirForGlob(dir string) ([]fs.DirEntry, error) {
	infos, err := afero.ReadDir(r.devFS(), r.abs(dir))
	if errors.Is(err, fs.ErrPermission) {
		// A directory the script may not list adds no names, as in
		// bash: `cd` into it and `echo *` prints `*`.
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := make([]fs.DirEntry, len(infos))
	for i, fi := range infos {
		out[i] = fs.FileInfoToDirEntry(fi)
	}
	return out, nil
}

// guard turns a panic inside mvdan's expand package into an error, so a
// hostile word (e.g. a NUL byte quoted with ${x@Q}) cannot kill sandsh.
func guard(err *error) {
	if v := recover(); v != nil {
		if panicHook != nil {
			panicHook(v)
		}
		*err = fmt.Errorf("bad substitution (%v)", v)
	}
}

// panicHook, set only by tests (the fuzz targets), sees every panic guard
// recovers: each is a bug even though the script goes on.
var panicHook func(v any)

// tooManyFields reports whether n fields are past the max-fields limit,
// failing the run if so.
func (r *Runner) tooManyFields(n int) bool {
	if max := r.s.limits.MaxFields; max > 0 && n > max {
		r.limitHit("max-fields", fmt.Sprint(max))
		return true
	}
	return false
}

// tooBig turns an oversized expansion into the max-var-bytes limit (or
// max-fields for too many fields).
func (r *Runner) tooBig(err error) error {
	if errors.Is(err, expand.ErrTooManyFields) {
		return r.limitErr("max-fields", fmt.Sprint(r.s.limits.MaxFields))
	}
	if errors.Is(err, expand.ErrTooBig) {
		return r.limitErr("max-var-bytes", FormatBytes(int64(r.s.limits.MaxVarBytes)))
	}
	return err
}

// fields expands words into fields: brace, tilde, parameter, command and
// arithmetic expansion, word splitting and globbing.
func (r *Runner) fields(ctx context.Context, words ...*syntax.Word) (out []string, err error) {
	return r.fieldsCfg(ctx, false, 0, words...)
}

// argFields is fields for a command's arguments and a for loop's words,
// where bash expands the tilde prefixes of words that look like
// assignments (echo x=~), outside POSIX mode.
func (r *Runner) argFields(ctx context.Context, words ...*syntax.Word) (out []string, err error) {
	return r.fieldsCfg(ctx, !r.opts.posix, 0, words...)
}

// loopFields is argFields for the words of a for or select loop, in which
// $LINENO is the line of the loop's keyword, as in bash, even when the
// words go on over more lines.
func (r *Runner) loopFields(ctx context.Context, line uint, words ...*syntax.Word) (out []string, err error) {
	return r.fieldsCfg(ctx, !r.opts.posix, line, words...)
}

// fieldsCfg expands words; a line other than 0 is $LINENO's value in them.
func (r *Runner) fieldsCfg(ctx context.Context, assignTilde bool, line uint, words ...*syntax.Word) (out []string, err error) {
	defer guard(&err)
	cfg := r.ecfg(ctx)
	defer r.putCfg(cfg)
	cfg.AssignTilde = assignTilde
	cfg.Line = line
	cfg.FailGlob = r.opts.failglob
	out, err = expand.Fields(cfg, words...)
	if err == nil && r.s.fatalErr() != nil {
		err = r.s.fatalErr()
	}
	return out, r.tooBig(err)
}

// literal expands a word to one string without splitting or globbing.
func (r *Runner) literal(ctx context.Context, w *syntax.Word) (string, error) {
	return r.expandWord(ctx, w, expand.Literal)
}

// assignValue expands the value of an assignment (x=word).
func (r *Runner) assignValue(ctx context.Context, w *syntax.Word) (string, error) {
	return r.expandWord(ctx, w, expand.Assign)
}

// expandWord runs one of the expander's one-string expansions of w on a
// pooled config (a nil word is the empty string): a fatal error raised on
// the way (a limit) wins over the result, and one too big says so.
func (r *Runner) expandWord(ctx context.Context, w *syntax.Word, expandFn func(*expand.Config, *syntax.Word) (string, error)) (s string, err error) {
	if w == nil {
		return "", nil
	}
	defer guard(&err)
	cfg := r.ecfg(ctx)
	defer r.putCfg(cfg)
	s, err = expandFn(cfg, w)
	if err == nil && r.s.fatalErr() != nil {
		err = r.s.fatalErr()
	}
	return s, r.tooBig(err)
}

// document expands a here-document body.
func (r *Runner) document(ctx context.Context, w *syntax.Word) (s string, err error) {
	if w == nil {
		return "", nil
	}
	defer guard(&err)
	cfg := r.ecfg(ctx)
	defer r.putCfg(cfg)
	return expand.Document(cfg, w)
}

// pattern expands a word for use as a pattern (case, [[ == ]], ${x#p}).
func (r *Runner) pattern(ctx context.Context, w *syntax.Word) (s string, err error) {
	defer guard(&err)
	cfg := r.ecfg(ctx)
	defer r.putCfg(cfg)
	return expand.Pattern(cfg, w)
}

// regex expands the right side of [[ =~ ]]: quoted parts match
// literally, as in bash.
func (r *Runner) regex(ctx context.Context, w *syntax.Word) (string, error) {
	return r.expandWord(ctx, w, func(cfg *expand.Config, w *syntax.Word) (string, error) {
		return expand.Regex(cfg, w, regexp.QuoteMeta)
	})
}

// arith evaluates an arithmetic expression.
func (r *Runner) arith(ctx context.Context, x syntax.ArithmExpr) (n int, err error) {
	return r.arithSource(ctx, x, "")
}

// arithSource evaluates an arithmetic expression parsed from source, the
// text its error messages quote ("" when unknown).
func (r *Runner) arithSource(ctx context.Context, x syntax.ArithmExpr, source string) (n int, err error) {
	defer guard(&err)
	cfg := r.ecfg(ctx)
	defer r.putCfg(cfg)
	n, err = expand.ArithmSource(cfg, x, source)
	if err == nil && r.s.fatalErr() != nil {
		err = r.s.fatalErr()
	}
	return n, err
}

// arithValue evaluates a value as an arithmetic expression, as the
// expander reads a variable's value inside one ([[ $x -eq 0 ]]), and as
// bash evaluates a value given to an integer variable and let's
// arguments: text it does not expand first, so an expansion or a quote
// in it is an error and runs nothing.
func (r *Runner) arithValue(ctx context.Context, s string) (n int, err error) {
	if strings.TrimSpace(s) == "" {
		return 0, nil
	}
	defer guard(&err)
	cfg := r.ecfg(ctx)
	defer r.putCfg(cfg)
	n, err = expand.ArithText(cfg, s)
	if err == nil && r.s.fatalErr() != nil {
		err = r.s.fatalErr()
	}
	return n, err
}

// arithString evaluates arithmetic given as text whose expansions bash
// does (the subscript in unset 'a[$i]' or test -v 'a[$i]'); text without
// expansions is first checked as bash's parser would.
func (r *Runner) arithString(s string) (int, error) {
	if strings.TrimSpace(s) == "" {
		return 0, nil
	}
	if !strings.ContainsAny(s, "$`") {
		if err := expand.CheckArithSyntax(s); err != nil {
			return 0, &expand.ArithmError{Err: err}
		}
	}
	x, err := syntax.NewParser().Arithmetic(parseguard.String(nil, s))
	if errors.Is(err, parseguard.ErrTooDeep) {
		return 0, fmt.Errorf("%s: expression recursion level exceeded", s)
	}
	if err != nil || x == nil || !expand.ArithConsumed(x, s) { // nil: only a comment, as in a[#]
		return 0, fmt.Errorf("%s: syntax error in expression", s)
	}
	if r.arithNest >= maxArithNest {
		return 0, fmt.Errorf("%s: expression recursion level exceeded", s)
	}
	r.arithNest++
	defer func() { r.arithNest-- }()
	return r.arith(context.Background(), x)
}

// maxArithNest bounds arithString inside itself, as the expander bounds
// expressions found in values (bash: "expression recursion level
// exceeded" at 1024).
const maxArithNest = 1024

// matchPattern matches a shell pattern against s (case, [[ == ]]).
func (r *Runner) matchPattern(pat, s string) bool {
	mode := pattern.EntireString | pattern.ExtendedOperators
	if r.opts.nocasematch {
		mode |= pattern.NoGlobCase
	}
	if expand.HasNegExtGlob(pat) {
		m, err := expand.ExtendedPatternMatcher(pat, mode)
		return err == nil && m(s)
	}
	expr, err := pattern.Regexp(pat, mode)
	if err != nil {
		return pat == s
	}
	rx, err := compileCached(r.s, expr)
	if err != nil {
		return false
	}
	return rx.MatchString(s)
}
