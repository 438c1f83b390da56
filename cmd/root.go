// Package cmd is sandsh's command line: flag parsing, choosing the
// filesystem and mode, and turning a run's outcome into an exit status.
package cmd

// Main runs sandsh with args and returns its exit status.
func Main(args []string) int { return 0 }
