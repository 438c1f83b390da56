package builtins

import "testing"

func TestCksum(t *testing.T) {
	// 930766865 is the POSIX CRC of "123456789", the standard check value.
	tests := []struct {
		files map[string]string
		args  []string
		stdin string
		want  string
		st    int
	}{
		{nil, nil, "123456789", "930766865 9\n", 0},
		{nil, []string{"-"}, "123456789", "930766865 9 -\n", 0},
		{map[string]string{"f": "123456789"}, []string{"f"}, "", "930766865 9 f\n", 0},
		{nil, nil, "", "4294967295 0\n", 0},
		{nil, []string{"nope"}, "", "", 1},
		{map[string]string{"f": "abc"}, []string{"-a", "md5", "f"}, "", "MD5 (f) = 900150983cd24fb0d6963f7d28e17f72\n", 0},
	}
	for _, tc := range tests {
		env := testEnv(t, tc.files)
		r := run(t, env, tc.stdin, append([]string{"cksum"}, tc.args...)...)
		if r.Stdout != tc.want || r.Status != tc.st {
			t.Errorf("cksum %v: got %+v, want %q", tc.args, r, tc.want)
		}
	}
	// Slicing by 8 must agree with the bytewise loop at every length.
	tabs := dataCRCTables()
	data := []byte("The quick brown fox jumps over the lazy dog, twice over.")
	for n := 0; n <= len(data); n++ {
		var slow uint32
		for _, c := range data[:n] {
			slow = slow<<8 ^ tabs[0][byte(slow>>24)^c]
		}
		if fast := dataCRCUpdate(tabs, 0, data[:n]); fast != slow {
			t.Fatalf("length %d: %08x != %08x", n, fast, slow)
		}
	}
}
