package builtins

import "context"

const pkillUsage = `Usage: pkill [-SIGNAL] [options] <pattern>
Signal the sandbox's processes (its background jobs; the calling shell)
whose name matches the extended regular expression <pattern>. The
options select as pgrep's do (-f -x -i -v -n -o -P -g -s -u -U), and:

 -SIGNAL, --signal <sig>   signal to send (name or number; default TERM)
 -e, --echo                say what was killed

Exit status: 0 one or more processes were signalled, 1 none matched,
2 syntax error.
`

// runPkill signals matching processes of the run.
func runPkill(ctx context.Context, env *Env, args []string) int {
	return procGrep(ctx, env, args, true)
}
