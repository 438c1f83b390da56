package vfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"syscall"
)

// Populate lays out the standard sandbox tree on fsys: the usual system
// directories owned by root, a small /etc describing the virtual "sandsh"
// system, the sandbox user's home, /tmp (sticky, world-writable),
// /workspace (vfs.WorkDir) and the working directory cwd, which is
// created if needed and, with any parents Populate creates for it, given
// to the sandbox user. Existing files are left alone, so Populate is
// idempotent and safe on a persistent disk root.
//
// On a MemFS the work is done through a root view, so the system
// directories end up owned by root and not writable by the sandbox user,
// like on a real system. On other filesystems ownership changes the host
// does not allow are skipped: they only make ls -l prettier.
func Populate(fsys FS, cwd string) error {
	admin := fsys
	if m, ok := fsys.(*MemFS); ok {
		admin = m.As(Cred{UID: 0, GID: 0, Umask: 0o022})
		m.setStandard(true)
		defer m.setStandard(false)
	}
	const root, user = 0, DefaultUID
	dirs := []struct {
		name  string
		perm  fs.FileMode
		owner int
	}{
		{"/", 0o755, root},
		{"/usr", 0o755, root},
		{"/usr/bin", 0o755, root},
		{"/usr/local", 0o755, root},
		{"/usr/local/bin", 0o755, root},
		{"/etc", 0o755, root},
		{"/dev", 0o755, root},
		{"/home", 0o755, root},
		{"/root", 0o700, root},
		{HomeDir, 0o755, user},
		{TmpDir, 0o777 | fs.ModeSticky, root},
		{WorkDir, 0o755, user},
	}
	for _, d := range dirs {
		if err := ensureDir(admin, d.name, d.perm, d.owner); err != nil {
			return err
		}
	}
	// Like Debian since bookworm (merged /usr), /bin is a symlink to
	// usr/bin; an existing /bin directory is left alone.
	if _, _, err := admin.LstatIfPossible("/bin"); errors.Is(err, fs.ErrNotExist) {
		if err := admin.SymlinkIfPossible("usr/bin", "/bin"); err != nil {
			return fmt.Errorf("vfs: populate: %w", err)
		}
	}
	for _, f := range etcFiles() {
		if err := ensureFile(admin, f.name, f.data); err != nil {
			return err
		}
	}
	cwd = Clean(WorkDir, cwd)
	if err := ensureCwd(admin, cwd); err != nil {
		return err
	}
	if m, ok := fsys.(*MemFS); ok {
		// --max-files counts what the run creates, not this tree.
		std := []string{"/bin"}
		for _, d := range dirs {
			std = append(std, d.name)
		}
		for _, f := range etcFiles() {
			std = append(std, f.name)
		}
		for p, c := "", splitPath(cwd); len(c) > 0; c = c[1:] {
			p += "/" + c[0]
			std = append(std, p)
		}
		m.uncharge(std)
	}
	return nil
}

// ensureDir creates directory name if missing and sets its mode and
// owner, so that a umask cannot spoil modes like /tmp's 1777.
func ensureDir(fsys FS, name string, perm fs.FileMode, owner int) error {
	fi, err := fsys.Stat(name)
	if err == nil && !fi.IsDir() {
		return fmt.Errorf("vfs: populate: %s exists and is not a directory", name)
	}
	if err != nil {
		if err := fsys.MkdirAll(name, perm); err != nil {
			return fmt.Errorf("vfs: populate: %w", err)
		}
	}
	if err := fsys.Chmod(name, perm); err != nil {
		return fmt.Errorf("vfs: populate: %w", err)
	}
	return chownSoft(fsys, name, owner)
}

// chownSoft gives name to uid (and its primary group) unless the filesystem
// refuses for lack of privilege, as a host disk does for a normal user.
func chownSoft(fsys FS, name string, uid int) error {
	gid := 0
	if uid == DefaultUID {
		gid = DefaultGID
	}
	err := fsys.Chown(name, uid, gid)
	if err != nil && !errors.Is(err, fs.ErrPermission) && !errors.Is(err, syscall.EPERM) {
		return fmt.Errorf("vfs: populate: %w", err)
	}
	return nil
}

func ensureFile(fsys FS, name, data string) error {
	f, err := fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("vfs: populate: %w", err)
	}
	_, err = f.Write([]byte(data))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("vfs: populate: writing %s: %w", name, err)
	}
	if err := fsys.Chmod(name, 0o644); err != nil {
		return fmt.Errorf("vfs: populate: %w", err)
	}
	return chownSoft(fsys, name, 0)
}

// ensureCwd creates cwd and gives the directories it had to create to the
// sandbox user, who must be able to work there.
func ensureCwd(fsys FS, cwd string) error {
	p := ""
	for _, c := range splitPath(cwd) {
		p += "/" + c
		if _, err := fsys.Stat(p); err == nil {
			continue
		}
		if err := fsys.Mkdir(p, 0o755); err != nil {
			return fmt.Errorf("vfs: populate: working directory: %w", err)
		}
		if err := fsys.Chmod(p, 0o755); err != nil {
			return fmt.Errorf("vfs: populate: %w", err)
		}
		if err := chownSoft(fsys, p, DefaultUID); err != nil {
			return err
		}
	}
	fi, err := fsys.Stat(cwd)
	if err != nil {
		return fmt.Errorf("vfs: populate: working directory: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("vfs: populate: working directory %s is not a directory", cwd)
	}
	return nil
}

type etcFile struct{ name, data string }

// etcFiles describes the virtual system: root and the sandbox user.
func etcFiles() []etcFile {
	uid := strconv.Itoa(DefaultUID)
	gid := strconv.Itoa(DefaultGID)
	return []etcFile{
		{"/etc/passwd", "root:x:0:0:root:/root:/bin/bash\n" +
			DefaultUser + ":x:" + uid + ":" + gid + ":" + DefaultUser + ":" + HomeDir + ":/bin/bash\n"},
		{"/etc/group", "root:x:0:\n" + DefaultUser + ":x:" + gid + ":\n"},
		{"/etc/hostname", "sandbox\n"},
		{"/etc/os-release", `NAME="sandsh"
ID=sandsh
PRETTY_NAME="sandsh virtual system"
VERSION_ID="1"
HOME_URL="https://github.com/sandsh/sandsh"
`},
	}
}

// CommandDir is where the sandbox's in-process commands are installed,
// as Debian installs its programs; /bin is a symlink to it.
const CommandDir = "/usr/bin"

// CommandStub is the content of the files that stand for the in-process
// commands. Like busybox, one file (hard-linked under every command's
// name) serves them all: the gateway runs the in-process command named by
// the last element of the path it was run by. Run by a shell instead of
// through the gateway, it still runs the command.
const CommandStub = "#!/bin/sh\n# sandsh: an in-process command, run by its file name\nexec " + CommandDir + "/\"${0##*/}\" \"$@\"\n"

// IsCommandStub reports whether a file starting with head is the stub.
func IsCommandStub(head []byte) bool { return strings.HasPrefix(string(head), CommandStub) }

// commandName reports whether InstallCommands installs name.
func commandName(name string) bool {
	return name != "" && !strings.ContainsAny(name, "/\x00") && name != "." && name != ".."
}

// InstallCommands puts the command stub into CommandDir (root's, mode
// 0755) under each name, so that ls, type -a, hash, command -v and which
// see the commands where bash would find programs. The names share one
// inode where the filesystem has hard links, so they cost one file of
// --max-files. Existing files are left alone.
func InstallCommands(fsys FS, names []string) error {
	admin := fsys
	if m, ok := fsys.(*MemFS); ok {
		admin = m.As(Cred{UID: 0, GID: 0, Umask: 0o022})
		m.setStandard(true)
		defer m.setStandard(false)
	}
	first := ""
	for i := 0; i < len(names); i++ {
		name := names[i]
		if !commandName(name) {
			continue
		}
		if m, ok := admin.(*MemFS); ok && first != "" {
			// The other names become links to the first stub, made
			// under one lock with CommandDir resolved once (this runs at
			// the start of every worker); a name it cannot take is left
			// to the general path below.
			i += m.linkCommands(CommandDir, path.Base(first), names[i:])
			if i >= len(names) {
				break
			}
			name = names[i]
		}
		p := CommandDir + "/" + name
		if _, _, err := admin.LstatIfPossible(p); err == nil {
			continue
		}
		if hl, ok := admin.(HardLinker); ok && first != "" {
			if err := hl.LinkIfPossible(first, p); err == nil {
				continue
			}
		}
		if err := ensureFile(admin, p, CommandStub); err != nil {
			return err
		}
		if err := admin.Chmod(p, 0o755); err != nil {
			return fmt.Errorf("vfs: install commands: %w", err)
		}
		first = p
	}
	if m, ok := fsys.(*MemFS); ok {
		// The stubs share one inode (one name is enough to find it),
		// which a tree loaded from a state file holds already, charged.
		for _, name := range names {
			if commandName(name) {
				m.uncharge([]string{CommandDir + "/" + name})
				break
			}
		}
	}
	return nil
}

// EnsureMountPoint creates dir as Populate creates the working directory
// (what it had to create belongs to the sandbox user), for a host tree
// grafted there later (sandsh --import DIR --import-at PATH over a
// loaded state or an overlay).
func EnsureMountPoint(fsys FS, dir string) error {
	admin := fsys
	if m, ok := fsys.(*MemFS); ok {
		admin = m.As(Cred{UID: 0, GID: 0, Umask: 0o022})
	}
	return ensureCwd(admin, Clean("/", dir))
}
