package vfs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"time"
)

// Snapshot is the contents of a MemFS tree (or of the part of an overlay
// the sandbox sees) as plain data: every directory, regular file and
// symlink with its mode, owner and times, and hard links as references
// to the first path of the same file. Entries are in walk order, a
// directory before what it holds, so Restore can create them in order.
type Snapshot struct {
	Entries []SnapEntry `json:"entries"`
}

// SnapEntry is one path of a Snapshot. Type is "dir", "file", "symlink"
// or "link" (a hard link: Target names an earlier "file" entry). Mode is
// the Unix permission word (0o7777: permissions, setuid, setgid, sticky).
type SnapEntry struct {
	Path   string    `json:"path"`
	Type   string    `json:"type"`
	Mode   uint32    `json:"mode,omitempty"`
	UID    int       `json:"uid"`
	GID    int       `json:"gid"`
	Mtime  time.Time `json:"mtime"`
	Atime  time.Time `json:"atime"`
	Data   []byte    `json:"data,omitempty"`
	Target string    `json:"target,omitempty"`
	// Replace and Keep are only used in a Delta (see there).
	Replace bool `json:"replace,omitempty"`
	Keep    bool `json:"keep,omitempty"`
}

// SnapLimits bound what a snapshot may hold, so that a state file can
// never put more into a sandbox than its filesystem limits allow. Zero
// means no limit.
type SnapLimits struct {
	MaxBytes    int64 // total file contents
	MaxFiles    int   // entries below the root
	MaxFileSize int64 // one file
}

// cwdRoom is what a snapshot of the whole tree may hold beyond
// MaxFiles besides the standard tree: the directories of a deep --cwd.
const cwdRoom = 16

// overFiles reports whether n counted entries are more than lim allows.
func (lim SnapLimits) overFiles(n int) bool {
	return lim.MaxFiles > 0 && n > lim.MaxFiles+cwdRoom
}

// standardEntry reports whether p, a path from the root, is in the
// standard tree Populate and InstallCommands lay out (a name per
// in-process command in CommandDir among it), which --max-files does
// not count.
func standardEntry(p string) bool {
	switch p {
	case "/bin", "/usr", "/usr/bin", "/usr/local", "/usr/local/bin", "/etc", "/dev", "/home", "/root", HomeDir, TmpDir, WorkDir,
		"/etc/passwd", "/etc/group", "/etc/hostname", "/etc/os-release":
		return true
	}
	return path.Dir(p) == CommandDir
}

// TakeSnapshot copies the tree of fsys, which must be a *MemFS (the
// memory or overlay filesystem), into a Snapshot. It reads as root so
// that no permission bit hides a file, and fails (rather than cut the
// tree short) when the tree is bigger than lim.
func TakeSnapshot(ctx context.Context, fsys FS, lim SnapLimits) (*Snapshot, error) {
	return TakeSnapshotAt(ctx, fsys, "/", lim)
}

// TakeSnapshotAt is TakeSnapshot of the tree below dir: its paths are
// relative to dir ("/" is dir itself), as for exporting a working tree.
func TakeSnapshotAt(ctx context.Context, fsys FS, dir string, lim SnapLimits) (*Snapshot, error) {
	m, ok := fsys.(*MemFS)
	if !ok {
		return nil, errors.New("snapshot: only the memory and overlay filesystems can be saved")
	}
	root := m.As(Cred{UID: 0, GID: 0, Umask: 0o022})
	dir = Clean("/", dir)
	real := func(p string) string { return path.Join(dir, p) }
	s := &Snapshot{}
	var bytes int64
	counted := 0 // entries --max-files counts
	inodes := map[uint64]string{}
	var walk func(p string) error
	walk = func(p string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		fi, err := Lstat(root, real(p))
		if err != nil {
			return fmt.Errorf("snapshot: %w", err)
		}
		if p == "/" && !fi.IsDir() {
			return fmt.Errorf("snapshot: %s is not a directory", dir)
		}
		if p != "/" && (dir != "/" || !standardEntry(p)) {
			if counted++; lim.overFiles(counted) {
				return fmt.Errorf("snapshot: more than %d files", lim.MaxFiles)
			}
		}
		meta := MetaOf(fi)
		e := SnapEntry{Path: p, Mode: UnixMode(fi.Mode()), UID: meta.UID, GID: meta.GID, Mtime: fi.ModTime(), Atime: meta.Atime}
		switch {
		case fi.IsDir():
			e.Type = "dir"
			s.Entries = append(s.Entries, e)
			f, err := root.Open(real(p))
			if err != nil {
				return fmt.Errorf("snapshot: %w", err)
			}
			names, err := f.Readdirnames(-1)
			f.Close()
			if err != nil {
				return fmt.Errorf("snapshot: %w", err)
			}
			slices.Sort(names)
			for _, n := range names {
				if err := walk(path.Join(p, n)); err != nil {
					return err
				}
			}
			return nil
		case fi.Mode()&fs.ModeSymlink != 0:
			e.Type, e.Mode = "symlink", 0
			e.Target, err = root.ReadlinkIfPossible(real(p))
			if err != nil {
				return fmt.Errorf("snapshot: %w", err)
			}
		case fi.Mode().IsRegular():
			if meta.Nlink > 1 && meta.Ino != 0 {
				if first, ok := inodes[meta.Ino]; ok {
					s.Entries = append(s.Entries, SnapEntry{Path: p, Type: "link", Target: first})
					return nil
				}
				inodes[meta.Ino] = p
			}
			e.Type = "file"
			if lim.MaxFileSize > 0 && fi.Size() > lim.MaxFileSize {
				return fmt.Errorf("snapshot: %s: file bigger than %d bytes", p, lim.MaxFileSize)
			}
			bytes += fi.Size()
			if lim.MaxBytes > 0 && bytes > lim.MaxBytes {
				return fmt.Errorf("snapshot: files hold more than %d bytes", lim.MaxBytes)
			}
			f, err := root.Open(real(p))
			if err != nil {
				return fmt.Errorf("snapshot: %w", err)
			}
			e.Data = make([]byte, fi.Size())
			n, err := io.ReadFull(f, e.Data)
			f.Close()
			if err != nil && err != io.ErrUnexpectedEOF {
				return fmt.Errorf("snapshot: %w", err)
			}
			e.Data = e.Data[:n]
		default:
			return nil // nothing else can be made in a MemFS
		}
		s.Entries = append(s.Entries, e)
		return nil
	}
	if err := walk("/"); err != nil {
		return nil, err
	}
	return s, nil
}

// Check validates a snapshot that came from outside (a state file)
// against lim: clean absolute paths, each once, every parent a directory
// listed before, known types, hard links to earlier files, sizes within
// the limits. Restore runs it first.
func (s *Snapshot) Check(lim SnapLimits) error {
	if s == nil || len(s.Entries) == 0 || s.Entries[0].Path != "/" || s.Entries[0].Type != "dir" {
		return errors.New("snapshot: no root directory")
	}
	counted := 0
	for _, e := range s.Entries[1:] {
		if !standardEntry(e.Path) {
			counted++
		}
	}
	if lim.overFiles(counted) {
		return fmt.Errorf("snapshot: more than %d files", lim.MaxFiles)
	}
	types := make(map[string]string, len(s.Entries))
	var bytes int64
	for i := range s.Entries {
		e := &s.Entries[i]
		n, err := checkEntry("snapshot", e, types, lim)
		if err != nil {
			return err
		}
		if i > 0 && types[path.Dir(e.Path)] != "dir" {
			return fmt.Errorf("snapshot: %s: parent is not a directory listed before it", e.Path)
		}
		if e.Replace || e.Keep {
			return fmt.Errorf("snapshot: %s: a delta's flags in a snapshot", e.Path)
		}
		types[e.Path] = e.Type
		bytes += n
	}
	if lim.MaxBytes > 0 && bytes > lim.MaxBytes {
		return fmt.Errorf("snapshot: files hold more than %d bytes", lim.MaxBytes)
	}
	return nil
}

// checkEntry checks one entry of a snapshot or a delta (what, for the
// messages) given the types of the entries before it: a clean absolute
// path not seen before, a known type, mode and owner, a hard link to an
// earlier file, a size within lim. It returns the file bytes e holds.
func checkEntry(what string, e *SnapEntry, types map[string]string, lim SnapLimits) (int64, error) {
	if len(e.Path) > maxPathLen || len(e.Target) > maxPathLen || !strings.HasPrefix(e.Path, "/") || path.Clean(e.Path) != e.Path ||
		strings.ContainsRune(e.Path, 0) || strings.ContainsRune(e.Target, 0) {
		return 0, fmt.Errorf("%s: bad path %q", what, e.Path)
	}
	if _, dup := types[e.Path]; dup {
		return 0, fmt.Errorf("%s: %s twice", what, e.Path)
	}
	if e.Mode > 0o7777 {
		return 0, fmt.Errorf("%s: %s: bad mode %o", what, e.Path, e.Mode)
	}
	if e.UID < 0 || e.GID < 0 || e.UID > 1<<31-1 || e.GID > 1<<31-1 {
		return 0, fmt.Errorf("%s: %s: bad owner", what, e.Path)
	}
	switch e.Type {
	case "dir":
	case "file":
		if lim.MaxFileSize > 0 && int64(len(e.Data)) > lim.MaxFileSize {
			return 0, fmt.Errorf("%s: %s: file bigger than %d bytes", what, e.Path, lim.MaxFileSize)
		}
	case "symlink":
		if e.Target == "" {
			return 0, fmt.Errorf("%s: %s: empty symlink", what, e.Path)
		}
	case "link":
		if types[e.Target] != "file" {
			return 0, fmt.Errorf("%s: %s: hard link to %q, not an earlier file", what, e.Path, e.Target)
		}
	default:
		return 0, fmt.Errorf("%s: %s: unknown type %q", what, e.Path, e.Type)
	}
	if e.Type != "file" && len(e.Data) > 0 {
		return 0, fmt.Errorf("%s: %s: data on a %s", what, e.Path, e.Type)
	}
	return int64(len(e.Data)), nil
}

// Restore makes the tree of fsys (a *MemFS) equal to s: paths s does not
// hold are removed (on an overlay the base entries are hidden, as a
// delete would), the rest are created or rewritten with their modes,
// owners and times. s is checked against lim first; the filesystem's own
// limits apply as well. On an error the tree is left partly restored: a
// caller that must not half-load a state restores into a fresh
// filesystem and drops it on failure.
func Restore(ctx context.Context, fsys FS, s *Snapshot, lim SnapLimits) error {
	return apply(ctx, fsys, "/", s, lim, true)
}

// Graft adds the entries of s below dir (its "/" is dir, which must
// exist and keeps its own mode and owner), replacing what is there under
// the same names and leaving everything else alone: --import.
func Graft(ctx context.Context, fsys FS, dir string, s *Snapshot, lim SnapLimits) error {
	return apply(ctx, fsys, Clean("/", dir), s, lim, false)
}

func apply(ctx context.Context, fsys FS, prefix string, s *Snapshot, lim SnapLimits, prune bool) error {
	if err := s.Check(lim); err != nil {
		return err
	}
	m, ok := fsys.(*MemFS)
	if !ok {
		return errors.New("restore: only the memory and overlay filesystems can be restored")
	}
	root := m.As(Cred{UID: 0, GID: 0, Umask: 0})
	real := func(p string) string { return path.Join(prefix, p) }
	want := make(map[string]*SnapEntry, len(s.Entries))
	for i := range s.Entries {
		want[s.Entries[i].Path] = &s.Entries[i]
	}
	// Remove what s does not hold, or holds as another type.
	var pruneTree func(p string) error
	pruneTree = func(p string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		fi, err := Lstat(root, p)
		if err != nil {
			return nil
		}
		e := want[p]
		if e == nil || TypeWord(fi) != e.Type && !(e.Type == "link" && fi.Mode().IsRegular()) {
			return root.RemoveAll(p)
		}
		if !fi.IsDir() {
			return nil
		}
		f, err := root.Open(p)
		if err != nil {
			return err
		}
		names, err := f.Readdirnames(-1)
		f.Close()
		if err != nil {
			return err
		}
		for _, n := range names {
			if err := pruneTree(path.Join(p, n)); err != nil {
				return err
			}
		}
		return nil
	}
	if prune {
		if err := pruneTree("/"); err != nil {
			return fmt.Errorf("restore: %w", err)
		}
	}
	first := 0
	if !prune {
		first = 1 // a graft keeps the directory it goes into as it is
	}
	for i := first; i < len(s.Entries); i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		e := s.Entries[i]
		e.Path = real(e.Path)
		if e.Type == "link" {
			e.Target = real(e.Target)
		}
		if !prune {
			if fi, err := Lstat(root, e.Path); err == nil && TypeWord(fi) != e.Type && !(e.Type == "dir" && fi.IsDir()) {
				root.RemoveAll(e.Path)
			}
		}
		if err := restoreEntry(root, &e); err != nil {
			return fmt.Errorf("restore: %w", err)
		}
	}
	return setModesTimes(root, s.Entries[first:], real)
}

// setModesTimes sets the modes and times of entries last, deepest first,
// so that creating the entries of a directory does not change its mtime
// afterwards.
func setModesTimes(root *MemFS, entries []SnapEntry, real func(string) string) error {
	for i := len(entries) - 1; i >= 0; i-- {
		e := &entries[i]
		p := real(e.Path)
		switch e.Type {
		case "dir", "file":
			if err := root.Chmod(p, GoMode(e.Mode)); err != nil {
				return fmt.Errorf("restore: %w", err)
			}
			if err := root.Chtimes(p, e.Atime, e.Mtime); err != nil {
				return fmt.Errorf("restore: %w", err)
			}
		case "symlink":
			if err := root.LchtimesIfPossible(p, e.Atime, e.Mtime); err != nil {
				return fmt.Errorf("restore: %w", err)
			}
		}
	}
	return nil
}

func restoreEntry(root *MemFS, e *SnapEntry) error {
	switch e.Type {
	case "dir":
		if _, err := Lstat(root, e.Path); err != nil {
			if err := root.Mkdir(e.Path, 0o700); err != nil {
				return err
			}
		}
	case "file":
		if same, _ := sameContent(root, e.Path, e.Data); !same {
			if err := writeWhole(root, e.Path, e.Data, 0); err != nil {
				return err
			}
		}
	case "symlink":
		if t, err := root.ReadlinkIfPossible(e.Path); err == nil && t == e.Target {
			break
		}
		root.RemoveAll(e.Path)
		if err := root.SymlinkIfPossible(e.Target, e.Path); err != nil {
			return err
		}
	case "link":
		root.RemoveAll(e.Path)
		return root.LinkIfPossible(e.Target, e.Path)
	}
	return root.lchown(e.Path, e.UID, e.GID)
}

// sameContent reports whether the file at p holds data already, so that
// restoring over an overlay does not copy unchanged base files up.
func sameContent(fsys FS, p string, data []byte) (bool, error) {
	fi, err := Lstat(fsys, p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != int64(len(data)) {
		return false, err
	}
	f, err := fsys.Open(p)
	if err != nil {
		return false, err
	}
	defer f.Close()
	buf := make([]byte, 32<<10)
	for off := 0; off < len(data); {
		n, err := f.Read(buf)
		if n > 0 {
			if off+n > len(data) || string(buf[:n]) != string(data[off:off+n]) {
				return false, nil
			}
			off += n
		}
		if err != nil {
			return off == len(data), nil
		}
	}
	return true, nil
}

// lchown sets the owner of name itself, symlink or not.
func (m *MemFS) lchown(name string, uid, gid int) error {
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	lk, err := m.resolve(name, false)
	if err != nil {
		return pathErr("lchown", name, err)
	}
	if lk.node == nil {
		return pathErr("lchown", name, fs.ErrNotExist)
	}
	lk.node.uid, lk.node.gid = uid, gid
	m.t.touch(lk.node)
	return nil
}

// writeWhole replaces name's content with data (creating it 0600), with
// the extra open flags given; a failed close is a failed write.
func writeWhole(root *MemFS, name string, data []byte, flags int) error {
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|flags, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
