// Package builtins holds sandsh's in-process commands: the coreutils, text
// and data tools a script calls by name, re-implemented to work on the
// sandbox filesystem (vfs.FS) and to never touch the host.
//
// Each command lives in its own file as a func(ctx, *Env, args) int and is
// registered in the one table in registry.go. A command reads and writes
// only through its Env: no os.* file access, no host process, no host
// environment.
package builtins

import (
	"context"
	"errors"
	"fmt"
	"github.com/sandsh/sandsh/builtins/internal/guard"
	"io"
	"io/fs"
	"math"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/sandsh/sandsh/vfs"
)

// Env is everything an in-process command may use: its standard streams,
// the sandbox filesystem, its working directory and environment, and a way
// to run other commands through the sandbox gateway.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer

	// FDs holds the shell's open descriptors above 2 (here-documents and
	// redirections on other descriptors, process substitutions) that a
	// host program inherits, as bash's children do. In-process commands
	// reach them through FS (/dev/fd/N) instead.
	FDs map[int]FD

	FS  vfs.FS
	Dir string // absolute sandbox path of the working directory

	// Environ holds the exported variables as NAME=VALUE pairs.
	Environ []string

	// Lookup, when set, answers LookupEnv in place of Environ. The shell's
	// own builtins (test, printf, type) read a variable or two, and
	// building the whole environment on every call would cost more than
	// the builtin itself. An Env with Lookup has no Exec: it never runs
	// a command, whose environment must be Environ.
	Lookup func(name string) (string, bool)

	// ErrPrefix starts the gateway's messages about the command the
	// shell ran (not found, refused): bash's "script.sh: line 3", or
	// "sandsh" when empty. A command that runs another gets none.
	ErrPrefix string

	// SearchPath is the shell's $PATH, used to find commands when Environ
	// has no PATH (bash searches its PATH variable, exported or not).
	SearchPath string

	// Exec runs args[0] with args[1:] through the sandbox gateway, as the
	// shell would for a command that is not a function or shell builtin.
	// sub carries the streams, directory and environment to run it with.
	// It is never nil when a command is run by sandsh.
	Exec func(ctx context.Context, sub *Env, args []string) int

	// Shell runs a nested in-process shell (bash or sh) with args, where
	// args[0] is the name it was called by. Set by the runner.
	Shell func(ctx context.Context, sub *Env, args []string) int

	// LookPath reports how the gateway would run name: the path `which`
	// prints (e.g. "/usr/bin/cat"), or ok=false when nothing would run.
	LookPath func(name string) (path string, ok bool)

	// LookPathAll lists every place $PATH lookup finds name (which -a).
	LookPathAll func(name string) []string

	// Sys holds the virtual identity of the machine.
	Sys *System

	// Restricted is set when the gateway runs no host programs. Commands
	// that run other commands (env, nice, nohup, timeout, time, xargs)
	// then leave a missing command to the gateway, whose refusal is the
	// same whatever the route.
	Restricted bool

	// MaxLine bounds one line or record a command holds in memory (the
	// shared line reader, sed's pattern space, awk's records); 0 means
	// DefaultMaxLine. The runner sets it to --max-var-bytes: a line a
	// script could not keep in a variable is not one a command keeps.
	// A negative value means no bound (--max-var-bytes 0).
	MaxLine int

	// MaxInput bounds the whole input a command must hold at once (sort,
	// tac, shuf, diff, column, jq, a file awk or sed reads whole); 0
	// means DefaultMaxInput, negative no bound. The runner sets it to
	// --max-capture: an input a script could not capture with $( ) is
	// not one a command keeps.
	MaxInput int

	// Net reaches the network for curl and wget; nil when the run has no
	// network allowance (the gateway sets it, see restrict.WithNet).
	Net Net

	// Alive reports whether a virtual pid names a live process of the
	// run (the shell or one of its jobs), for tail --pid. Nil means none
	// is.
	Alive func(pid int) bool

	// Procs is the run's own table of virtual processes (its shells and
	// background jobs) for ps, pgrep and pkill: a jailed host ps could
	// not see them. Nil means the command runs outside a shell and sees
	// no process.
	Procs Processes

	// Route says how the command running with this Env was reached, for
	// the audit log and the policy: "name", "path", "command", "exec"
	// (the shell ran it), or the command that ran it ("env", "xargs",
	// "find -exec", "timeout", "nice", "nohup", "time", "awk system()",
	// "sed e"). Via lists the commands it runs inside, outermost first
	// (an in-process command, a nested shell "bash" or "sh").
	Route string
	Via   []string
	// Script and Line are where the shell ran the command from, for an
	// operator asked whether it may run: the script file (a sourced
	// file, the file a function was defined in), "-c" for command text,
	// "-" for a script on standard input, "" on the interactive shell;
	// and the line. A command another runs (xargs) keeps its runner's.
	Script string
	Line   int
}

// Process is one virtual process of the run, as ps lists it.
type Process struct {
	PID, PPID, PGID, SID int
	Argv                 []string // what ps shows as args
	Comm                 string   // the program's name, as ps's comm
	Start                time.Time
}

// Processes lists and signals the run's virtual processes.
type Processes interface {
	List() []Process
	// Signal sends the virtual signal sig (0 checks the process is
	// there); the error is syscall.ESRCH or syscall.EPERM.
	Signal(pid, sig int) error
}

// FD is one inherited descriptor: readable through R, writable through W
// (either may be nil).
type FD struct {
	R io.Reader
	W io.Writer
}

// DefaultMaxLine is the line bound when Env.MaxLine is 0: the default of
// --max-var-bytes.
const DefaultMaxLine = 64 << 20

// DefaultMaxInput is the whole-input bound when Env.MaxInput is 0: the
// default of --max-capture.
const DefaultMaxInput = 64 << 20

// InputMax returns the bound on a whole input held at once (-1: none).
func (e *Env) InputMax() int {
	switch {
	case e.MaxInput > 0:
		return e.MaxInput
	case e.MaxInput < 0:
		return -1
	}
	return DefaultMaxInput
}

// LineMax returns the bound on one line or record.
func (e *Env) LineMax() int {
	switch {
	case e.MaxLine > 0:
		return e.MaxLine
	case e.MaxLine < 0:
		return math.MaxInt
	}
	return DefaultMaxLine
}

// System is the virtual machine identity the sandbox reports. None of it
// comes from the host.
type System struct {
	User     string
	UID, GID int
	Hostname string
	NumCPU   int
	// Now returns the current time; a fixed clock makes runs reproducible.
	Now func() time.Time
}

// DefaultSystem is the identity used when none is configured.
func DefaultSystem() *System {
	return &System{User: vfs.DefaultUser, UID: vfs.DefaultUID, GID: vfs.DefaultGID,
		Hostname: "sandbox", NumCPU: 2, Now: time.Now}
}

// Command is one in-process command.
type Command struct {
	Name    string
	Summary string // one line for `sandsh commands`
	Usage   string // printed by --help; first line is the synopsis
	Run     func(ctx context.Context, env *Env, args []string) int
	// RawArgs turns off the generic --help handling, for commands whose
	// arguments are data or another command line (echo, test, env, xargs).
	RawArgs bool
}

// Getenv returns the value of the exported variable name, or "".
func (e *Env) Getenv(name string) string {
	v, _ := e.LookupEnv(name)
	return v
}

// LookupEnv is like os.LookupEnv on the sandbox environment.
func (e *Env) LookupEnv(name string) (string, bool) {
	if e.Lookup != nil {
		return e.Lookup(name)
	}
	return LookupEnviron(e.Environ, name)
}

// LookupEnviron finds name in NAME=VALUE pairs; the last one wins.
func LookupEnviron(environ []string, name string) (string, bool) {
	for i := len(environ) - 1; i >= 0; i-- {
		kv := environ[i]
		if len(kv) > len(name) && kv[len(name)] == '=' && kv[:len(name)] == name {
			return kv[len(name)+1:], true
		}
	}
	return "", false
}

// CommandPath is the $PATH commands are looked up in.
func (e *Env) CommandPath() string {
	if p, ok := e.LookupEnv("PATH"); ok {
		return p
	}
	return e.SearchPath
}

// Abs resolves a path given by the user against the working directory.
func (e *Env) Abs(p string) string { return vfs.Clean(e.Dir, p) }

// Errorf prints "name: message" on stderr, like GNU tools do.
func (e *Env) Errorf(name, format string, a ...any) {
	fmt.Fprintf(e.Stderr, "%s: %s\n", name, fmt.Sprintf(format, a...))
}

// UsageError reports a bad invocation the GNU way and returns status.
func (e *Env) UsageError(name string, err error, status int) int {
	fmt.Fprintf(e.Stderr, "%s: %v\nTry '%s --help' for more information.\n", name, err, name)
	return status
}

// Run runs another command line through the gateway with this command's
// streams and environment.
func (e *Env) Run(ctx context.Context, args []string) int {
	return e.Exec(ctx, e, args)
}

// Sub returns a shallow copy of e that can be changed for a sub-command.
// Child returns a copy of sub for a command that the command self (the
// one running with e) runs by route.
func (e *Env) Child(sub *Env, self, route string) *Env {
	c := *sub
	c.Route, c.ErrPrefix = route, ""
	c.Via = append(append(make([]string, 0, len(e.Via)+1), e.Via...), self)
	return &c
}

func (e *Env) Sub() *Env {
	c := *e
	c.Environ = append([]string(nil), e.Environ...)
	return &c
}

// System returns e.Sys or the default identity.
func (e *Env) System() *System {
	if e.Sys != nil {
		return e.Sys
	}
	return DefaultSystem()
}

// Open opens a file named by the user, relative to the working directory.
// "-" is not special here; callers decide whether it means stdin.
func (e *Env) Open(name string) (io.ReadCloser, error) {
	f, err := e.FS.Open(e.Abs(name))
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, &fs.PathError{Op: "read", Path: name, Err: syscall.EISDIR}
	}
	return f, nil
}

// ErrText renders err the way GNU tools do: "No such file or directory".
func ErrText(err error) string {
	// A sandbox filesystem limit names itself after the errno's text.
	var le *vfs.LimitError
	if errors.As(err, &le) {
		return le.Error()
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errnoText(errno)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "No such file or directory"
	case errors.Is(err, fs.ErrExist):
		return "File exists"
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func errnoText(e syscall.Errno) string {
	switch e {
	case syscall.ENOENT:
		return "No such file or directory"
	case syscall.EISDIR:
		return "Is a directory"
	case syscall.ENOTDIR:
		return "Not a directory"
	case syscall.EEXIST:
		return "File exists"
	case syscall.ENOTEMPTY:
		return "Directory not empty"
	case syscall.EACCES, syscall.EPERM:
		return "Permission denied"
	case syscall.ENOSPC:
		return "No space left on device"
	case syscall.EFBIG:
		return "File too large"
	case syscall.ELOOP:
		return "Too many levels of symbolic links"
	case syscall.EROFS:
		return "Read-only file system"
	case syscall.EXDEV:
		return "Invalid cross-device link"
	case syscall.EINVAL:
		return "Invalid argument"
	}
	s := e.Error()
	return strings.ToUpper(s[:1]) + s[1:]
}

// FileError prints "name: file: No such file or directory" and returns 1.
// A read cut short by cancellation (timeout, interrupt) is not a file
// error: it returns 130 quietly, like WriteError.
func (e *Env) FileError(name, file string, err error) int {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return 130
	}
	fmt.Fprintf(e.Stderr, "%s: %s: %s\n", name, file, ErrText(err))
	return 1
}

// ctxDone reports whether err is the run's cancellation (timeout,
// interrupt): the run reports that itself, so commands stay quiet.
func ctxDone(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// StatusBrokenPipe is what a command returns when its reader went away,
// like a GNU tool killed by SIGPIPE (128+13).
const StatusBrokenPipe = 141

// IsBrokenPipe reports whether err means the reading end of stdout is gone.
func IsBrokenPipe(err error) bool {
	return errors.Is(err, io.ErrClosedPipe) || errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed)
}

// WriteError turns a failed write into a status: silent 141 for a broken
// pipe, a "write error" message and 1 otherwise (e.g. an output limit).
func (e *Env) WriteError(name string, err error) int {
	if IsBrokenPipe(err) {
		return StatusBrokenPipe
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return 130
	}
	fmt.Fprintf(e.Stderr, "%s: write error: %s\n", name, ErrText(err))
	return 1
}

// ReadAll reads a whole input that the command must hold at once,
// checking ctx while it reads and bounded by InputMax (a
// *guard.InputError past it).
func (e *Env) ReadAll(ctx context.Context, r io.Reader) ([]byte, error) {
	return guard.ReadAll(ctx, r, e.InputMax())
}
