package builtins

import "testing"

func TestSha1sum(t *testing.T) { dataTestSum(t, "sha1sum") }
