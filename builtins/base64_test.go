package builtins

import (
	"strings"
	"testing"
)

func TestBase64(t *testing.T) {
	// RFC 4648 section 10 test vectors.
	vectors := [][2]string{{"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"}, {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"}}
	for _, v := range vectors {
		env := testEnv(t, nil)
		want := v[1]
		if want != "" {
			want += "\n"
		}
		if got := run(t, env, v[0], "base64"); got.Stdout != want || got.Status != 0 {
			t.Errorf("base64 %q = %+v, want %q", v[0], got, want)
		}
		if got := run(t, env, v[1], "base64", "-d"); got.Stdout != v[0] || got.Status != 0 {
			t.Errorf("base64 -d %q = %+v, want %q", v[1], got, v[0])
		}
	}
	long := strings.Repeat("0123456789", 100)
	tests := []struct {
		name  string
		args  []string
		stdin string
		check func(r result) bool
	}{
		{"wrap 76", []string{"base64"}, long, func(r result) bool {
			lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
			return len(lines[0]) == 76 && len(lines[len(lines)-1]) <= 76
		}},
		{"no wrap", []string{"base64", "-w0"}, long, func(r result) bool { return !strings.Contains(r.Stdout, "\n") }},
		{"decode ignores newlines", []string{"base64", "-d"}, "Zm9v\nYmFy\n", func(r result) bool { return r.Stdout == "foobar" }},
		{"garbage fails", []string{"base64", "-d"}, "Zm9v!YmFy", func(r result) bool { return r.Status == 1 && r.Stdout == "foo" && r.Stderr != "" }},
		{"garbage ignored", []string{"base64", "-d", "-i"}, "Zm9v!YmFy", func(r result) bool { return r.Status == 0 && r.Stdout == "foobar" }},
		{"bad wrap", []string{"base64", "-w", "-1"}, "x", func(r result) bool { return r.Status == 1 }},
		{"missing file", []string{"base64", "nope"}, "", func(r result) bool { return r.Status == 1 && strings.Contains(r.Stderr, "nope") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := testEnv(t, nil)
			if r := run(t, env, tc.stdin, tc.args...); !tc.check(r) {
				t.Errorf("%v: %+v", tc.args, r)
			}
		})
	}
	// Round trip of all byte values at every wrap width class.
	var all strings.Builder
	for i := 0; i < 256; i++ {
		all.WriteByte(byte(i))
	}
	for _, w := range []string{"0", "1", "7", "76"} {
		env := testEnv(t, map[string]string{"in": all.String()})
		enc := run(t, env, "", "base64", "-w", w, "in")
		if dec := run(t, env, enc.Stdout, "base64", "-d"); dec.Stdout != all.String() {
			t.Errorf("round trip with -w %s failed", w)
		}
	}
}
