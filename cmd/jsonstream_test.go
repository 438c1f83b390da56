package cmd

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// TestJSONStreamLive: --json-stream's chunks reach a pipe while the run
// goes on, not at its end: a script prints, then sleeps, and the reader
// has the first chunk long before the result line.
func TestJSONStreamLive(t *testing.T) {
	t.Parallel()
	for _, mode := range [][]string{nil, {"--no-worker"}} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		type line struct {
			at   time.Time
			text string
		}
		lines := make(chan line, 16)
		go func() {
			defer close(lines)
			sc := bufio.NewScanner(r)
			for sc.Scan() {
				lines <- line{time.Now(), sc.Text()}
			}
		}()
		args := append(append([]string{}, mode...), "--json-stream", "-c", "echo first; echo warn >&2; sleep 1.5; echo second")
		start := time.Now()
		status := Run(args, IO{In: strings.NewReader(""), Out: w, Err: w, Getenv: func(string) string { return "" }, Getwd: os.Getwd})
		end := time.Now()
		w.Close()
		var got []line
		for l := range lines {
			got = append(got, l)
		}
		r.Close()
		if status != 0 || len(got) < 4 {
			t.Fatalf("%v: status %d, lines %v", mode, status, got)
		}
		// The first stdout chunk (stderr's, from its own pipe, may come
		// before it).
		firstAt := -1
		for i, l := range got {
			var c struct{ Stream, Data string }
			if json.Unmarshal([]byte(l.text), &c) == nil && c.Stream == "stdout" {
				if c.Data == "first\n" {
					firstAt = i
				}
				break
			}
		}
		if firstAt < 0 {
			t.Fatalf("%v: no chunk \"first\\n\" before the others: %v", mode, got)
		}
		if lead := end.Sub(got[firstAt].at); lead < 500*time.Millisecond {
			t.Errorf("%v: the first chunk came %v after the start and only %v before the end", mode, got[firstAt].at.Sub(start), lead)
		}
		var res struct {
			Status int
			Stdout string
			Stderr string
		}
		last := got[len(got)-1].text
		if err := json.Unmarshal([]byte(last), &res); err != nil || res.Stdout != "first\nsecond\n" || res.Stderr != "warn\n" {
			t.Errorf("%v: last line %q (%v)", mode, last, err)
		}
	}
}
