package builtins

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// dataDiffRandomText makes n lines over a small alphabet so that many
// lines repeat, which is where diff algorithms disagree.
func dataDiffRandomText(r *rand.Rand, n, alphabet int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "l%d\n", r.Intn(alphabet))
	}
	return b.String()
}

// dataDiffMutate applies random edits to text.
func dataDiffMutate(r *rand.Rand, text string, edits, alphabet int) string {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for e := 0; e < edits; e++ {
		i := r.Intn(len(lines) + 1)
		switch r.Intn(3) {
		case 0:
			lines = append(lines[:i], append([]string{fmt.Sprintf("l%d\n", r.Intn(alphabet))}, lines[i:]...)...)
		case 1:
			if i < len(lines) {
				lines = append(lines[:i], lines[i+1:]...)
			}
		default:
			if i < len(lines) {
				lines[i] = fmt.Sprintf("m%d\n", r.Intn(alphabet))
			}
		}
	}
	return strings.Join(lines, "")
}

func TestDataDiffDiff(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"d1": "a\nb\n", "d2": "a\na\nb\n", "d3": "x\na\nb\n", "d4": "x\na\na\nb\n",
		"d5": "a\nb\na\nb\nc\n", "d6": "a\nb\nc\n",
		"nn1": "a", "nn2": "b", "nn3": "a\n",
		"e1": "a\nb\n", "e2": "a\n\nb\n\n", "empty": "",
		"w1": "hello  world\nfoo\tbar \nBaz\n", "w2": "hello world\nfoo bar\nbaz\n", "w3": "helloworld\nfoobar\nBAZ\n",
		"bin1": "a\x00b\n", "bin2": "a\x00c\n",
		"long1": strings.Repeat("same\n", 30) + "old\n" + strings.Repeat("same2\n", 30) + "tail\n",
		"long2": strings.Repeat("same\n", 30) + "new\n" + strings.Repeat("same2\n", 30) + "tail2\n",
		"cr1":   "a\r\nb\r\n", "cr2": "a\nb\n",
		"da/f": "x\n", "db/f": "y\n", "db/g": "z\n", "da/s/h": "q\n", "db/s/h": "q2\n", "da/only/k": "k\n",
		"da/same": "s\n", "db/same": "s\n", "da/x/": "", "db/x": "file\n", "da/e": "",
		"dot1": "a\n.\nb\n", "dot2": "a\nb\n",
	}
	lab := []string{"--label", "A", "--label", "B"}
	with := func(args ...string) []string { return append(append([]string{"diff"}, lab...), args...) }
	cases := []diffCase{
		{Args: with("d1", "d2")}, {Args: with("-u", "d1", "d2")}, {Args: with("d3", "d4")},
		{Args: with("d5", "d6")}, {Args: with("-U0", "d5", "d6")}, {Args: with("-U1", "d5", "d6")},
		{Args: with("-c", "d5", "d6")}, {Args: with("-c", "d6", "d5")}, {Args: with("-C", "1", "d1", "d4")},
		{Args: with("nn1", "nn2")}, {Args: with("-u", "nn1", "d1")}, {Args: with("nn1", "nn3")}, {Args: with("-c", "nn3", "nn1")},
		{Args: with("-B", "e1", "e2")}, {Args: with("e1", "e2")}, {Args: with("-e", "d5", "d6")}, {Args: with("-e", "d1", "d2")},
		{Args: with("-e", "e1", "e2")}, {Args: with("empty", "d1")}, {Args: with("-u", "d1", "empty")}, {Args: with("-c", "empty", "d1")},
		{Args: with("w1", "w2")}, {Args: with("-w", "w1", "w2")}, {Args: with("-b", "w1", "w2")}, {Args: with("-w", "w1", "w3")},
		{Args: with("-i", "w2", "w3")}, {Args: with("-wi", "w1", "w3")}, {Args: with("-bi", "w1", "w2")},
		{Args: with("bin1", "bin2")}, {Args: with("-a", "bin1", "bin2")}, {Args: with("-q", "bin1", "bin2")}, {Args: with("bin1", "bin1")},
		{Args: with("-q", "d1", "d2")}, {Args: with("-s", "d1", "d1")}, {Args: with("-s", "d1", "d2")}, {Args: with("d1", "d1")},
		{Args: with("long1", "long2")}, {Args: with("-u", "long1", "long2")}, {Args: with("-U", "40", "long1", "long2")}, {Args: with("-c", "long1", "long2")},
		{Args: with("cr1", "cr2")}, {Args: with("--strip-trailing-cr", "cr1", "cr2")},
		{Args: with("d1", "nope")}, {Args: with("nope", "d1")}, {Args: with("d1")}, {Args: with("d1", "d2", "d3")},
		{Args: with("-u", "d1", "-")}, {Args: with("-", "d2")},
		{Args: []string{"diff", "da", "db"}}, {Args: []string{"diff", "-r", "da", "db"}}, {Args: []string{"diff", "-ru", "--label", "L", "--label", "R", "da", "db"}},
		{Args: []string{"diff", "-rq", "da", "db"}}, {Args: []string{"diff", "-rN", "-q", "da", "db"}}, {Args: []string{"diff", "-q", "da", "db"}},
		{Args: []string{"diff", "-r", "-x", "s", "da", "db"}}, {Args: []string{"diff", "-rs", "da", "db"}},
		{Args: []string{"diff", "da/f", "db"}}, {Args: []string{"diff", "da", "db/f"}}, {Args: []string{"diff", "-r", "-q", "db", "da"}},
		{Args: with("-e", "dot1", "dot2")}, {Args: with("-e", "dot2", "dot1")},
		{Args: []string{"diff", "-u", "--label", "d1", "--label", "d2", "d1", "d2"}},
		{Args: []string{"diff", "-u", "d1", "d2"}, SkipStdout: "the header lines hold the files' times, which the two runs make apart (the --label case compares the rest)"},
		{Args: with("--unified=1", "long1", "long2")}, {Args: with("--context=0", "d5", "d6")}, {Args: with("-U", "x", "d1", "d2")},
		{Args: with("--brief", "d1", "d2")}, {Args: with("--normal", "d3", "d4")},
	}
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 40; i++ {
		n, alpha := 5+r.Intn(40), 2+r.Intn(8)
		a := dataDiffRandomText(r, n, alpha)
		b := dataDiffMutate(r, a, 1+r.Intn(8), alpha)
		name := fmt.Sprintf("random %d", i)
		fs := map[string]string{"a": a, "b": b}
		cases = append(cases, diffCase{Name: name, Files: fs, Args: with("a", "b")})
		if i%2 == 0 {
			cases = append(cases, diffCase{Name: name + " -u", Files: fs, Args: with("-u", "a", "b")})
		} else {
			cases = append(cases, diffCase{Name: name + " -c", Files: fs, Args: with("-c", "b", "a")})
		}
	}
	// Bigger inputs exercise the discarding of confusing lines and the
	// cost cap.
	for i := 0; i < 4; i++ {
		a := dataDiffRandomText(r, 2000, 50+i*200)
		b := dataDiffMutate(r, a, 200, 50+i*200)
		cases = append(cases, diffCase{Name: fmt.Sprintf("big %d", i), Files: map[string]string{"a": a, "b": b}, Args: with("a", "b")})
	}
	for i := range cases {
		if cases[i].Files == nil {
			cases[i].Files = files
		}
	}
	runDiff(t, cases)
}

func TestDataDiffSideBySide(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"a": "one\ntwo\nthree\nfour\n\tindented\tword\nlong line " + strings.Repeat("x", 80) + "\nend\n",
		"b": "one\n2\nthree\nfive\nsix\n\tindented\tword\nlong line " + strings.Repeat("y", 80) + "\nend\n",
		"c": "x\ny", "d": "x\nz\n", "same": "s1\ns2\n",
	}
	var cases []diffCase
	for _, a := range [][]string{
		{"-y", "a", "b"}, {"-y", "b", "a"}, {"-y", "-W", "60", "a", "b"}, {"-y", "-W", "41", "a", "b"}, {"-y", "--suppress-common-lines", "a", "b"},
		{"-y", "--left-column", "a", "b"}, {"-y", "-t", "a", "b"}, {"-y", "c", "d"}, {"-y", "d", "c"}, {"-y", "same", "same"},
		{"--side-by-side", "--width=100", "-t", "a", "b"},
	} {
		cases = append(cases, diffCase{Args: append([]string{"diff"}, a...), Files: files})
	}
	runDiff(t, cases)
}
