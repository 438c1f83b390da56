package interp

import "slices"

// ShellBuiltinNames lists the shell builtins sandsh's runner implements,
// for tools (the static check) that must tell them from other commands.
func ShellBuiltinNames() []string { return slices.Clone(builtinNames) }
