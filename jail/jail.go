// Package jail runs the host programs an operator allowlisted
// (--allow-run, or a policy rule saying jail) inside an OS-level jail that
// sees only the sandbox: new user, mount, pid, network, IPC and UTS
// namespaces, the host's system directories read-only (minus secrets), a
// private /tmp, /proc and minimal /dev, and the sandbox's working tree,
// copied into a size-bounded tmpfs at the same path and read back after
// the program is gone.
//
// It is the trusted side: it runs in the supervising sandsh (or in the
// only sandsh with --no-worker), never in the confined worker. The
// worker only asks (restrict.JailClient); Config.Run decides again
// whether the name may run, resolves it on the host itself and chooses
// every mount. Processes are started by package restrict; this package
// builds the jail from inside (Init) and reads the tree back.
package jail

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sandsh/sandsh/vfs"
)

// InitEnv marks a sandsh process started as a jail init; its value is
// "1" (build the jail and run the program) or "probe" (exit at once: can
// the namespaces be created?).
const InitEnv = "SANDSH_JAIL_INIT"

// BackendEnv forces a backend ("ns", "bwrap" or "auto") when the flag
// does not (tests run each backend this way).
const BackendEnv = "SANDSH_JAIL_BACKEND"

// Backend names.
const (
	BackendNS    = "ns"    // sandsh's own: clone flags, id maps, sandsh as the jail init
	BackendBwrap = "bwrap" // bubblewrap builds the namespaces and mounts
	BackendAuto  = "auto"
)

// SystemDirs are the host directories every jail shows read-only, where
// they exist (a symlink, as /bin on a merged-/usr system, is recreated as
// the same symlink).
var SystemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"}

// Secrets are hidden inside the read-only /etc: a file reads as empty, a
// directory as an empty, unwritable one. Globs are expanded on the host.
var Secrets = []string{
	"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-",
	"/etc/sudoers", "/etc/sudoers.d", "/etc/ssh/ssh_host_*key*", "/etc/ssl/private",
	"/etc/security/opasswd", "/etc/krb5.keytab", "/etc/NetworkManager/system-connections",
	"/etc/wireguard", "/etc/credstore", "/etc/credstore.encrypted", "/etc/libvirt/secrets",
}

// ProgramPath is where an allowlisted name is looked up on the host: the
// system directories the jail shows, never the script's $PATH nor the
// operator's (a program in ~/bin would not be visible inside).
var ProgramPath = []string{"/usr/local/bin", "/usr/bin", "/bin", "/usr/local/sbin", "/usr/sbin", "/sbin"}

// Hostname is the jail's host name, the sandbox's virtual one.
const Hostname = "sandbox"

// Limits bound one jailed program. Zero means the default or no limit as
// documented per field.
type Limits struct {
	MaxFSBytes  int64         // the working tree's tmpfs and /tmp each (size=)
	MaxFiles    int           // inodes of each tmpfs
	MaxFileSize int64         // RLIMIT_FSIZE
	MaxMemory   int64         // RLIMIT_AS
	Timeout     time.Duration // RLIMIT_CPU (rounded up to seconds)
	MaxProcs    int           // RLIMIT_NPROC (default 256)
}

// Config is the trusted configuration of the jail, from sandsh's command
// line (never from the script).
type Config struct {
	// Allowed decides whether a command line may run in the jail.
	Allowed func(argv []string) bool
	// ReadOnly are more host paths the operator shows read-only
	// (--jail-ro), at the same path.
	ReadOnly []string
	// Backend is "ns", "bwrap" or "auto" ("" is auto).
	Backend string
	Limits  Limits
	// Exe is the sandsh executable (the jail init); "" means
	// /proc/self/exe.
	Exe string

	// The bubblewrap found and its version, asked once.
	bwrapOnce sync.Once
	bwrapSeen bwrapInfo
	// Where the jails' cgroups go, or why they cannot, found once.
	cgroupOnce sync.Once
	cgroupDir  string
	cgroupWhy  error
	// Tests only: another bwrap, and one older than minBwrap accepted.
	bwrapAt         string
	bwrapAnyVersion bool
}

// minBwrap is the oldest bubblewrap the bwrap backend accepts.
var minBwrap = [3]int{0, 12, 0}

// ErrBwrapOld is a bubblewrap older than the bwrap backend accepts.
var ErrBwrapOld = fmt.Errorf("older than %d.%d.%d, the oldest the bwrap backend accepts", minBwrap[0], minBwrap[1], minBwrap[2])

// bwrapInfo is the bubblewrap a backend would use: where, which
// version, or why it cannot.
type bwrapInfo struct {
	path, version string
	err           error
}

// CheckReadOnly validates --jail-ro paths: absolute, clean, not inside
// the jail's own /tmp, /proc or /dev, nor the root.
func CheckReadOnly(paths []string) error {
	for _, p := range paths {
		if !strings.HasPrefix(p, "/") || path.Clean(p) != p || p == "/" {
			return fmt.Errorf("--jail-ro %q: want a clean absolute path", p)
		}
		for _, own := range []string{"/tmp", "/proc", "/dev"} {
			if within(p, own) {
				return fmt.Errorf("--jail-ro %s: %s is the jail's own", p, own)
			}
		}
	}
	return nil
}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// overlaps reports whether a and b are the same path or one holds the
// other.
func overlaps(a, b string) bool { return within(a, b) || within(b, a) }

// checkWork refuses a working tree the jail cannot show at its own path
// without hiding or replacing something the jail needs.
func (c *Config) checkWork(work, dir string) error {
	if !strings.HasPrefix(work, "/") || path.Clean(work) != work || work == "/" {
		return fmt.Errorf("cannot show the working tree %q in the jail", work)
	}
	for _, sys := range slices.Concat(SystemDirs, c.ReadOnly, []string{"/tmp", "/proc", "/dev"}) {
		if overlaps(work, sys) {
			return fmt.Errorf("cannot show the working tree %s in the jail: it overlaps %s", work, sys)
		}
	}
	if !within(dir, work) || path.Clean(dir) != dir {
		return fmt.Errorf("the working directory %s is not inside %s", dir, work)
	}
	return nil
}

// home returns where the jail gets an empty, private home directory:
// $HOME when it is somewhere the jail can create it.
func (c *Config) home(env []string, work string) string {
	var h string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			h = v
		}
	}
	if !strings.HasPrefix(h, "/") || path.Clean(h) != h || h == "/" || within(h, work) || within(work, h) {
		return ""
	}
	for _, sys := range slices.Concat(SystemDirs, c.ReadOnly, []string{"/tmp", "/proc", "/dev"}) {
		if overlaps(h, sys) {
			return ""
		}
	}
	return h
}

// snapLimits are the bounds of the tree read back.
func (l Limits) snapLimits() vfs.SnapLimits {
	return vfs.SnapLimits{MaxBytes: l.MaxFSBytes, MaxFiles: l.MaxFiles, MaxFileSize: l.MaxFileSize}
}

// initConfig is what the jail init reads on descriptor 3.
type initConfig struct {
	Mount   bool // build the filesystem view (the ns backend; bwrap did it)
	Program string
	Argv    []string
	Env     []string
	Dir     string
	Work    string
	Home    string
	Tree    *vfs.Snapshot
	RO      []string // system directories and --jail-ro paths that exist
	Links   map[string]string
	Masked  []string
	Limits  Limits
	// StderrFD, when not 0, is the program's standard error, moved to 2
	// before the exec (bwrap keeps its own 2 for its errors).
	StderrFD int
}

// Init descriptors: the program's standard streams are 0, 1 and 2.
const (
	initConfigFD = 3 // initConfig, gob, read to EOF
	initReplyFD  = 4 // a socket: one message, an error text or "ok" with the working tree's descriptor
)
