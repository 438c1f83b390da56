package mcpserver

import (
	"regexp"
	"strings"
	"testing"
)

// validSessionName replaced a regexp; it must accept exactly what the
// regexp did.
func TestValidSessionName(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)
	cases := []string{"", "a", "A.b_c-9", "bad name!", "x/y", "..", "é", "a\n", "\x00",
		strings.Repeat("a", 64), strings.Repeat("a", 65)}
	for c := 0; c < 256; c++ {
		cases = append(cases, string(rune(c)), "ab"+string([]byte{byte(c)}))
	}
	for _, name := range cases {
		if got, want := validSessionName(name), re.MatchString(name); got != want {
			t.Errorf("validSessionName(%q) = %v, want %v", name, got, want)
		}
	}
}
