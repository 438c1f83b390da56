package awk

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestDev runs the engine like a command line, for manual comparison with
// the host awk: go test -c && ./awk.test -test.run=TestDev -- 'prog' args.
func TestDev(t *testing.T) {
	args := flag.Args()
	if len(args) == 0 {
		t.Skip("no program given")
	}
	var vars []string
	var srcs []Source
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		a := args[0]
		args = args[1:]
		switch {
		case a == "--":
		case strings.HasPrefix(a, "-F"):
			fs := a[2:]
			if fs == "" {
				fs, args = args[0], args[1:]
			}
			if fs == "t" {
				fs = "\t"
			}
			vars = append(vars, "FS", fs)
		case a == "-v":
			k, v, _ := strings.Cut(args[0], "=")
			vars = append(vars, k, v)
			args = args[1:]
		case a == "-f":
			b, err := os.ReadFile(args[0])
			if err != nil {
				t.Fatal(err)
			}
			srcs = append(srcs, Source{Name: args[0], Text: string(b)})
			args = args[1:]
		}
		if a == "--" {
			break
		}
	}
	if len(srcs) == 0 {
		srcs = append(srcs, Source{Name: "cmd. line", Text: args[0]})
		args = args[1:]
	}
	prog, err := Parse(srcs...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "awk:", err)
		os.Exit(2)
	}
	env := map[string]string{}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	st, err := Run(prog, &Config{
		Stdin: os.Stdin, Output: os.Stdout, Error: os.Stderr,
		Args: args, Vars: vars, Environ: env,
		OpenFile: func(name string, flag int) (io.ReadWriteCloser, error) {
			return os.OpenFile(name, flag, 0o666)
		},
		Exec: func(cmd string, stdin io.Reader, stdout io.Writer) int {
			c := exec.Command("sh", "-c", cmd)
			c.Stdin, c.Stdout, c.Stderr = stdin, stdout, os.Stderr
			if err := c.Run(); err != nil {
				if ee, ok := err.(*exec.ExitError); ok {
					return ee.ExitCode()
				}
				return 127
			}
			return 0
		},
		Now: time.Now,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "awk:", err)
	}
	if st != 0 || os.Getenv("AWKDEV_PROF") == "" {
		os.Exit(st)
	}
}
