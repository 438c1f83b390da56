package worker

import (
	"bytes"
	"errors"
	"io"
	"path"
	"sort"

	"github.com/sandsh/sandsh/vfs"
)

// changesOf lists what a call changed, from the call's delta and the
// session's copy of the tree as it was before the call: in proportion to
// the change, where vfs.TakeManifest would read the whole tree twice. The
// rules are vfs.Diff's: a change of type, permissions, contents or
// symlink target is "modified"; times and owners are not compared.
func changesOf(copyFS *vfs.MemFS, d *vfs.Delta) []vfs.Change {
	out := []vfs.Change{}
	if d == nil {
		return out
	}
	root := copyFS.As(vfs.Cred{Umask: 0o022})
	written := map[string]bool{}
	for i := range d.Entries {
		e := &d.Entries[i]
		written[e.Path] = true
		if c := entryChange(root, e); c != "" {
			out = append(out, vfs.Change{Path: e.Path, Change: c})
		}
	}
	for _, r := range d.Removed {
		walkCopy(root, r, func(p string) {
			if !written[p] {
				out = append(out, vfs.Change{Path: p, Change: "deleted"})
			}
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// entryChange says how the path of e changed: "added", "modified" or
// "" (the same as before the call).
func entryChange(root *vfs.MemFS, e *vfs.SnapEntry) string {
	fi, err := vfs.Lstat(root, e.Path)
	if err != nil {
		return "added"
	}
	typ := vfs.TypeWord(fi)
	if typ != e.Type {
		return "modified"
	}
	switch typ {
	case "symlink":
		if t, _ := root.ReadlinkIfPossible(e.Path); t != e.Target {
			return "modified"
		}
		return ""
	case "file":
		if vfs.UnixMode(fi.Mode()) != e.Mode {
			return "modified"
		}
		if e.Keep {
			return ""
		}
		if int64(len(e.Data)) != fi.Size() {
			return "modified"
		}
		f, err := root.Open(e.Path)
		if err != nil {
			return "modified"
		}
		defer f.Close()
		old, err := io.ReadAll(io.LimitReader(f, int64(len(e.Data))+1))
		if err != nil || !bytes.Equal(old, e.Data) {
			return "modified"
		}
		return ""
	}
	if vfs.UnixMode(fi.Mode()) != e.Mode {
		return "modified"
	}
	return ""
}

// walkCopy calls fn for p and everything below it in the copy.
func walkCopy(root *vfs.MemFS, p string, fn func(string)) {
	fi, err := vfs.Lstat(root, p)
	if err != nil {
		return
	}
	fn(p)
	if !fi.IsDir() {
		return
	}
	f, err := root.Open(p)
	if err != nil {
		return
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil && !errors.Is(err, io.EOF) {
		return
	}
	for _, n := range names {
		walkCopy(root, path.Join(p, n), fn)
	}
}
