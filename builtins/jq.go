package builtins

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sandsh/sandsh/builtins/internal/jq"
)

const dataJqUsage = `Usage:	jq [OPTIONS] FILTER [FILES...]
	jq [OPTIONS] --args FILTER [STRINGS...]
	jq [OPTIONS] --jsonargs FILTER [JSON_TEXTS...]

jq is a tool for processing JSON inputs, applying the given filter to
its JSON text inputs and producing the filter's results as JSON on
standard output.

Some of the options include:
  -c               compact instead of pretty-printed output;
  -n               use ` + "`null`" + ` as the single input value;
  -e               set the exit status code based on the output;
  -s               read (slurp) all inputs into an array; apply filter to it;
  -r               output raw strings, not JSON texts;
  -j               like -r but without a newline after each output;
  -a               output non-ASCII characters as \uXXXX escapes;
  -S               sort keys of objects on output;
  -C, -M           accepted; output is never colored;
  -R               read raw lines instead of JSON texts;
  -f FILE          read the filter from FILE;
  --tab            use tabs for indentation;
  --indent n       use n spaces for indentation (max 7 spaces);
  --arg a v        set variable $a to value <v>;
  --argjson a v    set variable $a to JSON value <v>;
  --slurpfile a f  set variable $a to an array of JSON texts read from <f>;
  --rawfile a f    set variable $a to a string consisting of the contents of <f>;
  --args           remaining arguments are string arguments, not files;
  --jsonargs       remaining arguments are JSON arguments, not files;
  --               terminates argument processing;
`

// dataJqShort maps jq's single-letter flags to their long names.
func dataJqShort(c byte) (string, bool) {
	const letters = "srjanRcCMSefhL"
	names := [...]string{"slurp", "raw-output", "join-output", "ascii-output",
		"null-input", "raw-input", "compact-output", "color-output",
		"monochrome-output", "sort-keys", "exit-status", "from-file", "help", "L"}
	if i := strings.IndexByte(letters, c); i >= 0 {
		return names[i], true
	}
	return "", false
}

// dataJqArgs is the parsed jq command line.
type dataJqArgs struct {
	cfg      jq.Config
	fromFile bool
	compact  bool
	indent   int
	program  *string
	posMode  string // "", "args" or "jsonargs"
}

func runJq(ctx context.Context, env *Env, args []string) int {
	a := &dataJqArgs{indent: 2}
	a.cfg.Session = jq.NewSession()
	if st, ok := dataJqParseArgs(env, a, args[1:]); !ok {
		return st
	}
	cfg := &a.cfg
	if a.program == nil {
		dot := "." // jq's default filter when not on a terminal
		a.program = &dot
	}
	cfg.Program = *a.program
	if a.fromFile {
		b, err := dataJqReadFile(env, *a.program)
		if err != nil {
			env.Errorf("jq", "error: Could not open %s: %s", *a.program, ErrText(err))
			return 2
		}
		cfg.Program = string(b)
	}
	cfg.Indent = a.indent
	if a.compact {
		cfg.Indent, cfg.Tab = 0, false
	}
	cfg.Stdin, cfg.Stdout, cfg.Stderr = env.Stdin, env.Stdout, env.Stderr
	cfg.Open = func(name string) (io.ReadCloser, error) {
		if name == "-" {
			return io.NopCloser(env.Stdin), nil
		}
		return env.Open(name)
	}
	cfg.Environ = env.Environ
	cfg.MaxInput = env.InputMax()
	cfg.Now = env.System().Now
	cfg.ErrText = ErrText
	st := jq.Run(ctx, cfg)
	if cfg.WriteFailed != nil {
		return env.WriteError("jq", cfg.WriteFailed)
	}
	return st
}

func dataJqReadFile(env *Env, name string) ([]byte, error) {
	f, err := env.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// dataJqParseArgs follows jq 1.6's own parser: flags anywhere, the first
// operand is the filter, the rest are files or --args values.
func dataJqParseArgs(env *Env, a *dataJqArgs, args []string) (int, bool) {
	cfg := &a.cfg
	usage := func(format string, x ...any) (int, bool) {
		fmt.Fprintf(env.Stderr, "jq: "+format+"\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq\n", x...)
		return 2, false
	}
	endOpts := false
	for i := 0; i < len(args); i++ {
		arg := args[i]
		// Like jq, only "-" followed by a letter or "-" is an option, so
		// a filter such as "-1 | abs" is an operand.
		if endOpts || len(arg) < 2 || arg[0] != '-' || !(arg[1] == '-' || dataIsAlpha(arg[1])) {
			if st, ok := dataJqOperand(env, a, arg); !ok {
				return st, false
			}
			continue
		}
		if arg == "--" {
			endOpts = true
			continue
		}
		var names []string
		if strings.HasPrefix(arg, "--") {
			names = []string{arg[2:]}
		} else {
			for j := 1; j < len(arg); j++ {
				n, ok := dataJqShort(arg[j])
				if !ok {
					return usage("Unknown option: %s", arg)
				}
				names = append(names, n)
			}
		}
		for _, name := range names {
			need := func(n int, what string) ([]string, bool) {
				if i+n >= len(args) {
					return nil, false
				}
				vals := args[i+1 : i+1+n]
				i += n
				return vals, true
			}
			switch name {
			case "slurp":
				cfg.Slurp = true
			case "raw-output":
				cfg.RawOutput = true
			case "join-output":
				cfg.RawOutput, cfg.JoinOutput = true, true
			case "ascii-output":
				cfg.ASCII = true
			case "null-input":
				cfg.NullInput = true
			case "raw-input":
				cfg.RawInput = true
			case "compact-output":
				a.compact = true
			case "color-output", "monochrome-output", "unbuffered":
			case "sort-keys":
				cfg.SortKeys = true
			case "exit-status":
				cfg.ExitStatus = true
			case "from-file":
				a.fromFile = true
			case "tab":
				cfg.Tab, a.indent = true, 1
			case "args", "jsonargs":
				a.posMode = name
			case "L":
				if _, ok := need(1, ""); !ok {
					return usage("-L takes a parameter: (e.g. -L /search/path or -L/search/path)")
				}
			case "indent":
				v, ok := need(1, "")
				if !ok {
					return usage("--indent takes one parameter")
				}
				n, err := strconv.Atoi(v[0])
				if err != nil || n < -1 || n > 7 {
					return usage("--indent takes a number between -1 and 7")
				}
				cfg.Tab = false
				a.indent = n
				if n == -1 {
					a.indent, cfg.Tab = 1, true
				}
			case "arg":
				v, ok := need(2, "")
				if !ok {
					return usage("--arg takes two parameters (e.g. --arg varname value)")
				}
				cfg.Named = append(cfg.Named, jq.Var{Name: v[0], Value: v[1]})
			case "argjson":
				v, ok := need(2, "")
				if !ok {
					return usage("--argjson takes two parameters (e.g. --argjson varname text)")
				}
				x, err := a.cfg.Session.ParseJSON(v[1])
				if err != nil {
					return usage("Invalid JSON text passed to --argjson")
				}
				cfg.Named = append(cfg.Named, jq.Var{Name: v[0], Value: x})
			case "slurpfile", "rawfile":
				v, ok := need(2, "")
				if !ok {
					return usage("--%s takes two parameters (e.g. --%s varname filename)", name, name)
				}
				x, err := dataJqLoadFile(env, a, v[1], name == "rawfile")
				if err != nil {
					fmt.Fprintf(env.Stderr, "jq: Bad JSON in --%s %s %s: %v\n", name, v[0], v[1], err)
					return 2, false
				}
				cfg.Named = append(cfg.Named, jq.Var{Name: v[0], Value: x})
			case "help":
				fmt.Fprint(env.Stdout, dataJqUsage)
				return 0, false
			case "version":
				fmt.Fprintln(env.Stdout, "jq-1.6")
				return 0, false
			default:
				return usage("Unknown option: %s", arg)
			}
		}
	}
	return 0, true
}

func dataJqOperand(env *Env, a *dataJqArgs, arg string) (int, bool) {
	cfg := &a.cfg
	switch {
	case a.program == nil:
		a.program = &arg
	case a.posMode == "args":
		cfg.Positional = append(cfg.Positional, arg)
	case a.posMode == "jsonargs":
		x, err := a.cfg.Session.ParseJSON(arg)
		if err != nil {
			fmt.Fprintf(env.Stderr, "jq: Invalid JSON text passed to --jsonargs\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq\n")
			return 2, false
		}
		cfg.Positional = append(cfg.Positional, x)
	default:
		cfg.Files = append(cfg.Files, arg)
	}
	return 0, true
}

// dataJqLoadFile reads a --rawfile (one string) or --slurpfile (an array of
// every JSON value in the file).
func dataJqLoadFile(env *Env, a *dataJqArgs, name string, raw bool) (any, error) {
	b, err := dataJqReadFile(env, name)
	if err != nil {
		return nil, fmt.Errorf("Could not open %s: %s", name, ErrText(err))
	}
	if raw {
		return string(jq.ToValidUTF8IfNeeded(b)), nil
	}
	return a.cfg.Session.ParseAll(b)
}

func dataIsAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
