package cmd

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/sandbox"
)

// newAuditCmd groups the audit log tools.
func newAuditCmd(stdio IO) *cobra.Command {
	c := &cobra.Command{
		Use:   "audit",
		Short: "Tools for --audit logs",
		Args:  cobra.NoArgs,
	}
	c.AddCommand(&cobra.Command{
		Use:   "verify FILE",
		Short: "Check an audit log's hash chain: status 0 when whole, 1 at the first broken event, 2 when FILE cannot be read",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return statusErr(auditVerify(stdio, args[0]))
		},
	})
	return c
}

func auditVerify(stdio IO, name string) int {
	f, err := os.Open(name)
	if err != nil {
		fmt.Fprintf(stdio.Err, "sandsh: audit verify: %s: %s\n", name, builtins.ErrText(err))
		return 2
	}
	defer f.Close()
	n, last, err := sandbox.VerifyAudit(f)
	var ce *sandbox.ChainError
	switch {
	case errors.As(err, &ce):
		fmt.Fprintf(stdio.Out, "%s: broken at %v (%d events before it are whole)\n", name, ce, n)
		return 1
	case err != nil:
		fmt.Fprintf(stdio.Err, "sandsh: audit verify: %s: %s\n", name, builtins.ErrText(err))
		return 2
	}
	fmt.Fprintf(stdio.Out, "%s: %d events, chain whole; last line sha256 %s\n", name, n, last)
	return 0
}
