//go:build linux

package vfs

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// openGuarded opens a host path the way a restricted host filesystem
// must: /proc's magic links (/proc/self/fd/N, /proc/thread-self/fd/N,
// /proc/PID/cwd, ...) are not followed, so no spelling of a path reaches
// one of sandsh's own descriptors (its real standard output, its crash
// pipe, its configuration pipe), and the per-process directories of
// /proc (PID, self, thread-self) are refused: they hold the real pids,
// the environment of processes outside the sandbox and, in
// /proc/self/mem, the worker's own memory.
func openGuarded(name string, flag int, perm fs.FileMode) (*os.File, error) {
	how := unix.OpenHow{
		Flags:   uint64(flag | unix.O_CLOEXEC),
		Mode:    uint64(syscallMode(perm)),
		Resolve: unix.RESOLVE_NO_MAGICLINKS,
	}
	fd, err := unix.Openat2(unix.AT_FDCWD, name, &how)
	for errors.Is(err, unix.EINTR) {
		fd, err = unix.Openat2(unix.AT_FDCWD, name, &how)
	}
	if errors.Is(err, unix.ENOSYS) {
		// Before Linux 5.6 there is no openat2: refuse /proc outright
		// by its resolved name below, after a plain open.
		f, err := os.OpenFile(name, flag, perm)
		if err != nil {
			return nil, err
		}
		return checkProc(f, name)
	}
	if err != nil {
		if errors.Is(err, unix.ELOOP) && strings.Contains(name, "proc") {
			err = unix.EACCES
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return checkProc(os.NewFile(uintptr(fd), name), name)
}

// checkProc refuses f if it lies in a per-process directory of /proc.
func checkProc(f *os.File, name string) (*os.File, error) {
	var st unix.Statfs_t
	if err := unix.Fstatfs(int(f.Fd()), &st); err != nil || st.Type != unix.PROC_SUPER_MAGIC {
		return f, nil
	}
	where, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
	rest, ok := strings.CutPrefix(where, "/proc/")
	if err == nil && ok {
		first, _, _ := strings.Cut(rest, "/")
		if _, e := strconv.Atoi(first); e != nil && first != "self" && first != "thread-self" {
			return f, nil
		}
	}
	f.Close()
	return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EACCES}
}

// syscallMode converts Go permission bits to the kernel's.
func syscallMode(perm fs.FileMode) uint32 {
	m := uint32(perm.Perm())
	if perm&fs.ModeSetuid != 0 {
		m |= unix.S_ISUID
	}
	if perm&fs.ModeSetgid != 0 {
		m |= unix.S_ISGID
	}
	if perm&fs.ModeSticky != 0 {
		m |= unix.S_ISVTX
	}
	return m
}
