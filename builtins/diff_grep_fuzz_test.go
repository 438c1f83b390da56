package builtins

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

// TestDiffGrepRandom compares grep with the host's GNU grep on random
// patterns, options and inputs. GREPFUZZ_SEED and GREPFUZZ_N explore
// further. Constructs where GNU grep disagrees with itself (its DFA and
// its regex engine) are left out: back-references to repeated groups and
// repeated anchors.
func TestDiffGrepRandom(t *testing.T) {
	if _, err := exec.LookPath("grep"); err != nil {
		suite.Skip(t, "grep", "GNU grep is the oracle")
	}
	seed, _ := strconv.Atoi(os.Getenv("GREPFUZZ_SEED"))
	iters, _ := strconv.Atoi(os.Getenv("GREPFUZZ_N"))
	if iters == 0 {
		iters = 150
	}
	rng := rand.New(rand.NewSource(int64(seed)))
	type atom struct {
		bre, ere string
		anchor   bool // no repetition after it
		group    bool
	}
	atoms := []atom{
		{"a", "a", false, false}, {"b", "b", false, false}, {"c", "c", false, false},
		{".", ".", false, false}, {"[ab]", "[ab]", false, false}, {"[^a]", "[^a]", false, false},
		{`\(a\)`, "(a)", false, true}, {`\(ab\|c\)`, "(ab|c)", false, true},
		{"x", "x", false, false}, {" ", " ", false, false}, {`\w`, `\w`, false, false},
		{`\W`, `\W`, false, false}, {`\s`, `\s`, false, false}, {"[[:alpha:]]", "[[:alpha:]]", false, false},
		{"[[:digit:]]", "[[:digit:]]", false, false}, {"1", "1", false, false},
		{`\<`, `\<`, true, false}, {`\>`, `\>`, true, false}, {`\b`, `\b`, true, false},
		{"^", "^", true, false}, {"$", "$", true, false}, {`\(a*\)`, "(a*)", false, true},
		{"[a-c]", "[a-c]", false, false}, {"[[:upper:]]", "[[:upper:]]", false, false},
		{"[]a]", "[]a]", false, false}, {"A", "A", false, false}, {"\xe9", "\xe9", false, false},
		{"[^[:space:]]", "[^[:space:]]", false, false}, {`\.`, `\.`, false, false},
	}
	quantB := []string{"", "", "", "*", `\+`, `\?`, `\{1,2\}`, `\{2\}`, `\{,2\}`}
	quantE := []string{"", "", "", "*", "+", "?", "{1,2}", "{2}", "{,2}"}
	flagsets := [][]string{{}, {"-i"}, {"-w"}, {"-x"}, {"-v"}, {"-o"}, {"-c"}, {"-n"},
		{"-vn"}, {"-on"}, {"-iw"}, {"-ob"}, {"-wc"}, {"-xv"}, {"-ic"}, {"-io"}, {"-ix"},
		{"-vc"}, {"-A1"}, {"-B1", "-n"}, {"-C1", "-v"}, {"-m1", "-A1"}, {"-c", "-m2", "-v"}, {"-xn"}}
	chars := "abcx1 A_-.\t\xe9B"
	failures := 0
	for iter := 0; iter < iters; iter++ {
		ere := rng.Intn(2) == 0
		var p strings.Builder
		groups, repeatedGroup := 0, false
		for k := rng.Intn(4) + 1; k > 0; k-- {
			a := atoms[rng.Intn(len(atoms))]
			s, q := a.bre, quantB[rng.Intn(len(quantB))]
			if ere {
				s, q = a.ere, quantE[rng.Intn(len(quantE))]
			}
			if a.anchor {
				q = ""
			}
			if a.group {
				groups++
				repeatedGroup = repeatedGroup || q != ""
			}
			p.WriteString(s + q)
		}
		if groups > 0 && !repeatedGroup && rng.Intn(4) == 0 {
			p.WriteString(`\1`)
		}
		var in strings.Builder
		for l := rng.Intn(6); l >= 0; l-- {
			for k := rng.Intn(8); k > 0; k-- {
				in.WriteByte(chars[rng.Intn(len(chars))])
			}
			in.WriteByte('\n')
		}
		args := []string{"grep"}
		if ere {
			args = append(args, "-E")
		}
		args = append(args, flagsets[rng.Intn(len(flagsets))]...)
		args = append(args, "-e", p.String())
		if rng.Intn(5) == 0 {
			args = append(args, "-e", atoms[rng.Intn(len(atoms))].bre)
		}
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = []string{"LC_ALL=C"}
		cmd.Stdin = strings.NewReader(in.String())
		var hout, herr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &hout, &herr
		err := cmd.Run()
		hst := 0
		if ee, ok := err.(*exec.ExitError); ok {
			hst = ee.ExitCode()
		}
		got := run(t, testEnv(t, nil), in.String(), args...)
		if got.Stdout != hout.String() || got.Status != hst || (got.Stderr == "") != (herr.Len() == 0) {
			t.Errorf("%q on %q:\nhost %q %d %q\nours %q %d %q", args, in.String(), hout.String(), hst, herr.String(), got.Stdout, got.Status, got.Stderr)
			if failures++; failures > 10 {
				t.FailNow()
			}
		}
	}
}
