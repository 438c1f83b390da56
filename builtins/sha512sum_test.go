package builtins

import "testing"

func TestSha512sum(t *testing.T) { dataTestSum(t, "sha512sum") }
