package interp

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sandsh/sandsh/builtins"
)

// How describe reports a name: bash's CDESC_* flags of type and command.
const (
	descShort     = 1 << iota // "x is a shell builtin" (type, command -V)
	descType                  // "builtin" (type -t)
	descReusable              // "alias x='...'", the path (command -v)
	descPathOnly              // only files are printed (type -p, -P)
	descForcePath             // search $PATH even for builtins (type -P)
	descNoFuncs               // skip functions (type -f)
	descAll                   // every match (type -a)
)

// describe prints what a name is, for type and command -v/-V, following
// bash's describe_command: alias, keyword, function, builtin, then the
// hash table and $PATH. It reports whether the name was found.
func (r *Runner) describe(name string, flags int) bool {
	w := r.out()
	all := flags&descAll != 0
	found := false
	pick := func(typ, short, reusable string) {
		switch {
		case flags&descType != 0:
			fmt.Fprintln(w, typ)
		case flags&descShort != 0:
			fmt.Fprint(w, short)
		case flags&descReusable != 0:
			fmt.Fprintln(w, reusable)
		}
		found = true
	}
	if flags&descForcePath == 0 && r.opts.expandAliases {
		if v, ok := r.aliases[name]; ok {
			pick("alias", fmt.Sprintf("%s is aliased to `%s'\n", name, v), "alias "+name+"="+aliasQuote(v))
			if !all {
				return true
			}
		}
	}
	if flags&descForcePath == 0 && keywords[name] {
		pick("keyword", name+" is a shell keyword\n", name)
		if !all {
			return true
		}
	}
	if flags&(descNoFuncs|descForcePath) == 0 {
		if body, ok := r.funcs[name]; ok {
			var sb strings.Builder
			sb.WriteString(name + " is a function\n")
			r.printFunc(&sb, name, body)
			pick("function", sb.String(), name)
			if !all {
				return true
			}
		}
	}
	if flags&descForcePath == 0 && isShellBuiltin(name) {
		what := "shell builtin"
		if r.opts.posix && specialBuiltins[name] {
			what = "special shell builtin"
		}
		pick("builtin", name+" is a "+what+"\n", name)
		if !all {
			return true
		}
	}
	file := func(p string, short string) {
		switch {
		case flags&descType != 0:
			fmt.Fprintln(w, "file")
		case flags&descShort != 0:
			fmt.Fprint(w, short)
		case flags&(descReusable|descPathOnly) != 0:
			fmt.Fprintln(w, p)
		}
		found = true
	}
	if !all || flags&descForcePath != 0 {
		if p, ok := r.hashFind(name, true); ok {
			file(p, fmt.Sprintf("%s is hashed (%s)\n", name, p))
			return true
		}
	}
	env := r.biEnv()
	if all {
		for _, p := range r.s.gw.LookPathAll(env, name) {
			file(p, fmt.Sprintf("%s is %s\n", name, p))
		}
	} else if p, ok := r.s.gw.LookCommand(env, name); ok {
		file(p, fmt.Sprintf("%s is %s\n", name, p))
	}
	return found
}

func (r *Runner) biType(_ context.Context, args []string) int {
	flags := descShort
	args = args[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		// bash accepts the long forms -type, -path and -all.
		switch args[0] {
		case "-type":
			args[0] = "-t"
		case "-path":
			args[0] = "-p"
		case "-all":
			args[0] = "-a"
		}
		for _, c := range args[0][1:] {
			switch c {
			case 'a':
				flags |= descAll
			case 'f':
				flags |= descNoFuncs
			case 't':
				flags = flags&^(descShort|descPathOnly|descForcePath) | descType
			case 'p':
				flags = flags&^(descShort|descType) | descPathOnly
			case 'P':
				flags = flags&^(descShort|descType) | descPathOnly | descForcePath
			default:
				r.builtinErr("type", "-%c: invalid option", c)
				fmt.Fprintln(r.fds.writer(2), "type: usage: type [-afptP] name [name ...]")
				return 2
			}
		}
		args = args[1:]
	}
	status := 0
	for _, name := range args {
		if !r.describe(name, flags) {
			if flags&(descPathOnly|descType) == 0 {
				r.builtinErr("type", "%s: not found", name)
			}
			status = 1
		}
	}
	return status
}

// hashEntry is one remembered command location (bash's hash table).
type hashEntry struct {
	path string
	hits int
	seq  int // insertion order: newer entries come first in a bucket
}

// hashTable remembers where $PATH lookup found commands, as bash does:
// `hash` prints it, `type` says "hashed". A change of $PATH empties it.
type hashTable struct {
	entries map[string]*hashEntry
	path    string // $PATH when the entries were found
	seq     int
}

func (h *hashTable) clone() *hashTable {
	if h == nil {
		return nil
	}
	c := &hashTable{entries: make(map[string]*hashEntry, len(h.entries)), path: h.path, seq: h.seq}
	for k, e := range h.entries {
		ec := *e
		c.entries[k] = &ec
	}
	return c
}

// hashValid drops the table when $PATH changed since it was filled.
func (r *Runner) hashValid() *hashTable {
	if r.hash == nil {
		return nil
	}
	if p := r.getVar("PATH").String(); p != r.hash.path {
		r.hash = nil
	}
	return r.hash
}

// hashFind returns the remembered path of name; like bash, a look-up
// through type or hash -t counts as a hit.
func (r *Runner) hashFind(name string, hit bool) (string, bool) {
	h := r.hashValid()
	if h == nil {
		return "", false
	}
	e, ok := h.entries[name]
	if !ok {
		return "", false
	}
	if hit {
		e.hits++
	}
	return e.path, true
}

// hashAdd remembers the path of name with the given hits.
func (r *Runner) hashAdd(name, path string, hits int) {
	if r.hashValid() == nil {
		r.hash = &hashTable{entries: map[string]*hashEntry{}, path: r.getVar("PATH").String()}
	}
	r.hash.seq++
	r.hash.entries[name] = &hashEntry{path: path, hits: hits, seq: r.hash.seq}
}

// hashedRunner is a gateway that can run a command at the path the hash
// table remembers.
type hashedRunner interface {
	RunHashed(ctx context.Context, env *builtins.Env, path string, args []string) int
}

// hashCommand records an external command about to run, like bash does
// when its $PATH search finds a program, and returns the remembered path
// it must run from ("" to search $PATH). A PATH=... prefix assignment
// searches that $PATH and remembers nothing.
func (r *Runner) hashCommand(name string, extraEnv []string) string {
	if name == "" || strings.Contains(name, "/") || !r.opts.hashall {
		return ""
	}
	for _, kv := range extraEnv {
		if strings.HasPrefix(kv, "PATH=") {
			return ""
		}
	}
	if p, ok := r.hashFind(name, true); ok {
		return p
	}
	if p, ok := r.s.gw.LookPath(r.biEnv(), name); ok {
		r.hashAdd(name, p, 1)
	}
	return ""
}

// bashHash is bash's hash_string (FNV-1, 32 bits): with 256 buckets it
// gives the order in which bash lists its command hash table.
func bashHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h *= 16777619
		h ^= uint32(s[i])
	}
	return h
}

// hashNames lists the table in bash's order: by bucket, newest first.
func (h *hashTable) names() []string {
	names := make([]string, 0, len(h.entries))
	for n := range h.entries {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int {
		ba, bb := bashHash(a)&255, bashHash(b)&255
		if ba != bb {
			return int(ba) - int(bb)
		}
		return h.entries[b].seq - h.entries[a].seq
	})
	return names
}

func (r *Runner) biHash(_ context.Context, args []string) int {
	var del, list, show, reset bool
	pathArg := ""
	args = args[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		opt := args[0]
		args = args[1:]
		for i := 1; i < len(opt); i++ {
			switch opt[i] {
			case 'd':
				del = true
			case 'l':
				list = true
			case 't':
				show = true
			case 'r':
				reset = true
			case 'p':
				switch {
				case i+1 < len(opt):
					pathArg = opt[i+1:]
				case len(args) > 0:
					pathArg, args = args[0], args[1:]
				default:
					r.builtinErr("hash", "-p: option requires an argument")
					fmt.Fprintln(r.fds.writer(2), "hash: usage: hash [-lr] [-p pathname] [-dt] [name ...]")
					return 2
				}
				i = len(opt)
			default:
				r.builtinErr("hash", "-%c: invalid option", opt[i])
				fmt.Fprintln(r.fds.writer(2), "hash: usage: hash [-lr] [-p pathname] [-dt] [name ...]")
				return 2
			}
		}
	}
	if !r.opts.hashall {
		r.builtinErr("hash", "hashing disabled")
		return 1
	}
	w := r.out()
	if reset {
		r.hash = nil
	}
	if len(args) == 0 && !del && pathArg == "" && !show {
		h := r.hashValid()
		if h == nil || len(h.entries) == 0 {
			if !reset {
				fmt.Fprintln(w, "hash: hash table empty")
			}
			return 0
		}
		if reset {
			return 0
		}
		if !list {
			fmt.Fprintln(w, "hits\tcommand")
		}
		for _, n := range h.names() {
			e := h.entries[n]
			if list {
				fmt.Fprintf(w, "builtin hash -p %s %s\n", e.path, n)
			} else {
				fmt.Fprintf(w, "%4d\t%s\n", e.hits, e.path)
			}
		}
		return 0
	}
	status := 0
	for _, name := range args {
		switch {
		case del:
			if h := r.hashValid(); h == nil || h.entries[name] == nil {
				r.builtinErr("hash", "%s: not found", name)
				status = 1
				continue
			}
			delete(r.hash.entries, name)
		case show:
			p, ok := r.hashFind(name, true)
			if !ok {
				r.builtinErr("hash", "%s: not found", name)
				status = 1
				continue
			}
			switch {
			case list:
				fmt.Fprintf(w, "builtin hash -p %s %s\n", p, name)
			case len(args) > 1:
				fmt.Fprintf(w, "%s\t%s\n", name, p)
			default:
				fmt.Fprintln(w, p)
			}
		case pathArg != "":
			r.hashAdd(name, pathArg, 0)
		default:
			if strings.Contains(name, "/") || isShellBuiltin(name) || r.funcs[name] != nil {
				continue
			}
			p, ok := r.s.gw.LookPath(r.biEnv(), name)
			if !ok || !strings.HasPrefix(p, "/") {
				r.builtinErr("hash", "%s: not found", name)
				status = 1
				continue
			}
			r.hashAdd(name, p, 0)
		}
	}
	return status
}
