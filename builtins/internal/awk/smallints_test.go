package awk

import (
	"strconv"
	"testing"
)

func TestSmallInt(t *testing.T) {
	for i := 0; i < numSmallInts; i++ {
		if got, want := smallInt(i), strconv.Itoa(i); got != want {
			t.Fatalf("smallInt(%d) = %q, want %q", i, got, want)
		}
	}
}
