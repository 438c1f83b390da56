package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/policy"
	"github.com/sandsh/sandsh/worker"
)

// Exit statuses of `sandsh policy test`: what the policy does with the
// command line (ExitConfig when the policy cannot be used).
const (
	PolicyTestAllow = 0
	PolicyTestDeny  = 1
	PolicyTestAsk   = 2
)

func newPolicyTestCmd(opts *Options) *cobra.Command {
	return &cobra.Command{
		Use:   "test FILE... -- COMMAND [ARGS...]",
		Short: "Say which rule of the policy FILEs (layered) decides a command line, and why (status 0 allow, 1 deny, 2 ask)",
		Args:  cobra.MinimumNArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			files, argv := args[:1], args[1:]
			if dash := c.ArgsLenAtDash(); dash > 0 {
				files, argv = args[:dash], args[dash:]
			}
			if len(argv) == 0 {
				return worker.Usagef("policy test: no command line after --")
			}
			opts.Policy, opts.PolicyData = files, nil
			return statusErr(policyTest(opts, argv))
		},
	}
}

// policyTest explains the decision on argv: the deciding rule (or the
// dangerous pattern, or the default) and the matching rules it overrode.
func policyTest(o *Options, argv []string) int {
	w := o.IO.Out
	p, err := o.LoadPolicy()
	if err != nil {
		return worker.ReportSetupError(o.IO.Err, err)
	}
	line := strings.Join(argv, " ")
	var d policy.Decision
	if interp.IsBuiltin(argv[0]) {
		var ok bool
		if d, ok = p.DecideBuiltin(argv); !ok {
			fmt.Fprintf(w, "allow: %s is a shell builtin and no rule names it (the default applies only to other commands)\n", argv[0])
			return PolicyTestAllow
		}
	} else {
		d = p.Decide(argv)
	}
	why := d.String()
	for _, r := range p.Rules {
		if r.Where() == d.At && d.Pattern == "" {
			why = fmt.Sprintf("%s (%s, priority %d)", why, r.Where(), r.Priority)
			break
		}
	}
	fmt.Fprintf(w, "%s: %s\n  decided by %s\n", d.Action, line, why)
	for _, r := range p.Matching(argv) {
		if r.Where() != d.At || d.Pattern != "" {
			fmt.Fprintf(w, "  also matches rule %q (%s, priority %d, %s)\n", r.Label(), r.Where(), r.Priority, r.Action)
		}
	}
	switch d.Action {
	case policy.Allow, policy.Jail:
		return PolicyTestAllow
	case policy.Ask:
		return PolicyTestAsk
	}
	return PolicyTestDeny
}
