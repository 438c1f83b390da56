//go:build linux

package restrict

import (
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// JailProcSpec is how package jail starts the process that builds a
// jail: sandsh's own jail init in fresh namespaces, or bwrap.
type JailProcSpec struct {
	Path  string
	Args  []string
	Env   []string
	Files []*os.File // become descriptors 0, 1, 2, ...
	// NewNamespaces starts it in new user, mount, pid, network, IPC and
	// UTS namespaces as uid/gid 1000, mapped to HostUID/HostGID, with the
	// capabilities to set the jail up kept across exec (ambient); the
	// jail init drops them before the program runs.
	NewNamespaces bool
	// UseCgroup starts it in the cgroup (v2) open at CgroupFD.
	UseCgroup bool
	CgroupFD  int
	// NewUserNS starts it in a new user namespace only, where this
	// process's uid and gid are 1000 (the second stage of a bwrap jail).
	NewUserNS bool
	// HostUID and HostGID are the host ids the process runs as: without
	// NewNamespaces, different ids from this process's make it switch
	// to them first (root starting bwrap as the jail's own uid).
	HostUID, HostGID int
}

// JailProc is a started jail process.
type JailProc struct {
	p      *os.Process
	exited chan struct{}
	ws     syscall.WaitStatus
	usage  syscall.Rusage
	err    error
}

// Capabilities the jail init needs to build the jail: mounts, pivot_root
// and the host name (CAP_SYS_ADMIN), the loopback (CAP_NET_ADMIN).
const (
	capNetAdmin = 12
	capSysAdmin = 21
)

// StartJailProc starts spec's process. It dies with this process (the
// death signal of the thread that started it, which stays locked until
// the process is reaped).
func StartJailProc(spec JailProcSpec) (*JailProc, error) {
	attr := &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setsid: true}
	if spec.NewNamespaces {
		attr.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID |
			syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 1000, HostID: spec.HostUID, Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 1000, HostID: spec.HostGID, Size: 1}}
		attr.AmbientCaps = []uintptr{capSysAdmin, capNetAdmin}
		if spec.HostUID != os.Getuid() || spec.HostGID != os.Getgid() {
			// Become the mapped ids inside: a root parent maps 1000 to
			// another host user, which the process only is once it
			// has switched to 1000.
			attr.Credential = &syscall.Credential{Uid: 1000, Gid: 1000, NoSetGroups: true}
		}
	} else if spec.NewUserNS {
		attr.Cloneflags = syscall.CLONE_NEWUSER
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 1000, HostID: os.Getuid(), Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 1000, HostID: os.Getgid(), Size: 1}}
	} else if spec.HostUID != os.Getuid() || spec.HostGID != os.Getgid() {
		attr.Credential = &syscall.Credential{Uid: uint32(spec.HostUID), Gid: uint32(spec.HostGID)}
	}
	if spec.UseCgroup {
		attr.UseCgroupFD, attr.CgroupFD = true, spec.CgroupFD
	}
	jp := &JailProc{exited: make(chan struct{})}
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		p, err := os.StartProcess(spec.Path, spec.Args, &os.ProcAttr{Env: spec.Env, Files: spec.Files, Sys: attr})
		if err != nil {
			started <- err
			return
		}
		jp.p = p
		started <- nil
		st, err := p.Wait()
		if st != nil {
			jp.ws, _ = st.Sys().(syscall.WaitStatus)
			if ru, ok := st.SysUsage().(*syscall.Rusage); ok && ru != nil {
				jp.usage = *ru
			}
		}
		jp.err = err
		close(jp.exited)
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	return jp, nil
}

// Kill kills the jail process (and, as the init of its pid namespace or
// bwrap with --die-with-parent, everything in the jail).
func (j *JailProc) Kill() { j.p.Kill() }

// Wait waits for the process to end.
func (j *JailProc) Wait() (syscall.WaitStatus, error) {
	<-j.exited
	return j.ws, j.err
}

// CPUTime is the processor time the process and the children it
// waited for used (valid once Wait returned): it tells a kill for
// RLIMIT_CPU from another SIGKILL.
func (j *JailProc) CPUTime() time.Duration {
	<-j.exited
	return time.Duration(j.usage.Utime.Nano() + j.usage.Stime.Nano())
}

// ExecJailed replaces the jail init with the program, once the init
// has confined itself: what the init was, the program now is (the first
// process of the jail's pid namespace under the ns backend). maxAS, when
// not 0, becomes RLIMIT_AS between the last allocation of the Go runtime
// and the exec: set any earlier, it would starve the init's own runtime.
func ExecJailed(path string, argv, env []string, maxAS uint64) error {
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return err
	}
	av, err := syscall.SlicePtrFromStrings(argv)
	if err != nil {
		return err
	}
	ev, err := syscall.SlicePtrFromStrings(env)
	if err != nil {
		return err
	}
	runtime.LockOSThread()
	// One P: no other goroutine allocates between the limit and the exec.
	runtime.GOMAXPROCS(1)
	if maxAS > 0 {
		lim := unix.Rlimit{Cur: maxAS, Max: maxAS}
		if _, _, e := unix.RawSyscall(unix.SYS_SETRLIMIT, unix.RLIMIT_AS, uintptr(unsafe.Pointer(&lim)), 0); e != 0 {
			return fmt.Errorf("setrlimit AS: %w", e)
		}
	}
	_, _, e := unix.RawSyscall(unix.SYS_EXECVE, uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(&av[0])), uintptr(unsafe.Pointer(&ev[0])))
	return e
}

// JailSocket returns a connected pair of sockets for the worker's
// requests: the parent serves one end (ServeJail), the worker gets the
// other (JailClient).
func JailSocket() (parent, worker *os.File, err error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	return os.NewFile(uintptr(fds[0]), "jail-parent"), os.NewFile(uintptr(fds[1]), "jail-worker"), nil
}

// JailClient is the worker's Jailer: it asks the parent on ctrl. Each
// request gets a socket of its own, passed with the three streams in one
// message; the request goes down it and the result comes back. Closing
// it (when ctx ends) tells the parent to kill the jail.
func JailClient(ctrl *os.File) Jailer {
	var mu sync.Mutex
	return func(ctx context.Context, req *JailRequest, stdin, stdout, stderr *os.File) (*JailResult, error) {
		fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return nil, fmt.Errorf("cannot ask the supervisor: %w", err)
		}
		conn := os.NewFile(uintptr(fds[0]), "jail-request")
		defer conn.Close()
		rights := unix.UnixRights(fds[1], int(stdin.Fd()), int(stdout.Fd()), int(stderr.Fd()))
		mu.Lock()
		err = unix.Sendmsg(int(ctrl.Fd()), []byte{1}, rights, nil, 0)
		mu.Unlock()
		unix.Close(fds[1])
		if err != nil {
			return nil, fmt.Errorf("cannot ask the supervisor: %w", err)
		}
		stop := context.AfterFunc(ctx, func() { unix.Shutdown(fds[0], unix.SHUT_RDWR) })
		defer stop()
		if err := gob.NewEncoder(conn).Encode(req); err != nil {
			return nil, fmt.Errorf("cannot ask the supervisor: %w", err)
		}
		var res JailResult
		if err := gob.NewDecoder(conn).Decode(&res); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("the supervisor did not answer: %w", err)
		}
		return &res, nil
	}
}

// ServeJail answers a worker's requests on ctrl with j until the worker
// closes its end (the worker's end must be closed in this process too);
// the returned function waits for that and for the jails still running
// to end (cancel ctx first to kill them). ctrl stays open until then. A request is
// read with at most maxRequest bytes; what the worker sends is untrusted:
// j must decide again whether the name may run.
func ServeJail(ctx context.Context, ctrl *os.File, j Jailer, maxRequest int64) (wait func()) {
	var wg sync.WaitGroup
	// A compromised worker could ask for jails without end: at most
	// maxJails are built at once, the others wait their turn.
	slots := make(chan struct{}, maxJails)
	fd := int(ctrl.Fd())
	wg.Add(1)
	go func() {
		defer wg.Done()
		buf := make([]byte, 1)
		oob := make([]byte, unix.CmsgSpace(4*4))
		for {
			n, oobn, _, _, err := unix.Recvmsg(fd, buf, oob, unix.MSG_CMSG_CLOEXEC)
			if err != nil && errors.Is(err, unix.EINTR) {
				continue
			}
			if err != nil || n == 0 {
				return
			}
			files := receivedFiles(oob[:oobn])
			if len(files) != 4 {
				for _, f := range files {
					f.Close()
				}
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				select {
				case slots <- struct{}{}:
					defer func() { <-slots }()
					serveJail(ctx, files, j, maxRequest)
				case <-ctx.Done():
					for _, f := range files {
						f.Close()
					}
				}
			}()
		}
	}()
	return wg.Wait
}

// maxJails bounds the jails one worker has at once (more than
// --max-jobs allows a script by default).
const maxJails = 64

func receivedFiles(oob []byte) []*os.File {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return nil
	}
	var out []*os.File
	for _, m := range msgs {
		fds, err := unix.ParseUnixRights(&m)
		if err != nil {
			continue
		}
		for _, fd := range fds {
			out = append(out, os.NewFile(uintptr(fd), "jail-fd"))
		}
	}
	return out
}

func serveJail(ctx context.Context, files []*os.File, j Jailer, maxRequest int64) {
	conn := files[0]
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	var req JailRequest
	if err := gob.NewDecoder(io.LimitReader(conn, maxRequest)).Decode(&req); err != nil {
		gob.NewEncoder(conn).Encode(&JailResult{Refused: "bad request from the worker"})
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The worker closes its end when its run ends or it gives up.
	go func() {
		var b [1]byte
		conn.Read(b[:])
		cancel()
	}()
	res, err := j(ctx, &req, files[1], files[2], files[3])
	if err != nil {
		res = &JailResult{Refused: err.Error()}
	}
	gob.NewEncoder(conn).Encode(res)
}
