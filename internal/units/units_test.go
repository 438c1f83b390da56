package units

import "testing"

func TestFormatBytes(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{0, "0B"}, {1000, "1000B"}, {1024, "1KiB"}, {1536, "1536B"},
		{64 << 20, "64MiB"}, {1 << 30, "1GiB"}, {3 << 30, "3GiB"}, {(1 << 30) + 1024, "1048577KiB"},
	} {
		if got := FormatBytes(c.n); got != c.want {
			t.Errorf("FormatBytes(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
