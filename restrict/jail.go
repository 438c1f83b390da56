package restrict

// Allowlisted host programs in an OS jail (--allow-run). In restricted
// mode a name the operator allowed, which nothing in the sandbox answers,
// is not refused: the gateway copies the sandbox's working tree, hands
// the command line, the exported variables and three pipes to a Jailer,
// streams the pipes to and from the script's own streams (so --max-output
// counts), and writes what the program changed back into the sandbox
// filesystem. In a worker the Jailer only asks the supervising parent
// (JailClient); the parent checks the name again and builds the jail
// (package jail), so a compromised worker cannot start anything itself.

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/internal/termsafe"
	"github.com/sandsh/sandsh/vfs"
)

// JailRequest is one run of an allowlisted host program.
type JailRequest struct {
	// Name is the allowlisted name (a base name, never a path): the
	// side that builds the jail resolves it on the host itself.
	Name string
	Argv []string // argv[0] as the script wrote it
	Env  []string // the script's exported variables
	Dir  string   // the working directory, inside Work
	// Work is the sandbox directory presented at the same path in the
	// jail, and Tree its contents.
	Work string
	Tree *vfs.Snapshot
}

// JailResult is how the jailed program ended.
type JailResult struct {
	Status int
	// Tree is the working tree after the program (nil when it was
	// killed before the tree could be read back).
	Tree *vfs.Snapshot
	// Backend names the jail that ran it ("ns", "bwrap").
	Backend string
	// Refused, when set, says why no jail could be built (nothing ran).
	Refused string
	// Notes are lines for --verbose (the limits that applied).
	Notes []string
	// RefusedExecs are the programs the jailed program tried to execute
	// that the jail refused (only the allowed programs run in it).
	RefusedExecs []JailExec
}

// JailExec is one exec inside a jail.
type JailExec struct {
	Path string
	Argv []string
}

// Jailer runs req in a jail with the given standard streams. It returns
// once the program and everything it started are gone. It must not
// close the files.
type Jailer func(ctx context.Context, req *JailRequest, stdin, stdout, stderr *os.File) (*JailResult, error)

// JailEvent is one jailed run, for the audit log.
type JailEvent struct {
	Backend  string
	Argv     []string
	Status   int
	Duration time.Duration
	Changes  []vfs.Change
	Refused  string
	// RefusedExecs are the execs refused inside the jail.
	RefusedExecs []JailExec
}

// JailSetup turns on jailed host programs in a restricted gateway.
type JailSetup struct {
	// Allowed says whether a command line (argv[0] a bare name) may run
	// in the jail: the --allow-run list or a policy rule saying jail.
	Allowed func(argv []string) bool
	Run     Jailer
	// Work is the sandbox directory the program is shown (the sandbox's
	// working tree); it runs only from inside it.
	Work string
	// Limits bound the copy of the tree.
	Limits vfs.SnapLimits
	// Observe, if set, hears about every jailed run.
	Observe func(JailEvent)
	// Verbose prints the jail's notes on the script's stderr.
	Verbose bool
}

// WithJail lets the names s allows run as host programs in a jail.
func WithJail(s JailSetup) Option {
	return func(g *Gateway) {
		if s.Allowed != nil && s.Run != nil {
			g.jail = &s
		}
	}
}

// jailable reports whether name (a base name) with args runs in the jail.
func (g *Gateway) jailable(name string, args []string) bool {
	if g.jail == nil || !g.restricted || name == "" || strings.Contains(name, "/") {
		return false
	}
	argv := append([]string{name}, args[1:]...)
	return g.jail.Allowed(argv)
}

// runJailed runs the allowlisted host program name in the jail.
func (g *Gateway) runJailed(ctx context.Context, env *builtins.Env, name string, args []string) int {
	j := g.jail
	if env.Dir != j.Work && !strings.HasPrefix(env.Dir, strings.TrimSuffix(j.Work, "/")+"/") {
		return refuse(env, args[0], fmt.Sprintf("jail: runs only inside %s, the working tree it is shown", j.Work), StatusNotExecutable)
	}
	start := time.Now()
	before, err := vfs.ReadTree(ctx, env.FS, j.Work, j.Limits)
	if err != nil {
		return refuse(env, args[0], "jail: cannot copy the working tree: "+builtins.ErrText(err), StatusNotExecutable)
	}
	req := &JailRequest{Name: name, Argv: args, Env: env.Environ, Dir: env.Dir, Work: j.Work, Tree: before}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stdin, stopIn, err := inPipe(ctx, env.Stdin)
	if err != nil {
		return refuse(env, args[0], "jail: "+err.Error(), StatusNotExecutable)
	}
	defer stopIn()
	stdout, waitOut, err := outPipe(env.Stdout)
	if err != nil {
		return refuse(env, args[0], "jail: "+err.Error(), StatusNotExecutable)
	}
	stderr, waitErr, err := outPipe(env.Stderr)
	if err != nil {
		stdout.Close()
		waitOut()
		return refuse(env, args[0], "jail: "+err.Error(), StatusNotExecutable)
	}
	res, err := j.Run(ctx, req, stdin, stdout, stderr)
	stopIn()
	stdout.Close()
	stderr.Close()
	waitOut()
	waitErr()
	ev := JailEvent{Argv: args, Duration: time.Since(start)}
	defer func() {
		if j.Observe != nil {
			j.Observe(ev)
		}
	}()
	if err == nil && res.Refused != "" {
		err = fmt.Errorf("%s", res.Refused)
	}
	if err != nil && ctx.Err() != nil {
		// The run is ending (timeout, a limit, Ctrl-C) and the jail was
		// killed with it; the runner reports why.
		ev.Status = 128 + 9
		return ev.Status
	}
	if err != nil {
		ev.Refused, ev.Status = err.Error(), StatusNotExecutable
		return refuse(env, args[0], "jail: "+err.Error(), StatusNotExecutable)
	}
	ev.Backend, ev.Status, ev.RefusedExecs = res.Backend, res.Status, res.RefusedExecs
	if j.Verbose {
		for _, n := range res.Notes {
			termsafe.Fprintf(env.Stderr, "sandsh: jail: %s\n", n)
		}
	}
	if res.Tree != nil {
		ev.Changes, err = vfs.ApplyTree(ctx, env.FS, j.Work, before, res.Tree)
		if err != nil {
			termsafe.Fprintf(env.Stderr, "sandsh: %s: jail: copying the changes back: %s; %s\n", args[0], builtins.ErrText(err),
				undoTree(ctx, env.FS, j, before))
			ev.Changes = nil
			if res.Status == 0 {
				ev.Status = 1
			}
		}
	}
	return ev.Status
}

// undoTree puts the working tree back as it was before the jailed
// program ran, once copying its changes back failed half way: the
// copy-back is all or nothing (a refused write must not leave the
// deletions before it applied). It says what became of the tree.
func undoTree(ctx context.Context, fsys vfs.FS, j *JailSetup, before *vfs.Snapshot) string {
	cur, err := vfs.ReadTree(ctx, fsys, j.Work, j.Limits)
	if err == nil {
		_, err = vfs.ApplyTree(ctx, fsys, j.Work, cur, before)
	}
	if err != nil {
		return "undoing the changes applied failed too: " + builtins.ErrText(err)
	}
	return "no change was kept"
}

// inPipe gives the jailed program its standard input: a host file as it
// is, anything else (the shell's pipes) through a pipe fed while the
// program runs. stop ends the feeding.
func inPipe(ctx context.Context, r io.Reader) (*os.File, func(), error) {
	if f, ok := r.(*os.File); ok && f != nil {
		return f, func() {}, nil
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	if r == nil {
		pw.Close()
		return pr, func() { pr.Close() }, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	var once sync.Once
	closeW := func() { once.Do(func() { pw.Close() }) }
	go func() {
		defer closeW()
		buf := make([]byte, 32<<10)
		for {
			var n int
			var err error
			if cr, ok := r.(builtins.ContextReader); ok {
				n, err = cr.ReadContext(ctx, buf)
			} else {
				n, err = r.Read(buf)
			}
			if n > 0 {
				if _, werr := pw.Write(buf[:n]); werr != nil {
					return
				}
			}
			if err != nil || ctx.Err() != nil {
				return
			}
		}
	}()
	return pr, func() { cancel(); closeW(); pr.Close() }, nil
}

// outPipe returns the write end of a pipe copied to w; wait, called once
// the program is gone and the write end closed, waits for the copy. A
// writer that fails (the --max-output limit, a closed pipe) closes the
// read end, so the program gets EPIPE as it would from a real pipe.
func outPipe(w io.Writer) (*os.File, func(), error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	if w == nil {
		w = io.Discard
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer pr.Close()
		io.Copy(w, pr)
	}()
	return pw, func() { <-done }, nil
}
