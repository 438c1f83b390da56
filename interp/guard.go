package interp

import (
	"mvdan.cc/sh/v3/syntax"

	"github.com/sandsh/sandsh/interp/internal/parseguard"
)

// ParseText parses script text the way the runner parses eval text, for
// callers that parse on their own (the REPL): text that would nest the
// parser (or code walking the tree) too deeply for the Go stack is an
// error, not a crash. Errors of incomplete text still satisfy
// syntax.IsIncomplete.
func ParseText(src, name string) (*syntax.File, error) {
	if err := checkNesting([]byte(src)); err != nil {
		return nil, err
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(parseguard.String(nil, src), name)
	if err == nil {
		err = parseguard.Check(f, len(src))
	}
	return f, err
}

// ParseLine is ParseText for a line the runner is about to run (the
// interactive shell's): it is parsed with the shell options in force now,
// extglob and the aliases defined so far, as bash parses each line it
// reads.
func (r *Runner) ParseLine(src string) (*syntax.File, error) {
	if err := checkNesting([]byte(src)); err != nil {
		return nil, err
	}
	f, err := r.newParser(1).Parse(parseguard.String(nil, src), "")
	if err == nil {
		err = parseguard.Check(f, len(src))
	}
	return f, err
}
