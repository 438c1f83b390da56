package builtins

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// dataEndless is an input that repeats chunk forever.
type dataEndless struct {
	chunk []byte
	pos   *int
}

func (e dataEndless) Read(p []byte) (int, error) {
	if e.pos == nil {
		e.pos = new(int)
	}
	n := 0
	for n < len(p) {
		c := copy(p[n:], e.chunk[*e.pos:])
		n += c
		*e.pos = (*e.pos + c) % len(e.chunk)
	}
	return n, nil
}

// dataClosingWriter accepts limit bytes, then fails like a closed pipe.
type dataClosingWriter struct {
	n, limit int
}

func (w *dataClosingWriter) Write(p []byte) (int, error) {
	if w.n+len(p) > w.limit {
		return 0, io.ErrClosedPipe
	}
	w.n += len(p)
	return len(p), nil
}

// TestDataStreamsStopOnCancel feeds endless input and cancels: every
// command must return promptly.
func TestDataStreamsStopOnCancel(t *testing.T) {
	for _, args := range [][]string{
		{"base64"}, {"base64", "-d"}, {"base32"}, {"md5sum"}, {"sha256sum"}, {"cksum"}, {"sum"},
		{"od", "-c"}, {"xxd"}, {"xxd", "-p"}, {"hexdump", "-C"}, {"strings"}, {"cmp", "-", "big"},
		{"gzip"}, {"jq", "-R", "."}, {"jq", "."}, {"tar", "tf", "-"},
	} {
		env := testEnv(t, map[string]string{"big": "x"})
		var out bytes.Buffer
		sub := env.Sub()
		sub.Stdin, sub.Stdout, sub.Stderr = dataEndless{chunk: []byte("QUJD\n1 "), pos: new(int)}, &out, io.Discard
		ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
		start := time.Now()
		done := make(chan int, 1)
		go func() { done <- sub.Run(ctx, args) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Errorf("%v did not stop after cancel", args)
		}
		cancel()
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%v took %v", args, d)
		}
	}
}

// TestDataBrokenPipe checks producers end with status 141 when their
// reader goes away, like `yes | head -1`.
func TestDataBrokenPipe(t *testing.T) {
	for _, args := range [][]string{
		{"base64"}, {"od", "-c"}, {"xxd"}, {"hexdump", "-C"}, {"jq", "-n", "repeat(1)"}, {"strings", "-n", "1"},
		{"jq", "-R", "."}, {"zcat"}, {"gzip"}, {"tar", "cf", "-", "big"},
	} {
		env := testEnv(t, map[string]string{"big": strings.Repeat("data", 100000)})
		sub := env.Sub()
		var errb bytes.Buffer
		sub.Stdin, sub.Stdout, sub.Stderr = dataEndless{chunk: []byte("line of text\n"), pos: new(int)}, &dataClosingWriter{limit: 100}, &errb
		if args[0] == "zcat" {
			// An endless stream of concatenated gzip members.
			c := run(t, env, "hello\n", "gzip")
			sub.Stdin = dataEndless{chunk: []byte(c.Stdout), pos: new(int)}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		start := time.Now()
		st := sub.Run(ctx, args)
		cancel()
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%v took %v to notice the closed pipe", args, d)
		}
		if st != StatusBrokenPipe {
			t.Errorf("%v: status %d, want %d", args, st, StatusBrokenPipe)
		}
		if errb.Len() > 0 {
			t.Errorf("%v: a broken pipe is silent, got %q", args, errb.String())
		}
	}
}
