package vfs

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
)

// Manifest records what a tree holds, cheaply enough to take before and
// after a run: the type, permission word and content hash (or symlink
// target) of every path. Diff compares two of them.
type Manifest map[string]manifestEntry

type manifestEntry struct {
	typ    string
	mode   uint32
	sum    [sha256.Size]byte
	target string
}

// Change is one path a run added, modified or deleted.
type Change struct {
	Path   string `json:"path"`
	Change string `json:"change"` // "added", "modified" or "deleted"
}

// TakeManifest walks the tree of fsys below dir as root would see it (on
// a MemFS; another FS is walked as its own user). It reads every file,
// so it is bounded by maxFiles entries (0: no bound) and by ctx.
func TakeManifest(ctx context.Context, fsys FS, dir string, maxFiles int) (Manifest, error) {
	if m, ok := fsys.(*MemFS); ok {
		fsys = m.As(Cred{UID: 0, GID: 0, Umask: 0o022})
	}
	man := Manifest{}
	buf := make([]byte, 64<<10)
	var walk func(p string) error
	walk = func(p string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if maxFiles > 0 && len(man) > maxFiles {
			return fmt.Errorf("changes: more than %d files", maxFiles)
		}
		fi, err := Lstat(fsys, p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // gone while walking (a background job)
			}
			return fmt.Errorf("changes: %w", err)
		}
		e := manifestEntry{typ: TypeWord(fi), mode: UnixMode(fi.Mode())}
		switch e.typ {
		case "dir":
			man[p] = e
			f, err := fsys.Open(p)
			if err != nil {
				return nil // unreadable on a disk: its entries are not known
			}
			names, err := f.Readdirnames(-1)
			f.Close()
			if err != nil {
				return nil
			}
			slices.Sort(names)
			for _, n := range names {
				if err := walk(path.Join(p, n)); err != nil {
					return err
				}
			}
			return nil
		case "symlink":
			e.mode = 0
			e.target, _ = fsys.ReadlinkIfPossible(p)
		case "file":
			f, err := fsys.Open(p)
			if err == nil {
				h := sha256.New()
				io.CopyBuffer(h, f, buf)
				f.Close()
				copy(e.sum[:], h.Sum(nil))
			}
		}
		man[p] = e
		return nil
	}
	if err := walk(Clean("/", dir)); err != nil {
		return nil, err
	}
	return man, nil
}

// Diff lists what changed from before to after, sorted by path. A
// change of type, permissions, contents or symlink target is
// "modified"; times and owners are not compared.
func Diff(before, after Manifest) []Change {
	var out []Change
	for p, a := range after {
		b, ok := before[p]
		switch {
		case !ok:
			out = append(out, Change{p, "added"})
		case a != b:
			if a.typ == "dir" && b.typ == "dir" && a.mode == b.mode {
				continue
			}
			out = append(out, Change{p, "modified"})
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			out = append(out, Change{p, "deleted"})
		}
	}
	slices.SortFunc(out, func(x, y Change) int {
		if x.Path < y.Path {
			return -1
		}
		if x.Path > y.Path {
			return 1
		}
		return 0
	})
	return out
}
