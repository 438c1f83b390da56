package vfs

import (
	"slices"
	"strings"
	"testing"
)

// splitPath must keep exactly the non-empty components, in order.
func TestSplitPath(t *testing.T) {
	ref := func(p string) []string {
		var out []string
		for _, c := range strings.Split(p, "/") {
			if c != "" {
				out = append(out, c)
			}
		}
		return out
	}
	for _, p := range []string{"", "/", "//", "a", "/a", "a/", "/a/b/c", "//a//b//", "./a/../b", "/usr/bin/ls", "a b/c d", ".", ".."} {
		got, want := splitPath(p), ref(p)
		if len(got) != len(want) || !slices.Equal(got, want) {
			t.Errorf("splitPath(%q) = %q, want %q", p, got, want)
		}
	}
}

func FuzzSplitPath(f *testing.F) {
	f.Add("/a//b/./c/")
	f.Fuzz(func(t *testing.T, p string) {
		var want []string
		for _, c := range strings.Split(p, "/") {
			if c != "" {
				want = append(want, c)
			}
		}
		if got := splitPath(p); len(got) != len(want) || !slices.Equal(got, want) {
			t.Errorf("splitPath(%q) = %q, want %q", p, got, want)
		}
	})
}
