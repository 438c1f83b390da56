package regex

import (
	"bytes"
	"math/rand"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/sandsh/sandsh/internal/suite"
)

// TestSedRandom compares Compile (sed's dialect) with GNU sed on random
// expressions: every match with 's/RE/[&]/g', groups with \1..., and the M
// flag on two lines. SEDFUZZ_SEED and SEDFUZZ_N explore further.
func TestSedRandom(t *testing.T) {
	if _, err := exec.LookPath("sed"); err != nil {
		suite.Skip(t, "sed", "GNU sed is the oracle")
	}
	seed, _ := strconv.Atoi(os.Getenv("SEDFUZZ_SEED"))
	iters, _ := strconv.Atoi(os.Getenv("SEDFUZZ_N"))
	if iters == 0 {
		iters = 200
	}
	rng := rand.New(rand.NewSource(int64(seed)))
	atomsB := []string{"a", "b", "c", ".", "[ab]", "[^a]", "\\(a\\)", "\\(ab\\|c\\)", "x", " ", "\\w", "\\W", "\\s", "[[:alpha:]]", "1", "\\(a*\\)", "[a-c]", "[[:upper:]]", "A", "\\n", "\\t", "^", "$"}
	atomsE := []string{"a", "b", "c", ".", "[ab]", "[^a]", "(a)", "(ab|c)", "x", " ", "\\w", "\\W", "\\s", "[[:alpha:]]", "1", "(a*)", "[a-c]", "a|b", "A", "\\n", "^", "$"}
	quantB := []string{"", "", "", "*", "\\+", "\\?", "\\{1,2\\}", "\\{2\\}"}
	quantE := []string{"", "", "", "*", "+", "?", "{1,2}", "{2}"}
	chars := "abcx1 A_-.\t"
	bad := 0
	for iter := 0; iter < iters; iter++ {
		ere := rng.Intn(2) == 0
		var p strings.Builder
		groups := 0
		for k := rng.Intn(4) + 1; k > 0; k-- {
			var a, q string
			if ere {
				a, q = atomsE[rng.Intn(len(atomsE))], quantE[rng.Intn(len(quantE))]
			} else {
				a, q = atomsB[rng.Intn(len(atomsB))], quantB[rng.Intn(len(quantB))]
			}
			if a == "^" || a == "$" {
				q = ""
			}
			if strings.Contains(a, "(") {
				groups++
			}
			p.WriteString(a + q)
		}
		var in strings.Builder
		for k := rng.Intn(10); k > 0; k-- {
			in.WriteByte(chars[rng.Intn(len(chars))])
		}
		tool := "S"
		if ere {
			tool = "SE"
		}
		if groups > 0 && groups < 10 && rng.Intn(2) == 0 {
			tool += "g" + strconv.Itoa(groups)
		} else if rng.Intn(3) == 0 {
			tool += "M"
			in.WriteString("\n" + in.String())
		}
		c := gnuCase{tool: tool, pat: p.String(), in: in.String()}
		args := gnuTool(c.tool, c.pat)
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = []string{"LC_ALL=C"}
		cmd.Stdin = strings.NewReader(c.in + "\n")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		want := strings.TrimSuffix(stdout.String(), "\n")
		if err != nil {
			msg := strings.TrimSpace(stderr.String())
			if i := strings.LastIndex(msg, ": "); i >= 0 {
				msg = msg[i+2:]
			}
			want = "!" + msg
		}
		if got := ours(c); got != want {
			t.Errorf("%v on %q:\n host %q\n ours %q", args, c.in, want, got)
			if bad++; bad > 20 {
				t.FailNow()
			}
		}
	}
}
