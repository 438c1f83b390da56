package statefile

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/vfs"
)

// benchTree is a memory filesystem holding 100 files of 1 MB, random or
// compressible (text-like) bytes.
func benchTree(b *testing.B, random bool) *vfs.MemFS {
	m := vfs.NewMem()
	rng := rand.New(rand.NewSource(1))
	// Compressible files are what a workspace holds: source text (this
	// repository's Go files, one after another).
	var text []byte
	if !random {
		paths, _ := filepath.Glob("../*/*.go")
		for _, p := range paths {
			b, _ := os.ReadFile(p)
			text = append(text, b...)
		}
		if len(text) < 2_000_000 {
			b.Fatal("not enough source text")
		}
	}
	for i := 0; i < 100; i++ {
		data := make([]byte, 1_000_000)
		if random {
			rng.Read(data)
		} else {
			off := (i * 7919 * 1000) % (len(text) - len(data))
			copy(data, text[off:])
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
			b.ResetTimer()
			start := cpuTime()
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
			cpuRate(b, start)
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
			start := cpuTime()
			for i := 0; i < b.N; i++ {
				f, err := ReadWithin(bytes.NewReader(buf.Bytes()), 0, vfs.SnapLimits{MaxBytes: 512 << 20, MaxFiles: 100000, MaxFileSize: 256 << 20})
				if err != nil {
					b.Fatal(err)
				}
				if err := vfs.Restore(context.Background(), vfs.NewMem(), f.FS, vfs.SnapLimits{}); err != nil {
					b.Fatal(err)
				}
			}
			cpuRate(b, start)
		})
	}
}

// cpuRate reports the throughput over the process's CPU time, which a
// loaded machine does not skew as it skews the wall time of ns/op.
func cpuRate(b *testing.B, start time.Duration) {
	used := cpuTime() - start
	b.ReportMetric(float64(b.N)*100/used.Seconds(), "MB/cpu-s")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }
