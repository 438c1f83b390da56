package vfs

// fileData is the contents of a regular MemFS file, kept in chunks of at
// most chunkSize bytes rather than one slice: growing a big file then
// never copies what was already written, truncating it up or writing far
// past its end leaves holes that cost nothing, and small files still take
// only the memory they use (their single chunk grows by doubling).
//
// Chunk k holds the bytes from k*chunkSize on. A chunk may be shorter
// than its share of the file, or nil: the bytes it lacks read as zeros.
// The file size itself is kept by the inode; fileData never looks past
// the size it is given.
type fileData struct {
	chunks [][]byte
}

const (
	chunkShift = 20
	chunkSize  = 1 << chunkShift
)

// readAt copies the file bytes at off into p, stopping at size, and
// returns the count.
func (d *fileData) readAt(p []byte, off, size int64) int {
	if off >= size {
		return 0
	}
	if rem := size - off; int64(len(p)) > rem {
		p = p[:rem]
	}
	n := 0
	for n < len(p) {
		k, o := int((off+int64(n))>>chunkShift), int((off+int64(n))&(chunkSize-1))
		span := min(len(p)-n, chunkSize-o)
		var c []byte
		if k < len(d.chunks) {
			c = d.chunks[k]
		}
		copied := 0
		if o < len(c) {
			copied = copy(p[n:n+span], c[o:])
		}
		clear(p[n+copied : n+span]) // a hole or the unwritten end of a chunk
		n += span
	}
	return n
}

// writeAt stores p at off.
func (d *fileData) writeAt(p []byte, off int64) {
	for len(p) > 0 {
		k, o := int(off>>chunkShift), int(off&(chunkSize-1))
		span := min(len(p), chunkSize-o)
		if k >= len(d.chunks) {
			d.chunks = append(d.chunks, make([][]byte, k+1-len(d.chunks))...)
		}
		d.chunks[k] = growChunk(d.chunks[k], o+span, k > 0)
		copy(d.chunks[k][o:], p[:span])
		p = p[span:]
		off += int64(span)
	}
}

// growChunk returns c with length at least n (at most chunkSize), with
// zeros between its old and new length. The first chunk grows by
// doubling so that small files stay small; the others are allocated whole
// at once, as a file that reached them is big.
func growChunk(c []byte, n int, whole bool) []byte {
	if n <= len(c) {
		return c
	}
	if n <= cap(c) {
		old := len(c)
		c = c[:n]
		clear(c[old:]) // the capacity may hold bytes from before a shrink
		return c
	}
	size := chunkSize
	if !whole {
		size = min(chunkSize, max(n, 2*cap(c), 64))
	}
	buf := make([]byte, n, size)
	copy(buf, c)
	return buf
}

// truncate forgets everything from size on, giving memory back.
func (d *fileData) truncate(size int64) {
	if size == 0 {
		d.chunks = nil
		return
	}
	k, o := int(size>>chunkShift), int(size&(chunkSize-1))
	if k >= len(d.chunks) {
		return
	}
	if o == 0 {
		clear(d.chunks[k:]) // unpin the dropped chunks
		d.chunks = d.chunks[:k]
		return
	}
	clear(d.chunks[k+1:])
	d.chunks = d.chunks[:k+1]
	if c := d.chunks[k]; len(c) > o {
		if o < cap(c)/4 {
			c = append([]byte(nil), c[:o]...) // don't pin a big chunk for a few bytes
		}
		d.chunks[k] = c[:o]
	}
}

// bytes returns the data up to size in one slice (for tests and copies).
func (d *fileData) bytes(size int64) []byte {
	b := make([]byte, size)
	d.readAt(b, 0, size)
	return b
}
