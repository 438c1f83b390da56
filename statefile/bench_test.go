package statefile

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand"
	"os"
	"testing"

	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/vfs"
)

// benchTree is a memory filesystem holding 100 files of 1 MB, random or
// compressible (text-like) bytes.
func benchTree(b *testing.B, random bool) *vfs.MemFS {
	m := vfs.NewMem()
	rng := rand.New(rand.NewSource(1))
	words := []string{"func ", "return ", "if err != nil {\n", "\t", "sandbox", "state ", "x := ", "}\n", "// comment\n"}
	for i := 0; i < 100; i++ {
		data := make([]byte, 0, 1<<20)
		if random {
			data = data[:1_000_000]
			rng.Read(data)
		} else {
			for len(data) < 1_000_000 {
				data = append(data, words[rng.Intn(len(words))]...)
				data = append(data, fmt.Sprint(rng.Intn(1000))...)
			}
		}
		f, err := m.OpenFile(fmt.Sprintf("/f%d", i), os.O_WRONLY|os.O_CREATE, 0o644)
		if err != nil {
			b.Fatal(err)
		}
		f.Write(data)
		f.Close()
	}
	return m
}

// BenchmarkSave and BenchmarkLoad: what `sandsh --state` costs around a
// run on 100 MB of memory files, whole: the snapshot and encoding, and
// the decoding and restore into a new filesystem.
func BenchmarkSave(b *testing.B) {
	for _, random := range []bool{true, false} {
		b.Run(fmt.Sprintf("random=%v", random), func(b *testing.B) {
			m := benchTree(b, random)
			b.SetBytes(100_000_000)
			var n int64
			for i := 0; i < b.N; i++ {
				snap, err := vfs.TakeSnapshot(context.Background(), m, vfs.SnapLimits{})
				if err != nil {
					b.Fatal(err)
				}
				cw := &countWriter{}
				if err := Write(cw, &File{Shell: &interp.State{Dir: "/"}, FS: snap}); err != nil {
					b.Fatal(err)
				}
				n = cw.n
			}
			b.ReportMetric(float64(n)/1e6, "file-MB")
		})
	}
}

func BenchmarkLoad(b *testing.B) {
	for _, random := range []bool{true, false} {
		b.Run(fmt.Sprintf("random=%v", random), func(b *testing.B) {
			m := benchTree(b, random)
			snap, _ := vfs.TakeSnapshot(context.Background(), m, vfs.SnapLimits{})
			var buf bytes.Buffer
			Write(&buf, &File{Shell: &interp.State{Dir: "/"}, FS: snap})
			b.SetBytes(100_000_000)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				f, err := ReadWithin(bytes.NewReader(buf.Bytes()), 0, vfs.SnapLimits{MaxBytes: 512 << 20, MaxFiles: 100000, MaxFileSize: 256 << 20})
				if err != nil {
					b.Fatal(err)
				}
				if err := vfs.Restore(context.Background(), vfs.NewMem(), f.FS, vfs.SnapLimits{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

var _ = io.Discard
