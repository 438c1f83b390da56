package interp_test

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/restrict"
	"github.com/sandsh/sandsh/vfs"
)

func benchScript(b *testing.B, script string) {
	b.Helper()
	for range b.N {
		fsys := vfs.NewMem()
		vfs.Populate(fsys, vfs.WorkDir)
		gw := restrict.New(builtins.NewRegistry())
		r, err := interp.New(interp.WithFS(fsys), interp.WithGateway(gw),
			interp.WithStdio(strings.NewReader(""), io.Discard, io.Discard), interp.WithDir(vfs.WorkDir))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.RunReader(context.Background(), strings.NewReader(script), "bench"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoop is a 10k-iteration arithmetic loop.
func BenchmarkLoop(b *testing.B) {
	benchScript(b, `for ((i=0;i<10000;i++)); do x=$((x+i)); done`)
}

// BenchmarkFuncCalls calls a function 5k times.
func BenchmarkFuncCalls(b *testing.B) {
	benchScript(b, `f(){ local a=$1; echo "$a" >/dev/null; }; for i in {1..5000}; do f $i; done`)
}

// BenchmarkPipeline runs 200 small pipelines.
func BenchmarkPipeline(b *testing.B) {
	benchScript(b, `for i in {1..200}; do echo "$i" | cat | cat >/dev/null; done`)
}

// BenchmarkCmdSubst runs 2k command substitutions.
func BenchmarkCmdSubst(b *testing.B) {
	benchScript(b, `for i in {1..2000}; do x=$(echo $i); done`)
}
