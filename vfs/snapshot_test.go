package vfs

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// snapFixture builds a tree with every kind of entry a snapshot holds.
func snapFixture(t *testing.T, opts ...MemOption) *MemFS {
	t.Helper()
	m := NewMem(opts...)
	if err := Populate(m, WorkDir); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, m, "/workspace/a/f.txt", "hello\n")
	mustWrite(t, m, "/workspace/a/bin.dat", "\x00\xff\x01")
	must(t, m.Chmod("/workspace/a/f.txt", 0o640))
	must(t, m.SymlinkIfPossible("../a/f.txt", "/workspace/rel"))
	must(t, m.SymlinkIfPossible("/nowhere", "/workspace/dangling"))
	must(t, m.LinkIfPossible("/workspace/a/f.txt", "/workspace/hard"))
	must(t, m.Mkdir("/workspace/locked", 0o500))
	mustWrite(t, m, "/tmp/big", strings.Repeat("x", 3<<20)) // more than one chunk
	when := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	must(t, m.Chtimes("/workspace/a/f.txt", when, when))
	must(t, m.Chtimes("/workspace/a", when, when))
	must(t, m.LchtimesIfPossible("/workspace/rel", when, when))
	return m
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	ctx := context.Background()
	src := snapFixture(t)
	snap, err := TakeSnapshot(ctx, src, SnapLimits{})
	must(t, err)
	data, err := json.Marshal(snap)
	must(t, err)
	var back Snapshot
	must(t, json.Unmarshal(data, &back))
	dst := NewMem()
	must(t, Restore(ctx, dst, &back, SnapLimits{}))
	again, err := TakeSnapshot(ctx, dst, SnapLimits{})
	must(t, err)
	if !reflect.DeepEqual(normTimes(snap), normTimes(again)) {
		t.Errorf("restored tree differs:\n%+v\n%+v", brief(snap), brief(again))
	}
	fi, err := dst.Stat("/workspace/hard")
	must(t, err)
	if MetaOf(fi).Nlink != 2 {
		t.Errorf("hard link lost: nlink %d", MetaOf(fi).Nlink)
	}
	fi, err = Lstat(dst, "/workspace/a/f.txt")
	must(t, err)
	if fi.Mode().Perm() != 0o640 || !fi.ModTime().Equal(time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)) {
		t.Errorf("mode/time lost: %v %v", fi.Mode(), fi.ModTime())
	}
	fi, err = Lstat(dst, "/workspace/rel")
	must(t, err)
	if MetaOf(fi).UID != DefaultUID {
		t.Errorf("symlink owner: %d", MetaOf(fi).UID)
	}
	// Restoring onto a tree that has more removes the extra entries.
	mustWrite(t, dst, "/workspace/extra/x", "x")
	must(t, Restore(ctx, dst, &back, SnapLimits{}))
	if _, err := dst.Stat("/workspace/extra"); err == nil {
		t.Error("extra entry survived a restore")
	}
}

func normTimes(s *Snapshot) []SnapEntry {
	out := make([]SnapEntry, len(s.Entries))
	for i, e := range s.Entries {
		e.Mtime, e.Atime = e.Mtime.UTC(), e.Atime.UTC()
		if e.Type == "dir" || e.Type == "symlink" && !e.Mtime.Equal(time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)) {
			e.Atime = time.Time{} // reading a directory updates its atime
		}
		out[i] = e
	}
	return out
}

func brief(s *Snapshot) []string {
	var out []string
	for _, e := range s.Entries {
		out = append(out, e.Path+":"+e.Type)
	}
	return out
}

func TestSnapshotLimits(t *testing.T) {
	ctx := context.Background()
	src := snapFixture(t)
	if _, err := TakeSnapshot(ctx, src, SnapLimits{MaxBytes: 1 << 20}); err == nil {
		t.Error("snapshot over MaxBytes")
	}
	// MaxFiles leaves room for the standard tree, which it does not
	// count: a snapshot is refused past that.
	if _, err := TakeSnapshot(ctx, src, SnapLimits{MaxFiles: 5}); err != nil {
		t.Errorf("snapshot within MaxFiles and the standard tree's room: %v", err)
	}
	many := NewMem()
	for i := range 5 + cwdRoom + 1 {
		writeFile(t, many, fmt.Sprintf("/f%d", i), "")
	}
	if _, err := TakeSnapshot(ctx, many, SnapLimits{MaxFiles: 5}); err == nil {
		t.Error("snapshot over MaxFiles")
	}
	if _, err := TakeSnapshot(ctx, src, SnapLimits{MaxFileSize: 1 << 20}); err == nil {
		t.Error("snapshot over MaxFileSize")
	}
	snap, err := TakeSnapshot(ctx, src, SnapLimits{})
	must(t, err)
	if err := Restore(ctx, NewMem(), snap, SnapLimits{MaxBytes: 1 << 20}); err == nil {
		t.Error("restore over MaxBytes")
	}
	if _, err := TakeSnapshot(ctx, NewDiskT(t), SnapLimits{}); err == nil {
		t.Error("snapshot of a disk filesystem")
	}
}

func NewDiskT(t *testing.T) FS {
	d, err := NewDisk(t.TempDir())
	must(t, err)
	return d
}

func TestSnapshotCheck(t *testing.T) {
	root := SnapEntry{Path: "/", Type: "dir", Mode: 0o755}
	cases := map[string][]SnapEntry{
		"no root":        {{Path: "/a", Type: "dir"}},
		"relative":       {root, {Path: "a", Type: "dir"}},
		"dot-dot":        {root, {Path: "/a/../b", Type: "dir"}},
		"orphan":         {root, {Path: "/a/b", Type: "file"}},
		"parent is file": {root, {Path: "/a", Type: "file"}, {Path: "/a/b", Type: "file"}},
		"twice":          {root, {Path: "/a", Type: "dir"}, {Path: "/a", Type: "dir"}},
		"bad type":       {root, {Path: "/a", Type: "fifo"}},
		"bad mode":       {root, {Path: "/a", Type: "dir", Mode: 0o10000}},
		"link forward":   {root, {Path: "/a", Type: "link", Target: "/b"}, {Path: "/b", Type: "file"}},
		"link to dir":    {root, {Path: "/a", Type: "dir"}, {Path: "/b", Type: "link", Target: "/a"}},
		"data on dir":    {root, {Path: "/a", Type: "dir", Data: []byte("x")}},
		"empty symlink":  {root, {Path: "/a", Type: "symlink"}},
		"negative uid":   {root, {Path: "/a", Type: "dir", UID: -1}},
	}
	for name, entries := range cases {
		if err := (&Snapshot{Entries: entries}).Check(SnapLimits{}); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestSnapshotOverlay snapshots what an overlay shows and restores it
// onto a fresh overlay of the same base, hiding what was deleted.
func TestSnapshotOverlay(t *testing.T) {
	ctx := context.Background()
	base := t.TempDir()
	must(t, os.WriteFile(filepath.Join(base, "keep"), []byte("k"), 0o644))
	must(t, os.WriteFile(filepath.Join(base, "gone"), []byte("g"), 0o644))
	ov, err := NewOverlay(base, WorkDir)
	must(t, err)
	defer ov.(*MemFS).Close()
	must(t, ov.Remove("/workspace/gone"))
	mustWrite(t, ov, "/workspace/new", "n")
	snap, err := TakeSnapshot(ctx, ov, SnapLimits{})
	must(t, err)
	ov2, err := NewOverlay(base, WorkDir)
	must(t, err)
	defer ov2.(*MemFS).Close()
	must(t, Restore(ctx, ov2, snap, SnapLimits{}))
	if _, err := ov2.Stat("/workspace/gone"); err == nil {
		t.Error("deleted base file shows again")
	}
	for _, p := range []string{"/workspace/keep", "/workspace/new"} {
		if _, err := ov2.Stat(p); err != nil {
			t.Error(err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(base, "gone")); string(b) != "g" {
		t.Error("base changed")
	}
}
