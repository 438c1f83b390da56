//go:build linux

package jail

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/sandsh/sandsh/internal/termsafe"
	"github.com/sandsh/sandsh/restrict"
	"github.com/sandsh/sandsh/vfs"
)

// bwrapPath finds bubblewrap in the system directories (never on a
// $PATH someone else chose).
func bwrapPath() string {
	for _, d := range ProgramPath {
		p := d + "/bwrap"
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// bwrap finds bubblewrap in the system directories (or at the path a
// test put in c.bwrapAt) and checks its version, once per Config.
func (c *Config) bwrap() bwrapInfo {
	c.bwrapOnce.Do(func() {
		p := c.bwrapAt
		if p == "" {
			p = bwrapPath()
		}
		c.bwrapSeen = probeBwrap(p, c.bwrapAnyVersion)
	})
	return c.bwrapSeen
}

// probeBwrap asks the bubblewrap at p for its version and refuses one
// older than minBwrap (unless anyVersion, for tests of the backend on
// an older one).
func probeBwrap(p string, anyVersion bool) bwrapInfo {
	if p == "" {
		return bwrapInfo{err: errors.New("bwrap is not installed (looked in " + strings.Join(ProgramPath, ":") + ")")}
	}
	out, err := hostOutput(p, "--version")
	if err != nil {
		return bwrapInfo{path: p, err: fmt.Errorf("%s --version: %v", p, err)}
	}
	line, _, _ := strings.Cut(strings.TrimSpace(out), "\n")
	v, ok := strings.CutPrefix(line, "bubblewrap ")
	nums, perr := parseVersion(v)
	switch {
	case !ok || perr != nil:
		return bwrapInfo{path: p, err: fmt.Errorf("%s --version said %q, not a bubblewrap version", p, line)}
	case !anyVersion && versionLess(nums, minBwrap):
		return bwrapInfo{path: p, version: v, err: fmt.Errorf("%s is bubblewrap %s, %w", p, v, ErrBwrapOld)}
	}
	return bwrapInfo{path: p, version: v}
}

// parseVersion reads "0.12.0" (a suffix such as "-rc1" ignored).
func parseVersion(v string) ([3]int, error) {
	var out [3]int
	v, _, _ = strings.Cut(v, "-")
	parts := strings.Split(v, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return out, errors.New("bad version")
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return out, errors.New("bad version")
		}
		out[i] = n
	}
	return out, nil
}

func versionLess(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// hostOutput runs a host program of the operator's (bwrap --version)
// and returns what it printed, at most 4 KiB, within 5 seconds.
func hostOutput(p string, args ...string) (string, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return "", err
	}
	defer r.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		w.Close()
		return "", err
	}
	defer null.Close()
	jp, err := restrict.StartJailProc(restrict.JailProcSpec{Path: p, Args: append([]string{p}, args...),
		Env: []string{"PATH=/usr/bin:/bin", "LC_ALL=C"}, Files: []*os.File{null, w, w}, HostUID: os.Getuid(), HostGID: os.Getgid()})
	w.Close()
	if err != nil {
		return "", err
	}
	t := time.AfterFunc(5*time.Second, jp.Kill)
	defer t.Stop()
	out, _ := io.ReadAll(io.LimitReader(r, 4096))
	ws, _ := jp.Wait()
	if !ws.Exited() || ws.ExitStatus() != 0 {
		return string(out), fmt.Errorf("%s", describe(ws))
	}
	return string(out), nil
}

// kernelRelease names the kernel the ns backend's walls are.
func kernelRelease() string {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return "?"
	}
	return unix.ByteSliceToString(u.Release[:])
}

func (c *Config) exe() string {
	if c.Exe != "" {
		return c.Exe
	}
	return "/proc/self/exe"
}

// initEnv is the jail init's whole environment: one thread of Go code
// and no collector are enough for what it does before it execs, and
// start faster.
var initEnv = []string{InitEnv + "=1", "GOMAXPROCS=1", "GOGC=off"}

// Root's jails run as a host uid of their own, drawn at random for each
// jail from a range no account uses: never the host's root, never a
// user other jobs signal (the jails ran as nobody, and a job killing
// nobody's processes killed them), and RLIMIT_NPROC, which the kernel
// counts per user and does not apply to root, counts this jail's
// processes alone.
// The range sits above systemd's container range (0x80000 to
// 0x6FFFFFFF) and below 2^31 (bwrap reads ids as signed ints).
const (
	jailUIDBase  = 0x70000000
	jailUIDRange = 1 << 24
)

// hostIDs are the host user and group the jail's uid/gid 1000 are.
func hostIDs() (int, int) {
	if os.Getuid() != 0 {
		return os.Getuid(), os.Getgid()
	}
	id := jailUIDBase + rand.IntN(jailUIDRange)
	return id, id
}

// openExe opens sandsh's executable for exec through /proc/self/fd, so
// that a jail running as another user needs no search permission on the
// directories it lives in.
func openExe(exe string) (*os.File, string, error) {
	fd, err := unix.Open(exe, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, "", fmt.Errorf("open the sandsh executable: %w", err)
	}
	return os.NewFile(uintptr(fd), "sandsh"), "/proc/self/fd/" + strconv.Itoa(fd), nil
}

// probeNS starts a jail init in the namespaces that exits at once.
func probeNS(exe string) error {
	null, err := os.Open(os.DevNull)
	if err != nil {
		return err
	}
	defer null.Close()
	exeF, exePath, err := openExe(exe)
	if err != nil {
		return err
	}
	defer exeF.Close()
	uid, gid := hostIDs()
	jp, err := restrict.StartJailProc(restrict.JailProcSpec{Path: exePath, Args: []string{"sandsh"},
		Env: []string{InitEnv + "=probe"}, Files: []*os.File{null, null, null}, NewNamespaces: true, HostUID: uid, HostGID: gid})
	if err != nil {
		return nsError(err)
	}
	ws, err := jp.Wait()
	if err != nil || !ws.Exited() || ws.ExitStatus() != 0 {
		return fmt.Errorf("the namespaces could not be set up (%v)", ws)
	}
	return nil
}

func nsError(err error) error {
	switch {
	case errors.Is(err, syscall.ENOSPC):
		return fmt.Errorf("user namespaces are unavailable (max_user_namespaces reached or 0): %w", err)
	case errors.Is(err, syscall.EPERM), errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EINVAL):
		return fmt.Errorf("user namespaces are not permitted here: %w", err)
	}
	return err
}

// Backends lists the backends this host can build a jail with, and why
// the others cannot: for `sandsh version`.
func Backends(exe string) []string {
	if exe == "" {
		exe = "/proc/self/exe"
	}
	var out []string
	if err := probeNS(exe); err != nil {
		out = append(out, "ns: unavailable ("+err.Error()+")")
	} else {
		out = append(out, "ns: available (user, mount, pid, net, ipc, uts namespaces; sandsh as the jail init)")
	}
	if bw := probeBwrap(bwrapPath(), false); bw.err != nil {
		out = append(out, "bwrap: unavailable ("+bw.err.Error()+")")
	} else {
		out = append(out, "bwrap: available (bubblewrap "+bw.version+", "+bw.path+")")
	}
	return out
}

// BwrapUsable says why the bwrap backend cannot run here, or nil when
// it can (tests run it only then).
func BwrapUsable() error { return probeBwrap(bwrapPath(), false).err }

// Run runs req in a jail: the restrict.Jailer of the trusted side.
func (c *Config) Run(ctx context.Context, req *restrict.JailRequest, stdin, stdout, stderr *os.File) (*restrict.JailResult, error) {
	if c.Allowed == nil || req.Name == "" || strings.Contains(req.Name, "/") || len(req.Argv) == 0 ||
		!c.Allowed(append([]string{req.Name}, req.Argv[1:]...)) {
		return nil, fmt.Errorf("%s is not allowed to run", req.Name)
	}
	if err := c.checkWork(req.Work, req.Dir); err != nil {
		return nil, err
	}
	for _, s := range append(append([]string{}, req.Argv...), req.Env...) {
		if strings.IndexByte(s, 0) >= 0 {
			return nil, errors.New("an argument or variable holds a NUL byte")
		}
	}
	if err := req.Tree.Check(c.Limits.snapLimits()); err != nil {
		return nil, err
	}
	prog := ""
	for _, d := range ProgramPath {
		p := d + "/" + req.Name
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			prog = p
			break
		}
	}
	if prog == "" {
		return nil, fmt.Errorf("%s is allowed but not installed on the host (looked in %s)", req.Name, strings.Join(ProgramPath, ":"))
	}
	ic := &initConfig{Program: prog, Argv: req.Argv, Env: req.Env, Dir: req.Dir, Work: req.Work,
		Home: c.home(req.Env, req.Work), Tree: req.Tree, Limits: c.limits(), Links: map[string]string{}}
	for _, p := range append(append([]string{}, SystemDirs...), c.ReadOnly...) {
		fi, err := os.Lstat(p)
		switch {
		case err != nil:
		case fi.Mode()&os.ModeSymlink != 0:
			if t, err := os.Readlink(p); err == nil {
				ic.Links[p] = t
			}
		default:
			ic.RO = append(ic.RO, p)
		}
	}
	for _, g := range Secrets {
		m, _ := filepath.Glob(g)
		ic.Masked = append(ic.Masked, m...)
	}
	backend := c.Backend
	if backend == "" {
		backend = BackendAuto
	}
	var errs []string
	try := func(b string) (*restrict.JailResult, error) {
		res, err := c.runWith(ctx, b, ic, stdin, stdout, stderr)
		if err != nil {
			errs = append(errs, b+": "+err.Error())
		}
		return res, err
	}
	switch backend {
	case BackendNS, BackendBwrap:
		if res, err := try(backend); err == nil {
			return res, nil
		}
	case BackendAuto:
		// Ours first: it bounds the working tree in a tmpfs it mounts
		// itself and costs one exec less. bwrap when ours cannot run
		// (a host where only a setuid bwrap may create namespaces).
		if res, err := try(BackendNS); err == nil {
			return res, nil
		}
		if c.bwrap().path != "" {
			if res, err := try(BackendBwrap); err == nil {
				return res, nil
			}
		}
	default:
		return nil, fmt.Errorf("unknown jail backend %q (want ns, bwrap or auto)", backend)
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return &restrict.JailResult{Refused: "cannot build the jail, so " + req.Name + " does not run: " + strings.Join(errs, "; ")}, nil
}

// cgroupParent finds, once per Config, where the jails' cgroups go.
func (c *Config) cgroupParent() (string, error) {
	c.cgroupOnce.Do(func() { c.cgroupDir, c.cgroupWhy = cgroupParent() })
	return c.cgroupDir, c.cgroupWhy
}

func (c *Config) limits() Limits {
	l := c.Limits
	if l.MaxProcs <= 0 {
		l.MaxProcs = 256
	}
	return l
}

// setupError is a jail that could not be built: nothing ran, and the
// next backend may try.
type setupError struct{ msg string }

func (e *setupError) Error() string { return e.msg }

// runWith builds the jail with one backend and runs the program. An error
// means nothing ran.
func (c *Config) runWith(ctx context.Context, backend string, ic *initConfig, stdin, stdout, stderr *os.File) (*restrict.JailResult, error) {
	cfgR, cfgW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer cfgR.Close()
	defer cfgW.Close()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	reply := os.NewFile(uintptr(fds[0]), "jail-reply")
	defer reply.Close()
	initReply := os.NewFile(uintptr(fds[1]), "jail-init-reply")
	var bwrapErr lockedBuffer
	files := []*os.File{stdin, stdout, stderr, cfgR, initReply}
	conf := *ic
	uid, gid := hostIDs()
	spec := restrict.JailProcSpec{Args: []string{"sandsh"}, Env: initEnv, HostUID: uid, HostGID: gid}
	switch backend {
	case BackendNS:
		exeF, exePath, err := openExe(c.exe())
		if err != nil {
			initReply.Close()
			return nil, err
		}
		defer exeF.Close()
		conf.Mount = true
		spec.Path, spec.Files, spec.NewNamespaces = exePath, files, true
	case BackendBwrap:
		info := c.bwrap()
		if info.err != nil {
			initReply.Close()
			return nil, info.err
		}
		bw := info.path
		// bwrap copies sandsh in from its descriptor 5 (a read-only
		// file of its tmpfs): it may run as another user (root's jail
		// runs as a uid of its own) than the one who can reach sandsh's directory.
		var exeData *os.File
		exePath := ""
		if p, err := os.Executable(); err == nil && c.Exe == "" && reachable(p, uid) {
			exePath = p
		} else if exeData, err = os.Open(c.exe()); err != nil {
			initReply.Close()
			return nil, err
		} else {
			defer exeData.Close()
		}
		// Its own errors go to a pipe of ours, the program's stderr is
		// descriptor 6 until the init moves it to 2.
		bwErrR, bwErrW, err := os.Pipe()
		if err != nil {
			initReply.Close()
			return nil, err
		}
		defer bwErrR.Close()
		defer bwErrW.Close()
		go func() { io.Copy(&bwrapErr, io.LimitReader(bwErrR, 4096)); io.Copy(io.Discard, bwErrR) }()
		conf.StderrFD = 6
		spec.Path, spec.Files = bw, []*os.File{stdin, stdout, bwErrW, cfgR, initReply, exeData, stderr}
		spec.Args = append([]string{"bwrap"}, bwrapArgs(exePath, &conf)...)
	}
	cgParent, cgWhy := c.cgroupParent()
	var cg *jailCgroup
	if cgWhy == nil {
		if cg, cgWhy = newJailCgroup(cgParent, c.limits()); cg != nil {
			defer cg.remove()
			spec.UseCgroup, spec.CgroupFD = true, cg.fd
		}
	}
	jp, err := restrict.StartJailProc(spec)
	initReply.Close()
	if err != nil {
		if backend == BackendNS {
			return nil, nsError(err)
		}
		return nil, err
	}
	cfgR.Close()
	go func() {
		gob.NewEncoder(cfgW).Encode(&conf)
		cfgW.Close()
	}()
	stop := context.AfterFunc(ctx, jp.Kill)
	defer stop()

	// The init answers once: an error (nothing ran), or the working
	// tree's directory, which keeps the jail's tmpfs readable after
	// everything in the jail is gone.
	buf := make([]byte, 4096)
	oob := make([]byte, unix.CmsgSpace(2*4))
	n, oobn, _, _, rerr := unix.Recvmsg(int(reply.Fd()), buf, oob, unix.MSG_CMSG_CLOEXEC)
	var work, listener *os.File
	if rerr == nil && oobn > 0 {
		if msgs, err := unix.ParseSocketControlMessage(oob[:oobn]); err == nil && len(msgs) > 0 {
			if fds, err := unix.ParseUnixRights(&msgs[0]); err == nil && len(fds) > 0 {
				work = os.NewFile(uintptr(fds[0]), "jail-work")
				if len(fds) > 1 {
					listener = os.NewFile(uintptr(fds[1]), "jail-exec-listener")
				}
				for _, fd := range fds[min(len(fds), 2):] {
					unix.Close(fd)
				}
			}
		}
	}
	if work != nil {
		defer work.Close()
	}
	guard := newExecGuard(ic.Argv[0], ic.Program, c.Allowed, func(line string) { fmt.Fprintln(stderr, line) })
	guardDone := make(chan struct{})
	if listener != nil {
		exited := make(chan struct{})
		go func() {
			defer close(guardDone)
			guard.serve(int(listener.Fd()), exited)
			listener.Close()
		}()
		defer func() { close(exited); <-guardDone }()
	} else {
		close(guardDone)
		if work != nil {
			// An init that confined itself always sends both; without
			// the listener nothing could stop its execs.
			jp.Kill()
			work.Close()
			work = nil
		}
	}
	ws, _ := jp.Wait()
	msg := ""
	if rerr == nil {
		msg = string(buf[:n])
	}
	if work == nil || msg != "ok" {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if msg == "" {
			msg = "the jail init ended before the program started (" + describe(ws) + ")"
			if e := strings.TrimSpace(bwrapErr.String()); e != "" {
				msg = e
			}
		}
		return nil, &setupError{msg}
	}
	res := &restrict.JailResult{Backend: backend, Status: status(ws)}
	defer func() { res.RefusedExecs = refusedExecs(guard.Refused()) }()
	if ws.Signaled() && ctx.Err() == nil {
		if m := killMessage(ws.Signal(), jp.CPUTime(), c.limits(), cg != nil && cg.oomKilled()); m != "" {
			termsafe.Fprintf(stderr, "sandsh: %s: %s\n", ic.Argv[0], m)
		}
	}
	which := "sandsh's own jail init, kernel " + kernelRelease()
	if backend == BackendBwrap {
		which = "bubblewrap " + c.bwrap().version + ", " + c.bwrap().path
	}
	res.Notes = append(res.Notes, fmt.Sprintf("%s: %s ran in the %s jail (%s), status %d", ic.Argv[0], ic.Program, backend, which, res.Status),
		"limits: rlimits "+c.limits().describe(),
		"limits: "+describeCgroup(cg, cgWhy, c.limits(), os.Getuid() == 0),
		"may execute: "+strings.Join(guard.programs(), ", ")+" (and byte-identical copies; the programs allowed by name, as installed in "+
			strings.Join(ProgramPath, ":")+"); every other exec is refused")
	if ctx.Err() != nil {
		return res, nil // killed: the tree may be half written; the run is ending anyway
	}
	workDir := "/proc/self/fd/" + strconv.Itoa(int(work.Fd()))
	tree, err := vfs.ReadHostTree(ctx, workDir, c.Limits.snapLimits())
	if err != nil {
		termsafe.Fprintf(stderr, "sandsh: %s: jail: the working tree cannot come back: %s\n", ic.Argv[0], strings.ReplaceAll(err.Error(), workDir, ic.Work))
		res.Status = 1
		return res, nil
	}
	res.Tree = tree
	return res, nil
}

func refusedExecs(rs []RefusedExec) []restrict.JailExec {
	var out []restrict.JailExec
	for _, r := range rs {
		out = append(out, restrict.JailExec{Path: r.Path, Argv: r.Argv})
	}
	return out
}

// lockedBuffer collects bwrap's own error messages.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (l Limits) describe() string {
	var parts []string
	if l.MaxMemory > 0 {
		parts = append(parts, "AS="+strconv.FormatInt(l.MaxMemory, 10))
	}
	parts = append(parts, "NPROC="+strconv.Itoa(l.MaxProcs), "NOFILE=1024")
	if l.MaxFileSize > 0 {
		parts = append(parts, "FSIZE="+strconv.FormatInt(l.MaxFileSize, 10))
	}
	if l.Timeout > 0 {
		parts = append(parts, "CPU="+strconv.Itoa(cpuSeconds(l.Timeout))+"s")
	}
	return strings.Join(parts, " ")
}

func status(ws syscall.WaitStatus) int {
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}

func describe(ws syscall.WaitStatus) string {
	if ws.Signaled() {
		return "killed by " + unix.SignalName(ws.Signal())
	}
	return "status " + strconv.Itoa(ws.ExitStatus())
}

// killMessage says what ended a program a signal killed, naming the
// limit when one did: "killed by SIGKILL (CPU time limit 3s)", "killed
// by SIGKILL (memory limit 256MiB)" when the jail's cgroup says the
// kernel killed for memory (oom). It is
// "" for the signals bash reports nothing for (SIGINT, SIGPIPE). cpu is
// the processor time the program used.
func killMessage(sig syscall.Signal, cpu time.Duration, l Limits, oom bool) string {
	if sig == syscall.SIGINT || sig == syscall.SIGPIPE {
		return ""
	}
	name := unix.SignalName(sig)
	if name == "" {
		name = "signal " + strconv.Itoa(int(sig))
	}
	why := ""
	cpuLimit := time.Duration(cpuSeconds(l.Timeout)) * time.Second
	switch {
	case sig == syscall.SIGKILL && oom && l.MaxMemory > 0:
		why = "memory limit " + sizeText(l.MaxMemory)
	case sig == syscall.SIGXCPU, sig == syscall.SIGKILL && l.Timeout > 0 && cpu >= cpuLimit-50*time.Millisecond:
		why = fmt.Sprintf("CPU time limit %ds", cpuSeconds(l.Timeout))
	case sig == syscall.SIGXFSZ && l.MaxFileSize > 0:
		why = "file size limit " + sizeText(l.MaxFileSize)
	case sig == syscall.SIGSYS:
		why = "a system call the jail refuses"
	}
	if why == "" {
		return "killed by " + name
	}
	return "killed by " + name + " (" + why + ")"
}

// sizeText spells a byte count the way the flags take it.
func sizeText(n int64) string {
	for _, u := range []struct {
		shift uint
		name  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10) + "B"
}

// bwrapArgs builds the same jail with bubblewrap; the sandsh init inside
// only writes the tree, confines itself and runs the program.
// bwrapArgs are bwrap's arguments for ic; sandsh is bound from exePath
// or, when "", copied in from descriptor 5.
func bwrapArgs(exePath string, ic *initConfig) []string {
	// uid 0 of bwrap's own user namespace, which owns the mount
	// namespace, with CAP_SYS_ADMIN, so that the init can mount the
	// bounded tmpfs (mountBounded); the program runs as uid 1000 in a
	// user namespace below it, with no capability (bwrapStage1), whose
	// map of that uid 0 the kernel allows only with CAP_SETFCAP.
	a := []string{"--unshare-user", "--uid", "0", "--gid", "0", "--unshare-pid", "--unshare-net",
		"--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--hostname", Hostname,
		"--die-with-parent", "--new-session", "--cap-drop", "ALL", "--cap-add", "CAP_SYS_ADMIN", "--cap-add", "CAP_SETFCAP"}
	for _, p := range ic.RO {
		a = append(a, "--ro-bind", p, p)
	}
	for p, t := range ic.Links {
		a = append(a, "--symlink", t, p)
	}
	for _, m := range ic.Masked {
		if fi, err := os.Stat(m); err == nil && fi.IsDir() {
			a = append(a, "--tmpfs", m, "--remount-ro", m)
		} else {
			a = append(a, "--ro-bind", os.DevNull, m)
		}
	}
	// Mount points only: the init mounts them bounded (mountBounded).
	a = append(a, "--proc", "/proc", "--dev", "/dev", "--dir", "/tmp", "--dir", ic.Work)
	if ic.Home != "" {
		a = append(a, "--dir", ic.Home)
	}
	if exePath != "" {
		a = append(a, "--ro-bind", exePath, initInBwrap)
	} else {
		a = append(a, "--perms", "0555", "--ro-bind-data", "5", initInBwrap)
	}
	a = append(a, "--chdir", "/", initInBwrap)
	return a
}

// reachable reports whether the host user uid can execute the file p
// (bwrap, run as uid, binds it by its path): uid owns it, or every
// directory on the way lets others search and the file lets others
// execute it.
func reachable(p string, uid int) bool {
	if uid == os.Getuid() {
		return true
	}
	p, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	for d := p; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil {
			return false
		}
		need := os.FileMode(0o001)
		if d == p {
			need = 0o005
		}
		if fi.Mode().Perm()&need != need {
			return false
		}
		if d == "/" {
			return true
		}
	}
}

// initInBwrap is where the sandsh binary sits inside a bwrap jail.
const initInBwrap = "/.sandsh-jail/sandsh"

func cpuSeconds(d interface{ Seconds() float64 }) int {
	s := int(d.Seconds())
	if float64(s) < d.Seconds() {
		s++
	}
	return s + 1
}
