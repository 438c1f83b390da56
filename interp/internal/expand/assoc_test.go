package expand

import (
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"github.com/sandsh/sandsh/internal/suite"
)

// TestAssocOrderBash checks the iteration order against bash itself on
// random key sets, with unsets, replaced values, conversion of an existing
// variable (128 buckets) and tables large enough to grow.
func TestAssocOrderBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		suite.Skip(t, "bash", "bash is the oracle")
	}
	rng := rand.New(rand.NewPCG(7, 11))
	sizes := []int{0, 1, 2, 3, 5, 8, 13, 40, 100, 300, 260, 1000, 2100, 5000, 9000}
	if testing.Short() {
		sizes = sizes[:10]
	}
	for round, size := range sizes {
		convert := round%3 == 1
		var script strings.Builder
		var a *Assoc
		if convert {
			script.WriteString("m=x; declare -A m\n")
			a = NewAssoc(AssocBucketsConverted)
			a.Set("0", "x")
		} else {
			script.WriteString("declare -A m\n")
			a = NewAssoc(AssocBuckets)
		}
		var keys []string
		for i := 0; i < size; i++ {
			var k string
			switch rng.IntN(4) {
			case 0:
				k = fmt.Sprint(rng.IntN(size*2 + 1))
			case 1:
				k = fmt.Sprintf("key_%x", rng.Uint32())
			case 2:
				b := make([]byte, 1+rng.IntN(6))
				for j := range b {
					b[j] = byte(0x21 + rng.IntN(0xfe-0x21))
				}
				k = string(b)
			default:
				if len(keys) > 0 {
					k = keys[rng.IntN(len(keys))]
				} else {
					k = "z"
				}
			}
			keys = append(keys, k)
			fmt.Fprintf(&script, "m[%s]=%d\n", bashQuote(k), i)
			a.Set(k, fmt.Sprint(i))
			if rng.IntN(7) == 0 {
				d := keys[rng.IntN(len(keys))]
				if strings.ContainsAny(d, "\"'\\$`[]*@\x7f") {
					// unset expands the subscript again (and loses \x7f, bash's
					// CTLNUL); keep the key literal.
					continue
				}
				fmt.Fprintf(&script, "unset -v %s\n", bashQuote("m["+d+"]"))
				a.Delete(d)
			}
		}
		script.WriteString("for k in \"${!m[@]}\"; do printf '%s=%s\\n' \"$k\" \"${m[$k]}\"; done\n")
		cmd := exec.Command(bash, "--norc", "--noprofile")
		cmd.Env = []string{"LC_ALL=C"}
		cmd.Stdin = strings.NewReader(script.String())
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("bash: %v", err)
		}
		var want strings.Builder
		a.Each(func(k, v string) bool {
			fmt.Fprintf(&want, "%s=%s\n", k, v)
			return true
		})
		if string(out) != want.String() {
			t.Errorf("round %d (size %d, convert %v): order differs from bash\nbash:\n%s\nmodel:\n%s", round, size, convert, out, want.String())
		}
	}
}

func bashQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func TestAssocRestore(t *testing.T) {
	a := NewAssoc(AssocBucketsConverted)
	for i := 0; i < 700; i++ {
		a.Set(fmt.Sprint("k", i*7%1000), fmt.Sprint(i))
	}
	a.Delete("k7")
	b := AssocRestore(a.Buckets(), a.Keys(), a.Map())
	if fmt.Sprint(a.Keys()) != fmt.Sprint(b.Keys()) || fmt.Sprint(a.Values()) != fmt.Sprint(b.Values()) {
		t.Fatalf("restored order differs")
	}
	// A forged size falls back to a bounded table.
	c := AssocRestore(1<<30, []string{"x", "x"}, map[string]string{"x": "1", "y": "2"})
	if c.Buckets() != AssocBuckets || c.Len() != 2 {
		t.Fatalf("forged state: %d buckets, %d keys", c.Buckets(), c.Len())
	}
}
