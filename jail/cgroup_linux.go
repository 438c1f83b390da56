//go:build linux

package jail

// cgroup v2 limits per jail. The rlimits bound one process each
// (RLIMIT_AS, RLIMIT_CPU) or one user (RLIMIT_NPROC); a cgroup bounds
// the jail as a whole: its memory (page cache and kernel memory
// included), its processes and its CPU bandwidth. sandsh makes one
// child cgroup per jail where it may: in the cgroup v2 directory it
// runs in, when that directory has the memory, pids and cpu controllers
// enabled for its children and sandsh may write there (a delegated
// cgroup, or the root cgroup of a machine or VM where sandsh is root).
// The jail's first process is started inside it (CLONE_INTO_CGROUP), so
// nothing it starts is ever outside. Elsewhere the run says which
// limits are missing.

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// cgroupRoot is where the cgroup v2 hierarchy is mounted.
const cgroupRoot = "/sys/fs/cgroup"

// jailCgroup is the cgroup of one jail.
type jailCgroup struct {
	dir string
	fd  int // O_PATH descriptor of dir, for CLONE_INTO_CGROUP
}

// cgroupParent returns the directory where this process may make the
// jails' cgroups, or why it cannot.
func cgroupParent() (string, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(cgroupRoot, &st); err != nil {
		return "", fmt.Errorf("%s: %v", cgroupRoot, err)
	}
	if st.Type != unix.CGROUP2_SUPER_MAGIC {
		return "", fmt.Errorf("%s is not a cgroup v2 hierarchy (cgroup v1 or hybrid)", cgroupRoot)
	}
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	own := ""
	for _, line := range strings.Split(string(data), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			own = p
		}
	}
	if !strings.HasPrefix(own, "/") {
		return "", errors.New("this process is in no cgroup v2 group")
	}
	dir := filepath.Join(cgroupRoot, own)
	ctl, err := os.ReadFile(filepath.Join(dir, "cgroup.subtree_control"))
	if err != nil {
		return "", err
	}
	have := strings.Fields(string(ctl))
	for _, c := range []string{"memory", "pids", "cpu"} {
		if !contains(have, c) {
			return "", fmt.Errorf("%s does not enable the %s controller for its children (cgroup.subtree_control: %q)", dir, c, strings.TrimSpace(string(ctl)))
		}
	}
	if err := unix.Access(dir, unix.W_OK); err != nil {
		return "", fmt.Errorf("%s is not writable here: %v", dir, err)
	}
	return dir, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// newJailCgroup makes the cgroup of one jail below parent, with the
// limits of l.
func newJailCgroup(parent string, l Limits) (*jailCgroup, error) {
	var b [8]byte
	rand.Read(b[:])
	dir := filepath.Join(parent, "sandsh-jail-"+hex.EncodeToString(b[:]))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("make the jail's cgroup: %w", err)
	}
	cg := &jailCgroup{dir: dir, fd: -1}
	for _, s := range l.cgroupSettings() {
		if err := os.WriteFile(filepath.Join(dir, s[0]), []byte(s[1]), 0); err != nil {
			cg.remove()
			return nil, fmt.Errorf("set %s of the jail's cgroup: %w", s[0], err)
		}
	}
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		cg.remove()
		return nil, fmt.Errorf("open the jail's cgroup: %w", err)
	}
	cg.fd = fd
	return cg, nil
}

// cgroupSettings are the files written in a jail's cgroup: memory
// (--max-memory, no swap), processes (the same number as RLIMIT_NPROC),
// CPU bandwidth (one CPU's worth).
func (l Limits) cgroupSettings() [][2]string {
	var s [][2]string
	if l.MaxMemory > 0 {
		s = append(s, [2]string{"memory.max", strconv.FormatInt(l.MaxMemory, 10)}, [2]string{"memory.swap.max", "0"})
	}
	return append(s, [2]string{"pids.max", strconv.Itoa(l.MaxProcs)}, [2]string{"cpu.max", "100000 100000"})
}

// oomKilled reports whether the kernel killed a process of the jail
// for its memory limit.
func (cg *jailCgroup) oomKilled() bool {
	f, err := os.Open(filepath.Join(cg.dir, "memory.events"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if n, ok := strings.CutPrefix(sc.Text(), "oom_kill "); ok && n != "0" {
			return true
		}
	}
	return false
}

// remove kills what is left in the cgroup and removes it.
func (cg *jailCgroup) remove() {
	if cg.fd >= 0 {
		unix.Close(cg.fd)
		cg.fd = -1
	}
	os.WriteFile(filepath.Join(cg.dir, "cgroup.kill"), []byte("1"), 0)
	for range 50 {
		if err := unix.Rmdir(cg.dir); err == nil || errors.Is(err, unix.ENOENT) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// describeCgroup is the --verbose line on the cgroup of a run.
func describeCgroup(cg *jailCgroup, why error, l Limits, ownUID bool) string {
	if cg != nil {
		var parts []string
		for _, s := range l.cgroupSettings() {
			parts = append(parts, s[0]+"="+s[1])
		}
		return "cgroup v2 " + cg.dir + ": " + strings.Join(parts, " ")
	}
	nproc := "RLIMIT_NPROC counts every process of the jail's user"
	if ownUID {
		nproc = "RLIMIT_NPROC, on a uid of this jail's own"
	}
	return "cgroup v2: not used (" + why.Error() + "), so these limits are missing: memory of the jail as a whole (only RLIMIT_AS, per process), " +
		"its processes as a whole (only " + nproc + "), its CPU bandwidth (only RLIMIT_CPU, per process)"
}
