package cmd

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sandsh/sandsh/policy"
	"github.com/sandsh/sandsh/worker"
)

func newPolicyShowCmd(opts *Options) *cobra.Command {
	return &cobra.Command{
		Use:   "show [--policy FILE] [run flags]",
		Short: "Print the effective policy: the file, the flags over it, and the defaults",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			markChanged(c, opts)
			return statusErr(policyShow(opts))
		},
	}
}

// policyShow prints the effective policy as YAML that loads again, with
// comments saying where each value comes from.
func policyShow(o *Options) int {
	w := o.IO.Out
	p, err := o.LoadPolicy()
	if err != nil {
		return worker.ReportSetupError(o.IO.Err, err)
	}
	if p == nil {
		fmt.Fprintln(w, "# no policy: every command may run (restricted mode still applies); no dangerous-pattern checks")
	} else {
		for _, l := range p.Layers() {
			fmt.Fprintf(w, "# policy %s (%s)\n", l.File, l.Digest)
		}
		if len(p.Layers()) > 1 {
			fmt.Fprintln(w, "# layered: every file decides, the strictest decision wins (deny, ask, allow); limits the smallest; paths and network the intersection")
		}
		if o.Yes {
			fmt.Fprintln(w, "# ask: allowed without asking (--yes)")
		} else {
			fmt.Fprintln(w, "# ask: asked on the interactive shell's terminal; denied anywhere else (--yes allows)")
		}
		fmt.Fprintf(w, "default: %s\n", p.Default)
		if p.ExitOnDeny() {
			fmt.Fprintln(w, "on_deny: exit # the first refusal ends the run with 126")
		}
		if len(p.Rules) > 0 {
			fmt.Fprintln(w, "rules:")
		}
		for _, r := range p.Rules {
			if r.Name != "" {
				fmt.Fprintf(w, "  - name: %s # %s\n    command: %s\n", yq(r.Name), r.Where(), yq(r.Command))
			} else {
				fmt.Fprintf(w, "  - command: %s # %s\n", yq(r.Command), r.Where())
			}
			if r.Args != "" {
				fmt.Fprintf(w, "    args: %s\n", yq(r.Args))
			}
			if r.ArgsRegex != "" {
				fmt.Fprintf(w, "    args_regex: %s\n", yq(r.ArgsRegex))
			}
			if len(r.Options) > 0 {
				q := make([]string, len(r.Options))
				for i, o := range r.Options {
					q[i] = yq(o)
				}
				fmt.Fprintf(w, "    options: [%s]\n", strings.Join(q, ", "))
			}
			fmt.Fprintf(w, "    action: %s\n    priority: %d\n", r.Action, r.Priority)
			if r.Reason != "" {
				fmt.Fprintf(w, "    reason: %s\n", yq(r.Reason))
			}
		}
		fmt.Fprintln(w, "dangerous:")
		var off []string
		for _, pat := range policy.Patterns() {
			state := "on"
			if p.Disabled(pat.Name) {
				state, off = "OFF (disabled by the policy)", append(off, pat.Name)
			}
			fmt.Fprintf(w, "  # %s: %s — %s\n", pat.Name, state, pat.Desc)
		}
		fmt.Fprintf(w, "  disable: [%s]\n", strings.Join(off, ", "))
		if len(p.Paths.Read)+len(p.Paths.Write) > 0 {
			fmt.Fprintln(w, "paths:")
			writeList(w, "read", p.Paths.Read)
			writeList(w, "write", p.Paths.Write)
		}
	}
	fmt.Fprintln(w, "limits:")
	var pl policy.Limits
	if p != nil {
		pl = p.Limits
	}
	for _, l := range []struct {
		flag   string
		value  string
		inFile bool
	}{
		{"timeout", yq(o.Timeout.String()), pl.Timeout != nil},
		{"max-commands", strconv.FormatInt(o.MaxCommands, 10), pl.MaxCommands != nil},
		{"max-loop-iterations", strconv.FormatInt(o.MaxLoopIters, 10), pl.MaxLoopIters != nil},
		{"max-call-depth", strconv.Itoa(o.MaxCallDepth), pl.MaxCallDepth != nil},
		{"max-output", yq(o.MaxOutput), pl.MaxOutput != nil},
		{"max-fs-bytes", yq(o.MaxFSBytes), pl.MaxFSBytes != nil},
		{"max-files", strconv.Itoa(o.MaxFiles), pl.MaxFiles != nil},
		{"max-file-size", yq(o.MaxFileSize), pl.MaxFileSize != nil},
		{"max-memory", yq(o.MaxMemory), pl.MaxMemory != nil},
		{"max-jobs", strconv.Itoa(o.MaxJobs), pl.MaxJobs != nil},
		{"max-var-bytes", yq(o.MaxVarBytes), pl.MaxVarBytes != nil},
		{"max-capture", yq(o.MaxCapture), pl.MaxCapture != nil},
		{"max-script-bytes", yq(o.MaxScript), pl.MaxScript != nil},
		{"max-fields", strconv.Itoa(o.MaxFields), pl.MaxFields != nil},
	} {
		from := "default"
		switch {
		case o.Changed != nil && o.Changed(l.flag):
			from = "flag --" + l.flag
		case l.inFile:
			from = "policy file"
		}
		fmt.Fprintf(w, "  %s: %s # %s\n", l.flag, l.value, from)
	}
	showNetwork(o, w, p)
	if p != nil {
		var tests []*policy.Test
		for _, l := range p.Layers() {
			tests = append(tests, l.Tests...)
		}
		if len(tests) > 0 {
			fmt.Fprintln(w, "tests: # checked at every load, each against its own file")
			for _, t := range tests {
				fmt.Fprintf(w, "  - {run: %s, expect: %s}\n", yq(t.Run), t.Expect)
			}
		}
	}
	return 0
}

func writeList(w io.Writer, key string, dirs []string) {
	if len(dirs) == 0 {
		fmt.Fprintf(w, "  %s: [] # everywhere\n", key)
		return
	}
	fmt.Fprintf(w, "  %s:\n", key)
	for _, d := range dirs {
		fmt.Fprintf(w, "    - %s\n", yq(d))
	}
}

// writeNetEntry writes one allow or deny entry: a string, or a mapping
// when it limits methods or bodies or gives a reason.
func writeNetEntry(w io.Writer, e policy.NetEntry) {
	if e.Methods == nil && e.MaxBody == nil && e.Reason == "" {
		fmt.Fprintf(w, "    - %s\n", yq(e.URL))
		return
	}
	parts := []string{"url: " + yq(e.URL)}
	if e.Methods != nil {
		parts = append(parts, "methods: ["+strings.Join(e.Methods, ", ")+"]")
	}
	if e.MaxBody != nil {
		parts = append(parts, "max_body: "+yq(*e.MaxBody))
	}
	if e.Reason != "" {
		parts = append(parts, "reason: "+yq(e.Reason))
	}
	fmt.Fprintf(w, "    - {%s}\n", strings.Join(parts, ", "))
}

// yq quotes a YAML scalar so that it reads back as the same string.
func yq(s string) string { return strconv.Quote(s) }

// showNetwork prints the effective network section for `policy show`.
func showNetwork(o *Options, w io.Writer, p *policy.Policy) {
	var pn policy.Network
	if p != nil {
		pn = p.Network
	}
	from := func(flag string, inFile bool) string {
		switch {
		case o.Changed != nil && o.Changed(flag):
			return "flag --" + flag
		case inFile:
			return "policy file"
		}
		return "default"
	}
	fmt.Fprintln(w, "network:")
	if len(o.AllowNet) == 0 {
		fmt.Fprintln(w, "  allow: [] # no network: curl and wget refuse every request")
	} else {
		fmt.Fprintf(w, "  allow: # %s\n", from("allow-net", len(pn.Allow) > 0))
		if o.Changed != nil && o.Changed("allow-net") || len(pn.Allow) == 0 {
			pn.Allow = policy.NetEntries(o.AllowNet)
		}
		for _, e := range pn.Allow {
			writeNetEntry(w, e)
		}
	}
	if len(pn.Deny) > 0 {
		fmt.Fprintln(w, "  deny: # policy file")
		for _, e := range pn.Deny {
			writeNetEntry(w, e)
		}
	}
	if len(pn.Credentials) > 0 {
		fmt.Fprintln(w, "  credentials: # policy file; the values stay in sandsh")
		for _, c := range pn.Credentials {
			src := "value_env: " + yq(c.ValueEnv)
			if c.ValueFile != "" {
				src = "value_file: " + yq(c.ValueFile)
			}
			fmt.Fprintf(w, "    - {url: %s, header: %s, %s}\n", yq(c.URL), yq(c.Header), src)
		}
	}
	fmt.Fprintf(w, "  max-requests: %d # %s\n", o.MaxNetRequests, from("max-net-requests", pn.MaxRequests != nil))
	fmt.Fprintf(w, "  max-bytes: %s # %s\n", yq(o.MaxNetBytes), from("max-net-bytes", pn.MaxBytes != nil))
	fmt.Fprintf(w, "  timeout: %s # %s\n", yq(o.NetTimeout.String()), from("net-timeout", pn.Timeout != nil))
}
