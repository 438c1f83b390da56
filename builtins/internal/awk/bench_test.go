package awk

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// benchInput is about 4 MB of "number word number" lines.
var benchInput = func() []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < 4<<20; i++ {
		fmt.Fprintf(&b, "%d word%d %d.%d the quick brown fox\n", i*7919%100000, i%100, i%1000, i%10)
	}
	return b.Bytes()
}()

func benchProgram(b *testing.B, src string) {
	prog, err := Parse(Source{Name: "bench", Text: src})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(benchInput)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Run(prog, &Config{Stdin: bytes.NewReader(benchInput), Output: io.Discard}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSumField(b *testing.B)    { benchProgram(b, `{ s += $1 } END { print s }`) }
func BenchmarkPrintFields(b *testing.B) { benchProgram(b, `{ print $2, $1 }`) }
func BenchmarkCountWords(b *testing.B) {
	benchProgram(b, `{ for (i = 1; i <= NF; i++) c[$i]++ } END { for (k in c) n++; print n }`)
}
func BenchmarkRegexMatch(b *testing.B)  { benchProgram(b, `/word[0-9]5 / { n++ } END { print n }`) }
func BenchmarkGsub(b *testing.B)        { benchProgram(b, `{ gsub(/o/, "0"); print }`) }
func BenchmarkPrintf(b *testing.B)      { benchProgram(b, `{ printf "%-10s %6.2f\n", $2, $3 }`) }
func BenchmarkSplit(b *testing.B)       { benchProgram(b, `{ n += split($0, a, " ") } END { print n }`) }
func BenchmarkFieldAssign(b *testing.B) { benchProgram(b, `{ $2 = "x"; print }`) }
