package find

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
	"github.com/sandsh/sandsh/builtins/internal/regex"
)

// expr is a node of the expression tree.
type expr interface {
	eval(f *finder, v *visit) bool
}

type andExpr struct{ l, r expr }
type orExpr struct{ l, r expr }
type notExpr struct{ e expr }
type commaExpr struct{ l, r expr }
type trueExpr struct{}

// After -quit nothing more is evaluated: GNU find exits on the spot.

func (e *andExpr) eval(f *finder, v *visit) bool {
	return e.l.eval(f, v) && !f.quit && e.r.eval(f, v)
}

func (e *orExpr) eval(f *finder, v *visit) bool {
	if e.l.eval(f, v) {
		return true
	}
	return !f.quit && e.r.eval(f, v)
}

func (e *notExpr) eval(f *finder, v *visit) bool { return !e.e.eval(f, v) }

func (e *commaExpr) eval(f *finder, v *visit) bool {
	l := e.l.eval(f, v)
	if f.quit {
		return l
	}
	return e.r.eval(f, v)
}

func (trueExpr) eval(*finder, *visit) bool { return true }

// predFunc adapts a function to expr.
type predFunc func(f *finder, v *visit) bool

func (p predFunc) eval(f *finder, v *visit) bool { return p(f, v) }

// parser turns the expression words into a tree. Positional options
// (-daystart, -regextype, -follow) affect the tests parsed after them.
type parser struct {
	f         *finder
	toks      []string
	i         int
	hasAction bool
	regexType string
	daystart  bool
}

func (p *parser) parseAll() (expr, error) {
	if len(p.toks) == 0 {
		return nil, nil
	}
	e, err := p.parseComma()
	if err != nil {
		return nil, err
	}
	if p.i < len(p.toks) {
		t := p.toks[p.i]
		if t == ")" {
			return nil, errors.New("invalid expression; you have too many ')'")
		}
		return nil, fmt.Errorf("paths must precede expression: `%s'", t)
	}
	return e, nil
}

func (p *parser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *parser) parseComma() (expr, error) {
	l, err := p.parseOr()
	if err != nil {
		return nil, err
	}
	for p.peek() == "," {
		p.i++
		r, err := p.parseOr()
		if err != nil {
			return nil, err
		}
		l = join(l, r, func(a, b expr) expr { return &commaExpr{a, b} })
	}
	return l, nil
}

// join combines operands, where nil stands for a global option that
// produced no test.
func join(l, r expr, mk func(a, b expr) expr) expr {
	switch {
	case l == nil:
		return r
	case r == nil:
		return l
	}
	return mk(l, r)
}

func (p *parser) parseOr() (expr, error) {
	l, err := p.parseAnd()
	if err != nil {
		return nil, err
	}
	for p.peek() == "-o" || p.peek() == "-or" {
		op := p.peek()
		p.i++
		if l == nil {
			return nil, fmt.Errorf("invalid expression; you have used a binary operator '%s' with nothing before it.", op)
		}
		r, err := p.parseAnd()
		if err != nil {
			return nil, err
		}
		if r == nil {
			return nil, fmt.Errorf("invalid expression; you have used a binary operator '%s' with nothing after it.", op)
		}
		l = &orExpr{l, r}
	}
	return l, nil
}

func (p *parser) parseAnd() (expr, error) {
	l, err := p.parseUnary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		switch t {
		case "", ")", "-o", "-or", ",":
			return l, nil
		case "-a", "-and":
			p.i++
			if l == nil {
				return nil, fmt.Errorf("invalid expression; you have used a binary operator '%s' with nothing before it.", t)
			}
			if n := p.peek(); n == "" || n == ")" || n == "-o" || n == "-or" || n == "," {
				return nil, fmt.Errorf("invalid expression; you have used a binary operator '%s' with nothing after it.", t)
			}
		}
		r, err := p.parseUnary()
		if err != nil {
			return nil, err
		}
		l = join(l, r, func(a, b expr) expr { return &andExpr{a, b} })
	}
}

func (p *parser) parseUnary() (expr, error) {
	t := p.peek()
	switch t {
	case "!", "-not":
		p.i++
		if n := p.peek(); n == "" || n == ")" || n == "-o" || n == "-or" || n == "-a" || n == "-and" || n == "," {
			return nil, fmt.Errorf("invalid expression; you have used a unary operator '%s' with nothing after it.", t)
		}
		e, err := p.parseUnary()
		if err != nil {
			return nil, err
		}
		if e == nil {
			return nil, nil
		}
		return &notExpr{e}, nil
	case "(":
		p.i++
		if p.peek() == ")" {
			return nil, errors.New("invalid expression; empty parentheses are not allowed.")
		}
		e, err := p.parseComma()
		if err != nil {
			return nil, err
		}
		if p.peek() != ")" {
			return nil, errors.New("invalid expression; I was expecting to find a ')' somewhere but did not see one.")
		}
		p.i++
		if e == nil {
			e = trueExpr{}
		}
		return e, nil
	case ")":
		return nil, errors.New("invalid expression; you have too many ')'")
	}
	p.i++
	return p.primary(t)
}

// arg takes the argument of option name.
func (p *parser) arg(name string) (string, error) {
	if p.i >= len(p.toks) {
		return "", fmt.Errorf("missing argument to `%s'", name)
	}
	a := p.toks[p.i]
	p.i++
	return a, nil
}

// primary parses one test, action or option. Global options return a
// nil expression.
func (p *parser) primary(t string) (expr, error) {
	f := p.f
	if !strings.HasPrefix(t, "-") || t == "-" {
		return nil, fmt.Errorf("paths must precede expression: `%s'", t)
	}
	switch t {
	// Options.
	case "-maxdepth", "-mindepth":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		n, err := strconv.Atoi(a)
		if err != nil || n < 0 || strings.HasPrefix(a, "+") {
			return nil, fmt.Errorf("Expected a positive decimal integer argument to %s, but got %s", t, fileutil.Quote(a))
		}
		if t == "-maxdepth" {
			f.maxDepth = n
		} else {
			f.minDepth = n
		}
		return nil, nil
	case "-depth", "-d":
		f.depthFirst = true
		return nil, nil
	case "-xdev", "-mount", "-noleaf", "-ignore_readdir_race", "-noignore_readdir_race", "-warn", "-nowarn":
		return nil, nil
	case "-follow":
		f.follow = 'L'
		return nil, nil
	case "-daystart":
		p.daystart = true
		return nil, nil
	case "-regextype":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		switch a {
		case "emacs", "findutils-default", "posix-basic", "posix-extended", "posix-egrep", "egrep",
			"posix-awk", "awk", "gnu-awk", "grep", "sed", "ed", "posix-minimal-basic":
			p.regexType = a
		default:
			return nil, fmt.Errorf("Unknown regular expression type %s; valid types are findutils-default, awk, egrep, ed, emacs, gnu-awk, grep, posix-awk, posix-basic, posix-egrep, posix-extended, posix-minimal-basic, sed.", fileutil.Quote(a))
		}
		return nil, nil
	case "-help", "--help":
		fmt.Fprint(f.out, Usage)
		return nil, errHelpShown
	case "-version", "--version":
		fmt.Fprintln(f.out, "find (sandsh) 4.9.0")
		return nil, errHelpShown

	// Tests.
	case "-true":
		return trueExpr{}, nil
	case "-false":
		return predFunc(func(*finder, *visit) bool { return false }), nil
	case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-lname", "-ilname":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		return namePred(t, a), nil
	case "-regex", "-iregex":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		return p.regexPred(a, t == "-iregex")
	case "-type", "-xtype":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		return typePred(t, a)
	case "-size":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		return sizePred(a)
	case "-empty":
		return predFunc(emptyTest), nil
	case "-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		return p.timePred(t, a)
	case "-newer", "-anewer", "-cnewer":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		which := map[string]byte{"-newer": 'm', "-anewer": 'a', "-cnewer": 'c'}[t]
		return p.newerPred(t, which, 'm', a)
	case "-used":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		c, err := parseNum(t, a)
		if err != nil {
			return nil, err
		}
		return predFunc(func(f *finder, v *visit) bool {
			m := metaOf(v.fi)
			return c.match(int64(m.Atime.Sub(m.Ctime) / (24 * time.Hour)))
		}), nil
	case "-perm":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		return permPred(a)
	case "-user", "-group":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		return p.ownerPred(t, a)
	case "-uid", "-gid", "-links", "-inum":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		return numPred(t, a)
	case "-nouser", "-nogroup":
		return predFunc(func(f *finder, v *visit) bool {
			m := metaOf(v.fi)
			if t == "-nouser" {
				return !knownID(f.env.UserName(m.UID))
			}
			return !knownID(f.env.GroupName(m.GID))
		}), nil
	case "-samefile":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		abs := f.abs(a)
		ref, err := f.stat(abs, true)
		if err != nil {
			return nil, fmt.Errorf("%s: %s", fileutil.Quote(a), errText(err))
		}
		refCanon := canonical(f.env.FS, abs)
		return predFunc(func(f *finder, v *visit) bool {
			mi, mr := metaOf(v.fi), metaOf(ref)
			if mi.Ino != 0 && mr.Ino != 0 {
				return mi.Ino == mr.Ino
			}
			return canonical(f.env.FS, v.abs) == refCanon
		}), nil
	case "-readable", "-writable", "-executable":
		bit := map[string]uint32{"-readable": 4, "-writable": 2, "-executable": 1}[t]
		return predFunc(func(f *finder, v *visit) bool { return accessOK(f, v, bit) }), nil
	case "-fstype":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		return predFunc(func(*finder, *visit) bool { return a == "memfs" }), nil

	// Actions.
	case "-print":
		p.hasAction = true
		return &printPred{}, nil
	case "-print0":
		p.hasAction = true
		return &printPred{sep: 0, zero: true}, nil
	case "-printf":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		p.hasAction = true
		return p.printfPred(a, nil)
	case "-ls":
		p.hasAction = true
		return &lsPred{}, nil
	case "-fprint", "-fprint0", "-fls", "-fprintf":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		p.hasAction = true
		o, err := p.openOut(a)
		if err != nil {
			return nil, err
		}
		switch t {
		case "-fprint":
			return &printPred{w: o}, nil
		case "-fprint0":
			return &printPred{w: o, zero: true}, nil
		case "-fls":
			return &lsPred{w: o}, nil
		}
		fmtArg, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		return p.printfPred(fmtArg, o)
	case "-delete":
		p.hasAction = true
		f.depthFirst = true
		return predFunc(deleteAction), nil
	case "-prune":
		return predFunc(func(f *finder, v *visit) bool { v.prune = true; return true }), nil
	case "-quit":
		p.hasAction = true
		return predFunc(func(f *finder, v *visit) bool { f.quit = true; return true }), nil
	case "-exec", "-execdir", "-ok", "-okdir":
		p.hasAction = true
		return p.execPred(t)
	}
	if len(t) == 8 && strings.HasPrefix(t, "-newer") {
		x, y := t[6], t[7]
		if strings.IndexByte("acm", x) >= 0 && strings.IndexByte("acmt", y) >= 0 {
			a, err := p.arg(t)
			if err != nil {
				return nil, err
			}
			return p.newerPred(t, x, y, a)
		}
		if x == 'B' || y == 'B' {
			return nil, errors.New("This system does not provide a way to find the birth time of a file.")
		}
	}
	return nil, fmt.Errorf("unknown predicate `%s'", t)
}

// openOut creates the file of -fprint and friends at parse time, as GNU
// find does (even if nothing is ever printed to it).
func (p *parser) openOut(name string) (*outFile, error) {
	f := p.f
	abs := f.abs(name)
	fh, err := f.env.FS.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", fileutil.Quote(name), errText(err))
	}
	o := &outFile{f: fh, w: bufioWriter(fh)}
	f.files = append(f.files, o)
	return o, nil
}

func knownID(name string) bool {
	_, err := strconv.Atoi(name)
	return err != nil
}

// regexPred compiles -regex: it must match the whole path.
func (p *parser) regexPred(pat string, fold bool) (expr, error) {
	syn := regex.BRE
	switch p.regexType {
	case "posix-extended", "posix-egrep", "egrep":
		syn = regex.ERE
	case "posix-awk", "awk", "gnu-awk":
		syn = regex.AWK
	case "", "emacs", "findutils-default":
		pat = emacsToBRE(pat)
	}
	re, err := regex.Compile(pat, regex.Flags{Syntax: syn, IgnoreCase: fold})
	if err != nil {
		return nil, fmt.Errorf("Invalid regular expression %s: %v", fileutil.Quote(pat), err)
	}
	return predFunc(func(f *finder, v *visit) bool {
		loc := re.FindIndex([]byte(v.path))
		return loc != nil && loc[0] == 0 && loc[1] == len(v.path)
	}), nil
}

// emacsToBRE rewrites an Emacs regular expression (find's default) as a
// GNU BRE: in Emacs syntax '+' and '?' are operators and '\{' is not
// special.
func emacsToBRE(s string) string {
	var b strings.Builder
	inBracket := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inBracket:
			b.WriteByte(c)
			if c == ']' {
				inBracket = false
			}
		case c == '[':
			b.WriteByte(c)
			inBracket = true
			if i+1 < len(s) && s[i+1] == '^' {
				b.WriteByte('^')
				i++
			}
			if i+1 < len(s) && s[i+1] == ']' {
				b.WriteByte(']')
				i++
			}
		case c == '\\' && i+1 < len(s):
			n := s[i+1]
			i++
			switch n {
			case '{', '}':
				b.WriteByte(n)
			default:
				b.WriteByte('\\')
				b.WriteByte(n)
			}
		case c == '+' || c == '?':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// cmp is a GNU numeric argument: "+N" (more than), "-N" (less than) or
// "N" (exactly).
type cmp struct {
	op byte
	n  int64
}

func (c cmp) match(v int64) bool {
	switch c.op {
	case '+':
		return v > c.n
	case '-':
		return v < c.n
	}
	return v == c.n
}

func parseNum(opt, a string) (cmp, error) {
	c := cmp{op: '='}
	s := a
	if s != "" && (s[0] == '+' || s[0] == '-') {
		c.op, s = s[0], s[1:]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || s == "" || s[0] == '+' || s[0] == '-' {
		return c, fmt.Errorf("invalid argument `%s' to `%s'", a, opt)
	}
	c.n = n
	return c, nil
}

// Usage is find's --help text.
const Usage = `Usage: find [-H] [-L] [-P] [path...] [expression]

default path is the current directory; default expression is -print
expression may consist of: operators, options, tests, and actions:

operators (decreasing precedence; -and is implicit where no others are given):
      ( EXPR )   ! EXPR   -not EXPR   EXPR1 -a EXPR2   EXPR1 -and EXPR2
      EXPR1 -o EXPR2   EXPR1 -or EXPR2   EXPR1 , EXPR2

positional options (always true): -daystart -follow -regextype

normal options (always true, specified before other expressions):
      -depth -maxdepth LEVELS -mindepth LEVELS -mount -noleaf -xdev
      -ignore_readdir_race -noignore_readdir_race

tests (N can be +N or -N or N): -amin N -anewer FILE -atime N -cmin N
      -cnewer FILE -ctime N -empty -false -fstype TYPE -gid N -group NAME
      -ilname PATTERN -iname PATTERN -inum N -iwholename PATTERN -iregex PATTERN
      -links N -lname PATTERN -mmin N -mtime N -name PATTERN -newer FILE
      -nouser -nogroup -path PATTERN -perm [-/]MODE -regex PATTERN
      -readable -writable -executable
      -wholename PATTERN -size N[bcwkMG] -true -type [bcdpflsD] -uid N
      -used N -user NAME -xtype [bcdpfls]

actions: -delete -print0 -printf FORMAT -fprintf FILE FORMAT -print
      -fprint0 FILE -fprint FILE -ls -fls FILE -prune -quit
      -exec COMMAND ; -exec COMMAND {} + -ok COMMAND ;
      -execdir COMMAND ; -execdir COMMAND {} + -okdir COMMAND ;
`
