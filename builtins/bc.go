package builtins

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/sandsh/sandsh/builtins/internal/bc"
)

const bcUsage = `usage: bc [options] [file ...]
  -h  --help         print this usage and exit
  -i  --interactive  force interactive mode
  -l  --mathlib      use the predefined math routines
  -q  --quiet        don't print initial banner
  -s  --standard     non-standard bc constructs are errors
  -w  --warn         warn about non-standard bc constructs
  -v  --version      print version information and exit
`

var bcGetopt = Getopt{Short: "hilqswv", Long: []string{"help", "interactive", "mathlib", "quiet", "standard", "warn", "version"},
	LongAlias: map[string]string{"help": "h", "interactive": "i", "mathlib": "l", "quiet": "q", "standard": "s", "warn": "w", "version": "v"}}

// runBc runs each file and then standard input through one interpreter,
// like GNU bc.
func runBc(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	opts, files, err := bcGetopt.Parse(args[1:])
	if err != nil {
		env.Errorf(name, "%v", err)
		io.WriteString(env.Stdout, bcUsage)
		return 1
	}
	mathLib := false
	for _, o := range opts {
		switch o.Name {
		case "h":
			io.WriteString(env.Stdout, bcUsage)
			return 0
		case "v":
			return shellPrintln(env, name, "bc 1.07.1 (sandsh)")
		case "l":
			mathLib = true
		}
	}
	lineLen := 70
	if v, ok := env.LookupEnv("BC_LINE_LENGTH"); ok {
		if n, err := strconv.Atoi(v); err == nil && (n == 0 || n >= 3) {
			lineLen = n
		}
	}
	in := bc.New(bc.Config{Stdout: env.Stdout, Stderr: env.Stderr, Stdin: env.Stdin, LineLength: lineLen, MathLib: mathLib})
	for _, f := range files {
		r, err := env.Open(f)
		if err != nil {
			fmt.Fprintf(env.Stderr, "File %s is unavailable.\n", f)
			return 1
		}
		err = in.Run(ctx, f, r)
		r.Close()
		if done, st := bcDone(env, name, err); done {
			return st
		}
	}
	_, st := bcDone(env, name, in.RunStdin(ctx))
	return st
}

// bcDone maps a Run result to whether bc stops and its status.
func bcDone(env *Env, name string, err error) (bool, int) {
	switch {
	case err == nil:
		return false, 0
	case errors.Is(err, bc.ErrHalt):
		return true, 0
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return true, 130
	}
	return true, env.WriteError(name, err)
}
