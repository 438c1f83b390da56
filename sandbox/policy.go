package sandbox

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/internal/termsafe"
	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/policy"
	"github.com/sandsh/sandsh/vfs"
)

// Asker asks the operator whether a command a policy rule marks `ask` may
// run. It must not block when no one can answer: with no terminal it
// returns a refusal at once.
type Asker func(ctx context.Context, q AskQuestion) AskAnswer

// AskQuestion is what an ask puts to whoever answers it.
type AskQuestion struct {
	Command string   `json:"command"` // the command line, words joined by spaces
	Argv    []string `json:"argv"`
	Rule    string   `json:"rule"`
	Reason  string   `json:"reason,omitempty"`
	Cwd     string   `json:"cwd,omitempty"`
	Script  string   `json:"script,omitempty"`
	Line    int      `json:"line,omitempty"`
}

// AskAnswer is the answer: Allow, for the rest of the session too when
// Session (allow-session); By says who gave it (terminal, ask-command,
// timeout, …) and Answer what they said, for the audit log and the
// refusal.
type AskAnswer struct {
	Allow   bool
	Session bool
	By      string
	Answer  string
	// Why, for a refusal, says why in the refusal's message ("the
	// operator said no", "no answer within 30s").
	Why string
}

// enforcer applies a policy at the gateway and in the builtin dispatch.
type enforcer struct {
	p     *policy.Policy // nil: only auditing
	ask   Asker
	yes   bool
	audit *Audit
	net   *auditedNet // the run's audited network, tagged per command
	// abort ends the run (on_deny: exit).
	abort func(error)

	// running pairs a command's exit with its start in the audit log: the
	// gateway hands the check and the exit the same Env, one per command.
	mu      sync.Mutex
	running map[*builtins.Env]started
	nextCmd int64
	session map[string]bool // rules an allow-session answer allowed
}

// started is what the audit log said when a command started.
type started struct {
	id       int64
	decision policy.Decision
}

// begin numbers a command that starts.
func (e *enforcer) begin(env *builtins.Env, d policy.Decision) int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.nextCmd++
	if env != nil {
		if e.running == nil {
			e.running = map[*builtins.Env]started{}
		}
		e.running[env] = started{e.nextCmd, d}
	}
	return e.nextCmd
}

func (e *enforcer) end(env *builtins.Env) (started, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	st, ok := e.running[env]
	delete(e.running, env)
	return st, ok
}

// askAt is where a command runs, for the question about it.
type askAt struct {
	cwd, script string
	line        int
}

// verdict turns a decision into the gateway's answer.
func (e *enforcer) verdict(ctx context.Context, argv []string, d policy.Decision, at askAt) (string, bool) {
	switch d.Action {
	case policy.Allow, policy.Jail:
		return "", true
	case policy.Ask:
		if e.yes {
			return "", true
		}
		if e.ask != nil {
			return e.asked(ctx, argv, d, at)
		}
		return fmt.Sprintf("denied by policy (%s; ask needs a terminal or --ask-command, --yes allows)", d), false
	}
	return fmt.Sprintf("denied by policy (%s)", d), false
}

// asked puts the question to the asker (once per rule after an
// allow-session answer) and logs the question, the answer and who gave
// it.
func (e *enforcer) asked(ctx context.Context, argv []string, d policy.Decision, at askAt) (string, bool) {
	cwd := at.cwd
	e.mu.Lock()
	session := e.session[d.Rule]
	e.mu.Unlock()
	q := AskQuestion{Command: strings.Join(argv, " "), Argv: argv, Rule: d.Rule, Reason: d.Reason, Cwd: cwd,
		Script: at.script, Line: at.line}
	var a AskAnswer
	if session {
		a = AskAnswer{Allow: true, Session: true, By: "session", Answer: "allow-session"}
	} else {
		a = e.ask(ctx, q)
		if a.Allow && a.Session {
			e.mu.Lock()
			if e.session == nil {
				e.session = map[string]bool{}
			}
			e.session[d.Rule] = true
			e.mu.Unlock()
		}
	}
	if e.audit != nil {
		f := map[string]any{"name": argv[0], "rule": d.Rule, "answer": a.Answer, "by": a.By}
		e.audit.ArgvFields(argv, f)
		if d.Reason != "" {
			f["reason"] = d.Reason
		}
		if cwd != "" {
			f["cwd"] = cwd
		}
		if at.script != "" {
			f["script"] = at.script
		}
		if at.line > 0 {
			f["line"] = at.line
		}
		e.audit.Emit("ask", f)
	}
	if a.Allow {
		return "", true
	}
	why := a.Why
	if why == "" {
		why = "the operator said no"
	}
	return fmt.Sprintf("denied by policy (%s; %s)", d, why), false
}

func (e *enforcer) gateway(ctx context.Context, env *builtins.Env, args []string) (string, bool) {
	rt := route{how: env.Route, via: env.Via, kind: "external"}
	d := policy.Decision{Action: policy.Allow, Rule: "no policy"}
	why, ok := "", true
	if e.p != nil {
		d = e.p.DecideAt(env.Dir, args)
		why, ok = e.verdict(ctx, args, d, askAt{env.Dir, env.Script, env.Line})
	}
	if ok && e.audit != nil {
		rt.id = e.begin(env, d)
	}
	if seq := e.record(args, rt, d, ok, why); seq != 0 && ok {
		// The command's file and net events name its command_start.
		// The gateway hands the check the Env the command runs with,
		// one per command.
		env.FS = vfs.Attribute(env.FS, seq)
		if e.net != nil {
			env.Net = e.net.forCmd(seq)
		}
	}
	e.refused(ok)
	return why, ok
}

// refused ends the run after a refusal when the policy says on_deny:
// exit: the refusal's own line is the one line the run ends with.
func (e *enforcer) refused(ok bool) {
	if !ok && e.p != nil && e.p.ExitOnDeny() && e.abort != nil {
		e.abort(&DeniedExit{})
	}
}

// DeniedExit is how a run ends at its first refusal under a policy's
// on_deny: exit (status 126, ExitDenied).
type DeniedExit struct{}

func (*DeniedExit) Error() string { return "denied by policy (on_deny: exit)" }

// route is how a command was reached, for the audit log.
type route struct {
	how  string   // name, path, command, exec, builtin, env, xargs, …
	via  []string // the commands it runs inside, outermost first
	kind string   // external (through the gateway) or builtin
	id   int64    // pairs command_start and command_exit; 0 for a denial
}

func (e *enforcer) fields(args []string, rt route) map[string]any {
	f := map[string]any{"name": args[0], "kind": rt.kind}
	e.audit.ArgvFields(args, f)
	if rt.how != "" {
		f["route"] = rt.how
	}
	// Always an array, [] when the shell ran it directly: a consumer
	// reads one type.
	f["via"] = append([]string{}, rt.via...)
	if rt.id != 0 {
		f["cmd"] = rt.id
	}
	return f
}

// record writes the decision to the audit log: a command_start for what
// runs, a denied event for what does not. It returns the event's seq (0
// without a log).
func (e *enforcer) record(args []string, rt route, d policy.Decision, ok bool, why string) int64 {
	if e.audit == nil {
		return 0
	}
	f := e.fields(args, rt)
	f["decision"], f["rule"] = string(d.Action), d.Rule
	if d.Pattern != "" {
		f["pattern"] = d.Pattern
	}
	if !ok {
		f["message"] = why
		return e.audit.Emit("denied", f)
	}
	return e.audit.Emit("command_start", f)
}

func (e *enforcer) exited(env *builtins.Env, args []string, status int, took time.Duration) {
	rt := route{how: env.Route, via: env.Via, kind: "external"}
	st, _ := e.end(env)
	rt.id = st.id
	e.exit(args, rt, st.decision, status, took)
}

func (e *enforcer) exit(args []string, rt route, d policy.Decision, status int, took time.Duration) {
	f := e.fields(args, rt)
	f["status"], f["duration_ms"] = status, float64(took.Microseconds())/1000
	if d.Rule != "" {
		f["decision"], f["rule"] = string(d.Action), d.Rule
	}
	e.audit.Emit("command_exit", f)
}

func (e *enforcer) script(f *syntax.File) (string, bool) {
	fd := e.p.CheckScript(f)
	if fd == nil {
		return "", true
	}
	why := termsafe.String(fmt.Sprintf("%s:%d: denied by policy (dangerous pattern %q: %s: %s)", f.Name, fd.Pos.Line(), fd.Pattern.Name, fd.Pattern.Desc, fd.Command))
	e.audit.Emit("denied", map[string]any{"script": f.Name, "line": fd.Pos.Line(), "decision": "deny",
		"rule": "dangerous:" + fd.Pattern.Name, "pattern": fd.Pattern.Name, "message": why})
	return why, false
}

// builtin decides on a shell builtin that a rule names (the default does
// not apply to builtins); one that runs is logged like a command, with
// its exit.
func (e *enforcer) builtin(ctx context.Context, call interp.BuiltinCall) (string, bool, func(int)) {
	d, named := e.p.DecideBuiltin(call.Args)
	if !named {
		return "", true, nil
	}
	why, ok := e.verdict(ctx, call.Args, d, askAt{"", call.Script, call.Line})
	rt := route{how: call.Route, via: call.Via, kind: "builtin"}
	if ok && e.audit != nil {
		rt.id = e.begin(nil, d)
	}
	e.record(call.Args, rt, d, ok, why)
	e.refused(ok)
	if !ok || e.audit == nil {
		return why, ok, nil
	}
	start := time.Now()
	return why, ok, func(status int) { e.exit(call.Args, rt, d, status, time.Since(start)) }
}
