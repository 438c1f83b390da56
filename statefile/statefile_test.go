package statefile

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/vfs"
)

func sample() *File {
	return &File{
		Shell: &interp.State{Dir: "/workspace", Vars: []interp.StateVar{{Name: "x", Kind: "string", Value: "1"}}},
		FS:    &vfs.Snapshot{Entries: []vfs.SnapEntry{{Path: "/", Type: "dir", Mode: 0o755}, {Path: "/f", Type: "file", Data: []byte("data")}}},
	}
}

func encode(t *testing.T, f *File) []byte {
	var buf bytes.Buffer
	if err := Write(&buf, f); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRoundTrip(t *testing.T) {
	data := encode(t, sample())
	if !bytes.HasPrefix(data, []byte("sandsh-state 1\nsha256:")) {
		t.Fatalf("header: %q", data[:30])
	}
	f, err := Read(bytes.NewReader(data), 0)
	if err != nil {
		t.Fatal(err)
	}
	if f.Shell.Vars[0].Value != "1" || string(f.FS.Entries[1].Data) != "data" {
		t.Errorf("got %+v", f)
	}
}

func TestRefused(t *testing.T) {
	good := encode(t, sample())
	nl := bytes.IndexByte(good, '\n')
	nl2 := nl + 1 + bytes.IndexByte(good[nl+1:], '\n')
	flip := bytes.Clone(good)
	flip[len(flip)-5] ^= 1
	cases := []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrNotState},
		{"foreign", []byte("#!/bin/bash\necho hi\n"), ErrNotState},
		{"json", []byte(`{"shell":{}}`), ErrNotState},
		{"future", append([]byte("sandsh-state 2\n"), good[nl+1:]...), ErrVersion},
		{"bad version", append([]byte("sandsh-state x\n"), good[nl+1:]...), ErrNotState},
		{"truncated header", good[:nl+10], ErrDamaged},
		{"truncated payload", good[:len(good)-3], ErrDamaged},
		{"bit flip", flip, ErrDamaged},
		{"trailing data", append(bytes.Clone(good), 'x'), ErrDamaged},
		{"bad checksum line", append(append(bytes.Clone(good[:nl+1]), "md5:00 3\n"...), good[nl2+1:]...), ErrDamaged},
	}
	for _, c := range cases {
		_, err := Read(bytes.NewReader(c.data), 0)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
	// A valid checksum over a payload that is not the format.
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "sandsh-state 1\nsha256:%s 3\nabc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
	if _, err := Read(&buf, 0); !errors.Is(err, ErrDamaged) {
		t.Errorf("garbage payload: %v", err)
	}
	// A forged length bigger than the limit is refused before reading.
	forged := "sandsh-state 1\nsha256:" + strings.Repeat("0", 64) + " 999999999999\n"
	if _, err := Read(strings.NewReader(forged), 1<<20); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("forged length: %v", err)
	}
}
