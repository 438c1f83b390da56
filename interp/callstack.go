package interp

import (
	"context"
	"fmt"
	"strconv"

	"github.com/sandsh/sandsh/interp/internal/expand"
)

// The call stack as bash shows it: FUNCNAME, BASH_SOURCE and BASH_LINENO
// are parallel arrays with the innermost call first. Each function call
// and each `source` is one entry; a script file adds a bottom entry
// ("main", the script, line 0), while -c text and standard input do not.
// BASH_SOURCE of a function is the file it was defined in ("environment"
// for -c text and imported functions, "main" for standard input);
// FUNCNAME is visible only while a function runs.

// setFuncSource records where a function was defined.
func (r *Runner) setFuncSource(name, source string, line uint) {
	if r.funcLine == nil {
		r.funcLine = map[string]uint{}
	}
	r.funcLine[name] = line
	if source == "" || !r.scriptFile && source == r.mainSource {
		// Defined in -c text ("environment") or in a script read from
		// standard input or at a prompt ("main"), as bash names them.
		if source == "" || r.cmdString {
			source = "environment"
		} else {
			source = "main"
		}
	}
	if r.funcSource == nil {
		r.funcSource = map[string]string{}
	}
	r.funcSource[name] = source
}

// inFunction reports whether a shell function is running.
func (r *Runner) inFunction() bool {
	for _, f := range r.frames {
		if f.funcName != "source" {
			return true
		}
	}
	return false
}

// callStack returns FUNCNAME, BASH_SOURCE and BASH_LINENO.
func (r *Runner) callStack() (names, sources, lines []string) {
	n := len(r.frames) + 1
	names, sources, lines = make([]string, 0, n), make([]string, 0, n), make([]string, 0, n)
	for i := len(r.frames) - 1; i >= 0; i-- {
		f := r.frames[i]
		names = append(names, f.funcName)
		sources = append(sources, f.source)
		lines = append(lines, strconv.Itoa(int(f.callLine)))
	}
	if r.scriptFile {
		names = append(names, "main")
		sources = append(sources, r.mainSource)
		lines = append(lines, "0")
	}
	return names, sources, lines
}

// stackVar serves FUNCNAME, BASH_SOURCE, BASH_LINENO, BASH_ARGV and
// BASH_ARGC.
func (r *Runner) stackVar(name string) expand.Variable {
	arr := func(list []string) expand.Variable {
		return expand.Variable{Set: true, Kind: expand.Indexed, List: list}
	}
	switch name {
	case "FUNCNAME":
		if !r.inFunction() {
			return expand.Variable{}
		}
		names, _, _ := r.callStack()
		return arr(names)
	case "BASH_SOURCE":
		_, sources, _ := r.callStack()
		return arr(sources)
	case "BASH_LINENO":
		_, _, lines := r.callStack()
		return arr(lines)
	}
	// BASH_ARGV and BASH_ARGC: kept only in extended debugging mode.
	argv, argc := []string{}, []string{}
	if r.opts.extdebug {
		add := func(args []string) {
			argc = append(argc, strconv.Itoa(len(args)))
			for i := len(args) - 1; i >= 0; i-- {
				argv = append(argv, args[i])
			}
		}
		for i := len(r.frames) - 1; i >= 0; i-- {
			add(r.frames[i].args)
		}
		add(r.scriptArgs)
	}
	if name == "BASH_ARGV" {
		return arr(argv)
	}
	return arr(argc)
}

// biCaller is bash's caller: "LINE FILE" of the current call without an
// argument, "LINE FUNC FILE" of the N-th frame up with one.
func (r *Runner) biCaller(_ context.Context, args []string) int {
	args, ok := r.noOpts(args)
	if !ok {
		return 2
	}
	names, sources, lines := r.callStack()
	if len(lines) == 0 {
		return 1
	}
	at := func(list []string, i int) (string, bool) {
		if i < len(list) {
			return list[i], true
		}
		return "", false
	}
	if len(args) == 0 {
		src, ok := at(sources, 1)
		if !ok {
			src = "NULL"
		}
		fmt.Fprintf(r.out(), "%s %s\n", lines[0], src)
		return 0
	}
	if !r.inFunction() {
		return 1
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 0 {
		r.builtinErr("caller", "%s: invalid number", args[0])
		fmt.Fprintln(r.fds.writer(2), "caller: usage: caller [expr]")
		return 2
	}
	line, ok1 := at(lines, n)
	fn, ok2 := at(names, n+1)
	src, ok3 := at(sources, n+1)
	if !ok1 || !ok2 || !ok3 {
		return 1
	}
	fmt.Fprintf(r.out(), "%s %s %s\n", line, fn, src)
	return 0
}
