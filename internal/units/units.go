// Package units spells byte counts the way sandsh's flags take them and
// its limit messages show them (64MiB, 1GiB, 1000B), so that a message
// names a limit in the words that set it.
package units

import "fmt"

// FormatBytes renders a byte count in the largest binary unit that
// divides it exactly.
func FormatBytes(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}
