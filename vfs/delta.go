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
	"strings"
	"syscall"
)

// Change tracking of the memory and overlay filesystems.
//
// A Mark is a point in a MemFS tree's history; ChangesSince(mk) returns
// a Delta holding what changed after it (the paths removed, and the
// paths added or modified with their contents), and ApplyDelta makes
// the same changes to another tree that was equal to this one at mk (a
// copy restored from a snapshot taken then, or a fresh overlay of the
// same base). A session checkpoint is then a snapshot plus the deltas
// after it, and an overlay's state is the delta since the overlay was
// set up.
//
// The cost of ChangesSince is in proportion to what changed, not to the
// tree: every inode carries the generation of its last change, every
// directory the newest generation below it, so the walk only enters
// directories where something changed (and lists only those: a change
// in a directory of n entries costs a look at n entries). Before the
// first Mark nothing is tracked and nothing costs anything; after it,
// each change costs a few stores, and each name bound or unbound in a
// directory is remembered (one map entry per distinct name) until Forget
// drops what no mark still needs.
//
// What a Delta records per path is its state now (type, permission word,
// owner, times, contents or link target), not the operations that led
// there: a file written ten times is in it once. Hard links are kept:
// the other names of a file that was newly linked are in the delta as
// links to the first.

// Mark is a point in a MemFS tree's change history (see Mark).
type Mark uint64

// Mark starts change tracking (if it was not on) and returns the current
// point: ChangesSince(mk) reports what changes after this call.
func (m *MemFS) Mark() Mark {
	t := m.t
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.gen == 0 {
		t.gen = 1
	}
	mk := t.gen
	t.gen++
	return Mark(mk)
}

// Forget drops the bookkeeping that only ChangesSince of a mark older
// than mk would need (the remembered names of removed files): call it
// with the oldest mark still in use, so that a long session that
// creates and removes many files does not grow. ChangesSince of a mark
// before mk is wrong afterwards.
func (m *MemFS) Forget(mk Mark) {
	t := m.t
	t.mu.Lock()
	defer t.mu.Unlock()
	keep := t.named[:0]
	for _, d := range t.named {
		for name, g := range d.names {
			if g <= uint64(mk) {
				delete(d.names, name)
			}
		}
		if len(d.names) > 0 {
			keep = append(keep, d)
		} else {
			d.names = nil
		}
	}
	clear(t.named[len(keep):])
	t.named = keep
}

// Delta is what changed in a tree after a Mark: first remove the Removed
// paths (with what is below them), then create or update the Entries in
// order (a directory before what it holds; hard links after the file
// they name). Entries are SnapEntry values as in a Snapshot, with two
// more flags: Replace (the name was bound anew, to another file: what
// the target holds at the path goes first) and Keep (a file whose
// contents did not change: only its metadata is set).
type Delta struct {
	Removed []string    `json:"removed,omitempty"`
	Entries []SnapEntry `json:"entries,omitempty"`
}

// Empty reports whether d changes nothing.
func (d *Delta) Empty() bool { return d == nil || len(d.Removed) == 0 && len(d.Entries) == 0 }

// Bytes returns the file contents d carries.
func (d *Delta) Bytes() int64 {
	var n int64
	for i := range d.Entries {
		n += int64(len(d.Entries[i].Data))
	}
	return n
}

// ChangesSince returns what changed in the tree of fsys (a *MemFS) after
// mk. It fails rather than return a delta bigger than lim (file
// contents, one file, entries).
func ChangesSince(ctx context.Context, fsys FS, mk Mark, lim SnapLimits) (*Delta, error) {
	m, ok := fsys.(*MemFS)
	if !ok {
		return nil, errors.New("changes: only the memory and overlay filesystems track changes")
	}
	t := m.t
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.gen == 0 || uint64(mk) == 0 || uint64(mk) >= t.gen {
		return nil, errors.New("changes: not a mark of this filesystem")
	}
	w := &deltaWalk{ctx: ctx, t: t, mk: uint64(mk), lim: lim, d: &Delta{}, seen: map[*inode]string{}}
	if t.root.subGen > w.mk {
		if err := w.dir("/", t.root); err != nil {
			return nil, err
		}
	}
	if err := w.links(); err != nil {
		return nil, err
	}
	return w.d, nil
}

type deltaWalk struct {
	ctx   context.Context
	t     *memTree
	mk    uint64
	lim   SnapLimits
	d     *Delta
	seen  map[*inode]string // regular files in the delta: their path
	multi []*inode          // files put in whole that have other names
	bytes int64
}

// dir adds what changed in directory d (at p) that existed at the mark.
func (w *deltaWalk) dir(p string, d *inode) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if d.gen > w.mk {
		if err := w.entry(p, d, false, false); err != nil {
			return err
		}
	}
	if d.lower != nil {
		return nil // the entries were never loaded, so none changed
	}
	mk := w.mk
	var changed []string
	for name, kid := range d.kids {
		if d.names[name] > mk || kid.gen > mk || kid.isDir() && kid.subGen > mk {
			changed = append(changed, name)
		}
	}
	var removed []string
	for name, g := range d.names {
		if g > mk && d.kids[name] == nil {
			removed = append(removed, name)
		}
	}
	slices.Sort(removed)
	for _, name := range removed {
		w.d.Removed = append(w.d.Removed, joinPath(p, name))
	}
	slices.Sort(changed)
	for _, name := range changed {
		kid, cp := d.kids[name], joinPath(p, name)
		var err error
		switch {
		case d.names[name] > mk:
			err = w.whole(cp, kid, true)
		case kid.isDir():
			err = w.dir(cp, kid)
		default:
			err = w.entry(cp, kid, false, kid.dgen <= mk)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// whole adds n (at p) and everything below it: a name bound after the
// mark.
func (w *deltaWalk) whole(p string, n *inode, replace bool) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if err := w.entry(p, n, replace, false); err != nil {
		return err
	}
	if !n.isDir() {
		if n.isRegular() && n.nlink > 1 && w.seen[n] == p {
			w.multi = append(w.multi, n)
		}
		return nil
	}
	kids, err := w.t.children(n)
	if err != nil {
		return fmt.Errorf("changes: %s: %w", p, err)
	}
	for _, name := range sortedNames(kids) {
		if err := w.whole(joinPath(p, name), kids[name], false); err != nil {
			return err
		}
	}
	return nil
}

// entry adds the state of n at p.
func (w *deltaWalk) entry(p string, n *inode, replace, keep bool) error {
	if w.lim.MaxFiles > 0 && len(w.d.Entries) > w.lim.MaxFiles {
		return fmt.Errorf("changes: more than %d files", w.lim.MaxFiles)
	}
	e := SnapEntry{Path: p, Mode: UnixMode(n.mode), UID: n.uid, GID: n.gid, Mtime: n.mtime, Atime: n.atime, Replace: replace}
	switch {
	case n.isDir():
		e.Type = "dir"
	case n.isSymlink():
		e.Type, e.Mode, e.Target = "symlink", 0, n.target
	case n.isRegular():
		if first, ok := w.seen[n]; ok {
			w.d.Entries = append(w.d.Entries, SnapEntry{Path: p, Type: "link", Target: first, Replace: true})
			return nil
		}
		w.seen[n] = p
		e.Type, e.Keep = "file", keep
		if !keep {
			if w.lim.MaxFileSize > 0 && n.size > w.lim.MaxFileSize {
				return fmt.Errorf("changes: %s: file bigger than %d bytes", p, w.lim.MaxFileSize)
			}
			w.bytes += n.size
			if w.lim.MaxBytes > 0 && w.bytes > w.lim.MaxBytes {
				return fmt.Errorf("changes: files hold more than %d bytes", w.lim.MaxBytes)
			}
			data, err := w.t.contents(n)
			if err != nil {
				return fmt.Errorf("changes: %s: %w", p, err)
			}
			e.Data = data
		}
	default:
		return nil // a host fifo or device shown by an overlay: never saved
	}
	w.d.Entries = append(w.d.Entries, e)
	return nil
}

// links adds the other names of the files put in whole that have
// several, as links to the name in the delta, so that a copy keeps
// them one file.
func (w *deltaWalk) links() error {
	if len(w.multi) == 0 {
		return nil
	}
	have := make(map[string]bool, len(w.d.Entries))
	for i := range w.d.Entries {
		have[w.d.Entries[i].Path] = true
	}
	for _, n := range w.multi {
		for _, p := range w.t.pathsOf(n) {
			if have[p] {
				continue
			}
			have[p] = true
			w.d.Entries = append(w.d.Entries, SnapEntry{Path: p, Type: "link", Target: w.seen[n], Replace: true})
			// Linking the name again changes its directory's times on
			// the copy: they are set back after.
			if dp := path.Dir(p); !have[dp] {
				have[dp] = true
				if d, ok := w.t.dirAt(dp); ok {
					if err := w.entry(dp, d, false, false); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// contents returns the bytes of regular file n, from the overlay base
// while they still live there.
func (t *memTree) contents(n *inode) ([]byte, error) {
	if n.lower == nil {
		return n.data.bytes(n.size), nil
	}
	f, err := t.lower.open(n.lower.rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data := make([]byte, n.size)
	k, err := io.ReadFull(f, data)
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil, hostErrno(err)
	}
	return data[:k], nil // a base file that shrank reads short, as in a read
}

// pathsOf returns every path of non-directory n, sorted.
func (t *memTree) pathsOf(n *inode) []string {
	var out []string
	for i, d := range n.dirs {
		if slices.Index(n.dirs, d) < i {
			continue
		}
		dp, ok := t.dirPath(d)
		if !ok {
			continue
		}
		for name, k := range d.kids {
			if k == n {
				out = append(out, joinPath(dp, name))
			}
		}
	}
	slices.Sort(out)
	return out
}

// dirAt returns the directory at clean path p, following no symlink.
func (t *memTree) dirAt(p string) (*inode, bool) {
	d := t.root
	for _, c := range splitPath(p) {
		if d.lower != nil {
			return nil, false
		}
		d = d.kids[c]
		if d == nil || !d.isDir() {
			return nil, false
		}
	}
	return d, true
}

// dirPath returns the path of directory d, false if it was removed.
func (t *memTree) dirPath(d *inode) (string, bool) {
	var comps []string
	for d != t.root {
		if d.nlink == 0 || d.parent == nil {
			return "", false
		}
		name := ""
		for k, v := range d.parent.kids {
			if v == d {
				name = k
				break
			}
		}
		if name == "" {
			return "", false
		}
		comps = append(comps, name)
		d = d.parent
	}
	slices.Reverse(comps)
	return "/" + strings.Join(comps, "/"), true
}

// touch records a change of n's metadata (or, for a directory, of its
// entries).
func (t *memTree) touch(n *inode) {
	if t.gen == 0 {
		return
	}
	n.gen = t.gen
	if n.isDir() {
		t.dirty(n)
		return
	}
	for _, d := range n.dirs {
		t.dirty(d)
	}
}

// touchData records a change of regular file n's contents.
func (t *memTree) touchData(n *inode) {
	if t.gen == 0 {
		return
	}
	n.dgen = t.gen
	t.touch(n)
}

// bound records that name in directory d was bound or unbound.
func (t *memTree) bound(d *inode, name string) {
	if t.gen == 0 {
		return
	}
	if d.names == nil {
		d.names = map[string]uint64{}
		t.named = append(t.named, d)
	}
	d.names[name] = t.gen
	d.gen = t.gen
	t.dirty(d)
}

// dirty flags d and the directories above it as holding a change.
func (t *memTree) dirty(d *inode) {
	for g := t.gen; d != nil && d.subGen < g; d = d.parent {
		d.subGen = g
		if d == t.root {
			break
		}
	}
}

// dropDir removes one occurrence of d from dirs.
func dropDir(dirs []*inode, d *inode) []*inode {
	if i := slices.Index(dirs, d); i >= 0 {
		dirs = slices.Delete(dirs, i, i+1)
	}
	return dirs
}

// Check validates a delta that came from outside (a state file) against
// lim: clean absolute paths, each once, known types, hard links to
// earlier files, sizes within the limits. ApplyDelta runs it first.
func (d *Delta) Check(lim SnapLimits) error {
	if d == nil {
		return nil
	}
	if lim.MaxFiles > 0 && (len(d.Entries) > lim.MaxFiles+1 || len(d.Removed) > lim.MaxFiles*4+1000) {
		return fmt.Errorf("changes: more than %d files", lim.MaxFiles)
	}
	bad := func(p string) bool {
		return len(p) > maxPathLen || !strings.HasPrefix(p, "/") || path.Clean(p) != p || strings.ContainsRune(p, 0)
	}
	removed := make(map[string]bool, len(d.Removed))
	for _, p := range d.Removed {
		if bad(p) || p == "/" || removed[p] {
			return fmt.Errorf("changes: bad removed path %q", p)
		}
		removed[p] = true
	}
	types := make(map[string]string, len(d.Entries))
	var bytes int64
	for i := range d.Entries {
		e := &d.Entries[i]
		n, err := checkEntry("changes", e, types, lim)
		if err != nil {
			return err
		}
		if e.Path == "/" && (e.Type != "dir" || e.Replace) {
			return errors.New("changes: the root must stay a directory")
		}
		if t, ok := types[path.Dir(e.Path)]; ok && t != "dir" {
			return fmt.Errorf("changes: %s: parent is not a directory", e.Path)
		}
		if e.Keep && (e.Type != "file" || len(e.Data) > 0 || e.Replace) {
			return fmt.Errorf("changes: %s: keep on a %s with data", e.Path, e.Type)
		}
		types[e.Path] = e.Type
		bytes += n
	}
	if lim.MaxBytes > 0 && bytes > lim.MaxBytes {
		return fmt.Errorf("changes: files hold more than %d bytes", lim.MaxBytes)
	}
	return nil
}

// ApplyDelta makes the changes of d to the tree of fsys (a *MemFS),
// which should be what the delta's tree was at its mark. d is checked
// against lim first; the filesystem's own limits apply as well. On an
// error the tree is left partly changed: a caller that must not
// half-apply a delta applies it to a fresh filesystem and drops that on
// failure.
func ApplyDelta(ctx context.Context, fsys FS, d *Delta, lim SnapLimits) error {
	if err := d.Check(lim); err != nil {
		return err
	}
	if d.Empty() {
		return nil
	}
	m, ok := fsys.(*MemFS)
	if !ok {
		return errors.New("changes: only the memory and overlay filesystems take changes")
	}
	root := m.As(Cred{UID: 0, GID: 0, Umask: 0})
	for _, p := range d.Removed {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := root.RemoveAll(p); err != nil {
			return fmt.Errorf("changes: %w", err)
		}
	}
	for i := range d.Entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		e := &d.Entries[i]
		if e.Replace {
			if err := root.RemoveAll(e.Path); err != nil {
				return fmt.Errorf("changes: %w", err)
			}
		} else if fi, err := Lstat(root, e.Path); err == nil && TypeWord(fi) != e.Type && !(e.Type == "link" && fi.Mode().IsRegular()) {
			if err := root.RemoveAll(e.Path); err != nil {
				return fmt.Errorf("changes: %w", err)
			}
		}
		if err := applyEntry(root, e); err != nil {
			return fmt.Errorf("changes: %w", err)
		}
	}
	return setModesTimes(root, d.Entries, func(p string) string { return p })
}

// applyEntry creates or rewrites the path of one delta entry.
func applyEntry(root *MemFS, e *SnapEntry) error {
	switch {
	case e.Type == "file" && e.Keep:
		fi, err := Lstat(root, e.Path)
		if err != nil {
			return err
		}
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("%s: not a regular file", e.Path)
		}
		return root.lchown(e.Path, e.UID, e.GID)
	case e.Type == "file":
		if err := writeWhole(root, e.Path, e.Data, oNoFollow); err != nil {
			return err
		}
		return root.lchown(e.Path, e.UID, e.GID)
	}
	return restoreEntry(root, e)
}

// BaseStamp is what an overlay's host base held at one sandbox path
// when a delta over it was taken (BaseStamps), so that the delta is not
// applied over a base that changed under it (CheckBase). Type is "dir",
// "file", "symlink", "other" or "" (no such path in the base); Size and
// Sum (SHA-256) describe a file, Target a symlink.
type BaseStamp struct {
	Path   string
	Type   string
	Size   int64
	Sum    [32]byte
	Target string
}

// baseRel returns the path in the overlay base that sandbox path p
// shows, false when p is not inside the base's mount point.
func (l *lowerLayer) baseRel(p string) (string, bool) {
	if p == l.mount {
		return ".", true
	}
	prefix := l.mount + "/"
	if l.mount == "/" {
		prefix = "/"
	}
	if !strings.HasPrefix(p, prefix) {
		return "", false
	}
	return p[len(prefix):], true
}

// stamp describes what the base holds at rel.
func (l *lowerLayer) stamp(p, rel string) (BaseStamp, error) {
	st := BaseStamp{Path: p}
	fi, err := l.root.Lstat(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return st, nil
	case err != nil:
		return st, fmt.Errorf("base: %s: %w", p, hostErrno(err))
	}
	switch typ := fi.Mode().Type(); {
	case typ == fs.ModeDir:
		st.Type = "dir"
	case typ == fs.ModeSymlink:
		st.Type = "symlink"
		if st.Target, err = l.root.Readlink(rel); err != nil {
			return st, fmt.Errorf("base: %s: %w", p, hostErrno(err))
		}
	case typ == 0:
		st.Type = "file"
		f, err := l.open(rel)
		if err != nil {
			return st, fmt.Errorf("base: %s: %w", p, err)
		}
		defer f.Close()
		h := sha256.New()
		n, err := io.Copy(h, f)
		if err != nil {
			return st, fmt.Errorf("base: %s: %w", p, hostErrno(err))
		}
		st.Size = n
		h.Sum(st.Sum[:0])
	default:
		st.Type = "other"
	}
	return st, nil
}

// BaseStamps returns what the base of overlay fsys holds at every path
// d touches inside the base's mount point (nothing for a memory
// filesystem), for CheckBase when d is applied again. A removed path
// the base does not hold (a file made and removed again) is dropped
// from d: removing it changes nothing.
func BaseStamps(ctx context.Context, fsys FS, d *Delta) ([]BaseStamp, error) {
	m, ok := fsys.(*MemFS)
	if !ok || m.t.lower == nil || d == nil {
		return nil, nil
	}
	l := m.t.lower
	var out []BaseStamp
	seen := map[string]bool{}
	add := func(p string) (bool, error) {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		rel, ok := l.baseRel(p)
		if !ok {
			return true, nil
		}
		st, err := l.stamp(p, rel)
		if err != nil {
			return false, err
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, st)
		}
		return st.Type != "", nil
	}
	kept := d.Removed[:0]
	for _, p := range d.Removed {
		inBase, err := add(p)
		if err != nil {
			return nil, err
		}
		if inBase {
			kept = append(kept, p)
		} else {
			out = out[:len(out)-1]
		}
	}
	d.Removed = kept
	for i := range d.Entries {
		if _, err := add(d.Entries[i].Path); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// CheckBase fails, naming the first path, if the base of overlay fsys no
// longer holds what stamps say it held: a delta taken over the old base
// must not be applied over the new one.
func CheckBase(ctx context.Context, fsys FS, stamps []BaseStamp) error {
	if len(stamps) == 0 {
		return nil
	}
	m, ok := fsys.(*MemFS)
	if !ok || m.t.lower == nil {
		return errors.New("the state was saved on an overlay: it needs --fs overlay with its base")
	}
	l := m.t.lower
	for _, want := range stamps {
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, ok := l.baseRel(want.Path)
		if !ok {
			return fmt.Errorf("base: %s is not inside the base's mount point %s", want.Path, l.mount)
		}
		got, err := l.stamp(want.Path, rel)
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("the base changed under the saved changes: %s (%s)", want.Path, stampText(want, got))
		}
	}
	return nil
}

func stampText(was, now BaseStamp) string {
	name := func(s BaseStamp) string {
		if s.Type == "" {
			return "absent"
		}
		if s.Type == "file" {
			return fmt.Sprintf("a file of %d bytes", s.Size)
		}
		return "a " + s.Type
	}
	if name(was) == name(now) {
		return "was " + name(was) + ", now another " + strings.TrimPrefix(name(now), "a ")
	}
	return "was " + name(was) + ", now " + name(now)
}
