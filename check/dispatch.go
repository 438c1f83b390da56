package check

import (
	"path"
	"regexp"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// dispatch looks into commands that run other commands or shell text.
func (c *checker) dispatch(name string, args []*syntax.Word, fr frame) {
	switch name {
	case "eval":
		c.evalCmd(args, fr)
	case "source", ".":
		if len(args) < 2 {
			return
		}
		if p, ok := Literal(args[1]); ok {
			c.add(fr, args[1], Info, "source-file", "%s reads %s, which this check does not read: check it too", name, p)
		} else {
			// A script's own library ("$(dirname "$0")/lib.sh"): the
			// file is not read here, like a literal one, and what it runs
			// meets the gateway at run time. A reviewer should look.
			c.add(fr, args[1], Warning, "source-computed", "%s of a computed path %s: the file is not checked", name, wordText(args[1]))
		}
	case "bash", "sh":
		c.shellCmd(name, args, fr)
	case "trap":
		c.trapCmd(args, fr)
	case "alias":
		c.aliasCmd(args, fr)
	case "awk", "gawk", "mawk", "nawk":
		c.awkCmd(name, args, fr)
	case "sed":
		c.sedCmd(args, fr)
	case "find":
		c.findCmd(args, fr)
	case "env", "xargs", "timeout", "nice", "nohup", "command", "exec", "builtin", "stdbuf", "setsid":
		c.wrapper(name, args, fr)
	}
}

func (c *checker) evalCmd(args []*syntax.Word, fr frame) {
	if len(args) < 2 {
		return
	}
	var parts []string
	for _, w := range args[1:] {
		v, ok := Literal(w)
		if !ok {
			c.add(fr, w, Error, "eval-computed", "eval of computed text %s cannot be checked", wordText(w))
			return
		}
		parts = append(parts, v)
	}
	c.add(fr, args[0], Warning, "eval", "eval runs text as commands; its literal text is checked")
	var w *syntax.Word
	if len(args) == 2 {
		w = args[1] // positions inside one word map exactly
	}
	c.nested(strings.Join(parts, " "), args[1], w, fr, "eval text")
}

// shellCmd checks bash/sh: -c text is checked; a script file is named;
// no operand means commands come from standard input (curl … | sh).
func (c *checker) shellCmd(name string, args []*syntax.Word, fr frame) {
	for i := 1; i < len(args); i++ {
		v, ok := Literal(args[i])
		if !ok {
			if i == len(args)-1 {
				// bash "$t": the last word is the script to run (or an
				// option, and then commands come from standard input).
				c.add(fr, args[i], Warning, "shell-file-computed", "%s runs a computed script path %s: the file is not checked", name, wordText(args[i]))
				return
			}
			c.add(fr, args[i], Error, "shell-computed", "%s with a computed argument %s cannot be checked", name, wordText(args[i]))
			return
		}
		switch {
		case v == "--" || v == "-":
			if i+1 < len(args) && v == "--" {
				c.shellFile(name, args[i+1], fr)
				return
			}
			c.add(fr, args[0], Error, "shell-stdin", "%s reads its commands from standard input, which cannot be checked", name)
			return
		case v == "-o" || v == "+o" || v == "-O" || v == "+O" || v == "--rcfile" || v == "--init-file":
			i++
		case strings.HasPrefix(v, "--"):
		case len(v) > 1 && (v[0] == '-' || v[0] == '+'):
			if strings.Contains(v[1:], "c") && v[0] == '-' {
				if i+1 >= len(args) {
					return // bash's own error: -c needs an argument
				}
				text, ok := Literal(args[i+1])
				if !ok {
					c.add(fr, args[i+1], Error, "shell-computed", "%s -c of computed text %s cannot be checked", name, wordText(args[i+1]))
					return
				}
				c.nested(text, args[i+1], args[i+1], fr, name+" -c text")
				return
			}
			if strings.Contains(v[1:], "s") {
				c.add(fr, args[0], Error, "shell-stdin", "%s reads its commands from standard input, which cannot be checked", name)
				return
			}
		default:
			c.shellFile(name, args[i], fr)
			return
		}
	}
	c.add(fr, args[0], Error, "shell-stdin", "%s reads its commands from standard input, which cannot be checked", name)
}

func (c *checker) shellFile(name string, w *syntax.Word, fr frame) {
	if p, ok := Literal(w); ok {
		c.add(fr, w, Info, "source-file", "%s runs the script %s, which this check does not read: check it too", name, p)
		return
	}
	c.add(fr, w, Warning, "shell-file-computed", "%s runs a computed script path %s: the file is not checked", name, wordText(w))
}

func (c *checker) trapCmd(args []*syntax.Word, fr frame) {
	if len(args) < 3 {
		return // trap, trap -p, trap -l: nothing is set
	}
	i := 1
	if v, ok := Literal(args[1]); ok && v == "--" {
		i++
	}
	if v, ok := Literal(args[i]); ok && (strings.HasPrefix(v, "-") && len(v) > 1) {
		return // -p/-l list; "-" alone resets
	}
	text, ok := Literal(args[i])
	if !ok {
		c.add(fr, args[i], Error, "trap-computed", "trap with computed text %s cannot be checked", wordText(args[i]))
		return
	}
	if text == "-" || text == "" {
		return
	}
	c.nested(text, args[i], args[i], fr, "trap text")
}

func (c *checker) aliasCmd(args []*syntax.Word, fr frame) {
	for _, w := range args[1:] {
		v, ok := Literal(w)
		if !ok {
			c.add(fr, w, Error, "alias-computed", "alias with computed text %s cannot be checked", wordText(w))
			continue
		}
		name, val, found := strings.Cut(v, "=")
		if !found || strings.HasPrefix(v, "-") {
			continue // lists an alias
		}
		c.aliases[name] = true
		c.add(fr, w, Warning, "alias", "alias %s replaces a command name with text; its text is checked", name)
		c.nested(val, w, nil, fr, "alias "+name)
	}
}

// wrapper follows env, xargs, timeout, nice, nohup, command, exec,
// builtin, stdbuf and setsid to the command they run.
func (c *checker) wrapper(name string, args []*syntax.Word, fr frame) {
	i := 1
	replace := "" // xargs -I's replace string
	for ; i < len(args); i++ {
		v, ok := Literal(args[i])
		if !ok {
			break // the command word itself, computed: reported below
		}
		if name == "xargs" {
			switch {
			case v == "-I" && i+1 < len(args):
				replace, _ = Literal(args[i+1])
			case strings.HasPrefix(v, "-I") && len(v) > 2:
				replace = v[2:]
			case v == "-i" || v == "--replace":
				replace = "{}"
			case strings.HasPrefix(v, "--replace="):
				replace = strings.TrimPrefix(v, "--replace=")
			}
		}
		if v == "--" {
			i++
			break
		}
		if name == "env" && strings.Contains(v, "=") && !strings.HasPrefix(v, "-") {
			continue // NAME=VALUE
		}
		if len(v) < 2 || v[0] != '-' {
			if name == "timeout" {
				i++ // the duration
			}
			break
		}
		if takesArg(name, v) {
			i++
		}
		if name == "env" && (v == "-S" || strings.HasPrefix(v, "--split-string")) {
			c.add(fr, args[i-1], Error, "wrapper-computed", "env -S splits a string into a command line, which cannot be checked")
			return
		}
		if name == "command" && strings.ContainsAny(v, "vV") {
			return // command -v/-V only looks the name up
		}
	}
	if i >= len(args) {
		if name == "xargs" {
			c.record("echo", Known("echo"), args[0], fr) // xargs runs echo by default
		}
		return
	}
	if _, ok := Literal(args[i]); !ok {
		c.add(fr, args[i], Error, "wrapper-computed", "%s runs a computed command %s, which cannot be checked", name, wordText(args[i]))
		return
	}
	rest := args[i:]
	if name == "xargs" {
		c.xargsShell(replace, rest, fr)
	}
	if name == "builtin" {
		n, _ := Literal(rest[0])
		c.record(n, "builtin", rest[0], fr)
		c.applyPolicy(n, "builtin", rest, fr)
		c.dispatch(n, rest, fr)
		return
	}
	if name == "command" {
		// command skips functions and aliases.
		n, _ := Literal(rest[0])
		if k := Known(n); k == "builtin" {
			c.record(n, k, rest[0], fr)
			c.applyPolicy(n, k, rest, fr)
			c.dispatch(n, rest, fr)
			return
		}
	}
	c.call(rest, fr)
}

// xargsShell reports xargs running a shell: its input becomes code when
// xargs -I substitutes it into the -c text (an error: a file named
// '$(rm -rf ~)' runs), and is worth a look otherwise (a shell per batch
// of input words).
func (c *checker) xargsShell(replace string, rest []*syntax.Word, fr frame) {
	n, _ := Literal(rest[0])
	if n = path.Base(n); n != "sh" && n != "bash" {
		return
	}
	for j := 1; j+1 < len(rest); j++ {
		v, _ := Literal(rest[j])
		if len(v) > 1 && v[0] == '-' && !strings.HasPrefix(v, "--") && strings.Contains(v, "c") {
			text, ok := Literal(rest[j+1])
			if ok && replace != "" && strings.Contains(text, replace) {
				c.add(fr, rest[0], Error, "xargs-shell-input", "xargs -I %s puts its input into the %s -c text: input becomes code", replace, n)
				return
			}
			break
		}
	}
	c.add(fr, rest[0], Warning, "xargs-shell", "xargs runs %s on its input: check what the input can hold", n)
}

// takesArg reports whether a wrapper's option consumes the next word.
func takesArg(name, opt string) bool {
	if strings.HasPrefix(opt, "--") {
		return false // --opt=value, or a flag
	}
	last := opt[len(opt)-1:]
	switch name {
	case "env":
		return strings.ContainsAny(last, "uC")
	case "xargs":
		return len(opt) == 2 && strings.ContainsAny(last, "IndLPsaE")
	case "timeout":
		return strings.ContainsAny(last, "sk")
	case "nice":
		return last == "n"
	case "exec":
		return last == "a"
	case "stdbuf":
		return len(opt) == 2 && strings.ContainsAny(last, "ioe")
	}
	return false
}

// findCmd follows find's -exec, -execdir, -ok and -okdir to their command.
func (c *checker) findCmd(args []*syntax.Word, fr frame) {
	for i := 1; i < len(args); i++ {
		v, _ := Literal(args[i])
		if v != "-exec" && v != "-execdir" && v != "-ok" && v != "-okdir" {
			continue
		}
		j := i + 1
		for j < len(args) {
			t, ok := Literal(args[j])
			if ok && (t == ";" || t == "+") {
				break
			}
			j++
		}
		if i+1 < j {
			if _, ok := Literal(args[i+1]); !ok {
				c.add(fr, args[i+1], Error, "wrapper-computed", "find %s runs a computed command %s, which cannot be checked", v, wordText(args[i+1]))
			} else {
				c.call(args[i+1:j], fr)
			}
		}
		i = j
	}
}

// awkProgram finds awk's program text: the first operand after the
// options, or -f FILE.
func awkProgram(args []*syntax.Word) (w *syntax.Word, fromFile bool) {
	for i := 1; i < len(args); i++ {
		v, ok := Literal(args[i])
		if !ok {
			return args[i], false
		}
		switch {
		case v == "--":
			if i+1 < len(args) {
				return args[i+1], false
			}
			return nil, false
		case v == "-f" || strings.HasPrefix(v, "-f") || strings.HasPrefix(v, "--file"):
			return args[i], true
		case v == "-F" || v == "-v":
			i++
		case strings.HasPrefix(v, "-") && len(v) > 1:
		default:
			return args[i], false
		}
	}
	return nil, false
}

// awkRegexps are compiled on the first awk program checked, not at
// start-up: every sandsh process (the worker too) links this package, and
// most runs never check an awk program.
type awkRes struct{ systemLit, system, pipeLit, pipe *regexp.Regexp }

var awkRegexps = sync.OnceValue(func() awkRes {
	return awkRes{
		systemLit: regexp.MustCompile(`\bsystem\s*\(\s*"((?:[^"\\]|\\.)*)"\s*\)`),
		system:    regexp.MustCompile(`\bsystem\s*\(`),
		pipeLit:   regexp.MustCompile(`"((?:[^"\\]|\\.)*)"\s*\|\s*getline|[^|]\|\s*"((?:[^"\\]|\\.)*)"`),
		pipe:      regexp.MustCompile(`\|\s*getline|(?:print|printf)[^;{}|]*[^|]\|[^|&]`),
	}
})

// awkCmd checks the commands an awk program runs: system("…"), "…" |
// getline and print | "…"; any other system() or pipe runs computed text.
func (c *checker) awkCmd(name string, args []*syntax.Word, fr frame) {
	w, fromFile := awkProgram(args)
	if w == nil {
		return
	}
	if fromFile {
		c.add(fr, w, Warning, "awk-file", "%s reads its program from a file this check does not read", name)
		return
	}
	prog, ok := Literal(w)
	if !ok {
		c.add(fr, w, Error, "awk-computed", "%s program %s is computed and may run commands (system, pipes)", name, wordText(w))
		return
	}
	re := awkRegexps()
	rest := re.systemLit.ReplaceAllStringFunc(prog, func(m string) string {
		sub := re.systemLit.FindStringSubmatch(m)
		c.nested(awkUnquote(sub[1]), w, nil, fr, name+" system() text")
		return ""
	})
	if re.system.MatchString(rest) {
		c.add(fr, w, Error, "awk-system-computed", "%s calls system() with computed text, which cannot be checked", name)
	}
	rest = re.pipeLit.ReplaceAllStringFunc(rest, func(m string) string {
		sub := re.pipeLit.FindStringSubmatch(m)
		c.nested(awkUnquote(sub[1]+sub[2]), w, nil, fr, name+" pipe command")
		return ""
	})
	if re.pipe.MatchString(rest) {
		c.add(fr, w, Error, "awk-system-computed", "%s pipes to or from a computed command, which cannot be checked", name)
	}
}

func awkUnquote(s string) string {
	r := strings.NewReplacer(`\\`, `\`, `\"`, `"`, `\n`, "\n", `\t`, "\t")
	return r.Replace(s)
}

// sedCmd checks sed's e command and s///e flag (GNU), which run text as
// a shell command.
func (c *checker) sedCmd(args []*syntax.Word, fr frame) {
	var scripts []*syntax.Word
	explicit := false
	for i := 1; i < len(args); i++ {
		v, ok := Literal(args[i])
		switch {
		case !ok:
			if !explicit && len(scripts) == 0 {
				scripts = append(scripts, args[i])
			}
			continue
		case v == "-e" || v == "--expression":
			if i+1 < len(args) {
				scripts = append(scripts, args[i+1])
				explicit = true
				i++
			}
		case strings.HasPrefix(v, "--expression="):
			scripts = append(scripts, args[i])
			explicit = true
		case v == "-f" || strings.HasPrefix(v, "--file"):
			c.add(fr, args[i], Warning, "sed-file", "sed reads its script from a file this check does not read")
			explicit = true
			i++
		case strings.HasPrefix(v, "-") && len(v) > 1:
		default:
			if !explicit && len(scripts) == 0 {
				scripts = append(scripts, args[i])
			}
		}
	}
	for _, w := range scripts {
		text, ok := Literal(w)
		if !ok {
			c.add(fr, w, Error, "sed-computed", "sed script %s is computed and may run commands (the e command)", wordText(w))
			continue
		}
		text = strings.TrimPrefix(text, "--expression=")
		for _, e := range sedExecs(text) {
			if e.cmd == "" {
				c.add(fr, w, Error, "sed-e-computed", "sed %s runs text made at run time as a command, which cannot be checked", e.what)
			} else {
				c.nested(e.cmd, w, nil, fr, "sed e command")
			}
		}
	}
}

type sedExec struct{ what, cmd string }

// sedExecs scans a sed script for e commands and s///e: an `e command`
// runs its literal command; a bare `e` and the e flag run the pattern
// space, which is computed.
func sedExecs(s string) []sedExec {
	var out []sedExec
	i := 0
	for i < len(s) {
		// Skip blanks, separators and addresses.
		for i < len(s) && strings.IndexByte(" \t\n;{}!,0123456789$~+", s[i]) >= 0 {
			i++
		}
		if i >= len(s) {
			break
		}
		switch ch := s[i]; ch {
		case '/', '\\':
			d := byte('/')
			if ch == '\\' && i+1 < len(s) {
				i++
				d = s[i]
			}
			i = sedSkipDelim(s, i+1, d)
			for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
			continue
		case '#', ':', 'b', 't', 'T', 'a', 'i', 'c', 'r', 'R', 'w', 'W':
			i = sedEOL(s, i)
		case 'e':
			end := sedEOL(s, i)
			cmd := strings.TrimSpace(s[i+1 : end])
			if cmd == "" {
				out = append(out, sedExec{what: "e (the pattern space)"})
			} else {
				out = append(out, sedExec{what: "e", cmd: cmd})
			}
			i = end
		case 's', 'y':
			if i+1 >= len(s) {
				return out
			}
			d := s[i+1]
			i = sedSkipDelim(s, i+2, d)
			i = sedSkipDelim(s, i, d)
			fl := i
			for i < len(s) && strings.IndexByte(";\n}", s[i]) < 0 {
				if s[i] == 'w' {
					i = sedEOL(s, i)
					break
				}
				i++
			}
			if ch == 's' && strings.Contains(s[fl:i], "e") {
				out = append(out, sedExec{what: "s///e (the pattern space)"})
			}
		default:
			i++
		}
	}
	return out
}

// sedSkipDelim returns the index after the next unescaped d from i.
func sedSkipDelim(s string, i int, d byte) int {
	for i < len(s) {
		if s[i] == '\\' {
			i += 2
			continue
		}
		if s[i] == d {
			return i + 1
		}
		i++
	}
	return len(s)
}

func sedEOL(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(s)
}
