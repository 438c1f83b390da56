// Package check is sandsh's static check of a script: it walks the parsed
// script (mvdan's syntax AST) without running anything, lists every command
// the script can run, and reports, default-deny, what escapes review: a
// command name computed at run time, eval and source of computed text,
// nested shells, wrappers (env, xargs, find -exec, timeout, …), awk
// system(), sed's e command and traps whose text is computed, aliases,
// commands that are neither shell builtins nor in-process commands, and,
// with a policy, every command the policy denies or would ask for.
//
// Text that is literal (bash -c '…', eval '…', trap '…', alias x='…', awk
// system("…"), sed e …) is parsed and checked in turn, and findings in it
// point into the outer script.
package check

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/policy"
)

// Severity orders findings: an error escapes review or is refused, a
// warning needs a reviewer's look, info only describes.
type Severity int

// The severities, lowest first.
const (
	Info Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "info"
}

// ParseSeverity reads "error", "warning" or "info".
func ParseSeverity(s string) (Severity, error) {
	switch s {
	case "error":
		return Error, nil
	case "warning":
		return Warning, nil
	case "info":
		return Info, nil
	}
	return 0, fmt.Errorf("unknown severity %q (want error, warning or info)", s)
}

// Pos is a place in a script file, 1-based.
type Pos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// Finding is one thing the check reports.
type Finding struct {
	File     string
	Pos      Pos
	End      Pos
	Severity Severity
	Code     string // the rule, e.g. "dynamic-command"
	Message  string
}

// String is the finding as a linter line: file:line:col: severity: message [code].
func (f Finding) String() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s [%s]", f.File, f.Pos.Line, f.Pos.Column, f.Severity, f.Message, f.Code)
}

// Command is one entry of the inventory: a command the script can run.
type Command struct {
	Name  string
	Kind  string // function, builtin, in-process, shell, alias, file, unavailable
	Count int    // how many places run it
	First Pos    // where it is first run
}

// Result is what the check of one script found.
type Result struct {
	File     string
	Commands []*Command // in order of first appearance
	Findings []Finding  // in order of position
}

// Options configure a check.
type Options struct {
	// Policy, if set, is applied to every command line whose words are
	// known: its denials are errors, its asks warnings.
	Policy *policy.Policy
	// Config is the repository's configuration (.sandsh-check.yaml).
	Config *Config
}

// SyntaxError is a script that does not parse; the check reports it with
// exit status 2, like bash.
type SyntaxError struct {
	Finding Finding
}

func (e *SyntaxError) Error() string { return e.Finding.String() }

// maxDepth bounds text checked inside text (bash -c 'eval "…"' …): a
// script could nest quotes without end.
const maxDepth = 16

// MaxScript bounds the script text one check parses.
const MaxScript = 16 << 20

// Known reports how a command name would run in restricted mode, without
// a script's functions or aliases: "builtin", "in-process", "shell", or ""
// when nothing in sandsh would run it.
func Known(name string) string {
	if slices.Contains(shellBuiltins(), name) {
		return "builtin"
	}
	if name == "bash" || name == "sh" {
		return "shell"
	}
	if _, ok := registry().Lookup(name); ok {
		return "in-process"
	}
	return ""
}

// These are read-only once built, and built on first use: every sandsh
// process (the worker too) links this package, and most never check.
var (
	shellBuiltins = sync.OnceValue(interp.ShellBuiltinNames)
	registry      = sync.OnceValue(builtins.NewRegistry)
)

// Script checks one script's source text; file names it in findings. A
// syntax error is returned as a *SyntaxError.
func Script(ctx context.Context, file string, src []byte, opts Options) (*Result, error) {
	c := &checker{ctx: ctx, opts: opts, file: file, res: &Result{File: file},
		funcs: map[string]bool{}, aliases: map[string]bool{}, inv: map[string]*Command{}}
	if len(src) > MaxScript {
		return nil, fmt.Errorf("%s: script larger than %d bytes", file, MaxScript)
	}
	f, err := parse(ctx, src, file)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var pe syntax.ParseError
		fd := Finding{File: file, Pos: Pos{1, 1}, Severity: Error, Code: "syntax", Message: err.Error()}
		if errors.As(err, &pe) {
			fd.Pos = Pos{int(pe.Pos.Line()), int(pe.Pos.Col())}
			fd.Message = pe.Text
		}
		fd.End = fd.Pos
		return nil, &SyntaxError{fd}
	}
	c.walk(f, frame{})
	c.substitutions(f)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c.filter(c.suppressions(f, src))
	slices.SortStableFunc(c.res.Findings, func(a, b Finding) int {
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line - b.Pos.Line
		}
		return a.Pos.Column - b.Pos.Column
	})
	return c.res, nil
}

// parse parses with the runner's guards (interp.ParseScript), so text
// that sandsh run refuses as too deep is refused here in the same words,
// in bounded memory, instead of overflowing the parser's stack.
func parse(ctx context.Context, src []byte, name string) (*syntax.File, error) {
	return interp.ParseScript(ctx, src, name, syntax.KeepComments(true))
}

type checker struct {
	ctx     context.Context
	opts    Options
	file    string
	res     *Result
	funcs   map[string]bool
	aliases map[string]bool
	inv     map[string]*Command
	// dir is the working directory a literal cd last set, in the order
	// of the text ("" when unknown): rm -rf etc after cd / is the removal
	// of /etc.
	dir string
}

// frame maps positions of nested text (bash -c '…') back into the file:
// base is where the text starts; a zero base means the file itself. via
// names the route, for messages.
type frame struct {
	base  Pos
	depth int
	via   string
}

func (fr frame) pos(p syntax.Pos) Pos {
	l, col := int(p.Line()), int(p.Col())
	if fr.base.Line == 0 {
		return Pos{l, col}
	}
	if l == 1 {
		return Pos{fr.base.Line, fr.base.Column + col - 1}
	}
	return Pos{fr.base.Line + l - 1, col}
}

func (c *checker) add(fr frame, n syntax.Node, sev Severity, code, format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	if fr.via != "" {
		msg += " (in " + fr.via + ")"
	}
	c.res.Findings = append(c.res.Findings, Finding{File: c.file, Pos: fr.pos(n.Pos()), End: fr.pos(n.End()),
		Severity: sev, Code: code, Message: msg})
}

// walk checks every command of a parsed file. Functions are collected
// first: bash resolves a name when the command runs, and a function may
// be defined below its first caller's text.
func (c *checker) walk(f *syntax.File, fr frame) {
	syntax.Walk(f, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok && fd.Name != nil {
			c.funcs[fd.Name.Value] = true
		}
		return true
	})
	c.scriptShapes(f, fr)
	syntax.Walk(f, func(n syntax.Node) bool {
		if c.ctx.Err() != nil {
			return false
		}
		if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
			c.call(ce.Args, fr)
		}
		if cs, ok := n.(*syntax.CmdSubst); ok && cs.Deferred != "" {
			// Backquoted text that does not parse runs line by line
			// when the substitution runs, as in bash: what precedes
			// the error runs, unseen by this review.
			c.nested(cs.Deferred, cs, nil, fr, "backquoted text")
		}
		return true
	})
}

// nested parses and checks text that the script hands to a shell.
func (c *checker) nested(text string, at syntax.Node, w *syntax.Word, fr frame, via string) {
	if fr.depth >= maxDepth {
		c.add(fr, at, Error, "too-deep", "text nested more than %d levels deep is not checked", maxDepth)
		return
	}
	f, err := parse(c.ctx, []byte(text), via)
	inner := frame{base: textBase(w, fr), depth: fr.depth + 1, via: via}
	if err != nil {
		msg := err.Error()
		var pe syntax.ParseError
		if errors.As(err, &pe) {
			msg = pe.Text
		}
		c.add(fr, at, Error, "nested-syntax", "%s does not parse: %s", via, msg)
		return
	}
	c.walk(f, inner)
}

// textBase is where the text of literal word w starts in the file: after
// its opening quote when it is quoted.
func textBase(w *syntax.Word, fr frame) Pos {
	if w == nil || len(w.Parts) == 0 {
		return fr.base
	}
	p := fr.pos(w.Pos())
	switch q := w.Parts[0].(type) {
	case *syntax.SglQuoted:
		if q.Dollar {
			p.Column += 2
		} else {
			p.Column++
		}
	case *syntax.DblQuoted:
		p.Column++
	}
	if fr.base.Line == 0 && p.Line == 0 {
		return Pos{1, 1}
	}
	return p
}

// Literal returns the value of a word that has no expansion in it: bare
// text, '…', "…" without $ or `, and $'…' without escapes. Unquoted glob
// characters make a word computed too: the name depends on the files. A
// '[' that no ']' closes is not a glob in bash (the test command `[`).
func Literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for pi, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			v := p.Value
			for i := 0; i < len(v); i++ {
				switch v[i] {
				case '\\':
					if i+1 < len(v) {
						i++
						if v[i] != '\n' {
							b.WriteByte(v[i])
						}
					}
				case '[':
					if closes(v[i+1:], w.Parts[pi+1:]) {
						return "", false
					}
					b.WriteByte('[')
				case '*', '?':
					return "", false
				default:
					b.WriteByte(v[i])
				}
			}
		case *syntax.SglQuoted:
			if p.Dollar && strings.Contains(p.Value, `\`) {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, dp := range p.Parts {
				lit, ok := dp.(*syntax.Lit)
				if !ok {
					return "", false
				}
				v := lit.Value
				for i := 0; i < len(v); i++ {
					if v[i] == '\\' && i+1 < len(v) && strings.IndexByte("$`\"\\\n", v[i+1]) >= 0 {
						i++
						if v[i] == '\n' {
							continue
						}
					}
					b.WriteByte(v[i])
				}
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// closes reports whether a ']' follows an unquoted '[' in the rest of
// its word: only then is the '[' a bracket expression.
func closes(rest string, parts []syntax.WordPart) bool {
	if strings.Contains(rest, "]") {
		return true
	}
	for _, p := range parts {
		if l, ok := p.(*syntax.Lit); ok && strings.Contains(l.Value, "]") {
			return true
		}
	}
	return false
}

// wordText is a word's source form, for messages.
func wordText(w *syntax.Word) string {
	var b bytes.Buffer
	syntax.NewPrinter().Print(&b, w)
	s := b.String()
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// record adds a command to the inventory.
func (c *checker) record(name, kind string, w *syntax.Word, fr frame) {
	key := kind + "\x00" + name
	if e, ok := c.inv[key]; ok {
		e.Count++
		return
	}
	e := &Command{Name: name, Kind: kind, Count: 1, First: fr.pos(w.Pos())}
	c.inv[key] = e
	c.res.Commands = append(c.res.Commands, e)
}

// binDirs are where the gateway finds in-process commands by path.
var binDirs = []string{"/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin"}

// call checks one command line: args[0] is the command word. It follows
// wrappers (env, xargs, timeout, …) to the command they run.
func (c *checker) call(args []*syntax.Word, fr frame) {
	name, ok := Literal(args[0])
	if !ok {
		c.add(fr, args[0], Error, "dynamic-command", "the command name %s is computed at run time and cannot be checked", wordText(args[0]))
		return
	}
	kind := c.resolve(name)
	c.record(name, kind, args[0], fr)
	switch kind {
	case "function":
		return // its body is checked where it is defined
	case "alias":
		c.add(fr, args[0], Warning, "alias-call", "%s is an alias: what it runs is checked where it is defined", name)
		return
	case "file":
		c.add(fr, args[0], Warning, "script-file", "%s runs a file this check does not read", name)
	case "unavailable":
		c.add(fr, args[0], Warning, "unavailable", "%s is neither a shell builtin nor an in-process command: it is refused in restricted mode", name)
	}
	c.applyPolicy(name, kind, args, fr)
	if name == "cd" && kind == "builtin" {
		c.followCd(args)
	}
	base := path.Base(name)
	if kind == "builtin" {
		base = name
	}
	c.dispatch(base, args, fr)
}

// resolve says how name would run: the script's aliases and functions
// first, then what sandsh provides.
func (c *checker) resolve(name string) string {
	if c.aliases[name] {
		return "alias"
	}
	if c.funcs[name] {
		return "function"
	}
	if strings.Contains(name, "/") {
		if slices.Contains(binDirs, path.Dir(name)) {
			if k := Known(path.Base(name)); k == "in-process" || k == "shell" {
				return k
			}
			return "unavailable"
		}
		return "file"
	}
	if k := Known(name); k != "" {
		return k
	}
	return "unavailable"
}

// applyPolicy reports what the policy denies or would ask for, through
// the policy package's own matchers: Decide for commands, DecideBuiltin
// (only rules naming the builtin) for shell builtins. Computed argument
// words are shown to the matchers as their source text: the decision is
// on the line as written. Without a policy, a built-in dangerous pattern
// is still worth a reviewer's look: a warning.
func (c *checker) applyPolicy(name, kind string, args []*syntax.Word, fr frame) {
	argv := make([]string, len(args))
	for i, w := range args {
		if v, ok := Literal(w); ok {
			argv[i] = v
		} else {
			argv[i] = wordText(w)
		}
	}
	argv[0] = name
	p := c.opts.Policy
	if p == nil {
		if pat := policy.MatchArgvAt(c.dir, argv); pat != nil {
			c.add(fr, args[0], Warning, "dangerous:"+pat.Name, "%s: dangerous pattern %q: %s (refused under any policy that keeps it)", name, pat.Name, pat.Desc)
		}
		return
	}
	var d policy.Decision
	if kind == "builtin" {
		var named bool
		if d, named = p.DecideBuiltin(argv); !named {
			return
		}
	} else {
		d = p.DecideAt(c.dir, argv)
	}
	switch d.Action {
	case policy.Deny:
		code := "policy-deny"
		if d.Pattern != "" {
			code = "dangerous:" + d.Pattern
		}
		c.add(fr, args[0], Error, code, "%s: %s", name, d)
	case policy.Ask:
		c.add(fr, args[0], Warning, "policy-ask", "%s: %s", name, d)
	}
}

// followCd keeps the directory a literal cd moves to.
func (c *checker) followCd(args []*syntax.Word) {
	if len(args) < 2 {
		c.dir = ""
		return
	}
	v, ok := Literal(args[len(args)-1])
	switch {
	case !ok || strings.HasPrefix(v, "-") || strings.HasPrefix(v, "~"):
		c.dir = ""
	case strings.HasPrefix(v, "/"):
		c.dir = path.Clean(v)
	case c.dir != "":
		c.dir = path.Join(c.dir, v)
	}
}

// scriptShapes reports the dangerous shapes of a whole parsed text (fork
// bombs, downloads run by a shell, writes onto disk devices), found by
// the policy package.
func (c *checker) scriptShapes(f *syntax.File, fr frame) {
	for _, fd := range policy.ScriptFindings(f) {
		sev := Warning
		if c.opts.Policy != nil {
			if c.opts.Policy.Disabled(fd.Pattern.Name) {
				continue
			}
			sev = Error
		}
		n := &syntax.Lit{ValuePos: fd.Pos, ValueEnd: fd.Pos}
		c.add(fr, n, sev, "dangerous:"+fd.Pattern.Name, "dangerous pattern %q: %s: %s", fd.Pattern.Name, fd.Pattern.Desc, fd.Command)
	}
}
