//go:build !linux

package jail

import (
	"context"
	"errors"
	"os"

	"github.com/sandsh/sandsh/restrict"
)

// IsInit reports whether this process was started as a jail init.
func IsInit() bool { return false }

// InitMain is Linux only.
func InitMain() int { return 125 }

// Backends lists none: jails need Linux.
func Backends(string) []string { return []string{"none: jails need Linux namespaces"} }

// Run refuses: jails need Linux.
func (c *Config) Run(context.Context, *restrict.JailRequest, *os.File, *os.File, *os.File) (*restrict.JailResult, error) {
	return nil, errors.New("jails need Linux")
}

// BwrapUsable says bwrap needs Linux.
func BwrapUsable() error { return errors.New("jails need Linux") }
