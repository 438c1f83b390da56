package interp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sandsh/sandsh/interp/internal/expand"
)

// Invocation is what bash's own command line says about a shell besides
// its script: `bash -i`, `bash -l` (--login) and `bash -O NAME` /
// `bash +O NAME`. The sandsh command line and the in-process `bash` and
// `sh` take the same options.
type Invocation struct {
	// Interactive is `bash -i` running a script (-c text, a file or
	// standard input): $- has i, the prompts and $HISTFILE are set, the
	// emacs editing mode and the history option are on, and an error
	// such as an unset variable under set -u ends only the current line.
	// Unlike Interactive (the REPL's), a limit, --timeout or
	// cancellation still ends the run, and background jobs belong to it.
	Interactive bool
	// Login is `bash -l`: shopt login_shell is on. sandsh reads no
	// startup files, so it changes nothing else.
	Login bool
	// Shopts are the -O NAME (on) and +O NAME (off) options, in order.
	Shopts []Shopt
	// The startup files, read from the sandbox before the script as
	// bash reads them: a login shell reads /etc/profile and the first of
	// ~/.bash_profile, ~/.bash_login and ~/.profile (not with
	// NoProfile); an interactive shell that is not a login shell reads
	// RCFile, by default ~/.bashrc (not with NoRC). A missing file is
	// skipped.
	NoProfile, NoRC bool
	RCFile          string
}

// Shopt is one `shopt` option turned on or off.
type Shopt struct {
	Name string
	On   bool
}

// WithInvocation applies bash's invocation options (see Invocation).
func WithInvocation(inv Invocation) Option {
	return func(c *config) error { c.inv = inv; return nil }
}

// ValidShopt reports whether name is a `shopt` option.
func ValidShopt(name string) bool {
	_, ok := shoptOptions[name]
	return ok
}

// startAs makes r the shell inv describes, before its variables are set
// up (an interactive shell has more of them).
func (r *Runner) startAs(inv Invocation) {
	if inv.Interactive {
		r.interactive = true
	}
	r.opts.loginShell = inv.Login
	// Lines typed at a prompt (the REPL, sessions) read no startup files.
	if !r.prompt && (inv.Login && !inv.NoProfile || inv.Interactive && !inv.NoRC) {
		r.startup = &inv
	}
}

// readStartupFiles reads the startup files the invocation asks for (see
// Invocation), once, before the first script runs.
func (r *Runner) readStartupFiles(ctx context.Context) {
	inv := r.startup
	if inv == nil {
		return
	}
	r.startup = nil
	home := r.homeDir()
	switch {
	case inv.Login:
		r.runStartupFile(ctx, "/etc/profile")
		for _, name := range []string{"/.bash_profile", "/.bash_login", "/.profile"} {
			if _, err := r.s.fs.Stat(home + name); err == nil {
				r.runStartupFile(ctx, home+name)
				break
			}
		}
	case inv.RCFile != "":
		r.runStartupFile(ctx, inv.RCFile)
	default:
		r.runStartupFile(ctx, home+"/.bashrc")
	}
}

// runStartupFile runs a startup file in this shell; one that cannot be
// read is skipped.
func (r *Runner) runStartupFile(ctx context.Context, name string) {
	data, err := r.readScript(r.abs(name))
	if err != nil {
		return
	}
	saved := r.source
	r.source = name
	r.evalString(ctx, string(data), name)
	r.source = saved
}

// applyShopts turns on and off the -O/+O options; an unknown name is an
// error, as bash's "NAME: invalid shell option name".
func (r *Runner) applyShopts(list []Shopt) error {
	for _, o := range list {
		f, ok := shoptOptions[o.Name]
		if !ok {
			return fmt.Errorf("%s: invalid shell option name", o.Name)
		}
		if f != nil {
			*f(&r.opts) = o.On
		}
	}
	return nil
}

// interactiveVars sets what only an interactive bash sets as it starts:
// the prompts, a history file name (which sandsh never writes: the REPL
// keeps its history in memory or in --history-file on the host), the
// history option and emacs editing mode.
func (r *Runner) interactiveVars(def func(name, val string)) {
	def("PS1", `\s-\v\$ `)
	def("PS2", "> ")
	def("HISTFILE", r.homeDir()+"/.bash_history")
	r.opts.history, r.opts.emacs = true, !r.opts.vi
}

// homeDir is $HOME, or the user's home in the sandbox's /etc/passwd
// when HOME is unset, as bash falls back to the user database.
func (r *Runner) homeDir() string {
	if v, _ := r.lookup("HOME"); v != nil && v.Set && v.Kind == expand.String {
		return v.Str
	}
	home, _ := r.passwdEntry()
	return home
}

// passwdEntry is the home directory and login shell of the sandbox user
// in the sandbox's /etc/passwd ("/" and "/bin/sh" when it has no entry,
// as bash's defaults).
func (r *Runner) passwdEntry() (home, shell string) {
	home, shell = "/", "/bin/sh"
	f, err := r.s.fs.Open("/etc/passwd")
	if err != nil {
		return home, shell
	}
	defer f.Close()
	uid := strconv.Itoa(r.s.sys.UID)
	sc := bufio.NewScanner(io.LimitReader(f, 1<<20))
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ":")
		if len(fields) == 7 && fields[2] == uid {
			if fields[5] != "" {
				home = fields[5]
			}
			if fields[6] != "" {
				shell = fields[6]
			}
			break
		}
	}
	return home, shell
}
