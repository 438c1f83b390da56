package interp_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
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

// The workloads of issue 12 (bench/shell.sh), scaled down so one
// iteration stays short.

// BenchmarkWhileTest is a while loop with [ ] and $(( )).
func BenchmarkWhileTest(b *testing.B) {
	benchScript(b, `i=0; while [ $i -lt 10000 ]; do i=$((i+1)); done`)
}

// BenchmarkFib runs fib 15 through shell functions.
func BenchmarkFib(b *testing.B) {
	benchScript(b, `fib() { if [ $1 -lt 2 ]; then r=$1; return; fi; fib $(($1-1)); local a=$r; fib $(($1-2)); r=$((a+r)); }; fib 15`)
}

// BenchmarkAppend does 10k s+=x appends.
func BenchmarkAppend(b *testing.B) {
	benchScript(b, `s=; for ((i=0;i<10000;i++)); do s+=x; done`)
}

// BenchmarkRecursion recurses to depth 900 (the default call-depth limit is 1000).
func BenchmarkRecursion(b *testing.B) {
	benchScript(b, `f() { if [ $1 -gt 0 ]; then f $(($1-1)); fi; }; f 900`)
}

// BenchmarkArray builds and sums a 10k-element array.
func BenchmarkArray(b *testing.B) {
	benchScript(b, `a=(); for ((i=0;i<10000;i++)); do a+=($i); done; s=0; for x in "${a[@]}"; do s=$((s+x)); done`)
}

// BenchmarkStrings slices strings and replaces with ${x//} in a loop.
func BenchmarkStrings(b *testing.B) {
	benchScript(b, `x=abcdefghijklmnopqrstuvwxyz; n=0; for ((i=0;i<5000;i++)); do y=${x:3:5}; z=${x//a/bb}; w=${x#abc}; n=$((n+${#y}+${#z}+${#w})); done`)
}

// BenchmarkWhileRead reads 20k lines with while read.
func BenchmarkWhileRead(b *testing.B) {
	in := strings.Repeat("a line of the quick brown fox\n", 20000)
	for range b.N {
		fsys := vfs.NewMem()
		vfs.Populate(fsys, vfs.WorkDir)
		r, err := interp.New(interp.WithFS(fsys), interp.WithGateway(restrict.New(builtins.NewRegistry())),
			interp.WithStdio(strings.NewReader(in), io.Discard, io.Discard), interp.WithDir(vfs.WorkDir))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.RunReader(context.Background(), strings.NewReader(`n=0; while IFS= read -r line; do n=$((n+1)); done`), "bench"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEmpty is the fixed cost every benchmark above includes: a new
// filesystem and runner, and a parse.
func BenchmarkEmpty(b *testing.B) {
	benchScript(b, `:`)
}

// BenchmarkWhileReadFile reads 20k lines with while read from a host
// regular file, as `sandsh -c SCRIPT < FILE` does: buffered reads that
// seek back after each line.
func BenchmarkWhileReadFile(b *testing.B) {
	path := filepath.Join(b.TempDir(), "lines")
	if err := os.WriteFile(path, []byte(strings.Repeat("a line of the quick brown fox\n", 20000)), 0o644); err != nil {
		b.Fatal(err)
	}
	for range b.N {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		fsys := vfs.NewMem()
		vfs.Populate(fsys, vfs.WorkDir)
		r, err := interp.New(interp.WithFS(fsys), interp.WithGateway(restrict.New(builtins.NewRegistry())),
			interp.WithStdio(f, io.Discard, io.Discard), interp.WithDir(vfs.WorkDir))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.RunReader(context.Background(), strings.NewReader(`n=0; while IFS= read -r line; do n=$((n+1)); done`), "bench"); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}
