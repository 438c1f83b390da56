package mcpserver

import (
	"strings"
	"testing"
)

// TestHideCut: a stream whose host paths are hidden sends whole lines
// only, so that a path split across two writes is still whole when the
// filter sees it; a huge line without an end is sent but for its tail.
func TestHideCut(t *testing.T) {
	long := strings.Repeat("x", 20*maxHidden)
	for _, c := range []struct {
		in   string
		want int
	}{
		{"", 0},
		{"/srv/sandsh/sta", 0},
		{"a line\n/srv/sand", len("a line\n")},
		{"one\ntwo\n", len("one\ntwo\n")},
		{long, len(long) - maxHidden},
		{long + "é", len(long) + 2 - maxHidden},
	} {
		if got := hideCut([]byte(c.in)); got != c.want {
			t.Errorf("hideCut(%.20q… %d bytes) = %d, want %d", c.in, len(c.in), got, c.want)
		}
	}
	// A cut never splits a character.
	b := []byte(strings.Repeat("é", 10*maxHidden))
	if n := hideCut(b); n%2 != 0 {
		t.Errorf("cut inside a character at %d", n)
	}
}
