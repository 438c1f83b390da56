package interp

// SetPanicHook makes f see every panic that guard turns into an error.
func SetPanicHook(f func(v any)) { panicHook = f }
