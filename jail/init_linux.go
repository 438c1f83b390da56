//go:build linux

package jail

import (
	"encoding/gob"
	"fmt"
	"io"
	"os"
	"path"
	"runtime"
	"unsafe"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"

	"github.com/sandsh/sandsh/internal/termsafe"
	"github.com/sandsh/sandsh/restrict"
	"github.com/sandsh/sandsh/vfs"
)

// IsInit reports whether this process was started as a jail init.
func IsInit() bool { return os.Getenv(InitEnv) != "" }

// InitMain is the jail init: started by Config.Run in fresh namespaces
// (or by bwrap), it builds the filesystem view, writes the working tree,
// hands the tree's directory to its parent, confines itself (rlimits,
// no capabilities, no_new_privs, Landlock, seccomp) and becomes the
// program. As the first process of the pid namespace, its end kills
// everything the program started.
func InitMain() int {
	if os.Getenv(InitEnv) == "probe" {
		return 0
	}
	// The second stage of a bwrap jail (see bwrapStage1): the working
	// tree is written and bounded, what is left is to confine and exec.
	stage2 := os.Getenv(InitEnv) == initStage2
	// Capabilities, Landlock and the exec are per thread: keep one.
	runtime.LockOSThread()
	unix.CloseOnExec(initConfigFD)
	unix.CloseOnExec(initReplyFD)
	fail := func(format string, a ...any) int {
		msg := fmt.Sprintf(format, a...)
		unix.Sendmsg(initReplyFD, []byte(msg), nil, nil, 0)
		return 125
	}
	var ic initConfig
	if err := gob.NewDecoder(io.LimitReader(os.NewFile(initConfigFD, "config"), 1<<40)).Decode(&ic); err != nil {
		return fail("jail init: read the configuration: %v", err)
	}
	if ic.StderrFD > 2 {
		if err := unix.Dup3(ic.StderrFD, 2, 0); err != nil {
			return fail("jail init: stderr: %v", err)
		}
		unix.Close(ic.StderrFD)
	}
	if ic.Mount {
		if err := buildFS(&ic); err != nil {
			return fail("%v", err)
		}
		if err := unix.Sethostname([]byte(Hostname)); err != nil {
			return fail("sethostname: %v", err)
		}
		if err := loopbackUp(); err != nil {
			return fail("loopback: %v", err)
		}
	}
	if !ic.Mount && !stage2 {
		if err := mountBounded(&ic); err != nil {
			return fail("%v", err)
		}
	}
	if !stage2 {
		if err := vfs.WriteHostTree(ic.Work, ic.Tree); err != nil {
			return fail("write the working tree: %v", err)
		}
		if ic.Home != "" {
			os.MkdirAll(ic.Home, 0o755)
		}
	}
	if !ic.Mount && !stage2 {
		return bwrapStage1(&ic, fail)
	}
	wfd, err := unix.Open(ic.Work, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fail("open the working tree: %v", err)
	}
	if err := unix.Chdir(ic.Dir); err != nil {
		return fail("chdir %s: %v", ic.Dir, err)
	}
	lfd, err := confine(&ic)
	if err != nil {
		return fail("%v", err)
	}
	// From here every exec waits for the parent's answer: the listener
	// goes with the working tree, and the exec of the program is the
	// first the parent decides.
	if err := unix.Sendmsg(initReplyFD, []byte("ok"), unix.UnixRights(wfd, lfd), nil, 0); err != nil {
		return 125
	}
	unix.Close(wfd)
	unix.Close(lfd)
	err = restrict.ExecJailed(ic.Program, ic.Argv, ic.Env, uint64(max(ic.Limits.MaxMemory, 0)))
	termsafe.Fprintf(os.Stderr, "sandsh: %s: %v\n", ic.Argv[0], err)
	return 126
}

// buildFS makes the jail's root: a tmpfs holding the read-only binds of
// the system directories, a private /tmp, /proc, a minimal /dev and the
// working tree, then pivots into it. Until the pivot the host's tree is
// still visible as the source of the binds; after it, nothing of the
// host is left but what was bound.
func buildFS(ic *initConfig) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make / private: %w", err)
	}
	size := ic.Limits.tmpfsBounds()
	// The new root is mounted over the host's /tmp, in this mount
	// namespace only (--jail-ro may not name a path below /tmp).
	const root = "/tmp"
	if err := unix.Mount("tmpfs", root, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755"+size); err != nil {
		return fmt.Errorf("mount the jail root: %w", err)
	}
	in := func(p string) string { return root + p }
	for _, p := range ic.RO {
		if err := roBind(p, in(p)); err != nil {
			return err
		}
	}
	for p, t := range ic.Links {
		os.MkdirAll(path.Dir(in(p)), 0o755)
		if err := os.Symlink(t, in(p)); err != nil {
			return fmt.Errorf("symlink %s: %w", p, err)
		}
	}
	for _, m := range ic.Masked {
		fi, err := os.Lstat(in(m))
		switch {
		case err != nil:
			continue
		case fi.IsDir():
			err = unix.Mount("tmpfs", in(m), "tmpfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "mode=0000,size=4k")
		default:
			err = unix.Mount("/dev/null", in(m), "", unix.MS_BIND, "")
		}
		if err != nil {
			return fmt.Errorf("hide %s: %w", m, err)
		}
	}
	for _, d := range []string{"/proc", "/dev", "/tmp", ic.Work} {
		if err := os.MkdirAll(in(d), 0o755); err != nil {
			return err
		}
	}
	if err := unix.Mount("proc", in("/proc"), "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mount /proc: %w", err)
	}
	if err := unix.Mount("tmpfs", in("/tmp"), "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"+size); err != nil {
		return fmt.Errorf("mount /tmp: %w", err)
	}
	if err := buildDev(in("/dev")); err != nil {
		return err
	}
	os.MkdirAll(in("/.old"), 0o700)
	if err := unix.PivotRoot(root, in("/.old")); err != nil {
		return fmt.Errorf("pivot_root: %w", err)
	}
	if err := unix.Chdir("/"); err != nil {
		return err
	}
	if err := unix.Unmount("/.old", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detach the host root: %w", err)
	}
	os.Remove("/.old")
	return nil
}

// tmpfsBounds are the mount options that bound every tmpfs the jail
// writes to (the working tree, /tmp, $HOME), in both backends: bytes by
// --max-fs-bytes, files by --max-files (and a few for the jail's own
// mount points).
func (l Limits) tmpfsBounds() string {
	o := ""
	if l.MaxFSBytes > 0 {
		o = fmt.Sprintf(",size=%d", l.MaxFSBytes)
	}
	if l.MaxFiles > 0 {
		o += fmt.Sprintf(",nr_inodes=%d", l.MaxFiles+64)
	}
	return o
}

// shmBounds bound the jail's /dev/shm.
const shmBounds = ",size=16m,nr_inodes=4096"

// initStage2 is InitEnv's value for the second stage of a bwrap jail.
const initStage2 = "2"

// mountBounded is the first stage of a bwrap jail: bwrap only makes the
// mount points, and its init, uid 0 of bwrap's user namespace with
// CAP_SYS_ADMIN there, mounts the working tree, /tmp, $HOME and
// /dev/shm as tmpfs bounded like the ns backend's (bwrap's --size bounds
// bytes, never files: a jailed program made 150,000 files against
// --max-files 100000).
func mountBounded(ic *initConfig) error {
	bounds := ic.Limits.tmpfsBounds()
	mounts := []struct{ dir, opts string }{{ic.Work, "mode=0755" + bounds}, {"/tmp", "mode=1777" + bounds}, {"/dev/shm", "mode=1777" + shmBounds}}
	if ic.Home != "" {
		mounts = append(mounts, struct{ dir, opts string }{ic.Home, "mode=0755" + bounds})
	}
	for _, m := range mounts {
		if err := os.MkdirAll(m.dir, 0o755); err != nil {
			return fmt.Errorf("mount point %s: %w", m.dir, err)
		}
		if err := unix.Mount("tmpfs", m.dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, m.opts); err != nil {
			return fmt.Errorf("mount a bounded tmpfs on %s: %w", m.dir, err)
		}
	}
	return nil
}

// bwrapStage1 starts the second stage in a user namespace of its own,
// where the first stage's uid 0 is uid 1000 (bwrap maps one uid, so the
// first stage, which had to be 0 to mount, cannot become 1000 itself),
// hands it the configuration and ends as it ends.
func bwrapStage1(ic *initConfig, fail func(string, ...any) int) int {
	cfgR, cfgW, err := os.Pipe()
	if err != nil {
		return fail("jail init: %v", err)
	}
	files := []*os.File{os.Stdin, os.Stdout, os.Stderr, cfgR, os.NewFile(initReplyFD, "reply")}
	jp, err := restrict.StartJailProc(restrict.JailProcSpec{Path: "/proc/self/exe", Args: []string{"sandsh"},
		Env: []string{InitEnv + "=" + initStage2, "GOMAXPROCS=1", "GOGC=off"}, Files: files, NewUserNS: true})
	cfgR.Close()
	if err != nil {
		cfgW.Close()
		return fail("jail init: start the second stage: %v", err)
	}
	conf := *ic
	conf.Tree, conf.StderrFD = nil, 0
	gob.NewEncoder(cfgW).Encode(&conf)
	cfgW.Close()
	ws, _ := jp.Wait()
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}

// roBind binds the host path src read-only at dst, keeping the flags the
// source mount has (a user namespace may not clear them).
func roBind(src, dst string) error {
	fi, err := os.Stat(src)
	if err != nil {
		return nil
	}
	if fi.IsDir() {
		err = os.MkdirAll(dst, 0o755)
	} else {
		os.MkdirAll(path.Dir(dst), 0o755)
		var f *os.File
		if f, err = os.OpenFile(dst, os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			f.Close()
		}
	}
	if err != nil {
		return fmt.Errorf("mount point for %s: %w", src, err)
	}
	if err := unix.Mount(src, dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("bind %s: %w", src, err)
	}
	var st unix.Statfs_t
	flags := uintptr(unix.MS_REMOUNT | unix.MS_BIND | unix.MS_RDONLY | unix.MS_NOSUID | unix.MS_NODEV)
	if unix.Statfs(dst, &st) == nil {
		for _, f := range []struct{ st, ms uintptr }{{unix.ST_NOEXEC, unix.MS_NOEXEC}, {unix.ST_NOATIME, unix.MS_NOATIME},
			{unix.ST_NODIRATIME, unix.MS_NODIRATIME}, {unix.ST_RELATIME, unix.MS_RELATIME}} {
			if uintptr(st.Flags)&f.st != 0 {
				flags |= f.ms
			}
		}
	}
	if err := unix.Mount("", dst, "", flags, ""); err != nil {
		return fmt.Errorf("make %s read-only: %w", src, err)
	}
	return nil
}

// buildDev makes a minimal /dev: the harmless devices bound from the
// host, the standard links, a small /dev/shm. No tty: the program's
// streams are pipes.
func buildDev(dev string) error {
	if err := unix.Mount("tmpfs", dev, "tmpfs", unix.MS_NOSUID|unix.MS_NOEXEC, "mode=0755,size=64k"); err != nil {
		return fmt.Errorf("mount /dev: %w", err)
	}
	for _, d := range []string{"null", "zero", "full", "random", "urandom"} {
		f, err := os.OpenFile(dev+"/"+d, os.O_CREATE|os.O_WRONLY, 0o666)
		if err != nil {
			return err
		}
		f.Close()
		if err := unix.Mount("/dev/"+d, dev+"/"+d, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("bind /dev/%s: %w", d, err)
		}
	}
	for name, t := range map[string]string{"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0",
		"stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2", "ptmx": "pts/ptmx"} {
		if err := os.Symlink(t, dev+"/"+name); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dev+"/shm", 0o1777); err != nil {
		return err
	}
	if err := unix.Mount("tmpfs", dev+"/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "mode=1777"+shmBounds); err != nil {
		return fmt.Errorf("mount /dev/shm: %w", err)
	}
	return nil
}

// loopbackUp brings up the network namespace's own loopback: the only
// network the jail has.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// confine applies what the program inherits: rlimits, no capabilities,
// no_new_privs, Landlock over the jail's own view, the seccomp filters.
// It returns the listener of the exec filter (see execGuard).
func confine(ic *initConfig) (int, error) {
	if err := confineLimits(ic); err != nil {
		return -1, err
	}
	if err := jailLandlock(ic); err != nil {
		return -1, err
	}
	if err := jailSeccomp(); err != nil {
		return -1, err
	}
	return execListener()
}

// confineLimits sets the rlimits, drops every capability and sets
// no_new_privs.
func confineLimits(ic *initConfig) error {
	l := ic.Limits
	set := func(name string, res int, n uint64) error {
		lim := unix.Rlimit{Cur: n, Max: n}
		var cur unix.Rlimit
		if unix.Getrlimit(res, &cur) == nil && cur.Max < n {
			lim = unix.Rlimit{Cur: cur.Max, Max: cur.Max}
		}
		if err := unix.Setrlimit(res, &lim); err != nil {
			return fmt.Errorf("setrlimit %s: %w", name, err)
		}
		return nil
	}
	if err := set("CORE", unix.RLIMIT_CORE, 0); err != nil {
		return err
	}
	if err := set("NOFILE", unix.RLIMIT_NOFILE, 1024); err != nil {
		return err
	}
	if err := set("NPROC", unix.RLIMIT_NPROC, uint64(l.MaxProcs)); err != nil {
		return err
	}
	if l.MaxFileSize > 0 {
		if err := set("FSIZE", unix.RLIMIT_FSIZE, uint64(l.MaxFileSize)); err != nil {
			return err
		}
	}
	if l.Timeout > 0 {
		if err := set("CPU", unix.RLIMIT_CPU, uint64(cpuSeconds(l.Timeout))); err != nil {
			return err
		}
	}
	// The program runs as uid 1000, not 0, so exec grants it nothing but
	// the ambient set: clear it, and the bounding set.
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fmt.Errorf("clear ambient capabilities: %w", err)
	}
	for c := 0; c <= unix.CAP_LAST_CAP; c++ {
		unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("drop capabilities: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	return nil
}

// jailLandlock repeats the filesystem view in Landlock where the kernel
// has it: the read-only directories readable and executable, the working
// tree, home, /tmp and /dev/shm writable, /dev's devices and /proc
// readable (and the devices writable), nothing else, not even the root.
func jailLandlock(ic *initConfig) error {
	var rules []landlock.Rule
	ro := append([]string{}, ic.RO...)
	if !ic.Mount {
		ro = append(ro, initInBwrap)
	}
	var dirs, files []string
	for _, p := range ro {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			dirs = append(dirs, p)
		} else if err == nil {
			files = append(files, p)
		}
	}
	rules = append(rules, landlock.RODirs(dirs...), landlock.ROFiles(files...), landlock.RODirs("/proc"),
		landlock.PathAccess(writableNoExec, ic.Work, "/tmp").WithRefer(), landlock.PathAccess(writableNoExec, "/dev/shm").IgnoreIfMissing(),
		landlock.RWFiles("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"),
		landlock.PathAccess(llsys.AccessFSReadDir, "/dev"))
	if ic.Home != "" {
		rules = append(rules, landlock.PathAccess(writableNoExec, ic.Home).WithRefer())
	}
	if err := landlock.V5.BestEffort().RestrictPaths(rules...); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	return nil
}

// writableNoExec is what the jail may do where it writes: everything
// but execute, so nothing the program (or the script before it) wrote
// ever runs as a program.
const writableNoExec = landlock.AccessFSSet(llsys.AccessFSReadFile | llsys.AccessFSReadDir | llsys.AccessFSWriteFile |
	llsys.AccessFSRemoveDir | llsys.AccessFSRemoveFile | llsys.AccessFSMakeChar | llsys.AccessFSMakeDir |
	llsys.AccessFSMakeReg | llsys.AccessFSMakeSock | llsys.AccessFSMakeFifo | llsys.AccessFSMakeBlock |
	llsys.AccessFSMakeSym | llsys.AccessFSTruncate)

// deniedInJail fail with EPERM for the program: kernel interfaces a tool
// never needs and an escape would (new namespaces are also refused
// through clone's flags; clone3, whose flags a filter cannot read, says
// ENOSYS so the C library falls back to clone).
var deniedInJail = []uintptr{
	unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV,
	unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_CHROOT,
	unix.SYS_FSOPEN, unix.SYS_FSCONFIG, unix.SYS_FSMOUNT, unix.SYS_FSPICK, unix.SYS_MOVE_MOUNT, unix.SYS_OPEN_TREE, unix.SYS_MOUNT_SETATTR,
	unix.SYS_UNSHARE, unix.SYS_SETNS,
	unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY,
	unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN, unix.SYS_USERFAULTFD,
	unix.SYS_INIT_MODULE, unix.SYS_FINIT_MODULE, unix.SYS_DELETE_MODULE, unix.SYS_KEXEC_LOAD, unix.SYS_KEXEC_FILE_LOAD,
	unix.SYS_REBOOT, unix.SYS_SWAPON, unix.SYS_SWAPOFF, unix.SYS_ACCT, unix.SYS_SYSLOG,
	unix.SYS_OPEN_BY_HANDLE_AT, unix.SYS_IOPL, unix.SYS_IOPERM, unix.SYS_QUOTACTL,
	unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
	unix.SYS_SETTIMEOFDAY, unix.SYS_CLOCK_SETTIME, unix.SYS_CLOCK_ADJTIME, unix.SYS_ADJTIMEX,
}

// cloneNewFlags are the clone flags that make namespaces.
const cloneNewFlags = unix.CLONE_NEWUSER | unix.CLONE_NEWNS | unix.CLONE_NEWPID | unix.CLONE_NEWNET |
	unix.CLONE_NEWIPC | unix.CLONE_NEWUTS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWTIME

func jailSeccompProgram() ([]unix.SockFilter, error) {
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		return nil, fmt.Errorf("no jail seccomp filter for %s", runtime.GOARCH)
	}
	arch := uint32(unix.AUDIT_ARCH_X86_64)
	if runtime.GOARCH == "arm64" {
		arch = unix.AUDIT_ARCH_AARCH64
	}
	const (
		ldAbs  = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq    = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge    = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		jset   = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
		ret    = unix.BPF_RET | unix.BPF_K
		eperm  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
		enosys = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
		allow  = unix.SECCOMP_RET_ALLOW
		kill   = unix.SECCOMP_RET_KILL_PROCESS
		offNr  = 0
		offArc = 4
		offA0  = 16 // low half of args[0] (little-endian)
	)
	p := []unix.SockFilter{
		{Code: ldAbs, K: offArc},
		{Code: jeq, K: arch, Jt: 1},
		{Code: ret, K: kill}, // another ABI's numbers mean other calls
		{Code: ldAbs, K: offNr},
	}
	if runtime.GOARCH == "amd64" {
		p = append(p, unix.SockFilter{Code: jge, K: 0x40000000, Jf: 1}, unix.SockFilter{Code: ret, K: eperm})
	}
	for _, nr := range deniedInJail {
		p = append(p, unix.SockFilter{Code: jeq, K: uint32(nr), Jf: 1}, unix.SockFilter{Code: ret, K: eperm})
	}
	p = append(p,
		unix.SockFilter{Code: jeq, K: unix.SYS_CLONE3, Jf: 1}, unix.SockFilter{Code: ret, K: enosys},
		unix.SockFilter{Code: jeq, K: unix.SYS_CLONE, Jf: 3},
		unix.SockFilter{Code: ldAbs, K: offA0},
		unix.SockFilter{Code: jset, K: cloneNewFlags, Jf: 1},
		unix.SockFilter{Code: ret, K: eperm},
		unix.SockFilter{Code: ret, K: allow})
	return p, nil
}

func jailSeccomp() error {
	prog, err := jailSeccompProgram()
	if err != nil {
		return err
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	_, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	if e != 0 {
		return fmt.Errorf("seccomp: %w", e)
	}
	return nil
}
