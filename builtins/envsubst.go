package builtins

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
)

const envsubstUsage = `Usage: envsubst [OPTION] [SHELL-FORMAT]

Substitutes the values of environment variables.

Operation mode:
  -v, --variables             output the variables occurring in SHELL-FORMAT

Informative output:
  -h, --help                  display this help and exit
  -V, --version               output version information and exit

In normal operation mode, standard input is copied to standard output,
with references to environment variables of the form $VARIABLE or ${VARIABLE}
being replaced with the corresponding values.  If a SHELL-FORMAT is given,
only those environment variables that are referenced in SHELL-FORMAT are
substituted; otherwise all environment variables references occurring in
standard input are substituted.

When --variables is used, standard input is ignored, and the output consists
of the environment variables that are referenced in SHELL-FORMAT, one per line.
`

var envsubstGetopt = Getopt{Short: "vhV", Long: []string{"variables", "help", "version"},
	LongAlias: map[string]string{"variables": "v", "help": "h", "version": "V"}}

func runEnvsubst(ctx context.Context, env *Env, args []string) int {
	opts, operands, err := envsubstGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("envsubst", err, 1)
	}
	show := false
	for _, o := range opts {
		switch o.Name {
		case "v":
			show = true
		case "h":
			fmt.Fprint(env.Stdout, envsubstUsage)
			return 0
		case "V":
			fmt.Fprintln(env.Stdout, "envsubst (GNU gettext-runtime) 0.21 (sandsh)")
			return 0
		}
	}
	if len(operands) > 1 {
		env.Errorf("envsubst", "too many arguments")
		return 1
	}
	if show {
		if len(operands) == 0 {
			env.Errorf("envsubst", "missing arguments")
			return 1
		}
		w := bufio.NewWriter(env.Stdout)
		envsubstRefs(operands[0], func(name string) { fmt.Fprintln(w, name) })
		if err := w.Flush(); err != nil {
			return env.WriteError("envsubst", err)
		}
		return 0
	}
	var only map[string]bool // nil: every variable
	if len(operands) == 1 {
		only = map[string]bool{}
		envsubstRefs(operands[0], func(name string) { only[name] = true })
	}
	return envsubstCopy(ctx, env, only)
}

// envsubstRefs calls fn with the name of each $NAME and ${NAME} in s.
func envsubstRefs(s string, fn func(string)) {
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			continue
		}
		if name, n := envsubstRef(s[i+1:]); n > 0 {
			fn(name)
			i += n
		}
	}
}

// envsubstRef reads the reference after a '$': NAME or {NAME}. It returns
// the name and how many bytes the reference took (0: not a reference).
func envsubstRef(s string) (string, int) {
	brace := len(s) > 0 && s[0] == '{'
	j := 0
	if brace {
		j = 1
	}
	start := j
	for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || j > start && s[j] >= '0' && s[j] <= '9') {
		j++
	}
	if j == start {
		return "", 0
	}
	name := s[start:j]
	if brace {
		if j >= len(s) || s[j] != '}' {
			return "", 0
		}
		j++
	}
	return name, j
}

// envsubstCopy copies stdin to stdout line by line, replacing the
// references (of the names in only, when set); a line is bounded by
// MaxLine, and a reference that a line break cuts is not one.
func envsubstCopy(ctx context.Context, env *Env, only map[string]bool) int {
	r := bufio.NewReaderSize(env.Stdin, 64<<10)
	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	max := env.LineMax()
	var line []byte
	for {
		if err := ctx.Err(); err != nil {
			return 130
		}
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(line) > max {
				env.Errorf("envsubst", "line longer than %d bytes (--max-var-bytes)", max)
				return 1
			}
			continue
		}
		if len(line) > 0 {
			if werr := envsubstLine(env, w, string(line), only); werr != nil {
				return env.WriteError("envsubst", werr)
			}
			line = line[:0]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return env.FileError("envsubst", "standard input", err)
		}
	}
	if err := w.Flush(); err != nil {
		return env.WriteError("envsubst", err)
	}
	return 0
}

func envsubstLine(env *Env, w *bufio.Writer, s string, only map[string]bool) error {
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			continue
		}
		name, n := envsubstRef(s[i+1:])
		if n == 0 || only != nil && !only[name] {
			continue
		}
		w.WriteString(s[last:i])
		w.WriteString(env.Getenv(name))
		i += n
		last = i + 1
	}
	_, err := w.WriteString(s[last:])
	return err
}
