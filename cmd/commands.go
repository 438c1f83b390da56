package cmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/sandsh/sandsh/builtins"
)

func newCommandsCmd(stdio IO) *cobra.Command {
	return &cobra.Command{
		Use:     "commands",
		Aliases: []string{"help-commands"},
		Short:   "List the in-process commands scripts can run",
		Args:    cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			for _, c := range builtins.NewRegistry().Commands() {
				fmt.Fprintf(stdio.Out, "%-12s %s\n", c.Name, c.Summary)
			}
			return nil
		},
	}
}
