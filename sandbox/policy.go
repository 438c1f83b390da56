package sandbox

import (
	"context"
	"fmt"

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
	p   *policy.Policy
	ask Asker
	yes bool
}

// decide turns a decision into the gateway's answer.
func (e *enforcer) verdict(ctx context.Context, argv []string, d policy.Decision) (string, bool) {
	switch d.Action {
	case policy.Allow:
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
	return e.verdict(ctx, args, e.p.Decide(args))
}

func (e *enforcer) script(f *syntax.File) (string, bool) {
	fd := e.p.CheckScript(f)
	if fd == nil {
		return "", true
	}
	return fmt.Sprintf("%s:%d: denied by policy (dangerous pattern %q: %s: %s)", f.Name, fd.Pos.Line(), fd.Pattern.Name, fd.Pattern.Desc, fd.Command), false
}

func (e *enforcer) builtin(ctx context.Context, args []string) (string, bool) {
	d, ok := e.p.DecideBuiltin(args)
	if !ok {
		return "", true
	}
	return e.verdict(ctx, args, d)
}
