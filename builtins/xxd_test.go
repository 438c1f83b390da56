package builtins

import (
	"strings"
	"testing"
)

func TestXxd(t *testing.T) {
	tests := []struct {
		args  []string
		stdin string
		want  string
	}{
		{nil, "abc", "00000000: 6162 63                                  abc\n"},
		{[]string{"-p"}, "abc", "616263\n"},
		{[]string{"-u", "-p"}, "\xff", "FF\n"},
		{[]string{"-g1", "-c4"}, "abcde", "00000000: 61 62 63 64  abcd\n00000004: 65           e\n"},
		{[]string{"-s", "1", "-l", "1"}, "abc", "00000001: 62                                       b\n"},
		{[]string{"-i"}, "ab", "  0x61, 0x62\n"},
		{[]string{"-r", "-p"}, "6162\n63", "abc"},
		{[]string{"-r"}, "00000000: 6162 6364  abcd\n", "abcd"},
		{[]string{"-b", "-c2"}, "A", "00000000: 01000001           A\n"},
	}
	for _, tc := range tests {
		env := testEnv(t, nil)
		r := run(t, env, tc.stdin, append([]string{"xxd"}, tc.args...)...)
		if r.Stdout != tc.want || r.Status != 0 {
			t.Errorf("xxd %v: got %q (%d %q), want %q", tc.args, r.Stdout, r.Status, r.Stderr, tc.want)
		}
	}
	// Dump and revert round-trip every byte value.
	var all strings.Builder
	for i := 0; i < 256; i++ {
		all.WriteByte(byte(i))
	}
	env := testEnv(t, map[string]string{"in": all.String()})
	d := run(t, env, "", "xxd", "in")
	if r := run(t, env, d.Stdout, "xxd", "-r"); r.Stdout != all.String() {
		t.Errorf("round trip failed")
	}
	run(t, env, d.Stdout, "xxd", "-r", "-", "out.bin")
	if got := readFile(t, env, "out.bin"); got != all.String() {
		t.Errorf("revert into a file failed")
	}
	if r := run(t, env, "", "xxd", "nope"); r.Status != 2 {
		t.Errorf("missing file: %+v", r)
	}
}

func TestXxdRevertPatchesInPlace(t *testing.T) {
	env := testEnv(t, map[string]string{"o.bin": "XXXXXXXX"})
	if r := run(t, env, "00000002: 4142\n", "xxd", "-r", "-", "o.bin"); r.Status != 0 {
		t.Fatalf("%+v", r)
	}
	if got := readFile(t, env, "o.bin"); got != "XXABXXXX" {
		t.Errorf("o.bin = %q", got)
	}
}
