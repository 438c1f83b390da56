package builtins

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
)

const getconfUsage = `Usage: getconf [-v specification] variable_name [pathname]
       getconf -a [pathname]
`

// getconfValues returns the virtual system's configuration values; the
// ones flagged path need a pathname operand, as with glibc's getconf.
func getconfValues(env *Env) map[string]struct {
	value string
	path  bool
} {
	cpus := strconv.Itoa(max(env.System().NumCPU, 1))
	type v = struct {
		value string
		path  bool
	}
	return map[string]v{
		"ARG_MAX": {"2097152", false}, "CHILD_MAX": {"63405", false}, "CLK_TCK": {"100", false},
		"HOST_NAME_MAX": {"64", false}, "LOGIN_NAME_MAX": {"256", false}, "NGROUPS_MAX": {"65536", false},
		"OPEN_MAX": {"1024", false}, "PAGESIZE": {"4096", false}, "PAGE_SIZE": {"4096", false},
		"LINE_MAX": {"2048", false}, "LONG_BIT": {"64", false}, "WORD_BIT": {"32", false},
		"INT_MAX": {"2147483647", false}, "INT_MIN": {"-2147483648", false}, "CHAR_BIT": {"8", false},
		"UINT_MAX": {"4294967295", false}, "SSIZE_MAX": {"32767", false}, "STREAM_MAX": {"16", false},
		"TZNAME_MAX": {"", false}, "_POSIX_VERSION": {"200809", false}, "POSIX_VERSION": {"200809", false},
		"_NPROCESSORS_ONLN": {cpus, false}, "_NPROCESSORS_CONF": {cpus, false},
		"PATH": {"/bin:/usr/bin", false}, "CS_PATH": {"/bin:/usr/bin", false},
		"GNU_LIBC_VERSION": {"glibc 2.36", false}, "GNU_LIBPTHREAD_VERSION": {"NPTL 2.36", false},
		"PATH_MAX": {"4096", true}, "NAME_MAX": {"255", true}, "PIPE_BUF": {"4096", true},
		"LINK_MAX": {"127", true}, "MAX_CANON": {"255", true}, "MAX_INPUT": {"255", true},
		"FILESIZEBITS": {"64", true}, "SYMLINK_MAX": {"", true},
	}
}

var getconfGetopt = Getopt{Short: "+av:"}

// getconfAsksFS are the path variables whose value glibc's pathconf
// reads from the file's filesystem, so a missing path is an error.
func getconfAsksFS(name string) bool {
	return name == "NAME_MAX" || name == "LINK_MAX" || name == "FILESIZEBITS"
}

func runGetconf(ctx context.Context, env *Env, args []string) int {
	opts, ops, err := getconfGetopt.Parse(args[1:])
	if err != nil {
		io.WriteString(env.Stderr, getconfUsage)
		return 2
	}
	vals := getconfValues(env)
	for _, o := range opts {
		if o.Name == "a" {
			return getconfAll(env, args[0], vals)
		}
	}
	if len(ops) == 0 || len(ops) > 2 {
		io.WriteString(env.Stderr, getconfUsage)
		return 2
	}
	name := ops[0]
	v, ok := vals[name]
	if !ok {
		env.Errorf(args[0], "Unrecognized variable `%s'", name)
		return 2
	}
	if v.path != (len(ops) == 2) {
		io.WriteString(env.Stderr, getconfUsage)
		return 2
	}
	if v.path && getconfAsksFS(name) {
		// glibc's pathconf asks the filesystem (statfs) only for
		// these; PATH_MAX, PIPE_BUF and the terminal limits are
		// constants, printed whatever the path.
		if _, err := env.FS.Stat(env.Abs(ops[1])); err != nil {
			env.Errorf(args[0], "pathconf: %s: %s", ops[1], ErrText(err))
			return 3
		}
	}
	if v.value == "" {
		return shellPrintln(env, args[0], "undefined")
	}
	return shellPrintln(env, args[0], v.value)
}

func getconfAll(env *Env, name string, vals map[string]struct {
	value string
	path  bool
}) int {
	keys := make([]string, 0, len(vals))
	for k := range vals {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, err := fmt.Fprintf(env.Stdout, "%-35s %s\n", k, vals[k].value); err != nil {
			return env.WriteError(name, err)
		}
	}
	return 0
}
