package interp

import (
	"context"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/sandsh/sandsh/interp/internal/expand"
	"github.com/sandsh/sandsh/interp/internal/parseguard"
)

// trace prints a command for set -x, prefixed by PS4.
func (r *Runner) trace(ctx context.Context, fields ...string) {
	if !r.opts.xtrace {
		return
	}
	quoted := make([]string, len(fields))
	for i, f := range fields {
		quoted[i] = traceQuote(f)
	}
	r.traceLine(ctx, strings.Join(quoted, " "))
}

// traceLine prints text after the expanded PS4 prompt.
func (r *Runner) traceLine(ctx context.Context, text string) {
	ps4 := r.getVar("PS4").String()
	if strings.ContainsAny(ps4, "$`") {
		// Numbered from the traced command's line: the expander reads
		// $LINENO from the position of the expansion.
		if p, err := syntax.NewParser(syntax.StartLine(max(r.line, 1))).Document(parseguard.String(ctx, ps4)); err == nil {
			r.opts.xtrace = false
			if s, err := r.document(ctx, p); err == nil {
				ps4 = s
			}
			r.opts.xtrace = true
		}
	}
	var sb strings.Builder
	if ps4 != "" {
		// Subshell levels repeat the first character, like bash.
		for range r.subshellLevel {
			sb.WriteByte(ps4[0])
		}
		sb.WriteString(ps4)
	}
	sb.WriteString(text)
	sb.WriteByte('\n')
	r.fds.writer(2).Write([]byte(sb.String()))
}

// traceAssigns prints prefix assignments for set -x.
func (r *Runner) traceAssigns(ctx context.Context, assigns []*syntax.Assign) {
	if !r.opts.xtrace {
		return
	}
	for _, as := range assigns {
		if as.Array != nil {
			r.traceLine(ctx, r.printNode(as))
			continue
		}
		val := r.getVar(as.Name.Value).String()
		op := "="
		if as.Append {
			op = "+="
		}
		r.traceLine(ctx, as.Name.Value+op+traceQuote(val))
	}
}

// traceQuote quotes a word the way bash's xtrace does.
func traceQuote(s string) string {
	if s == "" {
		return "''"
	}
	plain := true
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./:=+,%@^", c)) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	if expand.NeedsANSIC(s) {
		return ansiCQuote(s)
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
