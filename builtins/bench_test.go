package builtins

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The benchmarks of the hot commands that bench/run.sh times against GNU,
// on about 8 MB of the same kind of data (bench/gen.go):
//
//	go test ./builtins -run '^$' -bench . -benchmem
//	go test ./builtins -run '^$' -bench 'Cmd/sort' -cpuprofile cpu.out

var benchData = sync.OnceValues(func() (text, json []byte) {
	r := rand.New(rand.NewPCG(1, 2))
	syl := []string{"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "qu",
		"ing", "ion", "ab", "er", "an", "or", "el", "is", "ut", "om"}
	vocab := make([]string, 4000)
	for i := range vocab {
		var w strings.Builder
		for n := 2 + r.IntN(3); n > 0; n-- {
			w.WriteString(syl[r.IntN(len(syl))])
		}
		vocab[i] = w.String()
	}
	word := func() string {
		f := r.Float64()
		return vocab[int(f*f*f*float64(len(vocab)))]
	}
	var t bytes.Buffer
	for t.Len() < 8<<20 {
		t.WriteString(strconv.Itoa(r.IntN(100000)) + "\t" + word() + "\t")
		for n := 3 + r.IntN(8); n > 0; n-- {
			if r.IntN(4) == 0 {
				t.WriteString(strconv.Itoa(r.IntN(10000)))
			} else {
				t.WriteString(word())
			}
			if n > 1 {
				t.WriteByte(' ')
			}
		}
		t.WriteByte('\n')
	}
	var j bytes.Buffer
	j.WriteString("[\n")
	for id := 0; j.Len() < 8<<20; id++ {
		if id > 0 {
			j.WriteString(",\n")
		}
		j.WriteString(`{"id":` + strconv.Itoa(id) + `,"x":` + strconv.Itoa(r.IntN(1000)) +
			`,"n":` + strconv.Itoa(r.IntN(10)) + `,"name":"` + word() + `","tags":["` + word() + `"],"ok":true}`)
	}
	j.WriteString("\n]\n")
	return t.Bytes(), j.Bytes()
})

func BenchmarkCmd(b *testing.B) {
	text, json := benchData()
	env := testEnv(b, map[string]string{"big.txt": string(text), "big.json": string(json)})
	// Stage inputs of the pipelines bench/run.sh times, as files.
	col2 := run(b, env, "", "cut", "-f2", "big.txt").Stdout
	words := run(b, env, "", "grep", "-oE", "[a-z]+ing", "big.txt").Stdout
	env = testEnv(b, map[string]string{"big.txt": string(text), "big.json": string(json),
		"col2.txt": col2, "words.txt": words})
	for _, c := range []struct {
		name string
		args []string
	}{
		{"grep-c", []string{"grep", "-c", "kaab", "big.txt"}},
		{"grep-oE", []string{"grep", "-oE", "[a-z]+ing", "big.txt"}},
		{"awk-sum", []string{"awk", "{s+=$1} END {print s}", "big.txt"}},
		{"sed-s-g", []string{"sed", "s/a/b/g", "big.txt"}},
		{"sort-k2", []string{"sort", "-k2", "big.txt"}},
		{"sort", []string{"sort", "big.txt"}},
		{"wc-l", []string{"wc", "-l", "big.txt"}},
		{"wc", []string{"wc", "big.txt"}},
		{"cut-f2", []string{"cut", "-f2", "big.txt"}},
		{"sort-u", []string{"sort", "-u", "col2.txt"}},
		{"sort-words", []string{"sort", "words.txt"}},
		{"uniq-c", []string{"uniq", "-c", "words.txt"}},
		{"cat", []string{"cat", "big.txt"}},
		{"jq-map-add", []string{"jq", "map(.x) | add", "big.json"}},
		{"jq-select", []string{"jq", "-c", ".[] | select(.n > 5)", "big.json"}},
		{"jq-map-select", []string{"jq", "-c", "map(select(.n > 5)) | length", "big.json"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			in := text
			if strings.HasSuffix(c.args[len(c.args)-1], ".json") {
				in = json
			}
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				sub := env.Sub()
				sub.Stdin, sub.Stdout, sub.Stderr = strings.NewReader(""), io.Discard, io.Discard
				if st := sub.Run(context.Background(), c.args); st != 0 && !(st == 1 && c.args[0] == "grep") {
					b.Fatalf("%v: status %d", c.args, st)
				}
			}
		})
	}
}
