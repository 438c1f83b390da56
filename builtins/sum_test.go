package builtins

import (
	"fmt"
	"testing"
)

func TestSum(t *testing.T) {
	// The BSD sum is a rotate-and-add over bytes; compute it independently.
	bsd := func(s string) int {
		c := 0
		for i := 0; i < len(s); i++ {
			c = (c>>1 + (c&1)<<15 + int(s[i])) & 0xffff
		}
		return c
	}
	env := testEnv(t, map[string]string{"f": "hello world\n"})
	r := run(t, env, "", "sum", "f")
	want := dataSumFmt(bsd("hello world\n"), 1) + " f\n"
	if r.Stdout != want {
		t.Errorf("sum f = %q, want %q", r.Stdout, want)
	}
	// System V: plain byte sum folded to 16 bits, 512-byte blocks.
	r = run(t, env, "abc", "sum", "-s")
	if r.Stdout != "294 1\n" { // 'a'+'b'+'c' = 294
		t.Errorf("sum -s = %q", r.Stdout)
	}
	if r := run(t, env, "", "sum", "nope"); r.Status != 1 {
		t.Errorf("missing file status %d", r.Status)
	}
}

func dataSumFmt(sum, blocks int) string { return fmt.Sprintf("%05d %5d", sum, blocks) }
