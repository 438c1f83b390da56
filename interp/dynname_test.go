package interp

import "testing"

// isDynamicName's quick test must let every dynamic name through, or
// reading it would return a stale stored value.
func TestIsDynamicName(t *testing.T) {
	for name := range dynamicNames {
		if !isDynamicName(name) {
			t.Errorf("isDynamicName(%q) = false", name)
		}
	}
	for _, name := range []string{"x", "i", "PATH", "RANDOMX", "random", "_RANDOM"} {
		if isDynamicName(name) {
			t.Errorf("isDynamicName(%q) = true", name)
		}
	}
}
