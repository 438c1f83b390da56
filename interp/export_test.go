package interp

import (
	"fmt"
	"slices"
)

// SetPanicHook makes f see every panic that guard turns into an error.
func SetPanicHook(f func(v any)) { panicHook = f }

// VarIndexErr reports where the runner's variable index disagrees with
// its scopes.
func VarIndexErr(r *Runner) error {
	want := map[string][]int32{}
	for i, sc := range r.scopes {
		for name := range sc.vars {
			want[name] = append(want[name], int32(i))
		}
	}
	if len(want) != len(r.varIdx) {
		return fmt.Errorf("index has %d names, scopes %d", len(r.varIdx), len(want))
	}
	for name, idx := range want {
		s := r.varIdx[name]
		if !slices.Equal(idx, s.scopes()) {
			return fmt.Errorf("%s: index %v, scopes %v", name, s.scopes(), idx)
		}
		if s.v != r.scopes[s.top].vars[name] {
			return fmt.Errorf("%s: index holds another variable than scope %d", name, s.top)
		}
	}
	return nil
}
