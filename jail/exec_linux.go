//go:build linux

package jail

// What a jailed program may execute. A jailed git runs other programs
// when the script tells it to (aliases starting with "!", core.pager,
// core.fsmonitor, hooks, GIT_*_COMMAND), and so would any tool with a
// configuration file: without a wall here, a policy denying rm is
// walked around by `git -c alias.x='!rm -rf data' x`. The jail init
// sends every execve and execveat of the jail to the trusted parent
// (a seccomp filter returning SECCOMP_RET_USER_NOTIF, whose listener it
// hands over before it becomes the program); the parent reads the path,
// resolves it inside the jail, and lets it run only when it is an
// allowed program, refusing the rest with EACCES and recording them.
//
// The check reads the path from the program's memory, so a program
// running code of the attacker's could change it between the check and
// the kernel's read (the TOCTOU seccomp(2) warns of). Such a program
// (python3 -c ..., by design) can already run any code it wants inside
// the jail without execve, within the same walls; the check is there for
// the programs that only do what their configuration says, and those do
// not race. Landlock still refuses to execute anything the jail can
// write (the working tree, /tmp, $HOME).

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// seccompNotif and seccompNotifResp are the kernel's struct
// seccomp_notif and struct seccomp_notif_resp (x/sys has the ioctl
// numbers but not the structs).
type seccompNotif struct {
	ID    uint64
	Pid   uint32
	Flags uint32
	Nr    int32
	Arch  uint32
	IP    uint64
	Args  [6]uint64
}

type seccompNotifResp struct {
	ID    uint64
	Val   int64
	Error int32
	Flags uint32
}

// RefusedExec is one program a jailed program tried to execute and was
// refused.
type RefusedExec struct {
	Path string   // as the program named it
	Argv []string // its arguments, cut to a few hundred bytes each
}

// fileID is a file's identity: the same inode through any bind mount.
type fileID struct{ dev, ino uint64 }

// execGuard decides the execs of one jail.
type execGuard struct {
	allowed func(argv []string) bool
	// report prints a line on the program's standard error.
	report func(string)
	name   string // the jailed program's name, for messages

	mu      sync.Mutex
	ids     map[fileID]bool     // allowed files
	sizes   map[int64][]string  // allowed files by size, for copies
	sums    map[fileID][32]byte // digests computed so far
	refused []RefusedExec
}

// maxRefusedExecs bounds what one jail records (a loop of refused execs
// must not grow the parent).
const maxRefusedExecs = 64

func newExecGuard(name, program string, allowed func([]string) bool, report func(string)) *execGuard {
	g := &execGuard{allowed: allowed, report: report, name: name, ids: map[fileID]bool{},
		sizes: map[int64][]string{}, sums: map[fileID][32]byte{}}
	g.allow(program, 0)
	return g
}

// allow adds the host file p, and the interpreters its #! line names
// (resolving `env NAME` in the system directories), to the allowed set.
func (g *execGuard) allow(p string, depth int) {
	var st unix.Stat_t
	if depth > 4 || unix.Stat(p, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return
	}
	id := fileID{st.Dev, st.Ino}
	if g.ids[id] {
		return
	}
	g.ids[id] = true
	g.sizes[st.Size] = append(g.sizes[st.Size], p)
	if interp, arg := shebang(p); interp != "" {
		g.allow(interp, depth+1)
		if path.Base(interp) == "env" && arg != "" {
			if q := lookProgram(arg); q != "" {
				g.allow(q, depth+1)
			}
		}
	}
}

// Programs lists what a jail running program may execute, for --verbose
// and the README: the files themselves (and byte-identical copies).
func (g *execGuard) programs() []string {
	var out []string
	for _, ps := range g.sizes {
		out = append(out, ps...)
	}
	return out
}

// shebang returns the interpreter of a #! script and the first word of
// its argument.
func shebang(p string) (string, string) {
	f, err := os.Open(p)
	if err != nil {
		return "", ""
	}
	defer f.Close()
	buf := make([]byte, 256)
	n, _ := io.ReadFull(f, buf)
	line, ok := strings.CutPrefix(string(buf[:n]), "#!")
	if !ok {
		return "", ""
	}
	line, _, _ = strings.Cut(line, "\n")
	fields := strings.Fields(line)
	if len(fields) == 0 || !strings.HasPrefix(fields[0], "/") {
		return "", ""
	}
	arg := ""
	for _, a := range fields[1:] {
		if !strings.HasPrefix(a, "-") {
			arg = a
			break
		}
	}
	return fields[0], arg
}

// lookProgram finds name in the system directories the jail shows.
func lookProgram(name string) string {
	if name == "" || strings.Contains(name, "/") {
		return ""
	}
	for _, d := range ProgramPath {
		p := d + "/" + name
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// permits reports whether the file open at fd (an O_PATH descriptor of
// this process), named p by the program, may be executed.
func (g *execGuard) permits(fd int, p string) bool {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return false
	}
	id := fileID{st.Dev, st.Ino}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ids[id] {
		return true
	}
	// A name the operator allowed, as installed in the system
	// directories (git running `git` again), joins the set.
	if name := path.Base(p); g.allowed != nil && g.allowed([]string{name}) {
		if q := lookProgram(name); q != "" {
			g.allow(q, 0)
			if g.ids[id] {
				return true
			}
		}
	}
	// A byte-identical copy of an allowed program is that program (git
	// runs /usr/lib/git-core/git, a copy of /usr/bin/git).
	cands := g.sizes[st.Size]
	if len(cands) == 0 || st.Size > 1<<30 {
		return false
	}
	sum, ok := g.digest(id, "/proc/self/fd/"+strconv.Itoa(fd))
	if !ok {
		return false
	}
	for _, c := range cands {
		var cst unix.Stat_t
		if unix.Stat(c, &cst) != nil {
			continue
		}
		if csum, ok := g.digest(fileID{cst.Dev, cst.Ino}, c); ok && csum == sum {
			g.ids[id] = true
			return true
		}
	}
	return false
}

func (g *execGuard) digest(id fileID, p string) ([32]byte, bool) {
	if s, ok := g.sums[id]; ok {
		return s, true
	}
	f, err := os.Open(p)
	if err != nil {
		return [32]byte{}, false
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return [32]byte{}, false
	}
	var s [32]byte
	copy(s[:], h.Sum(nil))
	g.sums[id] = s
	return s, true
}

// serve answers the notifications on the listener fd until the jail
// is gone (the listener hangs up) or done is closed.
func (g *execGuard) serve(fd int, done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		default:
		}
		pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(pfd, 200)
		if err != nil && !errors.Is(err, unix.EINTR) {
			return
		}
		if n <= 0 {
			continue
		}
		if pfd[0].Revents&unix.POLLIN == 0 {
			return // POLLHUP: nothing in the jail can exec any more
		}
		var req seccompNotif
		if err := ioctlPtr(fd, unix.SECCOMP_IOCTL_NOTIF_RECV, unsafe.Pointer(&req)); err != nil {
			if errors.Is(err, unix.EINTR) || errors.Is(err, unix.ENOENT) {
				continue
			}
			return
		}
		resp := seccompNotifResp{ID: req.ID, Error: -int32(unix.EACCES)}
		if g.decide(fd, &req) {
			resp.Error, resp.Flags = 0, unix.SECCOMP_USER_NOTIF_FLAG_CONTINUE
		}
		ioctlPtr(fd, unix.SECCOMP_IOCTL_NOTIF_SEND, unsafe.Pointer(&resp))
	}
}

func ioctlPtr(fd int, req uint, p unsafe.Pointer) error {
	_, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(req), uintptr(p))
	if e != 0 {
		return e
	}
	return nil
}

// decide reads what the process asks to execute and says whether it
// may.
func (g *execGuard) decide(lfd int, req *seccompNotif) bool {
	pathPtr, argvPtr, dirfd, flags := req.Args[0], req.Args[1], int64(unix.AT_FDCWD), uint64(0)
	if req.Nr == unix.SYS_EXECVEAT {
		dirfd, pathPtr, argvPtr, flags = int64(int32(req.Args[0])), req.Args[1], req.Args[2], req.Args[4]
	}
	pid := strconv.Itoa(int(req.Pid))
	mem, err := os.Open("/proc/" + pid + "/mem")
	if err != nil {
		g.refuse("(unreadable)", nil)
		return false
	}
	defer mem.Close()
	p, ok := readCString(mem, pathPtr, unix.PathMax)
	argv := readArgv(mem, argvPtr)
	// The process may have died and its pid been reused: what was read
	// must still be the process that asked (if not, nobody is waiting
	// for the answer).
	id := req.ID
	if ioctlPtr(lfd, unix.SECCOMP_IOCTL_NOTIF_ID_VALID, unsafe.Pointer(&id)) != nil {
		return false
	}
	if !ok {
		g.refuse("(unreadable)", argv)
		return false
	}
	fd, err := resolveIn(pid, dirfd, p, flags)
	allowed := err == nil && g.permits(fd, p)
	if err == nil {
		unix.Close(fd)
	}
	if !allowed {
		g.refuse(p, argv)
	}
	return allowed
}

func (g *execGuard) refuse(p string, argv []string) {
	g.mu.Lock()
	n := len(g.refused)
	if n < maxRefusedExecs {
		g.refused = append(g.refused, RefusedExec{Path: p, Argv: argv})
	}
	g.mu.Unlock()
	switch {
	case n < 8:
		g.report(fmt.Sprintf("sandsh: %s: jail: refused to execute %s (not an allowed program)", g.name, strconv.Quote(p)))
	case n == 8:
		g.report(fmt.Sprintf("sandsh: %s: jail: more execs refused (the audit log lists them)", g.name))
	}
}

// Refused returns the refused execs recorded.
func (g *execGuard) Refused() []RefusedExec {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]RefusedExec(nil), g.refused...)
}

// resolveIn opens, O_PATH, the file a process of the jail names p
// (relative to dirfd, as execveat takes it), resolving inside the
// jail's root: absolute symlinks and ".." never leave it.
func resolveIn(pid string, dirfd int64, p string, flags uint64) (int, error) {
	if p == "" && flags&unix.AT_EMPTY_PATH != 0 {
		return unix.Open("/proc/"+pid+"/fd/"+strconv.FormatInt(dirfd, 10), unix.O_PATH|unix.O_CLOEXEC, 0)
	}
	root, err := unix.Open("/proc/"+pid+"/root", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	defer unix.Close(root)
	if !strings.HasPrefix(p, "/") {
		base := "/proc/" + pid + "/cwd"
		if dirfd != unix.AT_FDCWD {
			base = "/proc/" + pid + "/fd/" + strconv.FormatInt(dirfd, 10)
		}
		// Where the directory is inside the jail, checked: the same
		// directory reached from the jail's root.
		dir, err := os.Readlink(base)
		if err != nil || !strings.HasPrefix(dir, "/") {
			return -1, errors.New("cannot place the directory")
		}
		var want, got unix.Stat_t
		dfd, err := openInRoot(root, dir)
		if err != nil {
			return -1, err
		}
		serr := unix.Fstat(dfd, &got)
		unix.Close(dfd)
		if serr != nil || unix.Stat(base, &want) != nil || want.Dev != got.Dev || want.Ino != got.Ino {
			return -1, errors.New("cannot place the directory")
		}
		p = strings.TrimSuffix(dir, "/") + "/" + p
	}
	return openInRoot(root, p)
}

func openInRoot(root int, p string) (int, error) {
	return unix.Openat2(root, p, &unix.OpenHow{Flags: unix.O_PATH | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_IN_ROOT | unix.RESOLVE_NO_MAGICLINKS})
}

// readCString reads a NUL-terminated string of at most max bytes at
// addr in the process memory mem.
func readCString(mem *os.File, addr uint64, max int) (string, bool) {
	var out []byte
	buf := make([]byte, 256)
	for len(out) < max {
		n, _ := mem.ReadAt(buf, int64(addr)+int64(len(out)))
		if n == 0 {
			// A read across the end of a mapping: one byte at a time.
			if n, _ = mem.ReadAt(buf[:1], int64(addr)+int64(len(out))); n == 0 {
				return "", false
			}
		}
		if i := strings.IndexByte(string(buf[:n]), 0); i >= 0 {
			return string(append(out, buf[:i]...)), true
		}
		out = append(out, buf[:n]...)
	}
	return "", false
}

// readArgv reads up to 32 arguments of up to 256 bytes each (for the
// log only).
func readArgv(mem *os.File, addr uint64) []string {
	var argv []string
	for i := range 32 {
		var ptr [8]byte
		if n, _ := mem.ReadAt(ptr[:], int64(addr)+int64(8*i)); n != 8 {
			break
		}
		a := *(*uint64)(unsafe.Pointer(&ptr[0]))
		if a == 0 {
			break
		}
		s, ok := readCString(mem, a, 256)
		if !ok {
			s += "…"
		}
		argv = append(argv, s)
	}
	return argv
}

// execListener installs, on the calling thread, the filter that sends
// every execve and execveat to the listener it returns. It must come
// after no_new_privs and last before the exec.
func execListener() (int, error) {
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		return -1, fmt.Errorf("no exec filter for %s", runtime.GOARCH)
	}
	const (
		ldAbs  = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq    = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		ret    = unix.BPF_RET | unix.BPF_K
		notify = unix.SECCOMP_RET_USER_NOTIF
		allow  = unix.SECCOMP_RET_ALLOW
	)
	// The other filter already kills a foreign ABI and refuses x32.
	prog := []unix.SockFilter{
		{Code: ldAbs, K: 0},
		{Code: jeq, K: unix.SYS_EXECVE, Jt: 1},
		{Code: jeq, K: unix.SYS_EXECVEAT, Jf: 1},
		{Code: ret, K: notify},
		{Code: ret, K: allow},
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	fd, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_NEW_LISTENER,
		uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	if e != 0 {
		return -1, fmt.Errorf("seccomp exec listener: %w", e)
	}
	unix.CloseOnExec(int(fd))
	return int(fd), nil
}
