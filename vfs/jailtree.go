package vfs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"

	"github.com/spf13/afero"
)

// ReadTree copies the tree of any FS below dir into a Snapshot whose "/"
// is dir: what a jailed host program is shown of the sandbox. It reads as
// the filesystem's own user (the sandbox user on a MemFS); entries it
// cannot read are left out, so the program never sees more than the
// script could. Hard links become separate files. A tree bigger than lim
// is refused whole.
func ReadTree(ctx context.Context, fsys FS, dir string, lim SnapLimits) (*Snapshot, error) {
	dir = Clean("/", dir)
	s := &Snapshot{}
	var bytes int64
	var walk func(p string) error
	walk = func(p string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if lim.MaxFiles > 0 && len(s.Entries) > lim.MaxFiles {
			return fmt.Errorf("%s: more than %d files", dir, lim.MaxFiles)
		}
		full := path.Join(dir, p)
		fi, err := Lstat(fsys, full)
		if err != nil {
			if p == "/" {
				return err
			}
			return nil
		}
		m := MetaOf(fi)
		e := SnapEntry{Path: p, Type: TypeWord(fi), Mode: UnixMode(fi.Mode()), UID: m.UID, GID: m.GID, Mtime: fi.ModTime(), Atime: m.Atime}
		switch e.Type {
		case "dir":
			f, err := fsys.Open(full)
			if err != nil {
				if p == "/" {
					return err
				}
				return nil
			}
			names, err := f.Readdirnames(-1)
			f.Close()
			if err != nil && p == "/" {
				return err
			}
			s.Entries = append(s.Entries, e)
			slices.Sort(names)
			for _, n := range names {
				if err := walk(path.Join(p, n)); err != nil {
					return err
				}
			}
			return nil
		case "symlink":
			e.Mode = 0
			if e.Target, err = fsys.ReadlinkIfPossible(full); err != nil || e.Target == "" || len(e.Target) > maxPathLen {
				return nil
			}
		case "file":
			if lim.MaxFileSize > 0 && fi.Size() > lim.MaxFileSize {
				return fmt.Errorf("%s: bigger than %d bytes", full, lim.MaxFileSize)
			}
			f, err := fsys.Open(full)
			if err != nil {
				return nil
			}
			e.Data, err = io.ReadAll(io.LimitReader(f, fi.Size()))
			f.Close()
			if err != nil {
				return nil
			}
			bytes += int64(len(e.Data))
			if lim.MaxBytes > 0 && bytes > lim.MaxBytes {
				return fmt.Errorf("%s: files hold more than %d bytes", dir, lim.MaxBytes)
			}
		default:
			return nil // devices, FIFOs, sockets: nothing a program could be given
		}
		s.Entries = append(s.Entries, e)
		return nil
	}
	if err := walk("/"); err != nil {
		return nil, err
	}
	return s, nil
}

// ApplyTree makes the tree of fsys below dir go from before to after (two
// snapshots of it, "/" being dir) and returns what changed: the files a
// jailed host program wrote, deleted, renamed (a delete and an add) and
// chmod-ed reach the sandbox through the filesystem's own operations, so
// its limits, permissions and observers apply. Entries the program left
// alone are not touched, so the script's own concurrent changes to them
// survive.
func ApplyTree(ctx context.Context, fsys FS, dir string, before, after *Snapshot) ([]Change, error) {
	dir = Clean("/", dir)
	if err := after.Check(SnapLimits{}); err != nil {
		return nil, err
	}
	old := make(map[string]*SnapEntry, len(before.Entries))
	for i := range before.Entries {
		old[before.Entries[i].Path] = &before.Entries[i]
	}
	now := make(map[string]*SnapEntry, len(after.Entries))
	for i := range after.Entries {
		now[after.Entries[i].Path] = &after.Entries[i]
	}
	var changes []Change
	var errs []error
	real := func(p string) string { return path.Join(dir, p) }
	// Deletions first, deepest first, so a path that changed type (a file
	// that became a directory) is free again.
	for i := len(before.Entries) - 1; i > 0; i-- {
		o := &before.Entries[i]
		if n := now[o.Path]; n != nil && n.Type == o.Type {
			continue
		}
		if err := ctx.Err(); err != nil {
			return changes, err
		}
		var err error
		if o.Type == "dir" {
			err = fsys.RemoveAll(real(o.Path))
		} else {
			err = fsys.Remove(real(o.Path))
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		if now[o.Path] == nil {
			changes = append(changes, Change{Path: real(o.Path), Change: "deleted"})
		}
	}
	type touched struct {
		e     *SnapEntry
		chmod bool
	}
	var later []touched
	for i := range after.Entries {
		if err := ctx.Err(); err != nil {
			return changes, err
		}
		n := &after.Entries[i]
		o := old[n.Path]
		p := real(n.Path)
		fresh := o == nil || o.Type != n.Type
		content := !fresh && (n.Type == "file" && string(o.Data) != string(n.Data) || n.Type == "symlink" && o.Target != n.Target)
		chmod := n.Type != "symlink" && (fresh || o.Mode != n.Mode)
		var err error
		switch {
		case n.Type == "dir" && fresh:
			err = fsys.Mkdir(p, 0o700)
		case n.Type == "file" && (fresh || content):
			err = afero.WriteFile(fsys, p, n.Data, 0o600)
		case n.Type == "symlink" && (fresh || content):
			if content {
				err = fsys.Remove(p)
			}
			if err == nil {
				err = fsys.SymlinkIfPossible(n.Target, p)
			}
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		switch {
		case fresh && n.Path != "/":
			changes = append(changes, Change{Path: p, Change: "added"})
		case !fresh && (content || chmod):
			changes = append(changes, Change{Path: p, Change: "modified"})
		}
		if fresh || content || chmod {
			later = append(later, touched{n, chmod})
		}
	}
	// Modes and times deepest first, so filling a directory does not move
	// its mtime afterwards and a read-only directory is filled before it
	// becomes read-only.
	for i := len(later) - 1; i >= 0; i-- {
		t := later[i]
		p := real(t.e.Path)
		if t.chmod {
			if err := fsys.Chmod(p, GoMode(t.e.Mode)); err != nil {
				errs = append(errs, err)
			}
		}
		if t.e.Type != "symlink" { // Chtimes would follow it
			fsys.Chtimes(p, t.e.Atime, t.e.Mtime)
		}
	}
	return changes, errors.Join(errs...)
}
