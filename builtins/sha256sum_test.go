package builtins

import "testing"

func TestSha256sum(t *testing.T) { dataTestSum(t, "sha256sum") }
