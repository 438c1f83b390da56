package policy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/sandsh/sandsh/builtins"
)

// Error is a policy that cannot be used: "file:line: message". Line is 0
// when the problem is not at one place (an empty file).
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// MaxSize bounds a policy file; an operator's policy is a page, not a
// megabyte, and the parser must not be handed unbounded input.
const MaxSize = 1 << 20

// maxRules bounds the rules of one policy: every command is checked
// against each.
const maxRules = 10000

// yamlLine pulls "line N: msg" out of the YAML library's messages
// (compiled on the first error, not at the start of every process).
var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line (\d+): (.*)`) })

// Parse parses and validates a policy file's bytes; file names it in
// errors. Unknown keys, wrong types, invalid patterns and unknown actions
// or dangerous-pattern names are all errors, and so is an inline test
// (`tests:`) the policy fails: a policy is used whole or not at all.
func Parse(file string, data []byte) (*Policy, error) {
	p, err := ParseUnchecked(file, data)
	if err != nil {
		return nil, err
	}
	if err := p.checkTests(); err != nil {
		return nil, err
	}
	return p, nil
}

// ParseUnchecked is Parse without running the inline tests, for a tool
// that reports on them (`sandsh policy test`).
func ParseUnchecked(file string, data []byte) (*Policy, error) {
	if len(data) > MaxSize {
		return nil, &Error{File: file, Msg: fmt.Sprintf("policy file larger than %d bytes", MaxSize)}
	}
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &Error{File: file, Msg: "empty policy file (want at least `default: deny`)"}
		}
		return nil, yamlErr(file, err)
	}
	var p Policy
	strict := yaml.NewDecoder(bytes.NewReader(data))
	strict.KnownFields(true)
	if err := strict.Decode(&p); err != nil {
		return nil, yamlErr(file, err)
	}
	p.File, p.Digest = file, digest(data)
	doc := &root
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		doc = doc.Content[0]
	}
	if doc.Kind != yaml.MappingNode {
		return nil, &Error{File: file, Line: doc.Line, Msg: "a policy is a mapping of keys (default, rules, …)"}
	}
	at := func(n *yaml.Node, key string) int { // line of key in mapping n
		if n != nil && n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == key {
					return n.Content[i+1].Line
				}
			}
			return n.Line
		}
		return 0
	}
	child := func(n *yaml.Node, key string) *yaml.Node {
		if n != nil && n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == key {
					return n.Content[i+1]
				}
			}
		}
		return nil
	}
	fail := func(line int, format string, a ...any) error {
		return &Error{File: file, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	switch p.Default {
	case "":
		p.Default = Deny
	case Allow, Deny, Ask:
	default:
		return nil, fail(at(doc, "default"), "default: %q: want allow, deny or ask", p.Default)
	}
	switch p.OnDeny {
	case "", "continue", "exit":
	default:
		return nil, fail(at(doc, "on_deny"), "on_deny: %q: want continue or exit", p.OnDeny)
	}
	if len(p.Rules) > maxRules {
		return nil, fail(at(doc, "rules"), "more than %d rules", maxRules)
	}
	rulesNode := child(doc, "rules")
	// The option tables (built once per load, not for every policy):
	// for options: rules, and for a rule whose name covers egrep or
	// fgrep, which reads grep's options (egrep is grep -E).
	for _, r := range p.Rules {
		if r == nil {
			continue
		}
		g, err := Glob(r.Command)
		if len(r.Options) > 0 || err == nil && (g.MatchString("egrep") || g.MatchString("fgrep")) {
			p.tables = builtins.OptionTables()
			break
		}
	}
	for i, r := range p.Rules {
		if r == nil {
			return nil, fail(at(doc, "rules"), "rule %d is empty", i+1)
		}
		var rn *yaml.Node
		if rulesNode != nil && i < len(rulesNode.Content) {
			rn = rulesNode.Content[i]
			r.Line = rn.Line
		}
		r.File = file
		what := fmt.Sprintf("rule %d", i+1)
		if r.Name != "" {
			what = fmt.Sprintf("rule %q", r.Name)
		}
		if r.Command == "" {
			return nil, fail(r.Line, "%s: command: missing (a name or a glob over names)", what)
		}
		var err error
		if r.cmd, err = Glob(r.Command); err != nil {
			return nil, fail(at(rn, "command"), "%s: command: %v", what, err)
		}
		switch r.Action {
		case Allow, Deny, Ask, Jail:
		case "":
			return nil, fail(r.Line, "%s: action: missing (allow, deny, ask or jail)", what)
		default:
			return nil, fail(at(rn, "action"), "%s: action: %q: want allow, deny, ask or jail", what, r.Action)
		}
		if r.Args != "" && r.ArgsRegex != "" {
			return nil, fail(at(rn, "args_regex"), "%s: give args or args_regex, not both", what)
		}
		if r.Args != "" {
			if r.args, err = Glob(r.Args); err != nil {
				return nil, fail(at(rn, "args"), "%s: args: %v", what, err)
			}
		}
		if r.ArgsRegex != "" {
			if r.args, err = regexp.Compile(r.ArgsRegex); err != nil {
				return nil, fail(at(rn, "args_regex"), "%s: args_regex: %v", what, err)
			}
		}
		r.tables = p.tables
		if r.Options != nil {
			on := child(rn, "options")
			if len(r.Options) == 0 {
				return nil, fail(at(rn, "options"), "%s: options: empty list (remove the key, or name an option)", what)
			}
			if i, err := r.checkOptions(p.tables); err != nil {
				line := at(rn, "options")
				if on != nil && on.Kind == yaml.SequenceNode && i < len(on.Content) {
					line = on.Content[i].Line
				}
				return nil, fail(line, "%v", err)
			}
		}
	}
	p.disabled = map[string]bool{}
	dn := child(child(doc, "dangerous"), "disable")
	for i, name := range p.Dangerous.Disable {
		if PatternByName(name) == nil {
			line := at(doc, "dangerous")
			if dn != nil && i < len(dn.Content) {
				line = dn.Content[i].Line
			}
			return nil, fail(line, "dangerous: disable: unknown pattern %q (known: %s)", name, strings.Join(PatternNames(), ", "))
		}
		p.disabled[name] = true
	}
	pn := child(doc, "paths")
	for _, l := range []struct {
		key  string
		dirs *[]string
	}{{"read", &p.Paths.Read}, {"write", &p.Paths.Write}} {
		if *l.dirs == nil {
			continue
		}
		if len(*l.dirs) == 0 {
			// An empty list would silently mean "nowhere"; absent means
			// "everywhere". Make the operator say which.
			return nil, fail(at(pn, l.key), "paths: %s: empty list (remove the key to allow everywhere, or name a directory)", l.key)
		}
		ln := child(pn, l.key)
		for i, d := range *l.dirs {
			if !strings.HasPrefix(d, "/") || strings.ContainsRune(d, 0) {
				line := at(pn, l.key)
				if ln != nil && i < len(ln.Content) {
					line = ln.Content[i].Line
				}
				return nil, fail(line, "paths: %s: %q: want an absolute directory inside the sandbox", l.key, d)
			}
			(*l.dirs)[i] = path.Clean(d)
		}
	}
	if err := p.Limits.validate(func(key string) int { return at(child(doc, "limits"), key) }, fail); err != nil {
		return nil, err
	}
	nn := child(doc, "network")
	if err := p.Network.validate(func(key string) int { return at(nn, key) }, func(key string, i int) int {
		if an := child(nn, key); an != nil && i < len(an.Content) {
			return an.Content[i].Line
		}
		return at(nn, key)
	}, fail); err != nil {
		return nil, err
	}
	tn := child(doc, "tests")
	for i, t := range p.Tests {
		line := at(doc, "tests")
		if tn != nil && i < len(tn.Content) {
			line = tn.Content[i].Line
		}
		if t == nil || t.Run == "" {
			return nil, fail(line, "tests: test %d: run: missing (a command line)", i+1)
		}
		t.Line = line
		switch t.Expect {
		case Allow, Deny, Ask:
		default:
			return nil, fail(line, "tests: %q: expect: %q: want allow, deny or ask", t.Run, t.Expect)
		}
		argv, err := Words(t.Run)
		if err != nil {
			return nil, fail(line, "tests: %q: %v", t.Run, err)
		}
		t.argv = argv
	}
	return &p, nil
}

func yamlErr(file string, err error) error {
	var te *yaml.TypeError
	msg := err.Error()
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	if m := yamlLine().FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		text := m[2]
		// The library names Go types; the operator wrote YAML keys.
		text = strings.Replace(text, "field ", "unknown key ", 1)
		text = regexp.MustCompile(` in type [\w.*\[\]]+`).ReplaceAllString(text, "")
		text = strings.Replace(text, "not found", "", 1)
		return &Error{File: file, Line: n, Msg: strings.TrimSpace(text)}
	}
	return &Error{File: file, Msg: msg}
}

// validate checks the limits' values: non-negative, sizes and durations
// that parse.
func (l *Limits) validate(line func(string) int, fail func(int, string, ...any) error) error {
	for _, s := range []struct {
		key string
		v   *string
	}{{"max-output", l.MaxOutput}, {"max-fs-bytes", l.MaxFSBytes}, {"max-file-size", l.MaxFileSize},
		{"max-memory", l.MaxMemory}, {"max-var-bytes", l.MaxVarBytes}, {"max-capture", l.MaxCapture}, {"max-script-bytes", l.MaxScript}} {
		if s.v == nil {
			continue
		}
		if _, err := ParseSize(*s.v); err != nil {
			return fail(line(s.key), "limits: %s: %v", s.key, err)
		}
	}
	if l.Timeout != nil {
		d, err := ParseDuration(*l.Timeout)
		if err != nil || d < 0 {
			return fail(line("timeout"), "limits: timeout: %q: want a duration like 30s or 5m", *l.Timeout)
		}
	}
	for _, n := range []struct {
		key string
		v   int64
		set bool
	}{{"max-commands", deref(l.MaxCommands), l.MaxCommands != nil}, {"max-loop-iterations", deref(l.MaxLoopIters), l.MaxLoopIters != nil},
		{"max-call-depth", int64(deref(l.MaxCallDepth)), l.MaxCallDepth != nil}, {"max-files", int64(deref(l.MaxFiles)), l.MaxFiles != nil},
		{"max-jobs", int64(deref(l.MaxJobs)), l.MaxJobs != nil}, {"max-fields", int64(deref(l.MaxFields)), l.MaxFields != nil}} {
		if n.set && n.v < 0 {
			return fail(line(n.key), "limits: %s: must not be negative", n.key)
		}
	}
	return nil
}

func deref[T int | int64](p *T) T {
	if p == nil {
		return 0
	}
	return *p
}

// ParseDuration parses a time limit the way the sandsh flags spell it:
// a bare number is seconds, as timeout(1) reads it ("5", "0.5"),
// anything else a Go duration ("30s", "5m", "1h30m").
func ParseDuration(s string) (time.Duration, error) {
	if f, err := strconv.ParseFloat(s, 64); err == nil && s != "" && (s[0] >= '0' && s[0] <= '9' || s[0] == '.') {
		if f > float64(math.MaxInt64)/float64(time.Second) {
			return 0, fmt.Errorf("%q: too long", s)
		}
		return time.Duration(f * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q: want seconds or a duration like 30s or 5m", s)
	}
	return d, nil
}

// ParseSize parses a size the way the sandsh flags spell it: "64MiB",
// "1GiB", "512k", "1000".
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(strings.ToLower(s))
	mult := int64(1)
	for _, suf := range []struct {
		s string
		m int64
	}{{"gib", 1 << 30}, {"mib", 1 << 20}, {"kib", 1 << 10}, {"gb", 1e9}, {"mb", 1e6}, {"kb", 1e3}, {"g", 1 << 30}, {"m", 1 << 20}, {"k", 1 << 10}, {"b", 1}} {
		if strings.HasSuffix(t, suf.s) {
			t, mult = strings.TrimSuffix(t, suf.s), suf.m
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("invalid size %q", s)
	}
	return n * mult, nil
}
