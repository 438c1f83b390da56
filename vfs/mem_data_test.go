package vfs

import (
	"bytes"
	"math/rand"
	"testing"
)

// TestFileDataModel checks chunked storage against a plain byte slice
// under random writes, truncations and reads around chunk boundaries.
func TestFileDataModel(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	offsets := []int64{0, 1, 63, 64, chunkSize - 3, chunkSize, chunkSize + 5, 2*chunkSize - 1, 3 * chunkSize}
	pick := func() int64 { return offsets[r.Intn(len(offsets))] + int64(r.Intn(3)) }
	for round := 0; round < 20; round++ {
		var d fileData
		var model []byte
		for step := 0; step < 60; step++ {
			switch r.Intn(3) {
			case 0: // write
				off := pick()
				p := make([]byte, r.Intn(200)+1)
				r.Read(p)
				if end := off + int64(len(p)); end > int64(len(model)) {
					model = append(model, make([]byte, end-int64(len(model)))...)
				}
				copy(model[off:], p)
				d.writeAt(p, off)
			case 1: // truncate
				size := pick()
				if size < int64(len(model)) {
					model = model[:size]
					d.truncate(size)
				} else {
					model = append(model, make([]byte, size-int64(len(model)))...)
				}
			case 2: // read somewhere
				off := pick()
				p := make([]byte, r.Intn(300))
				for i := range p {
					p[i] = 0xAA // must be overwritten, holes included
				}
				n := d.readAt(p, off, int64(len(model)))
				want := []byte{}
				if off < int64(len(model)) {
					want = model[off:min(int64(len(model)), off+int64(len(p)))]
				}
				if !bytes.Equal(p[:n], want) {
					t.Fatalf("round %d step %d: readAt(%d) differs", round, step, off)
				}
			}
		}
		if !bytes.Equal(d.bytes(int64(len(model))), model) {
			t.Fatalf("round %d: contents differ", round)
		}
	}
}

// TestMemSparse: a file truncated far up costs no memory until written.
func TestMemSparse(t *testing.T) {
	m := NewMem()
	f, _ := m.Create("/sparse")
	defer f.Close()
	if err := f.Truncate(1 << 40); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("end"), 1<<40-3); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	if n, _ := f.ReadAt(buf, 1<<40-8); n != 8 || string(buf) != "\x00\x00\x00\x00\x00end" {
		t.Fatalf("tail %q", buf[:n])
	}
	m.t.mu.Lock()
	allocated := 0
	for _, c := range m.t.root.kids["sparse"].data.chunks {
		allocated += cap(c)
	}
	m.t.mu.Unlock()
	if allocated > chunkSize {
		t.Fatalf("a 1 TiB sparse file holds %d bytes", allocated)
	}
}
