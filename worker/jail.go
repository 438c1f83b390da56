package worker

// Allowlisted host programs in an OS jail (--allow-run, a policy rule
// saying jail): the flags, the predicate both sides apply, and the
// trusted jail runner of the parent (package jail). The worker only asks
// the parent over a socket (restrict.JailClient); with --no-worker the
// sandbox calls the runner directly.

import (
	"context"
	"os"
	"strings"

	"github.com/sandsh/sandsh/jail"
	"github.com/sandsh/sandsh/policy"
	"github.com/sandsh/sandsh/restrict"
)

// jailAllowed returns the predicate deciding which command lines run in
// the jail, or nil when nothing does: a name given to --allow-run, or a
// command a policy rule says jail for.
func (o *Options) jailAllowed(pol *policy.Policy) (func(argv []string) bool, error) {
	names := map[string]bool{}
	for _, n := range o.AllowRun {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if strings.Contains(n, "/") || n == "." || n == ".." {
			return nil, usagef("--allow-run %q: want a program name, not a path", n)
		}
		names[n] = true
	}
	if len(names) == 0 && (pol == nil || !pol.HasJail()) {
		return nil, nil
	}
	if o.FS == "disk" && o.Root == "" && !o.Restricted {
		return nil, usagef("--allow-run: unrestricted --fs disk runs host programs unjailed already")
	}
	return func(argv []string) bool {
		if names[argv[0]] {
			return true
		}
		return pol != nil && pol.Decide(argv).Action == policy.Jail
	}, nil
}

// hostJail is the trusted jail runner for this run's flags.
func (o *Options) hostJail(allowed func([]string) bool) (*jail.Config, error) {
	if err := jail.CheckReadOnly(o.JailRO); err != nil {
		return nil, usagef("%v", err)
	}
	lim, err := o.sandboxLimits()
	if err != nil {
		return nil, err
	}
	backend := o.JailBackend
	if backend == "" && o.IO.Getenv != nil {
		backend = o.IO.Getenv(jail.BackendEnv)
	}
	switch backend {
	case "", jail.BackendAuto, jail.BackendNS, jail.BackendBwrap:
	default:
		return nil, usagef("--jail-backend %q: want ns, bwrap or auto", backend)
	}
	return &jail.Config{Allowed: allowed, ReadOnly: o.JailRO, Backend: backend,
		Limits: jail.Limits{MaxFSBytes: lim.MaxFSBytes, MaxFiles: lim.MaxFiles, MaxFileSize: lim.MaxFileSize,
			MaxMemory: lim.MaxMemory, Timeout: lim.Timeout}}, nil
}

// jailer is the sandbox's Jailer: the parent's, asked over the socket,
// in a worker; the runner itself in-process.
func (o *Options) jailer(allowed func([]string) bool) (restrict.Jailer, error) {
	if o.worker != nil {
		if o.worker.jail == nil {
			return nil, nil // the parent did not offer one: nothing runs
		}
		return restrict.JailClient(o.worker.jail), nil
	}
	j, err := o.hostJail(allowed)
	if err != nil {
		return nil, err
	}
	return j.Run, nil
}

// serveJail starts answering the worker's jail requests; stop kills the
// jails still running and waits for them.
func (o *Options) serveJail(spec *restrict.WorkerSpec, p *workerPayload) (stop func(), err error) {
	pol, err := o.LoadPolicy()
	if err != nil {
		return nil, err
	}
	allowed, err := o.jailAllowed(pol)
	if err != nil || allowed == nil {
		return func() {}, err
	}
	j, err := o.hostJail(allowed)
	if err != nil {
		return nil, err
	}
	parent, worker, err := restrict.JailSocket()
	if err != nil {
		return nil, err
	}
	spec.Extra = append(spec.Extra, worker)
	p.JailFD = restrict.WorkerExtraFD + len(spec.Extra) - 1
	lim, _ := o.sandboxLimits()
	maxReq := int64(1 << 30)
	if lim.MaxFSBytes > 0 {
		maxReq = 2*lim.MaxFSBytes + 64<<20
	}
	ctx, cancel := context.WithCancel(context.Background())
	wait := restrict.ServeJail(ctx, parent, j.Run, maxReq)
	return func() {
		worker.Close() // the worker is gone: the server sees the end
		cancel()
		wait()
		parent.Close()
	}, nil
}

// workerJail picks up the socket the parent offered.
func workerJail(fd int) *os.File {
	if fd <= 0 {
		return nil
	}
	restrict.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), "jail")
}
