package builtins

import "context"

const chgrpUsage = `Usage: chgrp [OPTION]... GROUP FILE...
  or:  chgrp [OPTION]... --reference=RFILE FILE...
Change the group of each FILE to GROUP.
With --reference, change the group of each FILE to that of RFILE.

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
      --reference=RFILE  use RFILE's group rather than specifying a
                         GROUP value
  -R, --recursive        operate on files and directories recursively
      --help     display this help and exit

The groups are the sandbox's virtual ones (/etc/group and the sandbox
user's); the sandbox user may set a file's group only to its own.
`

func runChgrp(ctx context.Context, env *Env, args []string) int {
	return chownMain(ctx, env, "chgrp", args)
}
