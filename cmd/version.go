package cmd

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/sandsh/sandsh/jail"
	"github.com/sandsh/sandsh/restrict"
)

// Version is sandsh's version, set at build time with -ldflags.
var Version = "0.1.0-dev"

func newVersionCmd(stdio IO) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version and what the sandbox can enforce here",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			fmt.Fprintf(stdio.Out, "sandsh %s (%s, %s/%s)\n", Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			if bi, ok := debug.ReadBuildInfo(); ok {
				for _, dep := range bi.Deps {
					if dep.Path == "mvdan.cc/sh/v3" {
						fmt.Fprintf(stdio.Out, "parser: mvdan.cc/sh/v3 %s\n", dep.Version)
					}
				}
			}
			fmt.Fprintln(stdio.Out, "bash compatibility target: 5.2")
			for _, l := range restrict.Enforcement() {
				fmt.Fprintln(stdio.Out, l)
			}
			for _, l := range jail.Backends("") {
				fmt.Fprintln(stdio.Out, "jail backend "+l)
			}
			return nil
		},
	}
}
