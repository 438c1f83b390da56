package sandbox

import (
	"context"
	"io"
	"testing"
)

// The in-process part of `sandsh -c 'echo hi'` in the worker: building
// the default sandbox (memory filesystem, command stubs, gateway,
// runner) and running one command. (cmd has the options' round trip;
// bench/shell.sh the whole two-process start-up.)
func BenchmarkStartupNew(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sb, err := New(Config{})
		if err != nil {
			b.Fatal(err)
		}
		sb.Close()
	}
}

func BenchmarkStartupEchoHi(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sb, err := New(Config{})
		if err != nil {
			b.Fatal(err)
		}
		res, err := sb.Run(context.Background(), Script{Source: "echo hi", Stdout: io.Discard, Stderr: io.Discard})
		if err != nil || res.Status != 0 {
			b.Fatal(err, res.Status)
		}
		sb.Close()
	}
}
