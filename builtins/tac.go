package builtins

import (
	"bytes"
	"context"
	"github.com/sandsh/sandsh/builtins/internal/guard"
	"regexp"
	"slices"
	"strings"
)

const tacUsage = `Usage: tac [OPTION]... [FILE]...
Write each FILE to standard output, last line first.

With no FILE, or when FILE is -, read standard input.

  -b, --before             attach the separator before instead of after
  -r, --regex              interpret the separator as a regular expression
  -s, --separator=STRING   use STRING as the separator instead of newline
      --help     display this help and exit
`

var tacGetopt = Getopt{
	Short:     "brs:",
	Long:      []string{"before", "regex", "separator="},
	LongAlias: map[string]string{"before": "b", "regex": "r", "separator": "s"},
}

func runTac(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	opts, files, err := tacGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(name, err, 1)
	}
	before, isRegex, sep := false, false, "\n"
	for _, o := range opts {
		switch o.Name {
		case "b":
			before = true
		case "r":
			isRegex = true
		case "s":
			sep = o.Value
		}
	}
	if sep == "" {
		sep = "\x00" // GNU falls back to a NUL separator
	}
	var re *regexp.Regexp
	bol := false // the regex starts with '^', which needs line context
	if isRegex {
		expr, err := textEmacsRE(sep)
		if err == nil {
			bol = strings.HasPrefix(expr, "^")
			re, err = regexp.Compile(`(?m)^(?:` + expr + `)`)
		}
		if err != nil {
			env.Errorf(name, "%v", err)
			return 1
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	w := newTextWriter(env.Stdout)
	status := 0
	for _, f := range files {
		r, err := textOpen(env, f)
		if err != nil {
			status = env.FileError(name, f, err)
			continue
		}
		// tac must see the whole input before printing its last record.
		data, err := env.ReadAll(ctx, r)
		r.Close()
		if err != nil {
			status = env.FileError(name, f, err)
			continue
		}
		if ctx.Err() != nil {
			return 130
		}
		seps, err := textTacSeps(ctx, data, sep, re, bol)
		if err != nil {
			return 130
		}
		if err := textTacWrite(w, data, seps, before); err != nil {
			return env.WriteError(name, err)
		}
	}
	if err := w.Flush(); err != nil {
		return env.WriteError(name, err)
	}
	return status
}

// textTacSeps returns the [start,end) positions of every separator, in
// increasing order. A regex separator is found as GNU tac finds it:
// searching backwards for the last position where it matches, with each
// match confined to the text before the previous one.
//
// The backward search tries a match at every position, each over the
// rest of the text: the meter is charged with the bytes each try may
// scan, so a separator that never matches stops on cancellation.
func textTacSeps(ctx context.Context, data []byte, sep string, re *regexp.Regexp, bol bool) ([][2]int, error) {
	var seps [][2]int
	meter := guard.NewMeter(ctx)
	if re != nil {
		for size := len(data); size > 0; {
			found := false
			for p := size - 1; p >= 0; p-- {
				if bol && p > 0 && data[p-1] != '\n' {
					continue
				}
				if err := meter.Add(size - p); err != nil {
					return nil, err
				}
				if m := re.FindIndex(data[p:size]); m != nil && m[1] > 0 {
					seps = append(seps, [2]int{p, p + m[1]})
					size, found = p, true
					break
				}
			}
			if !found {
				break
			}
		}
		slices.Reverse(seps)
		return seps, nil
	}
	s := []byte(sep)
	for off := 0; ; {
		i := bytes.Index(data[off:], s)
		if i < 0 {
			return seps, nil
		}
		seps = append(seps, [2]int{off + i, off + i + len(s)})
		off += i + len(s)
	}
}

// textTacWrite prints the records of data in reverse order. A record owns
// the separator that follows it, or with -b the one that precedes it.
func textTacWrite(w textWriter, data []byte, seps [][2]int, before bool) error {
	var cuts []int // record boundaries
	cuts = append(cuts, 0)
	for _, s := range seps {
		if before {
			cuts = append(cuts, s[0])
		} else {
			cuts = append(cuts, s[1])
		}
	}
	cuts = append(cuts, len(data))
	for i := len(cuts) - 1; i > 0; i-- {
		if _, err := w.Write(data[cuts[i-1]:cuts[i]]); err != nil {
			return err
		}
	}
	return nil
}
