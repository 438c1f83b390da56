package builtins

import "context"

const syncUsage = `Usage: sync [OPTION] [FILE]...
Synchronize cached writes to persistent storage.

  -d, --data             sync only file data, no unneeded metadata
  -f, --file-system      sync the file systems that contain the files
`

var syncGetopt = Getopt{Short: "df", Long: []string{"data", "file-system"},
	LongAlias: map[string]string{"data": "d", "file-system": "f"}}

// runSync has nothing to flush; it only checks that named files exist.
func runSync(ctx context.Context, env *Env, args []string) int {
	opts, ops, err := syncGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(args[0], err, 1)
	}
	data, fsys := false, false
	for _, o := range opts {
		data = data || o.Name == "d"
		fsys = fsys || o.Name == "f"
	}
	if data && fsys {
		env.Errorf(args[0], "cannot specify both --data and --file-system")
		return 1
	}
	if data && len(ops) == 0 {
		env.Errorf(args[0], "--data needs at least one argument")
		return 1
	}
	status := 0
	for _, name := range ops {
		if _, err := env.FS.Stat(env.Abs(name)); err != nil {
			env.Errorf(args[0], "error opening %s: %s", shellQuoteGNU(name), ErrText(err))
			status = 1
		}
	}
	return status
}
