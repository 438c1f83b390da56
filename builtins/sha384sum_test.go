package builtins

import "testing"

func TestSha384sum(t *testing.T) { dataTestSum(t, "sha384sum") }
