package builtins

import "testing"

func TestBase32(t *testing.T) {
	// RFC 4648 section 10 test vectors.
	vectors := [][2]string{{"f", "MY======"}, {"fo", "MZXQ===="}, {"foo", "MZXW6==="}, {"foob", "MZXW6YQ="}, {"fooba", "MZXW6YTB"}, {"foobar", "MZXW6YTBOI======"}}
	for _, v := range vectors {
		env := testEnv(t, nil)
		if got := run(t, env, v[0], "base32"); got.Stdout != v[1]+"\n" {
			t.Errorf("base32 %q = %q, want %q", v[0], got.Stdout, v[1])
		}
		if got := run(t, env, v[1]+"\n", "base32", "-d"); got.Stdout != v[0] || got.Status != 0 {
			t.Errorf("base32 -d %q = %+v", v[1], got)
		}
	}
	env := testEnv(t, nil)
	if got := run(t, env, "MZXW6*", "base32", "-d"); got.Status != 1 {
		t.Errorf("bad input: %+v", got)
	}
	if got := run(t, env, "MZXW6*YTB\nOI======", "base32", "-di"); got.Stdout != "foobar" {
		t.Errorf("-i: %+v", got)
	}
}
