//go:build linux

package restrict

import (
	"errors"
	"fmt"
	"runtime"
	"syscall"
	"unsafe"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Landlock rights. Executing is never granted in restricted mode, nor
// device ioctls, nor creating devices, sockets or FIFOs on the host.
const (
	llRead      = llsys.AccessFSReadFile | llsys.AccessFSReadDir
	llReadWrite = llRead | llsys.AccessFSWriteFile | llsys.AccessFSRemoveDir | llsys.AccessFSRemoveFile |
		llsys.AccessFSMakeDir | llsys.AccessFSMakeReg | llsys.AccessFSMakeSym | llsys.AccessFSTruncate
)

// landlockABI returns the kernel's Landlock ABI version, 0 without it.
func landlockABI() int {
	v, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if e != 0 {
		return 0
	}
	return int(v)
}

// seccompAvailable reports whether seccomp filters with SECCOMP_RET_ERRNO
// can be installed.
func seccompAvailable() bool {
	if _, ok := auditArch[runtime.GOARCH]; !ok {
		return false
	}
	action := uint32(unix.SECCOMP_RET_ERRNO)
	_, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_GET_ACTION_AVAIL, 0, uintptr(unsafe.Pointer(&action)))
	return e == 0
}

// Probe reports what confinement this kernel supports, without applying
// any of it.
func Probe() Report {
	return Report{LandlockABI: landlockABI(), Seccomp: seccompAvailable()}
}

// Confine confines the calling process (a worker, before it reads the
// script): resource limits, no_new_privs, Landlock and a seccomp filter
// in restricted mode. A wall the kernel lacks is reported in
// Report.Fallbacks; a wall the kernel has but that fails to go up is an
// error, and the caller must not run the script (fail closed).
func Confine(spec ConfineSpec) (Report, error) {
	var rep Report
	setRlimit := func(name string, res int, n uint64) error {
		lim := unix.Rlimit{Cur: n, Max: n}
		var cur unix.Rlimit
		if err := unix.Getrlimit(res, &cur); err == nil && cur.Max < n {
			lim = unix.Rlimit{Cur: cur.Max, Max: cur.Max} // never raise
		}
		if err := unix.Setrlimit(res, &lim); err != nil {
			return fmt.Errorf("setrlimit %s: %w", name, err)
		}
		rep.Rlimits = append(rep.Rlimits, name+"="+formatLimit(lim.Max))
		return nil
	}
	if err := setRlimit("CORE", unix.RLIMIT_CORE, 0); err != nil {
		return rep, err
	}
	if !spec.Restricted {
		// Host programs run as the user and inherit every limit, so
		// unrestricted mode sets nothing else; the supervisor still
		// bounds the worker's time and memory.
		return rep, nil
	}
	if err := setRlimit("NOFILE", unix.RLIMIT_NOFILE, 1024); err != nil {
		return rep, err
	}
	if spec.MaxMemory > 0 {
		if raceEnabled {
			// The race detector reserves terabytes of shadow memory.
			rep.Fallbacks = append(rep.Fallbacks, "RLIMIT_AS not set (race detector build)")
		} else if err := setRlimit("AS", unix.RLIMIT_AS, uint64(spec.MaxMemory)*2+2<<30); err != nil {
			return rep, err
		}
	}
	if spec.MaxFileSize > 0 {
		if err := setRlimit("FSIZE", unix.RLIMIT_FSIZE, uint64(spec.MaxFileSize)); err != nil {
			return rep, err
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return rep, fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	rep.NoNewPrivs = true

	// seccomp first: its TSYNC sets no_new_privs on every thread (the
	// kernel does it for a caller that has it), so Landlock then goes
	// up in one broadcast to all threads instead of two (each a round
	// of signals and sched_yield waits over every thread).
	if err := confineSeccomp(&rep); err != nil {
		return rep, err
	}
	if err := confineLandlock(spec, &rep); err != nil {
		return rep, err
	}
	return rep, nil
}

func confineLandlock(spec ConfineSpec, rep *Report) error {
	abi := landlockABI()
	rep.LandlockABI = abi
	if abi <= 0 {
		rep.Fallbacks = append(rep.Fallbacks, "landlock unavailable on this kernel: host paths are guarded by the vfs layer only")
		return nil
	}
	rw := landlock.AccessFSSet(llReadWrite)
	if abi >= 2 {
		// Renames and links across directories (mv a/x b/) need
		// "refer"; on ABI 1 they fail with EXDEV instead.
		rw |= llsys.AccessFSRefer
	}
	var rules []landlock.Rule
	what := "no host path"
	switch {
	case spec.WholeDisk:
		rules = append(rules, landlock.PathAccess(rw, "/"))
		what = "the host filesystem without exec"
	default:
		var parts []string
		if len(spec.ReadOnly) > 0 {
			rules = append(rules, landlock.PathAccess(llRead, spec.ReadOnly...))
			parts = append(parts, fmt.Sprintf("read-only %v", spec.ReadOnly))
		}
		if len(spec.ReadWrite) > 0 {
			rules = append(rules, landlock.PathAccess(rw, spec.ReadWrite...))
			parts = append(parts, fmt.Sprintf("read-write %v", spec.ReadWrite))
		}
		if len(parts) > 0 {
			what = fmt.Sprint(parts)
			what = what[1 : len(what)-1]
		}
	}
	// V11 with BestEffort: the newest rights go-landlock knows, cut down
	// to what this kernel supports. Every handled right not granted
	// above is denied: other files, exec, TCP (ABI 4+), signals and
	// abstract sockets outside the sandbox (ABI 6+).
	cfg := landlock.V11.BestEffort()
	if rep.Seccomp {
		cfg = cfg.ThreadsHaveNoNewPrivs()
	}
	if err := cfg.Restrict(rules...); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	rep.Landlock = what + ", no exec, no network"
	if abi < 4 {
		rep.Landlock = what + ", no exec"
		rep.Fallbacks = append(rep.Fallbacks, fmt.Sprintf("landlock ABI %d cannot restrict the network", abi))
	}
	return nil
}

// auditArch is the seccomp audit architecture of each GOARCH.
var auditArch = map[string]uint32{
	"amd64":   unix.AUDIT_ARCH_X86_64,
	"arm64":   unix.AUDIT_ARCH_AARCH64,
	"386":     unix.AUDIT_ARCH_I386,
	"arm":     unix.AUDIT_ARCH_ARM,
	"riscv64": unix.AUDIT_ARCH_RISCV64,
	"ppc64le": unix.AUDIT_ARCH_PPC64LE,
	"s390x":   unix.AUDIT_ARCH_S390X,
	"loong64": unix.AUDIT_ARCH_LOONGARCH64,
}

// deniedSyscalls fail with EPERM in a restricted worker: starting a
// program, and kernel interfaces Go's runtime and sandsh never use but an
// exploit would.
var deniedSyscalls = []uintptr{
	unix.SYS_EXECVE, unix.SYS_EXECVEAT,
	unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV,
	unix.SYS_KEXEC_LOAD, unix.SYS_INIT_MODULE, unix.SYS_FINIT_MODULE, unix.SYS_DELETE_MODULE,
	unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN, unix.SYS_USERFAULTFD,
	unix.SYS_UNSHARE, unix.SYS_SETNS, unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_CHROOT,
	unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY,
	unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
}

// seccompProgram builds the BPF filter: check the architecture first
// (a foreign ABI's syscall numbers mean other things), then refuse the
// denied syscalls, then allow.
func seccompProgram() ([]unix.SockFilter, error) {
	arch, ok := auditArch[runtime.GOARCH]
	if !ok {
		return nil, fmt.Errorf("no seccomp audit arch for %s", runtime.GOARCH)
	}
	const (
		ldAbs = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq   = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge   = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		ret   = unix.BPF_RET | unix.BPF_K
		eperm = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
		allow = unix.SECCOMP_RET_ALLOW
		// offsets in struct seccomp_data
		offNr   = 0
		offArch = 4
	)
	p := []unix.SockFilter{
		{Code: ldAbs, K: offArch},
		{Code: jeq, K: arch, Jt: 1, Jf: 0},
		{Code: ret, K: eperm},
		{Code: ldAbs, K: offNr},
	}
	if runtime.GOARCH == "amd64" {
		// x32 syscalls share the x86_64 audit arch; refuse them all.
		p = append(p, unix.SockFilter{Code: jge, K: 0x40000000, Jt: 0, Jf: 1}, unix.SockFilter{Code: ret, K: eperm})
	}
	for _, nr := range deniedSyscalls {
		p = append(p, unix.SockFilter{Code: jeq, K: uint32(nr), Jt: 0, Jf: 1}, unix.SockFilter{Code: ret, K: eperm})
	}
	p = append(p, unix.SockFilter{Code: ret, K: allow})
	return p, nil
}

func confineSeccomp(rep *Report) error {
	if !seccompAvailable() {
		rep.Fallbacks = append(rep.Fallbacks, "seccomp unavailable: exec is refused by the gateway (and Landlock, if present) only")
		return nil
	}
	prog, err := seccompProgram()
	if err != nil {
		return err
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	// TSYNC applies the filter (and no_new_privs) to every thread of the
	// process; Go's runtime has several.
	r, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	if e != 0 {
		return fmt.Errorf("seccomp: %w", e)
	}
	if r != 0 {
		return fmt.Errorf("seccomp: thread %d could not be synchronized", r)
	}
	rep.Seccomp = true
	return nil
}

// workerSysProcAttr makes the worker die with its parent.
func workerSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// statmReader reads a process's resident memory from /proc/PID/statm
// through one open descriptor.
type statmReader struct{ fd int }

func openStatm(pid int) (*statmReader, error) {
	fd, err := unix.Open(fmt.Sprintf("/proc/%d/statm", pid), unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return &statmReader{fd: fd}, nil
}

// rss returns the resident set size in bytes.
func (s *statmReader) rss() (int64, error) {
	var buf [128]byte
	n, err := unix.Pread(s.fd, buf[:], 0)
	if err != nil {
		return 0, err
	}
	var size, res int64
	if _, err := fmt.Sscan(string(buf[:n]), &size, &res); err != nil {
		return 0, errors.New("statm: " + err.Error())
	}
	return res * int64(unix.Getpagesize()), nil
}

func (s *statmReader) close() { unix.Close(s.fd) }
