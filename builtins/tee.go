package builtins

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"

	"github.com/spf13/afero"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
)

const teeUsage = `Usage: tee [OPTION]... [FILE]...
Copy standard input to each FILE, and also to standard output.

  -a, --append              append to the given FILEs, do not overwrite
  -i, --ignore-interrupts   ignore interrupt signals
  -p                        operate in a more appropriate MODE with pipes.
      --output-error[=MODE]   set behavior on write error.  See MODE below
      --help     display this help and exit

MODE determines behavior with write errors on the outputs:
  warn           diagnose errors writing to any output
  warn-nopipe    diagnose errors writing to any output not a pipe
  exit           exit on error writing to any output
  exit-nopipe    exit on error writing to any output not a pipe
The default MODE for the -p option is 'warn-nopipe'.
When standard output is a closed pipe, tee keeps copying to the FILEs.
`

var teeGetopt = Getopt{
	Short:     "aip",
	Long:      []string{"append", "ignore-interrupts", "output-error?"},
	LongAlias: map[string]string{"append": "a", "ignore-interrupts": "i"},
}

type teeOut struct {
	name string
	w    io.Writer
	f    afero.File
}

func runTee(ctx context.Context, env *Env, args []string) int {
	opts, operands, err := teeGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("tee", err, 1)
	}
	appendMode, mode := false, ""
	for _, o := range opts {
		switch o.Name {
		case "a":
			appendMode = true
		case "p":
			mode = "warn-nopipe"
		case "output-error":
			switch o.Value {
			case "":
				mode = "warn-nopipe"
			case "warn", "warn-nopipe", "exit", "exit-nopipe":
				mode = o.Value
			default:
				return env.UsageError("tee", fmt.Errorf("invalid argument %s for '--output-error'", fileutil.Quote(o.Value)), 1)
			}
		}
	}
	flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if appendMode {
		flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	status := 0
	outs := []*teeOut{{name: "standard output", w: env.Stdout}}
	for _, name := range operands {
		var f afero.File
		var err error
		if strings.HasSuffix(name, "/") {
			err = syscall.EISDIR
		} else {
			f, err = filesCreate(env.FS, env.Abs(name), flag, 0o666)
		}
		if err != nil {
			env.Errorf("tee", "%s: %s", fileutil.QuoteIf(name), ErrText(filesStatErr(env.FS, env.Abs(name), err)))
			status = 1
			continue
		}
		outs = append(outs, &teeOut{name: name, w: f, f: f})
	}
	defer func() {
		for _, o := range outs {
			if o.f != nil {
				o.f.Close()
			}
		}
	}()
	pipeClosed := false
	buf := make([]byte, filesBufSize)
	for {
		if ctx.Err() != nil {
			return 130
		}
		n, rerr := env.Stdin.Read(buf)
		if n > 0 {
			live := 0
			for _, o := range outs {
				if o.w == nil {
					continue
				}
				if _, err := o.w.Write(buf[:n]); err != nil {
					if IsBrokenPipe(err) {
						// A reader that went away does not stop the copies
						// to the files.
						pipeClosed = true
					} else {
						env.Errorf("tee", "%s: %s", fileutil.QuoteIf(o.name), ErrText(err))
						status = 1
						if mode == "exit" || mode == "exit-nopipe" {
							return 1
						}
					}
					o.w = nil
					continue
				}
				live++
			}
			if live == 0 {
				break
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			env.Errorf("tee", "read error: %s", ErrText(rerr))
			return 1
		}
	}
	for _, o := range outs {
		if o.f != nil && o.w != nil {
			if err := o.f.Close(); err != nil {
				env.Errorf("tee", "%s: %s", fileutil.QuoteIf(o.name), ErrText(err))
				status = 1
			}
			o.f = nil
		}
	}
	if pipeClosed && status == 0 && mode == "" {
		return StatusBrokenPipe
	}
	return status
}
