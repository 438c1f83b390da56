package cmd

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sandsh/sandsh/policy"
	"github.com/sandsh/sandsh/worker"
)

// Exit statuses of `sandsh policy test`: what the policy does with the
// command line (ExitConfig when the policy cannot be used). Without a
// command line it runs the files' inline tests: 0 when all pass, 1 when
// one fails.
const (
	PolicyTestAllow = 0
	PolicyTestDeny  = 1
	PolicyTestAsk   = 2
)

func newPolicyTestCmd(opts *Options) *cobra.Command {
	asJSON := false
	c := &cobra.Command{
		Use:   "test FILE... [-- COMMAND [ARGS...]]",
		Short: "Say which rule of the policy FILEs (layered) decides a command line, and why (status 0 allow, 1 deny, 2 ask); without a command line, run the files' inline tests",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			files, argv := args[:1], args[1:]
			if dash := c.ArgsLenAtDash(); dash >= 0 {
				files, argv = args[:dash], args[dash:]
				if len(files) == 0 || len(argv) == 0 {
					return worker.Usagef("policy test: want FILE... -- COMMAND [ARGS...]")
				}
			}
			opts.Policy, opts.PolicyData = files, nil
			if len(argv) == 0 {
				return statusErr(policyInlineTests(opts, asJSON))
			}
			return statusErr(policyTest(opts, argv, asJSON))
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the decisions as JSON")
	return c
}

// decisionJSON is one decision as `policy test --json` prints it.
type decisionJSON struct {
	Run     string        `json:"run,omitempty"`
	Argv    []string      `json:"argv"`
	Expect  string        `json:"expect,omitempty"`
	Pass    *bool         `json:"pass,omitempty"`
	Action  policy.Action `json:"action"`
	Rule    string        `json:"rule,omitempty"`
	At      string        `json:"at,omitempty"`
	Reason  string        `json:"reason,omitempty"`
	Pattern string        `json:"pattern,omitempty"`
	Builtin bool          `json:"builtin,omitempty"`
	Also    []ruleJSON    `json:"also,omitempty"`
}

type ruleJSON struct {
	Rule     string        `json:"rule"`
	At       string        `json:"at"`
	Priority int           `json:"priority"`
	Action   policy.Action `json:"action"`
}

// policyTest explains the decision on argv: the deciding rule (or the
// dangerous pattern, or the default) and the matching rules it overrode.
func policyTest(o *Options, argv []string, asJSON bool) int {
	w := o.IO.Out
	p, err := o.LoadPolicy()
	if err != nil {
		return worker.ReportSetupError(o.IO.Err, err)
	}
	line := strings.Join(argv, " ")
	d, named := p.DecideLine(argv)
	status := PolicyTestDeny
	switch {
	case !named || d.Action == policy.Allow || d.Action == policy.Jail:
		status = PolicyTestAllow
	case d.Action == policy.Ask:
		status = PolicyTestAsk
	}
	if asJSON {
		out := decisionJSON{Argv: argv, Action: d.Action, Rule: d.Rule, At: d.At, Reason: d.Reason, Pattern: d.Pattern, Builtin: !named}
		if !named {
			out.Action = policy.Allow
		}
		for _, r := range p.Matching(argv) {
			if r.Where() != d.At || d.Pattern != "" {
				out.Also = append(out.Also, ruleJSON{r.Label(), r.Where(), r.Priority, r.Action})
			}
		}
		writeJSON(w, out)
		return status
	}
	if !named {
		fmt.Fprintf(w, "allow: %s is a shell builtin and no rule names it (the default applies only to other commands)\n", argv[0])
		return PolicyTestAllow
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
	return status
}

// policyInlineTests runs the files' `tests:` and reports each, instead of
// refusing the load at the first failure as a run does.
func policyInlineTests(o *Options, asJSON bool) int {
	p, err := o.LoadPolicyUnchecked()
	if err != nil {
		return worker.ReportSetupError(o.IO.Err, err)
	}
	status := 0
	var out []decisionJSON
	for _, r := range p.RunTests() {
		pass := r.Pass()
		if !pass {
			status = 1
		}
		d := r.Decision
		if asJSON {
			out = append(out, decisionJSON{Run: r.Test.Run, Argv: mustWords(r.Test.Run), Expect: string(r.Test.Expect), Pass: &pass,
				Action: d.Action, Rule: d.Rule, At: d.At, Reason: d.Reason, Pattern: d.Pattern, Builtin: r.Builtin})
			continue
		}
		verdict := "ok"
		if !pass {
			verdict = "FAIL"
		}
		fmt.Fprintf(o.IO.Out, "%s: %s: expect %s, got %s by %s\n", verdict, r.Test.Run, r.Test.Expect, d.Action, r.Describe())
	}
	if asJSON {
		if out == nil {
			out = []decisionJSON{}
		}
		writeJSON(o.IO.Out, out)
	}
	return status
}

func mustWords(line string) []string {
	argv, _ := policy.Words(line) // checked when the file loaded
	return argv
}

func writeJSON(w interface{ Write([]byte) (int, error) }, v any) {
	b, _ := json.MarshalIndent(v, "", "  ")
	w.Write(append(b, '\n'))
}
