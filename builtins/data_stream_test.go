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

// dataNoise is an endless input that does not compress: a compressor
// fed with it produces output (and meets a closed pipe) right away.
type dataNoise struct{ x *uint64 }

func (d dataNoise) Read(p []byte) (int, error) {
	for i := range p {
		// xorshift64
		*d.x ^= *d.x << 13
		*d.x ^= *d.x >> 7
		*d.x ^= *d.x << 17
		p[i] = byte(*d.x)
	}
	return len(p), nil
}

// TestDataStreamsStopOnCancel feeds endless input and cancels: every
// command must stop, quietly, with status 130.
func TestDataStreamsStopOnCancel(t *testing.T) {
	for _, args := range [][]string{
		{"base64"}, {"base32"}, {"md5sum"}, {"sha256sum"}, {"cksum"}, {"sum"},
		{"od", "-c"}, {"xxd"}, {"xxd", "-p"}, {"hexdump", "-C"}, {"strings"}, {"gzip"}, {"jq", "-R", "."},
	} {
		env := testEnv(t, map[string]string{"big": "x"})
		var out, errb bytes.Buffer
		sub := env.Sub()
		sub.Stdin, sub.Stdout, sub.Stderr = dataEndless{chunk: []byte("QUJD\n1 "), pos: new(int)}, &out, &errb
		// The cancellation comes from a short timeout; the hang detector
		// is separate and generous.
		ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
		done := make(chan int, 1)
		go func() { done <- sub.Run(ctx, args) }()
		select {
		case st := <-done:
			if st != 130 {
				t.Errorf("%v: status %d after cancel, want 130", args, st)
			}
			if errb.Len() > 0 {
				t.Errorf("%v: a cancelled command is quiet, got %q", args, errb.String())
			}
		case <-time.After(hangTimeout):
			t.Errorf("%v did not stop within %v of being cancelled", args, hangTimeout)
		}
		cancel()
	}
	// These give up early on this input (it is not what they expect),
	// but must stop all the same.
	for _, args := range [][]string{
		{"base64", "-d"}, {"cmp", "-", "big"}, {"jq", "."}, {"tar", "tf", "-"},
	} {
		env := testEnv(t, map[string]string{"big": "x"})
		sub := env.Sub()
		sub.Stdin, sub.Stdout, sub.Stderr = dataEndless{chunk: []byte("QUJD\n1 "), pos: new(int)}, io.Discard, io.Discard
		ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
		done := make(chan int, 1)
		go func() { done <- sub.Run(ctx, args) }()
		select {
		case st := <-done:
			if st == 0 {
				t.Errorf("%v: status 0 on cancelled endless input", args)
			}
		case <-time.After(hangTimeout):
			t.Errorf("%v did not stop within %v of being cancelled", args, hangTimeout)
		}
		cancel()
	}
}

// TestDataBrokenPipe checks producers end with status 141, silently, when
// their reader goes away, like `yes | head -1`. Only a generous hang
// detector bounds the time: how soon a command writes (and so meets the
// closed pipe) depends on its buffering, as with GNU tools.
func TestDataBrokenPipe(t *testing.T) {
	for _, args := range [][]string{
		{"base64"}, {"od", "-c"}, {"xxd"}, {"hexdump", "-C"}, {"jq", "-n", "repeat(1)"}, {"strings", "-n", "1"},
		{"jq", "-R", "."}, {"zcat"}, {"gzip"}, {"tar", "cf", "-", "big"},
	} {
		env := testEnv(t, map[string]string{"big": strings.Repeat("data", 100000)})
		sub := env.Sub()
		var errb bytes.Buffer
		sub.Stdin, sub.Stdout, sub.Stderr = dataEndless{chunk: []byte("line of text\n"), pos: new(int)}, &dataClosingWriter{limit: 100}, &errb
		switch args[0] {
		case "zcat":
			// An endless stream of small gzip members: each one's data is
			// written when it ends, so the closed pipe is met early.
			c := run(t, env, "hello\n", "gzip")
			sub.Stdin = dataEndless{chunk: []byte(c.Stdout), pos: new(int)}
		case "gzip":
			// Text this repetitive compresses about 1000:1, so gzip would
			// read megabytes before its first write: real work, slow
			// under the race detector, and beside the point here.
			sub.Stdin = dataNoise{x: new(uint64)}
			*sub.Stdin.(dataNoise).x = 88172645463325252
		}
		ctx, cancel := context.WithTimeout(context.Background(), hangTimeout)
		st := sub.Run(ctx, args)
		hung := ctx.Err() != nil
		cancel()
		if hung {
			t.Errorf("%v: still running after %v: the closed pipe went unnoticed", args, hangTimeout)
			continue
		}
		if st != StatusBrokenPipe {
			t.Errorf("%v: status %d, want %d", args, st, StatusBrokenPipe)
		}
		if errb.Len() > 0 {
			t.Errorf("%v: a broken pipe is silent, got %q", args, errb.String())
		}
	}
}

// TestDataGzipMembersFlow checks that zcat writes each gzip member's data
// when the member ends, as GNU gzip does, rather than when its output
// buffer fills: a stream of members flows through a pipeline.
func TestDataGzipMembersFlow(t *testing.T) {
	env := testEnv(t, nil)
	member := run(t, env, "hello\n", "gzip").Stdout
	w := &dataRecordingWriter{}
	sub := env.Sub()
	sub.Stdin, sub.Stdout, sub.Stderr = strings.NewReader(strings.Repeat(member, 3)), w, io.Discard
	if st := sub.Run(context.Background(), []string{"zcat"}); st != 0 {
		t.Fatalf("status %d", st)
	}
	if want := []string{"hello\n", "hello\n", "hello\n"}; strings.Join(w.writes, "|") != strings.Join(want, "|") {
		t.Errorf("writes %q, want one per member %q", w.writes, want)
	}
}

// dataRecordingWriter records each write.
type dataRecordingWriter struct{ writes []string }

func (w *dataRecordingWriter) Write(p []byte) (int, error) {
	w.writes = append(w.writes, string(p))
	return len(p), nil
}
