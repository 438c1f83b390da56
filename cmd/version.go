package cmd

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sandsh/sandsh/jail"
	"github.com/sandsh/sandsh/restrict"
)

// Version is sandsh's version, set at build time with -ldflags.
var Version = devVersion

const devVersion = "0.1.0-dev"

// versionLine is sandsh's version, the commit it was built from and the
// Go version, from the build information the go command records: a
// `go install …@vX.Y.Z` names its version, a build in a git checkout
// its commit (with "+dirty" for uncommitted changes).
func versionLine() string {
	v, commit := Version, "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if mv := bi.Main.Version; Version == devVersion && mv != "" && mv != "(devel)" {
			v = strings.TrimPrefix(mv, "v")
		}
		dirty := ""
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision" && len(s.Value) >= 12:
				commit = s.Value[:12]
			case s.Key == "vcs.modified" && s.Value == "true":
				dirty = "+dirty"
			}
		}
		if commit != "unknown" {
			commit += dirty
		}
	}
	return fmt.Sprintf("sandsh %s (commit %s, %s, %s/%s)", v, commit, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func newVersionCmd(stdio IO) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version and what the sandbox can enforce here",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			fmt.Fprintln(stdio.Out, versionLine())
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
