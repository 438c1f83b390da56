package builtins

import "context"

const dataSumCmdUsage = `Usage: sum [OPTION]... [FILE]...
Print checksum and block counts for each FILE.

With no FILE, or when FILE is -, read standard input.
  -r              use BSD sum algorithm (the default), use 1K blocks
  -s, --sysv      use System V sum algorithm, use 512 bytes blocks
`

var sumGetopt = Getopt{Short: "rs", Long: []string{"sysv"}, LongAlias: map[string]string{"sysv": "s"}}

func runSum(ctx context.Context, env *Env, args []string) int {
	g := sumGetopt
	opts, files, err := g.Parse(args[1:])
	if err != nil {
		return env.UsageError("sum", err, 1)
	}
	sysv := false
	for _, o := range opts {
		sysv = o.Name == "s"
	}
	named := len(files) > 0
	if !named {
		files = []string{"-"}
	}
	w := dataWriter(env)
	st := 0
	for _, f := range files {
		r, err := dataOpen(env, f)
		if err != nil {
			st = env.FileError("sum", f, err)
			continue
		}
		var line string
		if sysv {
			line, err = dataSumSysV(ctx, r)
		} else {
			line, err = dataSumBSD(ctx, r)
		}
		r.Close()
		if err != nil {
			st = env.FileError("sum", f, err)
			continue
		}
		if named {
			line += " " + f
		}
		w.WriteString(line + "\n")
	}
	if err := w.Flush(); err != nil {
		return env.WriteError("sum", err)
	}
	return st
}
