package builtins

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

const envUsage = `Usage: env [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]
Set each NAME to VALUE in the environment and run COMMAND.

  -i, --ignore-environment  start with an empty environment
  -0, --null           end each output line with NUL, not newline
  -u, --unset=NAME     remove variable from the environment
  -C, --chdir=DIR      change working directory to DIR
  -S, --split-string=S  process and split S into separate arguments;
                        used to pass multiple arguments on shebang lines
  -v, --debug          print verbose information for each processing step
      --help     display this help and exit

A mere - implies -i.  If no COMMAND, print the resulting environment.
`

// envStatusUsage is what env, nohup, nice and timeout exit with when they
// fail themselves rather than the command they run.
const envStatusUsage = 125

func runEnv(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	opts, ops, err := envParse(args[1:])
	if err != nil {
		return env.UsageError(name, err, envStatusUsage)
	}
	if shellHelp(env, opts, envUsage) {
		return 0
	}
	sub := env.Sub()
	null, dir, debug := false, "", false
	for _, o := range opts {
		switch o.Name {
		case "i":
			sub.Environ = nil
		case "0":
			null = true
		case "u":
			if o.Value == "" || strings.Contains(o.Value, "=") {
				env.Errorf(name, "cannot unset %s: Invalid argument", shellQuoteGNU(o.Value))
				return envStatusUsage
			}
			sub.Environ = envUnset(sub.Environ, o.Value)
		case "C":
			dir = o.Value
		case "v":
			debug = true
		}
	}
	for len(ops) > 0 && strings.Contains(ops[0], "=") {
		k, _, _ := strings.Cut(ops[0], "=")
		sub.Environ = append(envUnset(sub.Environ, k), ops[0])
		ops = ops[1:]
	}
	if len(ops) == 0 {
		if dir != "" {
			return env.UsageError(name, errors.New("must specify command with --chdir (-C)"), envStatusUsage)
		}
		return envPrint(env, name, sub.Environ, null)
	}
	if null {
		return env.UsageError(name, errors.New("cannot specify --null (-0) with command"), envStatusUsage)
	}
	if dir != "" {
		p := env.Abs(dir)
		fi, err := env.FS.Stat(p)
		if err == nil && !fi.IsDir() {
			err = errors.New("Not a directory")
		}
		if err != nil {
			env.Errorf(name, "cannot change directory to %s: %s", shellQuoteGNU(dir), ErrText(err))
			return envStatusUsage
		}
		sub.Dir = p
	}
	if debug {
		for i, a := range ops {
			fmt.Fprintf(env.Stderr, "argv[%d] = %s\n", i, shellQuoteGNU(a))
		}
	}
	st, found := shellExec(ctx, env, sub, "env", ops)
	if !found {
		env.Errorf(name, "%s: No such file or directory", shellQuoteGNU(ops[0]))
	}
	return st
}

var envGetopt = Getopt{Short: "+i0u:C:S:v", Long: []string{"ignore-environment", "null", "unset=", "chdir=",
	"split-string=", "debug", "help", "default-signal?", "ignore-signal?", "block-signal?", "list-signal-handling"},
	LongAlias: map[string]string{"ignore-environment": "i", "null": "0", "unset": "u", "chdir": "C",
		"split-string": "S", "debug": "v"}}

// envParse parses env's options; -S strings are split into more
// arguments in place, and a lone "-" means -i.
func envParse(args []string) ([]Opt, []string, error) {
	g := envGetopt
	var opts []Opt
	for {
		o, ops, err := g.Parse(args)
		if err != nil {
			return nil, nil, err
		}
		split := -1
		for i, x := range o {
			if x.Name == "S" {
				split = i
				break
			}
		}
		if split < 0 {
			opts = append(opts, o...)
			if len(ops) > 0 && ops[0] == "-" {
				opts = append(opts, Opt{Name: "i"})
				ops = ops[1:]
			}
			return opts, ops, nil
		}
		// Re-parse with the -S words spliced in where the rest begins.
		words, err := envSplitString(o[split].Value)
		if err != nil {
			return nil, nil, err
		}
		opts = append(opts, o[:split]...)
		rest := append(envRestAfterOpts(o[split+1:]), ops...)
		args = append(words, rest...)
	}
}

// envRestAfterOpts turns already-parsed options back into arguments, so
// they can follow -S's words.
func envRestAfterOpts(opts []Opt) []string {
	var out []string
	for _, o := range opts {
		if len(o.Name) == 1 {
			out = append(out, "-"+o.Name)
		} else {
			out = append(out, "--"+o.Name)
		}
		if o.HasValue {
			out = append(out, o.Value)
		}
	}
	return out
}

// envSplitString splits a -S string like GNU env: whitespace separates,
// '...' is literal, "..." and bare words take backslash escapes, \_ is a
// space, \c ends the string and # starts a comment.
func envSplitString(s string) ([]string, error) {
	var words []string
	var cur []byte
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, string(cur))
		}
		cur, inWord = cur[:0], false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
			flush()
		case c == '#' && !inWord:
			return words, nil
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("no terminating quote in -S string")
			}
			cur = append(cur, s[i+1:i+1+j]...)
			inWord = true
			i += j + 1
		case c == '"':
			inWord = true
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
					b, stop, err := envEscape(s[i], true)
					if err != nil {
						return nil, err
					}
					if stop {
						flush()
						return words, nil
					}
					cur = append(cur, b...)
					continue
				}
				cur = append(cur, s[i])
			}
			if i >= len(s) {
				return nil, errors.New("no terminating quote in -S string")
			}
		case c == '\\' && i+1 < len(s):
			i++
			b, stop, err := envEscape(s[i], false)
			if err != nil {
				return nil, err
			}
			if stop {
				flush()
				return words, nil
			}
			cur = append(cur, b...)
			inWord = true
		case c == '$' && i+1 < len(s) && s[i+1] == '{':
			return nil, errors.New("only ${VARNAME} expansion is supported, error at: " + s[i:])
		default:
			cur = append(cur, c)
			inWord = true
		}
	}
	flush()
	return words, nil
}

func envEscape(c byte, quoted bool) ([]byte, bool, error) {
	switch c {
	case '_':
		return []byte{' '}, false, nil
	case 'c':
		return nil, true, nil
	case 'f', 'n', 'r', 't', 'v':
		return []byte{shellSimpleEscape(c)}, false, nil
	case '\\', '\'', '"', '#', '$', ' ':
		return []byte{c}, false, nil
	}
	return nil, false, fmt.Errorf("invalid sequence '\\%c' in -S", c)
}

// envUnset returns environ without any NAME=... entry.
func envUnset(environ []string, name string) []string {
	out := environ[:0:0]
	for _, kv := range environ {
		if k, _, _ := strings.Cut(kv, "="); k != name {
			out = append(out, kv)
		}
	}
	return out
}

func envPrint(env *Env, name string, environ []string, null bool) int {
	end := "\n"
	if null {
		end = "\x00"
	}
	var b strings.Builder
	for _, kv := range environ {
		b.WriteString(kv)
		b.WriteString(end)
	}
	if _, err := io.WriteString(env.Stdout, b.String()); err != nil {
		return env.WriteError(name, err)
	}
	return 0
}

// shellExec runs argv through the gateway for env, nice, nohup, timeout,
// time and xargs. found is false (with status 127) when the gateway has
// nothing to run, so the caller can word the error its own way. In
// restricted mode a missing command goes to the gateway all the same: its
// refusal is the one a direct call gets (same words, same 127), so no
// route hides that the sandbox shows no host programs.
func shellExec(ctx context.Context, env, sub *Env, self string, argv []string) (status int, found bool) {
	if env.Exec == nil {
		return 127, false
	}
	if env.LookPath != nil && !env.Restricted {
		if _, ok := env.LookPath(argv[0]); !ok {
			return 127, false
		}
	}
	return env.Exec(ctx, env.Child(sub, self, self), argv), true
}

// shellHelp prints usage when opts hold --help, for the commands whose
// own arguments the registry must not scan (they run other commands).
func shellHelp(env *Env, opts []Opt, usage string) bool {
	for _, o := range opts {
		if o.Name == "help" {
			io.WriteString(env.Stdout, usage)
			return true
		}
	}
	return false
}
