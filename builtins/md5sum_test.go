package builtins

import (
	"strings"
	"testing"
)

// dataSumVectors are the FIPS/RFC digests of "abc".
func dataSumVector(cmd string) string {
	return map[string]string{
		"md5sum":    "900150983cd24fb0d6963f7d28e17f72",
		"sha1sum":   "a9993e364706816aba3e25717850c26c9cd0d89d",
		"sha224sum": "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
		"sha256sum": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		"sha384sum": "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
		"sha512sum": "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
	}[cmd]
}

func dataTestSum(t *testing.T, cmd string) {
	sum := dataSumVector(cmd)
	tests := []struct {
		name  string
		files map[string]string
		args  []string
		stdin string
		want  string
		st    int
	}{
		{"stdin", nil, nil, "abc", sum + "  -\n", 0},
		{"file", map[string]string{"f": "abc"}, []string{"f"}, "", sum + "  f\n", 0},
		{"binary", map[string]string{"f": "abc"}, []string{"-b", "f"}, "", sum + " *f\n", 0},
		{"zero", map[string]string{"f": "abc"}, []string{"-z", "f"}, "", sum + "  f\x00", 0},
		{"missing", nil, []string{"nope"}, "", "", 1},
		{"check ok", map[string]string{"f": "abc", "l": sum + "  f\n"}, []string{"-c", "l"}, "", "f: OK\n", 0},
		{"check bad", map[string]string{"f": "abd", "l": sum + "  f\n"}, []string{"-c", "l"}, "", "f: FAILED\n", 1},
		{"check quiet", map[string]string{"f": "abc", "l": sum + "  f\n"}, []string{"-c", "--quiet", "l"}, "", "", 0},
		{"check stdin", map[string]string{"f": "abc"}, []string{"-c"}, sum + " *f\n", "f: OK\n", 0},
		{"check none", map[string]string{"l": "junk\n"}, []string{"-c", "l"}, "", "", 1},
	}
	for _, tc := range tests {
		t.Run(cmd+" "+tc.name, func(t *testing.T) {
			env := testEnv(t, tc.files)
			r := run(t, env, tc.stdin, append([]string{cmd}, tc.args...)...)
			if r.Stdout != tc.want || r.Status != tc.st {
				t.Errorf("got %+v, want %q status %d", r, tc.want, tc.st)
			}
		})
	}
	// The tag form round-trips through -c.
	env := testEnv(t, map[string]string{"f": "abc"})
	tag := run(t, env, "", cmd, "--tag", "f")
	if !strings.Contains(tag.Stdout, "(f) = "+sum) {
		t.Fatalf("--tag: %q", tag.Stdout)
	}
	if r := run(t, env, tag.Stdout, cmd, "-c"); r.Stdout != "f: OK\n" {
		t.Errorf("check of tag line: %+v", r)
	}
}

func TestMd5sum(t *testing.T) { dataTestSum(t, "md5sum") }
