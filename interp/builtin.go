package interp

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/sandsh/sandsh/interp/internal/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/internal/bashutf8"
	"github.com/sandsh/sandsh/vfs"
)

// builtinFunc is a shell builtin: it runs inside the shell and may change
// its state.
type builtinFunc func(r *Runner, ctx context.Context, args []string) int

// shellBuiltins is the table of shell builtins, built once per call
// because Go forbids the initialization cycle a package var would make.
func shellBuiltin(name string) builtinFunc {
	switch name {
	case ":", "true":
		return func(*Runner, context.Context, []string) int { return 0 }
	case "false":
		return func(*Runner, context.Context, []string) int { return 1 }
	case "echo":
		return (*Runner).biEcho
	case "printf":
		return (*Runner).biPrintf
	case "test", "[":
		return (*Runner).biTest
	case "cd":
		return (*Runner).biCd
	case "pwd":
		return (*Runner).biPwd
	case "exit", "logout":
		return (*Runner).biExit
	case "return":
		return (*Runner).biReturn
	case "break", "continue":
		return (*Runner).biBreak
	case "shift":
		return (*Runner).biShift
	case "set":
		return (*Runner).biSet
	case "shopt":
		return (*Runner).biShopt
	case "eval":
		return (*Runner).biEval
	case "source", ".":
		return (*Runner).biSource
	case "exec":
		return (*Runner).biExec
	case "command":
		return (*Runner).biCommand
	case "builtin":
		return (*Runner).biBuiltin
	case "type":
		return (*Runner).biType
	case "hash":
		return (*Runner).biHash
	case "alias":
		return (*Runner).biAlias
	case "unalias":
		return (*Runner).biUnalias
	case "unset":
		return (*Runner).biUnset
	case "read":
		return (*Runner).biRead
	case "mapfile", "readarray":
		return (*Runner).biMapfile
	case "trap":
		return (*Runner).biTrap
	case "kill":
		return (*Runner).biKill
	case "wait":
		return (*Runner).biWait
	case "jobs":
		return (*Runner).biJobs
	case "fg", "bg":
		return (*Runner).biFg
	case "disown":
		return (*Runner).biDisown
	case "times":
		return (*Runner).biTimes
	case "ulimit":
		return (*Runner).biUlimit
	case "umask":
		return (*Runner).biUmask
	case "getopts":
		return (*Runner).biGetopts
	case "caller":
		return (*Runner).biCaller
	case "compgen":
		return (*Runner).biCompgen
	case "dirs":
		return (*Runner).biDirs
	case "pushd":
		return (*Runner).biPushd
	case "popd":
		return (*Runner).biPopd
	case "help":
		return (*Runner).biHelp
	case "enable":
		return (*Runner).biEnable
	case "declare", "typeset", "local", "export", "readonly", "nameref":
		return (*Runner).biDecl
	case "let":
		return (*Runner).biLet
	case "history":
		return (*Runner).biHistory
	case "bind", "complete", "compopt", "suspend":
		return func(*Runner, context.Context, []string) int { return 0 }
	}
	return nil
}

var builtinNames = []string{":", ".", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd", "command",
	"compgen", "complete", "compopt", "continue", "declare", "dirs", "disown", "echo", "enable", "eval", "exec",
	"exit", "export", "false", "fg", "getopts", "hash", "help", "history", "jobs", "kill", "let", "local",
	"logout", "mapfile", "popd", "printf", "pushd", "pwd", "read", "readarray", "readonly", "return", "set",
	"shift", "shopt", "source", "suspend", "test", "times", "trap", "true", "type", "typeset", "ulimit",
	"umask", "unalias", "unset", "wait"}

func shellBuiltinNames() []string { return builtinNames }

func isShellBuiltin(name string) bool { return shellBuiltin(name) != nil }

// specialBuiltins are POSIX's special builtins. In POSIX mode bash
// refuses functions of these names, finds the builtin before a function,
// and keeps prefix assignments made for them; outside it they are plain.
var specialBuiltins = map[string]bool{"break": true, ":": true, ".": true, "continue": true,
	"eval": true, "exec": true, "exit": true, "export": true, "readonly": true, "return": true,
	"set": true, "shift": true, "times": true, "trap": true, "unset": true}

var keywords = map[string]bool{"if": true, "then": true, "else": true, "elif": true, "fi": true, "case": true,
	"esac": true, "for": true, "select": true, "while": true, "until": true, "do": true, "done": true,
	"in": true, "function": true, "time": true, "{": true, "}": true, "!": true, "[[": true, "]]": true, "coproc": true}

func (r *Runner) out() io.Writer { return r.fds.writer(1) }

// biEnv is the Env for helpers shared with the in-process commands.
// It reads exported variables one at a time (Lookup) instead of building
// the whole environment, which dominated the cost of `[` in loops.
func (r *Runner) biEnv() *builtins.Env {
	env := r.baseEnv()
	env.Lookup = r.exportedVar
	return env
}

func (r *Runner) biEcho(_ context.Context, args []string) int {
	newline, escapes := true, r.opts.xpgEcho
	i := 1
	for ; i < len(args); i++ {
		a := args[i]
		if len(a) < 2 || a[0] != '-' || strings.Trim(a[1:], "neE") != "" {
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
	}
	var sb strings.Builder
	for k, a := range args[i:] {
		if k > 0 {
			sb.WriteByte(' ')
		}
		if escapes {
			s, stop := echoEscapes(a)
			sb.WriteString(s)
			if stop {
				newline = false
				break
			}
			continue
		}
		sb.WriteString(a)
	}
	if newline {
		sb.WriteByte('\n')
	}
	if _, err := io.WriteString(r.out(), sb.String()); err != nil {
		if r.s.fatalErr() == nil && !builtins.IsBrokenPipe(err) {
			r.builtinErr("echo", "write error: %s", builtins.ErrText(err))
		}
		return 1
	}
	return 0
}

// echoEscapes interprets echo -e escapes; stop is set by \c.
func echoEscapes(s string) (string, bool) {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			sb.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'a':
			sb.WriteByte('\a')
		case 'b':
			sb.WriteByte('\b')
		case 'c':
			return sb.String(), true
		case 'e', 'E':
			sb.WriteByte(0x1b)
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'v':
			sb.WriteByte('\v')
		case '\\':
			sb.WriteByte('\\')
		case '0':
			n, k := 0, 0
			for k < 3 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7' {
				i++
				n = n*8 + int(s[i]-'0')
				k++
			}
			sb.WriteByte(byte(n))
		case 'x':
			n, k := 0, 0
			for k < 2 && i+1 < len(s) && isHex(s[i+1]) {
				i++
				n = n*16 + hexVal(s[i])
				k++
			}
			if k == 0 {
				sb.WriteString(`\x`)
			} else {
				sb.WriteByte(byte(n))
			}
		case 'u', 'U':
			max := 4
			if s[i] == 'U' {
				max = 8
			}
			n, k := 0, 0
			for k < max && i+1 < len(s) && isHex(s[i+1]) {
				i++
				n = n*16 + hexVal(s[i])
				k++
			}
			if k == 0 {
				sb.WriteByte('\\')
				sb.WriteByte(s[i])
			} else {
				sb.Write(bashutf8.AppendRune(nil, uint32(n)))
			}
		default:
			sb.WriteByte('\\')
			sb.WriteByte(s[i])
		}
	}
	return sb.String(), false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

func (r *Runner) biPrintf(_ context.Context, args []string) int {
	varName := ""
	opts, args, ok := r.parseOpts(args, "v:")
	if !ok {
		return 2
	}
	for _, o := range opts {
		varName = o.val
		if !validAssignTarget(varName) {
			r.builtinErr("printf", "`%s': not a valid identifier", varName)
			return 2
		}
	}
	if len(args) == 0 {
		r.usageErr("printf")
		return 2
	}
	env := r.biEnv()
	out, status := builtins.Printf(env, args[0], args[1:])
	if varName != "" {
		if err := r.setString(varName, out, false); err != nil {
			r.assignError(err)
			return 1
		}
		return status
	}
	if _, err := io.WriteString(r.out(), out); err != nil {
		if r.s.fatalErr() == nil && !builtins.IsBrokenPipe(err) {
			r.builtinErr("printf", "write error: %s", builtins.ErrText(err))
		}
		return 1
	}
	return status
}

func (r *Runner) biTest(_ context.Context, args []string) int {
	bracket := args[0] == "["
	// -v and -o need the shell's variables and options, which the
	// shared test cannot see.
	if len(args) == 3 || bracket && len(args) == 4 && args[3] == "]" {
		switch args[1] {
		case "-v":
			// test's word, unlike [[ -v ]]'s, has its subscript
			// expanded once more (test -v 'A[$k]').
			ok, _ := r.varIsSet(args[2], true)
			return oneIfFalse(ok)
		case "-o":
			return oneIfFalse(r.unaryTest(syntax.TsOptSet, args[2]))
		}
	}
	return builtins.TestArgv(testEnv{r}, args)
}

// testEnv makes test's Env only for the tests that need one.
type testEnv struct{ r *Runner }

func (t testEnv) Env() *builtins.Env {
	return t.r.biEnv()
}

// resolvePhysical resolves every symlink in an absolute path.
func (r *Runner) resolvePhysical(p string) (string, error) {
	parts := strings.Split(strings.Trim(p, "/"), "/")
	cur := "/"
	hops := 0
	for i := 0; i < len(parts); i++ {
		part := parts[i]
		if part == "" || part == "." {
			continue
		}
		if part == ".." {
			cur = parentDir(cur)
			continue
		}
		next := cleanPath(cur + "/" + part)
		fi, err := vfs.Lstat(r.s.fs, next)
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			hops++
			if hops > 40 {
				return "", fmt.Errorf("too many levels of symbolic links")
			}
			target, err := r.s.fs.ReadlinkIfPossible(next)
			if err != nil {
				return "", err
			}
			rest := append(strings.Split(strings.Trim(target, "/"), "/"), parts[i+1:]...)
			if strings.HasPrefix(target, "/") {
				cur = "/"
			}
			parts = rest
			i = -1
			continue
		}
		cur = next
	}
	return cur, nil
}

func parentDir(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "/"
	}
	return p[:i]
}

func (r *Runner) biCd(_ context.Context, args []string) int {
	physical := false
	opts, args, ok := r.parseOpts(args, "LPe@")
	if !ok {
		return 2
	}
	for _, o := range opts {
		switch o.c {
		case 'P':
			physical = true
		case 'L':
			physical = false
		}
	}
	if len(args) > 1 {
		r.builtinErr("cd", "too many arguments")
		return 1
	}
	var dir string
	printDir := false
	if len(args) == 0 {
		dir = r.getVar("HOME").String()
		if dir == "" {
			r.builtinErr("cd", "HOME not set")
			return 1
		}
	} else {
		dir = args[0]
		if dir == "-" {
			dir = r.getVar("OLDPWD").String()
			if dir == "" {
				r.builtinErr("cd", "OLDPWD not set")
				return 1
			}
			printDir = true
		}
	}
	if dir == "" {
		return 0
	}
	target := ""
	if !strings.HasPrefix(dir, "/") && !strings.HasPrefix(dir, "./") && !strings.HasPrefix(dir, "../") && dir != "." && dir != ".." {
		for _, base := range strings.Split(r.getVar("CDPATH").String(), ":") {
			if base == "" {
				continue
			}
			cand := r.abs(base + "/" + dir)
			if fi, err := r.devFS().Stat(cand); err == nil && fi.IsDir() {
				target, printDir = cand, true
				break
			}
		}
	}
	if target == "" {
		target = r.abs(dir)
		// Like bash, "x/.." needs x to be a directory, even though the
		// logical path drops it.
		if !physical && strings.Contains(dir, "..") {
			cur := r.dir
			if strings.HasPrefix(dir, "/") {
				cur = "/"
			}
			for _, part := range strings.Split(dir, "/") {
				if part == ".." {
					if fi, err := r.devFS().Stat(cur); err != nil || !fi.IsDir() {
						r.builtinErr("cd", "%s: No such file or directory", dir)
						return 1
					}
				}
				cur = r.abs(cur + "/" + part)
			}
		}
	}
	if physical {
		p, err := r.resolvePhysical(target)
		if err != nil {
			r.builtinErr("cd", "%s: %s", dir, builtins.ErrText(err))
			return 1
		}
		target = p
	}
	fi, err := r.devFS().Stat(target)
	if err != nil {
		r.builtinErr("cd", "%s: %s", dir, builtins.ErrText(err))
		return 1
	}
	if !fi.IsDir() {
		r.builtinErr("cd", "%s: Not a directory", dir)
		return 1
	}
	if !r.access(fi, 1) {
		r.builtinErr("cd", "%s: Permission denied", dir)
		return 1
	}
	r.setString("OLDPWD", r.dir, false)
	r.dir = target
	r.setString("PWD", target, false)
	// bash exports both (OLDPWD from its start, even when unset).
	for _, n := range [...]string{"OLDPWD", "PWD"} {
		if v, _ := r.lookup(n); v != nil {
			v.Exported = true
		}
	}
	if printDir {
		fmt.Fprintln(r.out(), target)
	}
	return 0
}

func (r *Runner) biPwd(_ context.Context, args []string) int {
	physical := false
	// Like bash, operands after the options are ignored.
	opts, _, ok := r.parseOpts(args, "LP")
	if !ok {
		return 2
	}
	for _, o := range opts {
		physical = o.c == 'P'
	}
	dir := r.dir
	if physical {
		p, err := r.resolvePhysical(dir)
		if err != nil {
			r.builtinErr("pwd", "error retrieving current directory: %s", builtins.ErrText(err))
			return 1
		}
		dir = p
	}
	fmt.Fprintln(r.out(), dir)
	return 0
}

// validAssignTarget reports whether s is a name or name[subscript], what
// printf -v and read may assign to.
func validAssignTarget(s string) bool {
	name, sub, isElem := strings.Cut(s, "[")
	if !syntax.ValidName(name) {
		return false
	}
	return !isElem || len(sub) > 1 && strings.HasSuffix(sub, "]")
}

// tooManyArgs is bash's answer to `shift 1 2`, `exit 1 2`, `break 1 2`:
// the message and a jump to the top level with status 1. A script goes
// on with its next line; -c text ends.
func (r *Runner) tooManyArgs(name string) int {
	r.builtinErr(name, "too many arguments")
	if r.cmdString && !r.interactive {
		r.exiting, r.exitCode = true, 1
	} else {
		r.abortLine = true
	}
	return 1
}

// numArg parses a numeric argument to exit/return/shift/break.
func (r *Runner) numArg(name, s string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		r.builtinErr(name, "%s: numeric argument required", s)
		return 2, false
	}
	return n, true
}

func (r *Runner) biExit(_ context.Context, args []string) int {
	code := r.lastStatus
	if len(args) > 2 {
		return r.tooManyArgs(args[0])
	}
	if len(args) == 2 {
		n, ok := r.numArg(args[0], args[1])
		code = n
		if !ok {
			code = 2
		}
	}
	r.exiting, r.exitCode = true, code&0xff
	return code & 0xff
}

func (r *Runner) biReturn(_ context.Context, args []string) int {
	if len(r.frames) == 0 {
		r.builtinErr("return", "can only `return' from a function or sourced script")
		return 2
	}
	code := r.lastStatus
	if len(args) > 2 {
		return r.tooManyArgs("return")
	}
	if len(args) > 1 {
		n, ok := r.numArg("return", args[1])
		code = n
		if !ok {
			code = 2
		}
	}
	r.returning = true
	return code & 0xff
}

func (r *Runner) biBreak(_ context.Context, args []string) int {
	n := 1
	if len(args) > 2 {
		return r.tooManyArgs(args[0])
	}
	if r.loopDepth == 0 {
		r.builtinErr(args[0], "only meaningful in a `for', `while', or `until' loop")
		return 0
	}
	if len(args) > 1 {
		var ok bool
		if n, ok = r.numArg(args[0], args[1]); !ok {
			// bash throws to top level: a script stops with status 128.
			if !r.interactive {
				r.exiting, r.exitCode = true, 128
			}
			return 128
		}
		if n < 1 {
			r.builtinErr(args[0], "%s: loop count out of range", args[1])
			return 1
		}
	}
	n = min(n, r.loopDepth)
	if args[0] == "break" {
		r.breakN = n
	} else {
		r.contN = n
	}
	return 0
}

func (r *Runner) biShift(_ context.Context, args []string) int {
	n := 1
	if len(args) > 2 {
		return r.tooManyArgs("shift")
	}
	if len(args) > 1 {
		var ok bool
		if n, ok = r.numArg("shift", args[1]); !ok {
			return 1
		}
	}
	if n < 0 || n > len(r.params) {
		if r.opts.shiftVerbose || n < 0 {
			r.builtinErr("shift", "%d: shift count out of range", n)
		}
		return 1
	}
	r.params = r.params[n:]
	return 0
}

func (r *Runner) biSet(ctx context.Context, args []string) int {
	st := r.set(ctx, args)
	if r.opts.errexit && r.noErrExit == 0 {
		// bash: `set -e` inside `! f` turns errexit back on, unlike
		// inside an if or while condition or an && || list.
		r.negErrExit = false
	}
	return st
}

func (r *Runner) set(_ context.Context, args []string) int {
	args = args[1:]
	if len(args) == 0 {
		w := r.out()
		for _, name := range r.varNames() {
			v, _ := r.lookup(name)
			if v == nil || !v.Set {
				continue
			}
			switch v.Kind {
			case expand.Indexed, expand.Associative:
				var sb strings.Builder
				r.printDecl(&sb, name, v)
				s := sb.String()
				s = s[strings.IndexByte(s, ' ')+1:]
				s = s[strings.IndexByte(s, ' ')+1:]
				fmt.Fprint(w, s)
			default:
				fmt.Fprintf(w, "%s=%s\n", name, setQuote(v.Str))
			}
		}
		if !r.opts.posix {
			// bash lists the functions after the variables.
			for _, name := range slices.Sorted(maps.Keys(r.funcs)) {
				r.printFunc(w, name, r.funcs[name])
			}
		}
		return 0
	}
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			r.params = slices.Clone(args[1:])
			return 0
		}
		if a == "-" {
			// "-" turns off -x and -v and ends the options; the
			// positional parameters change only if words follow.
			r.opts.xtrace, r.opts.verbose = false, false
			if len(args) > 1 {
				r.params = slices.Clone(args[1:])
			}
			return 0
		}
		if a == "+" {
			args = args[1:] // a lone + is an ignored flag
			continue
		}
		if len(a) < 2 || a[0] != '-' && a[0] != '+' {
			break
		}
		on := a[0] == '-'
		args = args[1:]
		for i := 1; i < len(a); i++ {
			c := a[i]
			switch c {
			case 'o':
				if len(args) == 0 {
					r.printSetO(r.out(), !on)
					continue
				}
				name := args[0]
				args = args[1:]
				if name == "restricted" {
					if !on {
						r.builtinErr("set", "+o restricted: restricted mode cannot be turned off")
						return 1
					}
					continue
				}
				if !r.setOptByName(name, on) {
					r.builtinErr("set", "%s: invalid option name", name)
					return 2
				}
			case 'r':
				if !on {
					r.builtinErr("set", "+r: restricted mode cannot be turned off")
					return 1
				}
			case 'i', 's', 'c':
			default:
				if !r.setOptByLetter(c, on) {
					r.builtinErr("set", "%c%c: invalid option", a[0], c)
					fmt.Fprintln(r.fds.writer(2), "set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]")
					return 2
				}
			}
		}
	}
	if len(args) > 0 {
		r.params = slices.Clone(args)
	}
	return 0
}

// setQuote quotes a value the way `set` prints variables.
func setQuote(s string) string {
	if s == "" {
		return "''"
	}
	if traceQuote(s) == s {
		return s
	}
	return traceQuote(s)
}

func (r *Runner) biShopt(_ context.Context, args []string) int {
	set, unset, quiet, print, setO := false, false, false, false, false
	opts, args, ok := r.parseOpts(args, "pqsuo")
	if !ok {
		return 2
	}
	for _, o := range opts {
		switch o.c {
		case 's':
			set = true
		case 'u':
			unset = true
		case 'q':
			quiet = true
		case 'p':
			print = true
		case 'o':
			setO = true
		}
	}
	w := r.out()
	if setO {
		if len(args) == 0 {
			r.printSetO(w, print)
			return 0
		}
		status := 0
		for _, name := range args {
			if set || unset {
				if name == "restricted" && unset {
					r.builtinErr("shopt", "restricted: restricted mode cannot be turned off")
					status = 1
					continue
				}
				if !r.setOptByName(name, set) {
					r.builtinErr("shopt", "%s: invalid option name", name)
					status = 1
				}
				continue
			}
			found := false
			for _, o := range setOptions {
				if o.name == name {
					found = true
					on := o.field != nil && *o.field(&r.opts)
					if !on {
						status = 1
					}
					switch {
					case quiet:
					case print:
						fmt.Fprintf(w, "set %co %s\n", "+-"[oneIfFalse(!on)], name)
					default:
						fmt.Fprintf(w, "%-15s\t%s\n", name, onOff(on))
					}
				}
			}
			if !found {
				r.builtinErr("shopt", "%s: invalid option name", name)
				status = 1
			}
		}
		return status
	}
	if set || unset {
		status := 0
		for _, name := range args {
			f, ok := shoptOptions[name]
			if !ok {
				r.builtinErr("shopt", "%s: invalid shell option name", name)
				status = 1
				continue
			}
			if name == "restricted_shell" {
				r.builtinErr("shopt", "restricted_shell: restricted mode cannot be changed")
				status = 1
				continue
			}
			if f != nil {
				*f(&r.opts) = set
			}
		}
		return status
	}
	names := args
	if len(names) == 0 {
		names = shoptNames()
	}
	status := 0
	for _, name := range names {
		on, ok := r.shoptValue(name)
		if !ok {
			r.builtinErr("shopt", "%s: invalid shell option name", name)
			status = 1
			continue
		}
		if !on && len(args) > 0 {
			status = 1
		}
		if quiet {
			continue
		}
		if print {
			flag := "-u"
			if on {
				flag = "-s"
			}
			fmt.Fprintf(w, "shopt %s %s\n", flag, name)
		} else {
			fmt.Fprintf(w, "%-15s\t%s\n", name, onOff(on))
		}
	}
	return status
}

func (r *Runner) biEval(ctx context.Context, args []string) int {
	args, ok := r.noOpts(args)
	if !ok {
		return 2
	}
	src := strings.Join(args, " ")
	if strings.TrimSpace(src) == "" {
		return 0
	}
	if !r.enterCall("eval") {
		return 1
	}
	defer func() { r.callDepth-- }()
	r.evalStringAt(ctx, src, "eval", r.line)
	return r.lastStatus
}

func (r *Runner) biSource(ctx context.Context, args []string) int {
	name := args[0]
	args, ok := r.noOpts(args)
	if !ok {
		return 2
	}
	if len(args) < 1 {
		r.builtinErr(name, "filename argument required")
		r.usageErr(name)
		return 2
	}
	return r.sourceFile(ctx, args[0], args[1:])
}

func (r *Runner) biExec(ctx context.Context, args []string) int {
	_, args, ok := r.parseOpts(args, "cla:")
	if !ok {
		return 2
	}
	if len(args) == 0 {
		return 0
	}
	r.route = "exec"
	r.runCommand(ctx, args, nil, true)
	r.exiting, r.exitCode = true, r.lastStatus
	return r.lastStatus
}

func (r *Runner) biCommand(ctx context.Context, args []string) int {
	mode := byte(0)
	opts, args, ok := r.parseOpts(args, "pvV")
	if !ok {
		return 2
	}
	stdPath := false
	for _, o := range opts {
		if o.c != 'p' {
			mode = o.c
		} else {
			stdPath = true
		}
	}
	if len(args) == 0 {
		return 0
	}
	if stdPath {
		// Like bash, command -p runs with PATH bound to the standard
		// path (getconf PATH) and puts the old value back after.
		old, _ := r.lookup("PATH")
		oldVal, wasSet := "", old != nil && old.IsSet()
		if wasSet {
			oldVal = old.String()
		}
		if err := r.setString("PATH", standardPath, false); err == nil {
			defer func() {
				if wasSet {
					r.setString("PATH", oldVal, false)
				} else {
					r.unsetVar("PATH")
				}
			}()
		}
	}
	if mode != 0 {
		// Like bash, command -v and -V succeed when any name is found.
		found := false
		for _, name := range args {
			flags := descShort
			if mode == 'v' {
				flags = descReusable
			}
			if !r.describe(name, flags) {
				if mode == 'V' {
					r.builtinErr("command", "%s: not found", name)
				}
				continue
			}
			found = true
		}
		if !found {
			return 1
		}
		return 0
	}
	r.route = "command"
	r.runCommand(ctx, args, nil, true)
	return r.lastStatus
}

// standardPath is what getconf PATH prints, the path command -p uses.
const standardPath = "/bin:/usr/bin"

func (r *Runner) biBuiltin(ctx context.Context, args []string) int {
	args, ok := r.noOpts(args)
	if !ok {
		return 2
	}
	if len(args) == 0 {
		return 0
	}
	fn := shellBuiltin(args[0])
	if fn == nil {
		r.builtinErr("builtin", "%s: not a shell builtin", args[0])
		return 1
	}
	r.runBuiltin(ctx, fn, args, "builtin")
	return r.lastStatus
}

func aliasQuote(v string) string { return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'" }

func (r *Runner) biAlias(_ context.Context, args []string) int {
	w := r.out()
	opts, args, ok := r.parseOpts(args, "p")
	if !ok {
		return 2
	}
	if len(args) == 0 || len(opts) > 0 {
		for _, name := range slices.Sorted(maps.Keys(r.aliases)) {
			fmt.Fprintf(w, "alias %s=%s\n", name, aliasQuote(r.aliases[name]))
		}
		if len(args) == 0 {
			return 0
		}
	}
	status := 0
	for _, a := range args {
		name, val, ok := strings.Cut(a, "=")
		if !ok {
			v, found := r.aliases[name]
			if !found {
				r.builtinErr("alias", "%s: not found", name)
				status = 1
				continue
			}
			fmt.Fprintf(w, "alias %s=%s\n", name, aliasQuote(v))
			continue
		}
		r.aliases[name] = val
	}
	return status
}

func (r *Runner) biUnalias(_ context.Context, args []string) int {
	opts, args, ok := r.parseOpts(args, "a")
	if !ok {
		return 2
	}
	if len(opts) > 0 {
		clear(r.aliases)
		return 0
	}
	if len(args) == 0 {
		r.usageErr("unalias")
		return 2
	}
	status := 0
	for _, name := range args {
		if _, ok := r.aliases[name]; !ok {
			r.builtinErr("unalias", "%s: not found", name)
			status = 1
			continue
		}
		delete(r.aliases, name)
	}
	return status
}

func (r *Runner) biUnset(_ context.Context, args []string) int {
	mode := byte(0)
	opts, args, ok := r.parseOpts(args, "fvn")
	if !ok {
		return 2
	}
	for _, o := range opts {
		mode = o.c
	}
	status := 0
	for _, name := range args {
		if mode == 'f' {
			delete(r.funcs, name)
			delete(r.funcExported, name)
			continue
		}
		base, idx, hasIdx := strings.Cut(name, "[")
		if hasIdx && expand.SubscriptCloses(idx) {
			idx = idx[:len(idx)-1]
			target := r.resolveRef(base)
			v, _ := r.lookup(target)
			if v == nil {
				continue
			}
			if v.ReadOnly {
				r.builtinErr("unset", "%s: cannot unset: readonly variable", base)
				status = 1
				continue
			}
			switch v.Kind {
			case expand.Associative:
				if idx == "@" || idx == "*" {
					v.Map = expand.NewAssoc(v.Map.Buckets())
				} else {
					// The subscript is expanded as an assignment's is
					// (unset 'a[$k]', unset -v 'a["$k"]'), as in bash 5.2.
					v.Map.Delete(r.elemKey(idx))
				}
			case expand.Indexed:
				if idx == "@" || idx == "*" {
					r.unsetVar(target)
					continue
				}
				i, err := r.arithString(r.elemKey(idx))
				if err != nil {
					r.builtinErr("unset", "%s: bad array subscript", name)
					status = 1
					continue
				}
				if i < 0 {
					if i += indexedMax(v.List, v.Indexes) + 1; i < 0 {
						r.builtinErr("unset", "[%s]: bad array subscript", idx)
						status = 1
						continue
					}
				}
				v.List, v.Indexes = indexedUnset(v.List, v.Indexes, i)
			default:
				// A scalar is element 0 of itself; any other subscript
				// names nothing, and bash says so.
				if idx != "@" && idx != "*" {
					if i, err := r.arithString(r.elemKey(idx)); err == nil && i == 0 {
						r.unsetVar(target)
						continue
					}
				}
				r.builtinErr("unset", "%s: not an array variable", base)
				status = 1
			}
			continue
		}
		if !syntax.ValidName(name) {
			r.builtinErr("unset", "`%s': not a valid identifier", name)
			status = 1
			continue
		}
		if v, _ := r.lookup(name); v == nil && mode == 0 {
			if _, ok := r.funcs[name]; ok {
				delete(r.funcs, name)
				delete(r.funcExported, name)
				continue
			}
		}
		target := name
		if mode != 'n' {
			target = r.resolveRef(name)
		}
		if err := r.unsetVar(target); err != nil {
			r.builtinErr("unset", "%s: cannot unset: readonly variable", name)
			status = 1
		}
	}
	return status
}

func (r *Runner) biDecl(ctx context.Context, args []string) int {
	dc := &syntax.DeclClause{Variant: &syntax.Lit{Value: args[0]}}
	for _, a := range args[1:] {
		dc.Args = append(dc.Args, &syntax.Assign{Naked: true, Value: &syntax.Word{Parts: []syntax.WordPart{
			&syntax.SglQuoted{Value: a}}}})
	}
	r.declClause(ctx, dc)
	return r.lastStatus
}

func (r *Runner) biLet(ctx context.Context, args []string) int {
	if len(args) < 2 {
		r.builtinErr("let", "expression expected")
		return 1
	}
	n := 0
	for _, a := range args[1:] {
		var err error
		n, err = r.arithValue(context.Background(), a)
		if err != nil {
			r.builtinErr("let", "%v", err)
			return 1
		}
	}
	return oneIfZero(n)
}

// biHistory checks its arguments like bash; a script keeps no history.
// biHistory lists the interactive history (SetHistory) as bash does:
// all of it, or the last N, numbered; -c clears this shell's copy.
// Without a REPL the history is empty, as in a bash script.
func (r *Runner) biHistory(_ context.Context, args []string) int {
	opts, args, ok := r.parseOpts(args, "cd:anrwps")
	if !ok {
		return 2
	}
	for _, o := range opts {
		if o.c == 'c' {
			r.SetHistory(nil, 0)
			return 0
		}
	}
	if len(args) > 1 {
		r.builtinErr("history", "too many arguments")
		return 1
	}
	r.s.histMu.Lock()
	entries, base := r.s.history, r.s.histBase
	r.s.histMu.Unlock()
	first := 0
	if len(args) == 1 {
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 0 {
			r.builtinErr("history", "%s: numeric argument required", args[0])
			return 1
		}
		first = max(0, len(entries)-n)
	}
	var sb strings.Builder
	for i := first; i < len(entries); i++ {
		fmt.Fprintf(&sb, "%5d  %s\n", base+i+1, entries[i])
	}
	io.WriteString(r.out(), sb.String())
	return 0
}

func (r *Runner) biTimes(context.Context, []string) int {
	el := r.s.sys.Now().Sub(r.s.start)
	fmt.Fprintf(r.out(), "0m%.3fs 0m0.000s\n0m0.000s 0m0.000s\n", el.Seconds())
	return 0
}

func (r *Runner) biUlimit(_ context.Context, args []string) int {
	if len(args) > 1 && args[1] == "-a" {
		fmt.Fprint(r.out(), "core file size              (blocks, -c) 0\ndata seg size               (kbytes, -d) unlimited\nfile size                   (blocks, -f) unlimited\nmax user processes                  (-u) 512\nopen files                          (-n) 1024\nstack size                  (kbytes, -s) 8192\ncpu time                   (seconds, -t) unlimited\nvirtual memory              (kbytes, -v) unlimited\n")
		return 0
	}
	last := args[len(args)-1]
	if len(args) == 1 || strings.HasPrefix(last, "-") {
		switch last {
		case "-n":
			fmt.Fprintln(r.out(), "1024")
		case "-u":
			fmt.Fprintln(r.out(), "512")
		case "-s":
			fmt.Fprintln(r.out(), "8192")
		case "-c":
			fmt.Fprintln(r.out(), "0")
		default:
			fmt.Fprintln(r.out(), "unlimited")
		}
	}
	return 0
}

func (r *Runner) biUmask(_ context.Context, args []string) int {
	symbolic, reusable := false, false
	opts, args, ok := r.parseOpts(args, "pS")
	if !ok {
		return 2
	}
	for _, o := range opts {
		symbolic = symbolic || o.c == 'S'
		reusable = reusable || o.c == 'p'
	}
	if len(args) == 0 {
		m := r.umask()
		if reusable {
			fmt.Fprint(r.out(), "umask ")
			if symbolic {
				fmt.Fprint(r.out(), "-S ")
			}
		}
		if symbolic {
			perm := func(shift uint) string {
				v := (^m >> shift) & 7
				s := ""
				if v&4 != 0 {
					s += "r"
				}
				if v&2 != 0 {
					s += "w"
				}
				if v&1 != 0 {
					s += "x"
				}
				return s
			}
			fmt.Fprintf(r.out(), "u=%s,g=%s,o=%s\n", perm(6), perm(3), perm(0))
		} else {
			fmt.Fprintf(r.out(), "%04o\n", m)
		}
		return 0
	}
	n, err := strconv.ParseUint(args[0], 8, 32)
	if err != nil || n > 0o777 {
		r.builtinErr("umask", "%s: octal number out of range", args[0])
		return 1
	}
	r.umaskBits = uint32(n)
	return 0
}

func (r *Runner) umask() uint32 { return r.umaskBits }

// helpTopic is one of bash's help topics (helptopics.go).
type helpTopic struct{ name, synopsis, desc string }

// biHelp is bash 5.2's help: the list of topics in two columns, and for
// each PATTERN (an exact name or glob, else a prefix) the synopsis (-s),
// the description line (-d), or both (no option; -m as a manual page).
// Only the synopses and one-line descriptions are carried, so `help cd`
// prints the first two lines of what bash prints, not its long text.
func (r *Runner) biHelp(_ context.Context, args []string) int {
	opts, pats, ok := r.parseOpts(args, "dms")
	if !ok {
		return 2
	}
	var dflag, mflag, sflag bool
	for _, o := range opts {
		switch o.c {
		case 'd':
			dflag = true
		case 'm':
			mflag = true
		case 's':
			sflag = true
		}
	}
	w := r.out()
	if len(pats) == 0 {
		helpList(w)
		return 0
	}
	if hasGlobChars(pats[0]) {
		kw := "keyword"
		if len(pats) > 1 {
			kw = "keywords"
		}
		fmt.Fprintf(w, "Shell commands matching %s `%s'\n\n", kw, strings.Join(pats, ", "))
	}
	found := 0
	pattern := ""
	for _, pattern = range pats {
		for pass := 1; pass < 3; pass++ {
			this := false
			for _, t := range helpTopics {
				var m bool
				if pass == 1 {
					m = pattern == t.name || r.matchPattern(pattern, t.name)
				} else {
					m = strings.HasPrefix(t.name, pattern)
				}
				if !m {
					continue
				}
				this = true
				found++
				switch {
				case dflag:
					fmt.Fprintf(w, "%s - %s\n", t.name, t.desc)
				case mflag:
					fmt.Fprintf(w, "NAME\n    %s - %s\n\nSYNOPSIS\n    %s\n\n", t.name, t.desc, t.synopsis)
				case sflag:
					fmt.Fprintf(w, "%s: %s\n", t.name, t.synopsis)
				default:
					fmt.Fprintf(w, "%s: %s\n    %s\n", t.name, t.synopsis, t.desc)
				}
			}
			if pass == 1 && this {
				break
			}
		}
	}
	if found == 0 {
		r.builtinErr("help", "no help topics match `%s'.  Try `help help' or `man -k %s' or `info %s'.", pattern, pattern, pattern)
		return 1
	}
	return 0
}

// helpList prints bash's `help` with no argument: a header and every
// topic's synopsis in two columns of 40, a long one cut with '>'.
func helpList(w io.Writer) {
	fmt.Fprintf(w, "GNU bash, version %s (x86_64-pc-linux-gnu)\n", bashVersion)
	fmt.Fprint(w, "These shell commands are defined internally.  Type `help' to see this list.\n"+
		"Type `help name' to find out more about the function `name'.\n"+
		"Use `info bash' to find out more about the shell in general.\n"+
		"Use `man -k' or `info' to find out more about commands not in this list.\n\n"+
		"A star (*) next to a name means that the command is disabled.\n\n")
	const width = 40
	// bash keeps one byte less of the second column (its buffer ends a
	// byte earlier).
	cell := func(s string, keep int) string {
		if len(s) >= keep {
			s = s[:keep] + ">"
		}
		return " " + s
	}
	n := len(helpTopics)
	height := (n + 1) / 2
	var b strings.Builder
	for i := 0; i < height; i++ {
		b.Reset()
		c := cell(helpTopics[i].synopsis, width-3)
		b.WriteString(c)
		if i+height < n {
			b.WriteString(strings.Repeat(" ", width-len(c)))
			b.WriteString(cell(helpTopics[i+height].synopsis, width-4))
		}
		b.WriteByte('\n')
		io.WriteString(w, b.String())
	}
}

// hasGlobChars reports whether s has a glob character, as bash's
// glob_pattern_p decides for help's heading.
func hasGlobChars(s string) bool { return strings.ContainsAny(s, "*?[") }

func (r *Runner) biEnable(_ context.Context, args []string) int {
	if len(args) == 1 || args[1] == "-a" || args[1] == "-p" {
		for _, name := range builtinNames {
			fmt.Fprintf(r.out(), "enable %s\n", name)
		}
		return 0
	}
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-") {
			if a == "-f" {
				r.builtinErr("enable", "-f: restricted: cannot load builtins")
				return 1
			}
			continue
		}
		if !isShellBuiltin(a) {
			r.builtinErr("enable", "%s: not a shell builtin", a)
			return 1
		}
	}
	return 0
}

// IsBuiltin reports whether name is a shell builtin (as `type` would
// say), for callers that treat builtins apart, like a policy.
func IsBuiltin(name string) bool { return isShellBuiltin(name) }
