package cmd

import (
	"github.com/spf13/cobra"
)

// newPolicyCmd groups the policy subcommands (policy_show.go,
// policy_try.go).
func newPolicyCmd(opts *Options) *cobra.Command {
	c := &cobra.Command{
		Use:   "policy",
		Short: "Inspect a policy file: show the effective policy, test a command line against it",
		Args:  cobra.NoArgs,
	}
	c.AddCommand(newPolicyShowCmd(opts), newPolicyTestCmd(opts))
	return c
}
