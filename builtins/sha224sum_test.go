package builtins

import "testing"

func TestSha224sum(t *testing.T) { dataTestSum(t, "sha224sum") }
