package vfs

import (
	"io"
	"os"
	"testing"
)

// BenchmarkMemWriteRead streams 64 MiB through a MemFS file in 64 KiB
// chunks, the way sandsh's commands write and read big files.
func BenchmarkMemWriteRead(b *testing.B) {
	chunk := make([]byte, 64<<10)
	const total = 64 << 20
	b.SetBytes(2 * total)
	for i := 0; i < b.N; i++ {
		m := NewMem()
		f, _ := m.OpenFile("/big", os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		for n := 0; n < total; n += len(chunk) {
			if _, err := f.Write(chunk); err != nil {
				b.Fatal(err)
			}
		}
		f.Close()
		r, _ := m.Open("/big")
		buf := make([]byte, 64<<10)
		for {
			_, err := r.Read(buf)
			if err == io.EOF {
				break
			}
		}
		r.Close()
	}
}

// BenchmarkMemStat resolves a moderately deep path with a symlink in it.
func BenchmarkMemStat(b *testing.B) {
	m := NewMem()
	m.MkdirAll("/usr/local/share/project/src/pkg", 0o755)
	m.SymlinkIfPossible("/usr/local/share", "/share")
	for i := 0; i < b.N; i++ {
		if _, err := m.Stat("/share/project/src/pkg"); err != nil {
			b.Fatal(err)
		}
	}
}
