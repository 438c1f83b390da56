package sandbox

import (
	"context"
	"fmt"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/policy"
)

// Asker asks the operator whether a command a policy rule marks `ask` may
// run. It must not block when no one can answer: with no terminal it
// returns false at once.
type Asker func(ctx context.Context, argv []string, d policy.Decision) bool

// enforcer applies a policy at the gateway and in the builtin dispatch.
type enforcer struct {
	p     *policy.Policy // nil: only auditing
	ask   Asker
	yes   bool
	audit *Audit
}

// decide turns a decision into the gateway's answer.
func (e *enforcer) verdict(ctx context.Context, argv []string, d policy.Decision) (string, bool) {
	switch d.Action {
	case policy.Allow, policy.Jail:
		return "", true
	case policy.Ask:
		if e.yes {
			return "", true
		}
		if e.ask != nil {
			if e.ask(ctx, argv, d) {
				return "", true
			}
			return fmt.Sprintf("denied by policy (%s; the operator said no)", d), false
		}
		return fmt.Sprintf("denied by policy (%s; ask needs a terminal, --yes allows)", d), false
	}
	return fmt.Sprintf("denied by policy (%s)", d), false
}

func (e *enforcer) gateway(ctx context.Context, _ *builtins.Env, args []string) (string, bool) {
	if e.p == nil {
		e.audit.Emit("command_start", map[string]any{"name": args[0], "argv": e.audit.Argv(args), "decision": "allow", "rule": "no policy"})
		return "", true
	}
	d := e.p.Decide(args)
	why, ok := e.verdict(ctx, args, d)
	e.record(args, d, ok, why)
	return why, ok
}

// record writes the decision to the audit log: a command_start for what
// runs, a denied event for what does not.
func (e *enforcer) record(args []string, d policy.Decision, ok bool, why string) {
	if e.audit == nil {
		return
	}
	f := map[string]any{"name": args[0], "argv": e.audit.Argv(args), "decision": string(d.Action), "rule": d.Rule}
	if d.Pattern != "" {
		f["pattern"] = d.Pattern
	}
	if !ok {
		f["message"] = why
		e.audit.Emit("denied", f)
		return
	}
	e.audit.Emit("command_start", f)
}

func (e *enforcer) exited(args []string, status int, took time.Duration) {
	e.audit.Emit("command_exit", map[string]any{"name": args[0], "argv": e.audit.Argv(args), "status": status,
		"duration_ms": float64(took.Microseconds()) / 1000})
}

func (e *enforcer) script(f *syntax.File) (string, bool) {
	fd := e.p.CheckScript(f)
	if fd == nil {
		return "", true
	}
	why := fmt.Sprintf("%s:%d: denied by policy (dangerous pattern %q: %s: %s)", f.Name, fd.Pos.Line(), fd.Pattern.Name, fd.Pattern.Desc, fd.Command)
	e.audit.Emit("denied", map[string]any{"script": f.Name, "line": fd.Pos.Line(), "decision": "deny",
		"rule": "dangerous:" + fd.Pattern.Name, "pattern": fd.Pattern.Name, "message": why})
	return why, false
}

func (e *enforcer) builtin(ctx context.Context, args []string) (string, bool) {
	d, ok := e.p.DecideBuiltin(args)
	if !ok {
		return "", true
	}
	why, ok := e.verdict(ctx, args, d)
	if !ok {
		e.record(args, d, ok, why)
	}
	return why, ok
}
