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
	"time"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/internal/termsafe"
	"github.com/sandsh/sandsh/vfs"
)

// Exit statuses the gateway returns for commands it cannot run; they
// match bash's for "not found" and "not executable".
const (
	StatusNotFound      = 127
	StatusNotExecutable = 126
	// StatusCommandPanic is returned when an in-process command crashed;
	// the crash is also reported as an internal error of the run.
	StatusCommandPanic = 70
	// StatusDenied is returned for a command the policy refuses (bash's
	// status for a command it cannot execute).
	StatusDenied = 126
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
	check      Check
	net        builtins.Net
	observe    func(env *builtins.Env, args []string, status int, took time.Duration)
	jail       *JailSetup
}

// Observe calls fn after every command line the gateway ran (not those
// the check refused), with its status and how long it took: the audit
// log's command exits.
func Observe(fn func(env *builtins.Env, args []string, status int, took time.Duration)) Option {
	return func(g *Gateway) { g.observe = fn }
}

// Check decides whether a command line may run before the gateway looks
// for it. A refusal returns the reason, printed as "sandsh: NAME: WHY".
type Check func(ctx context.Context, env *builtins.Env, args []string) (why string, ok bool)

// WithCheck makes every command line that reaches the gateway, by any
// route (a name, a path, command, exec, env, xargs, find -exec, timeout,
// nice, nohup, a nested shell, awk's system(), sed's e), pass fn first.
func WithCheck(fn Check) Option { return func(g *Gateway) { g.check = fn } }

// WithNet gives the in-process commands (curl, wget) their way to the
// network; without it they refuse every request.
func WithNet(n builtins.Net) Option { return func(g *Gateway) { g.net = n } }

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

// ProgramNames lists the names the gateway serves in /usr/bin and /bin:
// the in-process commands and the shells.
func (g *Gateway) ProgramNames() []string {
	names := g.CommandNames()
	for name := range shells {
		if _, ok := g.reg.Lookup(name); !ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// refuse prints why a command cannot run and returns status.
func refuse(env *builtins.Env, name, why string, status int) int {
	prefix := env.ErrPrefix
	if prefix == "" {
		prefix = "sandsh"
	}
	// The name, and the prefix's file name, come from the script: sandsh's
	// message shows their control characters escaped (issue 23.10).
	termsafe.Fprintf(env.Stderr, "%s: %s: %s\n", prefix, name, why)
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

// checked applies the WithCheck function: every entry point that runs a
// command (Run, RunHashed) calls it first.
func (g *Gateway) checked(ctx context.Context, env *builtins.Env, args []string) (int, bool) {
	if g.check == nil {
		return 0, true
	}
	if why, ok := g.check(ctx, env, args); !ok {
		return refuse(env, args[0], why, StatusDenied), false
	}
	return 0, true
}

// Run runs one command line.
func (g *Gateway) Run(ctx context.Context, env *builtins.Env, args []string) (status int) {
	if len(args) == 0 {
		return 0
	}
	if st, ok := g.checked(ctx, env, args); !ok {
		return st
	}
	if g.observe != nil {
		start := time.Now()
		defer func() { g.observe(env, args, status, time.Since(start)) }()
	}
	name := args[0]
	if !strings.Contains(name, "/") {
		if g.restricted {
			return g.runRestricted(ctx, env, args)
		}
		if shells[name] {
			return g.shell(ctx, env, args)
		}
		if p, ok := hostLookPath(env, name); ok {
			return g.host(ctx, env, p, args)
		}
		if c, ok := g.reg.Lookup(name); ok {
			return g.call(ctx, c, env, args)
		}
		if m, ok := g.first(env, name); ok && !m.virtual {
			return g.runFile(ctx, env, m.abs, m.path, args)
		}
		return g.notFound(env, name)
	}
	p := env.Abs(name)
	_, err := env.FS.Stat(p)
	if err == nil {
		return g.runFile(ctx, env, p, name, args)
	}
	if errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.ENAMETOOLONG) || errors.Is(err, syscall.ELOOP) {
		// bash's execve failed for a reason other than a missing file:
		// 126 with that reason, as shell_execve reports it.
		return refuse(env, name, builtins.ErrText(err), StatusNotExecutable)
	}
	if !g.restricted {
		if _, err := os.Stat(p); err == nil {
			return g.host(ctx, env, p, args)
		}
	}
	base := path.Base(p)
	dir := path.Dir(p)
	if g.restricted && virtualDir(dir) || !g.restricted && slices.Contains(binDirs, dir) {
		if ok := g.virtual(ctx, env, base, args); ok >= 0 {
			return ok
		}
	}
	// /usr/bin/python3 is the allowlisted python3; ./python3 never is
	// (a sandbox file, run above or not found).
	if slices.Contains(binDirs, dir) && g.jailable(base, args) {
		return g.runJailed(ctx, env, base, args)
	}
	return g.notFound(env, name)
}

// runRestricted runs a bare command name the way bash finds it: the first
// directory of $PATH that holds it wins. The in-process commands live in
// /usr/bin and /bin (see virtualDir), so a script earlier on $PATH
// overrides them exactly where it would override a real program, and a
// $PATH without those directories finds none of them.
func (g *Gateway) runRestricted(ctx context.Context, env *builtins.Env, args []string) int {
	name := args[0]
	m, ok := g.first(env, name)
	if !ok {
		if g.jailable(name, args) {
			return g.runJailed(ctx, env, name, args)
		}
		return g.notFound(env, name)
	}
	if m.virtual {
		if st := g.virtual(ctx, env, name, args); st >= 0 {
			return st
		}
	}
	return g.runFile(ctx, env, m.abs, m.path, args)
}

// virtual runs the in-process command or shell called name, or returns -1
// when there is none.
func (g *Gateway) virtual(ctx context.Context, env *builtins.Env, name string, args []string) int {
	if shells[name] {
		// $0 is the name as it was run (/bin/sh), as bash sets it.
		return g.shell(ctx, env, args)
	}
	if c, ok := g.reg.Lookup(name); ok {
		return g.call(ctx, c, env, args)
	}
	return -1
}

// virtualDir reports whether the in-process commands live in dir (an
// absolute, clean path): /usr/bin, where vfs.InstallCommands puts their
// stubs, and /bin, Debian's symlink to it. They are found there even on
// a filesystem without the stubs (an API user's, or --root).
func virtualDir(dir string) bool { return dir == vfs.CommandDir || dir == "/bin" }

// match is one place where $PATH lookup finds a command.
type match struct {
	path    string // as bash shows it: the $PATH entry, "/", the name
	abs     string // the sandbox path
	virtual bool   // an in-process command or shell with no file
}

// search walks $PATH like bash: each directory in turn, an executable
// regular file wins; in virtual directories an in-process command with no
// file of its own is found too. With all, every match is returned (type
// -a); otherwise only the first.
func (g *Gateway) search(env *builtins.Env, name string, all bool) []match {
	if name == "" || name == "." || name == ".." {
		return nil
	}
	_, inproc := g.reg.Lookup(name)
	inproc = inproc || shells[name]
	var out []match
	var lastResort *match // like bash, a non-executable file if nothing else
	for _, dir := range strings.Split(env.CommandPath(), ":") {
		if dir == "" {
			dir = "."
		}
		disp := strings.TrimSuffix(dir, "/") + "/" + name
		p := env.Abs(disp)
		fi, err := env.FS.Stat(p)
		switch {
		case err == nil:
			if !fi.Mode().IsRegular() {
				continue
			}
			if !executable(env, fi) {
				if lastResort == nil {
					lastResort = &match{path: disp, abs: p}
				}
				continue
			}
			out = append(out, match{path: disp, abs: p})
		case inproc && virtualDir(path.Dir(p)):
			out = append(out, match{path: disp, abs: p, virtual: true})
		default:
			continue
		}
		if !all {
			break
		}
	}
	if len(out) == 0 && !all && lastResort != nil {
		out = append(out, *lastResort)
	}
	return out
}

func (g *Gateway) first(env *builtins.Env, name string) (match, bool) {
	if m := g.search(env, name, false); len(m) > 0 {
		return m[0], true
	}
	return match{}, false
}

// executable reports whether fi has an execute bit. (Who may execute is
// the filesystem's business; the sandbox's programs are root's 0755.)
func executable(_ *builtins.Env, fi fs.FileInfo) bool { return fi.Mode().Perm()&0o111 != 0 }

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
	if g.net != nil && env.Net == nil {
		sub := *env
		sub.Net = g.net
		env = &sub
	}
	return c.Call(ctx, env, args)
}

func (g *Gateway) shell(ctx context.Context, env *builtins.Env, args []string) int {
	if env.Shell == nil {
		return refuse(env, args[0], "no shell available", StatusNotFound)
	}
	return env.Shell(ctx, env, args)
}

// runFile runs a file of the sandbox filesystem at sandbox path p, named
// as; the stub of an in-process command runs that command; shell scripts
// run in a nested in-process shell with $0 set to as, like bash sets it
// to the path it found; anything else is refused.
func (g *Gateway) runFile(ctx context.Context, env *builtins.Env, p, as string, args []string) int {
	name := args[0]
	fi, err := env.FS.Stat(p)
	if err != nil {
		return refuse(env, name, builtins.ErrText(err), StatusNotFound)
	}
	if fi.IsDir() {
		return refuse(env, name, "Is a directory", StatusNotExecutable)
	}
	if !executable(env, fi) {
		return refuse(env, name, "Permission denied", StatusNotExecutable)
	}
	head, err := readHead(env, p)
	if err != nil {
		return refuse(env, name, builtins.ErrText(err), StatusNotExecutable)
	}
	if vfs.IsCommandStub(head) {
		if st := g.virtual(ctx, env, path.Base(p), args); st >= 0 {
			return st
		}
		return refuse(env, name, "restricted: no such in-process command", StatusNotFound)
	}
	interp, ok := shebangShell(head)
	if !ok {
		// A program file in a system directory (a host binary on --fs
		// disk -r) stands for the in-process command of its name.
		if g.restricted && slices.Contains(binDirs, path.Dir(p)) {
			if st := g.virtual(ctx, env, path.Base(p), args); st >= 0 {
				return st
			}
		}
		if g.restricted {
			if iargv := g.jailInterpreter(head, as, args); iargv != nil {
				return g.runScriptJailed(ctx, env, p, name, iargv)
			}
			return refuse(env, name, "restricted: only bash and sh scripts can run in the sandbox", StatusNotExecutable)
		}
		return g.host(ctx, env, p, args)
	}
	return g.shell(ctx, env, append([]string{interp, as}, args[1:]...))
}

// jailInterpreter returns the command line that runs a #! script through
// an allowlisted host program, as the kernel would build it
// (`#!/usr/bin/python3 -u` gives /usr/bin/python3 -u SCRIPT ARGS...;
// `#!/usr/bin/env python3`, after env's lookup, python3 SCRIPT ARGS...),
// or nil when the interpreter is not one the jail runs: only a program
// of the system directories or a name given to env, and only one the
// allowlist allows (`#!/usr/bin/env perl` stays refused).
func (g *Gateway) jailInterpreter(head []byte, as string, args []string) []string {
	if g.jail == nil || !bytes.HasPrefix(head, []byte("#!")) {
		return nil
	}
	line, _, _ := bytes.Cut(head[2:], []byte("\n"))
	fields := strings.Fields(string(line))
	if len(fields) == 0 {
		return nil
	}
	var argv []string
	switch prog := fields[0]; {
	case slices.Contains(binDirs, path.Dir(prog)) && path.Base(prog) == "env":
		rest := fields[1:]
		if len(rest) > 0 && rest[0] == "-S" {
			rest = rest[1:]
		} else if len(rest) > 1 {
			// Without -S the kernel hands env the rest of the line
			// as one word: env looks for a program of that name.
			rest = []string{strings.Join(rest, " ")}
		}
		if len(rest) == 0 || strings.HasPrefix(rest[0], "-") || strings.Contains(rest[0], "=") {
			return nil
		}
		argv = rest
	case slices.Contains(binDirs, path.Dir(prog)):
		argv = []string{prog}
		if len(fields) > 1 {
			argv = append(argv, strings.Join(fields[1:], " "))
		}
	default:
		return nil
	}
	name := path.Base(argv[0])
	argv = append(append(argv, as), args[1:]...)
	if !g.jailable(name, argv) {
		return nil
	}
	return argv
}

// runScriptJailed runs the script at sandbox path p through the
// interpreter command line iargv in the jail, which is shown the working
// tree only: a script outside it is refused. The policy decides on the
// interpreter's command line too (a policy denying python3 holds for a
// python3 script).
func (g *Gateway) runScriptJailed(ctx context.Context, env *builtins.Env, p, as string, iargv []string) int {
	name := path.Base(iargv[0])
	if w := g.jail.Work; p != w && !strings.HasPrefix(p, strings.TrimSuffix(w, "/")+"/") {
		return refuse(env, as, fmt.Sprintf("jail: %s runs only scripts inside %s, the working tree it is shown", name, w), StatusNotExecutable)
	}
	if st, ok := g.checked(ctx, env, iargv); !ok {
		return st
	}
	return g.runJailed(ctx, env, name, iargv)
}

// readHead reads the start of a file to look for a #! line.
func readHead(env *builtins.Env, p string) ([]byte, error) {
	f, err := vfs.OpenExec(env.FS, p)
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
	if all := g.LookPathAll(env, name); len(all) > 0 {
		return all[0], true
	}
	return "", false
}

// LookCommand is bash's find_user_command, what `type` and `command -v`
// show: LookPath's program, else the first regular file of that name on
// $PATH even without an execute bit (running it fails with "Permission
// denied").
func (g *Gateway) LookCommand(env *builtins.Env, name string) (string, bool) {
	if p, ok := g.LookPath(env, name); ok || strings.Contains(name, "/") {
		return p, ok
	}
	if m, ok := g.first(env, name); ok {
		return m.path, true
	}
	return "", false
}

// LookPathAll lists every place $PATH lookup finds name, in order: what
// `type -a` and `which -a` show.
func (g *Gateway) LookPathAll(env *builtins.Env, name string) []string {
	var out []string
	if strings.Contains(name, "/") {
		p := env.Abs(name)
		if fi, err := env.FS.Stat(p); err == nil && !fi.IsDir() && executable(env, fi) {
			return []string{name}
		}
		if g.restricted && virtualDir(path.Dir(p)) || !g.restricted && slices.Contains(binDirs, path.Dir(p)) {
			if _, ok := g.reg.Lookup(path.Base(p)); ok || shells[path.Base(p)] {
				return []string{name}
			}
		}
		if slices.Contains(binDirs, path.Dir(p)) && g.jailable(path.Base(p), []string{name}) {
			return []string{name}
		}
		return nil
	}
	// Unrestricted, the sandbox filesystem is the host disk: the same
	// walk finds the host's programs, named as bash names them.
	for _, m := range g.search(env, name, true) {
		if !slices.Contains(out, m.path) {
			out = append(out, m.path)
		}
	}
	if !g.restricted && len(out) == 0 {
		if _, ok := g.reg.Lookup(name); ok || shells[name] {
			out = append(out, "/usr/bin/"+name)
		}
	}
	if len(out) == 0 && g.jailable(name, []string{name}) {
		out = append(out, vfs.CommandDir+"/"+name) // the host program, run in the jail
	}
	return out
}

// hostLookPath searches the sandbox's $PATH on the host disk. Only used
// in unrestricted mode.
func hostLookPath(env *builtins.Env, name string) (string, bool) {
	for _, dir := range strings.Split(env.CommandPath(), ":") {
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
	// Never nil: os/exec hands a nil Env the whole environment of
	// sandsh itself, variables the script never exported or unset.
	cmd.Env = append([]string{}, env.Environ...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = env.Stdin, env.Stdout, env.Stderr
	extra, started, finished, err := hostFiles(env.FDs)
	if err != nil {
		return refuse(env, args[0], err.Error(), StatusNotExecutable)
	}
	cmd.ExtraFiles = extra
	err = cmd.Start()
	started()
	if err == nil {
		err = cmd.Wait()
	}
	finished()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	case cmd.ProcessState != nil:
		// The program ran and exited 0; only copying a stream failed
		// (stdin from a directory): its status stands.
		return cmd.ProcessState.ExitCode()
	case errors.Is(err, fs.ErrPermission):
		return refuse(env, args[0], "Permission denied", StatusNotExecutable)
	case errors.Is(err, syscall.ENOEXEC):
		// Like bash: a file the kernel cannot execute is a shell script
		// without #! (unrestricted mode only: the file is the host's).
		return g.shell(ctx, env, append([]string{"bash", p}, args[1:]...))
	}
	return refuse(env, args[0], err.Error(), StatusNotExecutable)
}

// hostFiles turns the shell's descriptors above 2 into the files a host
// program inherits at the same numbers. A host file passes as itself; a
// descriptor in memory becomes a host pipe, copied to or from it. started
// closes the child's ends once it runs (or failed to start); finished
// waits for what the child wrote to reach the shell.
func hostFiles(fds map[int]builtins.FD) (extra []*os.File, started, finished func(), err error) {
	var childEnds []*os.File
	var copies []chan struct{}
	started = func() {
		for _, f := range childEnds {
			f.Close()
		}
	}
	finished = func() {
		for _, done := range copies {
			<-done
		}
	}
	for n, fd := range fds {
		if n < 3 || n > maxInheritFD {
			continue
		}
		var f *os.File
		switch {
		case fd.R != nil:
			if hf, ok := fd.R.(*os.File); ok {
				f = hf
				break
			}
			pr, pw, perr := os.Pipe()
			if perr != nil {
				started()
				return nil, nil, nil, perr
			}
			// Not waited for: a child that reads nothing leaves the
			// copy to fail on the closed pipe, or to end with its source.
			go func(r io.Reader) { io.Copy(pw, r); pw.Close() }(fd.R)
			f = pr
			childEnds = append(childEnds, pr)
		case fd.W != nil:
			if hf, ok := fd.W.(*os.File); ok {
				f = hf
				break
			}
			pr, pw, perr := os.Pipe()
			if perr != nil {
				started()
				return nil, nil, nil, perr
			}
			done := make(chan struct{})
			go func(w io.Writer) { io.Copy(w, pr); pr.Close(); close(done) }(fd.W)
			copies = append(copies, done)
			f = pw
			childEnds = append(childEnds, pw)
		default:
			continue
		}
		for len(extra) <= n-3 {
			extra = append(extra, nil)
		}
		extra[n-3] = f
	}
	return extra, started, finished, nil
}

// maxInheritFD is the highest descriptor passed to a host program: the
// shell's own bound on descriptor numbers.
const maxInheritFD = 1023

// RunHashed runs a command bash found in its hash table: the remembered
// path runs under the name args[0], even if $PATH now finds another file
// first; a remembered file that is gone is not found, as in bash.
func (g *Gateway) RunHashed(ctx context.Context, env *builtins.Env, p string, args []string) (status int) {
	if len(args) == 0 {
		return 0
	}
	if st, ok := g.checked(ctx, env, args); !ok {
		return st
	}
	if g.observe != nil {
		start := time.Now()
		defer func() { g.observe(env, args, status, time.Since(start)) }()
	}
	abs := env.Abs(p)
	if _, err := env.FS.Stat(abs); err == nil {
		if !g.restricted && !virtualDir(path.Dir(abs)) {
			if fi, err := os.Stat(abs); err == nil && fi.Mode().IsRegular() {
				return g.host(ctx, env, abs, args)
			}
		}
		return g.runFile(ctx, env, abs, p, args)
	}
	if virtualDir(path.Dir(abs)) && path.Base(abs) == args[0] {
		if st := g.virtual(ctx, env, args[0], args); st >= 0 {
			return st
		}
		if g.jailable(args[0], args) {
			return g.runJailed(ctx, env, args[0], args)
		}
	}
	return refuse(env, p, "No such file or directory", StatusNotFound)
}
