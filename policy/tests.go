package policy

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/sandsh/sandsh/interp"
)

// Test is one inline test of a policy file (`tests:`): a command line
// and the action the policy must take on it. Every load runs them, so a
// policy edit that changes a decision its author pinned does not load.
type Test struct {
	Run    string `yaml:"run" json:"run"`
	Expect Action `yaml:"expect" json:"expect"`
	Line   int    `yaml:"-" json:"line,omitempty"`

	argv []string
}

// TestResult is one inline test's outcome.
type TestResult struct {
	Test     *Test
	Decision Decision
	Builtin  bool // a shell builtin no rule names: it runs, whatever the default
}

// Pass reports whether the policy took the expected action (jail counts
// as allow: both let the command run).
func (r TestResult) Pass() bool {
	got := r.Decision.Action
	if got == Jail {
		got = Allow
	}
	return got == r.Test.Expect
}

// Describe says what decided, for messages: `rule "no-sed" (p.yaml:4)`.
func (r TestResult) Describe() string {
	switch {
	case r.Builtin:
		return "no rule (a shell builtin no rule names runs)"
	case r.Decision.Pattern != "" || r.Decision.At == "":
		return r.Decision.String()
	}
	return fmt.Sprintf("%s (%s)", r.Decision.String(), r.Decision.At)
}

// Words splits an inline test's command line like the shell would, for
// literal words only: quotes and escapes are removed; an expansion,
// redirection or second command is refused (a test names one command
// line the policy sees).
func Words(line string) ([]string, error) {
	f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
	if err != nil {
		return nil, fmt.Errorf("%v", err)
	}
	if len(f.Stmts) != 1 {
		return nil, fmt.Errorf("want one command line")
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(st.Redirs) > 0 || st.Background || st.Negated || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return nil, fmt.Errorf("want one simple command, without redirections or assignments")
	}
	var argv []string
	for _, w := range call.Args {
		s, ok := literal(w)
		if !ok {
			return nil, fmt.Errorf("%q: want literal words (no expansions)", printNode(w))
		}
		argv = append(argv, s)
	}
	return argv, nil
}

// literal is a word's value when it has no expansion.
func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			for i := 0; i < len(v); i++ {
				if v[i] == '\\' && i+1 < len(v) {
					i++
				}
				b.WriteByte(v[i])
			}
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// DecideLine decides a command line as the sandbox would: a shell builtin
// only by the rules that name it, anything else by Decide. named is false
// for a builtin no rule names (it runs).
func (p *Policy) DecideLine(argv []string) (d Decision, named bool) {
	if interp.IsBuiltin(argv[0]) {
		return p.DecideBuiltin(argv)
	}
	return p.Decide(argv), true
}

// RunTests runs the policy's inline tests (of every layer).
func (p *Policy) RunTests() []TestResult {
	var out []TestResult
	for _, l := range p.Layers() {
		for _, t := range l.Tests {
			d, named := l.DecideLine(t.argv)
			if !named {
				d = Decision{Action: Allow}
			}
			out = append(out, TestResult{Test: t, Decision: d, Builtin: !named})
		}
	}
	return out
}

// checkTests fails the load at the first inline test the policy does not
// pass.
func (p *Policy) checkTests() error {
	for _, r := range p.RunTests() {
		if !r.Pass() {
			return &Error{File: p.File, Line: r.Test.Line, Msg: fmt.Sprintf("test %q: expected %s, got %s by %s",
				r.Test.Run, r.Test.Expect, r.Decision.Action, r.Describe())}
		}
	}
	return nil
}
