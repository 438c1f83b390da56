package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/check"
	"github.com/sandsh/sandsh/policy"
	"github.com/sandsh/sandsh/worker"
)

// Exit statuses of sandsh check, like a linter's.
const (
	checkOK     = 0
	checkFound  = 1
	checkSyntax = 2
)

// CheckOptions configure `sandsh check`.
type CheckOptions struct {
	IO       IO
	Format   string   // text, json or sarif
	Severity string   // the lowest severity that fails the check
	Policy   []string // policy files (layers), or none
	List     bool     // add the command inventory as info findings
	Config   string   // the configuration file (default .sandsh-check.yaml, if there)
	Scripts  []string
	changed  func(flag string) bool
}

func newCheckCmd(stdio IO) *cobra.Command {
	o := &CheckOptions{IO: stdio}
	var asJSON bool
	c := &cobra.Command{
		Use:   "check [flags] SCRIPT...",
		Short: "Check scripts statically: the commands they run and what escapes review",
		Long: `check parses each script without running it, lists the commands it can
run, and reports what cannot be resolved statically (computed command names,
eval, source, bash -c, xargs/find -exec/env/timeout with a computed command,
aliases, awk system(), sed e, trap), commands sandsh does not provide, and,
with --policy, what the policy denies or would ask for.
Exit status: 0 clean, 1 findings at or above --severity, 2 a syntax error.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if asJSON {
				if c.Flags().Changed("format") && o.Format != "json" {
					return worker.Usagef("check: --json and --format %s disagree", o.Format)
				}
				o.Format = "json"
			}
			o.Scripts = args
			o.changed = c.Flags().Changed
			return statusErr(runCheck(context.Background(), o))
		},
	}
	c.Flags().StringVar(&o.Format, "format", "text", "output format: text, gcc, json or sarif")
	c.Flags().BoolVar(&asJSON, "json", false, "the same as --format json")
	c.Flags().StringVar(&o.Config, "config", "", "read the check configuration from `FILE` (default: "+check.ConfigFile+" in the working directory, if there)")
	c.Flags().StringVar(&o.Severity, "severity", "warning", "lowest severity that fails the check: error, warning or info")
	c.Flags().StringArrayVar(&o.Policy, "policy", nil, "apply the policy `FILE` (repeat to layer files): its denials are errors, its asks warnings")
	c.Flags().BoolVar(&o.List, "list", false, "also report every command the script can run (info findings, code command)")
	return c
}

// runCheck checks every script and prints the findings at or above
// --severity.
func runCheck(ctx context.Context, o *CheckOptions) int {
	var opts check.Options
	cfg, err := readCheckConfig(o.Config)
	if err != nil {
		fmt.Fprintf(o.IO.Err, "sandsh: %v\n", err)
		return ExitConfig
	}
	opts.Config = cfg
	if cfg != nil && cfg.FailOn != "" && (o.changed == nil || !o.changed("severity")) {
		o.Severity = cfg.FailOn
	}
	min, err := check.ParseSeverity(o.Severity)
	if err != nil {
		return worker.ReportSetupError(o.IO.Err, worker.Usagef("--severity: %v", err))
	}
	if o.Format != "text" && o.Format != "gcc" && o.Format != "json" && o.Format != "sarif" {
		return worker.ReportSetupError(o.IO.Err, worker.Usagef("--format: unknown format %q (want text, gcc, json or sarif)", o.Format))
	}
	if len(o.Policy) > 0 {
		p, err := readCheckPolicy(o.Policy)
		if err != nil {
			fmt.Fprintf(o.IO.Err, "sandsh: %v\n", err)
			return ExitConfig
		}
		opts.Policy = p
	}
	status := checkOK
	var shown []check.Finding
	for _, name := range o.Scripts {
		fs, st := checkOne(ctx, name, opts, o.List, o.IO)
		for _, f := range fs {
			// --list shows the inventory whatever --severity says.
			if f.Severity >= min || f.Code == "command" && o.List {
				shown = append(shown, f)
				if f.Code != "command" && status == checkOK {
					status = checkFound
				}
			}
		}
		if st != 0 {
			status = max(status, st)
		}
	}
	switch o.Format {
	case "json":
		err = check.WriteJSON(o.IO.Out, shown)
	case "sarif":
		err = check.WriteSARIF(o.IO.Out, shown, Version)
	case "gcc":
		err = check.WriteGCC(o.IO.Out, shown)
	default:
		err = check.WriteText(o.IO.Out, shown)
	}
	if err != nil {
		fmt.Fprintf(o.IO.Err, "sandsh: check: %v\n", err)
		return ExitInternal
	}
	return status
}

// checkOne checks one script file ("-" is standard input) and returns its
// findings and a status other than 0 when it could not be checked.
func checkOne(ctx context.Context, name string, opts check.Options, list bool, stdio IO) ([]check.Finding, int) {
	errw := stdio.Err
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(io.LimitReader(stdio.In, check.MaxScript+1))
	} else {
		var st int
		data, st, err = worker.ReadScriptFile(name)
		if err != nil {
			fmt.Fprintf(errw, "sandsh: %v\n", err)
			return nil, st
		}
	}
	if err != nil {
		fmt.Fprintf(errw, "sandsh: %s: %v\n", name, err)
		return nil, ExitNotExec
	}
	return checkSource(ctx, name, data, opts, list, errw)
}

func checkSource(ctx context.Context, name string, data []byte, opts check.Options, list bool, errw io.Writer) ([]check.Finding, int) {
	res, err := check.Script(ctx, name, data, opts)
	if err != nil {
		var se *check.SyntaxError
		if errors.As(err, &se) {
			return []check.Finding{se.Finding}, checkSyntax
		}
		fmt.Fprintf(errw, "sandsh: %v\n", err)
		return nil, checkSyntax
	}
	fs := res.Findings
	if list {
		fs = append(check.Inventory(res), fs...)
	}
	return fs, 0
}

// readCheckPolicy reads and validates a policy file for check, as a run
// would (policy_load.go).
func readCheckPolicy(names []string) (*policy.Policy, error) {
	var layers []*policy.Policy
	for _, name := range names {
		data, err := worker.ReadPolicyFile(name)
		if err != nil {
			return nil, err
		}
		p, err := policy.Parse(name, data)
		if err != nil {
			return nil, err
		}
		layers = append(layers, p)
	}
	return policy.Layer(layers...), nil
}

// readCheckConfig reads the check configuration: name, or
// .sandsh-check.yaml in the working directory when it is there.
func readCheckConfig(name string) (*check.Config, error) {
	explicit := name != ""
	if !explicit {
		name = check.ConfigFile
	}
	f, err := os.Open(name)
	if err != nil {
		if !explicit && errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("%s: %s", name, builtins.ErrText(err))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("%s: %s", name, builtins.ErrText(err))
	}
	return check.ParseConfig(name, data)
}

// preCheck is run --check: the script is checked, as `sandsh check` would
// with the run's policy, before anything runs, and a script with an error
// finding (or a syntax error) is refused. Its error findings go to
// stderr. The script must be a file or -c text: a script on standard
// input could not be read twice.
func preCheck(o *Options, p *policy.Policy) (int, bool) {
	var name string
	var data []byte
	switch {
	case o.Command != nil:
		name, data = "-c", []byte(*o.Command)
	case len(o.Args) > 0 && o.Args[0] != "-":
		var status int
		var err error
		name = o.Args[0]
		if data, status, err = worker.ReadScriptFile(name); err != nil {
			fmt.Fprintf(o.IO.Err, "sandsh: %s\n", err)
			return status, true
		}
	default:
		return worker.ReportSetupError(o.IO.Err, worker.Usagef("--check needs a script file or -c")), true
	}
	cfg, err := readCheckConfig("")
	if err != nil {
		fmt.Fprintf(o.IO.Err, "sandsh: %v\n", err)
		return ExitConfig, true
	}
	fs, status := checkSource(context.Background(), name, data, check.Options{Policy: p, Config: cfg}, false, o.IO.Err)
	if status != 0 {
		check.WriteText(o.IO.Err, fs)
		return ExitSyntax, true
	}
	n := 0
	for _, f := range fs {
		if f.Severity == check.Error {
			fmt.Fprintln(o.IO.Err, f.String())
			n++
		}
	}
	if n > 0 {
		fmt.Fprintf(o.IO.Err, "sandsh: %s: refused by --check: %d error finding(s)\n", name, n)
		return ExitNotExec, true
	}
	return 0, false
}
