package interp

import (
	"fmt"
	"strings"
)

// builtinUsage is each builtin's one-line synopsis, as bash prints it
// after an option error ("read: usage: read [-ers] ...").
var builtinUsage = map[string]string{
	".":         ". filename [arguments]",
	"alias":     "alias [-p] [name[=value] ... ]",
	"bind":      "bind [-lpsvPSVX] [-m keymap] [-f filename] [-q name] [-u name] [-r keyseq] [-x keyseq:shell-command] [keyseq:readline-function or readline-command]",
	"builtin":   "builtin [shell-builtin [arg ...]]",
	"caller":    "caller [expr]",
	"cd":        "cd [-L|[-P [-e]] [-@]] [dir]",
	"command":   "command [-pVv] command [arg ...]",
	"compgen":   "compgen [-abcdefgjksuv] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [word]",
	"complete":  "complete [-abcdefgjksuv] [-pr] [-DEI] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [name ...]",
	"declare":   "declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p [-aAfFilnrtux] [name ...]",
	"dirs":      "dirs [-clpv] [+N] [-N]",
	"disown":    "disown [-h] [-ar] [jobspec ... | pid ...]",
	"enable":    "enable [-a] [-dnps] [-f filename] [name ...]",
	"eval":      "eval [arg ...]",
	"export":    "export [-fn] [name[=value] ...] or export -p",
	"exec":      "exec [-cl] [-a name] [command [argument ...]] [redirection ...]",
	"getopts":   "getopts optstring name [arg ...]",
	"hash":      "hash [-lr] [-p pathname] [-dt] [name ...]",
	"help":      "help [-dms] [pattern ...]",
	"history":   "history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]",
	"jobs":      "jobs [-lnprs] [jobspec ...] or jobs -x command [args]",
	"local":     "local [option] name[=value] ...",
	"mapfile":   "mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]",
	"popd":      "popd [-n] [+N | -N]",
	"printf":    "printf [-v var] format [arguments]",
	"pushd":     "pushd [-n] [+N | -N | dir]",
	"pwd":       "pwd [-LP]",
	"read":      "read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]",
	"readonly":  "readonly [-aAf] [name[=value] ...] or readonly -p",
	"readarray": "readarray [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]",
	"set":       "set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]",
	"shopt":     "shopt [-pqsu] [-o] [optname ...]",
	"source":    "source filename [arguments]",
	"times":     "times",
	"trap":      "trap [-lp] [[arg] signal_spec ...]",
	"typeset":   "typeset [-aAfFgiIlnrtux] name[=value] ... or typeset -p [-aAfFilnrtux] [name ...]",
	"type":      "type [-afptP] name [name ...]",
	"ulimit":    "ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]",
	"umask":     "umask [-p] [-S] [mode]",
	"unalias":   "unalias [-a] name [name ...]",
	"unset":     "unset [-f] [-v] [-n] [name ...]",
	"wait":      "wait [-fn] [-p var] [id ...]",
}

// usageErr prints bash's "name: usage: ..." line.
func (r *Runner) usageErr(name string) {
	if u, ok := builtinUsage[name]; ok {
		fmt.Fprintf(r.fds.writer(2), "%s: usage: %s\n", name, u)
	}
}

// opt is one parsed option: its letter, its value (for options that
// take one) and whether it was given as +x rather than -x.
type opt struct {
	c    byte
	val  string
	plus bool
}

// parseOpts parses a builtin's options the way bash's internal_getopt
// does, for every builtin alike: options end at the first word that is
// not "-x..." (a lone "-" is an operand), "--" ends them and is dropped,
// flags cluster ("-rs"), and an option that takes a value (a letter
// followed by ':' in spec) takes the rest of its word or the next word
// ("-d ”", "-tn2", "-n 2"). A spec starting with '+' also accepts +x.
// An unknown option or a missing value prints bash's message and the
// builtin's usage; ok is false and the builtin must return 2.
func (r *Runner) parseOpts(args []string, spec string) (opts []opt, rest []string, ok bool) {
	name := args[0]
	args = args[1:]
	allowPlus := strings.HasPrefix(spec, "+")
	for len(args) > 0 {
		a := args[0]
		if len(a) < 2 || (a[0] != '-' && (a[0] != '+' || !allowPlus)) {
			break
		}
		args = args[1:]
		if a == "--" {
			break
		}
		plus := a[0] == '+'
		for i := 1; i < len(a); i++ {
			c := a[i]
			k := strings.IndexByte(spec, c)
			if c == ':' || c == '+' || k < 0 {
				r.builtinErr(name, "%c%c: invalid option", a[0], c)
				r.usageErr(name)
				return nil, nil, false
			}
			o := opt{c: c, plus: plus}
			if k+1 < len(spec) && spec[k+1] == ':' {
				switch {
				case i+1 < len(a):
					o.val = a[i+1:]
				case len(args) > 0:
					o.val, args = args[0], args[1:]
				default:
					r.builtinErr(name, "%c%c: option requires an argument", a[0], c)
					r.usageErr(name)
					return nil, nil, false
				}
				i = len(a)
			}
			opts = append(opts, o)
		}
	}
	return opts, args, true
}

// noOpts handles a builtin that takes no options: it drops a leading
// "--" and rejects "-x" like bash's no_options(). ok is false on error.
func (r *Runner) noOpts(args []string) ([]string, bool) {
	_, rest, ok := r.parseOpts(args, "")
	return rest, ok
}
