package cmd

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// newManCmd prints sandsh's man page, generated from the command tree
// (cobra/doc), or writes one page per command into a directory.
func newManCmd(stdio IO) *cobra.Command {
	var dir string
	c := &cobra.Command{
		Use:   "man [--dir DIR]",
		Short: "Print the sandsh(1) man page, or write a page per command into DIR",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			root := c.Root()
			root.DisableAutoGenTag = true // the same page from the same tree
			hdr := &doc.GenManHeader{Title: "SANDSH", Section: "1", Source: "sandsh " + Version, Manual: "sandsh manual"}
			if dir != "" {
				if err := doc.GenManTree(root, hdr, dir); err != nil {
					return fmt.Errorf("man: %w", err)
				}
				return nil
			}
			return doc.GenMan(root, hdr, stdio.Out)
		},
	}
	c.Flags().StringVar(&dir, "dir", "", "write sandsh.1, sandsh-run.1, … into the existing host directory `DIR`")
	return c
}
