package vfs

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand"
	"os"

	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// deltaOps makes random changes of every kind to fsys (a root view):
// files written, appended, truncated, removed and renamed, directories
// made, renamed and removed whole, symlinks, hard links, chmod, times.
func deltaOps(t *testing.T, fsys *MemFS, rng *rand.Rand, n int) {
	t.Helper()
	var paths []string
	collect := func() {
		paths = paths[:0]
		var walk func(p string)
		walk = func(p string) {
			paths = append(paths, p)
			fi, err := Lstat(fsys, p)
			if err != nil || !fi.IsDir() {
				return
			}
			f, err := fsys.Open(p)
			if err != nil {
				return
			}
			names, _ := f.Readdirnames(-1)
			f.Close()
			for _, name := range names {
				walk(joinPath(p, name))
			}
		}
		walk("/")
	}
	dirOf := func() string {
		for {
			p := paths[rng.Intn(len(paths))]
			if fi, err := Lstat(fsys, p); err == nil && fi.IsDir() {
				return p
			}
		}
	}
	name := func() string { return fmt.Sprintf("n%d", rng.Intn(12)) }
	when := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		collect()
		p := paths[rng.Intn(len(paths))]
		q := joinPath(dirOf(), name())
		switch rng.Intn(12) {
		case 0, 1:
			f, err := fsys.OpenFile(q, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
			if err == nil {
				f.Write([]byte(strings.Repeat(q, rng.Intn(50))))
				f.Close()
			}
		case 2:
			f, err := fsys.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
			if err == nil {
				f.Write([]byte("more"))
				f.Close()
			}
		case 3:
			fsys.Mkdir(q, 0o755)
		case 4:
			if p != "/" {
				fsys.Remove(p)
			}
		case 5:
			if p != "/" {
				fsys.RemoveAll(p)
			}
		case 6:
			if p != "/" {
				fsys.Rename(p, q)
			}
		case 7:
			fsys.SymlinkIfPossible("../"+name(), q)
		case 8:
			fsys.LinkIfPossible(p, q)
		case 9:
			fsys.Chmod(p, fs.FileMode(rng.Intn(0o777)))
		case 10:
			fsys.Chtimes(p, when.Add(time.Duration(i)*time.Second), when.Add(time.Duration(i)*time.Minute))
		case 11:
			if f, err := fsys.OpenFile(p, os.O_WRONLY, 0); err == nil {
				// A write through a handle opened before a rename.
				fsys.Rename(p, q)
				f.WriteAt([]byte("xy"), 1)
				f.Close()
			}
		}
	}
}

func snapOf(t *testing.T, fsys FS) *Snapshot {
	t.Helper()
	s, err := TakeSnapshot(context.Background(), fsys, SnapLimits{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func sameSnap(t *testing.T, what string, a, b *Snapshot) {
	t.Helper()
	if reflect.DeepEqual(a, b) {
		return
	}
	am := map[string]SnapEntry{}
	for _, e := range a.Entries {
		am[e.Path] = e
	}
	for _, e := range b.Entries {
		if x, ok := am[e.Path]; !ok {
			t.Errorf("%s: %s only in the copy", what, e.Path)
		} else if !reflect.DeepEqual(x, e) {
			t.Errorf("%s: %s differs:\n  %+v\n  %+v", what, e.Path, x, e)
		}
		delete(am, e.Path)
	}
	for p := range am {
		t.Errorf("%s: %s missing from the copy", what, p)
	}
	if !t.Failed() {
		t.Errorf("%s: snapshots differ in order", what)
	}
}

// TestDeltaRandom is the contract: a copy equal to the tree at a mark,
// given ChangesSince(mark), is equal to the tree again, round after
// round, whatever the changes were.
func TestDeltaRandom(t *testing.T) {
	ctx := context.Background()
	for seed := int64(1); seed <= 60; seed++ {
		rng := rand.New(rand.NewSource(seed))
		clock := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
		now := func() time.Time { clock = clock.Add(time.Second); return clock }
		src := NewMem(WithClock(now)).As(Cred{})
		deltaOps(t, src, rng, 30) // before any mark: not tracked
		cp := NewMem(WithClock(now))
		if err := Restore(ctx, cp, snapOf(t, src), SnapLimits{}); err != nil {
			t.Fatal(err)
		}
		for round := 0; round < 4; round++ {
			mk := src.Mark()
			if round == 2 {
				src.Forget(mk)
			}
			deltaOps(t, src, rng, 25)
			d, err := ChangesSince(ctx, src, mk, SnapLimits{})
			if err != nil {
				t.Fatal(err)
			}
			if err := ApplyDelta(ctx, cp, d, SnapLimits{}); err != nil {
				t.Fatalf("seed %d round %d: %v\n%+v", seed, round, err, d)
			}
			sameSnap(t, fmt.Sprintf("seed %d round %d", seed, round), snapOf(t, src), snapOf(t, cp))
			if t.Failed() {
				t.Fatalf("delta: %+v", d)
			}
		}
	}
}

// TestDeltaInProportion: a change in a big tree gives a delta of that
// change, and ChangesSince does not look into directories where nothing
// changed.
func TestDeltaInProportion(t *testing.T) {
	ctx := context.Background()
	m := NewMem()
	for i := 0; i < 200; i++ {
		d := fmt.Sprintf("/d%d", i)
		m.Mkdir(d, 0o755)
		for j := 0; j < 20; j++ {
			writeFile(t, m, fmt.Sprintf("%s/f%d", d, j), strings.Repeat("x", 1000))
		}
	}
	mk := m.Mark()
	d, err := ChangesSince(ctx, m, mk, SnapLimits{})
	if err != nil || !d.Empty() {
		t.Fatalf("nothing changed: %+v, %v", d, err)
	}
	writeFile(t, m, "/d7/f3", "new")
	if err := m.Remove("/d9/f1"); err != nil {
		t.Fatal(err)
	}
	d, err = ChangesSince(ctx, m, mk, SnapLimits{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range d.Entries {
		got = append(got, e.Path)
	}
	if want := []string{"/d7/f3", "/d9"}; !reflect.DeepEqual(got, want) || !reflect.DeepEqual(d.Removed, []string{"/d9/f1"}) {
		t.Errorf("entries %v (want %v), removed %v", got, want, d.Removed)
	}
	if d.Bytes() != 3 {
		t.Errorf("delta carries %d bytes, want 3", d.Bytes())
	}
	// Only the root and the two changed directories were entered.
	n := 0
	m.t.mu.Lock()
	for _, kid := range m.t.root.kids {
		if kid.subGen > uint64(mk) {
			n++
		}
	}
	m.t.mu.Unlock()
	if n != 2 {
		t.Errorf("%d directories flagged, want 2", n)
	}
}

// TestDeltaKeep: a chmod of a big file carries no contents.
func TestDeltaKeep(t *testing.T) {
	ctx := context.Background()
	m := NewMem()
	writeFile(t, m, "/big", strings.Repeat("y", 1<<20))
	cp := NewMem()
	Restore(ctx, cp, snapOf(t, m), SnapLimits{})
	mk := m.Mark()
	if err := m.Chmod("/big", 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := ChangesSince(ctx, m, mk, SnapLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Bytes() != 0 || len(d.Entries) != 1 || !d.Entries[0].Keep {
		t.Fatalf("delta %+v", d)
	}
	if err := ApplyDelta(ctx, cp, d, SnapLimits{}); err != nil {
		t.Fatal(err)
	}
	sameSnap(t, "chmod", snapOf(t, m), snapOf(t, cp))
}

// TestDeltaOverlay: on an overlay the delta holds the changes, never
// the base, and a fresh overlay of the same base takes it.
func TestDeltaOverlay(t *testing.T) {
	ctx := context.Background()
	base := t.TempDir()
	for i := 0; i < 50; i++ {
		os.WriteFile(filepath.Join(base, fmt.Sprintf("f%d", i)), []byte(strings.Repeat("b", 10000)), 0o644)
	}
	os.Mkdir(filepath.Join(base, "sub"), 0o755)
	os.WriteFile(filepath.Join(base, "sub", "g"), []byte("g"), 0o644)
	mk1 := func() *MemFS {
		fsys, err := NewOverlay(base, "/w", WithClock(func() time.Time { return time.Unix(1e9, 0) }))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { fsys.(*MemFS).Close() })
		return fsys.(*MemFS)
	}
	a, b := mk1(), mk1()
	mk := a.Mark()
	root := a.As(Cred{})
	writeFile(t, root, "/w/new", "x\n")
	root.Remove("/w/f3")
	root.RemoveAll("/w/sub")
	root.Mkdir("/w/sub", 0o700) // opaque: the base's sub/g stays hidden
	root.Rename("/w/f4", "/w/f4.moved")
	d, err := ChangesSince(ctx, a, mk, SnapLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Bytes() != 2+10000 { // new, and f4 under its new name
		t.Errorf("delta carries %d bytes", d.Bytes())
	}
	if err := ApplyDelta(ctx, b, d, SnapLimits{}); err != nil {
		t.Fatal(err)
	}
	sameSnap(t, "overlay", snapOf(t, a), snapOf(t, b))
	if _, err := b.Stat("/w/sub/g"); err == nil {
		t.Error("the recreated directory shows the base's entry")
	}
}

// TestDeltaCheck: a delta from outside is refused whole when it is
// malformed or over the limits.
func TestDeltaCheck(t *testing.T) {
	cases := map[string]*Delta{
		"relative":     {Removed: []string{"a"}},
		"root removed": {Removed: []string{"/"}},
		"unclean":      {Entries: []SnapEntry{{Path: "/a/../b", Type: "dir"}}},
		"twice":        {Entries: []SnapEntry{{Path: "/a", Type: "dir"}, {Path: "/a", Type: "dir"}}},
		"bad type":     {Entries: []SnapEntry{{Path: "/a", Type: "fifo"}}},
		"bad mode":     {Entries: []SnapEntry{{Path: "/a", Type: "dir", Mode: 0o17777}}},
		"dangling":     {Entries: []SnapEntry{{Path: "/a", Type: "link", Target: "/b"}}},
		"keep data":    {Entries: []SnapEntry{{Path: "/a", Type: "file", Keep: true, Data: []byte("x")}}},
		"root file":    {Entries: []SnapEntry{{Path: "/", Type: "file"}}},
		"under file":   {Entries: []SnapEntry{{Path: "/a", Type: "file"}, {Path: "/a/b", Type: "dir"}}},
		"too big":      {Entries: []SnapEntry{{Path: "/a", Type: "file", Data: make([]byte, 11)}}},
	}
	for name, d := range cases {
		if err := ApplyDelta(context.Background(), NewMem(), d, SnapLimits{MaxFileSize: 10}); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func writeFile(t *testing.T, fsys FS, name, data string) {
	t.Helper()
	f, err := fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte(data))
	f.Close()
}
