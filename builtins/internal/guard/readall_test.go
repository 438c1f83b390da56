package guard

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"time"
)

// statReader is a file whose Stat may disagree with what it holds (a
// file growing while it is read, a device that reports 0).
type statReader struct {
	*strings.Reader
	size int64
}

func (s statReader) Stat() (fs.FileInfo, error) { return fakeInfo(s.size), nil }

type fakeInfo int64

func (f fakeInfo) Name() string       { return "f" }
func (f fakeInfo) Size() int64        { return int64(f) }
func (f fakeInfo) Mode() fs.FileMode  { return 0o644 }
func (f fakeInfo) ModTime() time.Time { return time.Time{} }
func (f fakeInfo) IsDir() bool        { return false }
func (f fakeInfo) Sys() any           { return nil }

func TestReadAll(t *testing.T) {
	data := strings.Repeat("0123456789", 1000) // 10000 bytes
	for _, tc := range []struct {
		name    string
		size    int64
		max     int
		want    int
		bounded bool
	}{
		{"plain reader", -1, -1, 10000, false},
		{"stat right", 10000, -1, 10000, false},
		{"stat too small (file grew)", 10, -1, 10000, false},
		{"stat too big", 1 << 40, -1, 10000, false},
		{"stat zero (a device)", 0, -1, 10000, false},
		{"bound below the content", 10000, 4096, 4096, true},
		{"bound, stat lies small", 10, 4096, 4096, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r interface{ Read([]byte) (int, error) } = strings.NewReader(data)
			if tc.size >= 0 {
				r = statReader{strings.NewReader(data), tc.size}
			}
			got, err := ReadAll(context.Background(), r, tc.max)
			var ie *InputError
			if tc.bounded != errors.As(err, &ie) {
				t.Fatalf("err %v, want bounded=%v", err, tc.bounded)
			}
			if !tc.bounded && err != nil {
				t.Fatal(err)
			}
			if len(got) != tc.want || !bytes.Equal(got, []byte(data[:tc.want])) {
				t.Errorf("got %d bytes, want the first %d", len(got), tc.want)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadAll(ctx, strings.NewReader(data), -1); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err %v", err)
	}
}
