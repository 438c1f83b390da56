//go:build ignore

// gen writes the benchmark's deterministic test data to standard output:
//
//	go run bench/gen.go text SIZE SEED   # lines "NUM<TAB>WORD<TAB>word word NUM word ..."
//	go run bench/gen.go json SIZE SEED   # a JSON array of {"id","x","n","name","tags"} objects
//
// The same SIZE and SEED always give the same bytes (math/rand/v2 PCG).
package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
)

var syllables = []string{
	"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "qu",
	"ing", "ion", "ab", "er", "an", "or", "el", "is", "ut", "om",
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: go run bench/gen.go text|json SIZE SEED")
		os.Exit(2)
	}
	size, err1 := strconv.ParseInt(os.Args[2], 10, 64)
	seed, err2 := strconv.ParseUint(os.Args[3], 10, 64)
	if err1 != nil || err2 != nil || size <= 0 {
		fmt.Fprintln(os.Stderr, "gen: bad SIZE or SEED")
		os.Exit(2)
	}
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))

	// A vocabulary of 4000 pseudo-words, drawn with a skew so that some
	// words are common and most are rare (like natural text).
	vocab := make([]string, 4000)
	for i := range vocab {
		w := ""
		for n := 2 + r.IntN(3); n > 0; n-- {
			w += syllables[r.IntN(len(syllables))]
		}
		vocab[i] = w
	}
	word := func() string {
		f := r.Float64()
		return vocab[int(f*f*f*float64(len(vocab)))]
	}

	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	var written int64
	var line []byte
	switch os.Args[1] {
	case "text":
		for written < size {
			line = line[:0]
			line = strconv.AppendInt(line, int64(r.IntN(100000)), 10)
			line = append(line, '\t')
			line = append(line, word()...)
			line = append(line, '\t')
			for n := 3 + r.IntN(8); n > 0; n-- {
				if r.IntN(4) == 0 {
					line = strconv.AppendInt(line, int64(r.IntN(10000)), 10)
				} else {
					line = append(line, word()...)
				}
				if n > 1 {
					line = append(line, ' ')
				}
			}
			line = append(line, '\n')
			if written+int64(len(line)) > size {
				break
			}
			w.Write(line)
			written += int64(len(line))
		}
	case "json":
		w.WriteString("[\n")
		written = 2
		for id := 0; ; id++ {
			line = line[:0]
			if id > 0 {
				line = append(line, ",\n"...)
			}
			line = append(line, `{"id":`...)
			line = strconv.AppendInt(line, int64(id), 10)
			line = append(line, `,"x":`...)
			line = strconv.AppendInt(line, int64(r.IntN(1000)), 10)
			line = append(line, `,"n":`...)
			line = strconv.AppendInt(line, int64(r.IntN(10)), 10)
			line = append(line, `,"name":"`...)
			line = append(line, word()...)
			line = append(line, `","tags":[`...)
			for n := r.IntN(4); n > 0; n-- {
				line = append(line, '"')
				line = append(line, word()...)
				line = append(line, '"')
				if n > 1 {
					line = append(line, ',')
				}
			}
			line = append(line, `],"ok":`...)
			line = strconv.AppendBool(line, r.IntN(2) == 0)
			line = append(line, '}')
			if written+int64(len(line))+2 > size {
				break
			}
			w.Write(line)
			written += int64(len(line))
		}
		w.WriteString("\n]\n")
	default:
		fmt.Fprintln(os.Stderr, "gen: kind must be text or json")
		os.Exit(2)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
