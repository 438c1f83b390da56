package vfs

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestReadHostTreeDeep: a tree 1,000 directories deep with 255-byte
// names (what a jailed program can leave) is refused where its path
// outgrows the sandbox, with bounded memory and a shortened path in the
// message; the read-back kept every full path and took the parent to
// 720 MB (issue 23.8).
func TestReadHostTreeDeep(t *testing.T) {
	dir := t.TempDir()
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.Repeat("d", 255)
	for range 1000 {
		if err := unix.Mkdirat(fd, name, 0o755); err != nil {
			t.Fatal(err)
		}
		next, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		unix.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		fd = next
	}
	unix.Close(fd)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err = ReadHostTree(context.Background(), dir, SnapLimits{MaxFiles: 100000})
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "path longer than 4095 bytes") {
		t.Fatalf("err = %v, want the path refused", err)
	}
	if len(err.Error()) > 200 {
		t.Errorf("the message is %d bytes long: %.300s", len(err.Error()), err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("reading the tree allocated %d MB, want under 16", alloc>>20)
	}
}

// TestReadHostTreeWideDir: a directory with more entries than the file
// limit is refused without reading it whole.
func TestReadHostTreeWideDir(t *testing.T) {
	dir := t.TempDir()
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	for i := range 5000 {
		if err := unix.Mkdirat(fd, strings.Repeat("x", 200)+string(rune('a'+i%26))+itoa(i), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err = ReadHostTree(context.Background(), dir, SnapLimits{MaxFiles: 100})
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "more than 100 files") {
		t.Fatalf("err = %v, want the tree refused", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 600<<10 {
		t.Errorf("reading the tree allocated %d KB, want under 600 (the whole directory's names are over 1 MB)", alloc>>10)
	}
}

func itoa(i int) string {
	b := []byte{}
	for {
		b = append([]byte{byte('0' + i%10)}, b...)
		if i /= 10; i == 0 {
			return string(b)
		}
	}
}
