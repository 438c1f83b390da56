package vfs

import (
	"bufio"
	"fmt"
	"io"
	"math/rand"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/afero"
)

// checkInvariants verifies the bookkeeping of a MemFS whose files are
// all closed: link counts match the entries naming each inode, ".." links
// point back, and Usage equals the sum over the reachable tree.
func checkInvariants(t testing.TB, m *MemFS) {
	t.Helper()
	tr := m.t
	tr.mu.Lock()
	defer tr.mu.Unlock()
	refs := map[*inode]uint64{}
	var bytes int64
	files := 0
	seen := map[*inode]bool{}
	var walk func(d *inode, p string)
	walk = func(d *inode, p string) {
		if d.lower != nil { // not loaded yet: nothing in memory to check
			return
		}
		subdirs := 0
		for name, c := range d.kids {
			refs[c]++
			if c.isDir() {
				subdirs++
				if c.parent != d {
					t.Errorf("%s/%s: parent pointer is wrong", p, name)
				}
				walk(c, p+"/"+name)
			}
		}
		if want := uint64(2 + subdirs); d.nlink != want {
			t.Errorf("%s: dir nlink %d, want %d", p, d.nlink, want)
		}
	}
	walk(tr.root, "")
	for n, r := range refs {
		if seen[n] {
			continue
		}
		seen[n] = true
		if !n.isDir() && n.nlink != r {
			t.Errorf("inode %d: nlink %d but %d names", n.ino, n.nlink, r)
		}
		if n.isDir() && r != 1 {
			t.Errorf("directory inode %d has %d names", n.ino, r)
		}
		if n.opens != 0 {
			t.Errorf("inode %d: %d opens left", n.ino, n.opens)
		}
		if n.isRegular() && n.lower == nil {
			if max := (n.size + chunkSize - 1) >> chunkShift; int64(len(n.data.chunks)) > max {
				t.Errorf("inode %d: %d chunks for size %d", n.ino, len(n.data.chunks), n.size)
			}
			for k, c := range n.data.chunks {
				if int64(k)<<chunkShift+int64(len(c)) > n.size || len(c) > chunkSize {
					t.Errorf("inode %d: chunk %d of %d bytes past size %d", n.ino, k, len(c), n.size)
				}
			}
		}
		bytes += n.charged
		if n.counted {
			files++
		}
	}
	if bytes != tr.bytes || files != tr.files {
		t.Errorf("usage %d bytes %d files, tree holds %d bytes %d files", tr.bytes, tr.files, bytes, files)
	}
}

// TestMemConcurrentAppend: O_APPEND writes from many goroutines, through
// separate handles and through one shared handle, never overlap or get
// lost (afero.MemMapFs loses some).
func TestMemConcurrentAppend(t *testing.T) {
	m := NewMem()
	const writers, lines = 8, 300
	shared, err := m.OpenFile("/log", os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < writers; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f, err := m.OpenFile("/log", os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
			if err != nil {
				t.Error(err)
				return
			}
			defer f.Close()
			for i := 0; i < lines; i++ {
				w := f
				if i%2 == 1 {
					w = shared
				}
				if _, err := fmt.Fprintf(w, "writer-%02d line-%04d\n", g, i); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	shared.Close()
	data := readAll(t, m, "/log")
	got := strings.Split(strings.TrimSuffix(data, "\n"), "\n")
	if len(got) != writers*lines {
		t.Fatalf("%d lines, want %d", len(got), writers*lines)
	}
	sort.Strings(got)
	i := 0
	for g := 0; g < writers; g++ {
		for l := 0; l < lines; l++ {
			if want := fmt.Sprintf("writer-%02d line-%04d", g, l); got[i] != want {
				t.Fatalf("line %d = %q, want %q", i, got[i], want)
			}
			i++
		}
	}
	checkInvariants(t, m)
}

// TestMemConcurrentTree hammers a small namespace with every kind of
// operation from many goroutines; errors are expected, races (under
// -race), panics and broken bookkeeping are not.
func TestMemConcurrentTree(t *testing.T) {
	m := NewMem()
	names := []string{"/a", "/b", "/a/x", "/b/y", "/a/x/z", "/c", "/l"}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(seed int64) {
			defer wg.Done()
			r := rand.New(rand.NewSource(seed))
			pick := func() string { return names[r.Intn(len(names))] }
			for i := 0; i < 400; i++ {
				switch r.Intn(12) {
				case 0:
					m.MkdirAll(pick(), 0o755)
				case 1:
					afero.WriteFile(m, pick(), []byte("data"), 0o644)
				case 2:
					m.Rename(pick(), pick())
				case 3:
					m.Remove(pick())
				case 4:
					m.RemoveAll(pick())
				case 5:
					m.SymlinkIfPossible(pick(), pick())
				case 6:
					m.LinkIfPossible(pick(), pick())
				case 7:
					if fi, err := m.Stat(pick()); err == nil {
						_ = fi.Size()
					}
				case 8:
					afero.ReadDir(m, pick())
				case 9:
					afero.ReadFile(m, pick())
				case 10:
					m.Chmod(pick(), 0o700|0o055)
				case 11:
					if f, err := m.OpenFile(pick(), os.O_RDWR|os.O_APPEND, 0); err == nil {
						f.Write([]byte("more"))
						f.Truncate(2)
						f.Close()
					}
				}
			}
		}(int64(g))
	}
	wg.Wait()
	checkInvariants(t, m)
}

// TestMemConcurrentReadWrite reads a file through many handles while it
// is being appended to and truncated: every read must see a prefix of
// the content that was there at some point.
func TestMemConcurrentReadWrite(t *testing.T) {
	m := NewMem()
	line := strings.Repeat("0123456789", 10) + "\n"
	mustWrite(t, m, "/f", "")
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(done)
		f, _ := m.OpenFile("/f", os.O_WRONLY|os.O_APPEND, 0)
		defer f.Close()
		for i := 0; i < 500; i++ {
			f.Write([]byte(line))
			if i%100 == 99 {
				f.Truncate(0)
			}
		}
	}()
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				f, err := m.Open("/f")
				if err != nil {
					t.Error(err)
					return
				}
				sc := bufio.NewScanner(f)
				for sc.Scan() {
					// All lines are equal, so whatever the interleaving
					// every line read is a prefix of it.
					if s := sc.Text(); !strings.HasPrefix(line, s) {
						t.Errorf("torn line %q", s)
					}
				}
				var buf [37]byte
				f.ReadAt(buf[:], 13)
				f.Seek(0, io.SeekStart)
				f.Close()
			}
		}()
	}
	wg.Wait()
	checkInvariants(t, m)
}
