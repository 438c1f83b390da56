// Package restrict owns the ExternalProcess gateway: the one place in
// sandsh through which every command that is not a shell function or
// builtin passes, and the only code allowed to start a host process.
//
// In restricted mode the gateway never starts a host process: a command
// is served by an in-process command from package builtins, by a nested
// in-process shell for bash/sh and shell scripts, or refused with a
// message that says "restricted".
package restrict

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"

	"github.com/sandsh/sandsh/builtins"
)

// Exit statuses the gateway returns for commands it cannot run; they
// match bash's for "not found" and "not executable".
const (
	StatusNotFound      = 127
	StatusNotExecutable = 126
	// StatusCommandPanic is returned when an in-process command crashed;
	// the crash is also reported as an internal error of the run.
	StatusCommandPanic = 70
)

// binDirs are where a path like /usr/bin/cat maps to the in-process
// command of the same base name.
var binDirs = []string{"/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/usr/local/sbin"}

// shells are the names served by a nested in-process shell.
var shells = map[string]bool{"bash": true, "sh": true}

// Gateway decides how every external command runs.
type Gateway struct {
	reg        *builtins.Registry
	restricted bool
	onPanic    func(cmd string, v any, stack []byte)
}

// Option configures a Gateway.
type Option func(*Gateway)

// Restricted turns restricted mode on: no host process is ever started.
func Restricted(on bool) Option { return func(g *Gateway) { g.restricted = on } }

// OnPanic sets what happens when an in-process command panics (it is
// always recovered first).
func OnPanic(fn func(cmd string, v any, stack []byte)) Option {
	return func(g *Gateway) { g.onPanic = fn }
}

// New returns a gateway serving the commands in reg.
func New(reg *builtins.Registry, opts ...Option) *Gateway {
	g := &Gateway{reg: reg, restricted: true}
	for _, o := range opts {
		o(g)
	}
	return g
}

// Restricted reports whether host programs are refused.
func (g *Gateway) Restricted() bool { return g.restricted }

// CommandNames lists the in-process commands.
func (g *Gateway) CommandNames() []string {
	var names []string
	for _, c := range g.reg.Commands() {
		names = append(names, c.Name)
	}
	return names
}

// refuse prints why a command cannot run and returns status.
func refuse(env *builtins.Env, name, why string, status int) int {
	fmt.Fprintf(env.Stderr, "sandsh: %s: %s\n", name, why)
	return status
}

// Refusal texts of restricted mode. Every route to a command that is not
// there (a name, a path, env, nice, nohup, timeout, xargs, find -exec,
// awk's system()) ends in notFound, so an agent reading the message
// learns that the sandbox hides host programs rather than concluding the
// tool is not installed.
const (
	whyNameRestricted = "command not found (restricted mode runs no host programs)"
	whyPathRestricted = "No such file or directory (restricted mode shows no host programs)"
)

// notFound refuses a command that resolved to nothing, with bash's status
// 127. In restricted mode the message says why a host program is absent;
// outside it, it is bash's own.
func (g *Gateway) notFound(env *builtins.Env, name string) int {
	switch {
	case g.restricted && strings.Contains(name, "/"):
		return refuse(env, name, whyPathRestricted, StatusNotFound)
	case g.restricted:
		return refuse(env, name, whyNameRestricted, StatusNotFound)
	case strings.Contains(name, "/"):
		return refuse(env, name, "No such file or directory", StatusNotFound)
	}
	return refuse(env, name, "command not found", StatusNotFound)
}

// Run runs one command line.
func (g *Gateway) Run(ctx context.Context, env *builtins.Env, args []string) int {
	if len(args) == 0 {
		return 0
	}
	name := args[0]
	if !strings.Contains(name, "/") {
		if shells[name] {
			return g.shell(ctx, env, args)
		}
		if !g.restricted {
			if p, ok := hostLookPath(env, name); ok {
				return g.host(ctx, env, p, args)
			}
		}
		if c, ok := g.reg.Lookup(name); ok {
			return g.call(ctx, c, env, args)
		}
		if p, ok := g.scriptOnPath(env, name); ok {
			return g.runFile(ctx, env, p, args)
		}
		return g.notFound(env, name)
	}
	p := env.Abs(name)
	if _, err := env.FS.Stat(p); err == nil {
		return g.runFile(ctx, env, p, args)
	}
	if !g.restricted {
		if _, err := os.Stat(p); err == nil {
			return g.host(ctx, env, p, args)
		}
	}
	base := path.Base(p)
	if slices.Contains(binDirs, path.Dir(p)) {
		if shells[base] {
			return g.shell(ctx, env, append([]string{base}, args[1:]...))
		}
		if c, ok := g.reg.Lookup(base); ok {
			return g.call(ctx, c, env, args)
		}
	}
	return g.notFound(env, name)
}

// call runs an in-process command, recovering a crash.
func (g *Gateway) call(ctx context.Context, c *builtins.Command, env *builtins.Env, args []string) (status int) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(env.Stderr, "sandsh: %s: internal error: %v\n", c.Name, v)
			if g.onPanic != nil {
				g.onPanic(c.Name, v, debug.Stack())
			}
			status = StatusCommandPanic
		}
	}()
	return c.Call(ctx, env, args)
}

func (g *Gateway) shell(ctx context.Context, env *builtins.Env, args []string) int {
	if env.Shell == nil {
		return refuse(env, args[0], "no shell available", StatusNotFound)
	}
	return env.Shell(ctx, env, args)
}

// scriptOnPath finds an executable file called name in the sandbox's
// $PATH, so scripts a user installs (e.g. in ~/bin) run by name.
func (g *Gateway) scriptOnPath(env *builtins.Env, name string) (string, bool) {
	for _, dir := range strings.Split(env.Getenv("PATH"), ":") {
		if dir == "" {
			dir = "."
		}
		p := env.Abs(dir + "/" + name)
		fi, err := env.FS.Stat(p)
		if err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, true
		}
	}
	return "", false
}

// runFile runs a file of the sandbox filesystem: shell scripts run in a
// nested in-process shell; anything else is refused.
func (g *Gateway) runFile(ctx context.Context, env *builtins.Env, p string, args []string) int {
	name := args[0]
	fi, err := env.FS.Stat(p)
	if err != nil {
		return refuse(env, name, builtins.ErrText(err), StatusNotFound)
	}
	if fi.IsDir() {
		return refuse(env, name, "Is a directory", StatusNotExecutable)
	}
	if fi.Mode().Perm()&0o111 == 0 {
		return refuse(env, name, "Permission denied", StatusNotExecutable)
	}
	head, err := readHead(env, p)
	if err != nil {
		return refuse(env, name, builtins.ErrText(err), StatusNotExecutable)
	}
	interp, ok := shebangShell(head)
	if !ok {
		if g.restricted {
			return refuse(env, name, "restricted: only bash and sh scripts can run in the sandbox", StatusNotExecutable)
		}
		return g.host(ctx, env, p, args)
	}
	return g.shell(ctx, env, append([]string{interp, name}, args[1:]...))
}

// readHead reads the start of a file to look for a #! line.
func readHead(env *builtins.Env, p string) ([]byte, error) {
	f, err := env.FS.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, 512)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return buf[:n], nil
}

// shebangShell reports which shell runs a script: "bash" or "sh" from its
// #! line, or "bash" for a text file with no #! line (what bash does on
// ENOEXEC). Binaries and other interpreters are not shell scripts.
func shebangShell(head []byte) (string, bool) {
	if !bytes.HasPrefix(head, []byte("#!")) {
		if bytes.IndexByte(head, 0) >= 0 || bytes.HasPrefix(head, []byte("\x7fELF")) {
			return "", false
		}
		return "bash", true
	}
	line := head[2:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	fields := strings.Fields(string(line))
	if len(fields) == 0 {
		return "bash", true
	}
	prog := fields[0]
	if path.Base(prog) == "env" && len(fields) > 1 {
		prog = fields[1]
		if prog == "-S" && len(fields) > 2 {
			prog = fields[2]
		}
	}
	switch prog {
	case "/bin/bash", "/usr/bin/bash", "/bin/sh", "/usr/bin/sh", "bash", "sh", "/usr/local/bin/bash":
		return path.Base(prog), true
	}
	return "", false
}

// LookPath reports what `command -v` and `which` show for name.
func (g *Gateway) LookPath(env *builtins.Env, name string) (string, bool) {
	if strings.Contains(name, "/") {
		p := env.Abs(name)
		if fi, err := env.FS.Stat(p); err == nil && !fi.IsDir() && fi.Mode().Perm()&0o111 != 0 {
			return name, true
		}
		if slices.Contains(binDirs, path.Dir(p)) {
			if _, ok := g.reg.Lookup(path.Base(p)); ok || shells[path.Base(p)] {
				return name, true
			}
		}
		return "", false
	}
	if !g.restricted {
		if p, ok := hostLookPath(env, name); ok {
			return p, true
		}
	}
	if p, ok := g.scriptOnPath(env, name); ok {
		return p, true
	}
	if _, ok := g.reg.Lookup(name); ok || shells[name] {
		if name == "bash" || name == "sh" {
			return "/bin/" + name, true
		}
		return "/usr/bin/" + name, true
	}
	return "", false
}

// hostLookPath searches the sandbox's $PATH on the host disk. Only used
// in unrestricted mode.
func hostLookPath(env *builtins.Env, name string) (string, bool) {
	for _, dir := range strings.Split(env.Getenv("PATH"), ":") {
		if dir == "" {
			dir = "."
		}
		p := env.Abs(dir + "/" + name)
		fi, err := os.Stat(p)
		if err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, true
		}
	}
	return "", false
}

// host starts a host program. Only reachable in unrestricted mode.
func (g *Gateway) host(ctx context.Context, env *builtins.Env, p string, args []string) int {
	if g.restricted {
		return g.notFound(env, args[0])
	}
	cmd := exec.CommandContext(ctx, p, args[1:]...)
	cmd.Args[0] = args[0]
	cmd.Dir = env.Dir
	cmd.Env = env.Environ
	cmd.Stdin, cmd.Stdout, cmd.Stderr = env.Stdin, env.Stdout, env.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	case errors.Is(err, fs.ErrPermission):
		return refuse(env, args[0], "Permission denied", StatusNotExecutable)
	}
	return refuse(env, args[0], err.Error(), StatusNotExecutable)
}
