package builtins

import (
	"context"
	"io"
)

const revUsage = `Usage: rev [options] [file ...]

Reverse lines characterwise.

Options:
 -h, --help     display this help
`

var revGetopt = Getopt{Short: "", Long: nil}

func runRev(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	_, files, err := revGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(name, err, 1)
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	w := newTextWriter(env.Stdout)
	status := 0
	var rev []byte
	for _, f := range files {
		r, err := textOpen(env, f)
		if err != nil {
			env.Errorf(name, "cannot open %s: %s", f, ErrText(err))
			status = 1
			continue
		}
		lr := newTextLines(ctx, env, r, '\n')
		for n := 0; ; n++ {
			if n%textCtxEvery == 0 && ctx.Err() != nil {
				r.Close()
				return 130
			}
			rec, err := lr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				textReadError(env, name, f, err)
				status = 1
				break
			}
			line := textChomp(rec, '\n')
			rev = rev[:0]
			for i := len(line) - 1; i >= 0; i-- {
				rev = append(rev, line[i])
			}
			if len(line) < len(rec) {
				rev = append(rev, '\n')
			}
			if _, err := w.Write(rev); err != nil {
				r.Close()
				return env.WriteError(name, err)
			}
		}
		r.Close()
	}
	if err := w.Flush(); err != nil {
		return env.WriteError(name, err)
	}
	return status
}
