package statefile

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/vfs"
)

func sample() *File {
	t0 := time.Unix(1700000000, 123456789)
	return &File{
		Shell: &interp.State{Dir: "/workspace", Vars: []interp.StateVar{{Name: "x", Kind: "string", Value: "1"}}},
		FS: &vfs.Snapshot{Entries: []vfs.SnapEntry{
			{Path: "/", Type: "dir", Mode: 0o755, Mtime: t0, Atime: t0},
			{Path: "/f", Type: "file", Data: []byte("data"), Mode: 0o4644, UID: 1000, GID: 1000, Mtime: t0},
			{Path: "/l", Type: "symlink", Target: "f"},
			{Path: "/h", Type: "link", Target: "/f"},
		}},
	}
}

func sampleDelta() *File {
	t0 := time.Unix(1700000000, 5)
	return &File{
		Shell: &interp.State{Dir: "/w"},
		Delta: &vfs.Delta{Removed: []string{"/w/gone"}, Entries: []vfs.SnapEntry{
			{Path: "/w", Type: "dir", Mode: 0o755, Mtime: t0, Atime: t0},
			{Path: "/w/new", Type: "file", Data: []byte("x\n"), Replace: true, Mtime: t0, Atime: t0},
			{Path: "/w/big", Type: "file", Keep: true, Mode: 0o600},
		}},
		Base: []vfs.BaseStamp{{Path: "/w/gone", Type: "file", Size: 3, Sum: [32]byte{1, 2}}, {Path: "/w/new"}, {Path: "/w/l", Type: "symlink", Target: "x"}},
	}
}

func encode(t testing.TB, f *File) []byte {
	var buf bytes.Buffer
	if err := Write(&buf, f); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// same compares two files, times by instant.
func same(a, b *File) bool {
	norm := func(f *File) *File {
		c := *f
		fix := func(es []vfs.SnapEntry) []vfs.SnapEntry {
			out := append([]vfs.SnapEntry(nil), es...)
			for i := range out {
				out[i].Mtime, out[i].Atime = out[i].Mtime.UTC(), out[i].Atime.UTC()
				if len(out[i].Data) == 0 {
					out[i].Data = nil
				}
			}
			return out
		}
		if f.FS != nil {
			c.FS = &vfs.Snapshot{Entries: fix(f.FS.Entries)}
		}
		if f.Delta != nil {
			c.Delta = &vfs.Delta{Removed: f.Delta.Removed, Entries: fix(f.Delta.Entries)}
		}
		return &c
	}
	return reflect.DeepEqual(norm(a), norm(b))
}

func TestRoundTrip(t *testing.T) {
	for _, f := range []*File{sample(), sampleDelta(), {Shell: &interp.State{Dir: "/"}}} {
		data := encode(t, f)
		if !bytes.HasPrefix(data, []byte("sandsh-state 2\n")) {
			t.Fatalf("header: %q", data[:20])
		}
		got, err := Read(bytes.NewReader(data), 0)
		if err != nil {
			t.Fatal(err)
		}
		if !same(got, f) {
			t.Errorf("round trip:\n got %+v\nwant %+v", got, f)
		}
	}
}

// TestReadsVersion1: files saved by an older sandsh still load.
func TestReadsVersion1(t *testing.T) {
	var buf bytes.Buffer
	if err := writeV1(&buf, sample()); err != nil {
		t.Fatal(err)
	}
	got, err := Read(bytes.NewReader(buf.Bytes()), 0)
	if err != nil {
		t.Fatal(err)
	}
	if !same(got, sample()) {
		t.Errorf("v1: %+v", got)
	}
	good := buf.Bytes()
	nl := bytes.IndexByte(good, '\n')
	nl2 := nl + 1 + bytes.IndexByte(good[nl+1:], '\n')
	flip := bytes.Clone(good)
	flip[len(flip)-5] ^= 1
	for name, data := range map[string][]byte{
		"truncated payload": good[:len(good)-3],
		"bit flip":          flip,
		"trailing data":     append(bytes.Clone(good), 'x'),
		"bad checksum line": append(append(bytes.Clone(good[:nl+1]), "md5:00 3\n"...), good[nl2+1:]...),
	} {
		if _, err := Read(bytes.NewReader(data), 0); !errors.Is(err, ErrDamaged) {
			t.Errorf("v1 %s: %v", name, err)
		}
	}
	forged := "sandsh-state 1\nsha256:" + strings.Repeat("0", 64) + " 999999999999\n"
	if _, err := Read(strings.NewReader(forged), 1<<20); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("forged length: %v", err)
	}
}

func TestRefused(t *testing.T) {
	good := encode(t, sample())
	nl := bytes.IndexByte(good, '\n')
	cases := []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrNotState},
		{"foreign", []byte("#!/bin/bash\necho hi\n"), ErrNotState},
		{"json", []byte(`{"shell":{}}`), ErrNotState},
		{"future", append([]byte("sandsh-state 3\n"), good[nl+1:]...), ErrVersion},
		{"bad version", append([]byte("sandsh-state x\n"), good[nl+1:]...), ErrNotState},
		{"header only", good[:nl+1], ErrDamaged},
		{"trailing data", append(bytes.Clone(good), 'x'), ErrDamaged},
		{"garbage payload", append(bytes.Clone(good[:nl+1]), "abc"...), ErrDamaged},
	}
	for _, c := range cases {
		_, err := Read(bytes.NewReader(c.data), 0)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
}

// TestEveryCut and TestEveryFlip: a file cut anywhere, or with any one
// byte changed, is refused (never half-read, never a panic).
func TestEveryCut(t *testing.T) {
	for _, f := range []*File{sample(), sampleDelta()} {
		good := encode(t, f)
		for n := 0; n < len(good); n++ {
			if _, err := Read(bytes.NewReader(good[:n]), 0); err == nil {
				t.Fatalf("cut at %d of %d: accepted", n, len(good))
			}
		}
	}
}

func TestEveryFlip(t *testing.T) {
	for _, f := range []*File{sample(), sampleDelta()} {
		good := encode(t, f)
		for i := range good {
			for _, bit := range []byte{1, 0x80} {
				bad := bytes.Clone(good)
				bad[i] ^= bit
				if got, err := Read(bytes.NewReader(bad), 0); err == nil && !same(got, f) {
					t.Fatalf("byte %d ^ %#x: a different file was accepted", i, bit)
				}
			}
		}
	}
}

// TestLimits: a file over the limits is refused while it is read.
func TestLimits(t *testing.T) {
	big := sample()
	big.FS.Entries[1].Data = bytes.Repeat([]byte("z"), 5000)
	data := encode(t, big)
	for name, lim := range map[string]vfs.SnapLimits{
		"file size": {MaxFileSize: 4999},
		"bytes":     {MaxBytes: 4000},
	} {
		_, err := ReadWithin(bytes.NewReader(data), 0, lim)
		if err == nil || errors.Is(err, ErrDamaged) {
			t.Errorf("%s: %v", name, err)
		}
	}
	many := sample()
	for i := 0; i < 20000; i++ {
		many.FS.Entries = append(many.FS.Entries, vfs.SnapEntry{Path: fmt.Sprintf("/d%d", i), Type: "dir"})
	}
	if _, err := ReadWithin(bytes.NewReader(encode(t, many)), 0, vfs.SnapLimits{MaxFiles: 10}); err == nil || !strings.Contains(err.Error(), "more than 10 files") {
		t.Errorf("files: %v", err)
	}
	// The file itself is bounded by maxBytes.
	if _, err := Read(bytes.NewReader(data), 1000); err == nil {
		t.Error("a file over maxBytes was read")
	}
}

func FuzzRead(f *testing.F) {
	f.Add(encode(f, sample()))
	f.Add(encode(f, sampleDelta()))
	var v1 bytes.Buffer
	writeV1(&v1, sample())
	f.Add(v1.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ReadWithin(bytes.NewReader(data), 1<<20, vfs.SnapLimits{MaxFiles: 100, MaxBytes: 1 << 20, MaxFileSize: 1 << 20})
		if err != nil {
			return
		}
		// Whatever is accepted writes and reads back the same.
		again, err := Read(bytes.NewReader(encode(t, got)), 0)
		if err != nil || !same(again, got) {
			t.Fatalf("accepted file does not round-trip: %v", err)
		}
	})
}
