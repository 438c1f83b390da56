package cmd

import (
	"fmt"
	"maps"
	"slices"

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
			lines := map[string]string{
				// Served by the gateway itself rather than the registry.
				"bash": "run a script or -c commands in a nested in-process shell",
				"sh":   "run a script or -c commands in a nested in-process shell",
			}
			for _, c := range builtins.NewRegistry().Commands() {
				lines[c.Name] = c.Summary
			}
			for _, name := range slices.Sorted(maps.Keys(lines)) {
				fmt.Fprintf(stdio.Out, "%-12s %s\n", name, lines[name])
			}
			return nil
		},
	}
}
