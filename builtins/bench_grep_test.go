package builtins

import (
	"context"
	"fmt"
	"io"
	"math/rand"
	"strings"
	"testing"
)

// grepBenchData is ~8 MB of word lines with rare "ERROR code=N" markers.
func grepBenchData() string {
	rng := rand.New(rand.NewSource(1))
	words := make([]string, 2000)
	for i := range words {
		n := 2 + rng.Intn(9)
		b := make([]byte, n)
		for j := range b {
			b[j] = byte('a' + rng.Intn(26))
		}
		words[i] = string(b)
	}
	var sb strings.Builder
	for sb.Len() < 8<<20 {
		for k := 3 + rng.Intn(12); k > 0; k-- {
			sb.WriteString(words[rng.Intn(len(words))])
			sb.WriteByte(' ')
		}
		if rng.Intn(1000) == 0 {
			fmt.Fprintf(&sb, "ERROR code=%d", rng.Intn(1000))
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// grepBenchCommand runs one command line on the bench data per iteration; run
// with -bench and compare with the GNU tool on the same data.
func grepBenchCommand(b *testing.B, args ...string) {
	data := grepBenchData()
	env := testEnv(b, map[string]string{"big.txt": data})
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sub := env.Sub()
		sub.Stdout, sub.Stderr = io.Discard, io.Discard
		if st := sub.Run(context.Background(), append(args, "big.txt")); st > 1 {
			b.Fatalf("status %d", st)
		}
	}
}

func BenchmarkGrepLiteral(b *testing.B)      { grepBenchCommand(b, "grep", "ERROR") }
func BenchmarkGrepIgnoreCase(b *testing.B)   { grepBenchCommand(b, "grep", "-i", "error") }
func BenchmarkGrepCount(b *testing.B)        { grepBenchCommand(b, "grep", "-c", "the") }
func BenchmarkGrepInvert(b *testing.B)       { grepBenchCommand(b, "grep", "-v", "e") }
func BenchmarkGrepNoLiteral(b *testing.B)    { grepBenchCommand(b, "grep", "-c", "[0-9][0-9]*") }
func BenchmarkGrepAnchored(b *testing.B)     { grepBenchCommand(b, "grep", "-c", "^a.*z$") }
func BenchmarkGrepWord(b *testing.B)         { grepBenchCommand(b, "grep", "-cw", "ab") }
func BenchmarkGrepOnlyMatching(b *testing.B) { grepBenchCommand(b, "grep", "-o", "[a-z]*ing") }
func BenchmarkGrepFixedSet(b *testing.B) {
	grepBenchCommand(b, "grep", "-c", "-F", "-e", "foo", "-e", "bar")
}
func BenchmarkWc(b *testing.B)      { grepBenchCommand(b, "wc") }
func BenchmarkWcLines(b *testing.B) { grepBenchCommand(b, "wc", "-l") }
func BenchmarkTail(b *testing.B)    { grepBenchCommand(b, "tail", "-n", "5") }
func BenchmarkHead(b *testing.B)    { grepBenchCommand(b, "head", "-n", "100000") }
