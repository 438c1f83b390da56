package builtins

import (
	"bytes"
	"math/rand"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

func TestZZFuzzGrep(t *testing.T) {
	if os.Getenv("GREPFUZZ") == "" {
		t.Skip()
	}
	seed, _ := strconv.Atoi(os.Getenv("GREPFUZZ"))
	rng := rand.New(rand.NewSource(int64(seed)))
	atomsB := []string{"a", "b", "c", ".", "[ab]", "[^a]", "\\(a\\)", "\\(ab\\|c\\)", "x", " ", "\\w", "\\W", "\\s", "[[:alpha:]]", "[[:digit:]]", "1", "\\<", "\\>", "\\b", "^", "$", "\\(a*\\)", "[a-c]", "\\1", "[[:upper:]]", "[]a]", "A", "\xe9", "[^[:space:]]", "\\.", "a\\|^b", "\\(^a\\|c$\\)"}
	atomsE := []string{"a", "b", "c", ".", "[ab]", "[^a]", "(a)", "(ab|c)", "x", " ", "\\w", "\\W", "\\s", "[[:alpha:]]", "[[:digit:]]", "1", "\\<", "\\>", "\\b", "^", "$", "(a*)", "[a-c]", "a|b", "\\1", "[[:upper:]]", "[]a]", "A", "\xe9", "[^[:space:]]", "\\.", "(^a|c$)", "a{,2}"}
	quantB := []string{"", "", "", "*", "\\+", "\\?", "\\{1,2\\}", "\\{2\\}"}
	quantE := []string{"", "", "", "*", "+", "?", "{1,2}", "{2}"}
	flagsets := [][]string{{}, {"-i"}, {"-w"}, {"-x"}, {"-v"}, {"-o"}, {"-c"}, {"-n"}, {"-vn"}, {"-on"}, {"-iw"}, {"-ob"}, {"-wc"}, {"-xv"}, {"-ic"}, {"-io"}, {"-ix"}, {"-vc"}, {"-onb"}, {"-A1"}, {"-B1", "-n"}, {"-C1", "-v"}, {"-m1", "-A1"}, {"-c", "-m2", "-v"}, {"-xn"}}
	chars := "abcx1 A_-.\t\xe9B"
	n := 0
	for iter := 0; iter < 3000; iter++ {
		ere := rng.Intn(2) == 0
		var p strings.Builder
		for k := rng.Intn(4) + 1; k > 0; k-- {
			var a, q string
			if ere {
				a, q = atomsE[rng.Intn(len(atomsE))], quantE[rng.Intn(len(quantE))]
			} else {
				a, q = atomsB[rng.Intn(len(atomsB))], quantB[rng.Intn(len(quantB))]
			}
			if strings.Contains("^$\\<\\>\\b", a) {
				q = ""
			}
			p.WriteString(a + q)
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
			args = append(args, "-e", atomsB[rng.Intn(len(atomsB))])
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
		env := testEnv(t, nil)
		got := run(t, env, in.String(), args...)
		if got.Stdout != hout.String() || got.Status != hst {
			n++
			t.Errorf("%q on %q:\nhost %q %d %q\nours %q %d %q", args, in.String(), hout.String(), hst, herr.String(), got.Stdout, got.Status, got.Stderr)
			if n > 30 {
				t.FailNow()
			}
		}
	}
}
