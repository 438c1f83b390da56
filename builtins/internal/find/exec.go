package find

import (
	"fmt"
	"path"
	"strings"
	"syscall"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
)

var errNotEmpty = syscall.ENOTEMPTY

// execPred is -exec, -execdir, -ok and -okdir. With '+' the file names
// are collected and the command runs with as many as fit, at the latest
// when find ends. -ok and -okdir run like -exec: there is no terminal to
// ask.
type execPred struct {
	dir   bool // -execdir: run in the file's directory
	batch bool
	args  []string

	pending    []string
	pendingDir string
	size       int
}

// Limits of one batched command line, like a small ARG_MAX.
const (
	execMaxArgs  = 4096
	execMaxBytes = 128 << 10
)

func (p *parser) execPred(opt string) (expr, error) {
	start := p.i
	for ; p.i < len(p.toks); p.i++ {
		t := p.toks[p.i]
		if t == ";" {
			break
		}
		if t == "+" && p.i > start {
			prev := p.toks[p.i-1]
			if prev == "{}" {
				break
			}
			if strings.Contains(prev, "{}") {
				return nil, fmt.Errorf("In '%s ... {} +' the '{}' must appear by itself, but you specified %s", opt, fileutil.Quote(prev))
			}
		}
	}
	if p.i >= len(p.toks) {
		return nil, fmt.Errorf("missing argument to `%s'", opt)
	}
	args := append([]string(nil), p.toks[start:p.i]...)
	term := p.toks[p.i]
	p.i++
	if len(args) == 0 || term == "+" && len(args) == 1 {
		return nil, fmt.Errorf("missing argument to `%s'", opt)
	}
	e := &execPred{dir: strings.HasSuffix(opt, "dir"), args: args}
	if term == "+" && (opt == "-exec" || opt == "-execdir") {
		e.batch = true
		e.args = args[:len(args)-1]
		p.f.execs = append(p.f.execs, e)
	}
	return e, nil
}

// target is the file name the command sees and the directory it runs in.
func (e *execPred) target(f *finder, v *visit) (name, dir string) {
	if !e.dir {
		return v.path, f.env.Dir
	}
	base := baseName(v.path)
	if base == "/" {
		return "/", "/"
	}
	return "./" + base, path.Dir(v.abs)
}

func (e *execPred) eval(f *finder, v *visit) bool {
	name, dir := e.target(f, v)
	if !e.batch {
		args := make([]string, len(e.args))
		for i, a := range e.args {
			args[i] = strings.ReplaceAll(a, "{}", name)
		}
		return f.run(dir, args) == 0
	}
	if len(e.pending) > 0 && (dir != e.pendingDir || len(e.pending) >= execMaxArgs || e.size+len(name) > execMaxBytes) {
		e.flush(f)
	}
	e.pendingDir = dir
	e.pending = append(e.pending, name)
	e.size += len(name) + 1
	return true
}

// flush runs a batched command with the names collected so far.
func (e *execPred) flush(f *finder) {
	if len(e.pending) == 0 {
		return
	}
	args := append(append([]string(nil), e.args...), e.pending...)
	if f.run(e.pendingDir, args) != 0 {
		f.status = 1
	}
	e.pending, e.size = e.pending[:0], 0
}

func (f *finder) flushExecs() {
	for _, e := range f.execs {
		if f.ctx.Err() != nil {
			return
		}
		e.flush(f)
	}
}

// run runs a command line after flushing find's own output, so the
// two appear in order.
func (f *finder) run(dir string, args []string) int {
	f.flushOut()
	if f.ctx.Err() != nil {
		return 1
	}
	st := f.env.Exec(f.ctx, dir, args)
	if st == 126 || st == 127 {
		// The command could not start (the gateway said why): like
		// GNU find after a failed exec, find's own status becomes 1.
		f.status = 1
	}
	return st
}
