package builtins

import (
	"bytes"
	"testing"
)

func TestTee(t *testing.T) {
	filesRunCases(t, []filesCase{
		{args: []string{"tee", "a", "b"}, stdin: "x\ny\n", out: "x\ny\n", check: func(t *testing.T, env *Env) {
			if readFile(t, env, "a") != "x\ny\n" || readFile(t, env, "b") != "x\ny\n" {
				t.Error("files differ")
			}
		}},
		{files: map[string]string{"a": "old\n"}, args: []string{"tee", "-a", "a"}, stdin: "new\n", out: "new\n",
			check: func(t *testing.T, env *Env) {
				if got := readFile(t, env, "a"); got != "old\nnew\n" {
					t.Errorf("a = %q", got)
				}
			}},
		{args: []string{"tee", "nodir/a", "b"}, stdin: "x", out: "x", errSub: "tee: nodir/a: No such file or directory", status: 1,
			check: func(t *testing.T, env *Env) {
				if readFile(t, env, "b") != "x" {
					t.Error("b not written")
				}
			}},
	})
	// A closed stdout does not stop the copy to the files.
	env := testEnv(t, nil)
	sub := env.Sub()
	sub.Stdin = bytes.NewReader(bytes.Repeat([]byte("line\n"), 50000))
	sub.Stdout, sub.Stderr = catClosed{}, &bytes.Buffer{}
	st := runTee(t.Context(), sub, []string{"tee", "f"})
	if st != StatusBrokenPipe {
		t.Errorf("status %d", st)
	}
	if got := readFile(t, env, "f"); len(got) != 250000 {
		t.Errorf("file has %d bytes", len(got))
	}
	sub.Stdin = bytes.NewReader([]byte("abc"))
	if st := runTee(t.Context(), sub, []string{"tee", "-p", "g"}); st != 0 || readFile(t, env, "g") != "abc" {
		t.Errorf("-p: status %d", st)
	}
	sub.Stdin = catInfinite{}
	if st := runTee(t.Context(), sub, []string{"tee"}); st != StatusBrokenPipe {
		t.Errorf("no files left: status %d", st)
	}
}
