package builtins

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"sync"

	"github.com/sandsh/sandsh/builtins/internal/awk"
)

const awkUsage = `Usage: awk [POSIX or GNU style options] -f progfile [--] file ...
Usage: awk [POSIX or GNU style options] [--] 'program' file ...
Pattern scanning and text processing language.

POSIX options:          GNU long options:
  -f progfile           --file=progfile
  -F fs                 --field-separator=fs
  -v var=val            --assign=var=val
  -e 'program-text'     --source='program-text'
  -V                    --version

Files and commands are those of the sandbox: getline < file, print > file
and system() never reach the host.
`

// runAwk runs the AWK interpreter (awk, gawk, mawk, nawk).
func runAwk(ctx context.Context, env *Env, args []string) int {
	name := path.Base(args[0])
	inv, status, done := awkParseArgs(env, name, args[1:])
	if done {
		return status
	}
	prog, err := awk.Parse(inv.srcs...)
	if err != nil {
		// Like gawk: the program does not run, and the status is 1.
		awkReportSyntax(env, name, err)
		return 1
	}
	for _, w := range prog.Warnings {
		fmt.Fprintf(env.Stderr, "%s: %s\n", name, w)
	}
	status, err = awk.Run(prog, awkConfig(ctx, env, name, inv))
	if err != nil {
		var oe *awk.OutputError
		if errors.As(err, &oe) {
			return env.WriteError(name, oe.Err)
		}
		env.Errorf(name, "%s", err)
		return 2
	}
	return status
}

// awkInvocation is what the command line asks for.
type awkInvocation struct {
	srcs     []awk.Source
	vars     []string // name, value pairs; -F comes first as FS
	operands []string
}

var awkGetopt = Getopt{
	Short:         "+F:v:f:e:W:V",
	Long:          []string{"field-separator=", "assign=", "file=", "source=", "version", "posix", "traditional", "re-interval", "lint?", "sandbox", "help"},
	LongAlias:     map[string]string{"field-separator": "F", "assign": "v", "file": "f", "source": "e", "version": "V"},
	StopAtOperand: true,
}

// awkParseArgs parses the options up to the program text. done means the
// command is over (--version, --help or an error) with status.
func awkParseArgs(env *Env, name string, args []string) (inv awkInvocation, status int, done bool) {
	g := awkGetopt
	opts, operands, err := g.Parse(args)
	if err != nil {
		return inv, env.UsageError(name, err, 2), true
	}
	fs, hasFS := "", false
	traditional, posix := false, false
	for _, o := range opts {
		switch o.Name {
		case "F":
			fs, hasFS = o.Value, true
		case "traditional":
			traditional = true
		case "posix":
			posix = true
		case "v":
			k, v, ok := strings.Cut(o.Value, "=")
			if !ok || !awkValidName(k) {
				env.Errorf(name, "`%s' argument to `-v' not in `var=value' form", o.Value)
				return inv, 2, true
			}
			inv.vars = append(inv.vars, k, v)
		case "f":
			text, err := awkReadProgFile(env, o.Value)
			if err != nil {
				env.Errorf(name, "fatal: can't open source file `%s' for reading: %s", o.Value, ErrText(err))
				return inv, 2, true
			}
			inv.srcs = append(inv.srcs, awk.Source{Name: o.Value, Text: text})
		case "e":
			inv.srcs = append(inv.srcs, awk.Source{Name: "cmd. line", Text: o.Value})
		case "V", "W":
			if o.Name == "W" {
				switch o.Value {
				case "version", "v":
				case "traditional", "compat":
					traditional = true
					continue
				case "posix":
					posix = true
					continue
				default:
					continue // other -W options are accepted and ignored
				}
			}
			fmt.Fprintf(env.Stdout, "GNU Awk %s (sandsh awk)\n", awk.Version)
			return inv, 0, true
		case "help":
			// awk takes RawArgs: operands after the program are data, so
			// only an option --help asks for usage.
			fmt.Fprint(env.Stdout, awkUsage)
			return inv, 0, true
		}
	}
	if len(inv.srcs) == 0 {
		if len(operands) == 0 {
			fmt.Fprint(env.Stderr, awkUsage)
			return inv, 2, true
		}
		inv.srcs = append(inv.srcs, awk.Source{Name: "cmd. line", Text: operands[0]})
		operands = operands[1:]
	}
	if hasFS {
		inv.vars = append([]string{"FS", awkFieldSep(fs, traditional && !posix)}, inv.vars...)
	}
	inv.operands = operands
	return inv, 0, false
}

// awkConfig wires the interpreter to the sandbox: files on env.FS,
// commands through the gateway as sh -c, the env's clock and locale.
func awkConfig(ctx context.Context, env *Env, name string, inv awkInvocation) *awk.Config {
	// Commands started by the program write to stderr from their own
	// goroutines, so stderr writes are serialized.
	stderr := &awkSyncWriter{w: env.Stderr}
	return &awk.Config{
		Stdin:    env.Stdin,
		Output:   env.Stdout,
		Error:    stderr,
		Argv0:    name,
		Args:     inv.operands,
		Vars:     inv.vars,
		Environ:  awkEnviron(env),
		OpenFile: func(file string, flag int) (io.ReadWriteCloser, error) { return awkOpen(env, file, flag) },
		Exec: func(cmd string, stdin io.Reader, out io.Writer) int {
			sub := env.Sub()
			sub.Stdin, sub.Stdout, sub.Stderr = stdin, out, stderr
			return env.Exec(ctx, env.Child(sub, "awk", "awk system()"), []string{"sh", "-c", cmd})
		},
		Now:       env.System().Now,
		Context:   ctx,
		UTF8:      awkUTF8(env),
		MaxString: min(env.LineMax(), 1<<40),
	}
}

// awkFieldSep turns a -F argument into FS. As in gawk, "-Ft" means a tab
// only in --traditional mode; otherwise it is the letter t. Escapes are
// processed later, as for any assignment.
func awkFieldSep(s string, traditional bool) string {
	if s == "t" && traditional {
		return "\t"
	}
	return s
}

// awkUTF8 reports whether the locale (LC_ALL, LC_CTYPE, LANG in that
// order) is a UTF-8 one, in which awk counts characters.
func awkUTF8(env *Env) bool {
	for _, name := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := env.Getenv(name); v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return false
}

func awkValidName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func awkReadProgFile(env *Env, name string) (string, error) {
	var r io.Reader
	if name == "-" || name == "/dev/stdin" {
		r = env.Stdin
	} else {
		f, err := env.Open(name)
		if err != nil {
			return "", err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(r)
	return string(b), err
}

func awkEnviron(env *Env) map[string]string {
	m := make(map[string]string, len(env.Environ))
	for _, kv := range env.Environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}

// awkReportSyntax prints parse errors the way gawk does: a syntax error
// as the source line with a caret under the offending token, others as
// "error: message".
func awkReportSyntax(env *Env, name string, err error) {
	var list awk.ErrorList
	var se *awk.SyntaxError
	switch {
	case errors.As(err, &list):
	case errors.As(err, &se):
		list = awk.ErrorList{se}
	default:
		env.Errorf(name, "%s", err)
		return
	}
	for _, se := range list {
		prefix := fmt.Sprintf("%s: %s:%d: ", name, se.Src, se.Line)
		if se.Text != "" {
			fmt.Fprintf(env.Stderr, "%s%s\n", prefix, se.Text)
			fmt.Fprintf(env.Stderr, "%s%s^ %s\n", prefix, strings.Repeat(" ", min(se.Col, len(se.Text))), se.Msg)
		} else if se.NoCaret {
			fmt.Fprintf(env.Stderr, "%serror: %s\n", prefix, se.Msg)
		} else {
			fmt.Fprintf(env.Stderr, "%s%s\n", prefix, se.Msg)
		}
	}
}

// awkOpen opens a file of the sandbox for the interpreter.
func awkOpen(env *Env, name string, flag int) (io.ReadWriteCloser, error) {
	if name == "/dev/null" {
		return awkNull{}, nil
	}
	if flag == os.O_RDONLY {
		f, err := env.Open(name)
		if err != nil {
			return nil, awkFileErr{err}
		}
		return awkReadOnly{f}, nil
	}
	f, err := env.FS.OpenFile(env.Abs(name), flag, 0o666)
	if err != nil {
		return nil, awkFileErr{err}
	}
	return f, nil
}

// awkFileErr words a failed open as gawk does ("No such file or
// directory", "Permission denied"), not as Go does.
type awkFileErr struct{ err error }

func (e awkFileErr) Error() string { return ErrText(e.err) }
func (e awkFileErr) Unwrap() error { return e.err }

// awkSyncWriter serializes writes from several goroutines.
type awkSyncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *awkSyncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

type awkNull struct{}

func (awkNull) Read([]byte) (int, error)    { return 0, io.EOF }
func (awkNull) Write(b []byte) (int, error) { return len(b), nil }
func (awkNull) Close() error                { return nil }

type awkReadOnly struct{ io.ReadCloser }

func (awkReadOnly) Write([]byte) (int, error) { return 0, os.ErrPermission }
