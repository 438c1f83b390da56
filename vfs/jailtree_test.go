package vfs

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/spf13/afero"
)

// TestApplyTree: what a jailed program wrote, deleted, renamed, chmod-ed
// and turned into another type reaches the filesystem, and nothing else
// is touched.
func TestApplyTree(t *testing.T) {
	ctx := context.Background()
	m := NewMem()
	for _, d := range []string{"/w", "/w/dir", "/w/gone"} {
		if err := m.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, data string) {
		t.Helper()
		if err := afero.WriteFile(m, p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("/w/keep.txt", "keep")
	write("/w/edit.txt", "old")
	write("/w/mode.txt", "mode")
	write("/w/old-name.txt", "moved")
	write("/w/gone/f", "x")
	write("/w/was-file", "file")
	if err := m.SymlinkIfPossible("keep.txt", "/w/link"); err != nil {
		t.Fatal(err)
	}
	write("/outside.txt", "out")
	before, err := ReadTree(ctx, m, "/w", SnapLimits{})
	if err != nil {
		t.Fatal(err)
	}
	after := &Snapshot{}
	for _, e := range before.Entries {
		switch e.Path {
		case "/gone", "/gone/f", "/old-name.txt", "/was-file":
			continue
		case "/edit.txt":
			e.Data = []byte("new")
		case "/mode.txt":
			e.Mode = 0o640
		case "/link":
			e.Target = "edit.txt"
		}
		after.Entries = append(after.Entries, e)
	}
	after.Entries = append(after.Entries,
		SnapEntry{Path: "/new-name.txt", Type: "file", Mode: 0o644, Data: []byte("moved")},
		SnapEntry{Path: "/was-file", Type: "dir", Mode: 0o700},
		SnapEntry{Path: "/was-file/in", Type: "file", Mode: 0o644, Data: []byte("in")},
		SnapEntry{Path: "/dir/exe", Type: "file", Mode: 0o755, Data: []byte("#!/bin/sh\n")})
	changes, err := ApplyTree(ctx, m, "/w", before, after)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range changes {
		got[c.Path] = c.Change
	}
	want := map[string]string{"/w/gone": "deleted", "/w/gone/f": "deleted", "/w/old-name.txt": "deleted",
		"/w/edit.txt": "modified", "/w/mode.txt": "modified", "/w/link": "modified", "/w/new-name.txt": "added",
		"/w/was-file": "added", "/w/was-file/in": "added", "/w/dir/exe": "added"}
	for p, c := range want {
		if got[p] != c {
			t.Errorf("%s: change %q, want %q (all: %v)", p, got[p], c, changes)
		}
	}
	read := func(p string) string {
		f, err := m.Open(p)
		if err != nil {
			return "<" + err.Error() + ">"
		}
		defer f.Close()
		b := make([]byte, 100)
		n, _ := f.Read(b)
		return string(b[:n])
	}
	for p, w := range map[string]string{"/w/keep.txt": "keep", "/w/edit.txt": "new", "/w/new-name.txt": "moved",
		"/w/was-file/in": "in", "/outside.txt": "out", "/w/link": "new"} {
		if g := read(p); g != w {
			t.Errorf("%s holds %q, want %q", p, g, w)
		}
	}
	for _, p := range []string{"/w/gone", "/w/old-name.txt"} {
		if _, err := Lstat(m, p); !os.IsNotExist(err) {
			t.Errorf("%s still there: %v", p, err)
		}
	}
	if fi, err := m.Stat("/w/mode.txt"); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode.txt: %v %v, want 0640", fi.Mode(), err)
	}
	if fi, err := m.Stat("/w/dir/exe"); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("dir/exe: %v %v, want 0755", fi.Mode(), err)
	}
	if slices.ContainsFunc(changes, func(c Change) bool { return c.Path == "/w/keep.txt" }) {
		t.Errorf("keep.txt reported changed")
	}
}

// TestReadTreeLimits: a tree bigger than the limits is refused whole.
func TestReadTreeLimits(t *testing.T) {
	m := NewMem()
	m.Mkdir("/w", 0o755)
	afero.WriteFile(m, "/w/a", make([]byte, 100), 0o600)
	afero.WriteFile(m, "/w/b", make([]byte, 100), 0o600)
	for _, lim := range []SnapLimits{{MaxBytes: 150}, {MaxFileSize: 50}, {MaxFiles: 1}} {
		if _, err := ReadTree(context.Background(), m, "/w", lim); err == nil {
			t.Errorf("%+v: no error", lim)
		}
	}
	s, err := ReadTree(context.Background(), m, "/w", SnapLimits{MaxBytes: 200, MaxFiles: 2})
	if err != nil || len(s.Entries) != 3 {
		t.Errorf("within the limits: %v %v", s, err)
	}
}
