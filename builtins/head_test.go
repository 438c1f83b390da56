package builtins

import (
	"bytes"
	"context"
	"io"
	"testing"
	"time"
)

func TestHead(t *testing.T) {
	files := map[string]string{"f": "1\n2\n3\n4\n5\n", "z": "a\x00b\x00c"}
	cases := []struct {
		args   []string
		stdin  string
		out    string
		status int
	}{
		{[]string{"head", "-n2", "f"}, "", "1\n2\n", 0},
		{[]string{"head", "-2", "f"}, "", "1\n2\n", 0},
		{[]string{"head", "--lines=-3", "f"}, "", "1\n2\n", 0},
		{[]string{"head", "-c3", "f"}, "", "1\n2", 0},
		{[]string{"head", "-c", "-7", "f"}, "", "1\n2", 0},
		{[]string{"head", "-zn2", "z"}, "", "a\x00b\x00", 0},
		{[]string{"head", "-n1", "f", "-"}, "x\ny\n", "==> f <==\n1\n\n==> standard input <==\nx\n", 0},
		{[]string{"head", "-n", "1e", "f"}, "", "", 1},
		{[]string{"head", "-n", "--1", "f"}, "", "", 1},
		{[]string{"head", "--help"}, "", headUsage, 0},
	}
	for _, c := range cases {
		env := testEnv(t, files)
		got := run(t, env, c.stdin, c.args...)
		if got.Stdout != c.out || got.Status != c.status {
			t.Errorf("%v: got %q status %d (%q), want %q status %d", c.args, got.Stdout, got.Status, got.Stderr, c.out, c.status)
		}
	}
}

func TestHeadParseSize(t *testing.T) {
	const maxInt = 1<<63 - 1
	cases := []struct {
		in           string
		want         int64
		ok, overflow bool
	}{
		{"10", 10, true, false}, {"1b", 512, true, false}, {"2K", 2048, true, false},
		{"2k", 2048, true, false}, {"1kB", 1000, true, false}, {"1KiB", 1024, true, false},
		{"1KD", 1000, true, false}, {"3M", 3 << 20, true, false}, {"3m", 3 << 20, true, false},
		{"1MB", 1000000, true, false}, {"1G", 1 << 30, true, false}, {"1E", 1 << 60, true, false},
		{"8E", maxInt, true, false}, {"16E", 0, false, true}, {"1Z", 0, false, true},
		{"99999999999999999999", 0, false, true}, {"0Z", 0, true, false},
		{"", 0, false, false}, {"x", 0, false, false}, {"1e", 0, false, false},
		{"1g", 0, false, false}, {"1B", 0, false, false}, {"1Kib", 0, false, false},
		{"1KB2", 0, false, false}, {"-1", 0, false, false},
	}
	for _, c := range cases {
		got, ok, overflow := headParseSize(c.in)
		if got != c.want || ok != c.ok || overflow != c.overflow {
			t.Errorf("headParseSize(%q) = %d, %v, %v; want %d, %v, %v", c.in, got, ok, overflow, c.want, c.ok, c.overflow)
		}
	}
}

// TestHeadEndless: `yes | head -1` must end at once.
func TestHeadEndless(t *testing.T) {
	for _, args := range [][]string{{"head", "-n1"}, {"head", "-c", "10"}} {
		env := testEnv(t, nil)
		var out bytes.Buffer
		sub := env.Sub()
		sub.Stdin, sub.Stdout, sub.Stderr = grepEndless{[]byte("y\n")}, &out, io.Discard
		done := make(chan int)
		go func() { done <- sub.Run(context.Background(), args) }()
		select {
		case st := <-done:
			if st != 0 || out.Len() == 0 {
				t.Errorf("%v: status %d, output %q", args, st, out.String())
			}
		case <-time.After(hangTimeout):
			t.Fatalf("%v did not stop", args)
		}
	}
}

func TestHeadBrokenPipe(t *testing.T) {
	env := testEnv(t, map[string]string{"f": "a\nb\n"})
	sub := env.Sub()
	sub.Stdout, sub.Stderr = grepFailWriter{io.ErrClosedPipe}, io.Discard
	if st := sub.Run(context.Background(), []string{"head", "f"}); st != StatusBrokenPipe {
		t.Errorf("status %d, want %d", st, StatusBrokenPipe)
	}
}
