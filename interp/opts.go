package interp

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// shellOpts are the `set -o` and `shopt` options.
type shellOpts struct {
	// set -o
	allexport, braceexpand, errexit, hashall, monitor, noclobber, noexec, noglob,
	nounset, pipefail, verbose, xtrace, posix, functrace, errtrace, ignoreeof, history bool
	// shopt
	extglob, nullglob, failglob, globstar, dotglob, nocaseglob, nocasematch,
	expandAliases, lastpipe, inheritErrexit, xpgEcho, sourcepath, checkwinsize, promptvars,
	interactiveComments, cmdhist, extquote, globasciiranges, shiftVerbose, localvarInherit,
	patsubstReplacement, assocExpandOnce bool
	globskipdots bool
	extdebug     bool
	// emacs and vi are the line-editing modes (at most one is on; an
	// interactive shell starts in emacs mode). loginShell is `bash -l`
	// (shopt login_shell, which shopt -s/-u cannot change).
	emacs, vi, loginShell bool
}

func defaultOpts() shellOpts {
	return shellOpts{braceexpand: true, hashall: true, sourcepath: true, promptvars: true,
		interactiveComments: true, cmdhist: true, extquote: true, globasciiranges: true,
		patsubstReplacement: true, globskipdots: true}
}

// setOpt describes one `set -o` option: its name, its letter, its field.
type setOpt struct {
	name   string
	letter byte
	field  func(*shellOpts) *bool
}

var setOptions = []setOpt{
	{"allexport", 'a', func(o *shellOpts) *bool { return &o.allexport }},
	{"braceexpand", 'B', func(o *shellOpts) *bool { return &o.braceexpand }},
	{"emacs", 0, func(o *shellOpts) *bool { return &o.emacs }},
	{"errexit", 'e', func(o *shellOpts) *bool { return &o.errexit }},
	{"errtrace", 'E', func(o *shellOpts) *bool { return &o.errtrace }},
	{"functrace", 'T', func(o *shellOpts) *bool { return &o.functrace }},
	{"hashall", 'h', func(o *shellOpts) *bool { return &o.hashall }},
	{"histexpand", 'H', nil},
	{"history", 0, func(o *shellOpts) *bool { return &o.history }},
	{"ignoreeof", 0, func(o *shellOpts) *bool { return &o.ignoreeof }},
	{"interactive-comments", 0, func(o *shellOpts) *bool { return &o.interactiveComments }},
	{"keyword", 'k', nil},
	{"monitor", 'm', func(o *shellOpts) *bool { return &o.monitor }},
	{"noclobber", 'C', func(o *shellOpts) *bool { return &o.noclobber }},
	{"noexec", 'n', func(o *shellOpts) *bool { return &o.noexec }},
	{"noglob", 'f', func(o *shellOpts) *bool { return &o.noglob }},
	{"nolog", 0, nil},
	{"notify", 'b', nil},
	{"nounset", 'u', func(o *shellOpts) *bool { return &o.nounset }},
	{"onecmd", 't', nil},
	{"physical", 'P', nil},
	{"pipefail", 0, func(o *shellOpts) *bool { return &o.pipefail }},
	{"posix", 0, func(o *shellOpts) *bool { return &o.posix }},
	{"privileged", 'p', nil},
	{"verbose", 'v', func(o *shellOpts) *bool { return &o.verbose }},
	{"vi", 0, func(o *shellOpts) *bool { return &o.vi }},
	{"xtrace", 'x', func(o *shellOpts) *bool { return &o.xtrace }},
}

// shoptOptions maps shopt names to fields; nil fields are accepted and
// report "off" (interactive or obsolete options with no effect here).
var shoptOptions = map[string]func(*shellOpts) *bool{
	"extglob":                 func(o *shellOpts) *bool { return &o.extglob },
	"nullglob":                func(o *shellOpts) *bool { return &o.nullglob },
	"failglob":                func(o *shellOpts) *bool { return &o.failglob },
	"globstar":                func(o *shellOpts) *bool { return &o.globstar },
	"dotglob":                 func(o *shellOpts) *bool { return &o.dotglob },
	"nocaseglob":              func(o *shellOpts) *bool { return &o.nocaseglob },
	"nocasematch":             func(o *shellOpts) *bool { return &o.nocasematch },
	"expand_aliases":          func(o *shellOpts) *bool { return &o.expandAliases },
	"lastpipe":                func(o *shellOpts) *bool { return &o.lastpipe },
	"inherit_errexit":         func(o *shellOpts) *bool { return &o.inheritErrexit },
	"xpg_echo":                func(o *shellOpts) *bool { return &o.xpgEcho },
	"sourcepath":              func(o *shellOpts) *bool { return &o.sourcepath },
	"checkwinsize":            func(o *shellOpts) *bool { return &o.checkwinsize },
	"promptvars":              func(o *shellOpts) *bool { return &o.promptvars },
	"interactive_comments":    func(o *shellOpts) *bool { return &o.interactiveComments },
	"cmdhist":                 func(o *shellOpts) *bool { return &o.cmdhist },
	"extquote":                func(o *shellOpts) *bool { return &o.extquote },
	"globasciiranges":         func(o *shellOpts) *bool { return &o.globasciiranges },
	"shift_verbose":           func(o *shellOpts) *bool { return &o.shiftVerbose },
	"localvar_inherit":        func(o *shellOpts) *bool { return &o.localvarInherit },
	"patsub_replacement":      func(o *shellOpts) *bool { return &o.patsubstReplacement },
	"assoc_expand_once":       func(o *shellOpts) *bool { return &o.assocExpandOnce },
	"globskipdots":            func(o *shellOpts) *bool { return &o.globskipdots },
	"autocd":                  nil,
	"cdable_vars":             nil,
	"cdspell":                 nil,
	"checkhash":               nil,
	"checkjobs":               nil,
	"compat31":                nil,
	"compat32":                nil,
	"compat40":                nil,
	"compat41":                nil,
	"compat42":                nil,
	"compat43":                nil,
	"compat44":                nil,
	"complete_fullquote":      nil,
	"direxpand":               nil,
	"dirspell":                nil,
	"execfail":                nil,
	"extdebug":                func(o *shellOpts) *bool { return &o.extdebug },
	"force_fignore":           nil,
	"gnu_errfmt":              nil,
	"histappend":              nil,
	"histreedit":              nil,
	"histverify":              nil,
	"hostcomplete":            nil,
	"huponexit":               nil,
	"lithist":                 nil,
	"localvar_unset":          nil,
	"login_shell":             nil,
	"mailwarn":                nil,
	"no_empty_cmd_completion": nil,
	"noexpand_translation":    nil,
	"progcomp":                nil,
	"progcomp_alias":          nil,
	"restricted_shell":        nil,
	"varredir_close":          nil,
}

// setOptByName sets a `set -o` option; ok is false for unknown names.
func (r *Runner) setOptByName(name string, on bool) bool {
	for _, o := range setOptions {
		if o.name == name {
			if o.field != nil {
				*o.field(&r.opts) = on
			}
			// One editing mode at a time: turning one on turns the other
			// off, as in bash.
			switch {
			case on && name == "emacs":
				r.opts.vi = false
			case on && name == "vi":
				r.opts.emacs = false
			}
			return true
		}
	}
	return false
}

// setOptByLetter sets a `set -x` style option.
func (r *Runner) setOptByLetter(c byte, on bool) bool {
	for _, o := range setOptions {
		if o.letter == c {
			if o.field != nil {
				*o.field(&r.opts) = on
			}
			return true
		}
	}
	return false
}

// optFlags is $-.
func (r *Runner) optFlags() string {
	var sb strings.Builder
	for _, c := range "abefhikmnptuvxBCEHPT" {
		if c == 'i' && r.interactive {
			sb.WriteByte('i')
		}
		for _, o := range setOptions {
			if o.letter == byte(c) && o.field != nil && *o.field(&r.opts) {
				sb.WriteRune(c)
			}
		}
	}
	// bash: 'c' for -c text, 's' for commands read from stdin (and
	// at a prompt), neither for a script file.
	switch {
	case r.cmdString:
		sb.WriteByte('c')
	case !r.scriptFile:
		sb.WriteByte('s')
	}
	return sb.String()
}

func (r *Runner) shellOptsString() string {
	var on []string
	for _, o := range setOptions {
		if o.field != nil && *o.field(&r.opts) {
			on = append(on, o.name)
		}
	}
	return strings.Join(on, ":")
}

func (r *Runner) shoptValue(name string) (bool, bool) {
	f, ok := shoptOptions[name]
	if !ok {
		return false, false
	}
	switch name {
	case "restricted_shell":
		return r.s.gw.Restricted(), true
	case "login_shell":
		return r.opts.loginShell, true
	}
	if f == nil {
		return false, true
	}
	return *f(&r.opts), true
}

func (r *Runner) bashOptsString() string {
	var on []string
	for _, name := range shoptNames() {
		if v, _ := r.shoptValue(name); v {
			on = append(on, name)
		}
	}
	return strings.Join(on, ":")
}

func shoptNames() []string {
	names := make([]string, 0, len(shoptOptions))
	for n := range shoptOptions {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// printSetO prints `set -o` or `set +o` output.
func (r *Runner) printSetO(w io.Writer, reusable bool) {
	for _, o := range setOptions {
		on := o.field != nil && *o.field(&r.opts)
		if reusable {
			sign := "+"
			if on {
				sign = "-"
			}
			fmt.Fprintf(w, "set %so %s\n", sign, o.name)
		} else {
			fmt.Fprintf(w, "%-15s\t%s\n", o.name, onOff(on))
		}
	}
}
